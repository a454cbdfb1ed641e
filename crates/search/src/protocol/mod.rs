//! Protocol front ends: UCI ([`uci`]) and CECP/XBoard ([`xboard`]).
//!
//! Both loops read commands from any `BufRead` and write replies to any
//! `Write`, so they run on stdin/stdout in `varia uci` / `varia xboard` and on
//! in-memory buffers or pipes in tests. The design is the same for both:
//!
//! * a reader thread turns input lines into [`Event::Line`]s (and the end of
//!   input into [`Event::Eof`]) on a channel;
//! * the search runs on its own thread (started through [`AnyGame::spawn_search`])
//!   and writes its per-iteration output itself; when it finishes it sends
//!   [`Event::Done`] on the same channel;
//! * the protocol loop owns all state and handles one event at a time, so
//!   `stop`, `isready`, `?`, `force`, `quit`... are answered while a search
//!   runs, and a finished search is turned into `bestmove` / `move` in order.
//!
//! The game is kept as a [`movegen::Game`] behind the object-safe [`AnyGame`]
//! trait, so the variant is chosen at run time once (with
//! [`movegen::dispatch!`]) and everything else is variant-agnostic.
//!
//! Bad input never ends a loop: it is answered with the protocol's error
//! message and the engine goes on.

pub mod uci;
pub mod xboard;

use crate::{search, EvalParams, Info, Limits, SearchResult, Shared};
use movegen::{dispatch, Color, Game, Move, MoveError, Outcome, Position, Variant, VariantKind};
use std::io::{self, BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

/// The engine's name in both protocols.
pub const ENGINE_NAME: &str = "varia";
/// The engine's version (the workspace version).
pub const ENGINE_VERSION: &str = env!("CARGO_PKG_VERSION");
pub use crate::settings::{DEFAULT_HASH_MB, MAX_HASH_MB, MAX_THREADS};

/// Halfmove clocks and move numbers beyond these are rejected in FENs: they
/// cannot arise in a game and would only invite overflow.
const MAX_HALFMOVE: u32 = 10_000;
const MAX_FULLMOVE: u32 = 100_000;

/// A shared, line-oriented output. Every line is written whole and flushed at
/// once, so lines of the search thread and of the protocol loop never mix.
/// Write errors (a closed pipe) are ignored: the loop ends when input ends.
#[derive(Clone)]
pub struct Output(Arc<Mutex<Box<dyn Write + Send>>>);

impl Output {
    /// Wraps a writer.
    pub fn new(w: impl Write + Send + 'static) -> Output {
        Output(Arc::new(Mutex::new(Box::new(w))))
    }

    /// Writes `text` and a newline, then flushes.
    pub fn line(&self, text: &str) {
        let mut w = match self.0.lock() {
            Ok(w) => w,
            Err(poisoned) => poisoned.into_inner(),
        };
        let _ = w.write_all(text.as_bytes());
        let _ = w.write_all(b"\n");
        let _ = w.flush();
    }
}

/// What the protocol loop reacts to.
#[derive(Debug)]
pub enum Event {
    /// A line of input, without its line ending.
    Line(String),
    /// The input ended (or failed).
    Eof,
    /// Search number `id` finished; `None` if it failed.
    Done {
        /// The number given to the search when it started.
        id: u64,
        /// Its result.
        result: Option<SearchResult>,
    },
}

/// Starts a thread feeding the lines of `input` into a new channel. Invalid
/// UTF-8 is replaced, not fatal. Returns the receiving end and a sender for
/// the search threads to report on.
pub fn spawn_reader<R: BufRead + Send + 'static>(mut input: R) -> (Sender<Event>, Receiver<Event>) {
    let (tx, rx) = mpsc::channel();
    let reader_tx = tx.clone();
    std::thread::spawn(move || {
        let mut raw = Vec::new();
        loop {
            raw.clear();
            match input.read_until(b'\n', &mut raw) {
                Ok(0) | Err(_) => {
                    let _ = reader_tx.send(Event::Eof);
                    return;
                }
                Ok(_) => {
                    let text = String::from_utf8_lossy(&raw);
                    let line = text.trim_end_matches(['\n', '\r']).to_string();
                    if reader_tx.send(Event::Line(line)).is_err() {
                        return;
                    }
                }
            }
        }
    });
    (tx, rx)
}

/// Everything a search thread needs.
pub struct SearchJob {
    /// Number reported back in [`Event::Done`].
    pub id: u64,
    /// Limits of this search.
    pub limits: Limits,
    /// Evaluation weights.
    pub params: Arc<EvalParams>,
    /// Table and the engine's stop flag.
    pub shared: Arc<Shared>,
    /// Search threads.
    pub threads: usize,
    /// The protocol's stop request. Set it (and `shared.stop`) to stop the
    /// search; it also keeps a search from losing a stop that arrives before
    /// the search has reset `shared.stop` at its start.
    pub stop: Arc<AtomicBool>,
    /// Hold the result until `stop` is set (UCI `go infinite`: no `bestmove`
    /// before `stop`, even when the search ends by itself).
    pub hold: bool,
    /// Called after each completed iteration of the main thread.
    pub on_info: Box<dyn FnMut(&Info) + Send>,
    /// Where [`Event::Done`] goes.
    pub done: Sender<Event>,
}

/// A running search.
pub struct Running {
    /// Its number.
    pub id: u64,
    stop: Arc<AtomicBool>,
    shared: Arc<Shared>,
    handle: Option<JoinHandle<()>>,
}

impl Running {
    /// Asks the search to stop (it finishes and reports as usual).
    pub fn stop(&self) {
        self.stop.store(true, Relaxed);
        self.shared.stop.store(true, Relaxed);
    }

    /// Stops the search and waits for its thread. Its [`Event::Done`] is still
    /// sent; the loop recognises it as stale by its id.
    pub fn abort(mut self) {
        self.stop();
        if let Some(h) = self.handle.take() {
            let _ = h.join();
        }
    }
}

/// A game of any variant: the object-safe face of [`movegen::Game`].
pub trait AnyGame: Send {
    /// The variant.
    fn kind(&self) -> VariantKind;
    /// FEN of the current position.
    fn fen(&self) -> String;
    /// FEN of the start position.
    fn start_fen(&self) -> String;
    /// Side to move.
    fn turn(&self) -> Color;
    /// Moves played since the start position.
    fn ply(&self) -> usize;
    /// Fullmove number of the current position.
    fn fullmove_number(&self) -> u32;
    /// Plays a UCI move if it is legal.
    fn play_uci(&mut self, text: &str) -> Result<Move, MoveError>;
    /// Takes back the last move; `false` if there is none.
    fn undo(&mut self) -> bool;
    /// The result if the game is over (the variant's rules, then repetition,
    /// the 50-move rule and insufficient material).
    fn outcome(&self) -> Option<Outcome>;
    /// Legal moves in UCI, in generation order.
    fn legal_uci(&self) -> Vec<String>;
    /// The moves of `pv` in SAN with move numbers, from the current position
    /// (stops at the first move that is not legal).
    fn san_line(&self, pv: &[Move]) -> String;
    /// Starts searching the current position on a new thread.
    fn spawn_search(&self, job: SearchJob) -> Running;
}

/// Checks that the FEN's clocks are in a sane range.
fn check_clocks<V: Variant>(pos: &Position<V>) -> Result<(), String> {
    if pos.halfmove_clock() > MAX_HALFMOVE {
        return Err(format!(
            "halfmove clock {} out of range (at most {MAX_HALFMOVE})",
            pos.halfmove_clock()
        ));
    }
    if pos.fullmove_number() > MAX_FULLMOVE {
        return Err(format!(
            "fullmove number {} out of range (at most {MAX_FULLMOVE})",
            pos.fullmove_number()
        ));
    }
    Ok(())
}

/// Parses a FEN of the game `V` for a protocol: the usual checks plus sane clocks.
pub fn parse_fen<V: Variant>(fen: &str) -> Result<Position<V>, String> {
    let pos = Position::<V>::from_fen(fen).map_err(|e| e.to_string())?;
    check_clocks(&pos)?;
    Ok(pos)
}

/// A new game of `kind` from `fen` (the start position if `None`).
pub fn new_game(kind: VariantKind, fen: Option<&str>) -> Result<Box<dyn AnyGame>, String> {
    dispatch!(kind, V => {
        let pos = match fen {
            None => Position::<V>::startpos(),
            Some(f) => parse_fen::<V>(f)?,
        };
        Ok(Box::new(Game::new(pos)) as Box<dyn AnyGame>)
    })
}

/// The keys of the positions of `game` before its current one, oldest first.
fn history_keys<V: Variant>(game: &Game<V>) -> Vec<u64> {
    let keys = game.keys();
    keys[..keys.len().saturating_sub(1)].to_vec()
}

/// SAN of `pv` from `pos`, with move numbers (`12. Nf3 Nc6`, `12... Nc6`).
pub fn san_line<V: Variant>(pos: &Position<V>, pv: &[Move]) -> String {
    let mut out = String::new();
    let mut pos = *pos;
    for (i, &m) in pv.iter().enumerate() {
        if !pos.is_legal(m) {
            break;
        }
        if !out.is_empty() {
            out.push(' ');
        }
        if pos.turn() == Color::White {
            out.push_str(&format!("{}. ", pos.fullmove_number()));
        } else if i == 0 {
            out.push_str(&format!("{}... ", pos.fullmove_number()));
        }
        out.push_str(&pos.san(m));
        pos = pos.play_unchecked(m);
    }
    out
}

impl<V: Variant> AnyGame for Game<V> {
    fn kind(&self) -> VariantKind {
        V::KIND
    }

    fn fen(&self) -> String {
        self.position().fen()
    }

    fn start_fen(&self) -> String {
        self.start().fen()
    }

    fn turn(&self) -> Color {
        self.position().turn()
    }

    fn ply(&self) -> usize {
        self.moves().len()
    }

    fn fullmove_number(&self) -> u32 {
        self.position().fullmove_number()
    }

    fn play_uci(&mut self, text: &str) -> Result<Move, MoveError> {
        if self.position().halfmove_clock() >= MAX_HALFMOVE
            || self.position().fullmove_number() >= MAX_FULLMOVE
        {
            return Err(MoveError::Illegal(format!("{text} (game too long)")));
        }
        Game::play_uci(self, text)
    }

    fn undo(&mut self) -> bool {
        let Some((_, earlier)) = self.moves().split_last() else {
            return false;
        };
        let mut g = Game::new(*self.start());
        for &m in earlier {
            g.play_unchecked(m);
        }
        *self = g;
        true
    }

    fn outcome(&self) -> Option<Outcome> {
        Game::outcome(self)
    }

    fn legal_uci(&self) -> Vec<String> {
        self.position()
            .legal_moves()
            .iter()
            .map(|m| m.uci())
            .collect()
    }

    fn san_line(&self, pv: &[Move]) -> String {
        san_line(self.position(), pv)
    }

    fn spawn_search(&self, job: SearchJob) -> Running {
        let root = *self.position();
        let history = history_keys(self);
        let SearchJob {
            id,
            limits,
            params,
            shared,
            threads,
            stop,
            hold,
            mut on_info,
            done,
        } = job;
        let running = Running {
            id,
            stop: stop.clone(),
            shared: shared.clone(),
            handle: None,
        };
        let handle = std::thread::spawn(move || {
            let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                let mut report = |info: &Info| {
                    // A stop that came before the search reset its flag.
                    if stop.load(Relaxed) {
                        shared.stop.store(true, Relaxed);
                    }
                    on_info(info);
                };
                search::<V>(
                    &root,
                    &history,
                    &limits,
                    &params,
                    &shared,
                    threads,
                    &mut report,
                )
            }))
            .ok();
            if hold {
                while !stop.load(Relaxed) {
                    std::thread::sleep(Duration::from_millis(2));
                }
            }
            let _ = done.send(Event::Done { id, result });
        });
        Running {
            handle: Some(handle),
            ..running
        }
    }
}

/// A text picture of the board of a FEN (rank 8 first), for debugging.
pub fn diagram(fen: &str) -> String {
    let board = fen.split_whitespace().next().unwrap_or_default();
    let mut out = String::from(" +-----------------+\n");
    for (i, rank) in board.split('/').enumerate() {
        out.push_str(&format!("{}| ", 8 - i));
        for c in rank.chars() {
            match c.to_digit(10) {
                Some(n) => (0..n).for_each(|_| out.push_str(". ")),
                None => {
                    out.push(c);
                    out.push(' ');
                }
            }
        }
        out.push_str("|\n");
    }
    out.push_str(" +-----------------+\n   a b c d e f g h");
    out
}

/// Human words for how a game ended, e.g. `White wins by checkmate`.
pub fn describe_outcome(o: Outcome) -> String {
    use movegen::EndReason::*;
    let how = match o.reason() {
        Checkmate => "checkmate",
        Stalemate => "stalemate",
        ThirdCheck => "third check",
        KingExploded => "king explosion",
        NoMoves => "having no moves left",
        BareKing => "bare king",
        FiftyMoves => "50-move rule",
        Repetition => "3-fold repetition",
        InsufficientMaterial => "insufficient material",
    };
    match o.winner() {
        Some(Color::White) => format!("White wins by {how}"),
        Some(Color::Black) => format!("Black wins by {how}"),
        None => format!("Draw by {how}"),
    }
}

/// Loads evaluation weights for `kind`: the defaults for an empty path, else
/// the file (an error message if it cannot be used).
pub fn load_params(kind: VariantKind, path: &str) -> Result<EvalParams, String> {
    if path.is_empty() {
        Ok(EvalParams::default_for(kind))
    } else {
        EvalParams::load(kind, std::path::Path::new(path)).map_err(|e| e.to_string())
    }
}

/// Splits a line into whitespace-separated tokens with their byte offsets, so
/// that a command can take "the rest of the line" verbatim.
pub(crate) fn tokens(line: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, c) in line.char_indices() {
        if c.is_whitespace() {
            if let Some(s) = start.take() {
                out.push((s, &line[s..i]));
            }
        } else if start.is_none() {
            start = Some(i);
        }
    }
    if let Some(s) = start {
        out.push((s, &line[s..]));
    }
    out
}

/// An in-memory writer whose contents can be read from another handle.
#[derive(Clone, Default)]
pub struct SharedBuf(Arc<Mutex<Vec<u8>>>);

impl SharedBuf {
    /// Everything written so far.
    pub fn text(&self) -> String {
        let v = match self.0.lock() {
            Ok(v) => v,
            Err(p) => p.into_inner(),
        };
        String::from_utf8_lossy(&v).into_owned()
    }
}

impl Write for SharedBuf {
    fn write(&mut self, data: &[u8]) -> io::Result<usize> {
        let mut v = match self.0.lock() {
            Ok(v) => v,
            Err(p) => p.into_inner(),
        };
        v.extend_from_slice(data);
        Ok(data.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_keep_offsets() {
        let t = tokens("  setoption name  EvalFile value /a b/c ");
        assert_eq!(t[0], (2, "setoption"));
        assert_eq!(t[2].1, "EvalFile");
        assert_eq!(t[3].1, "value");
        let value_at = t[4].0;
        assert_eq!(
            &"  setoption name  EvalFile value /a b/c "[value_at..].trim(),
            &"/a b/c"
        );
    }

    #[test]
    fn undo_and_history() {
        let mut g = new_game(VariantKind::Chess, None).unwrap();
        assert!(!g.undo());
        g.play_uci("e2e4").unwrap();
        g.play_uci("e7e5").unwrap();
        assert_eq!(g.ply(), 2);
        assert!(g.undo());
        assert_eq!(g.ply(), 1);
        assert!(g.fen().starts_with("rnbqkbnr/pppppppp/8/8/4P3"));
    }

    #[test]
    fn history_is_the_positions_before_the_current_one() {
        let mut g = Game::new(Position::<movegen::variants::Chess>::startpos());
        assert!(history_keys(&g).is_empty());
        g.play_uci("g1f3").unwrap();
        g.play_uci("g8f6").unwrap();
        let h = history_keys(&g);
        assert_eq!(h.len(), 2);
        assert_eq!(h[0], Position::<movegen::variants::Chess>::startpos().key());
        assert_ne!(h[1], g.position().key());
    }

    #[test]
    fn huge_clocks_are_rejected() {
        let fen = "4k3/8/8/8/8/8/8/4K2R w K - 4294967295 1";
        assert!(new_game(VariantKind::Chess, Some(fen)).is_err());
        let fen = "4k3/8/8/8/8/8/8/4K2R w K - 0 4294967295";
        assert!(new_game(VariantKind::Chess, Some(fen)).is_err());
    }

    #[test]
    fn san_lines_number_moves() {
        let pos = Position::<movegen::variants::Chess>::startpos();
        let e4 = pos.parse_uci("e2e4").unwrap();
        let after = pos.play_unchecked(e4);
        let e5 = after.parse_uci("e7e5").unwrap();
        assert_eq!(san_line(&pos, &[e4, e5]), "1. e4 e5");
        assert_eq!(san_line(&after, &[e5]), "1... e5");
    }
}
