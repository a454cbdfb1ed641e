//! Protocol front ends: UCI ([`uci`]) and CECP/XBoard ([`xboard`]).
//!
//! Both loops read commands from any `BufRead` and write replies to any
//! `Write`, so they run on stdin/stdout in `varia uci` / `varia xboard` and on
//! in-memory buffers or pipes in tests. The design is the same for both, so
//! it is written once (the private `session` module):
//!
//! * a reader thread turns input lines into [`Event::Line`]s (and the end of
//!   input into [`Event::Eof`]) on a channel;
//! * the search runs on its own thread (started with [`spawn_search`])
//!   and writes its per-iteration output itself; when it finishes it sends
//!   [`Event::Done`] on the same channel;
//! * the protocol loop owns all state and handles one event at a time, so
//!   `stop`, `isready`, `?`, `force`, `quit`... are answered while a search
//!   runs, and a finished search is turned into `bestmove` / `move` in order.
//!
//! The game is a [`movegen::VariantGame`]: the variant is chosen at run time
//! and only [`spawn_search`] needs the monomorphised game. What is the
//! protocols' own on top of it lives here: the clock limits of
//! [`new_game`] and [`play_uci`].
//!
//! Bad input never ends a loop: it is answered with the protocol's error
//! message and the engine goes on.

mod session;
pub mod uci;
pub mod xboard;

use crate::{search_on_clock, Clock, Evaluator, Info, Limits, SearchParams, SearchResult, Shared};
use movegen::{
    with_position, FenError, Move, MoveError, Position, Variant, VariantGame, VariantKind,
};
use std::io::{BufRead, Write};
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
    /// Search number `id` finished.
    Done {
        /// The number given to the search when it started.
        id: u64,
        /// Its result.
        result: SearchResult,
    },
}

/// The lines of `input` until it ends or fails, without their line endings
/// (`\n` or `\r\n`); invalid UTF-8 is replaced, not fatal. One reader for
/// every line-based peer: the protocol loops' input here, and the match
/// runner's external engines (arena), which read the engine's output on a
/// thread of their own the same way.
pub fn lines<R: BufRead>(input: R) -> Lines<R> {
    Lines {
        input,
        raw: Vec::new(),
    }
}

/// Iterator of [`lines`].
pub struct Lines<R> {
    input: R,
    raw: Vec<u8>,
}

impl<R: BufRead> Iterator for Lines<R> {
    type Item = String;

    fn next(&mut self) -> Option<String> {
        self.raw.clear();
        match self.input.read_until(b'\n', &mut self.raw) {
            Ok(0) | Err(_) => None,
            Ok(_) => {
                let text = String::from_utf8_lossy(&self.raw);
                Some(text.trim_end_matches(['\n', '\r']).to_string())
            }
        }
    }
}

/// Starts a thread feeding the lines of `input` into a new channel. Invalid
/// UTF-8 is replaced, not fatal. Returns the receiving end and a sender for
/// the search threads to report on.
pub fn spawn_reader<R: BufRead + Send + 'static>(input: R) -> (Sender<Event>, Receiver<Event>) {
    let (tx, rx) = mpsc::channel();
    let reader_tx = tx.clone();
    std::thread::spawn(move || {
        for line in lines(input) {
            if reader_tx.send(Event::Line(line)).is_err() {
                return;
            }
        }
        let _ = reader_tx.send(Event::Eof);
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
    pub evaluator: Arc<Evaluator>,
    /// The search's own constants.
    pub settings: Arc<SearchParams>,
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
    /// Ponder: no time budget until [`Running::ponderhit`], and the result
    /// is held until then (or a stop).
    pub ponder: bool,
    /// Called after each completed iteration of the main thread.
    pub on_info: Box<dyn FnMut(&Info) + Send>,
    /// Where [`Event::Done`] goes.
    pub done: Sender<Event>,
}

/// A running search.
pub struct Running {
    /// Its number.
    pub id: u64,
    /// The game whose current position it searches (the protocol's game may
    /// have moved on since).
    pub game: VariantGame,
    /// The result is held until [`Running::stop`] (see [`SearchJob::hold`]).
    hold: bool,
    /// Its limits, and its clock (which counts them, from the ponder hit
    /// for a pondering search).
    limits: Limits,
    clock: Arc<Clock>,
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

    /// `true` if the search reports only after [`Running::stop`]: it never
    /// ends by itself.
    pub fn holds(&self) -> bool {
        self.hold
    }

    /// `true` while the search ponders (started with [`SearchJob::ponder`]
    /// and no ponder hit yet).
    pub fn is_pondering(&self) -> bool {
        self.clock.is_pondering()
    }

    /// The ponder move was played: the search goes on with the time budget
    /// of its own limits, counted from now (UCI `ponderhit`).
    pub fn ponderhit(&self) {
        self.clock.ponderhit(&self.limits);
    }

    /// [`Running::ponderhit`] with the budget of `limits` instead (CECP,
    /// whose clocks are only known when the opponent's move comes).
    pub fn ponderhit_with(&self, limits: &Limits) {
        self.clock.ponderhit(limits);
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

/// Starts searching the current position of `game` on a new thread, with
/// the game's earlier positions as the repetition history. The thread
/// reports each iteration through `job.on_info` and ends with
/// [`Event::Done`] on `job.done`.
pub fn spawn_search(game: &VariantGame, job: SearchJob) -> Running {
    let threads = job.threads.max(1);
    let clock = Arc::new(if job.ponder {
        Clock::pondering(&job.limits, game.turn(), threads, &job.settings)
    } else {
        Clock::start(&job.limits, game.turn(), threads, &job.settings)
    });
    let running = Running {
        id: job.id,
        game: game.clone(),
        hold: job.hold,
        limits: job.limits.clone(),
        clock: clock.clone(),
        stop: job.stop.clone(),
        shared: job.shared.clone(),
        handle: None,
    };
    let handle = with_position!(game, V, pos => {
        spawn_search_of::<V>(pos, game.history_keys().to_vec(), clock, job)
    });
    Running {
        handle: Some(handle),
        ..running
    }
}

/// Aborts the process if the thread it lives on unwinds from a panic.
///
/// A panic in the search is a bug, and the protocols do not try to play on
/// after one: the release profile has `panic = "abort"`, and this guard makes
/// the test and dev profiles (which unwind) do the same instead of leaving
/// the loop waiting for a search that will never report. The panic message
/// is printed first; a match runner sees the engine's end as a crash.
struct AbortOnPanic;

impl Drop for AbortOnPanic {
    fn drop(&mut self) {
        if std::thread::panicking() {
            std::process::abort();
        }
    }
}

/// The search thread of [`spawn_search`] for the monomorphised game.
fn spawn_search_of<V: Variant>(
    root: Position<V>,
    history: Vec<u64>,
    clock: Arc<Clock>,
    job: SearchJob,
) -> JoinHandle<()> {
    let SearchJob {
        id,
        evaluator,
        settings,
        shared,
        stop,
        hold,
        mut on_info,
        done,
        ..
    } = job;
    std::thread::spawn(move || {
        let _abort_on_panic = AbortOnPanic;
        let mut report = |info: &Info| {
            // A stop that came before the search reset its flag.
            if stop.load(Relaxed) {
                shared.stop.store(true, Relaxed);
            }
            on_info(info);
        };
        let result = search_on_clock::<V>(
            &root,
            &history,
            &clock,
            &evaluator,
            &settings,
            &shared,
            &mut report,
        );
        // Let go of the table before reporting, so that the protocol owns
        // it alone once it has the report (and can free it first when it
        // replaces it).
        drop(shared);
        // No report before the stop (or, for a ponder search, the hit).
        while (hold || clock.is_pondering()) && !stop.load(Relaxed) {
            std::thread::sleep(Duration::from_millis(2));
        }
        let _ = done.send(Event::Done { id, result });
    })
}

/// Why a protocol refused a position: the FEN itself, or clocks beyond what
/// a game can reach.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    /// The FEN is invalid.
    #[error(transparent)]
    Fen(#[from] FenError),
    /// The halfmove clock is above the protocols' limit (10 000).
    #[error("halfmove clock {0} out of range (at most {MAX_HALFMOVE})")]
    HalfmoveClock(u32),
    /// The fullmove number is above the protocols' limit (100 000).
    #[error("fullmove number {0} out of range (at most {MAX_FULLMOVE})")]
    FullmoveNumber(u32),
}

/// A new game of `kind` from `fen` (the start position if `None`), as the
/// protocols accept it: a valid FEN whose clocks are in a sane range.
pub fn new_game(kind: VariantKind, fen: Option<&str>) -> Result<VariantGame, SetupError> {
    let Some(fen) = fen else {
        return Ok(VariantGame::new(kind));
    };
    let game = VariantGame::from_fen(kind, fen)?;
    if game.halfmove_clock() > MAX_HALFMOVE {
        return Err(SetupError::HalfmoveClock(game.halfmove_clock()));
    }
    if game.fullmove_number() > MAX_FULLMOVE {
        return Err(SetupError::FullmoveNumber(game.fullmove_number()));
    }
    Ok(game)
}

/// Plays a UCI move in a protocol's game: legal, and not beyond the clock
/// limits (a game that long is refused rather than left to overflow).
pub fn play_uci(game: &mut VariantGame, text: &str) -> Result<Move, MoveError> {
    if game.halfmove_clock() >= MAX_HALFMOVE || game.fullmove_number() >= MAX_FULLMOVE {
        return Err(MoveError::Illegal(format!("{text} (game too long)")));
    }
    game.play_uci(text)
}

/// Parses a `Move Overhead` option value: whole milliseconds from 0 to
/// [`MAX_MOVE_OVERHEAD`](crate::limits::MAX_MOVE_OVERHEAD).
pub fn parse_move_overhead(text: &str) -> Option<Duration> {
    let ms = text.trim().parse::<u64>().ok()?;
    let t = Duration::from_millis(ms);
    (t <= crate::limits::MAX_MOVE_OVERHEAD).then_some(t)
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
    fn moves_past_the_clock_limits_are_refused() {
        let fen = "4k3/8/8/8/8/8/8/4K2R w K - 9999 1";
        let mut g = new_game(VariantKind::Chess, Some(fen)).unwrap();
        play_uci(&mut g, "h1h2").unwrap();
        let err = play_uci(&mut g, "e8e7").unwrap_err();
        assert_eq!(err.to_string(), "illegal move \"e8e7 (game too long)\"");
        assert!(play_uci(&mut new_game(VariantKind::Chess, None).unwrap(), "e2e5").is_err());
    }

    #[test]
    fn huge_clocks_are_rejected() {
        let fen = "4k3/8/8/8/8/8/8/4K2R w K - 4294967295 1";
        assert_eq!(
            new_game(VariantKind::Chess, Some(fen)).unwrap_err(),
            SetupError::HalfmoveClock(4294967295)
        );
        let fen = "4k3/8/8/8/8/8/8/4K2R w K - 0 4294967295";
        assert_eq!(
            new_game(VariantKind::Chess, Some(fen)).unwrap_err(),
            SetupError::FullmoveNumber(4294967295)
        );
        let fen = "4k3/8/8/8/8/8/8/4K2R w K - 10000 100000";
        assert!(new_game(VariantKind::Chess, Some(fen)).is_ok());
        assert!(matches!(
            new_game(VariantKind::Chess, Some("8/8")),
            Err(SetupError::Fen(_))
        ));
    }
}
