//! Zobrist keys: one random 64-bit number per (colour, role, square), per
//! castling right, per en-passant file, for the side to move and per
//! remaining-check count, XORed together.
//!
//! The numbers come from a fixed [`SplitMix64`] stream evaluated at compile
//! time, so keys are the same in every build and every run (perft hash tables
//! and checkpoint files depend on that).

use crate::splitmix::SplitMix64;
use crate::types::{Color, Role, Square};

/// Number of keys: pieces (2 * 7 * 64), castling (4), en passant (8), side
/// (1), remaining checks (2 colours * 4 counts).
const PIECE_KEYS: usize = 2 * 7 * 64;
const CASTLE_BASE: usize = PIECE_KEYS;
const EP_BASE: usize = CASTLE_BASE + 4;
const SIDE: usize = EP_BASE + 8;
const CHECKS_BASE: usize = SIDE + 1;
const TOTAL: usize = CHECKS_BASE + 8;

const fn make_keys() -> [u64; TOTAL] {
    let mut keys = [0u64; TOTAL];
    let mut rng = SplitMix64::new(0x05EE_D0F7_A21A);
    let mut i = 0;
    while i < TOTAL {
        keys[i] = rng.next_u64();
        i += 1;
    }
    keys
}

static KEYS: [u64; TOTAL] = make_keys();

/// Key of a piece on a square.
#[inline]
pub fn piece(color: Color, role: Role, sq: Square) -> u64 {
    KEYS[(color.index() * 7 + role.index()) * 64 + sq.index()]
}

/// XOR of the keys of the castling rights in `rights` (4 bits).
#[inline]
pub fn castling(rights: u8) -> u64 {
    let mut k = 0;
    let mut i = 0;
    while i < 4 {
        if rights & (1 << i) != 0 {
            k ^= KEYS[CASTLE_BASE + i];
        }
        i += 1;
    }
    k
}

/// Key of an en-passant file (only hashed when the capture is possible).
#[inline]
pub fn en_passant(file: u8) -> u64 {
    KEYS[EP_BASE + file as usize]
}

/// Key XORed in when Black is to move.
#[inline]
pub fn side() -> u64 {
    KEYS[SIDE]
}

/// Key of `color` having `remaining` checks left to give (threecheck), for
/// remaining in `0..=3`; the start value 3 hashes to 0 so that threecheck
/// start keys equal chess keys.
#[inline]
pub fn checks(color: Color, remaining: u8) -> u64 {
    if remaining >= 3 {
        0
    } else {
        KEYS[CHECKS_BASE + color.index() * 4 + remaining as usize]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_distinct_and_nonzero() {
        let mut v = KEYS.to_vec();
        v.sort_unstable();
        v.dedup();
        assert_eq!(v.len(), TOTAL);
        assert!(!v.contains(&0));
    }

    #[test]
    fn keys_are_the_pinned_stream() {
        // Hash tables and checkpoint files on disk depend on these values.
        assert_eq!(
            piece(Color::White, Role::Pawn, Square::new(0).expect("a1")),
            0xb3b8_f304_fe2f_3ffd
        );
        assert_eq!(side(), 0x14db_b1e2_b291_3efb);
    }
}
