//! What UCI and CECP share: the engine state every protocol keeps
//! ([`Engine`]: the game, the table, the weights, the running search) and the
//! event loop that feeds a protocol's command handler ([`run`]).
//!
//! The two protocols differ only in how they read commands and what they
//! answer, so each implements [`Protocol`] over its own struct, which holds
//! an [`Engine`] plus the protocol's own settings (UCI's `EvalFile`, CECP's
//! clocks and force mode). The loop's rules are the same for both: a line is
//! one command, a finished search is reported unless it was aborted, and at
//! the end of input a search with limits may finish (and report) while one
//! that waits for `stop` is stopped first.

use super::{spawn_reader, spawn_search, Event, Output, Running, SearchJob, DEFAULT_HASH_MB};
use crate::{EvalParams, Info, Limits, SearchParams, SearchResult, Shared};
use movegen::{VariantGame, VariantKind};
use std::io::{self, BufRead, Write};
use std::sync::atomic::AtomicBool;
use std::sync::mpsc::Sender;
use std::sync::Arc;

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
    /// Evaluation weights for `kind`.
    pub params: Arc<EvalParams>,
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
            params: Arc::new(EvalParams::default_for(kind)),
            settings: Arc::new(SearchParams::default()),
            shared: Arc::new(Shared::new(DEFAULT_HASH_MB)),
            running: None,
            next_id: 1,
        }
    }

    /// A new game of the current variant from its start position.
    pub fn reset_game(&mut self) {
        self.game = VariantGame::new(self.kind);
    }

    /// A fresh, empty table of the current size.
    pub fn new_table(&mut self) {
        self.shared = Arc::new(Shared::new(self.hash_mb));
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

    /// Starts searching the current position with `limits`; `hold` keeps the
    /// result until a stop (UCI `go infinite`). `on_info` sees each iteration.
    pub fn start_search(
        &mut self,
        limits: Limits,
        hold: bool,
        on_info: Box<dyn FnMut(&Info) + Send>,
    ) {
        let id = self.next_id;
        self.next_id += 1;
        let job = SearchJob {
            id,
            limits,
            params: self.params.clone(),
            settings: self.settings.clone(),
            shared: self.shared.clone(),
            threads: self.threads,
            stop: Arc::new(AtomicBool::new(false)),
            hold,
            on_info,
            done: self.events.clone(),
        };
        self.running = Some(spawn_search(&self.game, job));
    }

    /// Forgets the running search if it is search `id`; `false` for a
    /// search that was aborted (its report is stale).
    fn take_finished(&mut self, id: u64) -> bool {
        if self.running.as_ref().map(|r| r.id) != Some(id) {
            return false;
        }
        self.running = None;
        true
    }
}

/// A protocol's command handling on top of the shared [`Engine`].
pub(super) trait Protocol {
    /// The protocol's state around a fresh engine.
    fn new(engine: Engine) -> Self;
    /// The shared state.
    fn engine(&mut self) -> &mut Engine;
    /// Handles one input line; `false` to end the loop (`quit`).
    fn command(&mut self, line: &str) -> bool;
    /// The current search ended (`None`: it failed); it is already
    /// forgotten by the engine.
    fn finished(&mut self, result: Option<SearchResult>);
}

/// Runs protocol `P` on `input` and `output` until `quit` or the end of
/// input (see the module docs for what happens to a running search then).
pub(super) fn run<P, R, W>(input: R, output: W) -> io::Result<()>
where
    P: Protocol,
    R: BufRead + Send + 'static,
    W: Write + Send + 'static,
{
    let (tx, rx) = spawn_reader(input);
    let mut protocol = P::new(Engine::new(Output::new(output), tx));
    let mut eof = false;
    while let Ok(event) = rx.recv() {
        match event {
            Event::Line(line) => {
                if !protocol.command(&line) {
                    break;
                }
            }
            Event::Eof => {
                eof = true;
                match &protocol.engine().running {
                    Some(r) if r.holds() => r.stop(),
                    Some(_) => {}
                    None => break,
                }
            }
            Event::Done { id, result } => {
                if protocol.engine().take_finished(id) {
                    protocol.finished(result);
                }
                if eof && protocol.engine().running.is_none() {
                    break;
                }
            }
        }
    }
    if let Some(r) = protocol.engine().running.take() {
        r.abort();
    }
    Ok(())
}
