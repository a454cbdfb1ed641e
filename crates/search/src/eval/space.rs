//! Space, for the games whose pawns are chess's (0 where a game has not
//! shown it wants it): Stockfish's classical `space`. While many pieces are
//! on the board, the squares behind a side's pawn chain in the centre are
//! room its pieces manoeuvre in that the enemy's cannot enter, and the more
//! pieces a side has (and the more blocked the pawns, the longer the
//! position stays closed), the more that room is worth:
//!
//! - the *area*: the centre files (c to f) on the side's second to fourth
//!   ranks, without its own pawns and the squares an enemy pawn attacks;
//! - the *bonus*: the squares of the area, and once more those of them that
//!   are one to three squares behind one of its pawns and that no enemy
//!   piece attacks;
//! - the *weight*: the side's pieces (pawns and king too) less 3, plus the
//!   blocked pawns of both sides (a pawn with an enemy pawn right in front,
//!   or whose push square two enemy pawns attack), at most 9;
//! - the count, for the side: bonus × weight² / 16, while the phase is at
//!   least [`SPACE_PHASE`] (Stockfish's threshold, three quarters of the
//!   starting non-pawn material), else 0.

use super::threats::Attacks;
use super::{idx, TermSink};
use movegen::attacks::pawn_attacks;
use movegen::{Bitboard, Color, Position, Role, Variant};

/// The phase from which space counts (of [`super::PHASE_MAX`], 24 at the
/// start): Stockfish's `SpaceThreshold` is about three quarters of the
/// starting non-pawn material.
pub(super) const SPACE_PHASE: i32 = 18;

/// The files c to f.
const CENTER_FILES: Bitboard = Bitboard(0x3c3c_3c3c_3c3c_3c3c);

/// Adds `space` for both sides to `acc` (White's view); `attacks` is indexed
/// by colour and complete (pawns and pieces).
pub(super) fn terms<V: Variant, A: TermSink>(
    pos: &Position<V>,
    attacks: &[Attacks; 2],
    acc: &mut A,
) {
    if super::phase(pos) < SPACE_PHASE {
        return;
    }
    let b = pos.board();
    let blocked = blocked_pawns(pos, Color::White) + blocked_pawns(pos, Color::Black);
    for color in Color::ALL {
        let white = color.is_white();
        let sign = if white { 1 } else { -1 };
        let theirs = &attacks[color.other().index()];
        let pawns = b.pieces(color, Role::Pawn);
        let ranks = if white {
            Bitboard::rank(1) | Bitboard::rank(2) | Bitboard::rank(3)
        } else {
            Bitboard::rank(6) | Bitboard::rank(5) | Bitboard::rank(4)
        };
        let area = CENTER_FILES & ranks & !pawns & !theirs.pawns;
        let behind = pawns | pawns.shift_up(!white);
        let behind = behind | behind.shift_up(!white).shift_up(!white);
        let bonus = area.count() as i32 + (area & behind & !theirs.all).count() as i32;
        let weight = b.color(color).count() as i32 - 3 + blocked.min(9);
        let space = bonus * weight * weight / 16;
        if space != 0 {
            acc.add(idx::SPACE, sign * space);
        }
    }
}

/// The pawns of `color` that cannot advance freely: an enemy pawn right in
/// front, or two enemy pawns attacking the square in front (Stockfish's
/// `blockedCount`, one side's part).
fn blocked_pawns<V: Variant>(pos: &Position<V>, color: Color) -> i32 {
    let b = pos.board();
    let white = color.is_white();
    let enemy = color.other();
    let enemy_pawns = b.pieces(enemy, Role::Pawn);
    let mut attacked = Bitboard(0);
    let mut twice = Bitboard(0);
    for sq in enemy_pawns {
        let a = pawn_attacks(enemy, sq);
        twice |= attacked & a;
        attacked |= a;
    }
    let pawns = b.pieces(color, Role::Pawn);
    (pawns.shift_up(white) & (enemy_pawns | twice)).count() as i32
}

#[cfg(test)]
mod tests {
    use super::super::{features, idx};
    use movegen::variants::Chess;
    use movegen::Position;

    #[test]
    fn space_counts_the_safe_central_squares_behind_the_pawns() {
        // The start: each side's area is its c to f files on its third and
        // fourth ranks (its pawns stand on the second), none behind a pawn:
        // a bonus of 8 each, weight 16 - 3, the same for both.
        let pos = Position::<Chess>::startpos();
        assert_eq!(features(&pos)[idx::SPACE], 0);
        // After 1. e4 e5 2. d4, two blocked pawns (e4 and e5). White's area:
        // d2 e2 c3 d3 e3 f3 c4 (f4 is attacked by the pawn on e5); behind
        // its pawns d4 and e4 and out of Black's reach: d2 e2 d3 e3. Bonus
        // 7 + 4, weight 16 - 3 + 2: 11 × 225 / 16 = 154. Black's area: e7
        // c6 d6 e6 f6 (White's pawns attack c5 d5 f5); behind e5: e6 e7,
        // which no white piece reaches. Bonus 5 + 2: 7 × 225 / 16 = 98.
        let pos = Position::<Chess>::from_fen(
            "rnbqkbnr/pppp1ppp/8/4p3/3PP3/8/PPP2PPP/RNBQKBNR b KQkq - 0 2",
        )
        .unwrap();
        assert_eq!(features(&pos)[idx::SPACE], 154 - 98);
        // With most pieces gone (phase below 18), no space.
        let pos = Position::<Chess>::from_fen("r3k3/pppp1ppp/8/4p3/3PP3/8/PPP2PPP/R3K3 w - - 0 1")
            .unwrap();
        assert_eq!(features(&pos)[idx::SPACE], 0);
    }
}
