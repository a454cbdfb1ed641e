//! # search
//!
//! varia's engine for all six games: a linear evaluation whose weights live
//! in [`EvalParams`] (TOML files, tunable), behind one seam
//! ([`Evaluator`], with a per-thread [`EvalStack`] along the search path),
//! alpha-beta search generic over
//! the variant whose constants live in [`SearchParams`] (TOML files too), a
//! lock-free transposition table shared by all threads, Lazy SMP, and time
//! management. Protocol front ends (UCI, CECP) are in
//! [`protocol`].

#![warn(missing_docs)]

pub mod alphabeta;
pub mod bench;
pub mod eval;
pub mod evaluator;
pub mod input;
pub mod limits;
pub mod nnue;
pub mod param_file;
pub mod params;
pub mod protocol;
pub mod score;
pub mod see;
pub mod settings;
pub mod tt;

pub use alphabeta::{Info, RootResult, Shared, Worker};
pub use eval::{evaluate, EvalParams};
pub use evaluator::{EvalChoice, EvalStack, Evaluator};
pub use limits::{Clock, Limits};
pub use param_file::ParamsError;
pub use params::{SearchParams, SearchParamsError};
pub use score::{MATE, MATE_BOUND};

use movegen::{Move, Position, Variant};
use std::sync::atomic::Ordering::Relaxed;

/// The result of a search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult {
    /// Best move (`None` if the game is over).
    pub best: Option<Move>,
    /// Its score from the side to move's view.
    pub score: i32,
    /// Depth of the last completed iteration.
    pub depth: u32,
    /// Nodes searched by all threads.
    pub nodes: u64,
    /// Principal variation.
    pub pv: Vec<Move>,
}

/// Searches `root` with `threads` threads (Lazy SMP: all search the same tree
/// and share the table; the main thread decides when to stop and its result
/// is returned). `history` holds the keys of the positions before the root,
/// oldest first, for repetition draws. `evaluator` evaluates the
/// positions, `settings` are the search's own constants. `report` sees each main-thread
/// iteration.
#[allow(clippy::too_many_arguments)] // each is an independent input of a search
pub fn search<V: Variant>(
    root: &Position<V>,
    history: &[u64],
    limits: &Limits,
    evaluator: &Evaluator,
    settings: &SearchParams,
    shared: &Shared,
    threads: usize,
    report: &mut (dyn FnMut(&Info) + Send),
) -> SearchResult {
    let clock = Clock::start(limits, root.turn(), threads.max(1), settings);
    search_on_clock(root, history, &clock, evaluator, settings, shared, report)
}

/// [`search`] on a clock made by the caller (and its threads), which may
/// watch or change it while the search runs: a pondering clock
/// ([`Clock::pondering`]) gets its time budget at [`Clock::ponderhit`].
#[allow(clippy::too_many_arguments)] // each is an independent input of a search
pub fn search_on_clock<V: Variant>(
    root: &Position<V>,
    history: &[u64],
    clock: &Clock,
    evaluator: &Evaluator,
    settings: &SearchParams,
    shared: &Shared,
    report: &mut (dyn FnMut(&Info) + Send),
) -> SearchResult {
    let threads = clock.threads.max(1);
    shared.stop.store(false, Relaxed);
    shared.nodes.store(0, Relaxed);
    shared.tt.new_search();
    let max_depth = clock.depth_limit.unwrap_or(u32::MAX);
    std::thread::scope(|s| {
        for id in 1..threads {
            s.spawn(move || {
                let mut w = Worker::<V>::new(id, shared, evaluator, settings, clock, history);
                w.iterate(root, max_depth, &mut |_| {});
            });
        }
        let mut main = Worker::<V>::new(0, shared, evaluator, settings, clock, history);
        let found = main.iterate(root, max_depth, report);
        shared.stop.store(true, Relaxed);
        SearchResult {
            best: found.best,
            score: found.score,
            depth: found.depth,
            nodes: shared.nodes.load(Relaxed),
            pv: found.pv,
        }
    })
}
