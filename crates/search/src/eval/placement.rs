//! Where pieces stand against the pawns, for every game whose pawns are
//! chess's (a game leaves these weights at 0 until an SPRT gives them
//! values). Pawns change slowly, so a square they leave open or out of their
//! reach stays so for a while, and a piece placed there keeps its worth:
//!
//! - `rook_file`, per rook: `[0]` on a semi-open file (no pawn of its own
//!   side on it, an enemy pawn still there), `[1]` on an open file (no pawn
//!   at all). A rook there bears on the enemy camp along the whole file.
//! - `outpost`, per piece, `[0]` knight and `[1]` bishop: on the enemy half
//!   short of the last two ranks (relative ranks 4 to 6), defended by a pawn
//!   of its side, and where no enemy pawn can ever attack it (none on an
//!   adjacent file ahead of it). Only a piece can drive it away.
//!
//! Both are counted for the piece's owner, as [`super::pawns`] counts the
//! pawns; its file and rank masks are the ones used here.

use super::pawns::{adjacent_files, ranks_ahead};
use super::{idx, Accumulator};
use movegen::{Bitboard, Color, Position, Role, Variant};

/// Adds the placement terms of `color`'s pieces to `acc` (White's view:
/// `sign` is +1 for White, -1 for Black); `our_pawn_attacks` are the squares
/// the side's pawns attack (the evaluation's walk has them).
pub(super) fn terms<V: Variant, A: Accumulator>(
    pos: &Position<V>,
    color: Color,
    sign: i32,
    our_pawn_attacks: Bitboard,
    acc: &mut A,
) {
    let b = pos.board();
    let ours = b.pieces(color, Role::Pawn);
    let theirs = b.pieces(color.other(), Role::Pawn);
    if acc.wants(idx::ROOK_FILE, 2) {
        for sq in b.pieces(color, Role::Rook) {
            let file = Bitboard::file(sq.file());
            if (file & ours).is_empty() {
                let open = (file & theirs).is_empty();
                acc.add(idx::ROOK_FILE + usize::from(open), sign);
            }
        }
    }
    if acc.wants(idx::OUTPOST, 2) {
        for (slot, role) in [Role::Knight, Role::Bishop].into_iter().enumerate() {
            for sq in b.pieces(color, role) & our_pawn_attacks {
                let rank = sq.relative(color).rank();
                if (3..=5).contains(&rank)
                    && (adjacent_files(sq.file()) & ranks_ahead(color, sq) & theirs).is_empty()
                {
                    acc.add(idx::OUTPOST + slot, sign);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::for_playout_positions;
    use super::super::{features, idx};
    use movegen::variants::{Chess, Knightmate, ThreeCheck};
    use movegen::{Color, Position, Role, Square, Variant};

    /// The placement counts of `pos` the slow way, square by square and pawn
    /// by pawn (White's minus Black's), in the layout `[rook semi-open, rook
    /// open, knight outpost, bishop outpost]`.
    fn by_squares<V: Variant>(pos: &Position<V>) -> [i32; 4] {
        let b = pos.board();
        let mut counts = [0; 4];
        for color in Color::ALL {
            let sign = if color.is_white() { 1 } else { -1 };
            let pawns_on = |c: Color, file: u8| {
                b.pieces(c, Role::Pawn)
                    .into_iter()
                    .filter(|p| p.file() == file)
                    .count()
            };
            for sq in b.pieces(color, Role::Rook) {
                if pawns_on(color, sq.file()) == 0 {
                    let open = pawns_on(color.other(), sq.file()) == 0;
                    counts[usize::from(open)] += sign;
                }
            }
            for (slot, role) in [(2, Role::Knight), (3, Role::Bishop)] {
                for sq in b.pieces(color, role) {
                    let rel = |s: Square| s.relative(color).rank() as i32;
                    let near = |c: Color, behind: bool| {
                        b.pieces(c, Role::Pawn)
                            .into_iter()
                            .filter(|&p: &Square| {
                                let beside = (p.file() as i32 - sq.file() as i32).abs() == 1;
                                let step = rel(sq) - rel(p);
                                beside && if behind { step == 1 } else { step < 0 }
                            })
                            .count()
                            > 0
                    };
                    let defended = near(color, true);
                    let attackable = near(color.other(), false);
                    if (3..=5).contains(&rel(sq)) && defended && !attackable {
                        counts[slot] += sign;
                    }
                }
            }
        }
        counts
    }

    /// Checks the counts over the evaluation tests' playouts of `V`;
    /// returns how often each term occurred.
    fn placement_matches_the_slow_count<V: Variant>() -> [i32; 4] {
        let mut seen = [0; 4];
        for_playout_positions::<V>(|pos| {
            let f = features(pos);
            let got = [
                f[idx::ROOK_FILE],
                f[idx::ROOK_FILE + 1],
                f[idx::OUTPOST],
                f[idx::OUTPOST + 1],
            ];
            let expected = by_squares(pos);
            assert_eq!(got, expected, "{}", pos.fen());
            for (s, e) in seen.iter_mut().zip(expected) {
                *s += e.abs();
            }
        });
        seen
    }

    #[test]
    fn rook_files_and_outposts_match_the_square_by_square_count() {
        let mut seen = [0; 4];
        for counts in [
            placement_matches_the_slow_count::<Chess>(),
            placement_matches_the_slow_count::<ThreeCheck>(),
            placement_matches_the_slow_count::<Knightmate>(),
        ] {
            for (s, c) in seen.iter_mut().zip(counts) {
                *s += c;
            }
        }
        assert!(
            seen.iter().all(|&s| s > 0),
            "a term never occurred: {seen:?}"
        );
    }

    #[test]
    fn an_outpost_is_defended_and_out_of_the_enemy_pawns_reach() {
        // White's knight e5 is defended by d4, and Black has no pawn on the
        // d- or f-file above it: an outpost. Black's knight c4 is defended by
        // b5, and White's d4 is level with it, so no white pawn can ever
        // attack it: an outpost too. White's rook is on the open h-file,
        // Black's on the d-file, open but for White's d4: semi-open.
        let pos = Position::<Chess>::from_fen("3r2k1/p7/8/1p2N3/2nP4/8/P7/4K2R w - - 0 1").unwrap();
        let f = features(&pos);
        assert_eq!(f[idx::OUTPOST], 1 - 1, "both knights on outposts");
        assert_eq!(f[idx::ROOK_FILE + 1], 1, "h-file open");
        assert_eq!(f[idx::ROOK_FILE], -1, "d-file semi-open for Black");
    }
}
