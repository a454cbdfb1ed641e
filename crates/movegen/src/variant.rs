//! The `Variant` trait: each game's rules as associated constants on a
//! zero-sized type, so that generic code (`Position<V>`, move generation,
//! perft) is compiled once per game and every rule check on a constant folds
//! away. Standard chess pays nothing for atomic explosions or forced captures.
//!
//! [`VariantKind`] is the runtime name of a game, used once at the edge (CLI,
//! protocol, files) to pick the monomorphised code via [`dispatch!`](crate::dispatch).

use crate::outcome::Outcome;
use crate::position::Position;
use crate::types::{Color, Role};
use std::fmt;
use std::str::FromStr;

/// The rules of one game, as compile-time constants.
///
/// Implemented only by the six zero-sized types in [`crate::variants`].
pub trait Variant:
    Copy + Clone + Default + fmt::Debug + PartialEq + Eq + Send + Sync + 'static
{
    /// The runtime tag of this game.
    const KIND: VariantKind;
    /// The king is royal: it may not be left in check, and check exists.
    /// `false` only in suicide.
    const ROYAL: bool = true;
    /// The royal piece moves as a knight (knightmate).
    const ROYAL_KNIGHT: bool = false;
    /// If any capture is available only captures are legal.
    const MUST_CAPTURE: bool = false;
    /// Captures explode (atomic).
    const ATOMIC: bool = false;
    /// Giving a third check wins (threecheck); positions carry check counters.
    const CHECK_COUNTING: bool = false;
    /// The game can end by its own rule before any move is looked at, that is
    /// [`Variant::end_by_rule`] can return `Some` (an exploded king, a bare
    /// king, a third check, a side without pieces). No default: each game
    /// states it, next to the rule.
    const HAS_END_RULE: bool;
    /// Roles a pawn may promote to, in the order moves are generated.
    const PROMOTIONS: &'static [Role];
    /// Roles that may appear on the board.
    const ROLES: &'static [Role];
    /// FEN of the start position.
    const START_FEN: &'static str;

    /// The game's end by its own rule, decided before looking at moves
    /// (an exploded king, a bare king, a third check, a side without pieces).
    /// `None` if the game goes on by that rule.
    fn end_by_rule(pos: &Position<Self>) -> Option<Outcome>;

    /// The result when the side to move has no legal moves and the game was
    /// not already over by [`Variant::end_by_rule`].
    fn end_without_moves(pos: &Position<Self>) -> Outcome;

    /// `true` if neither side can ever win (only games that have an
    /// insufficient-material rule override this).
    fn insufficient_material(_pos: &Position<Self>) -> bool {
        false
    }
}

/// The six games, as a runtime value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum VariantKind {
    /// Standard chess (FIDE).
    Chess,
    /// Suicide, the XBoard game (CECP/Fairy-Stockfish `giveaway`).
    Suicide,
    /// Three-check.
    ThreeCheck,
    /// Atomic.
    Atomic,
    /// Losers.
    Losers,
    /// Knightmate.
    Knightmate,
}

/// An unknown variant name.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown variant \"{0}\" (valid: chess, suicide, threecheck, atomic, losers, knightmate; aliases: standard, normal, giveaway, 3check, three-check)")]
pub struct UnknownVariant(pub String);

impl VariantKind {
    /// All six, in the order tables list them.
    pub const ALL: [VariantKind; 6] = [
        VariantKind::Chess,
        VariantKind::Suicide,
        VariantKind::ThreeCheck,
        VariantKind::Atomic,
        VariantKind::Losers,
        VariantKind::Knightmate,
    ];

    /// The canonical name used on the command line and in CSV files.
    pub const fn name(self) -> &'static str {
        match self {
            VariantKind::Chess => "chess",
            VariantKind::Suicide => "suicide",
            VariantKind::ThreeCheck => "threecheck",
            VariantKind::Atomic => "atomic",
            VariantKind::Losers => "losers",
            VariantKind::Knightmate => "knightmate",
        }
    }

    /// The name in UCI (`UCI_Variant`) and CECP (`variant`) protocols.
    pub const fn protocol_name(self) -> &'static str {
        match self {
            VariantKind::Chess => "chess",
            VariantKind::Suicide => "giveaway",
            VariantKind::ThreeCheck => "3check",
            VariantKind::Atomic => "atomic",
            VariantKind::Losers => "losers",
            VariantKind::Knightmate => "knightmate",
        }
    }

    /// The PGN `[Variant]` tag value (`None` for standard chess).
    pub const fn pgn_name(self) -> Option<&'static str> {
        match self {
            VariantKind::Chess => None,
            VariantKind::Suicide => Some("Giveaway"),
            VariantKind::ThreeCheck => Some("Three-check"),
            VariantKind::Atomic => Some("Atomic"),
            VariantKind::Losers => Some("Losers"),
            VariantKind::Knightmate => Some("Knightmate"),
        }
    }

    /// The start position's FEN.
    pub const fn start_fen(self) -> &'static str {
        match self {
            VariantKind::Knightmate => crate::variants::Knightmate::START_FEN,
            VariantKind::ThreeCheck => crate::variants::ThreeCheck::START_FEN,
            _ => crate::variants::Chess::START_FEN,
        }
    }

    /// Parses a protocol name (UCI/CECP accept only these): `chess` (or
    /// `normal` in CECP), `giveaway`, `3check`, `atomic`, `losers`, `knightmate`.
    pub fn from_protocol_name(s: &str) -> Option<VariantKind> {
        Some(match s {
            "chess" | "normal" => VariantKind::Chess,
            "giveaway" => VariantKind::Suicide,
            "3check" => VariantKind::ThreeCheck,
            "atomic" => VariantKind::Atomic,
            "losers" => VariantKind::Losers,
            "knightmate" => VariantKind::Knightmate,
            _ => return None,
        })
    }
}

impl FromStr for VariantKind {
    type Err = UnknownVariant;

    /// Accepts the canonical names and the usual aliases, case-insensitively.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Ok(match s.trim().to_ascii_lowercase().as_str() {
            "chess" | "standard" | "normal" => VariantKind::Chess,
            "suicide" | "giveaway" => VariantKind::Suicide,
            "threecheck" | "3check" | "three-check" => VariantKind::ThreeCheck,
            "atomic" => VariantKind::Atomic,
            "losers" => VariantKind::Losers,
            "knightmate" => VariantKind::Knightmate,
            _ => return Err(UnknownVariant(s.to_string())),
        })
    }
}

impl fmt::Display for VariantKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Runs `$body` with the type alias `$V` bound to the zero-sized variant type
/// of the runtime `$kind`: the bridge from a runtime game name to the code
/// compiled for that game, used wherever a run-time choice meets generic code.
///
/// ```
/// use movegen::{dispatch, Position, VariantKind, Variant};
/// let kind: VariantKind = "atomic".parse().unwrap();
/// let n = dispatch!(kind, V => Position::<V>::startpos().legal_moves().len());
/// assert_eq!(n, 20);
/// ```
#[macro_export]
macro_rules! dispatch {
    ($kind:expr, $V:ident => $body:expr) => {
        match $kind {
            $crate::VariantKind::Chess => {
                type $V = $crate::variants::Chess;
                $body
            }
            $crate::VariantKind::Suicide => {
                type $V = $crate::variants::Suicide;
                $body
            }
            $crate::VariantKind::ThreeCheck => {
                type $V = $crate::variants::ThreeCheck;
                $body
            }
            $crate::VariantKind::Atomic => {
                type $V = $crate::variants::Atomic;
                $body
            }
            $crate::VariantKind::Losers => {
                type $V = $crate::variants::Losers;
                $body
            }
            $crate::VariantKind::Knightmate => {
                type $V = $crate::variants::Knightmate;
                $body
            }
        }
    };
}

/// The decisive outcome: `winner` wins by `reason`.
pub(crate) fn win_for(winner: Color, reason: crate::outcome::EndReason) -> Outcome {
    Outcome::Decisive { winner, reason }
}
