//! Scores: the scale the search counts in and its text. A win `n` plies
//! from the root scores [`MATE`]` - n`; anything beyond [`MATE_BOUND`] is a
//! win or loss with its distance, which the transposition table stores
//! relative to the node ([`score_to_tt`], [`score_from_tt`]). The scale is
//! here, below the search, the evaluation and the time management, so that
//! they all read it from one place without importing one another. Score
//! text is written here too, in one place: UCI's `cp N` / `mate N` (also
//! used by `varia analyse` and `varia bench`) and CECP's thinking-output
//! number. Reading engines' scores back is the match runner's job
//! (`arena::external`), the inverse of these.

use movegen::{Color, Outcome};
use std::fmt;

/// Score of a win at the root (a win `n` plies away scores `MATE - n`).
pub const MATE: i32 = 32000;
/// Scores beyond this (in absolute value) are wins or losses.
pub const MATE_BOUND: i32 = MATE - 1000;
/// Larger than every score.
pub(crate) const INF: i32 = 32500;

/// Moves to a win (positive) or loss (negative) for a mate score.
pub fn mate_in(score: i32) -> Option<i32> {
    if score > MATE_BOUND {
        Some((MATE - score + 1) / 2)
    } else if score < -MATE_BOUND {
        Some(-(MATE + score) / 2)
    } else {
        None
    }
}

/// Score of a finished game for the side to move, `ply` plies from the root.
#[inline]
pub(crate) fn outcome_score(o: Outcome, to_move: Color, ply: usize) -> i32 {
    match o.winner() {
        Some(w) if w == to_move => MATE - ply as i32,
        Some(_) => -(MATE - ply as i32),
        None => 0,
    }
}

/// A score found `ply` plies from the root as the table stores it: a mate's
/// distance counted from the node, not the root.
#[inline]
pub(crate) fn score_to_tt(score: i32, ply: usize) -> i32 {
    if score > MATE_BOUND {
        score + ply as i32
    } else if score < -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

/// A stored score read back `ply` plies from the root ([`score_to_tt`]'s
/// inverse).
#[inline]
pub(crate) fn score_from_tt(score: i32, ply: usize) -> i32 {
    if score > MATE_BOUND {
        score - ply as i32
    } else if score < -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}

/// A score from the side to move's view, displayed the UCI way: `cp 25`,
/// or `mate 3` (we mate in 3 moves) / `mate -2` (we are mated in 2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UciScore(pub i32);

impl fmt::Display for UciScore {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Through `pad`, so widths and alignment (`{:>8}`) apply.
        f.pad(&match mate_in(self.0) {
            Some(n) => format!("mate {n}"),
            None => format!("cp {}", self.0),
        })
    }
}

/// A score as CECP's thinking output writes it: centipawns, a mate in `n`
/// moves as `100000 + n`, being mated in `n` as `-100000 - n`.
pub fn cecp_score(score: i32) -> i32 {
    match mate_in(score) {
        Some(n) if n > 0 => 100_000 + n,
        Some(n) => -100_000 + n,
        None => score,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn centipawns_and_mates() {
        assert_eq!(UciScore(25).to_string(), "cp 25");
        assert_eq!(UciScore(-340).to_string(), "cp -340");
        // Mate in 3 moves is 5 plies away; mated in 2 is 4 plies away.
        assert_eq!(UciScore(MATE - 5).to_string(), "mate 3");
        assert_eq!(UciScore(-(MATE - 4)).to_string(), "mate -2");
        assert_eq!(format!("{:>8}", UciScore(25)), "   cp 25");
        assert_eq!(cecp_score(25), 25);
        assert_eq!(cecp_score(MATE - 5), 100_003);
        assert_eq!(cecp_score(-(MATE - 4)), -100_002);
    }
}
