//! The rules that cut a node off, reduce or extend it, or skip a move, each
//! a function named for it, read by the node function ([`super::node`])
//! in the order it applies them. Every margin, depth and coefficient comes
//! from the worker's [`SearchParams`]; a rule behind a switch does nothing
//! while the switch is off.
//!
//! Which rules a game may use is decided here too: the null move only
//! where zugzwang is rare (in suicide and losers only behind a switch and
//! where no capture is forced), no reverse futility, razoring or
//! late-move reduction where suicide or losers force a capture (those nodes
//! and the quiet sacrifices that force one are what decides these games),
//! the static exchange evaluation only where exchanges mean what they mean
//! in chess.

use super::history::moved_piece_to;
use super::movepick::{exchanges_are_chess_like, tactical_order, BAD_CAPTURE_BOUND, TT_MOVE_ORDER};
use super::node::{Candidate, Node};
use super::qsearch::NoObserver;
use super::thread::Worker;
use crate::params::SearchParams;
use crate::score::{score_from_tt, MATE_BOUND};
use crate::see::see;
use crate::tt::Bound;
use movegen::{Move, MoveList, Role, Variant};

/// Depths and move numbers of the table of late-move reductions.
const LMR_TABLE_SIDE: usize = 64;

/// [`SearchParams::reduction`] for depths and move numbers below
/// [`LMR_TABLE_SIDE`], built once for the settings a thread searches with
/// instead of two logarithms per reduced move.
#[derive(Clone, Debug, Default)]
pub(crate) struct Reductions {
    /// The `lmr_base` and `lmr_divisor` (their bits) it was built for.
    built_for: Option<(u64, u64)>,
    table: Vec<i8>,
}

impl Reductions {
    /// Builds the table for `settings` unless it already is theirs.
    pub fn build_for(&mut self, settings: &SearchParams) {
        let key = (settings.lmr_base.to_bits(), settings.lmr_divisor.to_bits());
        if self.built_for == Some(key) {
            return;
        }
        self.table = (0..LMR_TABLE_SIDE * LMR_TABLE_SIDE)
            .map(|k| {
                let (d, n) = (k / LMR_TABLE_SIDE, k % LMR_TABLE_SIDE);
                let r = settings.reduction(d as i32, n);
                r.clamp(i8::MIN.into(), i8::MAX.into()) as i8
            })
            .collect();
        self.built_for = Some(key);
    }

    /// [`SearchParams::reduction`] of `settings` (those the table was
    /// built for), from the table where it reaches.
    #[inline]
    pub fn get(&self, settings: &SearchParams, depth: i32, n: usize) -> i32 {
        match usize::try_from(depth) {
            Ok(d) if (1..LMR_TABLE_SIDE).contains(&d) && (1..LMR_TABLE_SIDE).contains(&n) => {
                i32::from(self.table[d * LMR_TABLE_SIDE + n])
            }
            _ => settings.reduction(depth, n),
        }
    }
}

/// What the move loop of a node decides once about pruning its quiet
/// moves near the leaves.
pub(super) struct QuietPruning {
    /// Move-count, futility and history pruning may skip quiet moves here:
    /// never in a PV node, in check, at the root, or where suicide or
    /// losers force a capture.
    prune_quiets: bool,
    /// Futility at the node's depth (without `futility_lmr_depth`): alpha
    /// is fixed in a non-PV node (a score above it cuts off), so it is
    /// decided once.
    futile: bool,
    /// Quiet moves after this many are skipped (move-count pruning).
    move_count_limit: i32,
}

impl<V: Variant> Worker<'_, V> {
    /// [`SearchParams::reduction`] of the worker's settings.
    #[inline]
    pub(super) fn reduction(&self, depth: i32, n: usize) -> i32 {
        self.td.reductions.get(self.settings, depth, n)
    }

    /// Check extension: the plies a node in check at `ply` adds to `depth`
    /// (none past `check_extension_max_ply`; at least a ply left).
    #[inline]
    pub(super) fn check_extension(&self, in_check: bool, depth: i32, ply: usize) -> i32 {
        let sp = self.settings;
        if in_check && (ply as i32) < sp.check_extension_max_ply {
            (depth + sp.check_extension).max(1) - depth
        } else {
            0
        }
    }

    /// Suicide and losers: a forced reply costs no depth (the single-reply
    /// extension, given the node's `moves` from
    /// [`Self::forced_reply_moves`]), within a budget of plies set by the
    /// iteration's depth, so a chain of forced replies cannot explode.
    #[inline]
    pub(super) fn reply_extension(&self, moves: Option<&MoveList>, ply: usize) -> i32 {
        let sp = self.settings;
        let Some(moves) = moves else { return 0 };
        let single = sp.single_reply_extension != 0 && moves.len() == 1;
        i32::from(single && (ply as i32) < sp.reply_extension_ply_factor * self.root_depth)
    }

    /// Reverse futility: far above beta with little depth left, the node
    /// scores its evaluation.
    #[inline]
    pub(super) fn reverse_futility(&self, n: &Node<'_, V>) -> Option<i32> {
        let sp = self.settings;
        let margin = sp.rfp_margin * (n.depth - i32::from(sp.rfp_improving != 0 && n.improving));
        (n.depth <= sp.rfp_max_depth
            && !(n.capture_forced && sp.forced_capture_guard != 0)
            && n.eval - margin >= n.beta
            && n.beta.abs() < MATE_BOUND)
            .then_some(n.eval)
    }

    /// Razoring: so far below alpha that only a tactic could save the node,
    /// and quiescence finds none.
    pub(super) fn razor(&mut self, n: &Node<'_, V>) -> Option<i32> {
        let sp = self.settings;
        if n.depth <= sp.razor_max_depth
            && !(n.capture_forced && sp.forced_capture_guard != 0)
            && n.eval + sp.razor_base + sp.razor_margin * n.depth * n.depth < n.alpha
            && n.alpha.abs() < MATE_BOUND
        {
            let s = self.qsearch(n.pos, n.alpha - 1, n.alpha, n.ply, 0, &mut NoObserver);
            if self.stopped {
                return Some(0);
            }
            if s < n.alpha {
                return Some(s);
            }
        }
        None
    }

    /// Null move, where zugzwang is rare (in suicide and losers, where it
    /// is common, only with `nmp_forced_capture_games` and where no capture
    /// is forced), by a side with a piece besides pawns and king: passing
    /// and still beating beta in a reduced search cuts the node off.
    pub(super) fn null_move(&mut self, n: &Node<'_, V>) -> Option<i32> {
        let sp = self.settings;
        let (pos, depth, beta, ply) = (n.pos, n.depth, n.beta, n.ply);
        if !((!V::MUST_CAPTURE || (sp.nmp_forced_capture_games != 0 && !n.capture_forced))
            && depth >= sp.nmp_min_depth
            && n.eval >= beta
            && beta.abs() < MATE_BOUND)
        {
            return None;
        }
        let b = pos.board();
        let big = b.color(pos.turn()) & !b.role(Role::Pawn) & !b.role(Role::King);
        if !big.any() {
            return None;
        }
        let null = pos.play_null()?;
        self.td.stack[ply].played_piece_to = None;
        let mut r = sp.nmp_base_reduction + depth / sp.nmp_depth_divisor;
        if sp.nmp_eval_divisor > 0 {
            r += ((n.eval - beta) / sp.nmp_eval_divisor).min(sp.nmp_eval_max);
        }
        self.keys.push(null.key());
        self.td.eval.push(self.evaluator, pos, &null);
        let s = -self.search(
            &null,
            -beta,
            -beta + 1,
            depth - 1 - r,
            ply + 1,
            false,
            !n.cut_node,
        );
        self.td.eval.pop();
        self.keys.pop();
        if self.stopped {
            return Some(0);
        }
        (s >= beta).then_some(if s > MATE_BOUND { beta } else { s })
    }

    /// ProbCut: a good capture that beats beta by a margin in a shallower
    /// search very likely beats beta here. Not when a deep enough entry
    /// says the node scores less.
    pub(super) fn probcut(&mut self, n: &Node<'_, V>, moves: &MoveList) -> Option<i32> {
        let sp = self.settings;
        let probcut_beta = n.beta + sp.probcut_margin;
        let applies = sp.probcut != 0
            && exchanges_are_chess_like::<V>()
            && n.depth >= sp.probcut_min_depth
            && n.beta > -MATE_BOUND
            && probcut_beta < MATE_BOUND
            && !n.tt.is_some_and(|e| {
                e.depth >= n.depth - 3
                    && e.bound != Bound::Lower
                    && score_from_tt(e.score, n.ply) < probcut_beta
            });
        if !applies {
            return None;
        }
        let cut = self.probcut_search(n, moves, probcut_beta);
        if self.stopped {
            return Some(0);
        }
        cut
    }

    /// ProbCut's search: the captures and promotions of `moves` whose
    /// exchange wins at least `probcut_beta` less the static evaluation
    /// (the table's move first, then by victim and attacker), each searched
    /// in quiescence with a null window at `probcut_beta` and, if it holds
    /// there, at `depth - 4`. The first that holds at that depth proves the
    /// node's fail high: its score is stored as a lower bound of depth
    /// `depth - 3` and returned. `None` when none does (or the search
    /// stopped: the caller checks).
    fn probcut_search(
        &mut self,
        n: &Node<'_, V>,
        moves: &MoveList,
        probcut_beta: i32,
    ) -> Option<i32> {
        let (pos, ply, depth) = (n.pos, n.ply, n.depth);
        let threshold = probcut_beta - n.static_eval;
        let mut tries: Vec<(i32, Move)> = moves
            .iter()
            .filter_map(|&m| {
                let order = tactical_order(pos, m)?;
                let order = if Some(m) == n.tt_move {
                    TT_MOVE_ORDER
                } else {
                    order
                };
                (see(pos, m) >= threshold).then_some((order, m))
            })
            .collect();
        tries.sort_unstable_by_key(|t| std::cmp::Reverse(t.0));
        for (_, m) in tries {
            let child = pos.play_unchecked(m);
            if self.settings.continuation_history != 0 {
                self.td.stack[ply].played_piece_to = Some(moved_piece_to(pos, n.us, m));
            }
            self.keys.push(child.key());
            self.td.eval.push(self.evaluator, pos, &child);
            let window = (-probcut_beta, -probcut_beta + 1);
            let mut s = -self.qsearch(&child, window.0, window.1, ply + 1, 0, &mut NoObserver);
            if s >= probcut_beta && !self.stopped {
                // A move expected to beat beta leaves the opponent a node
                // expected to fail low: not a cut node.
                s = -self.search(&child, window.0, window.1, depth - 4, ply + 1, false, false);
            }
            self.td.eval.pop();
            self.keys.pop();
            if self.stopped {
                return None;
            }
            if s >= probcut_beta {
                let key = pos.key();
                self.store(key, s, n.static_eval, depth - 3, Bound::Lower, Some(m), ply);
                return Some(s);
            }
        }
        None
    }

    /// Internal iterative reduction: without a stored move the ordering is
    /// a guess, and a shallower search here is cheaper than its errors.
    #[inline]
    pub(super) fn internal_iterative_reduction(&self, n: &Node<'_, V>) -> bool {
        let sp = self.settings;
        sp.iir_min_depth > 0 && n.depth >= sp.iir_min_depth && n.tt_move.is_none()
    }

    /// Singular extension: when the table's move is the only one that
    /// reaches near its stored score, it is searched a ply deeper
    /// (`Ok(Some(move))`); when the others reach a bound at or above beta
    /// too, several moves cut off and a non-PV node fails high without
    /// searching them again (`Err(score)`, as when the search stopped).
    pub(super) fn singular_extension(
        &mut self,
        n: &Node<'_, V>,
        moves: &MoveList,
    ) -> Result<Option<Move>, i32> {
        let sp = self.settings;
        let ply = n.ply;
        if !(sp.singular_extension != 0
            && !V::MUST_CAPTURE
            && ply > 0
            && n.excluded.is_none()
            && n.depth >= sp.se_min_depth)
        {
            return Ok(None);
        }
        let (Some(e), Some(tm)) = (n.tt, n.tt_move) else {
            return Ok(None);
        };
        let tt_score = score_from_tt(e.score, ply);
        if !(matches!(e.bound, Bound::Lower | Bound::Exact)
            && e.depth >= n.depth - sp.se_tt_depth_slack
            && tt_score.abs() < MATE_BOUND
            && moves.contains(&tm))
        {
            return Ok(None);
        }
        let singular_beta = tt_score - sp.se_margin * n.depth;
        // At least one ply: quiescence knows no left-out move.
        let singular_depth = ((n.depth - 1) / 2).max(1);
        self.td.stack[ply].excluded = Some(tm);
        let s = self.search(
            n.pos,
            singular_beta - 1,
            singular_beta,
            singular_depth,
            ply,
            false,
            n.cut_node,
        );
        self.td.stack[ply].excluded = None;
        if self.stopped {
            return Err(0);
        }
        if s < singular_beta {
            if (ply as i32) < sp.reply_extension_ply_factor * self.root_depth {
                return Ok(Some(tm));
            }
        } else if !n.pv_node && singular_beta >= n.beta {
            return Err(singular_beta);
        }
        Ok(None)
    }

    /// What the move loop of the node `n` decides once about pruning its
    /// quiet moves.
    pub(super) fn quiet_pruning(&self, n: &Node<'_, V>) -> QuietPruning {
        let sp = self.settings;
        let depth = n.depth;
        let futility_by_move = sp.futility_lmr_depth != 0;
        let move_count_limit = if depth <= sp.lmp_max_depth {
            let count = sp.lmp_base + depth * depth;
            if sp.lmp_improving != 0 && !n.improving {
                count / 2
            } else {
                count
            }
        } else {
            i32::MAX
        };
        QuietPruning {
            prune_quiets: !n.pv_node && !n.in_check && n.ply > 0 && !n.capture_forced,
            futile: !futility_by_move
                && depth <= sp.futility_max_depth
                && n.static_eval + sp.futility_base + sp.futility_margin * depth <= n.alpha,
            move_count_limit,
        }
    }

    /// Move-count, futility and history pruning of the quiet move `c` near
    /// the leaves (not the first move, nor one that checks, nor before a
    /// move has scored above a loss, nor in suicide and losers one that
    /// leaves the opponent a capture). Futility and history pruning may
    /// look at the depth the move would get after its reduction, which is
    /// below the node's own.
    #[inline]
    pub(super) fn prunes_quiet_move(
        &self,
        n: &Node<'_, V>,
        plan: &QuietPruning,
        c: &Candidate<'_, V>,
        best: i32,
        cont: [Option<usize>; 2],
    ) -> bool {
        plan.prune_quiets
            && c.i > 0
            && c.quiet
            && !c.gives_check
            && best > -MATE_BOUND
            && !(V::MUST_CAPTURE && c.child.has_capture())
            && (plan.futile
                || c.i as i32 >= plan.move_count_limit
                || self.prune_by_reduced_depth(n, c, cont))
    }

    /// Futility pruning by move (`futility_lmr_depth`) and history pruning
    /// (`history_prune_max_depth`) of the quiet move `c`: both judge the
    /// move at the depth its late-move reduction would leave it.
    #[inline]
    fn prune_by_reduced_depth(
        &self,
        n: &Node<'_, V>,
        c: &Candidate<'_, V>,
        cont: [Option<usize>; 2],
    ) -> bool {
        let sp = self.settings;
        if sp.futility_lmr_depth == 0 && sp.history_prune_max_depth == 0 {
            return false;
        }
        let depth = n.depth;
        let lmr_depth = (depth - 1 - self.reduction(depth, c.i)).max(0);
        if sp.futility_lmr_depth != 0
            && lmr_depth <= sp.futility_max_depth
            && n.static_eval + sp.futility_base + sp.futility_margin * lmr_depth <= n.alpha
        {
            return true;
        }
        lmr_depth < sp.history_prune_max_depth
            && self.quiet_order(n.pos, n.us, c.m, cont) < -sp.history_prune_margin * depth
    }

    /// SEE pruning: a move (not the first, nor one that checks) that loses
    /// too much in the exchange on its square, near the leaves.
    #[inline]
    pub(super) fn see_prunes(&self, n: &Node<'_, V>, c: &Candidate<'_, V>, best: i32) -> bool {
        let sp = self.settings;
        let depth = n.depth;
        if !(exchanges_are_chess_like::<V>()
            && depth <= sp.see_prune_max_depth
            && n.ply > 0
            && c.i > 0
            && !c.gives_check
            && best > -MATE_BOUND)
        {
            return false;
        }
        let margin = if c.quiet {
            sp.see_prune_quiet_margin * depth * depth
        } else {
            sp.see_prune_capture_margin * depth
        };
        see(n.pos, c.m) < -margin
    }

    /// Late-move reduction of the move `c` (not the first) searched at
    /// `new_depth`: for quiet moves (and with `lmr_bad_captures` the
    /// captures the ordering put after them, which lose their exchange)
    /// late in the order, not in check nor checking nor, in suicide and
    /// losers, leaving the opponent a capture; one ply more where the
    /// evaluation is not improving (`lmr_improving`), more at an expected
    /// cut node; always leaving at least a ply.
    #[inline]
    pub(super) fn late_move_reduction(
        &self,
        n: &Node<'_, V>,
        c: &Candidate<'_, V>,
        new_depth: i32,
    ) -> i32 {
        let sp = self.settings;
        let (depth, quiet, m) = (n.depth, c.quiet, c.m);
        let bad_capture =
            sp.lmr_bad_captures != 0 && c.order < BAD_CAPTURE_BOUND && n.pos.is_capture(m);
        if !(depth >= sp.lmr_min_depth
            && c.i >= sp.lmr_min_move as usize
            && (quiet || bad_capture)
            && !n.in_check
            && !c.gives_check
            && !(V::MUST_CAPTURE && sp.forced_capture_guard != 0 && c.child.has_capture()))
        {
            return 0;
        }
        let mut r = self.reduction(depth, c.i) - n.pv_node as i32;
        if sp.lmr_improving != 0 && !n.improving {
            r += 1;
        }
        if n.cut_node {
            r += sp.lmr_cut_node;
        }
        r.clamp(0, new_depth - 1)
    }
}
