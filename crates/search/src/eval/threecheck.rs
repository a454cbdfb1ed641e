//! Threecheck: the game is won by the third check, so a check given is worth
//! more than most material and the danger to a king grows with every check
//! its owner has already taken. Three terms beside the common ones:
//!
//! - king danger by the checks the opponent still needs: the common king
//!   danger count (attacks on the squares around a king) once more, with one
//!   weight per number of checks the attacker still has to give (3, 2, 1), on
//!   top of the common `king_danger`, so the last check's threats can weigh
//!   far more than the first's;
//! - safe checks: the squares from which an enemy piece can check the king
//!   next move and that the king's side does not attack (any such square
//!   once the checker needs one check: that check wins), again one weight
//!   per number of checks the checker still needs;
//! - guarded checks: the other check squares, those the king's side
//!   attacks, by the same numbers (a check there can be answered by a
//!   capture but is still a check given; Fairy-Stockfish's "unsafe checks",
//!   weighed double in threecheck's king danger; 0 by default).
//!
//! The first two are in the defaults since their SPRT passed (+24.6 Elo [12.7,
//! 36.5], H1 in 2821 games at 5000 nodes; data/sprt/log.csv); counting
//! every check square once one check is left gained +38.8 [18.1, 59.7], H1
//! in 883 games at 10000 nodes; the endgame half of the king danger by
//! checks left at 2 / (2 + checks still needed) of the middlegame's
//! (Fairy-Stockfish's endgame share of king safety here) +27.3 [10.3,
//! 44.5], H1 in 1248 games. The safe-check
//! count is the one of the common king attack (`eval/king_attack.rs`).
//!
//! The bonus for the checks already given is the common `checks_given`
//! group; its scale (steeply rising with checks given) is a weight, set in
//! [`super::EvalParams::default_for`].

use super::king_attack::CheckSquares;
use super::{idx, TermSink};
use movegen::{Color, Position, Variant};

/// What the evaluation's walk counted against one king, read by
/// [`king_terms`].
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct KingCounts {
    /// The common king danger count (enemy attacks on the king's ring).
    pub danger: i32,
    /// Its check squares ([`super::king_attack::check_squares`]).
    pub checks: CheckSquares,
}

/// Adds the threecheck terms of the king of `color` to `acc` (White's view:
/// `sign` is +1 for White, -1 for Black) from what the walk counted against
/// it, each weighed by the checks the opponent still needs.
pub(super) fn king_terms<V: Variant, A: TermSink>(
    pos: &Position<V>,
    color: Color,
    sign: i32,
    king: KingCounts,
    acc: &mut A,
) {
    let them = color.other();
    // Checks the opponent still needs to win, 1..=3.
    let needed = pos.checks_remaining(them).clamp(1, 3) as usize;
    for (first, count) in [
        (idx::KING_DANGER_CHECKS_LEFT, king.danger),
        (idx::SAFE_CHECKS, king.checks.safe),
        (idx::GUARDED_CHECKS, king.checks.guarded),
    ] {
        if count != 0 {
            acc.add(first + needed, -sign * count);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::{features, idx};
    use movegen::variants::ThreeCheck;
    use movegen::Position;

    #[test]
    fn safe_checks_are_counted_by_the_checks_the_checker_still_needs() {
        // The knight on e4 can check from d6 and f6, neither defended by the
        // king on e8; White still needs 2 checks (X-FEN `2+3`).
        let pos = Position::<ThreeCheck>::from_fen("4k3/8/8/8/4N3/8/8/4K3 w - - 2+3 0 1").unwrap();
        let f = features(&pos);
        assert_eq!(f[idx::SAFE_CHECKS + 2], 2);
        assert_eq!(f[idx::SAFE_CHECKS + 3], 0);
        assert_eq!(f[idx::SAFE_CHECKS + 1], 0);
        // A rook on d8 guards d6: one safe check left.
        let pos = Position::<ThreeCheck>::from_fen("3rk3/8/8/8/4N3/8/8/4K3 w - - 2+3 0 1").unwrap();
        assert_eq!(features(&pos)[idx::SAFE_CHECKS + 2], 1);
        // With one check left the guarded d6 counts too: that check wins.
        let pos = Position::<ThreeCheck>::from_fen("3rk3/8/8/8/4N3/8/8/4K3 w - - 1+3 0 1").unwrap();
        assert_eq!(features(&pos)[idx::SAFE_CHECKS + 1], 2);
    }

    #[test]
    fn king_danger_is_counted_again_by_the_checks_the_attacker_still_needs() {
        // The black queen on e3 attacks d2, e2 and f2 of the ring around the
        // king on e1; Black needs 1 check (X-FEN `3+1`).
        let pos = Position::<ThreeCheck>::from_fen("4k3/8/8/8/8/4q3/8/4K3 w - - 3+1 0 1").unwrap();
        let f = features(&pos);
        assert_eq!(f[idx::KING_DANGER], -3);
        assert_eq!(f[idx::KING_DANGER_CHECKS_LEFT + 1], -3);
        assert_eq!(f[idx::KING_DANGER_CHECKS_LEFT + 2], 0);
        assert_eq!(f[idx::KING_DANGER_CHECKS_LEFT + 3], 0);
        // Black needing 3 checks: the same attacks, weighed by the third weight.
        let pos = Position::<ThreeCheck>::from_fen("4k3/8/8/8/8/4q3/8/4K3 w - - 3+3 0 1").unwrap();
        let f = features(&pos);
        assert_eq!(f[idx::KING_DANGER_CHECKS_LEFT + 3], -3);
        assert_eq!(f[idx::KING_DANGER_CHECKS_LEFT + 1], 0);
    }
}
