//! Score text, written in one place: UCI's `cp N` / `mate N` (also used by
//! `varia analyse` and `varia bench`) and CECP's thinking-output number.
//! Reading engines' scores back is the match runner's job
//! (`arena::external`), the inverse of these.

use crate::alphabeta::mate_in;
use std::fmt;

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
    use crate::MATE;

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
