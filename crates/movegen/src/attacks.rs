//! Attack lookups: leaper tables built by `const fn`, slider tables built by
//! the build script (PEXT layout where BMI2 is enabled at compile time, magic
//! multiplication otherwise), and the `between`/`line` tables used for pins
//! and check blocking.
//!
//! Every table is checked exhaustively by the tests at the bottom of this
//! file: the sliders and `between`/`line` against the ray-walking reference
//! in `slow_attacks.rs`, the leapers against each piece's geometry.

use crate::bitboard::Bitboard;
use crate::slow_attacks::{slow_slider_attacks, BISHOP_DIRS, ROOK_DIRS};
use crate::types::{Color, Role, Square};
use crate::variant::Variant;

/// One square's entry in the slider tables.
pub(crate) struct Magic {
    /// Relevant occupancy: the rays without their last square.
    pub(crate) mask: u64,
    /// Magic multiplier (unused in the PEXT layout).
    #[allow(dead_code)]
    pub(crate) magic: u64,
    /// Start of this square's slice of `SLIDER_TABLE`.
    pub(crate) offset: u32,
    /// `64 - relevant bits` (unused in the PEXT layout).
    #[allow(dead_code)]
    pub(crate) shift: u32,
}

include!(concat!(env!("OUT_DIR"), "/slider_tables.rs"));

const fn leaper_table(deltas: &[(i32, i32)]) -> [u64; 64] {
    let mut table = [0u64; 64];
    let mut sq = 0;
    while sq < 64 {
        let (f, r) = ((sq % 8) as i32, (sq / 8) as i32);
        let mut i = 0;
        while i < deltas.len() {
            let (nf, nr) = (f + deltas[i].0, r + deltas[i].1);
            if nf >= 0 && nf < 8 && nr >= 0 && nr < 8 {
                table[sq] |= 1u64 << (nr * 8 + nf);
            }
            i += 1;
        }
        sq += 1;
    }
    table
}

static KNIGHT: [u64; 64] = leaper_table(&[
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
]);
static KING: [u64; 64] = leaper_table(&[
    (1, 0),
    (1, 1),
    (0, 1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
    (0, -1),
    (1, -1),
]);
static PAWN: [[u64; 64]; 2] = [
    leaper_table(&[(-1, 1), (1, 1)]),
    leaper_table(&[(-1, -1), (1, -1)]),
];

const fn ray_tables() -> ([[u64; 64]; 64], [[u64; 64]; 64]) {
    let mut between = [[0u64; 64]; 64];
    let mut line = [[0u64; 64]; 64];
    let dirs = [
        ROOK_DIRS[0],
        ROOK_DIRS[1],
        ROOK_DIRS[2],
        ROOK_DIRS[3],
        BISHOP_DIRS[0],
        BISHOP_DIRS[1],
        BISHOP_DIRS[2],
        BISHOP_DIRS[3],
    ];
    let mut a = 0;
    while a < 64 {
        let mut d = 0;
        while d < 8 {
            let (df, dr) = dirs[d];
            // The full line through `a` in this direction, both ways.
            let mut full = 1u64 << a;
            let mut k = 1;
            while k < 8 {
                let (f, r) = ((a % 8) as i32 + df * k, (a / 8) as i32 + dr * k);
                if f >= 0 && f < 8 && r >= 0 && r < 8 {
                    full |= 1u64 << (r * 8 + f);
                }
                let (f, r) = ((a % 8) as i32 - df * k, (a / 8) as i32 - dr * k);
                if f >= 0 && f < 8 && r >= 0 && r < 8 {
                    full |= 1u64 << (r * 8 + f);
                }
                k += 1;
            }
            let mut acc = 0u64;
            let mut k = 1;
            while k < 8 {
                let (f, r) = ((a % 8) as i32 + df * k, (a / 8) as i32 + dr * k);
                if !(f >= 0 && f < 8 && r >= 0 && r < 8) {
                    break;
                }
                let b = (r * 8 + f) as usize;
                between[a][b] = acc;
                line[a][b] = full;
                acc |= 1u64 << b;
                k += 1;
            }
            d += 1;
        }
        a += 1;
    }
    (between, line)
}

static RAYS: ([[u64; 64]; 64], [[u64; 64]; 64]) = ray_tables();

const fn empty_board_table(dirs: &[(i32, i32); 4]) -> [u64; 64] {
    let mut t = [0u64; 64];
    let mut sq = 0;
    while sq < 64 {
        t[sq] = slow_slider_attacks(sq as u32, 0, dirs);
        sq += 1;
    }
    t
}

static ROOK_RAYS: [u64; 64] = empty_board_table(&ROOK_DIRS);
static BISHOP_RAYS: [u64; 64] = empty_board_table(&BISHOP_DIRS);

/// Rook attacks on an empty board (the lines a rook could pin or check along).
#[inline]
pub const fn rook_rays(sq: Square) -> Bitboard {
    Bitboard(ROOK_RAYS[sq.index()])
}

/// Bishop attacks on an empty board.
#[inline]
pub const fn bishop_rays(sq: Square) -> Bitboard {
    Bitboard(BISHOP_RAYS[sq.index()])
}

/// Squares a knight on `sq` attacks.
#[inline]
pub const fn knight_attacks(sq: Square) -> Bitboard {
    Bitboard(KNIGHT[sq.index()])
}

/// Squares a king (or commoner) on `sq` attacks.
#[inline]
pub const fn king_attacks(sq: Square) -> Bitboard {
    Bitboard(KING[sq.index()])
}

/// Squares a pawn of `color` on `sq` attacks (captures towards).
#[inline]
pub const fn pawn_attacks(color: Color, sq: Square) -> Bitboard {
    Bitboard(PAWN[color.index()][sq.index()])
}

#[inline]
fn slider(entry: &Magic, occupied: Bitboard) -> Bitboard {
    #[cfg(all(target_arch = "x86_64", target_feature = "bmi2"))]
    // SAFETY: this line is only compiled when BMI2 is enabled for the whole
    // build (`target_feature = "bmi2"`), so the instruction exists.
    let idx = unsafe { core::arch::x86_64::_pext_u64(occupied.0, entry.mask) } as usize;
    #[cfg(not(all(target_arch = "x86_64", target_feature = "bmi2")))]
    let idx = ((occupied.0 & entry.mask).wrapping_mul(entry.magic) >> entry.shift) as usize;
    let i = entry.offset as usize + idx;
    debug_assert!(i < SLIDER_TABLE_LEN);
    // SAFETY: the build script gives each square a slice of exactly
    // 2^popcount(mask) entries starting at `offset`, and `idx` is below
    // 2^popcount(mask) (PEXT of the mask's bits, or a product shifted right by
    // 64 - popcount(mask)), so `i` is in bounds. The exhaustive table test
    // visits every index. Measured: the bounds check costs about 3% of perft
    // instructions (callgrind).
    Bitboard(unsafe { *SLIDER_TABLE.get_unchecked(i) })
}

/// Squares a rook on `sq` attacks given the occupied squares.
#[inline]
pub fn rook_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    slider(&ROOK_MAGICS[sq.index()], occupied)
}

/// Squares a bishop on `sq` attacks given the occupied squares.
#[inline]
pub fn bishop_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    slider(&BISHOP_MAGICS[sq.index()], occupied)
}

/// Squares a queen on `sq` attacks given the occupied squares.
#[inline]
pub fn queen_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    rook_attacks(sq, occupied) | bishop_attacks(sq, occupied)
}

/// Attack set of a non-pawn piece of `role` on `from`, as it moves in `V`
/// (the royal piece of knightmate moves as a knight); empty for a pawn,
/// whose attacks depend on its colour ([`pawn_attacks`]). The move
/// generator and the evaluation's mobility both use it.
#[inline(always)]
pub fn piece_attacks<V: Variant>(role: Role, from: Square, occ: Bitboard) -> Bitboard {
    match role {
        Role::Knight => knight_attacks(from),
        Role::Bishop => bishop_attacks(from, occ),
        Role::Rook => rook_attacks(from, occ),
        Role::Queen => queen_attacks(from, occ),
        Role::King if V::ROYAL_KNIGHT => knight_attacks(from),
        Role::King | Role::Commoner => king_attacks(from),
        Role::Pawn => Bitboard::EMPTY,
    }
}

/// Squares strictly between `a` and `b` if they share a rank, file or
/// diagonal; empty otherwise.
#[inline]
pub fn between(a: Square, b: Square) -> Bitboard {
    Bitboard(RAYS.0[a.index()][b.index()])
}

/// The whole line (edge to edge) through `a` and `b` if they share a rank,
/// file or diagonal; empty otherwise.
#[inline]
pub fn line(a: Square, b: Square) -> Bitboard {
    Bitboard(RAYS.1[a.index()][b.index()])
}

/// Slow reference for a rook, for tests and table checks.
pub fn slow_rook_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    Bitboard(slow_slider_attacks(
        sq.index() as u32,
        occupied.0,
        &ROOK_DIRS,
    ))
}

/// Slow reference for a bishop, for tests and table checks.
pub fn slow_bishop_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    Bitboard(slow_slider_attacks(
        sq.index() as u32,
        occupied.0,
        &BISHOP_DIRS,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::slow_attacks::{deposit, slider_mask};

    #[test]
    fn sliders_match_ray_walk_for_every_relevant_occupancy() {
        for sq in Square::all() {
            for (dirs, fast, slow) in [
                (
                    &ROOK_DIRS,
                    rook_attacks as fn(Square, Bitboard) -> Bitboard,
                    slow_rook_attacks as fn(Square, Bitboard) -> Bitboard,
                ),
                (&BISHOP_DIRS, bishop_attacks, slow_bishop_attacks),
            ] {
                let mask = slider_mask(sq.index() as u32, dirs);
                for i in 0..(1u64 << mask.count_ones()) {
                    let occ = Bitboard(deposit(i, mask));
                    assert_eq!(fast(sq, occ), slow(sq, occ), "{sq:?} occ {:#x}", occ.0);
                    // Squares outside the mask must not change the answer.
                    let noisy = occ | Bitboard(!mask & 0x5a3c_9f01_7e24_c381);
                    assert_eq!(fast(sq, noisy), slow(sq, noisy));
                }
            }
        }
    }

    /// The leaper tables against a geometric definition of each piece, not
    /// a second copy of their delta lists (a wrong delta in the table would
    /// be copied into such a list and pass): a knight reaches the squares at
    /// distance sqrt(5), a king those at Chebyshev distance 1, a pawn the two
    /// diagonal neighbours one rank ahead of it.
    #[test]
    fn leapers_match_their_geometry() {
        for from in Square::all() {
            for to in Square::all() {
                let df = to.file() as i32 - from.file() as i32;
                let dr = to.rank() as i32 - from.rank() as i32;
                let what = format!("{from:?} -> {to:?}");
                let knight = df * df + dr * dr == 5;
                let king = df.abs().max(dr.abs()) == 1;
                let white_pawn = df.abs() == 1 && dr == 1;
                let black_pawn = df.abs() == 1 && dr == -1;
                assert_eq!(knight_attacks(from).contains(to), knight, "knight {what}");
                assert_eq!(king_attacks(from).contains(to), king, "king {what}");
                assert_eq!(
                    pawn_attacks(Color::White, from).contains(to),
                    white_pawn,
                    "white pawn {what}"
                );
                assert_eq!(
                    pawn_attacks(Color::Black, from).contains(to),
                    black_pawn,
                    "black pawn {what}"
                );
            }
        }
    }

    #[test]
    fn between_and_line_match_reference() {
        for a in Square::all() {
            for b in Square::all() {
                let empty = Bitboard::EMPTY;
                let on_rook_line = slow_rook_attacks(a, empty).contains(b);
                let on_bishop_line = slow_bishop_attacks(a, empty).contains(b);
                let (expected_between, expected_line) = if on_rook_line || on_bishop_line {
                    let walk = |x: Square, y: Square| {
                        if on_rook_line {
                            slow_rook_attacks(x, Bitboard::from_square(y))
                        } else {
                            slow_bishop_attacks(x, Bitboard::from_square(y))
                        }
                    };
                    // Collinear squares by cross product.
                    let collinear = Square::all()
                        .filter(|&c| {
                            (c.file() as i32 - a.file() as i32)
                                * (b.rank() as i32 - a.rank() as i32)
                                == (c.rank() as i32 - a.rank() as i32)
                                    * (b.file() as i32 - a.file() as i32)
                        })
                        .fold(empty, |acc, c| acc.with(c));
                    (walk(a, b) & walk(b, a), collinear)
                } else {
                    (empty, empty)
                };
                assert_eq!(between(a, b), expected_between, "between {a:?} {b:?}");
                assert_eq!(line(a, b), expected_line, "line {a:?} {b:?}");
            }
        }
    }
}
