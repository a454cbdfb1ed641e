//! Alpha-beta search, generic over the variant, one concept a file:
//!
//! - [`thread`]: what the threads share ([`Shared`]: the transposition
//!   table, the stop flag, the node count) and what each keeps from one
//!   search to the next (its tables, aged in place, cleared at a new game),
//!   and the [`Worker`] that searches with them;
//! - [`stack`]: the per-ply stack of the current path;
//! - [`history`]: the tables learnt from cutoffs (butterfly, counter-move,
//!   continuation and capture histories) and from the evaluation's errors
//!   (correction history);
//! - [`movepick`]: move ordering;
//! - [`node`]: the node function, principal variation search, written as
//!   the list of decisions it makes;
//! - [`prune`]: those decisions, each a function named for its rule (null
//!   move, reverse futility, razoring, ProbCut, internal iterative
//!   reduction, the singular, check and forced-reply extensions, move-count,
//!   futility, history and SEE pruning of moves, late-move reductions);
//! - [`qsearch`]: the quiescence search, also the tuner's;
//! - [`iterate`]: iterative deepening with aspiration windows.
//!
//! Every margin, depth and coefficient comes from the worker's
//! [`SearchParams`](crate::SearchParams); each fix of a search defect is a
//! switch there too, on by default only once its SPRT passed
//! (docs/engine.md lists them). The score scale (mate scores) is
//! [`crate::score`]'s.

pub mod history;
pub mod iterate;
pub mod movepick;
pub mod node;
pub mod prune;
pub mod qsearch;
pub mod stack;
pub mod thread;

pub use crate::score::{MATE, MATE_BOUND};
pub use iterate::{Info, RootResult};
pub use qsearch::{NoObserver, QLeaf, QObserver};
pub use stack::MAX_PLY;
pub use thread::{Shared, Worker};

#[cfg(test)]
mod tests;
