//! Quiescence leaves. The engine trusts a position's static evaluation only
//! once it is quiet; [`resolve`] runs the engine's quiescence search
//! (the same rules as `search::Worker::qsearch`: in suicide and losers
//! captures are forced and a side with a capture may not stand pat, chains
//! of forced captures are cut after a few plies, in check every evasion is
//! searched, in threecheck quiet checks are tried at the first ply) and
//! returns the position at the end of its principal variation. The score of
//! the position is the static evaluation of that leaf, which is linear in the
//! weights: the tuner stores the leaf's features once and evaluates any
//! weights with a dot product.

use movegen::{Move, Outcome, Position, Variant};
use search::alphabeta::{outcome_score, tactical_order, INF};
use search::eval::evaluate;
use search::EvalParams;

/// Forced-capture plies after which the static evaluation stands in (as in
/// the engine).
const MAX_FORCED_QPLY: u32 = 6;
/// Deepest ply of the resolution.
const MAX_PLY: usize = 64;
/// Nodes after which the rest of the tree is evaluated statically (a guard
/// against pathological positions; quiet positions take one node).
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

/// Result of [`resolve`].
#[derive(Clone, Copy, Debug)]
pub struct Resolved<V: Variant> {
    /// Quiescence score, from the side to move's view at the root.
    pub score: i32,
    /// The leaf of the principal variation.
    pub leaf: Leaf<V>,
    /// Nodes visited.
    pub nodes: u64,
}

struct Q<'a> {
    params: &'a EvalParams,
    nodes: u64,
}

impl Q<'_> {
    fn order<V: Variant>(pos: &Position<V>, moves: &[Move]) -> Vec<Move> {
        let mut scored: Vec<(i32, Move)> = moves
            .iter()
            .map(|&m| (tactical_order(pos, m).unwrap_or(0), m))
            .collect();
        // Stable, so equal scores keep generation order (deterministic leaves).
        scored.sort_by_key(|s| std::cmp::Reverse(s.0));
        scored.into_iter().map(|s| s.1).collect()
    }

    fn qsearch<V: Variant>(
        &mut self,
        pos: &Position<V>,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        qply: u32,
    ) -> (i32, Leaf<V>) {
        self.nodes += 1;
        if let Some(o) = V::end_by_rule(pos) {
            return (outcome_score(o, pos.turn(), ply), Leaf::End(o));
        }
        let stat = |p: &Position<V>| (evaluate(p, self.params), Leaf::Eval(*p));
        if ply >= MAX_PLY || self.nodes >= NODE_BUDGET {
            return stat(pos);
        }
        let in_check = pos.is_check();
        let mut moves;
        let mut best;
        let mut best_leaf;
        if V::MUST_CAPTURE {
            moves = pos.legal_captures();
            if qply >= MAX_FORCED_QPLY && !moves.is_empty() {
                return stat(pos);
            }
            if moves.is_empty() {
                if !pos.has_legal_move() {
                    let o = V::end_without_moves(pos);
                    return (outcome_score(o, pos.turn(), ply), Leaf::End(o));
                }
                if !in_check {
                    return stat(pos);
                }
                moves = pos.legal_moves();
            }
            best = -INF;
            best_leaf = None;
        } else if in_check {
            moves = pos.legal_moves();
            if moves.is_empty() {
                let o = V::end_without_moves(pos);
                return (outcome_score(o, pos.turn(), ply), Leaf::End(o));
            }
            best = -INF;
            best_leaf = None;
        } else {
            let stand_pat = evaluate(pos, self.params);
            if stand_pat >= beta {
                return (stand_pat, Leaf::Eval(*pos));
            }
            alpha = alpha.max(stand_pat);
            best = stand_pat;
            best_leaf = Some(Leaf::Eval(*pos));
            if V::CHECK_COUNTING && qply == 0 {
                moves = pos.legal_moves();
                moves.retain(|m| {
                    pos.is_capture(m) || m.promotion().is_some() || pos.play_unchecked(m).is_check()
                });
            } else {
                moves = pos.legal_captures();
            }
            if moves.is_empty() && !pos.has_legal_move() {
                let o = V::end_without_moves(pos);
                return (outcome_score(o, pos.turn(), ply), Leaf::End(o));
            }
        }
        for m in Self::order(pos, &moves) {
            let child = pos.play_unchecked(m);
            let (s, leaf) = self.qsearch(&child, -beta, -alpha, ply + 1, qply + 1);
            let s = -s;
            if s > best {
                best = s;
                best_leaf = Some(leaf);
                if s > alpha {
                    alpha = s;
                    if s >= beta {
                        break;
                    }
                }
            }
        }
        (best, best_leaf.unwrap_or(Leaf::Eval(*pos)))
    }
}

/// Resolves `pos` to the leaf of its quiescence search with `params`.
pub fn resolve<V: Variant>(pos: &Position<V>, params: &EvalParams) -> Resolved<V> {
    let mut q = Q { params, nodes: 0 };
    let (score, leaf) = q.qsearch(pos, -INF, INF, 0, 0);
    Resolved {
        score,
        leaf,
        nodes: q.nodes,
    }
}

/// `true` if `pos` is quiet in the sense the data generator uses: the side
/// to move is not in check, and `next` (the move chosen or played from it)
/// is neither a capture nor a promotion. In suicide and losers an available
/// capture is forced, so such a position has no capture at all.
pub fn is_quiet<V: Variant>(pos: &Position<V>, next: Move) -> bool {
    !pos.is_check() && !pos.is_capture(next) && next.promotion().is_none()
}
