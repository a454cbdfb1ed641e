//! The network's inputs, the one definition the engine and the trainer share.
//!
//! A position is seen from each colour's perspective. From perspective `p`,
//! a piece of colour `c` and role `r` on square `s` is the input
//!
//! ```text
//! piece_feature(p, c, r, s) = side * 448 + r * 64 + s'
//!     side = 0 if c == p (own piece), 1 otherwise (enemy piece)
//!     r    = movegen::Role index: pawn 0, knight 1, bishop 2, rook 3,
//!            queen 4, king 5, commoner 6 (knightmate's royal knight is the
//!            king, 5; suicide's king is an ordinary piece with role 5)
//!     s'   = s for White, s ^ 56 for Black (the board mirrored vertically,
//!            a1 = 0 ... h8 = 63)
//! ```
//!
//! so there are [`PIECE_INPUTS`] = 2 x 7 x 64 = 896 piece inputs. Threecheck
//! adds [`CHECK_INPUTS`] = 8: the checks each side still has to give, one-hot
//! over 0..=3, own side first:
//!
//! ```text
//! check_feature(p, c, n) = 896 + side * 4 + n     (side as above, n = checks left)
//! ```
//!
//! Every other game has exactly 896 inputs (its counters never change, so
//! they would only be a second bias). Mirroring instead of rotating keeps
//! files in place, which is what the engines of the field do; knightmate's
//! commoner and royal knight keep roles of their own, so no game shares a
//! plane between two kinds of piece.

use movegen::{Color, Piece, Position, Square, Variant, VariantKind};

/// Piece inputs: 2 sides x 7 roles x 64 squares.
pub const PIECE_INPUTS: usize = 2 * 7 * 64;
/// Threecheck's check-counter inputs: 2 sides x 4 counts (0..=3).
pub const CHECK_INPUTS: usize = 2 * 4;
/// The most inputs any game has.
pub const MAX_INPUTS: usize = PIECE_INPUTS + CHECK_INPUTS;
/// The most inputs active at once from one perspective: 32 pieces (no game
/// ever has more) and two check counters.
pub const MAX_ACTIVE: usize = 32 + 2;

/// The number of inputs of `game`'s network: 904 for threecheck, 896 for the
/// others.
pub const fn input_count(game: VariantKind) -> usize {
    match game {
        VariantKind::ThreeCheck => PIECE_INPUTS + CHECK_INPUTS,
        VariantKind::Chess
        | VariantKind::Suicide
        | VariantKind::Atomic
        | VariantKind::Losers
        | VariantKind::Knightmate => PIECE_INPUTS,
    }
}

/// Whether `game` has the check-counter inputs.
pub const fn has_check_inputs(game: VariantKind) -> bool {
    input_count(game) > PIECE_INPUTS
}

/// The input of `piece` on `sq` seen from `perspective` (see the module
/// documentation for the formula).
#[inline]
pub const fn piece_feature(perspective: Color, piece: Piece, sq: Square) -> usize {
    let side = (piece.color as usize) ^ (perspective as usize);
    side * 448 + piece.role.index() * 64 + sq.relative(perspective).index()
}

/// The input saying that `color` still has `remaining` checks to give (0..=3;
/// larger values count as 3), seen from `perspective`. Threecheck only.
#[inline]
pub const fn check_feature(perspective: Color, color: Color, remaining: u8) -> usize {
    let side = (color as usize) ^ (perspective as usize);
    let n = if remaining > 3 { 3 } else { remaining } as usize;
    PIECE_INPUTS + side * 4 + n
}

/// Calls `f` with every active input of a position given by its parts, seen
/// from `perspective`: its pieces, and the checks each side still has to
/// give (indexed by [`Color::index`]) where the game counts them (`None`
/// elsewhere). The trainer reads positions this way from packed records; the
/// engine through [`for_each_active`].
#[inline]
pub fn for_each_active_in(
    perspective: Color,
    pieces: impl IntoIterator<Item = (Square, Piece)>,
    checks_remaining: Option<[u8; 2]>,
    mut f: impl FnMut(usize),
) {
    for (sq, piece) in pieces {
        f(piece_feature(perspective, piece, sq));
    }
    if let Some(checks) = checks_remaining {
        for c in Color::ALL {
            f(check_feature(perspective, c, checks[c.index()]));
        }
    }
}

/// Calls `f` with every active input of `pos` seen from `perspective`.
#[inline]
pub fn for_each_active<V: Variant>(pos: &Position<V>, perspective: Color, f: impl FnMut(usize)) {
    for_each_active_in(perspective, pos.board().iter(), checks_of(pos), f);
}

/// The check counters of `pos` as [`for_each_active_in`] takes them: `Some`
/// in threecheck, `None` in the other games.
#[inline]
pub fn checks_of<V: Variant>(pos: &Position<V>) -> Option<[u8; 2]> {
    has_check_inputs(V::KIND).then(|| {
        [
            pos.checks_remaining(Color::White),
            pos.checks_remaining(Color::Black),
        ]
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use movegen::variants::{Chess, ThreeCheck};
    use movegen::Role;

    fn sq(s: &str) -> Square {
        Square::parse(s).unwrap()
    }

    #[test]
    fn the_formula_by_hand() {
        let wp = Piece {
            color: Color::White,
            role: Role::Pawn,
        };
        let bk = Piece {
            color: Color::Black,
            role: Role::King,
        };
        let bm = Piece {
            color: Color::Black,
            role: Role::Commoner,
        };
        // White's view: a white pawn on e2 (12) is own pawn 12.
        assert_eq!(piece_feature(Color::White, wp, sq("e2")), 12);
        // Black's view: the same pawn is an enemy pawn on e7 (52).
        assert_eq!(piece_feature(Color::Black, wp, sq("e2")), 448 + 52);
        // A black king on e8 is, for Black, its own king on e1 (4).
        assert_eq!(piece_feature(Color::Black, bk, sq("e8")), 5 * 64 + 4);
        assert_eq!(piece_feature(Color::White, bk, sq("e8")), 448 + 5 * 64 + 60);
        assert_eq!(piece_feature(Color::White, bm, sq("h8")), 448 + 6 * 64 + 63);
        assert_eq!(check_feature(Color::White, Color::White, 3), 896 + 3);
        assert_eq!(check_feature(Color::White, Color::Black, 1), 896 + 4 + 1);
        assert_eq!(check_feature(Color::Black, Color::Black, 2), 896 + 2);
    }

    #[test]
    fn inputs_are_in_range_and_distinct() {
        let mut seen = vec![false; MAX_INPUTS];
        for p in Color::ALL {
            seen.iter_mut().for_each(|s| *s = false);
            for c in Color::ALL {
                for r in Role::ALL {
                    for s in Square::all() {
                        let i = piece_feature(p, Piece { color: c, role: r }, s);
                        assert!(i < PIECE_INPUTS && !seen[i]);
                        seen[i] = true;
                    }
                }
                for n in 0..4 {
                    let i = check_feature(p, c, n);
                    assert!((PIECE_INPUTS..MAX_INPUTS).contains(&i) && !seen[i]);
                    seen[i] = true;
                }
            }
            assert!(seen.iter().all(|&s| s));
        }
    }

    /// The start position looks the same from both sides: the mirror makes
    /// the two perspectives' input sets equal.
    #[test]
    fn the_start_position_is_symmetric() {
        fn sorted<V: Variant>(pos: &Position<V>, p: Color) -> Vec<usize> {
            let mut v = Vec::new();
            for_each_active(pos, p, |i| v.push(i));
            v.sort_unstable();
            v
        }
        let pos = Position::<Chess>::startpos();
        assert_eq!(sorted(&pos, Color::White).len(), 32);
        assert_eq!(sorted(&pos, Color::White), sorted(&pos, Color::Black));
        let pos = Position::<ThreeCheck>::startpos();
        let w = sorted(&pos, Color::White);
        assert_eq!(w.len(), 34);
        assert!(w.contains(&(896 + 3)) && w.contains(&(896 + 4 + 3)));
        assert_eq!(w, sorted(&pos, Color::Black));
    }
}
