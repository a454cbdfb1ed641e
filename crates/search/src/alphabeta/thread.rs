//! The search's threads and what they share or keep.
//!
//! [`Shared`] is what all threads of a search see: the transposition table,
//! the stop flag, the node count, and each thread's persistent state.
//! [`ThreadData`] is that state: the history tables, the per-ply stack, the
//! evaluation's stack ([`EvalStack`]) and the late-move-reduction table,
//! allocated once and kept from one search of a game to the next. A [`Worker`] takes its thread's state out of
//! [`Shared`] when it starts and puts it back when it is dropped, so that
//! the tables are never copied: at the start of a search they are aged in
//! place (the histories halved, the killers moved to the plies they have
//! from the new root, with `keep_heuristics`) or cleared, and a new game
//! ([`Shared::clear`]) has them cleared at the next search.

use super::history::HistoryTables;
use super::prune::Reductions;
use super::stack::Stack;
use crate::evaluator::{EvalStack, Evaluator};
use crate::limits::Clock;
use crate::params::SearchParams;
use crate::score::score_to_tt;
use crate::tt::{Bound, TranspositionTable, TtEntry};
use movegen::{Move, Position, Variant};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::sync::Mutex;

/// State shared by all search threads.
pub struct Shared {
    /// The transposition table.
    pub tt: TranspositionTable,
    /// Set to stop every thread.
    pub stop: AtomicBool,
    /// Nodes searched by all threads (flushed in batches).
    pub nodes: AtomicU64,
    /// Each thread's persistent state, by thread index (a thread's slot is
    /// empty while its worker runs).
    threads: Mutex<Vec<ThreadData>>,
}

impl Shared {
    /// Shared state with a table of `hash_mb` megabytes.
    pub fn new(hash_mb: usize) -> Shared {
        Shared {
            tt: TranspositionTable::new(hash_mb),
            stop: AtomicBool::new(false),
            nodes: AtomicU64::new(0),
            threads: Mutex::new(Vec::new()),
        }
    }

    /// Forgets everything learnt in the searches so far (a new game): the
    /// table's entries and the threads' killers and history.
    pub fn clear(&mut self) {
        self.tt.clear();
        self.forget_heuristics();
    }

    /// A new game with a table of `hash_mb` megabytes
    /// ([`TranspositionTable::reallocate`]), killers and history forgotten.
    pub fn reallocate(&mut self, hash_mb: usize) {
        self.tt.reallocate(hash_mb);
        self.forget_heuristics();
    }

    fn forget_heuristics(&mut self) {
        for td in self.threads_mut().iter_mut() {
            td.forget();
        }
    }

    fn threads_mut(&mut self) -> &mut Vec<ThreadData> {
        self.threads.get_mut().unwrap_or_else(|e| e.into_inner())
    }

    /// Takes thread `id`'s persistent state out of its slot (a new state
    /// the first time).
    fn take_thread(&self, id: usize) -> ThreadData {
        let mut all = self.threads.lock().unwrap_or_else(|e| e.into_inner());
        if all.len() <= id {
            all.resize_with(id + 1, ThreadData::default);
        }
        std::mem::take(&mut all[id])
    }

    /// Puts thread `id`'s persistent state back in its slot.
    fn put_thread(&self, id: usize, td: ThreadData) {
        let mut all = self.threads.lock().unwrap_or_else(|e| e.into_inner());
        if all.len() <= id {
            all.resize_with(id + 1, ThreadData::default);
        }
        all[id] = td;
    }
}

/// What a thread's tables hold between two searches.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) enum Left {
    /// Nothing: every table as a new one is.
    #[default]
    Clean,
    /// What a search of a game learnt, for the next search of the same
    /// game (`keep_heuristics`), with the length of the game before its
    /// root.
    Game(usize),
    /// What no search will resume: cleared at the next.
    Used,
}

/// A thread's persistent state: its tables, allocated once and kept from
/// one search to the next.
#[derive(Debug, Default)]
pub(crate) struct ThreadData {
    /// The history tables.
    pub hist: HistoryTables,
    /// The per-ply stack (with the killers).
    pub stack: Stack,
    /// The late-move reductions of the settings last searched with.
    pub reductions: Reductions,
    /// The evaluation's state along the path.
    pub eval: EvalStack,
    /// What the tables hold.
    pub(super) left: Left,
}

impl ThreadData {
    /// Readies the state for a search with `settings` from a root after
    /// `game_ply` positions of the game: the tables of the last search of
    /// the game aged (with `keep_heuristics`), any other learning cleared,
    /// the path reset.
    fn begin(&mut self, settings: &SearchParams, game_ply: usize) {
        self.hist.size_for(settings);
        self.stack.reset_path();
        self.reductions.build_for(settings);
        match (settings.keep_heuristics != 0, self.left) {
            (_, Left::Clean) => {}
            (true, Left::Game(before)) => {
                self.hist.age();
                self.stack.shift_killers(game_ply.wrapping_sub(before));
                self.left = Left::Used;
            }
            _ => {
                self.hist.clear();
                self.stack.clear_killers();
                self.left = Left::Clean;
            }
        }
    }

    /// The tables learnt something (a search wrote to them).
    #[inline]
    pub fn learnt(&mut self) {
        self.left = Left::Used;
    }

    /// A search of a game after `game_ply` positions ended: with
    /// `keep_heuristics` the next search of the game resumes from here.
    pub fn end(&mut self, settings: &SearchParams, game_ply: usize) {
        if settings.keep_heuristics != 0 {
            self.left = Left::Game(game_ply);
        }
    }

    /// A new game: nothing learnt is resumed.
    fn forget(&mut self) {
        if self.left != Left::Clean {
            self.left = Left::Used;
        }
    }
}

/// One search thread.
pub struct Worker<'a, V: Variant> {
    pub(super) shared: &'a Shared,
    pub(super) evaluator: &'a Evaluator,
    pub(super) settings: &'a SearchParams,
    pub(super) clock: &'a Clock,
    /// Thread index (0 = main).
    pub id: usize,
    /// Nodes searched by this thread.
    pub nodes: u64,
    unflushed: u64,
    pub(super) seldepth: usize,
    /// This thread's persistent state, taken from [`Shared`] for the
    /// worker's life.
    pub(super) td: ThreadData,
    /// Positions of the game before the root.
    pub(super) game_ply: usize,
    /// Keys of the game so far and the current search path.
    pub(super) keys: Vec<u64>,
    /// Best root move of the current iteration so far and its score: a root
    /// move that was searched to the end and beat alpha.
    pub(super) root_best: Option<(Move, i32)>,
    /// Depth of the current iteration (the budget of the reply and
    /// singular extensions).
    pub(super) root_depth: i32,
    pub(super) stopped: bool,
    _v: std::marker::PhantomData<V>,
}

impl<V: Variant> Drop for Worker<'_, V> {
    fn drop(&mut self) {
        self.shared
            .put_thread(self.id, std::mem::take(&mut self.td));
    }
}

impl<'a, V: Variant> Worker<'a, V> {
    /// Thread `id` evaluating with `evaluator` and searching with `settings`,
    /// sharing `shared` (and taking its persistent state from there until
    /// dropped); `history` holds the keys of the positions before the root
    /// (for repetition draws).
    pub fn new(
        id: usize,
        shared: &'a Shared,
        evaluator: &'a Evaluator,
        settings: &'a SearchParams,
        clock: &'a Clock,
        history: &[u64],
    ) -> Self {
        let mut td = shared.take_thread(id);
        td.begin(settings, history.len());
        Worker {
            shared,
            evaluator,
            settings,
            clock,
            id,
            nodes: 0,
            unflushed: 0,
            seldepth: 0,
            td,
            game_ply: history.len(),
            keys: history.to_vec(),
            root_best: None,
            root_depth: 0,
            stopped: false,
            _v: std::marker::PhantomData,
        }
    }

    /// The static evaluation of `pos`, the node at `ply` of the path,
    /// through the thread's evaluation stack (whose top it is).
    #[inline]
    pub(super) fn static_eval(&mut self, pos: &Position<V>, ply: usize) -> i32 {
        debug_assert_eq!(self.td.eval.height(), ply + 1, "the stack follows the path");
        self.td.eval.evaluate(self.evaluator, pos)
    }

    #[inline]
    pub(super) fn count_node(&mut self) {
        self.nodes += 1;
        self.unflushed += 1;
        if self.unflushed >= 1024 {
            self.shared.nodes.fetch_add(self.unflushed, Relaxed);
            self.unflushed = 0;
            if self.id == 0 && self.clock.past_hard_limit() {
                self.shared.stop.store(true, Relaxed);
            }
        }
        if let Some(limit) = self.clock.node_limit {
            // With one thread this makes fixed-node searches deterministic.
            if self.nodes + self.helper_nodes() >= limit {
                self.shared.stop.store(true, Relaxed);
            }
        }
    }

    fn helper_nodes(&self) -> u64 {
        if self.clock.threads <= 1 {
            0
        } else {
            self.shared
                .nodes
                .load(Relaxed)
                .saturating_sub(self.nodes - self.unflushed)
        }
    }

    #[inline]
    pub(super) fn should_stop(&mut self) -> bool {
        if !self.stopped && self.shared.stop.load(Relaxed) {
            self.stopped = true;
        }
        self.stopped
    }

    pub(super) fn flush_nodes(&mut self) {
        self.shared.nodes.fetch_add(self.unflushed, Relaxed);
        self.unflushed = 0;
    }

    pub(super) fn is_repetition(&self, pos: &Position<V>) -> bool {
        let key = pos.key();
        let n = self.keys.len();
        let window = (pos.halfmove_clock() as usize).min(n.saturating_sub(1));
        // keys[n - 1] is this position; look at the same side to move before it.
        let mut i = 2;
        while i <= window {
            if self.keys[n - 1 - i] == key {
                return true;
            }
            i += 2;
        }
        false
    }

    /// Stores the result of a node (`score` at `ply`, with the static
    /// evaluation `eval`), from the main search or quiescence, under the
    /// table's replacement rule (`tt_keep_deeper`).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn store(
        &self,
        key: u64,
        score: i32,
        eval: i32,
        depth: i32,
        bound: Bound,
        mv: Option<Move>,
        ply: usize,
    ) {
        self.shared.tt.store(
            key,
            TtEntry {
                mv,
                score: score_to_tt(score, ply),
                eval,
                depth,
                bound,
            },
            self.settings.tt_keep_deeper != 0,
        );
    }
}
