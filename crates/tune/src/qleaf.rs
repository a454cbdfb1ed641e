//! Quiescence leaves. The engine trusts a position's static evaluation only
//! once it is quiet; a [`Resolver`] runs the engine's own quiescence search
//! ([`search::Worker::quiesce`]: in suicide and losers captures are forced
//! and a side with a capture may not stand pat, chains of forced captures
//! are cut after a few plies, in check every evasion is searched, in
//! threecheck quiet checks are tried at the first ply) and follows its
//! principal variation to the end with a [`search::alphabeta::QObserver`].
//! The score of the position is the static evaluation of that leaf, which is
//! linear in the weights: the tuner stores the leaf's features once and
//! evaluates any weights with a dot product. Because the search is the
//! engine's, the tuner fits exactly the function the engine runs.

use movegen::{Color, Move, Outcome, Position, Variant};
use search::alphabeta::{QLeaf, QObserver, MAX_PLY};
use search::{Clock, EvalParams, Evaluator, Limits, SearchParams, Shared, Worker};
use std::sync::atomic::Ordering::Relaxed;

/// Nodes after which a resolution is given up (a guard against pathological
/// positions; quiet positions take one node).
const NODE_BUDGET: u64 = 200_000;

/// The end of the principal variation of a quiescence search.
#[derive(Clone, Copy, Debug)]
pub enum Leaf<V: Variant> {
    /// A position evaluated statically.
    Eval(Position<V>),
    /// The game ended on the way (checkmate, a forced win, ...): the score
    /// does not depend on the weights.
    End(Outcome),
}

/// Result of [`Resolver::resolve`].
#[derive(Clone, Copy, Debug)]
pub struct Resolved<V: Variant> {
    /// Quiescence score, from the side to move's view at the root.
    pub score: i32,
    /// The leaf of the principal variation.
    pub leaf: Leaf<V>,
    /// Nodes visited.
    pub nodes: u64,
}

/// Each node's best line so far, by ply: the observer that finds the
/// principal variation's leaf.
struct PvLeaf<V: Variant> {
    best: Vec<Option<Leaf<V>>>,
}

impl<V: Variant> QObserver<V> for PvLeaf<V> {
    fn leaf(&mut self, ply: usize, leaf: QLeaf<'_, V>) {
        self.best[ply] = Some(match leaf {
            QLeaf::Eval(pos) => Leaf::Eval(*pos),
            QLeaf::End(o) => Leaf::End(o),
        });
    }

    fn best_child(&mut self, ply: usize) {
        self.best[ply] = self.best[ply + 1];
    }
}

/// Resolves positions to their quiescence leaves with one set of weights.
/// It holds the search's shared state (its table is not used by the
/// quiescence search), so make one per thread and reuse it.
pub struct Resolver {
    /// The classical evaluation with the weights resolved with.
    evaluator: Evaluator,
    shared: Shared,
    clock: Clock,
}

impl Resolver {
    /// A resolver evaluating with the classical weights `params`.
    pub fn new(params: &EvalParams) -> Resolver {
        Resolver {
            evaluator: Evaluator::from(params.clone()),
            shared: Shared::new(1),
            clock: Clock::start(
                &Limits::nodes(NODE_BUDGET),
                Color::White,
                1,
                &SearchParams::default(),
            ),
        }
    }

    /// The leaf of `pos`'s quiescence search; `None` if the search would
    /// take more than a node budget far beyond any real position's.
    pub fn resolve<V: Variant>(&self, pos: &Position<V>) -> Option<Resolved<V>> {
        self.shared.stop.store(false, Relaxed);
        let settings = SearchParams::default_for(V::KIND);
        let mut worker = Worker::<V>::new(
            0,
            &self.shared,
            &self.evaluator,
            &settings,
            &self.clock,
            &[],
        );
        let mut pv = PvLeaf {
            best: vec![None; MAX_PLY + 2],
        };
        let score = worker.quiesce(pos, &mut pv)?;
        Some(Resolved {
            score,
            leaf: pv.best[0]?,
            nodes: worker.nodes,
        })
    }
}

/// `true` if `pos` is quiet in the sense the data generator uses: the side
/// to move is not in check, and `next` (the move chosen or played from it)
/// is neither a capture nor a promotion. In suicide and losers an available
/// capture is forced, so such a position has no capture at all.
pub fn is_quiet<V: Variant>(pos: &Position<V>, next: Move) -> bool {
    !pos.is_check() && !pos.is_capture(next) && next.promotion().is_none()
}
