//! Attack lookups: leaper tables built by `const fn`, slider tables built by
//! the build script (a magic-multiplication table, and on x86-64 a PEXT one),
//! and the `between`/`line` tables used for pins and check blocking.
//!
//! The slider lookup is a type parameter ([`crate::cpu::Lookup`]): the
//! generic `*_attacks_with::<L>` functions, which the move generator, perft
//! and the evaluation call with their game's `V::Lookup`, compile to one
//! lookup with no branch; the plain [`rook_attacks`], [`bishop_attacks`] and
//! [`queen_attacks`] read the run-time choice ([`crate::cpu::slider_lookup`])
//! on each call, for code outside the hot paths.
//!
//! PEXT is issued by inline assembly rather than the `_pext_u64` intrinsic:
//! the intrinsic needs BMI2 enabled at compile time (which would tie the
//! binary to BMI2 CPUs) or a `#[target_feature]` function, which cannot be
//! inlined into the move generator's code; the `asm!` block inlines anywhere
//! and is instantiated for [`crate::cpu::PextLookup`], which runs only after
//! [`crate::cpu::slider_lookup`] has seen BMI2.
//!
//! Every table is checked exhaustively by the tests at the bottom of this
//! file: both slider lookups and `between`/`line` against the ray-walking
//! reference in `slow_attacks.rs`, the leapers against each piece's geometry.

use crate::bitboard::Bitboard;
use crate::cpu::{slider_lookup, Lookup, MagicLookup, PextLookup, SliderLookup};
use crate::slow_attacks::{slow_slider_attacks, BISHOP_DIRS, ROOK_DIRS};
use crate::types::{Color, Role, Square};
use crate::variant::Variant;

/// One square's entry in the slider tables (both layouts).
pub(crate) struct Magic {
    /// Relevant occupancy: the rays without their last square.
    pub(crate) mask: u64,
    /// Magic multiplier (of the magic layout).
    pub(crate) magic: u64,
    /// Start of this square's slice of `MAGIC_TABLE` and of `PEXT_TABLE`.
    pub(crate) offset: u32,
    /// `64 - relevant bits` (of the magic layout).
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

/// The lookup `L` names; a constant per instantiation, so the match folds
/// away and the hot code holds no branch on the choice.
#[inline(always)]
fn slider<L: Lookup>(entry: &Magic, occupied: Bitboard) -> Bitboard {
    match L::LOOKUP {
        #[cfg(target_arch = "x86_64")]
        SliderLookup::Pext => slider_pext(entry, occupied),
        _ => slider_magic(entry, occupied),
    }
}

/// The magic layout's lookup.
#[inline(always)]
fn slider_magic(entry: &Magic, occupied: Bitboard) -> Bitboard {
    let idx = ((occupied.0 & entry.mask).wrapping_mul(entry.magic) >> entry.shift) as usize;
    let i = entry.offset as usize + idx;
    debug_assert!(i < SLIDER_TABLE_LEN);
    // SAFETY: the build script gives each square a slice of exactly
    // 2^popcount(mask) entries starting at `offset`, and `idx`, a product
    // shifted right by 64 - popcount(mask), is below 2^popcount(mask), so `i`
    // is in bounds. The exhaustive table test visits every index. Measured:
    // the bounds check costs about 3% of perft instructions (callgrind).
    Bitboard(unsafe { *MAGIC_TABLE.get_unchecked(i) })
}

/// The PEXT layout's lookup; only where [`crate::cpu::slider_lookup`] chose
/// PEXT (or a test saw BMI2), since it executes `pext`: code instantiated
/// with [`PextLookup`](crate::cpu::PextLookup) is reached only through that
/// choice.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn slider_pext(entry: &Magic, occupied: Bitboard) -> Bitboard {
    debug_assert!(crate::cpu::has_bmi2(), "PEXT lookup without BMI2");
    let idx: u64;
    // SAFETY: callers reach this only on a CPU with BMI2 (`dispatch!` and
    // `with_lookup!` instantiate `PextLookup` only when `slider_lookup`
    // returned Pext, which it does only after
    // `is_x86_feature_detected!("bmi2")`), so the instruction exists. It
    // reads two registers and writes one; no memory, stack or flags are
    // touched.
    unsafe {
        core::arch::asm!(
            "pext {idx}, {occ}, {mask}",
            idx = lateout(reg) idx,
            occ = in(reg) occupied.0,
            mask = in(reg) entry.mask,
            options(pure, nomem, nostack, preserves_flags),
        );
    }
    let i = entry.offset as usize + idx as usize;
    debug_assert!(i < SLIDER_TABLE_LEN);
    // SAFETY: as in `slider_magic`: `idx`, PEXT of the mask's bits, is below
    // 2^popcount(mask), the length of the square's slice.
    Bitboard(unsafe { *PEXT_TABLE.get_unchecked(i) })
}

/// Squares a rook on `sq` attacks given the occupied squares, with the
/// lookup this process chose ([`crate::cpu::slider_lookup`], a branch per
/// call): for code outside the hot paths. Generic code over a game uses
/// [`rook_attacks_with`]`::<V::Lookup>`.
#[inline]
pub fn rook_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    match slider_lookup() {
        SliderLookup::Pext => rook_attacks_with::<PextLookup>(sq, occupied),
        SliderLookup::Magic => rook_attacks_with::<MagicLookup>(sq, occupied),
    }
}

/// Squares a bishop on `sq` attacks given the occupied squares (the lookup
/// chosen at run time, as [`rook_attacks`]; hot code uses
/// [`bishop_attacks_with`]).
#[inline]
pub fn bishop_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    match slider_lookup() {
        SliderLookup::Pext => bishop_attacks_with::<PextLookup>(sq, occupied),
        SliderLookup::Magic => bishop_attacks_with::<MagicLookup>(sq, occupied),
    }
}

/// Squares a queen on `sq` attacks given the occupied squares (the lookup
/// chosen at run time, as [`rook_attacks`]; hot code uses
/// [`queen_attacks_with`]).
#[inline]
pub fn queen_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    rook_attacks(sq, occupied) | bishop_attacks(sq, occupied)
}

/// Squares a rook on `sq` attacks given the occupied squares, with the
/// lookup `L` (in generic code, the game's `V::Lookup`).
#[inline(always)]
pub fn rook_attacks_with<L: Lookup>(sq: Square, occupied: Bitboard) -> Bitboard {
    slider::<L>(&ROOK_MAGICS[sq.index()], occupied)
}

/// Squares a bishop on `sq` attacks given the occupied squares, with the
/// lookup `L`.
#[inline(always)]
pub fn bishop_attacks_with<L: Lookup>(sq: Square, occupied: Bitboard) -> Bitboard {
    slider::<L>(&BISHOP_MAGICS[sq.index()], occupied)
}

/// Squares a queen on `sq` attacks given the occupied squares, with the
/// lookup `L`.
#[inline(always)]
pub fn queen_attacks_with<L: Lookup>(sq: Square, occupied: Bitboard) -> Bitboard {
    rook_attacks_with::<L>(sq, occupied) | bishop_attacks_with::<L>(sq, occupied)
}

/// Attack set of a non-pawn piece of `role` on `from`, as it moves in `V`
/// (the royal piece of knightmate moves as a knight); empty for a pawn,
/// whose attacks depend on its colour ([`pawn_attacks`]). The move
/// generator and the evaluation's mobility both use it, with the game's
/// slider lookup `V::Lookup`.
#[inline(always)]
pub fn piece_attacks<V: Variant>(role: Role, from: Square, occ: Bitboard) -> Bitboard {
    match role {
        Role::Knight => knight_attacks(from),
        Role::Bishop => bishop_attacks_with::<V::Lookup>(from, occ),
        Role::Rook => rook_attacks_with::<V::Lookup>(from, occ),
        Role::Queen => queen_attacks_with::<V::Lookup>(from, occ),
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

    use crate::cpu::has_bmi2;
    use crate::splitmix::SplitMix64;

    type Lookup = fn(&Magic, Bitboard) -> Bitboard;

    /// The lookups this CPU can run, by name: the magic one always, the PEXT
    /// one where there is BMI2 (a CPU without it skips that half, saying so).
    fn lookups() -> Vec<(&'static str, Lookup)> {
        let mut v: Vec<(&'static str, Lookup)> = vec![("magic", slider_magic)];
        #[cfg(target_arch = "x86_64")]
        if has_bmi2() {
            v.push(("pext", slider_pext));
        }
        if v.len() == 1 {
            eprintln!("no BMI2 on this CPU: the PEXT lookup is not tested");
        }
        v
    }

    /// A slider's directions, table entries and ray-walking reference.
    type Slider = (
        &'static [(i32, i32); 4],
        &'static [Magic; 64],
        fn(Square, Bitboard) -> Bitboard,
    );

    fn slider_tables() -> [Slider; 2] {
        [
            (&ROOK_DIRS, &ROOK_MAGICS, slow_rook_attacks),
            (&BISHOP_DIRS, &BISHOP_MAGICS, slow_bishop_attacks),
        ]
    }

    /// Every entry of both tables: each lookup of every relevant occupancy
    /// of every square, against the ray walk, and the public functions
    /// (whichever lookup this process chose) with them.
    #[test]
    fn sliders_match_ray_walk_for_every_relevant_occupancy() {
        let lookups = lookups();
        for sq in Square::all() {
            for ((dirs, entries, slow), public) in slider_tables().into_iter().zip([
                rook_attacks as fn(Square, Bitboard) -> Bitboard,
                bishop_attacks,
            ]) {
                let entry = &entries[sq.index()];
                let mask = slider_mask(sq.index() as u32, dirs);
                assert_eq!(entry.mask, mask);
                for i in 0..(1u64 << mask.count_ones()) {
                    let occ = Bitboard(deposit(i, mask));
                    // Squares outside the mask must not change the answer.
                    let noisy = occ | Bitboard(!mask & 0x5a3c_9f01_7e24_c381);
                    let want = slow(sq, occ);
                    assert_eq!(slow(sq, noisy), want);
                    for (name, lookup) in &lookups {
                        assert_eq!(lookup(entry, occ), want, "{name} {sq:?} occ {:#x}", occ.0);
                        assert_eq!(lookup(entry, noisy), want, "{name} {sq:?}");
                    }
                    assert_eq!(public(sq, noisy), want, "{sq:?} occ {:#x}", noisy.0);
                }
            }
        }
    }

    /// Random whole-board occupancies (sparse, half-full and dense) on every
    /// square: the PEXT and magic lookups agree with each other and with
    /// the ray walk, and so do the queen's.
    #[test]
    fn pext_and_magic_agree_on_random_occupancies() {
        let lookups = lookups();
        let mut rng = SplitMix64::new(0x5eed);
        for n in 0..3000 {
            let occ = Bitboard(match n % 3 {
                0 => rng.next_u64() & rng.next_u64(),
                1 => rng.next_u64(),
                _ => rng.next_u64() | rng.next_u64(),
            });
            for sq in Square::all() {
                for (_, entries, slow) in slider_tables() {
                    let want = slow(sq, occ);
                    for (name, lookup) in &lookups {
                        assert_eq!(
                            lookup(&entries[sq.index()], occ),
                            want,
                            "{name} {sq:?} {:#x}",
                            occ.0
                        );
                    }
                }
                let queen = slow_rook_attacks(sq, occ) | slow_bishop_attacks(sq, occ);
                assert_eq!(queen_attacks(sq, occ), queen);
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
