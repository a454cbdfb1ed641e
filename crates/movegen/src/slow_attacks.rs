//! Slow, obviously-correct slider attacks by walking rays square by square.
//!
//! This file is shared verbatim between the build script (which uses it to
//! fill the fast lookup tables) and the library (whose tests compare every
//! table entry against it). It depends on nothing but `u64` so that both can
//! `include!` or `mod` it.

/// Rook directions as (file step, rank step).
pub const ROOK_DIRS: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
/// Bishop directions as (file step, rank step).
pub const BISHOP_DIRS: [(i32, i32); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];

/// Squares a slider on `sq` attacks along `dirs`, stopping at (and
/// including) the first occupied square of each ray.
pub const fn slow_slider_attacks(sq: u32, occupied: u64, dirs: &[(i32, i32); 4]) -> u64 {
    let mut attacks = 0u64;
    let mut d = 0;
    while d < 4 {
        let (df, dr) = dirs[d];
        let mut f = (sq % 8) as i32 + df;
        let mut r = (sq / 8) as i32 + dr;
        while f >= 0 && f < 8 && r >= 0 && r < 8 {
            let bit = 1u64 << (r * 8 + f);
            attacks |= bit;
            if occupied & bit != 0 {
                break;
            }
            f += df;
            r += dr;
        }
        d += 1;
    }
    attacks
}

/// The relevant-occupancy mask of a slider: its empty-board rays without the
/// last square of each ray (a piece there cannot block anything further).
pub const fn slider_mask(sq: u32, dirs: &[(i32, i32); 4]) -> u64 {
    let mut mask = 0u64;
    let mut d = 0;
    while d < 4 {
        let (df, dr) = dirs[d];
        let mut f = (sq % 8) as i32 + df;
        let mut r = (sq / 8) as i32 + dr;
        while f + df >= 0 && f + df < 8 && r + dr >= 0 && r + dr < 8 {
            mask |= 1u64 << (r * 8 + f);
            f += df;
            r += dr;
        }
        d += 1;
    }
    mask
}

/// Software parallel bit deposit: spreads the low bits of `index` over the
/// set bits of `mask` (lowest first). Enumerates every subset of a mask.
pub const fn deposit(index: u64, mut mask: u64) -> u64 {
    let mut result = 0u64;
    let mut bit = 0;
    while mask != 0 {
        let lowest = mask & mask.wrapping_neg();
        if index & (1u64 << bit) != 0 {
            result |= lowest;
        }
        mask &= mask - 1;
        bit += 1;
    }
    result
}
