//! The quiescence search: captures (and what each game forces) until
//! quiet. It respects each game: in suicide and losers captures are forced,
//! so a side with a capture may not "stand pat", and a chain of forced
//! captures is cut after `max_forced_qply` plies; in check every evasion is
//! searched; in threecheck quiet checks are tried at the first quiescence
//! ply, and at every ply by a side with one check left, where any check
//! wins; in atomic captures that explode a king end the game there. Where
//! exchanges mean what they mean in chess, captures that lose their
//! exchange and captures that cannot lift the score to alpha are skipped.
//!
//! It is also the tuner's: Texel tuning fits the static evaluation at the
//! end of its principal variation, so it must be exactly the function the
//! engine runs. It reports its leaves to a [`QObserver`] (the engine's,
//! [`NoObserver`], compiles away) and [`Worker::quiesce`] runs it on its own
//! from a root.

use super::movepick::{captured_role, exchanges_are_chess_like, TT_MOVE_ORDER};
use super::stack::MAX_PLY;
use super::thread::Worker;
use crate::score::{outcome_score, INF};
use crate::see::{see, see_value};
use crate::tt::{Bound, TtEntry};
use movegen::{Move, MoveList, Outcome, Position, Variant};

/// Where a line of the quiescence search ends.
#[derive(Clone, Copy, Debug)]
pub enum QLeaf<'a, V: Variant> {
    /// The position is scored by its static evaluation (a stand pat, or a
    /// line cut short).
    Eval(&'a Position<V>),
    /// The game is over there: the score is the outcome's.
    End(Outcome),
}

/// What a quiescence search reports besides its score: enough to follow each
/// node's best line to its end, the way a triangular PV table does. At a node
/// at `ply`, [`leaf`](QObserver::leaf) says the node itself is (so far) its
/// best line's end, and [`best_child`](QObserver::best_child) that the line
/// through the child just searched, at `ply + 1`, is now its best; the root's
/// final answer is its principal variation's leaf.
pub trait QObserver<V: Variant> {
    /// The node at `ply` scores `leaf` (for now: a child may still beat a
    /// stand pat).
    fn leaf(&mut self, ply: usize, leaf: QLeaf<'_, V>);
    /// The child at `ply + 1` became the best line of the node at `ply`.
    fn best_child(&mut self, ply: usize);
    /// The observer follows the lines to their leaves, so the search may not
    /// answer a node from the transposition table (a stored score has no
    /// line behind it).
    const FOLLOWS_LINES: bool = true;
}

/// The engine's observer: sees nothing, and costs nothing once inlined.
pub struct NoObserver;

impl<V: Variant> QObserver<V> for NoObserver {
    #[inline(always)]
    fn leaf(&mut self, _ply: usize, _leaf: QLeaf<'_, V>) {}
    #[inline(always)]
    fn best_child(&mut self, _ply: usize) {}
    const FOLLOWS_LINES: bool = false;
}

impl<V: Variant> Worker<'_, V> {
    /// Quiescence search of `pos` on its own, as the root of a full window
    /// (the tuner resolves positions to their leaves with it); `obs` sees
    /// the leaves. `None` if the clock's limit stopped the search.
    pub fn quiesce<O: QObserver<V>>(&mut self, pos: &Position<V>, obs: &mut O) -> Option<i32> {
        self.td.eval.root(self.evaluator, pos);
        let score = self.qsearch(pos, -INF, INF, 0, 0, obs);
        (!self.stopped).then_some(score)
    }

    /// The static evaluation of `pos`, reported to `obs` as the leaf at `ply`.
    #[inline]
    fn q_eval<O: QObserver<V>>(&mut self, pos: &Position<V>, ply: usize, obs: &mut O) -> i32 {
        self.q_static(pos, ply, obs).1
    }

    /// The static evaluation of the quiescence leaf `pos` at `ply`, reported
    /// to `obs`: as the table stores it and as the search uses it, with the
    /// correction history's entry (not while the tuner follows lines: it
    /// fits the evaluation itself).
    #[inline]
    fn q_static<O: QObserver<V>>(
        &mut self,
        pos: &Position<V>,
        ply: usize,
        obs: &mut O,
    ) -> (i32, i32) {
        obs.leaf(ply, QLeaf::Eval(pos));
        let raw = self.static_eval(pos, ply);
        if O::FOLLOWS_LINES {
            (raw, raw)
        } else {
            (raw, self.td.hist.corrected_eval(pos, raw))
        }
    }

    /// The score of the game ending with `o`, reported to `obs` as the leaf
    /// at `ply`.
    #[inline]
    fn q_end<O: QObserver<V>>(o: Outcome, pos: &Position<V>, ply: usize, obs: &mut O) -> i32 {
        obs.leaf(ply, QLeaf::End(o));
        outcome_score(o, pos.turn(), ply)
    }

    /// Quiescence search: captures (and what each game forces) until quiet.
    pub(super) fn qsearch<O: QObserver<V>>(
        &mut self,
        pos: &Position<V>,
        alpha: i32,
        beta: i32,
        ply: usize,
        qply: u32,
        obs: &mut O,
    ) -> i32 {
        self.count_node();
        if self.should_stop() {
            return 0;
        }
        if let Some(o) = V::end_by_rule(pos) {
            return Self::q_end(o, pos, ply, obs);
        }
        self.seldepth = self.seldepth.max(ply);
        if ply >= MAX_PLY {
            return self.q_eval(pos, ply, obs);
        }
        // Transposition table (`qsearch_tt`): the first ply of quiescence
        // (threecheck's quiet checks) stores depth 0, later plies -1, so an
        // entry answers only a node searching no more than it did, and the
        // main search (depth 1 and more) never takes a cutoff from one.
        let use_tt = self.settings.qsearch_tt != 0 && !O::FOLLOWS_LINES;
        let qdepth = if qply == 0 { 0 } else { -1 };
        let key = pos.key();
        let mut tt_entry = None;
        if use_tt {
            if let Some(e) = self.shared.tt.probe(key) {
                if e.depth >= qdepth {
                    if let Some(s) = e.cutoff(ply, alpha, beta) {
                        return s;
                    }
                }
                tt_entry = Some(e);
            }
        }
        let node = QNode {
            pos,
            beta,
            ply,
            qply,
            use_tt,
            qdepth,
            in_check: pos.is_check(),
            tt_entry,
        };
        let mut start = match self.q_start(&node, alpha, obs) {
            Ok(start) => start,
            Err(score) => return score,
        };
        if let Some(score) = self.q_last_check(&node, &start, obs) {
            return score;
        }
        let Some(best_move) = self.q_moves(&node, &mut start, obs) else {
            return 0;
        };
        if use_tt {
            let bound = Bound::of_result(start.best, beta, start.alpha > alpha);
            let eval = match start.static_eval {
                Some(e) => e,
                // In check the main search reads no evaluation.
                None if node.in_check => 0,
                None => self.static_eval(pos, ply),
            };
            self.store(key, start.best, eval, qdepth, bound, best_move, ply);
        }
        start.best
    }

    /// Where the quiescence node `n` starts, with the window's lower edge
    /// at `alpha`: the moves it searches and the score it has without them
    /// (the stand pat where the side may stand pat). `Err` with the node's
    /// score when it needs no search: a stand pat at or above beta, a game
    /// over, a quiet node, or a chain of forced captures cut.
    fn q_start<O: QObserver<V>>(
        &mut self,
        n: &QNode<'_, V>,
        mut alpha: i32,
        obs: &mut O,
    ) -> Result<QStart, i32> {
        let (pos, ply, qply) = (n.pos, n.ply, n.qply);
        let mut moves;
        let best;
        // The static evaluation, where this node computed one (the table's
        // entries carry it for the main search).
        let mut static_eval = None;
        if V::MUST_CAPTURE {
            moves = pos.legal_captures();
            // Capture chains branch at every ply when captures are forced; past a
            // few plies the static evaluation stands in for the rest of the chain.
            if qply as i32 >= self.settings.max_forced_qply && !moves.is_empty() {
                return Err(self.q_eval(pos, ply, obs));
            }
            if moves.is_empty() {
                // Quiet: the side may stand pat, unless it has no move at all
                // or (losers) must answer a check.
                if !pos.has_legal_move() {
                    return Err(Self::q_end(V::end_without_moves(pos), pos, ply, obs));
                }
                if !n.in_check {
                    return Err(self.q_eval(pos, ply, obs));
                }
                moves = pos.legal_moves();
            }
            best = -INF;
        } else if n.in_check {
            moves = pos.legal_moves();
            if moves.is_empty() {
                return Err(Self::q_end(V::end_without_moves(pos), pos, ply, obs));
            }
            best = -INF;
        } else {
            let (raw, corrected) = self.q_static(pos, ply, obs);
            static_eval = Some(raw);
            let stand_pat = match n.tt_entry {
                Some(e) if self.settings.tt_eval_refine != 0 => e.refined_eval(ply, corrected),
                _ => corrected,
            };
            if stand_pat >= n.beta {
                if n.use_tt {
                    self.store(pos.key(), stand_pat, raw, n.qdepth, Bound::Lower, None, ply);
                }
                return Err(stand_pat);
            }
            alpha = alpha.max(stand_pat);
            best = stand_pat;
            if V::CHECK_COUNTING
                && (qply == 0
                    || pos.checks_remaining(pos.turn()) as i32 <= self.settings.qsearch_checks_left)
            {
                // A check is worth a lot here (with one left it wins): try
                // quiet checks too.
                moves = pos.legal_moves();
                moves.retain(|m| {
                    pos.is_capture(m) || m.promotion().is_some() || pos.play_unchecked(m).is_check()
                });
            } else {
                moves = pos.legal_captures();
            }
            if moves.is_empty() && !pos.has_legal_move() {
                return Err(Self::q_end(V::end_without_moves(pos), pos, ply, obs));
            }
        }
        Ok(QStart {
            moves,
            alpha,
            best,
            static_eval,
        })
    }

    /// Threecheck with `qsearch_checks_left`, a side with one check left:
    /// any check is the last one and wins at once. Nothing scores more,
    /// and searching the captures first could cost millions of nodes in a
    /// position full of them, so the first checking move of `start` is the
    /// node's score (0 if the search stopped); `None` without one.
    fn q_last_check<O: QObserver<V>>(
        &mut self,
        n: &QNode<'_, V>,
        start: &QStart,
        obs: &mut O,
    ) -> Option<i32> {
        let pos = n.pos;
        if !(V::CHECK_COUNTING
            && self.settings.qsearch_checks_left > 0
            && pos.checks_remaining(pos.turn()) == 1)
        {
            return None;
        }
        let child = start
            .moves
            .iter()
            .map(|&m| pos.play_unchecked(m))
            .find(|c| c.is_check())?;
        self.td.eval.push(self.evaluator, pos, &child);
        let score = -self.qsearch(&child, -n.beta, -start.alpha, n.ply + 1, n.qply + 1, obs);
        self.td.eval.pop();
        if self.stopped {
            return Some(0);
        }
        obs.best_child(n.ply);
        Some(score)
    }

    /// The move loop of the quiescence node `n`: searches the moves of
    /// `start` in order, skipping those that lose their exchange or cannot
    /// lift the score to alpha, raising its best score and alpha, until one
    /// reaches beta. The best move (none if no move beat the start's
    /// score); `None` if the search stopped.
    fn q_moves<O: QObserver<V>>(
        &mut self,
        n: &QNode<'_, V>,
        start: &mut QStart,
        obs: &mut O,
    ) -> Option<Option<Move>> {
        let (pos, ply, qply, beta) = (n.pos, n.ply, n.qply, n.beta);
        let sp = self.settings;
        let tt_move = n.tt_entry.and_then(|e| e.mv);
        // No continuation history: the moves before a quiescence node are not
        // all recorded (quiescence keeps no path of its own).
        let ordered = self.order_moves(pos, &start.moves, tt_move, ply, [None, None]);
        let see_pruning =
            exchanges_are_chess_like::<V>() && sp.see_qsearch_pruning != 0 && !n.in_check;
        // With SEE ordering, the ordering already knows which captures lose
        // their exchange (all but the table's move, which it did not test):
        // their scores are negative and every other capture's positive.
        let ordered_by_see = exchanges_are_chess_like::<V>() && sp.see_ordering != 0;
        let next_qply = qply + 1;
        // Futility (delta) pruning (`qsearch_futility_margin`): where
        // exchanges mean what they mean in chess and the side stands pat, a
        // capture that cannot lift the score to alpha even with the whole
        // victim and the margin is skipped (in threecheck only if it does
        // not check), its hopeful score kept as a bound.
        let futility_base = match start.static_eval {
            Some(_) if exchanges_are_chess_like::<V>() && sp.qsearch_futility_margin > 0 => {
                Some(start.best + sp.qsearch_futility_margin)
            }
            _ => None,
        };
        let mut best_move = None;
        for &(order, m) in &ordered {
            let futile = match futility_base {
                Some(base) if pos.is_capture(m) && m.promotion().is_none() => {
                    let hope = base + see_value(captured_role(pos, m));
                    (hope <= start.alpha).then_some(hope)
                }
                _ => None,
            };
            if let (Some(hope), false) = (futile, V::CHECK_COUNTING) {
                start.best = start.best.max(hope);
                continue;
            }
            // A capture that loses its exchange is skipped (in threecheck
            // only if it does not check).
            let losing = see_pruning
                && pos.is_capture(m)
                && if ordered_by_see && order != TT_MOVE_ORDER {
                    order < 0
                } else {
                    see(pos, m) < 0
                };
            if losing && !V::CHECK_COUNTING {
                continue;
            }
            let child = pos.play_unchecked(m);
            if (losing || futile.is_some()) && !child.is_check() {
                if let Some(hope) = futile {
                    start.best = start.best.max(hope);
                }
                continue;
            }
            self.td.eval.push(self.evaluator, pos, &child);
            let score = -self.qsearch(&child, -beta, -start.alpha, ply + 1, next_qply, obs);
            self.td.eval.pop();
            if self.stopped {
                return None;
            }
            if score > start.best {
                start.best = score;
                best_move = Some(m);
                obs.best_child(ply);
                if score > start.alpha {
                    start.alpha = score;
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        Some(best_move)
    }
}

/// What a quiescence node knows once it has read the table.
struct QNode<'p, V: Variant> {
    pos: &'p Position<V>,
    beta: i32,
    ply: usize,
    /// Plies of quiescence above this node.
    qply: u32,
    /// Whether the node reads and writes the table (`qsearch_tt`, not
    /// while the tuner follows lines).
    use_tt: bool,
    /// The depth the node stores with.
    qdepth: i32,
    in_check: bool,
    tt_entry: Option<TtEntry>,
}

/// Where a quiescence node's move loop starts.
struct QStart {
    /// The moves it searches.
    moves: MoveList,
    /// The window's lower edge (raised by the stand pat).
    alpha: i32,
    /// The best score so far (the stand pat, or `-INF` where the side may
    /// not stand pat).
    best: i32,
    /// The static evaluation, where this node computed one.
    static_eval: Option<i32>,
}
