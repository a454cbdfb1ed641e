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
//! - `minor_behind_pawn`, `[0]` knight and `[1]` bishop: a pawn of either
//!   side stands right in front of it, shielding it from attacks along the
//!   file and blocking that pawn.
//! - `king_protector`, `[0]` knight and `[1]` bishop: the king-step distance
//!   from the piece to its own king, counted once per square (a negative
//!   weight keeps the minor pieces near the king they defend).
//! - `long_diagonal_bishop`: a bishop that sees both central squares of its
//!   long diagonal through every piece but the pawns (pieces move, pawns
//!   stay).
//!
//! All are counted for the piece's owner, as [`super::pawns`] counts the
//! pawns; its file and rank masks and its distance are the ones used here.

use super::pawns::{adjacent_files, distance, ranks_ahead};
use super::{group, idx, TermSink};
use movegen::attacks::bishop_attacks_with;
use movegen::{Bitboard, Color, Position, Role, Square, Variant};

/// The four central squares, d4, e4, d5 and e5.
const CENTER: Bitboard = Bitboard(0x0000_0018_1800_0000);

/// Adds the placement terms of `color`'s pieces to `acc` (White's view:
/// `sign` is +1 for White, -1 for Black); `our_pawn_attacks` are the squares
/// the side's pawns attack (the evaluation's walk has them).
pub(super) fn terms<V: Variant, A: TermSink>(
    pos: &Position<V>,
    color: Color,
    sign: i32,
    our_pawn_attacks: Bitboard,
    acc: &mut A,
) {
    let b = pos.board();
    let ours = b.pieces(color, Role::Pawn);
    let theirs = b.pieces(color.other(), Role::Pawn);
    if acc.wants(group::ROOK_FILE) {
        for sq in b.pieces(color, Role::Rook) {
            let file = Bitboard::file(sq.file());
            if (file & ours).is_empty() {
                let open = (file & theirs).is_empty();
                acc.add(idx::ROOK_FILE + usize::from(open), sign);
            }
        }
    }
    if acc.wants(group::OUTPOST) {
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
    let pawns = ours | theirs;
    if acc.wants(group::MINOR_BEHIND_PAWN) {
        // Squares right behind a pawn, seen from `color`'s side.
        let behind_pawns = pawns.shift_up(!color.is_white());
        for (slot, role) in [Role::Knight, Role::Bishop].into_iter().enumerate() {
            let count = (b.pieces(color, role) & behind_pawns).count() as i32;
            if count != 0 {
                acc.add(idx::MINOR_BEHIND_PAWN + slot, sign * count);
            }
        }
    }
    if acc.wants(group::KING_PROTECTOR) {
        if let Some(king) = pos.king(color) {
            for (slot, role) in [Role::Knight, Role::Bishop].into_iter().enumerate() {
                let far: i32 = b.pieces(color, role).map(|sq| distance(sq, king)).sum();
                if far != 0 {
                    acc.add(idx::KING_PROTECTOR + slot, sign * far);
                }
            }
        }
    }
    if acc.wants(group::LONG_DIAGONAL_BISHOP) {
        let count = b
            .pieces(color, Role::Bishop)
            .filter(|&sq: &Square| {
                (bishop_attacks_with::<V::Lookup>(sq, pawns) & CENTER).more_than_one()
            })
            .count() as i32;
        if count != 0 {
            acc.add(idx::LONG_DIAGONAL_BISHOP, sign * count);
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

    /// Checks the features `terms` against `slow`, the same counts the
    /// slow way, over the evaluation tests' playouts of `V`; returns how
    /// often each term occurred.
    fn matches_the_slow_count<V: Variant, const N: usize>(
        terms: [usize; N],
        slow: fn(&Position<V>) -> [i32; N],
    ) -> [i32; N] {
        let mut seen = [0; N];
        for_playout_positions::<V>(|pos| {
            let f = features(pos);
            let got = terms.map(|t| f[t]);
            let expected = slow(pos);
            assert_eq!(got, expected, "{}", pos.fen());
            for (s, e) in seen.iter_mut().zip(expected) {
                *s += e.abs();
            }
        });
        seen
    }

    /// Asserts that each term occurred in one of the games' playouts.
    fn each_term_occurred<const N: usize>(per_game: [[i32; N]; 3]) {
        let mut seen = [0; N];
        for counts in per_game {
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
    fn rook_files_and_outposts_match_the_square_by_square_count() {
        let terms = [
            idx::ROOK_FILE,
            idx::ROOK_FILE + 1,
            idx::OUTPOST,
            idx::OUTPOST + 1,
        ];
        each_term_occurred([
            matches_the_slow_count::<Chess, 4>(terms, by_squares),
            matches_the_slow_count::<ThreeCheck, 4>(terms, by_squares),
            matches_the_slow_count::<Knightmate, 4>(terms, by_squares),
        ]);
    }

    /// The minor-piece counts of `pos` the slow way (White's minus Black's),
    /// in the layout `[knight behind a pawn, bishop behind a pawn, knight
    /// distance to its king, bishop distance, bishops on a long diagonal]`:
    /// squares compared by file and rank, diagonals walked step by step.
    fn minors_by_squares<V: Variant>(pos: &Position<V>) -> [i32; 5] {
        let b = pos.board();
        let pawns: Vec<Square> = Color::ALL
            .into_iter()
            .flat_map(|c| b.pieces(c, Role::Pawn))
            .collect();
        let mut counts = [0; 5];
        for color in Color::ALL {
            let sign = if color.is_white() { 1 } else { -1 };
            let forward = if color.is_white() { 1 } else { -1 };
            for (slot, role) in [(0, Role::Knight), (1, Role::Bishop)] {
                for sq in b.pieces(color, role) {
                    let in_front = pawns.iter().any(|p| {
                        p.file() == sq.file() && p.rank() as i32 == sq.rank() as i32 + forward
                    });
                    counts[slot] += sign * i32::from(in_front);
                    if let Some(k) = pos.king(color) {
                        let df = (k.file() as i32 - sq.file() as i32).abs();
                        let dr = (k.rank() as i32 - sq.rank() as i32).abs();
                        counts[2 + slot] += sign * df.max(dr);
                    }
                }
            }
            for sq in b.pieces(color, Role::Bishop) {
                let mut central = 0;
                for (df, dr) in [(1, 1), (1, -1), (-1, 1), (-1, -1)] {
                    let (mut f, mut r) = (sq.file() as i32 + df, sq.rank() as i32 + dr);
                    while (0..8).contains(&f) && (0..8).contains(&r) {
                        if (3..=4).contains(&f) && (3..=4).contains(&r) {
                            central += 1;
                        }
                        if pawns
                            .iter()
                            .any(|p| p.file() as i32 == f && p.rank() as i32 == r)
                        {
                            break;
                        }
                        f += df;
                        r += dr;
                    }
                }
                counts[4] += sign * i32::from(central >= 2);
            }
        }
        counts
    }

    #[test]
    fn minor_piece_placement_matches_the_square_by_square_count() {
        let terms = [
            idx::MINOR_BEHIND_PAWN,
            idx::MINOR_BEHIND_PAWN + 1,
            idx::KING_PROTECTOR,
            idx::KING_PROTECTOR + 1,
            idx::LONG_DIAGONAL_BISHOP,
        ];
        each_term_occurred([
            matches_the_slow_count::<Chess, 5>(terms, minors_by_squares),
            matches_the_slow_count::<ThreeCheck, 5>(terms, minors_by_squares),
            matches_the_slow_count::<Knightmate, 5>(terms, minors_by_squares),
        ]);
    }

    #[test]
    fn minors_behind_pawns_near_the_king_and_on_the_long_diagonal() {
        // White: knight d3 behind its d4 pawn; bishop b2, whose diagonal
        // stops at that pawn, sees d4 alone of the centre. Black: knight c6
        // behind its c5 pawn; bishop g7 sees e5 and d4 (where its ray
        // stops): two central squares, a long-diagonal bishop.
        let pos = Position::<Chess>::from_fen("6k1/6b1/2n5/2p5/3P4/3N4/1B6/6K1 w - - 0 1").unwrap();
        let f = features(&pos);
        assert_eq!(f[idx::MINOR_BEHIND_PAWN], 1 - 1, "Nd3 and Nc6 behind pawns");
        assert_eq!(f[idx::MINOR_BEHIND_PAWN + 1], 0, "no bishop behind a pawn");
        assert_eq!(f[idx::LONG_DIAGONAL_BISHOP], -1, "Bg7 only");
        // Nd3 is 3 steps from g1, Nc6 4 from g8; Bb2 5, Bg7 1.
        assert_eq!(f[idx::KING_PROTECTOR], 3 - 4);
        assert_eq!(f[idx::KING_PROTECTOR + 1], 5 - 1);
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
