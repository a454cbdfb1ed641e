//! [`VariantGame`]: a [`Game`] of any of the six games, chosen at run time.
//!
//! The hot code is generic over the variant ([`Position<V>`], [`Game<V>`]);
//! the edges (protocols, the match runner, the CLI) learn the game only from
//! a name at run time. They all need the same small set of operations (play
//! a UCI move, list the legal moves, ask for the outcome, write a FEN), so
//! this enum offers them once, the way shakmaty's `VariantPosition` does,
//! instead of each consumer writing its own type erasure.
//!
//! It is an enum rather than a trait object so that every `match` on it is
//! checked for exhaustiveness: a seventh game does not compile until each
//! consumer handles it. Code that needs the monomorphised game (a search, a
//! perft) gets it with [`with_game!`](crate::with_game), which binds the
//! variant type too.

use crate::cpu::{Lookup, MagicLookup};
use crate::fen::FenError;
use crate::game::Game;
use crate::moves::{Move, MoveList};
use crate::notation::MoveError;
use crate::outcome::Outcome;
use crate::position::Position;
use crate::types::Color;
use crate::variant::{Variant, VariantKind};
use crate::variants::{Atomic, Chess, Knightmate, Losers, Suicide, ThreeCheck};

/// A game in progress of any variant: start position, moves, key history.
#[derive(Clone, Debug)]
pub enum VariantGame {
    /// Standard chess.
    Chess(Game<Chess>),
    /// Suicide (giveaway).
    Suicide(Game<Suicide>),
    /// Three-check.
    ThreeCheck(Game<ThreeCheck>),
    /// Atomic.
    Atomic(Game<Atomic>),
    /// Losers.
    Losers(Game<Losers>),
    /// Knightmate.
    Knightmate(Game<Knightmate>),
}

/// Runs `$body` with `$g` bound to the [`Game<V>`](crate::Game) inside a
/// [`VariantGame`] (by reference, or by mutable reference when the game
/// expression is a `&mut`) and the type alias `$V` bound to its variant.
///
/// ```
/// use movegen::{with_game, VariantGame, VariantKind, Variant};
/// let game = VariantGame::new(VariantKind::Atomic);
/// let n = with_game!(&game, V, g => { assert_eq!(V::KIND, VariantKind::Atomic); g.position().legal_moves().len() });
/// assert_eq!(n, 20);
/// ```
#[macro_export]
macro_rules! with_game {
    ($game:expr, $V:ident, $g:ident => $body:expr) => {
        match $game {
            $crate::VariantGame::Chess($g) => {
                #[allow(dead_code)]
                type $V = $crate::variants::Chess;
                $body
            }
            $crate::VariantGame::Suicide($g) => {
                #[allow(dead_code)]
                type $V = $crate::variants::Suicide;
                $body
            }
            $crate::VariantGame::ThreeCheck($g) => {
                #[allow(dead_code)]
                type $V = $crate::variants::ThreeCheck;
                $body
            }
            $crate::VariantGame::Atomic($g) => {
                #[allow(dead_code)]
                type $V = $crate::variants::Atomic;
                $body
            }
            $crate::VariantGame::Losers($g) => {
                #[allow(dead_code)]
                type $V = $crate::variants::Losers;
                $body
            }
            $crate::VariantGame::Knightmate($g) => {
                #[allow(dead_code)]
                type $V = $crate::variants::Knightmate;
                $body
            }
        }
    };
}

/// Runs `$body` with `$pos` bound to a copy of the current position of a
/// [`VariantGame`] and the type alias `$V` bound to its game with the slider
/// lookup this process chose: [`with_game!`] followed by
/// [`with_lookup!`](crate::with_lookup), for the edges that start a search
/// or a perft (a `VariantGame` holds its game with the default lookup).
///
/// ```
/// use movegen::{with_position, VariantGame, VariantKind};
/// let game = VariantGame::new(VariantKind::Chess);
/// assert_eq!(with_position!(&game, V, pos => movegen::perft(&pos, 2)), 400);
/// ```
#[macro_export]
macro_rules! with_position {
    ($game:expr, $V:ident, $pos:ident => $body:expr) => {
        $crate::with_game!($game, __Stored, __game => {
            let __start = *__game.position();
            $crate::with_lookup!(__Stored, $V => {
                let $pos = __start.with_lookup::<<$V as $crate::Variant>::Lookup>();
                $body
            })
        })
    };
}

macro_rules! from_game {
    ($($V:ident),*) => {$(
        impl From<Game<$V>> for VariantGame {
            fn from(game: Game<$V>) -> Self {
                VariantGame::$V(game)
            }
        }
        /// A game from `start`, of either slider lookup (a `VariantGame`
        /// holds the default one; [`with_lookup!`](crate::with_lookup)
        /// picks again where the hot code starts).
        impl<L: Lookup> From<Position<$V<L>>> for VariantGame {
            fn from(start: Position<$V<L>>) -> Self {
                VariantGame::$V(Game::new(start.with_lookup::<MagicLookup>()))
            }
        }
    )*};
}
from_game!(Chess, Suicide, ThreeCheck, Atomic, Losers, Knightmate);

impl VariantGame {
    /// A game of `kind` from its start position.
    pub fn new(kind: VariantKind) -> VariantGame {
        crate::dispatch_cold!(kind, V => VariantGame::from(Position::<V>::startpos()))
    }

    /// A game of `kind` from the position `fen`.
    pub fn from_fen(kind: VariantKind, fen: &str) -> Result<VariantGame, FenError> {
        crate::dispatch_cold!(kind, V => Position::<V>::from_fen(fen).map(VariantGame::from))
    }

    /// A game of `kind` from `start_fen` (the start position if `None`) with
    /// the UCI `moves` played: how protocols and move lists describe a game.
    pub fn from_uci_moves(
        kind: VariantKind,
        start_fen: Option<&str>,
        moves: &[impl AsRef<str>],
    ) -> Result<VariantGame, GameSetupError> {
        let mut game = match start_fen {
            None => VariantGame::new(kind),
            Some(fen) => VariantGame::from_fen(kind, fen)?,
        };
        for m in moves {
            game.play_uci(m.as_ref())?;
        }
        Ok(game)
    }

    /// The variant.
    pub fn kind(&self) -> VariantKind {
        with_game!(self, V, _g => V::KIND)
    }

    /// FEN of the current position.
    pub fn fen(&self) -> String {
        with_game!(self, V, g => g.position().fen())
    }

    /// FEN of the start position.
    pub fn start_fen(&self) -> String {
        with_game!(self, V, g => g.start().fen())
    }

    /// `true` if the game started from its variant's standard start position.
    pub fn starts_from_startpos(&self) -> bool {
        with_game!(self, V, g => g.start().fen() == Position::<V>::startpos().fen())
    }

    /// Side to move.
    pub fn turn(&self) -> Color {
        with_game!(self, V, g => g.position().turn())
    }

    /// `true` if the side to move is in check.
    pub fn is_check(&self) -> bool {
        with_game!(self, V, g => g.position().is_check())
    }

    /// Halfmove clock of the current position.
    pub fn halfmove_clock(&self) -> u32 {
        with_game!(self, V, g => g.position().halfmove_clock())
    }

    /// Fullmove number of the current position.
    pub fn fullmove_number(&self) -> u32 {
        with_game!(self, V, g => g.position().fullmove_number())
    }

    /// The moves played since the start position.
    pub fn moves(&self) -> &[Move] {
        with_game!(self, V, g => g.moves())
    }

    /// Number of moves played since the start position.
    pub fn ply(&self) -> usize {
        self.moves().len()
    }

    /// The moves played since the start position, in UCI.
    pub fn uci_moves(&self) -> Vec<String> {
        self.moves().iter().map(|m| m.uci()).collect()
    }

    /// Zobrist keys of every position so far, the current one last.
    pub fn keys(&self) -> &[u64] {
        with_game!(self, V, g => g.keys())
    }

    /// Keys of the positions before the current one, oldest first: the
    /// history a search needs for repetitions.
    pub fn history_keys(&self) -> &[u64] {
        with_game!(self, V, g => g.history_keys())
    }

    /// Zobrist key of the current position.
    pub fn key(&self) -> u64 {
        with_game!(self, V, g => g.position().key())
    }

    /// A text picture of the current position's board (see
    /// [`Position::diagram`]).
    pub fn diagram(&self) -> String {
        with_game!(self, V, g => g.position().diagram())
    }

    /// Legal moves of the current position, in generation order.
    pub fn legal_moves(&self) -> MoveList {
        with_game!(self, V, g => g.position().legal_moves())
    }

    /// `true` if `m` is legal in the current position.
    pub fn is_legal(&self, m: Move) -> bool {
        with_game!(self, V, g => g.position().is_legal(m))
    }

    /// Parses a UCI move legal in the current position.
    pub fn parse_uci(&self, text: &str) -> Result<Move, MoveError> {
        with_game!(self, V, g => g.position().parse_uci(text))
    }

    /// Parses a SAN move legal in the current position.
    pub fn parse_san(&self, text: &str) -> Result<Move, MoveError> {
        with_game!(self, V, g => g.position().parse_san(text))
    }

    /// SAN of a move legal in the current position.
    pub fn san(&self, m: Move) -> String {
        with_game!(self, V, g => g.position().san(m))
    }

    /// The moves of `pv` in SAN with move numbers from the current position
    /// (see [`Position::san_line`]).
    pub fn san_line(&self, pv: &[Move]) -> String {
        with_game!(self, V, g => g.position().san_line(pv))
    }

    /// Plays `m` after checking it is legal.
    pub fn play(&mut self, m: Move) -> Result<(), MoveError> {
        with_game!(self, V, g => g.play(m))
    }

    /// Plays a move known to be legal here (from [`VariantGame::parse_uci`],
    /// [`VariantGame::legal_moves`], ...), without checking it again.
    pub fn play_unchecked(&mut self, m: Move) {
        with_game!(self, V, g => g.play_unchecked(m))
    }

    /// Parses a UCI move and plays it.
    pub fn play_uci(&mut self, text: &str) -> Result<Move, MoveError> {
        with_game!(self, V, g => g.play_uci(text))
    }

    /// Takes back the last move; `false` if there is none.
    pub fn undo(&mut self) -> bool {
        with_game!(self, V, g => {
            let Some((_, earlier)) = g.moves().split_last() else {
                return false;
            };
            let mut replayed = Game::new(*g.start());
            for &m in earlier {
                replayed.play_unchecked(m);
            }
            *g = replayed;
            true
        })
    }

    /// The result if the game is over: the variant's rules, then threefold
    /// repetition, the 50-move rule and insufficient material.
    pub fn outcome(&self) -> Option<Outcome> {
        with_game!(self, V, g => g.outcome())
    }

    /// The result by the position alone (the variant's rules, no history).
    pub fn position_outcome(&self) -> Option<Outcome> {
        with_game!(self, V, g => g.position().outcome())
    }
}

/// Why a game could not be set up from a FEN and a move list.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GameSetupError {
    /// The start FEN is invalid.
    #[error(transparent)]
    Fen(#[from] FenError),
    /// A move is not legal (or not UCI) where it is played.
    #[error(transparent)]
    Move(#[from] MoveError),
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plays_and_undoes_in_every_game() {
        for kind in VariantKind::ALL {
            let mut g = VariantGame::new(kind);
            assert_eq!(g.kind(), kind);
            assert!(g.starts_from_startpos());
            let first = g.legal_moves()[0];
            g.play(first).unwrap();
            assert_eq!(g.ply(), 1);
            assert_eq!(g.turn(), Color::Black);
            assert_eq!(g.history_keys().len(), 1);
            assert!(g.undo());
            assert!(!g.undo());
            assert_eq!(g.fen(), kind.start_fen());
        }
    }

    #[test]
    fn set_up_from_fen_and_moves() {
        let g = VariantGame::from_uci_moves(VariantKind::Chess, None, &["e2e4", "e7e5"]).unwrap();
        assert_eq!(g.uci_moves(), ["e2e4", "e7e5"]);
        assert!(g.fen().starts_with("rnbqkbnr/pppp1ppp/8/4p3/4P3"));
        let err = VariantGame::from_uci_moves(VariantKind::Chess, None, &["e2e5"]).unwrap_err();
        assert_eq!(err.to_string(), "illegal move \"e2e5\"");
        let err = VariantGame::from_uci_moves(VariantKind::Chess, Some("8/8"), &[] as &[&str]);
        assert!(matches!(err, Err(GameSetupError::Fen(_))));
        let g =
            VariantGame::from_fen(VariantKind::Chess, "4k3/8/8/8/8/8/8/4K2R w K - 0 1").unwrap();
        assert!(!g.starts_from_startpos());
    }

    #[test]
    fn history_is_the_positions_before_the_current_one() {
        let mut g = VariantGame::new(VariantKind::Chess);
        assert!(g.history_keys().is_empty());
        g.play_uci("g1f3").unwrap();
        g.play_uci("g8f6").unwrap();
        let h = g.history_keys();
        assert_eq!(h.len(), 2);
        assert_eq!(h[0], Position::<Chess>::startpos().key());
        assert_ne!(h[1], g.key());
        assert_eq!(g.keys().last(), Some(&g.key()));
    }

    #[test]
    fn san_lines_number_moves() {
        let mut g = VariantGame::new(VariantKind::Chess);
        let e4 = g.parse_uci("e2e4").unwrap();
        let before = g.clone();
        g.play(e4).unwrap();
        let e5 = g.parse_uci("e7e5").unwrap();
        assert_eq!(before.san_line(&[e4, e5]), "1. e4 e5");
        assert_eq!(g.san_line(&[e5]), "1... e5");
        assert_eq!(g.san_line(&[e4]), "", "stops at the first illegal move");
    }

    #[test]
    fn diagram_draws_the_board_in_fen_letters() {
        let g = VariantGame::from_fen(VariantKind::Knightmate, "4k3/8/8/8/8/8/8/m3K3 w - - 0 1")
            .unwrap();
        let d = g.diagram();
        let lines: Vec<&str> = d.lines().collect();
        assert_eq!(lines.len(), 11);
        assert_eq!(lines[0], " +-----------------+");
        assert_eq!(lines[1], "8| . . . . k . . . |");
        assert_eq!(lines[8], "1| m . . . K . . . |");
        assert_eq!(lines[10], "   a b c d e f g h");
    }

    #[test]
    fn outcome_sees_the_history() {
        let mut g = VariantGame::new(VariantKind::Chess);
        for m in [
            "g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1", "f6g8",
        ] {
            assert_eq!(g.outcome(), None);
            g.play_uci(m).unwrap();
        }
        assert!(g.outcome().is_some());
        assert_eq!(g.position_outcome(), None);
    }
}
