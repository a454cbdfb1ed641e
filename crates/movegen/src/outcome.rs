//! How a game ends: who won (or that it is drawn) and why.
//!
//! The reasons cover every ending of the six games; their `name()`s are the
//! `termination` values the match runner writes.

use crate::types::Color;
use std::fmt;

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EndReason {
    /// The side to move is in check with no legal move (in losers this wins
    /// for the mated side).
    Checkmate,
    /// The side to move is not in check and has no legal move (a draw except
    /// in losers, where the stalemated side wins).
    Stalemate,
    /// Threecheck: a side gave its third check.
    ThirdCheck,
    /// Atomic: a king was exploded.
    KingExploded,
    /// Suicide: the side to move has no legal move (or the other side has no
    /// pieces), and wins.
    NoMoves,
    /// Losers: a side was reduced to its bare king, and wins.
    BareKing,
    /// 100 plies without capture or pawn move.
    FiftyMoves,
    /// The same position for the third time.
    Repetition,
    /// Neither side can win.
    InsufficientMaterial,
}

impl EndReason {
    /// The snake_case name used in CSV files (`termination` column).
    pub const fn name(self) -> &'static str {
        match self {
            EndReason::Checkmate => "checkmate",
            EndReason::Stalemate => "stalemate",
            EndReason::ThirdCheck => "third_check",
            EndReason::KingExploded => "king_exploded",
            EndReason::NoMoves => "no_moves",
            EndReason::BareKing => "bare_king",
            EndReason::FiftyMoves => "fifty_moves",
            EndReason::Repetition => "repetition",
            EndReason::InsufficientMaterial => "insufficient_material",
        }
    }

    /// The reason in words, to follow "by": `checkmate`, `king explosion`,
    /// `3-fold repetition` (see [`Outcome::description`]).
    pub const fn words(self) -> &'static str {
        match self {
            EndReason::Checkmate => "checkmate",
            EndReason::Stalemate => "stalemate",
            EndReason::ThirdCheck => "third check",
            EndReason::KingExploded => "king explosion",
            EndReason::NoMoves => "having no moves left",
            EndReason::BareKing => "bare king",
            EndReason::FiftyMoves => "50-move rule",
            EndReason::Repetition => "3-fold repetition",
            EndReason::InsufficientMaterial => "insufficient material",
        }
    }
}

impl fmt::Display for EndReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The result of a finished game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// One side won.
    Decisive {
        /// The winner.
        winner: Color,
        /// How.
        reason: EndReason,
    },
    /// Drawn.
    Draw {
        /// Why.
        reason: EndReason,
    },
}

impl Outcome {
    /// The winner, if any.
    pub const fn winner(self) -> Option<Color> {
        match self {
            Outcome::Decisive { winner, .. } => Some(winner),
            Outcome::Draw { .. } => None,
        }
    }

    /// Why the game ended.
    pub const fn reason(self) -> EndReason {
        match self {
            Outcome::Decisive { reason, .. } | Outcome::Draw { reason } => reason,
        }
    }

    /// PGN result string: `1-0`, `0-1` or `1/2-1/2`.
    pub const fn result_str(self) -> &'static str {
        match self {
            Outcome::Decisive {
                winner: Color::White,
                ..
            } => "1-0",
            Outcome::Decisive {
                winner: Color::Black,
                ..
            } => "0-1",
            Outcome::Draw { .. } => "1/2-1/2",
        }
    }

    /// The result in words for people, e.g. `White wins by checkmate` or
    /// `Draw by 3-fold repetition` (CECP puts this in its result comment).
    pub fn description(self) -> String {
        let how = self.reason().words();
        match self.winner() {
            Some(Color::White) => format!("White wins by {how}"),
            Some(Color::Black) => format!("Black wins by {how}"),
            None => format!("Draw by {how}"),
        }
    }

    /// Score from White's point of view: 1, 0.5 or 0.
    pub const fn white_score(self) -> f64 {
        match self.winner() {
            Some(Color::White) => 1.0,
            Some(Color::Black) => 0.0,
            None => 0.5,
        }
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({})", self.result_str(), self.reason())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn descriptions_name_the_winner_and_the_reason() {
        let mate = Outcome::Decisive {
            winner: Color::White,
            reason: EndReason::Checkmate,
        };
        assert_eq!(mate.description(), "White wins by checkmate");
        let boom = Outcome::Decisive {
            winner: Color::Black,
            reason: EndReason::KingExploded,
        };
        assert_eq!(boom.description(), "Black wins by king explosion");
        let draw = Outcome::Draw {
            reason: EndReason::Repetition,
        };
        assert_eq!(draw.description(), "Draw by 3-fold repetition");
    }
}
