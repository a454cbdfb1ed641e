//! What UCI and CECP share: the engine state every protocol keeps
//! ([`Engine`]: the game, the table, the weights, the running search) and the
//! event loop that feeds a protocol's command handler ([`run`]).
//!
//! The two protocols differ only in how they read commands and what they
//! answer, so each implements [`Protocol`] over its own struct, which holds
//! an [`Engine`] plus the protocol's own settings (UCI's `EvalFile`, CECP's
//! clocks and force mode). The loop's rules are the same for both: a line is
//! one command, a finished search is reported unless it was aborted, and the
//! end of input stops whatever runs (it still reports, so a `go` piped in
//! gets its `bestmove` at once rather than after minutes of thinking) and
//! ends the loop. `quit` ends the loop too; a protocol whose `quit` must
//! still answer the searches it was given (UCI: scripts and GUIs that send
//! `quit` and close the pipe rely on the `bestmove`, as Stockfish prints it)
//! says so with [`Protocol::QUIT_REPORTS`], and its `quit` then stops and
//! reports exactly like the end of input; CECP's `quit` ends at once, as
//! that protocol allows. Lines after `quit` are not read.
//!
//! The table is replaced in place when the size changes or a new game
//! begins: the old one is freed before the new one is allocated, so the
//! engine never holds two tables at once (unless a search that still runs
//! keeps the old one alive until it ends).

use super::{spawn_reader, spawn_search, Event, Output, Running, SearchJob, DEFAULT_HASH_MB};
use crate::limits::DEFAULT_MOVE_OVERHEAD;
use crate::{Evaluator, Info, Limits, SearchParams, SearchResult, Shared};
use movegen::{VariantGame, VariantKind};
use std::io::{self, BufRead, Write};
use std::sync::atomic::AtomicBool;
use std::sync::mpsc::Sender;
use std::sync::Arc;
use std::time::Duration;

/// The state both protocols keep.
pub(super) struct Engine {
    /// Where replies go.
    pub out: Output,
    /// Where a search reports that it is done.
    events: Sender<Event>,
    /// The game being played.
    pub kind: VariantKind,
    /// The current game.
    pub game: VariantGame,
    /// Transposition table size in MB.
    pub hash_mb: usize,
    /// Search threads.
    pub threads: usize,
    /// Time kept back from every clock budget (the `Move Overhead` option).
    pub move_overhead: Duration,
    /// The evaluation for `kind`.
    pub evaluator: Arc<Evaluator>,
    /// The search's constants (UCI `SearchFile`).
    pub settings: Arc<SearchParams>,
    /// The table and the stop flag.
    pub shared: Arc<Shared>,
    /// The search in progress.
    pub running: Option<Running>,
    /// Number of the next search.
    next_id: u64,
}

impl Engine {
    /// Chess from the start position, the built-in weights, a table of
    /// [`DEFAULT_HASH_MB`], one thread.
    fn new(out: Output, events: Sender<Event>) -> Engine {
        let kind = VariantKind::Chess;
        Engine {
            out,
            events,
            kind,
            game: VariantGame::new(kind),
            hash_mb: DEFAULT_HASH_MB,
            threads: 1,
            move_overhead: DEFAULT_MOVE_OVERHEAD,
            evaluator: Arc::new(Evaluator::default_for(kind)),
            settings: Arc::new(SearchParams::default_for(kind)),
            shared: Arc::new(Shared::new(DEFAULT_HASH_MB)),
            running: None,
            next_id: 1,
        }
    }

    /// A new game of the current variant from its start position.
    pub fn reset_game(&mut self) {
        self.game = VariantGame::new(self.kind);
    }

    /// A fresh, empty table of the current size. The old table is freed
    /// before the new one is allocated (peak: one table), unless a search
    /// still holds it.
    pub fn new_table(&mut self) {
        match Arc::get_mut(&mut self.shared) {
            Some(shared) => shared.reallocate(self.hash_mb),
            None => self.shared = Arc::new(Shared::new(self.hash_mb)),
        }
    }

    /// Sets the table size, replacing the table only if the size changes.
    pub fn set_hash_mb(&mut self, mb: usize) {
        if mb != self.hash_mb {
            self.hash_mb = mb;
            self.new_table();
        }
    }

    /// Asks the running search, if any, to stop (it still reports).
    pub fn stop(&self) {
        if let Some(r) = &self.running {
            r.stop();
        }
    }

    /// Starts the search `request` asks for.
    pub fn start_search(&mut self, request: SearchRequest) {
        let id = self.next_id;
        self.next_id += 1;
        let job = SearchJob {
            id,
            limits: Limits {
                move_overhead: self.move_overhead,
                ..request.limits
            },
            evaluator: self.evaluator.clone(),
            settings: self.settings.clone(),
            shared: self.shared.clone(),
            threads: self.threads,
            stop: request.stop,
            hold: request.hold,
            ponder: request.ponder,
            on_info: request.on_info,
            done: self.events.clone(),
        };
        self.running = Some(spawn_search(&request.game, job));
    }

    /// Takes the running search if it is search `id`; `None` for a search
    /// that was aborted (its report is stale).
    fn take_finished(&mut self, id: u64) -> Option<Running> {
        if self.running.as_ref().map(|r| r.id) != Some(id) {
            return None;
        }
        self.running.take()
    }
}

/// A search to start: the game whose current position is searched (with its
/// history), the limits, and how it reports.
pub(super) struct SearchRequest {
    /// The game, as it was when the search was asked for.
    pub game: VariantGame,
    /// Limits of the search.
    pub limits: Limits,
    /// Keep the result until `stop` is set (UCI `go infinite`).
    pub hold: bool,
    /// Ponder (see [`SearchJob::ponder`]).
    pub ponder: bool,
    /// The search's stop request (see [`SearchJob::stop`]); may be set
    /// before the search starts.
    pub stop: Arc<AtomicBool>,
    /// Sees each iteration.
    pub on_info: Box<dyn FnMut(&Info) + Send>,
}

impl SearchRequest {
    /// A search of `game`'s position with `limits`, not stopped yet.
    pub fn new(
        game: VariantGame,
        limits: Limits,
        hold: bool,
        on_info: Box<dyn FnMut(&Info) + Send>,
    ) -> SearchRequest {
        SearchRequest {
            game,
            limits,
            hold,
            ponder: false,
            stop: Arc::new(AtomicBool::new(false)),
            on_info,
        }
    }
}

/// A protocol's command handling on top of the shared [`Engine`].
pub(super) trait Protocol {
    /// The protocol's state around a fresh engine.
    fn new(engine: Engine) -> Self;
    /// The shared state.
    fn engine(&mut self) -> &mut Engine;
    /// `quit` stops every search and waits for their reports, as the end
    /// of input does, instead of ending the loop at once.
    const QUIT_REPORTS: bool;
    /// Handles one input line; `false` to end the loop (`quit`).
    fn command(&mut self, line: &str) -> bool;
    /// A search ended with `result`; `searched` is the game it searched.
    /// The engine has already forgotten it.
    fn finished(&mut self, searched: VariantGame, result: SearchResult);
    /// The input ended: stop every search the protocol has started or
    /// queued. Each still reports; the loop ends when none is left.
    fn end_of_input(&mut self);
}

/// Runs protocol `P` on `input` and `output` until `quit` or the end of
/// input (see the module docs for what happens to a running search then).
pub(super) fn run<P, R, W>(input: R, output: W) -> io::Result<()>
where
    P: Protocol,
    R: BufRead + Send + 'static,
    W: Write + Send + 'static,
{
    run_with(input, output, P::new)
}

/// [`run`] with the protocol's state built by `make` around the fresh
/// engine (a protocol started with settings of its own, e.g. `varia uci
/// --tune --variant V`).
pub(super) fn run_with<P, R, W>(
    input: R,
    output: W,
    make: impl FnOnce(Engine) -> P,
) -> io::Result<()>
where
    P: Protocol,
    R: BufRead + Send + 'static,
    W: Write + Send + 'static,
{
    let (tx, rx) = spawn_reader(input);
    let mut protocol = make(Engine::new(Output::new(output), tx));
    // Set at the end of input, or at a `quit` that reports: no more
    // commands, every search is stopped, the loop ends when none is left.
    let mut eof = false;
    while let Ok(event) = rx.recv() {
        match event {
            // Lines after a reporting `quit` are not commands any more.
            Event::Line(_) if eof => {}
            Event::Line(line) => {
                if !protocol.command(&line) {
                    if !P::QUIT_REPORTS {
                        break;
                    }
                    eof = true;
                    protocol.end_of_input();
                    if protocol.engine().running.is_none() {
                        break;
                    }
                }
            }
            // A second end (input ending after a reporting `quit`) changes
            // nothing.
            Event::Eof if eof => {}
            Event::Eof => {
                eof = true;
                protocol.end_of_input();
                if protocol.engine().running.is_none() {
                    break;
                }
            }
            Event::Done { id, result } => {
                if let Some(finished) = protocol.engine().take_finished(id) {
                    protocol.finished(finished.game, result);
                }
                if eof {
                    // A search started on the report (a queued `go`) is
                    // stopped at once too.
                    protocol.end_of_input();
                    if protocol.engine().running.is_none() {
                        break;
                    }
                }
            }
        }
    }
    if let Some(r) = protocol.engine().running.take() {
        r.abort();
    }
    Ok(())
}
