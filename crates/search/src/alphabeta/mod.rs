//! Alpha-beta search, generic over the variant, one concept a file (as the
//! strong Rust engines split theirs):
//!
//! - `thread.rs`: what the threads share ([`Shared`]: the transposition
//!   table, the stop flag, the node count) and what each keeps from one
//!   search to the next (its tables, its stack and its evaluation stack,
//!   aged in place, cleared at a new game), and the [`Worker`] that
//!   searches with them;
//! - `stack.rs`: the per-ply stack of the current path;
//! - `history.rs`: the tables learnt from cutoffs (butterfly,
//!   continuation and capture histories) and from the evaluation's errors
//!   (correction history);
//! - `movepick.rs`: move ordering;
//! - `node.rs`: the node function, principal variation search, written as
//!   the list of decisions it makes;
//! - `prune.rs`: those decisions, each a function named for its rule (null
//!   move, reverse futility, razoring, ProbCut, internal iterative
//!   reduction, the singular, check and forced-reply extensions, move-count,
//!   futility, history and SEE pruning of moves, late-move reductions);
//! - `qsearch.rs`: the quiescence search, also the tuner's;
//! - `iterate.rs`: iterative deepening with aspiration windows.
//!
//! The search evaluates only through [`crate::evaluator`]: the worker's
//! [`Evaluator`](crate::Evaluator) and its thread's
//! [`EvalStack`](crate::EvalStack), told each move made along the path.
//!
//! Every margin, depth and coefficient comes from the worker's
//! [`SearchParams`](crate::SearchParams); each fix of a search defect is a
//! switch there too, on by default only once its SPRT passed
//! (docs/engine.md lists them). The score scale (mate scores) is
//! [`crate::score`]'s.

mod history;
mod iterate;
mod movepick;
mod node;
mod prune;
mod qsearch;
mod stack;
mod thread;

pub use crate::score::{MATE, MATE_BOUND};
pub use iterate::{Info, RootResult};
pub use qsearch::{NoObserver, QLeaf, QObserver};
pub use stack::MAX_PLY;
pub use thread::{Shared, Worker};

#[cfg(test)]
mod tests;
