//! The `Variant` trait: each game's rules as associated constants on a
//! zero-sized type, so that generic code (`Position<V>`, move generation,
//! perft) is compiled once per game and every rule check on a constant folds
//! away. Standard chess pays nothing for atomic explosions or forced captures.
//!
//! [`VariantKind`] is the runtime name of a game, used at the edges (CLI,
//! protocols, files) to pick the monomorphised code via [`dispatch!`](crate::dispatch).
//! Every name a game has outside (command line, UCI, CECP, PGN) lives in one
//! table, [`VariantKind::meta`]; parsing, messages and protocol lists are
//! derived from it, so the names of a game are written once.

use crate::cpu::Lookup;
use crate::outcome::Outcome;
use crate::position::Position;
use crate::types::{Color, Role};
use std::fmt;
use std::str::FromStr;

/// The rules of one game, as compile-time constants.
///
/// Implemented only by the six zero-sized types in [`crate::variants`], each
/// generic over its slider lookup.
pub trait Variant:
    Copy + Clone + Default + fmt::Debug + PartialEq + Eq + Send + Sync + 'static
{
    /// The slider lookup this game's code is compiled with (the game types
    /// take it as a parameter; [`dispatch!`](crate::dispatch) picks it).
    type Lookup: Lookup;
    /// The same game with the slider lookup `L` ([`Position::with_lookup`]).
    type WithLookup<L: Lookup>: Variant<Lookup = L>;
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
///
/// Adding a seventh game means a new arm in every exhaustive `match` on this
/// enum: the compiler lists them (its [`VariantMeta`] entry, [`dispatch!`](crate::dispatch),
/// the engine's default weights, ...). No match has a `_ =>` arm that would
/// silently give a new game chess defaults.
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

/// Every name the outside world gives one game: the one table that
/// [`FromStr`], [`VariantKind::from_protocol_name`], [`VariantKind::from_pgn_name`],
/// the [`UnknownVariant`] message, the UCI `UCI_Variant` combo, the CECP
/// `feature variants=` list and the command line's `--variant` help derive from
/// (as Fairy-Stockfish's `variants.get_keys()` feeds its UCI and CECP lists).
/// The start FEN is not here: it is the game's `V::START_FEN`
/// ([`VariantKind::start_fen`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VariantMeta {
    /// Canonical name: the command line, CSV files, `Display`.
    pub name: &'static str,
    /// Further names [`FromStr`] accepts (case-insensitively).
    pub aliases: &'static [&'static str],
    /// The UCI `UCI_Variant` value (also accepted in CECP).
    pub protocol_name: &'static str,
    /// The CECP `variant` name announced in `feature variants=`.
    pub cecp_name: &'static str,
    /// The PGN `[Variant]` tag written by default, Lichess style (`None`:
    /// no tag, standard chess).
    pub pgn_name: Option<&'static str>,
    /// The `[Variant]` tag cutechess and XBoard write and expect (their
    /// variant name, lowercase).
    pub cutechess_pgn_name: Option<&'static str>,
    /// Further `[Variant]` tags read as this game (case-insensitively), besides
    /// the two above.
    pub pgn_aliases: &'static [&'static str],
}

/// An unknown variant name.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown variant \"{0}\" (valid: {names})", names = VariantKind::accepted_names())]
pub struct UnknownVariant(pub String);

/// Which `[Variant]` tag names a PGN writer uses.
///
/// Lichess writes title case (`Three-check`, `Atomic`), and so does varia by
/// default. cutechess and XBoard write their lowercase variant names
/// (`3check`, `giveaway`) and do not know the Lichess ones: cutechess warns
/// `Unknown variant: three-check` and ignores such an opening. Readers accept
/// both ([`VariantKind::from_pgn_name`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum PgnVariantNames {
    /// `Giveaway`, `Three-check`, `Atomic`, `Losers`, `Knightmate`.
    #[default]
    Lichess,
    /// `giveaway`, `3check`, `atomic`, `losers`, `knightmate`.
    Cutechess,
}

/// An unknown [`PgnVariantNames`] name.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown PGN variant names \"{0}\" (valid: lichess, cutechess)")]
pub struct UnknownPgnVariantNames(pub String);

impl FromStr for PgnVariantNames {
    type Err = UnknownPgnVariantNames;

    /// `lichess` or `cutechess` (also `xboard`), case-insensitively.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_ascii_lowercase().as_str() {
            "lichess" => Ok(PgnVariantNames::Lichess),
            "cutechess" | "xboard" => Ok(PgnVariantNames::Cutechess),
            _ => Err(UnknownPgnVariantNames(s.to_string())),
        }
    }
}

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

    /// The game's names (the registry entry).
    ///
    /// PGN names: Lichess writes `Standard` or `From Position` for chess and
    /// `Three-check`, `Atomic`; cutechess and XBoard write `3check`,
    /// `giveaway`, `atomic`, `losers`, `knightmate`. Their `suicide` and
    /// Lichess's `Antichess` are other games (FICS stalemate rule; no
    /// castling), so they are not read as our suicide.
    pub const fn meta(self) -> &'static VariantMeta {
        match self {
            VariantKind::Chess => &VariantMeta {
                name: "chess",
                aliases: &["standard", "normal"],
                protocol_name: "chess",
                cecp_name: "normal",
                pgn_name: None,
                cutechess_pgn_name: None,
                pgn_aliases: &["Standard", "From Position", "chess", "normal"],
            },
            VariantKind::Suicide => &VariantMeta {
                name: "suicide",
                aliases: &["giveaway"],
                protocol_name: "giveaway",
                cecp_name: "giveaway",
                pgn_name: Some("Giveaway"),
                cutechess_pgn_name: Some("giveaway"),
                pgn_aliases: &[],
            },
            VariantKind::ThreeCheck => &VariantMeta {
                name: "threecheck",
                aliases: &["3check", "three-check"],
                protocol_name: "3check",
                cecp_name: "3check",
                pgn_name: Some("Three-check"),
                cutechess_pgn_name: Some("3check"),
                pgn_aliases: &["threecheck"],
            },
            VariantKind::Atomic => &VariantMeta {
                name: "atomic",
                aliases: &[],
                protocol_name: "atomic",
                cecp_name: "atomic",
                pgn_name: Some("Atomic"),
                cutechess_pgn_name: Some("atomic"),
                pgn_aliases: &[],
            },
            VariantKind::Losers => &VariantMeta {
                name: "losers",
                aliases: &[],
                protocol_name: "losers",
                cecp_name: "losers",
                pgn_name: Some("Losers"),
                cutechess_pgn_name: Some("losers"),
                pgn_aliases: &[],
            },
            VariantKind::Knightmate => &VariantMeta {
                name: "knightmate",
                aliases: &[],
                protocol_name: "knightmate",
                cecp_name: "knightmate",
                pgn_name: Some("Knightmate"),
                cutechess_pgn_name: Some("knightmate"),
                pgn_aliases: &[],
            },
        }
    }

    /// The canonical name used on the command line and in CSV files.
    pub const fn name(self) -> &'static str {
        self.meta().name
    }

    /// The name in UCI (`UCI_Variant`) and CECP (`variant`) protocols.
    pub const fn protocol_name(self) -> &'static str {
        self.meta().protocol_name
    }

    /// The name announced in CECP `feature variants=` (`normal` for chess).
    pub const fn cecp_name(self) -> &'static str {
        self.meta().cecp_name
    }

    /// The PGN `[Variant]` tag value written by default (`None` for standard chess).
    pub const fn pgn_name(self) -> Option<&'static str> {
        self.meta().pgn_name
    }

    /// The PGN `[Variant]` tag value in the naming of `names`.
    pub const fn pgn_name_in(self, names: PgnVariantNames) -> Option<&'static str> {
        match names {
            PgnVariantNames::Lichess => self.meta().pgn_name,
            PgnVariantNames::Cutechess => self.meta().cutechess_pgn_name,
        }
    }

    /// Every `[Variant]` tag value read as this game.
    pub fn pgn_names(self) -> impl Iterator<Item = &'static str> {
        let m = self.meta();
        m.pgn_name
            .into_iter()
            .chain(m.cutechess_pgn_name)
            .chain(m.pgn_aliases.iter().copied())
    }

    /// The start position's FEN (the game's `V::START_FEN`).
    pub const fn start_fen(self) -> &'static str {
        crate::dispatch_cold!(self, V => V::START_FEN)
    }

    /// The UCI `UCI_Variant` values, in [`VariantKind::ALL`] order.
    pub const fn protocol_names() -> [&'static str; VariantKind::ALL.len()] {
        let mut names = [""; VariantKind::ALL.len()];
        let mut i = 0;
        while i < names.len() {
            names[i] = VariantKind::ALL[i].protocol_name();
            i += 1;
        }
        names
    }

    /// The CECP `feature variants=` names, in [`VariantKind::ALL`] order.
    pub const fn cecp_names() -> [&'static str; VariantKind::ALL.len()] {
        let mut names = [""; VariantKind::ALL.len()];
        let mut i = 0;
        while i < names.len() {
            names[i] = VariantKind::ALL[i].cecp_name();
            i += 1;
        }
        names
    }

    /// The names [`FromStr`] accepts, for messages and help texts:
    /// `chess, suicide, ...; aliases: standard, normal, ...`.
    pub fn accepted_names() -> String {
        let names: Vec<&str> = VariantKind::ALL.iter().map(|k| k.name()).collect();
        let aliases: Vec<&str> = VariantKind::ALL
            .iter()
            .flat_map(|k| k.meta().aliases.iter().copied())
            .collect();
        format!("{}; aliases: {}", names.join(", "), aliases.join(", "))
    }

    /// Parses a protocol name (UCI/CECP accept only these, case-sensitively):
    /// the UCI names and the CECP names (`chess` or `normal`, `giveaway`,
    /// `3check`, `atomic`, `losers`, `knightmate`).
    pub fn from_protocol_name(s: &str) -> Option<VariantKind> {
        VariantKind::ALL
            .into_iter()
            .find(|k| k.protocol_name() == s || k.cecp_name() == s)
    }

    /// Parses a PGN `[Variant]` tag value, case-insensitively: the Lichess,
    /// cutechess and XBoard names ([`VariantKind::pgn_names`]).
    pub fn from_pgn_name(s: &str) -> Option<VariantKind> {
        let s = s.trim();
        VariantKind::ALL
            .into_iter()
            .find(|k| k.pgn_names().any(|n| n.eq_ignore_ascii_case(s)))
    }
}

impl FromStr for VariantKind {
    type Err = UnknownVariant;

    /// Accepts the canonical names and the aliases of [`VariantKind::meta`],
    /// case-insensitively.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let t = s.trim();
        VariantKind::ALL
            .into_iter()
            .find(|k| {
                let m = k.meta();
                m.name.eq_ignore_ascii_case(t)
                    || m.aliases.iter().any(|a| a.eq_ignore_ascii_case(t))
            })
            .ok_or_else(|| UnknownVariant(s.to_string()))
    }
}

impl fmt::Display for VariantKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Runs `$body` with the type alias `$V` bound to the zero-sized variant type
/// of the runtime `$kind`, with the slider lookup this process chose
/// ([`crate::cpu::slider_lookup`]): the bridge from a runtime game name to
/// the code compiled for that game, used wherever a run-time choice meets
/// generic code.
///
/// The body is compiled twice per game, once with
/// [`PextLookup`](crate::cpu::PextLookup) and once with
/// [`MagicLookup`](crate::cpu::MagicLookup), and one of the two runs: the
/// lookup is chosen here, once ([`with_lookup!`](crate::with_lookup) of the
/// game), and is a constant inside the body.
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
                $crate::with_lookup!($crate::variants::Chess, $V => $body)
            }
            $crate::VariantKind::Suicide => {
                $crate::with_lookup!($crate::variants::Suicide, $V => $body)
            }
            $crate::VariantKind::ThreeCheck => {
                $crate::with_lookup!($crate::variants::ThreeCheck, $V => $body)
            }
            $crate::VariantKind::Atomic => {
                $crate::with_lookup!($crate::variants::Atomic, $V => $body)
            }
            $crate::VariantKind::Losers => {
                $crate::with_lookup!($crate::variants::Losers, $V => $body)
            }
            $crate::VariantKind::Knightmate => {
                $crate::with_lookup!($crate::variants::Knightmate, $V => $body)
            }
        }
    };
}

/// [`dispatch!`] for cold paths and constant functions: `$V` is bound to
/// the game with the default lookup ([`MagicLookup`](crate::cpu::MagicLookup),
/// correct on every CPU), and the body is compiled once per game. For code
/// that runs no hot loop: parsing, names, set-up, single moves.
///
/// ```
/// use movegen::{dispatch_cold, VariantKind, Variant};
/// assert_eq!(dispatch_cold!(VariantKind::Losers, V => V::KIND), VariantKind::Losers);
/// ```
#[macro_export]
macro_rules! dispatch_cold {
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

/// Runs `$body` with the type alias `$W` bound to the game `$V` (a type)
/// with the slider lookup this process chose: for code that holds a game
/// type with the default lookup (a [`VariantGame`](crate::VariantGame)'s,
/// through [`with_game!`](crate::with_game)) and is about to enter a hot
/// loop (a search, a perft). Convert the position with
/// [`Position::with_lookup`]; [`with_position!`](crate::with_position) does
/// both for a `VariantGame`.
///
/// ```
/// use movegen::{with_lookup, variants::Chess, Position, Variant};
/// let pos = Position::<Chess>::startpos();
/// let n = with_lookup!(Chess, W => perft_of(&pos.with_lookup::<<W as Variant>::Lookup>()));
/// fn perft_of<V: Variant>(pos: &Position<V>) -> u64 {
///     movegen::perft(pos, 2)
/// }
/// assert_eq!(n, 400);
/// ```
#[macro_export]
macro_rules! with_lookup {
    ($V:ty, $W:ident => $body:expr) => {
        if $crate::cpu::slider_lookup() == $crate::cpu::SliderLookup::Pext {
            #[allow(dead_code)]
            type $W = <$V as $crate::Variant>::WithLookup<$crate::cpu::PextLookup>;
            $body
        } else {
            #[allow(dead_code)]
            type $W = <$V as $crate::Variant>::WithLookup<$crate::cpu::MagicLookup>;
            $body
        }
    };
}

/// The decisive outcome: `winner` wins by `reason`.
pub(crate) fn win_for(winner: Color, reason: crate::outcome::EndReason) -> Outcome {
    Outcome::Decisive { winner, reason }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    /// `dispatch!` binds the game of the kind with the lookup this process
    /// chose, `dispatch_cold!` with magics, and `with_lookup!` and
    /// `Position::with_lookup` keep the game and the position.
    #[test]
    fn dispatch_binds_the_chosen_lookup() {
        use crate::cpu::{slider_lookup, SliderLookup};
        use crate::variants::Chess;
        for kind in VariantKind::ALL {
            let (k, l) =
                dispatch!(kind, V => (V::KIND, <<V as Variant>::Lookup as Lookup>::LOOKUP));
            assert_eq!((k, l), (kind, slider_lookup()), "{kind}");
            let (k, l) =
                dispatch_cold!(kind, V => (V::KIND, <<V as Variant>::Lookup as Lookup>::LOOKUP));
            assert_eq!((k, l), (kind, SliderLookup::Magic), "{kind}");
        }
        let fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
        let pos = Position::<Chess>::from_fen(fen).unwrap();
        let (l, same) = with_lookup!(Chess, W => {
            let moved = pos.with_lookup::<<W as Variant>::Lookup>();
            (<<W as Variant>::Lookup as Lookup>::LOOKUP, moved.fen() == fen && moved.key() == pos.key()
                && moved.legal_moves().len() == pos.legal_moves().len())
        });
        assert_eq!(l, slider_lookup());
        assert!(same);
    }

    #[test]
    fn every_name_and_alias_parses_to_its_game_in_any_case() {
        let mut seen = HashSet::new();
        for kind in VariantKind::ALL {
            let m = kind.meta();
            for name in std::iter::once(m.name).chain(m.aliases.iter().copied()) {
                assert!(seen.insert(name), "{name} names two games");
                assert_eq!(name.parse(), Ok(kind));
                assert_eq!(name.to_ascii_uppercase().parse(), Ok(kind));
                assert_eq!(format!(" {name}\n").parse(), Ok(kind));
            }
            assert_eq!(kind.to_string(), m.name);
            assert_eq!(kind.to_string().parse(), Ok(kind));
        }
        assert_eq!(
            "crazyhouse".parse::<VariantKind>(),
            Err(UnknownVariant("crazyhouse".into()))
        );
    }

    #[test]
    fn unknown_variant_message_lists_the_table() {
        assert_eq!(
            UnknownVariant("x".into()).to_string(),
            "unknown variant \"x\" (valid: chess, suicide, threecheck, atomic, losers, \
             knightmate; aliases: standard, normal, giveaway, 3check, three-check)"
        );
    }

    #[test]
    fn protocol_names() {
        assert_eq!(
            VariantKind::protocol_names(),
            [
                "chess",
                "giveaway",
                "3check",
                "atomic",
                "losers",
                "knightmate"
            ]
        );
        assert_eq!(
            VariantKind::cecp_names().join(","),
            "normal,giveaway,3check,atomic,losers,knightmate"
        );
        for kind in VariantKind::ALL {
            assert_eq!(
                VariantKind::from_protocol_name(kind.protocol_name()),
                Some(kind)
            );
            assert_eq!(
                VariantKind::from_protocol_name(kind.cecp_name()),
                Some(kind)
            );
        }
        // Protocols take only their names, exactly.
        for other in ["suicide", "threecheck", "Chess", "standard", ""] {
            assert_eq!(VariantKind::from_protocol_name(other), None, "{other}");
        }
    }

    #[test]
    fn pgn_names() {
        let mut owner = std::collections::HashMap::new();
        for kind in VariantKind::ALL {
            for name in kind.pgn_names() {
                let first = *owner.entry(name.to_ascii_lowercase()).or_insert(kind);
                assert_eq!(first, kind, "{name} names two games");
                assert_eq!(VariantKind::from_pgn_name(name), Some(kind));
                assert_eq!(
                    VariantKind::from_pgn_name(&name.to_ascii_uppercase()),
                    Some(kind)
                );
            }
            for names in [PgnVariantNames::Lichess, PgnVariantNames::Cutechess] {
                let written = kind.pgn_name_in(names);
                assert_eq!(written.is_none(), kind == VariantKind::Chess);
                if let Some(w) = written {
                    assert_eq!(VariantKind::from_pgn_name(w), Some(kind), "{w}");
                }
            }
        }
        assert_eq!(VariantKind::ThreeCheck.pgn_name(), Some("Three-check"));
        assert_eq!(
            VariantKind::ThreeCheck.pgn_name_in(PgnVariantNames::Cutechess),
            Some("3check")
        );
        // Other games under names like ours: FICS suicide, Lichess antichess.
        for other in ["suicide", "Antichess", "Chess960", "Crazyhouse"] {
            assert_eq!(VariantKind::from_pgn_name(other), None, "{other}");
        }
        assert_eq!("CuteChess".parse(), Ok(PgnVariantNames::Cutechess));
        assert_eq!("lichess".parse(), Ok(PgnVariantNames::Lichess));
        assert!("pychess".parse::<PgnVariantNames>().is_err());
    }

    #[test]
    fn start_fens_are_the_games_own() {
        use crate::variants::{Chess, Knightmate, ThreeCheck};
        assert_eq!(VariantKind::Chess.start_fen(), <Chess>::START_FEN);
        assert_eq!(VariantKind::Knightmate.start_fen(), <Knightmate>::START_FEN);
        assert_eq!(VariantKind::ThreeCheck.start_fen(), <ThreeCheck>::START_FEN);
        assert_ne!(<Knightmate>::START_FEN, <Chess>::START_FEN);
    }
}
