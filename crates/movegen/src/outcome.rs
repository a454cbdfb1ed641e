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
