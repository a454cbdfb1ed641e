//! `Game<V>`: a position with its history, for the rules that need the past:
//! threefold repetition and the 50-move rule, plus insufficient material.
//! The match runner and the engine protocols play games through this.

use crate::moves::Move;
use crate::notation::MoveError;
use crate::outcome::{EndReason, Outcome};
use crate::position::Position;
use crate::variant::Variant;

/// A game in progress: start position, moves played, and the key history.
#[derive(Clone, Debug)]
pub struct Game<V: Variant> {
    start: Position<V>,
    position: Position<V>,
    moves: Vec<Move>,
    /// Keys of every position so far, the current one last.
    keys: Vec<u64>,
}

impl<V: Variant> Game<V> {
    /// A game starting from `start`.
    pub fn new(start: Position<V>) -> Self {
        Game {
            start,
            position: start,
            moves: Vec::new(),
            keys: vec![start.key()],
        }
    }

    /// The start position.
    pub fn start(&self) -> &Position<V> {
        &self.start
    }

    /// The current position.
    pub fn position(&self) -> &Position<V> {
        &self.position
    }

    /// The moves played so far.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// Zobrist keys of every position so far, the current one last.
    pub fn keys(&self) -> &[u64] {
        &self.keys
    }

    /// Keys of the positions before the current one, oldest first: the
    /// history a search needs to see repetitions.
    pub fn history_keys(&self) -> &[u64] {
        &self.keys[..self.keys.len() - 1]
    }

    /// Plays `m` after checking it is legal.
    pub fn play(&mut self, m: Move) -> Result<(), MoveError> {
        if !self.position.is_legal(m) {
            return Err(MoveError::Illegal(m.uci()));
        }
        self.play_unchecked(m);
        Ok(())
    }

    /// Plays a move known to be legal.
    pub fn play_unchecked(&mut self, m: Move) {
        self.position = self.position.play_unchecked(m);
        self.moves.push(m);
        self.keys.push(self.position.key());
    }

    /// Parses a UCI move and plays it.
    pub fn play_uci(&mut self, text: &str) -> Result<Move, MoveError> {
        let m = self.position.parse_uci(text)?;
        self.play_unchecked(m);
        Ok(m)
    }

    /// How often the current position has occurred (counting itself), looking
    /// back no further than the last capture or pawn move.
    pub fn repetitions(&self) -> usize {
        let current = self.position.key();
        let window = (self.position.halfmove_clock() as usize + 1).min(self.keys.len());
        self.keys[self.keys.len() - window..]
            .iter()
            .rev()
            .step_by(2)
            .filter(|&&k| k == current)
            .count()
    }

    /// The result if the game is over: by the variant's rules first, then
    /// threefold repetition, the 50-move rule and insufficient material.
    pub fn outcome(&self) -> Option<Outcome> {
        if let Some(o) = self.position.outcome() {
            return Some(o);
        }
        let draw = |reason| Some(Outcome::Draw { reason });
        if self.repetitions() >= 3 {
            return draw(EndReason::Repetition);
        }
        if self.position.halfmove_clock() >= 100 {
            return draw(EndReason::FiftyMoves);
        }
        if self.position.is_insufficient_material() {
            return draw(EndReason::InsufficientMaterial);
        }
        None
    }
}
