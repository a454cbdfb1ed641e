//! Suicide (giveaway): the side that loses every piece, or is left without a
//! move, wins; captures are forced. What wins is having few pieces and
//! leaving the opponent few choices, not the value of what is left, so two
//! terms beside the common ones (whose material already counts against its
//! owner here):
//!
//! - piece count: every piece, whatever its kind, counted against its owner,
//!   beside material (with equal material weights material itself would come
//!   to a count; this term lets the tuner weigh count and value apart);
//! - legal mobility of both sides: the number of legal moves (a forced
//!   capture leaves only the captures) of each side, the mover's and the
//!   opponent's, so a position where the opponent has one move, the forced
//!   capture, reads as near to a forced line.
//!
//! Defaults 100 per piece and 10 per move: +98 Elo over the evaluation
//! without them (H1, data/sprt/log.csv).

use super::{idx, Accumulator};
use movegen::{Color, Position, Variant};

/// Adds the suicide terms of `pos` to `acc` (White's view).
pub(super) fn terms<V: Variant, A: Accumulator>(pos: &Position<V>, acc: &mut A) {
    let b = pos.board();
    let pieces = |c: Color| b.color(c).count() as i32;
    let count = pieces(Color::White) - pieces(Color::Black);
    if count != 0 {
        acc.add(idx::PIECE_COUNT, -count);
    }
    // Two move generations: not when the weight is 0 (losers' default).
    if !acc.wants(idx::LEGAL_MOBILITY, 1) {
        return;
    }
    // The side not to move's moves: its position after a pass (suicide has
    // no check, so a pass is refused only when the game is over; in losers
    // a side in check cannot pass and the other side's count is 0).
    let mover = pos.count_legal() as i32;
    let waiting = pos.play_null().map_or(0, |p| p.count_legal() as i32);
    let mobility = if pos.turn().is_white() {
        mover - waiting
    } else {
        waiting - mover
    };
    if mobility != 0 {
        acc.add(idx::LEGAL_MOBILITY, mobility);
    }
}

#[cfg(test)]
mod tests {
    use super::super::{features, idx};
    use movegen::variants::Suicide;
    use movegen::Position;

    #[test]
    fn piece_count_and_both_sides_legal_moves() {
        // White: rook a1 and pawn h2; Black: knight b8. White to move has no
        // capture: rook 14 moves, pawn 2. Black after a pass: knight 3 moves.
        let pos = Position::<Suicide>::from_fen("1n6/8/8/8/8/8/7P/R7 w - - 0 1").unwrap();
        let f = features(&pos);
        assert_eq!(f[idx::PIECE_COUNT], -(2 - 1));
        assert_eq!(pos.count_legal(), 16);
        assert_eq!(f[idx::LEGAL_MOBILITY], 16 - 3);
        // Black to move: the same counts from the other side.
        let pos = Position::<Suicide>::from_fen("1n6/8/8/8/8/8/7P/R7 b - - 0 1").unwrap();
        assert_eq!(features(&pos)[idx::LEGAL_MOBILITY], 16 - 3);
        // A forced capture leaves the mover one move: rook a1 takes the
        // knight on a8.
        let pos = Position::<Suicide>::from_fen("n7/8/8/8/8/8/7P/R7 w - - 0 1").unwrap();
        assert_eq!(features(&pos)[idx::LEGAL_MOBILITY], 1 - 2);
    }
}
