//! Iterative deepening: searches the root one ply deeper at a time, each
//! iteration inside an aspiration window around the last score (widened
//! and searched again when the score falls outside it), until the clock or
//! the depth limit says stop. An iteration cut by the limit still gives its
//! best move when a root move searched to the end beat the window
//! (`partial_iteration`). Lazy SMP's helper threads run the same loop,
//! skipping ahead on alternate depths; the main thread reports each
//! iteration and decides when to stop.

use super::stack::MAX_PLY;
use super::thread::Worker;
use crate::limits::soft_limit_factor;
use crate::score::{INF, MATE_BOUND};
use movegen::{Move, Position, Variant};
use std::sync::atomic::Ordering::Relaxed;

/// Progress of the search after an iteration.
#[derive(Clone, Debug)]
pub struct Info {
    /// Completed depth.
    pub depth: u32,
    /// Deepest ply reached.
    pub seldepth: u32,
    /// Score in centipawns from the side to move's view (or a mate score).
    pub score: i32,
    /// Nodes of all threads.
    pub nodes: u64,
    /// Milliseconds since the start.
    pub time_ms: u64,
    /// Principal variation.
    pub pv: Vec<Move>,
    /// Table usage in permille.
    pub hashfull: u32,
}

impl Info {
    /// Nodes per second.
    pub fn nps(&self) -> u64 {
        self.nodes * 1000 / self.time_ms.max(1)
    }
}

/// What iterative deepening found at the root.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RootResult {
    /// Best move (`None` if the game is over at the root).
    pub best: Option<Move>,
    /// Its score from the side to move's view.
    pub score: i32,
    /// Depth of the last completed iteration.
    pub depth: u32,
    /// Principal variation.
    pub pv: Vec<Move>,
}

impl<V: Variant> Worker<'_, V> {
    /// What the main thread reports of an iteration to `depth` that scored
    /// `score` with `pv`.
    fn info(&self, depth: u32, score: i32, pv: &[Move]) -> Info {
        Info {
            depth,
            seldepth: self.seldepth as u32,
            score,
            nodes: self.shared.nodes.load(Relaxed),
            time_ms: self.clock.elapsed().as_millis() as u64,
            pv: pv.to_vec(),
            hashfull: self.shared.tt.hashfull(),
        }
    }

    /// Iterative deepening from `root` until the clock or `max_depth` says
    /// stop. Calls `report` after each completed iteration (main thread).
    pub fn iterate(
        &mut self,
        root: &Position<V>,
        max_depth: u32,
        report: &mut dyn FnMut(&Info),
    ) -> RootResult {
        let moves = root.legal_moves();
        let mut best_move = moves.first().copied();
        let mut best_score: i32 = 0;
        let mut completed = 0;
        let mut best_pv: Vec<Move> = best_move.into_iter().collect();
        if moves.is_empty() {
            return RootResult {
                best: None,
                score: 0,
                depth: 0,
                pv: Vec::new(),
            };
        }
        self.enter_root(root);
        // For the soft limit's scaling (`tm_stability`, main thread): the
        // completed iterations' scores and how many in a row kept the best
        // move.
        let mut scores: Vec<i32> = Vec::new();
        let mut stable_iterations = 0u32;
        let mut depth = 1u32;
        while depth <= max_depth.min(MAX_PLY as u32 - 10) {
            // Lazy SMP: helpers skip ahead on alternate depths so threads spread out.
            let sp = self.settings;
            let d = if self.id > 0 && depth as i32 > sp.smp_skip_min_depth {
                depth + (self.id as u32 % 2)
            } else {
                depth
            };
            self.seldepth = 0;
            let mut window = sp.aspiration_window;
            let (mut alpha, mut beta) =
                if d as i32 >= sp.aspiration_min_depth && (best_score.abs() < MATE_BOUND) {
                    (best_score - window, best_score + window)
                } else {
                    (-INF, INF)
                };
            self.root_best = None;
            self.root_depth = d as i32;
            let score = loop {
                let s = self.search(root, alpha, beta, d as i32, 0, true, false);
                if self.stopped {
                    break s;
                }
                if s <= alpha {
                    alpha = alpha.saturating_sub(window).max(-INF);
                    window = window.saturating_mul(sp.aspiration_growth);
                } else if s >= beta {
                    beta = beta.saturating_add(window).min(INF);
                    window = window.saturating_mul(sp.aspiration_growth);
                } else {
                    break s;
                }
            };
            if self.stopped {
                // A root move searched to the end that beat the window is a
                // better guess than the last iteration's, when enabled.
                if sp.partial_iteration != 0 {
                    if let (Some((m, s)), Some(&first)) =
                        (self.root_best, self.td.stack[0].pv.first())
                    {
                        if m == first {
                            best_move = Some(m);
                            best_score = s;
                            best_pv = self.td.stack[0].pv.clone();
                            // Posted like a finished iteration's, so the
                            // move played (and the reply pondered on) is
                            // always the last line the GUI saw.
                            if self.id == 0 {
                                self.flush_nodes();
                                report(&self.info(d, s, &best_pv));
                            }
                        }
                    }
                }
                break;
            }
            completed = d;
            best_score = score;
            if let Some(&m) = self.td.stack[0].pv.first() {
                if completed > 1 {
                    stable_iterations = if best_move == Some(m) {
                        stable_iterations + 1
                    } else {
                        0
                    };
                }
                best_move = Some(m);
                best_pv = self.td.stack[0].pv.clone();
            }
            if sp.tm_stability != 0 {
                scores.push(score);
            }
            if self.id == 0 {
                self.flush_nodes();
                report(&self.info(d, score, &best_pv));
                let factor = soft_limit_factor(sp, stable_iterations, &scores);
                if self.clock.past_scaled_soft_limit(factor) {
                    break;
                }
                if moves.len() == 1 && self.clock.has_time_limit() {
                    break;
                }
            }
            depth = d + 1;
        }
        self.flush_nodes();
        self.td.end(self.settings, self.game_ply);
        RootResult {
            best: best_move,
            score: best_score,
            depth: completed,
            pv: best_pv,
        }
    }

    /// Makes `root` the root of the search path: its key the last of the
    /// game's (unless it is already), the bottom of the evaluation stack.
    pub(super) fn enter_root(&mut self, root: &Position<V>) {
        self.td.eval.root(self.evaluator, root);
        if self.keys.last() != Some(&root.key()) {
            self.keys.push(root.key());
        }
    }
}
