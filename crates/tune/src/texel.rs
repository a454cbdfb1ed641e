//! Texel tuning: minimize the mean squared error between game results `r`
//! (White's view) and `sigmoid(K * s)`, `s` the quiescence score of the
//! position (White's view, centipawns), `sigmoid(x) = 1 / (1 + 10^(-x/400))`.
//!
//! The evaluation is linear in the weights, so each position is resolved
//! once to its quiescence leaf ([`crate::qleaf`]) and stored as a constant
//! (the part of the leaf's evaluation from weights not being tuned) plus a
//! sparse vector of the features of the tuned weights. A pass over the data
//! is then a sparse dot product per position, in parallel.
//!
//! The evaluation is tapered: a term counted `c` times at phase `p` adds
//! `c * p / PHASE_MAX` of its middlegame weight and `c * (PHASE_MAX - p) /
//! PHASE_MAX` of its endgame weight, so the features of the two halves carry
//! the phase, and are stored multiplied by `PHASE_MAX` (integers; the score
//! is divided once, and truncates as the engine's does). A term tuned
//! without its endgame half (`material`, not `material_eg`) is one weight
//! for both halves, as a weights file naming it sets both: its feature is
//! the whole count, and the tuned value goes into both halves
//! ([`EvalParams::set`]).
//!
//! First `K` is fitted (golden-section search on `ln K`, weights fixed), then
//! the weights with `K` fixed: Gauss-Newton with Levenberg-Marquardt damping
//! (the model is a sigmoid of a linear function: the Jacobian of a position
//! is `p(1-p) K' f`, and `JᵀJ` is accumulated exactly), or full-batch Adam.
//! Optionally the leaves are re-resolved with the current weights every few
//! iterations (the quiescence search's choices depend on the weights).

use crate::qleaf::{Leaf, Resolver};
use crate::trace::TraceRow;
use crate::{Error, Result};
use movegen::{Position, Variant};
use rayon::prelude::*;
use search::eval::{
    eval_terms, scores_drawn_as_zero, TermSink, EG, MAX_WEIGHT, NUM_WEIGHTS, PHASE_MAX,
};
use search::EvalParams;
use std::time::Instant;

/// The optimizer of the weights.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Optimizer {
    /// Gauss-Newton with Levenberg-Marquardt damping.
    GaussNewton,
    /// Full-batch Adam with this step size (centipawns).
    Adam {
        /// Learning rate.
        lr: f64,
    },
}

/// Settings of a Texel run.
#[derive(Clone, Debug)]
pub struct TexelConfig {
    /// Indices of the weights to fit.
    pub tuned: Vec<usize>,
    /// Iterations of the optimizer (epochs for Adam).
    pub iterations: usize,
    /// The optimizer.
    pub optimizer: Optimizer,
    /// Use this `K` instead of fitting it.
    pub k: Option<f64>,
    /// Resolve positions to their quiescence leaf (otherwise the position's
    /// own static evaluation is used).
    pub resolve: bool,
    /// Re-resolve the leaves with the current weights every this many
    /// iterations (0: never).
    pub resolve_every: usize,
}

/// What happens during a run, for progress display and traces.
#[derive(Clone, Debug)]
pub enum TexelEvent {
    /// Leaves resolved: positions kept, positions dropped (the quiescence
    /// search ended the game, so the score does not depend on the weights,
    /// or it ran out of its node budget), seconds.
    Resolved {
        /// Kept.
        kept: usize,
        /// Dropped.
        dropped: usize,
        /// Time taken.
        seconds: f64,
    },
    /// `K` chosen, with the loss at the starting weights.
    K {
        /// The scale.
        k: f64,
        /// Loss with it.
        loss: f64,
    },
    /// An iteration finished (iteration 0: the starting point).
    Iteration(TraceRow),
}

/// The result of a run.
#[derive(Clone, Debug)]
pub struct TexelOutcome {
    /// The scale used.
    pub k: f64,
    /// Loss at the start (with `k`).
    pub initial_loss: f64,
    /// Loss of the final real-valued weights.
    pub final_loss: f64,
    /// Loss of the final weights rounded to integers.
    pub rounded_loss: f64,
    /// Final real-valued tuned weights (in `tuned` order).
    pub weights: Vec<f64>,
    /// All weights with the tuned ones rounded in.
    pub params: EvalParams,
    /// Positions used.
    pub positions: usize,
}

/// Positions as a constant plus sparse features of the tuned weights.
#[derive(Clone, Debug, Default)]
pub struct Dataset {
    /// Number of tuned weights.
    pub n_tuned: usize,
    /// Game results (White's view).
    pub results: Vec<f32>,
    /// Evaluation from the weights not tuned (White's view), times
    /// [`PHASE_MAX`].
    pub base: Vec<f64>,
    /// Start of each position's features in `idx`/`val` (length `n + 1`).
    pub start: Vec<u32>,
    /// Tuned-weight slot of each feature.
    pub idx: Vec<u16>,
    /// Feature count times the share of its half, `p` or `PHASE_MAX - p`
    /// (both for a weight tuned for both halves).
    pub val: Vec<i32>,
    /// Positions dropped (game ended within the quiescence search, or the
    /// search ran out of its node budget).
    pub dropped: usize,
}

/// One position's evaluation split into the constant part and the features
/// of the tuned weights, both times [`PHASE_MAX`].
struct Sparse<'a> {
    /// Tuned slot of each weight (both halves' indices), -1 if not tuned.
    slot: &'a [i32],
    weights: &'a [i32],
    phase: i32,
    drawn: bool,
    base: i64,
    feats: Vec<(u16, i32)>,
}

impl Sparse<'_> {
    /// `count` (already times its half's share) of weight `index`.
    fn half(&mut self, index: usize, slot: i32, count: i32) {
        if slot < 0 {
            self.base += self.weights[index] as i64 * count as i64;
        } else if let Some(f) = self.feats.iter_mut().find(|f| f.0 == slot as u16) {
            f.1 += count;
        } else {
            self.feats.push((slot as u16, count));
        }
    }
}

impl TermSink for Sparse<'_> {
    fn set_phase(&mut self, phase: i32) {
        self.phase = phase;
    }

    fn set_drawn(&mut self) {
        self.drawn = true;
    }

    fn add(&mut self, index: usize, count: i32) {
        let (mg, eg) = (index, EG + index);
        let mg_slot = self.slot[mg];
        // The endgame half's own slot, else the term's (one weight for both).
        let eg_slot = if self.slot[eg] >= 0 {
            self.slot[eg]
        } else {
            mg_slot
        };
        self.half(mg, mg_slot, count * self.phase);
        self.half(eg, eg_slot, count * (PHASE_MAX - self.phase));
    }
}

#[derive(Default)]
struct Chunk {
    results: Vec<f32>,
    base: Vec<f64>,
    len: Vec<u32>,
    idx: Vec<u16>,
    val: Vec<i32>,
    dropped: usize,
}

impl Dataset {
    /// Builds the data set: resolves each position (if `resolve`) with
    /// `params` and splits the leaf's evaluation into the constant part and
    /// the features of `tuned`.
    pub fn build<V: Variant>(
        positions: &[(Position<V>, f32)],
        params: &EvalParams,
        tuned: &[usize],
        resolve_leaves: bool,
    ) -> Dataset {
        let mut slot = vec![-1i32; NUM_WEIGHTS];
        for (j, &i) in tuned.iter().enumerate() {
            slot[i] = j as i32;
        }
        let chunks: Vec<Chunk> = positions
            .par_chunks(4096)
            .map(|chunk| {
                let mut c = Chunk::default();
                let resolver = resolve_leaves.then(|| Resolver::new(params));
                for (pos, r) in chunk {
                    let leaf = if let Some(resolver) = &resolver {
                        match resolver.resolve(pos).map(|r| r.leaf) {
                            Some(Leaf::Eval(p)) => p,
                            Some(Leaf::End(_)) | None => {
                                c.dropped += 1;
                                continue;
                            }
                        }
                    } else {
                        *pos
                    };
                    let mut acc = Sparse {
                        slot: &slot,
                        weights: &params.weights,
                        phase: PHASE_MAX,
                        drawn: false,
                        base: 0,
                        feats: Vec::new(),
                    };
                    eval_terms(&leaf, &mut acc);
                    if acc.drawn && scores_drawn_as_zero(&params.weights) {
                        // Drawn by the game's rule: 0, whatever the weights.
                        acc.base = 0;
                        acc.feats.clear();
                    }
                    c.results.push(*r);
                    c.base.push(acc.base as f64);
                    let mut n = 0;
                    for (s, v) in acc.feats {
                        if v != 0 {
                            c.idx.push(s);
                            c.val.push(v);
                            n += 1;
                        }
                    }
                    c.len.push(n);
                }
                c
            })
            .collect();
        let mut d = Dataset {
            n_tuned: tuned.len(),
            start: vec![0],
            ..Default::default()
        };
        for c in chunks {
            d.results.extend_from_slice(&c.results);
            d.base.extend_from_slice(&c.base);
            let mut at = *d.start.last().expect("start has 0");
            for l in c.len {
                at += l;
                d.start.push(at);
            }
            d.idx.extend_from_slice(&c.idx);
            d.val.extend_from_slice(&c.val);
            d.dropped += c.dropped;
        }
        d
    }

    /// Number of positions.
    pub fn len(&self) -> usize {
        self.results.len()
    }

    /// `true` if there are no positions.
    pub fn is_empty(&self) -> bool {
        self.results.is_empty()
    }

    /// White's score of position `i` with tuned weights `w`.
    #[inline]
    pub fn eval(&self, i: usize, w: &[f64]) -> f64 {
        let (a, b) = (self.start[i] as usize, self.start[i + 1] as usize);
        let mut s = self.base[i];
        for k in a..b {
            s += w[self.idx[k] as usize] * self.val[k] as f64;
        }
        s / f64::from(PHASE_MAX)
    }

    /// Feature `k` (an entry of `idx`/`val`) as a real count.
    #[inline]
    fn feature(&self, k: usize) -> f64 {
        self.val[k] as f64 / f64::from(PHASE_MAX)
    }

    /// Mean squared error with weights `w` and scale `k`.
    pub fn loss(&self, w: &[f64], k: f64) -> f64 {
        let kk = k * std::f64::consts::LN_10 / 400.0;
        let sum: f64 = (0..self.len())
            .into_par_iter()
            .with_min_len(4096)
            .map(|i| {
                let p = sigmoid(kk * self.eval(i, w));
                let e = self.results[i] as f64 - p;
                e * e
            })
            .sum();
        sum / self.len().max(1) as f64
    }

    /// Loss and gradient.
    pub fn gradient(&self, w: &[f64], k: f64) -> (f64, Vec<f64>) {
        let n = self.n_tuned;
        let kk = k * std::f64::consts::LN_10 / 400.0;
        let (loss, g) = (0..self.len())
            .into_par_iter()
            .with_min_len(4096)
            .fold(
                || (0.0, vec![0.0; n]),
                |(mut l, mut g), i| {
                    let p = sigmoid(kk * self.eval(i, w));
                    let e = self.results[i] as f64 - p;
                    l += e * e;
                    let d = -2.0 * e * p * (1.0 - p) * kk;
                    for k in self.start[i] as usize..self.start[i + 1] as usize {
                        g[self.idx[k] as usize] += d * self.feature(k);
                    }
                    (l, g)
                },
            )
            .reduce(
                || (0.0, vec![0.0; n]),
                |(l1, mut g1), (l2, g2)| {
                    for (a, b) in g1.iter_mut().zip(g2) {
                        *a += b;
                    }
                    (l1 + l2, g1)
                },
            );
        let m = self.len().max(1) as f64;
        (loss / m, g.into_iter().map(|x| x / m).collect())
    }

    /// Loss, gradient and the Gauss-Newton matrix `2/N JᵀJ` (row-major).
    pub fn gauss_newton(&self, w: &[f64], k: f64) -> (f64, Vec<f64>, Vec<f64>) {
        let n = self.n_tuned;
        let kk = k * std::f64::consts::LN_10 / 400.0;
        let zero = || (0.0, vec![0.0; n], vec![0.0; n * n]);
        let (loss, g, h) = (0..self.len())
            .into_par_iter()
            .with_min_len(4096)
            .fold(zero, |(mut l, mut g, mut h), i| {
                let p = sigmoid(kk * self.eval(i, w));
                let e = self.results[i] as f64 - p;
                l += e * e;
                let j = p * (1.0 - p) * kk;
                let (a, b) = (self.start[i] as usize, self.start[i + 1] as usize);
                for x in a..b {
                    let ix = self.idx[x] as usize;
                    let fx = self.feature(x) * j;
                    g[ix] += -2.0 * e * fx;
                    for y in a..b {
                        h[ix * n + self.idx[y] as usize] += 2.0 * fx * self.feature(y) * j;
                    }
                }
                (l, g, h)
            })
            .reduce(zero, |(l1, mut g1, mut h1), (l2, g2, h2)| {
                for (a, b) in g1.iter_mut().zip(g2) {
                    *a += b;
                }
                for (a, b) in h1.iter_mut().zip(h2) {
                    *a += b;
                }
                (l1 + l2, g1, h1)
            });
        let m = self.len().max(1) as f64;
        (
            loss / m,
            g.into_iter().map(|x| x / m).collect(),
            h.into_iter().map(|x| x / m).collect(),
        )
    }
}

/// Logistic function of `x` (natural base; the caller scales by `ln 10 / 400`).
#[inline]
pub fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// The range [`fit_k`] searches.
pub const K_RANGE: (f64, f64) = (1e-3, 1e2);

/// Whether a fitted `K` lies at an end of [`K_RANGE`]: at the low end the
/// evaluation at the starting weights predicts the labels no better than a
/// constant (the loss rises with `K`), and a fit of the weights with that
/// `K` scales them toward their bounds; a `K` given by hand is then the way.
pub fn k_at_bound(k: f64) -> bool {
    k < K_RANGE.0 * 1.01 || k > K_RANGE.1 / 1.01
}

/// Fits `K` with the weights fixed: golden-section search on `ln K` in
/// [`K_RANGE`]. Returns `K` and its loss.
pub fn fit_k(data: &Dataset, w: &[f64]) -> (f64, f64) {
    let f = |lnk: f64| data.loss(w, lnk.exp());
    let (mut a, mut b) = (K_RANGE.0.ln(), K_RANGE.1.ln());
    let phi = (5f64.sqrt() - 1.0) / 2.0;
    let mut c = b - phi * (b - a);
    let mut d = a + phi * (b - a);
    let (mut fc, mut fd) = (f(c), f(d));
    for _ in 0..60 {
        if fc < fd {
            b = d;
            d = c;
            fd = fc;
            c = b - phi * (b - a);
            fc = f(c);
        } else {
            a = c;
            c = d;
            fc = fd;
            d = a + phi * (b - a);
            fd = f(d);
        }
        if (b - a).abs() < 1e-7 {
            break;
        }
    }
    let k = ((a + b) / 2.0).exp();
    (k, data.loss(w, k))
}

/// Solves `a x = b` for symmetric positive definite `a` (Cholesky); `None`
/// if `a` is not positive definite.
pub fn solve_spd(a: &[f64], b: &[f64]) -> Option<Vec<f64>> {
    let n = b.len();
    let mut l = vec![0.0; n * n];
    for i in 0..n {
        for j in 0..=i {
            let mut s = a[i * n + j];
            for k in 0..j {
                s -= l[i * n + k] * l[j * n + k];
            }
            if i == j {
                if s <= 0.0 || !s.is_finite() {
                    return None;
                }
                l[i * n + i] = s.sqrt();
            } else {
                l[i * n + j] = s / l[j * n + j];
            }
        }
    }
    let mut y = vec![0.0; n];
    for i in 0..n {
        let mut s = b[i];
        for k in 0..i {
            s -= l[i * n + k] * y[k];
        }
        y[i] = s / l[i * n + i];
    }
    let mut x = vec![0.0; n];
    for i in (0..n).rev() {
        let mut s = y[i];
        for k in i + 1..n {
            s -= l[k * n + i] * x[k];
        }
        x[i] = s / l[i * n + i];
    }
    Some(x)
}

fn with_weights(init: &EvalParams, tuned: &[usize], w: &[f64]) -> EvalParams {
    let mut p = init.clone();
    // In index order: a term (both halves) before its endgame half.
    let mut pairs: Vec<(usize, f64)> = tuned.iter().copied().zip(w.iter().copied()).collect();
    pairs.sort_by_key(|&(i, _)| i);
    for (i, v) in pairs {
        // Within the range a weights file may hold, so the result loads back.
        let max = f64::from(MAX_WEIGHT);
        p.set(i, v.round().clamp(-max, max) as i32);
    }
    p
}

/// Runs Texel tuning of `cfg.tuned` from `init` on `positions`.
pub fn tune<V: Variant>(
    positions: &[(Position<V>, f32)],
    init: &EvalParams,
    cfg: &TexelConfig,
    observer: &mut dyn FnMut(&TexelEvent),
) -> Result<TexelOutcome> {
    if cfg.tuned.is_empty() {
        return Err(Error::NoWeightsToTune);
    }
    if cfg.tuned.len() > u16::MAX as usize {
        return Err(Error::TooManyWeights);
    }
    let t = Instant::now();
    let mut data = Dataset::build(positions, init, &cfg.tuned, cfg.resolve);
    observer(&TexelEvent::Resolved {
        kept: data.len(),
        dropped: data.dropped,
        seconds: t.elapsed().as_secs_f64(),
    });
    if data.is_empty() {
        return Err(Error::NoUsablePositions);
    }
    let mut w: Vec<f64> = cfg.tuned.iter().map(|&i| init.weights[i] as f64).collect();
    let (k, initial_loss) = match cfg.k {
        Some(k) => (k, data.loss(&w, k)),
        None => fit_k(&data, &w),
    };
    observer(&TexelEvent::K {
        k,
        loss: initial_loss,
    });
    observer(&TexelEvent::Iteration(TraceRow {
        iteration: 0,
        metric: initial_loss,
        values: w.clone(),
    }));
    let n = w.len();
    let mut lambda = 1e-3;
    let (mut m, mut v) = (vec![0.0; n], vec![0.0; n]);
    let mut loss = initial_loss;
    for it in 1..=cfg.iterations {
        if cfg.resolve && cfg.resolve_every > 0 && it > 1 && (it - 1) % cfg.resolve_every == 0 {
            let p = with_weights(init, &cfg.tuned, &w);
            data = Dataset::build(positions, &p, &cfg.tuned, true);
        }
        match cfg.optimizer {
            Optimizer::GaussNewton => {
                let (l0, g, h) = data.gauss_newton(&w, k);
                loss = l0;
                let max_diag = (0..n).map(|i| h[i * n + i]).fold(0.0, f64::max);
                for _ in 0..30 {
                    let mut a = h.clone();
                    for i in 0..n {
                        a[i * n + i] += lambda * h[i * n + i] + 1e-12 * max_diag.max(1e-300);
                    }
                    let neg: Vec<f64> = g.iter().map(|x| -x).collect();
                    let Some(step) = solve_spd(&a, &neg) else {
                        lambda *= 4.0;
                        continue;
                    };
                    let trial: Vec<f64> = w.iter().zip(&step).map(|(a, b)| a + b).collect();
                    let l1 = data.loss(&trial, k);
                    if l1 <= l0 {
                        w = trial;
                        loss = l1;
                        lambda = (lambda / 3.0).max(1e-9);
                        break;
                    }
                    lambda *= 4.0;
                }
            }
            Optimizer::Adam { lr } => {
                let (_, g) = data.gradient(&w, k);
                let (b1, b2, eps) = (0.9, 0.999, 1e-12);
                for j in 0..n {
                    m[j] = b1 * m[j] + (1.0 - b1) * g[j];
                    v[j] = b2 * v[j] + (1.0 - b2) * g[j] * g[j];
                    let mh = m[j] / (1.0 - b1.powi(it as i32));
                    let vh = v[j] / (1.0 - b2.powi(it as i32));
                    if vh > 0.0 {
                        w[j] -= lr * mh / (vh.sqrt() + eps);
                    }
                }
                loss = data.loss(&w, k);
            }
        }
        observer(&TexelEvent::Iteration(TraceRow {
            iteration: it,
            metric: loss,
            values: w.clone(),
        }));
    }
    let params = with_weights(init, &cfg.tuned, &w);
    let rounded: Vec<f64> = cfg
        .tuned
        .iter()
        .map(|&i| params.weights[i] as f64)
        .collect();
    Ok(TexelOutcome {
        k,
        initial_loss,
        final_loss: loss,
        rounded_loss: data.loss(&rounded, k),
        weights: w,
        params,
        positions: data.len(),
    })
}
