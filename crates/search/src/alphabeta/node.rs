//! The node function: principal variation search of one node of the main
//! search, written as the list of decisions it makes. Each rule that cuts
//! a node off, reduces or extends it, or skips a move is a named function
//! of [`super::prune`]; the move loop's parts (searching one move with its
//! late-move reduction and re-searches, learning from a cutoff, storing
//! the result) are named functions here.
//!
//! What the node knows once it has read the table and evaluated itself is
//! one [`Node`] value, which the rules read instead of a dozen arguments.

use super::history::{moved_piece_to, Cutoff};
use super::qsearch::NoObserver;
use super::stack::MAX_PLY;
use super::thread::Worker;
use crate::score::{outcome_score, INF, MATE, MATE_BOUND};
use crate::tt::{Bound, TtEntry};
use movegen::{Color, Move, MoveList, Position, Variant};

/// What a node of the main search knows once it has read the table and
/// evaluated itself: what the pruning rules and the move loop decide by.
pub(super) struct Node<'p, V: Variant> {
    pub pos: &'p Position<V>,
    pub us: Color,
    pub ply: usize,
    /// Remaining depth (internal iterative reduction may lower it).
    pub depth: i32,
    pub alpha: i32,
    pub beta: i32,
    pub pv_node: bool,
    /// A zero-window node expected to fail high (the later moves of a
    /// node, and every other node below one on a line of first moves),
    /// where `lmr_cut_node` reduces more.
    pub cut_node: bool,
    pub in_check: bool,
    pub tt: Option<TtEntry>,
    pub tt_move: Option<Move>,
    /// The move this search leaves out (a singular-extension test).
    pub excluded: Option<Move>,
    /// The static evaluation as the table stores it (`-INF` in check).
    pub raw_eval: i32,
    /// The static evaluation as the search prunes with it (with the
    /// correction history; `-INF` in check).
    pub static_eval: i32,
    /// The score the node-level pruning judges by: with `tt_eval_refine`
    /// the table's score where its bound says the node is worth more
    /// (lower bound) or less (upper bound) than the static evaluation.
    pub eval: i32,
    /// Better than two plies ago (true when that node was in check or
    /// there is none).
    pub improving: bool,
    /// Suicide and losers: every legal move is a capture when one is
    /// forced, and such a node is all tactics, however good it looks.
    pub capture_forced: bool,
}

/// A move of the move loop, made.
pub(super) struct Candidate<'c, V: Variant> {
    /// Its number in the loop's order.
    pub i: usize,
    pub m: Move,
    /// Its ordering score.
    pub order: i32,
    pub child: &'c Position<V>,
    /// Neither a capture nor a promotion.
    pub quiet: bool,
    pub gives_check: bool,
}

impl<V: Variant> Worker<'_, V> {
    /// Principal variation search. `cut_node`: a zero-window node expected
    /// to fail high (the later moves of a node, and every other node below
    /// one on a line of first moves), where `lmr_cut_node` reduces more.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn search(
        &mut self,
        pos: &Position<V>,
        mut alpha: i32,
        mut beta: i32,
        mut depth: i32,
        ply: usize,
        pv_node: bool,
        cut_node: bool,
    ) -> i32 {
        self.td.stack[ply].pv.clear();
        if ply > 0 {
            if let Some(s) = self.ended_or_drawn(pos, ply) {
                return s;
            }
            // Mate distance: no line from here beats a mate already found.
            alpha = alpha.max(-(MATE - ply as i32));
            beta = beta.min(MATE - ply as i32 - 1);
            if alpha >= beta {
                return alpha;
            }
        }
        let in_check = pos.is_check();
        depth += self.check_extension(in_check, depth, ply);
        if depth <= 0 {
            return self.qsearch(pos, alpha, beta, ply, 0, &mut NoObserver);
        }
        self.count_node();
        if self.should_stop() {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        if ply >= MAX_PLY {
            return self.static_eval(pos, ply);
        }

        // Decided before the table is read, so that the depth stored and
        // the depth probed are the same.
        let early_moves = self.forced_reply_moves(pos);
        depth += self.reply_extension(early_moves.as_ref(), ply);

        let tt = self.shared.tt.probe(pos.key());
        let excluded = self.td.stack[ply].excluded;
        if let Some(s) =
            tt.and_then(|e| self.tt_answer(&e, excluded, pv_node, depth, ply, alpha, beta))
        {
            return s;
        }
        let moves = early_moves.unwrap_or_else(|| pos.legal_moves());
        if moves.is_empty() {
            return outcome_score(V::end_without_moves(pos), pos.turn(), ply);
        }
        let mut node = Node {
            pos,
            us: pos.turn(),
            ply,
            depth,
            alpha,
            beta,
            pv_node,
            cut_node,
            in_check,
            tt,
            tt_move: tt.and_then(|e| e.mv),
            excluded,
            raw_eval: -INF,
            static_eval: -INF,
            eval: -INF,
            improving: false,
            capture_forced: V::MUST_CAPTURE && pos.is_capture(moves[0]),
        };
        self.evaluate_node(&mut node);

        if !pv_node && !in_check && ply > 0 && excluded.is_none() {
            if let Some(s) = self.reverse_futility(&node) {
                return s;
            }
            if let Some(s) = self.razor(&node) {
                return s;
            }
            if let Some(s) = self.null_move(&node) {
                return s;
            }
            if let Some(s) = self.probcut(&node, &moves) {
                return s;
            }
        }
        if self.internal_iterative_reduction(&node) {
            node.depth -= 1;
        }

        let cont = self.continuation_offsets(ply);
        let ordered = self.order_moves(pos, &moves, node.tt_move, ply, cont);
        let singular_move = match self.singular_extension(&node, &moves) {
            Ok(m) => m,
            Err(s) => return s,
        };
        let Some((best, best_move)) = self.search_moves(&mut node, &ordered, singular_move, cont)
        else {
            return 0;
        };
        if excluded.is_some() {
            // The left-out move was the only one: the others score nothing.
            return if best == -INF { node.alpha } else { best };
        }
        self.finish(&node, best, best_move, alpha);
        best
    }

    /// The score of a node decided by the rules before any search: the
    /// game's end by its own rule, a repetition, or the fifty-move rule.
    #[inline]
    fn ended_or_drawn(&self, pos: &Position<V>, ply: usize) -> Option<i32> {
        if let Some(o) = V::end_by_rule(pos) {
            return Some(outcome_score(o, pos.turn(), ply));
        }
        if self.is_repetition(pos) || pos.halfmove_clock() >= 100 {
            return Some(0);
        }
        None
    }

    /// The score the table's entry `e` answers this node with: none for a
    /// PV node, a search leaving a move out (the entry is the node's result
    /// with every move), or an entry shallower than `depth`.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn tt_answer(
        &self,
        e: &TtEntry,
        excluded: Option<Move>,
        pv_node: bool,
        depth: i32,
        ply: usize,
        alpha: i32,
        beta: i32,
    ) -> Option<i32> {
        if !pv_node && excluded.is_none() && e.depth >= depth {
            e.cutoff(ply, alpha, beta)
        } else {
            None
        }
    }

    /// Fills in the node's static evaluation (the table's where it has
    /// one, then corrected), its refinement by the table's score, and the
    /// improving test; records the evaluation on the stack.
    #[inline]
    fn evaluate_node(&mut self, n: &mut Node<'_, V>) {
        let sp = self.settings;
        if !n.in_check {
            let raw = match n.tt {
                Some(e) => e.eval,
                None => self.static_eval(n.pos, n.ply),
            };
            n.raw_eval = raw;
            n.static_eval = self.td.hist.corrected_eval(n.pos, raw);
        }
        let ply = n.ply;
        self.td.stack[ply].static_eval = n.static_eval;
        n.improving = ply < 2 || n.static_eval > self.td.stack[ply - 2].static_eval;
        n.eval = match n.tt {
            Some(e) if sp.tt_eval_refine != 0 && !n.in_check => e.refined_eval(ply, n.static_eval),
            _ => n.static_eval,
        };
    }

    /// The move loop: searches `ordered` (all but the left-out move),
    /// `singular_move` a ply deeper, skipping what the pruning rules skip,
    /// until one cuts off. The best score and move, `None` if the search
    /// stopped.
    fn search_moves(
        &mut self,
        n: &mut Node<'_, V>,
        ordered: &[(i32, Move)],
        singular_move: Option<Move>,
        cont: [Option<usize>; 2],
    ) -> Option<(i32, Option<Move>)> {
        let sp = self.settings;
        let (pos, ply) = (n.pos, n.ply);
        let mut best = -INF;
        let mut best_move = None;
        // Quiet moves searched so far that did not cut off
        // (`history_gravity`), and captures (`capture_history`).
        let mut quiets_tried: Vec<Move> = Vec::new();
        let mut captures_tried: Vec<Move> = Vec::new();
        let track_quiets = sp.history_gravity != 0;
        let track_captures = sp.capture_history != 0;
        let plan = self.quiet_pruning(n);
        for (i, &(order, m)) in ordered.iter().enumerate() {
            if Some(m) == n.excluded {
                continue;
            }
            let child = pos.play_unchecked(m);
            let quiet = !pos.is_capture(m) && m.promotion().is_none();
            if sp.continuation_history != 0 {
                self.td.stack[ply].played_piece_to = Some(moved_piece_to(pos, n.us, m));
            }
            let c = Candidate {
                i,
                m,
                order,
                child: &child,
                quiet,
                gives_check: child.is_check(),
            };
            if self.prunes_quiet_move(n, &plan, &c, best, cont) || self.see_prunes(n, &c, best) {
                continue;
            }
            let new_depth = n.depth - 1 + i32::from(Some(m) == singular_move);
            self.keys.push(child.key());
            self.td.eval.push(self.evaluator, pos, &child);
            let score = self.search_move(n, &c, new_depth);
            self.td.eval.pop();
            self.keys.pop();
            if self.stopped {
                return None;
            }
            if score > best {
                best = score;
                best_move = Some(m);
                if score > n.alpha {
                    n.alpha = score;
                    self.new_best_line(n, m, score);
                    if score >= n.beta {
                        let tried = (&quiets_tried[..], &captures_tried[..]);
                        self.learn_from_cutoff(n, &c, cont, tried);
                        break;
                    }
                }
            }
            if quiet && track_quiets {
                quiets_tried.push(m);
            } else if track_captures && pos.is_capture(m) {
                captures_tried.push(m);
            }
        }
        Some((best, best_move))
    }

    /// Searches the move `c` with its principal variation search: the
    /// first move with the full window, the others with a null window at
    /// `new_depth` less their late-move reduction, again without it when
    /// they beat alpha, and again with the full window in a PV node.
    fn search_move(&mut self, n: &Node<'_, V>, c: &Candidate<'_, V>, new_depth: i32) -> i32 {
        let (alpha, beta, ply) = (n.alpha, n.beta, n.ply);
        if c.i == 0 {
            return -self.search(
                c.child,
                -beta,
                -alpha,
                new_depth,
                ply + 1,
                n.pv_node,
                !n.pv_node && !n.cut_node,
            );
        }
        let r = self.late_move_reduction(n, c, new_depth);
        let mut s = -self.search(
            c.child,
            -alpha - 1,
            -alpha,
            new_depth - r,
            ply + 1,
            false,
            true,
        );
        if s > alpha && r > 0 {
            s = -self.search(
                c.child,
                -alpha - 1,
                -alpha,
                new_depth,
                ply + 1,
                false,
                !n.cut_node,
            );
        }
        if s > alpha && s < beta && n.pv_node {
            s = -self.search(c.child, -beta, -alpha, new_depth, ply + 1, true, false);
        }
        s
    }

    /// The move `m` raised alpha to `score`: the root's best move so far,
    /// and in a PV node the line through it.
    #[inline]
    fn new_best_line(&mut self, n: &Node<'_, V>, m: Move, score: i32) {
        let ply = n.ply;
        if ply == 0 {
            self.root_best = Some((m, score));
        }
        if n.pv_node {
            let (head, tail) = self.td.stack.entries.split_at_mut(ply + 1);
            let pv = &mut head[ply].pv;
            pv.clear();
            pv.push(m);
            pv.extend_from_slice(&tail[0].pv);
        }
    }

    /// Learns from the move `c` cutting off after the quiet moves and
    /// captures `tried` did not: a quiet move becomes the ply's first
    /// killer, its history rises
    /// (and theirs falls); with `capture_history` the captures' too.
    fn learn_from_cutoff(
        &mut self,
        n: &Node<'_, V>,
        c: &Candidate<'_, V>,
        cont: [Option<usize>; 2],
        tried: (&[Move], &[Move]),
    ) {
        let (sp, m) = (self.settings, c.m);
        let (quiets_tried, captures_tried) = tried;
        let cut = Cutoff {
            pos: n.pos,
            us: n.us,
            m,
            depth: n.depth,
        };
        self.td.learnt();
        if c.quiet {
            let k = &mut self.td.stack[n.ply].killers;
            if k[0] != Some(m) {
                k[1] = k[0];
                k[0] = Some(m);
            }
            self.td.hist.reward_quiet(sp, &cut, quiets_tried, cont);
        }
        if sp.capture_history != 0 {
            self.td.hist.reward_captures(sp, &cut, captures_tried);
        }
    }

    /// Ends a node searched with the window's lower edge at
    /// `original_alpha` that scored `best` with `best_move`: the correction
    /// history learns the search's error against the static evaluation
    /// where the result says how large it is (a bound on the right side of
    /// the evaluation) and no capture decided it, and the table stores the
    /// result.
    fn finish(&mut self, n: &Node<'_, V>, best: i32, best_move: Option<Move>, original_alpha: i32) {
        let pos = n.pos;
        let bound = Bound::of_result(best, n.beta, n.alpha > original_alpha);
        let tactical_best = best_move.is_some_and(|m| pos.is_capture(m) || m.promotion().is_some());
        let error_known = match bound {
            Bound::Lower => best > n.static_eval,
            Bound::Upper => best < n.static_eval,
            Bound::Exact => true,
        };
        if !self.td.hist.correction.is_empty()
            && !n.in_check
            && best.abs() < MATE_BOUND
            && !tactical_best
            && error_known
        {
            self.td.learnt();
            self.td
                .hist
                .update_correction(self.settings, pos, n.depth, best - n.raw_eval);
        }
        let eval = if n.in_check { 0 } else { n.raw_eval };
        self.store(pos.key(), best, eval, n.depth, bound, best_move, n.ply);
    }

    /// The legal moves of a node in suicide or losers with a forced-reply
    /// extension on, listed before the table is read (they decide the
    /// extension); `None` elsewhere.
    #[inline]
    fn forced_reply_moves(&self, pos: &Position<V>) -> Option<MoveList> {
        let sp = self.settings;
        let reply_extension = V::MUST_CAPTURE && sp.single_reply_extension != 0;
        reply_extension.then(|| pos.legal_moves())
    }
}
