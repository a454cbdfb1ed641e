//! The seam between the search and the evaluation.
//!
//! The search evaluates positions it makes by copy-make, one ply at a time,
//! along the path it searches. An [`Evaluator`] is what evaluates (today
//! one kind: the classical linear evaluation with its weights,
//! [`EvalParams`]); an [`EvalStack`] is one search thread's evaluation state
//! along its path, kept in the thread's persistent state and told each
//! step of the path: [`EvalStack::root`] at the root of a search,
//! [`EvalStack::push`] (a move made, with the positions before and after
//! it) and [`EvalStack::push_null`] before a child is searched,
//! [`EvalStack::pop`] after, and [`EvalStack::evaluate`] for the position
//! at the top. The classical kind needs none of the steps (it evaluates a
//! position from scratch) and only counts them; a kind with per-ply state,
//! such as a network whose accumulators are updated incrementally from the
//! parent's by the move's features, keeps that state here and adds its
//! arm to each `match` below, without touching the search.
//!
//! Every front end (the protocol sessions, the match runner's in-process
//! player, analysis, bench, the opening and data generators) holds an
//! `Evaluator`; what tunes the classical weights (Texel, SPSA, the
//! quiescence leaves) works on [`EvalParams`] and wraps them in one to
//! search ([`Evaluator::from`]).

use crate::eval::{evaluate, EvalParams, ParamsError};
use movegen::{Move, Position, Variant, VariantKind};
use std::path::Path;

/// What evaluates positions for the search.
#[derive(Clone, Debug)]
pub enum Evaluator {
    /// The classical evaluation: a linear function of the position's terms
    /// with these weights.
    Classical(EvalParams),
}

impl Evaluator {
    /// The built-in evaluation of `kind` (its classical weights).
    pub fn default_for(kind: VariantKind) -> Evaluator {
        Evaluator::Classical(EvalParams::default_for(kind))
    }

    /// The classical evaluation of `kind` with the weights of the TOML file
    /// at `path` (or the built-in ones without a path).
    pub fn load_or_default(
        kind: VariantKind,
        path: Option<&Path>,
    ) -> Result<Evaluator, ParamsError> {
        EvalParams::load_or_default(kind, path).map(Evaluator::Classical)
    }

    /// The game this evaluation is for.
    pub fn variant(&self) -> VariantKind {
        match self {
            Evaluator::Classical(p) => p.variant,
        }
    }

    /// The classical weights, if this is the classical evaluation (what the
    /// tuners and the protocols' weight options work on).
    pub fn classical(&self) -> Option<&EvalParams> {
        match self {
            Evaluator::Classical(p) => Some(p),
        }
    }

    /// The classical weights to change, if this is the classical
    /// evaluation.
    pub fn classical_mut(&mut self) -> Option<&mut EvalParams> {
        match self {
            Evaluator::Classical(p) => Some(p),
        }
    }

    /// The static evaluation of `pos` on its own, without a search path
    /// (from scratch whatever the kind), in centipawns from the side to
    /// move's view.
    pub fn evaluate<V: Variant>(&self, pos: &Position<V>) -> i32 {
        match self {
            Evaluator::Classical(p) => evaluate(pos, p),
        }
    }
}

impl From<EvalParams> for Evaluator {
    fn from(params: EvalParams) -> Evaluator {
        Evaluator::Classical(params)
    }
}

/// One search thread's evaluation state along its current path: one entry
/// a ply, the root's at the bottom. Allocated once per thread and kept
/// from one search to the next (the thread's persistent state); every
/// method takes the [`Evaluator`] the search runs with.
#[derive(Clone, Debug, Default)]
pub struct EvalStack {
    /// Entries on the stack: the ply of the top position plus one.
    height: usize,
}

impl EvalStack {
    /// A stack for any evaluator, empty.
    pub fn new() -> EvalStack {
        EvalStack::default()
    }

    /// Starts a path at `root`: the stack holds its entry alone.
    #[inline]
    pub fn root<V: Variant>(&mut self, evaluator: &Evaluator, root: &Position<V>) {
        match evaluator {
            Evaluator::Classical(_) => {}
        }
        let _ = root;
        self.height = 1;
    }

    /// The path goes on from `parent` (the top position) by the move `m` to
    /// `child`, which the search is about to search.
    #[inline]
    pub fn push<V: Variant>(
        &mut self,
        evaluator: &Evaluator,
        parent: &Position<V>,
        child: &Position<V>,
        m: Move,
    ) {
        match evaluator {
            Evaluator::Classical(_) => {}
        }
        let _ = (parent, child, m);
        self.height += 1;
    }

    /// The path goes on from `parent` by a null move to `child`.
    #[inline]
    pub fn push_null<V: Variant>(
        &mut self,
        evaluator: &Evaluator,
        parent: &Position<V>,
        child: &Position<V>,
    ) {
        match evaluator {
            Evaluator::Classical(_) => {}
        }
        let _ = (parent, child);
        self.height += 1;
    }

    /// The search of the top position is over: its parent is the top again.
    #[inline]
    pub fn pop(&mut self) {
        debug_assert!(self.height > 1, "pop below the root");
        self.height -= 1;
    }

    /// The static evaluation of `pos`, the top position of the path, in
    /// centipawns from the side to move's view.
    #[inline]
    pub fn evaluate<V: Variant>(&mut self, evaluator: &Evaluator, pos: &Position<V>) -> i32 {
        match evaluator {
            Evaluator::Classical(p) => evaluate(pos, p),
        }
    }

    /// Entries on the stack: the ply of the top position plus one (0
    /// before the first [`EvalStack::root`]).
    #[inline]
    pub fn height(&self) -> usize {
        self.height
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use movegen::variants::Chess;

    #[test]
    fn the_classical_evaluator_is_the_evaluation_of_its_weights_along_a_path() {
        let ev = Evaluator::default_for(VariantKind::Chess);
        let params = ev.classical().expect("classical").clone();
        let root = Position::<Chess>::startpos();
        let mut stack = EvalStack::new();
        stack.root(&ev, &root);
        assert_eq!(stack.height(), 1);
        assert_eq!(stack.evaluate(&ev, &root), evaluate(&root, &params));
        let m = root.parse_uci("e2e4").expect("legal");
        let child = root.play_unchecked(m);
        stack.push(&ev, &root, &child, m);
        assert_eq!(stack.height(), 2);
        assert_eq!(stack.evaluate(&ev, &child), evaluate(&child, &params));
        assert_eq!(ev.evaluate(&child), evaluate(&child, &params));
        let null = child.play_null().expect("not in check");
        stack.push_null(&ev, &child, &null);
        assert_eq!(stack.evaluate(&ev, &null), evaluate(&null, &params));
        stack.pop();
        stack.pop();
        assert_eq!(stack.height(), 1);
        assert_eq!(Evaluator::from(params).variant(), VariantKind::Chess);
    }
}
