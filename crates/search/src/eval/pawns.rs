//! Pawn structure and passed pawns, for every game (a game whose pawns mean
//! something else leaves these weights at 0). Pawns move slowly and their
//! weaknesses last, so each is counted where it stands:
//!
//! - passed pawns by relative rank (`passed_pawn`: no enemy pawn ahead on
//!   its own or an adjacent file), and for each the square in front of it
//!   occupied (`passed_blocked`, by rank), and the distance (Chebyshev, at
//!   most 5) of its own king (`passed_king_own`) and of the enemy king
//!   (`passed_king_theirs`) to that square, by rank: in an endgame a passed
//!   pawn escorted by its king and out of reach of the other runs;
//! - doubled pawns (`doubled_pawn`: another pawn of its side ahead on the
//!   file), isolated pawns (`isolated_pawn`: no pawn of its side on an
//!   adjacent file), backward pawns (`backward_pawn`: not isolated, but no
//!   pawn of its side on an adjacent file level with or behind it can ever
//!   defend it, and an enemy pawn guards the square in front of it), and
//!   connected pawns by relative rank (`connected_pawn`: defended by a pawn
//!   of its side, or side by side with one).
//!
//! Everything is counted for the pawn's owner; a weakness gets a negative
//! weight. The king distances mean most in the endgame, so their tested
//! values are endgame halves (`passed_king_own_eg`).

use super::{group, idx, TermSink};
use movegen::attacks::pawn_attacks;
use movegen::{Bitboard, Color, Position, Role, Square, Variant};

/// The files next to `file`.
pub(super) fn adjacent_files(file: u8) -> Bitboard {
    let mut files = Bitboard::EMPTY;
    if file > 0 {
        files |= Bitboard::file(file - 1);
    }
    if file < 7 {
        files |= Bitboard::file(file + 1);
    }
    files
}

/// Every square on the ranks ahead of `sq` as seen by `color`.
pub(super) fn ranks_ahead(color: Color, sq: Square) -> Bitboard {
    if color.is_white() {
        Bitboard(!0u64 << 8 << (8 * sq.rank() as u32))
    } else {
        Bitboard((1u64 << (8 * sq.rank() as u32)).wrapping_sub(1))
    }
}

/// King-step distance between two squares.
pub(super) fn distance(a: Square, b: Square) -> i32 {
    let df = (a.file() as i32 - b.file() as i32).abs();
    let dr = (a.rank() as i32 - b.rank() as i32).abs();
    df.max(dr)
}

/// Adds the pawn terms of `color` to `acc` (White's view: `sign` is +1 for
/// White, -1 for Black); `their_pawn_attacks` are the squares the enemy's
/// pawns attack (the evaluation's walk has them).
pub(super) fn terms<V: Variant, A: TermSink>(
    pos: &Position<V>,
    color: Color,
    sign: i32,
    their_pawn_attacks: Bitboard,
    acc: &mut A,
) {
    let b = pos.board();
    let them = color.other();
    let ours = b.pieces(color, Role::Pawn);
    if ours.is_empty() {
        return;
    }
    let theirs = b.pieces(them, Role::Pawn);
    // Terms whose weights are all 0 are not worked out (the engine's
    // term sink says which; the tuner's wants them all).
    let passed_extras = acc.wants(group::PASSED_BLOCKED)
        || acc.wants(group::PASSED_KING_OWN)
        || acc.wants(group::PASSED_KING_THEIRS);
    let structure = acc.wants(group::DOUBLED_PAWN)
        || acc.wants(group::ISOLATED_PAWN)
        || acc.wants(group::BACKWARD_PAWN)
        || acc.wants(group::CONNECTED_PAWN);
    let (own_king, their_king) = (pos.king(color), pos.king(them));
    for sq in ours {
        let rank = sq.relative(color).rank() as usize;
        let file = Bitboard::file(sq.file());
        let adjacent = adjacent_files(sq.file());
        let ahead = ranks_ahead(color, sq);
        // The square in front (a pawn never stands on its last rank).
        let stop = Bitboard::from_square(sq).shift_up(color.is_white()).first();
        if ((file | adjacent) & ahead & theirs).is_empty() {
            acc.add(idx::PASSED_PAWN + rank, sign);
            if let Some(stop) = stop.filter(|_| passed_extras) {
                if b.occupied().contains(stop) {
                    acc.add(idx::PASSED_BLOCKED + rank, sign);
                }
                if let Some(k) = own_king {
                    acc.add(idx::PASSED_KING_OWN + rank, sign * distance(k, stop).min(5));
                }
                if let Some(k) = their_king {
                    acc.add(
                        idx::PASSED_KING_THEIRS + rank,
                        sign * distance(k, stop).min(5),
                    );
                }
            }
        }
        if !structure {
            continue;
        }
        if (file & ahead & ours).any() {
            acc.add(idx::DOUBLED_PAWN, sign);
        }
        let neighbours = adjacent & ours;
        if neighbours.is_empty() {
            acc.add(idx::ISOLATED_PAWN, sign);
        } else if (neighbours & !ahead).is_empty()
            && stop.is_some_and(|s| their_pawn_attacks.contains(s))
        {
            acc.add(idx::BACKWARD_PAWN, sign);
        }
        let defenders = pawn_attacks(them, sq) & ours;
        let beside = neighbours & Bitboard::rank(sq.rank());
        if (defenders | beside).any() {
            acc.add(idx::CONNECTED_PAWN + rank, sign);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::{features, idx};
    use movegen::variants::Chess;
    use movegen::Position;

    #[test]
    fn pawn_structure_is_counted_for_the_owner() {
        // White: a2 a3, d4 e4 side by side, f3 defending e4. Black: c5, h7.
        let pos = Position::<Chess>::from_fen("4k3/7p/8/2p5/3PP3/P4P2/P7/4K3 w - - 0 1").unwrap();
        let f = features(&pos);
        // Isolated: a2 and a3 for White, c5 and h7 for Black.
        assert_eq!(f[idx::ISOLATED_PAWN], 2 - 2);
        assert_eq!(f[idx::DOUBLED_PAWN], 1, "a2 has a3 ahead of it");
        // d4 beside e4, e4 defended by f3 (relative rank 4: index 3).
        assert_eq!(f[idx::CONNECTED_PAWN + 3], 2);
        assert_eq!(
            f[idx::CONNECTED_PAWN + 2],
            0,
            "f3 has no pawn beside or behind it"
        );
        // Passed: a2 (index 1) and Black's h7 (its second rank, index 1),
        // a3 and f3 (index 2), e4 (index 3); d4 is stopped by c5, c5 by d4.
        assert_eq!(f[idx::PASSED_PAWN + 1], 1 - 1);
        assert_eq!(f[idx::PASSED_PAWN + 2], 2);
        assert_eq!(f[idx::PASSED_PAWN + 3], 1);
    }

    #[test]
    fn backward_blocked_and_king_distances() {
        // White's d3 has its only neighbour, e4, ahead of it, and the black
        // pawn on c5 guards d4: d3 is backward. White's b6 is passed with a black knight on b7 in
        // front; the white king on c6 is 1 away from b7, the black king on e8
        // is 3 away.
        let pos = Position::<Chess>::from_fen("4k3/1n6/1PK5/2p5/4P3/3P4/8/8 w - - 0 1").unwrap();
        let f = features(&pos);
        assert_eq!(f[idx::BACKWARD_PAWN], 1);
        assert_eq!(f[idx::PASSED_BLOCKED + 5], 1);
        assert_eq!(f[idx::PASSED_KING_OWN + 5], 1);
        assert_eq!(f[idx::PASSED_KING_THEIRS + 5], 3);
    }
}
