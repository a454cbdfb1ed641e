//! SPSA (simultaneous perturbation stochastic approximation) as fishtest and
//! OpenBench run it. Iteration `k` (from 0) draws a random sign `delta_j`
//! per weight, compares `theta + c_k delta` with `theta - c_k delta` (a game
//! pair or a few: the result is the first's wins minus losses), and moves
//! `theta_j += a_k / c_k * result * delta_j`.
//!
//! Schedule, per weight, from end values (`N` iterations, `A = a_ratio * N`):
//! `c_k = c / (k+1)^gamma` with `c = c_end * N^gamma`, and
//! `a_k = a / (k+1+A)^alpha` with `a = r_end * c_end^2 * (A+N)^alpha`, so that
//! at the end `c_k = c_end` and `a_k / c_k^2 = r_end` (fishtest's `R`).
//! Defaults `alpha = 0.602`, `gamma = 0.101`, `a_ratio = 0.1`.
//!
//! `delta` of iteration `k` is a function of the seed and `k` only, and a
//! trace row holds `theta` exactly, so a run resumed from its trace's last
//! row continues exactly as an uninterrupted one would. The core ([`run`])
//! is generic over the objective; [`MatchObjective`] plays games with the
//! in-process engine, [`crate::spsa_uci::UciObjective`] with an external UCI
//! engine whose options are the weights; both play the games of
//! [`IterationGames`].

use crate::rng::hash3;
use crate::trace::TraceRow;
use crate::{Error, Result};
use arena::{
    Adjudication, EngineConfig, InProcess, MatchConfig, MoveLimits, Opening, Player, PlayerError,
    PlayerFactory,
};
use movegen::{dispatch_cold, VariantKind};
use search::{EvalParams, Evaluator};

/// One tuned weight.
#[derive(Clone, Debug, PartialEq)]
pub struct SpsaParam {
    /// Name (trace column).
    pub name: String,
    /// Perturbation size at the last iteration.
    pub c_end: f64,
    /// `a_k / c_k^2` at the last iteration.
    pub r_end: f64,
    /// Lower bound of `theta`.
    pub min: f64,
    /// Upper bound of `theta`.
    pub max: f64,
}

/// Settings of a run.
#[derive(Clone, Debug, PartialEq)]
pub struct SpsaConfig {
    /// Total iterations `N`.
    pub iterations: usize,
    /// Step decay exponent.
    pub alpha: f64,
    /// Perturbation decay exponent.
    pub gamma: f64,
    /// `A` as a share of `N`.
    pub a_ratio: f64,
    /// Seed of the perturbations.
    pub seed: u64,
}

impl SpsaConfig {
    /// fishtest's defaults for `iterations` iterations.
    pub fn new(iterations: usize, seed: u64) -> SpsaConfig {
        SpsaConfig {
            iterations,
            alpha: 0.602,
            gamma: 0.101,
            a_ratio: 0.1,
            seed,
        }
    }

    fn big_a(&self) -> f64 {
        self.a_ratio * self.iterations as f64
    }

    /// Perturbation of `p` at iteration `k`.
    pub fn c_k(&self, p: &SpsaParam, k: usize) -> f64 {
        let n = self.iterations as f64;
        p.c_end * n.powf(self.gamma) / ((k + 1) as f64).powf(self.gamma)
    }

    /// Step size of `p` at iteration `k`.
    pub fn a_k(&self, p: &SpsaParam, k: usize) -> f64 {
        let n = self.iterations as f64;
        let a = p.r_end * p.c_end * p.c_end * (self.big_a() + n).powf(self.alpha);
        a / ((k + 1) as f64 + self.big_a()).powf(self.alpha)
    }

    /// The sign of weight `j` at iteration `k`.
    pub fn delta(&self, k: usize, j: usize) -> f64 {
        if hash3(self.seed, k as u64, j as u64) & 1 == 0 {
            1.0
        } else {
            -1.0
        }
    }
}

/// Something that compares two parameter vectors: the first's score minus
/// the second's (e.g. wins minus losses of a game pair).
pub trait Objective {
    /// Compares `plus` with `minus` at iteration `k`.
    fn compare(&mut self, k: usize, plus: &[f64], minus: &[f64]) -> Result<f64>;
}

impl<F: FnMut(usize, &[f64], &[f64]) -> Result<f64>> Objective for F {
    fn compare(&mut self, k: usize, plus: &[f64], minus: &[f64]) -> Result<f64> {
        self(k, plus, minus)
    }
}

/// Runs iterations `done..cfg.iterations` from `theta` (the values after
/// `done` iterations), calling `observer` with each new row (`iteration` =
/// iterations done). Returns the final `theta`.
pub fn run(
    params: &[SpsaParam],
    cfg: &SpsaConfig,
    theta: &[f64],
    done: usize,
    objective: &mut dyn Objective,
    observer: &mut dyn FnMut(&TraceRow) -> Result<()>,
) -> Result<Vec<f64>> {
    if params.len() != theta.len() {
        return Err(Error::Lengths {
            params: params.len(),
            values: theta.len(),
        });
    }
    let mut theta = theta.to_vec();
    for k in done..cfg.iterations {
        let n = params.len();
        let mut plus = vec![0.0; n];
        let mut minus = vec![0.0; n];
        let mut c = vec![0.0; n];
        let mut delta = vec![0.0; n];
        for (j, p) in params.iter().enumerate() {
            c[j] = cfg.c_k(p, k);
            delta[j] = cfg.delta(k, j);
            plus[j] = (theta[j] + c[j] * delta[j]).clamp(p.min, p.max);
            minus[j] = (theta[j] - c[j] * delta[j]).clamp(p.min, p.max);
        }
        let result = objective.compare(k, &plus, &minus)?;
        for (j, p) in params.iter().enumerate() {
            let step = cfg.a_k(p, k) / c[j] * result * delta[j];
            theta[j] = (theta[j] + step).clamp(p.min, p.max);
        }
        observer(&TraceRow {
            iteration: k + 1,
            metric: result,
            values: theta.clone(),
        })?;
    }
    Ok(theta)
}

/// How each iteration's games are played, whoever plays them: `pairs`
/// game pairs (each opening played with colours swapped), `concurrency`
/// games at once. Openings are drawn from the seed and the iteration (a
/// book entry if a book is given, then random plies), so the games of an
/// iteration are a function of `(seed, k)` and the two players alone. One
/// home for both objectives ([`MatchObjective`], [`crate::spsa_uci::UciObjective`]),
/// so that the in-process and the UCI runs of one seed play the same openings.
#[derive(Clone, Debug)]
pub struct IterationGames {
    /// The game.
    pub variant: VariantKind,
    /// Game pairs per iteration.
    pub pairs: usize,
    /// Games at once.
    pub concurrency: usize,
    /// Seed of the openings.
    pub seed: u64,
    /// Opening book (empty: the start position).
    pub book: Vec<Opening>,
    /// Random plies after the book position.
    pub random_plies: usize,
    /// Draw after this many plies.
    pub max_plies: u32,
}

impl IterationGames {
    /// The match of iteration `k` between `plus` and `minus` (their
    /// settings; they must be named `plus` and `minus`).
    pub fn match_config(
        &self,
        k: usize,
        plus: EngineConfig,
        minus: EngineConfig,
    ) -> Result<MatchConfig> {
        let pairs = self.pairs.max(1);
        let openings: Vec<Opening> = (0..pairs)
            .map(|p| {
                dispatch_cold!(self.variant, V => crate::datagen::make_opening::<V>(
                    &self.book, self.random_plies, self.seed ^ 0x5B5A, k as u64, p as u64,
                ).map(|g| crate::datagen::to_opening(&g)))
            })
            .collect::<Result<_>>()?;
        let mut cfg = MatchConfig::new(self.variant, vec![plus, minus], openings);
        cfg.schedule.games = Some(2 * pairs);
        cfg.schedule.seed = self.seed;
        cfg.concurrency = self.concurrency.max(1);
        cfg.adjudication = Adjudication {
            max_plies: self.max_plies,
            ..Adjudication::default()
        };
        Ok(cfg)
    }

    /// Plays iteration `k` with players from `factory`: `plus`'s wins
    /// minus its losses.
    pub fn play(
        &self,
        k: usize,
        plus: EngineConfig,
        minus: EngineConfig,
        factory: &PlayerFactory,
    ) -> Result<f64> {
        let cfg = self.match_config(k, plus, minus)?;
        let report = arena::run(&cfg, factory, &mut |_| {})?;
        let s = report
            .stats
            .iter()
            .find(|s| s.player == "plus")
            .ok_or(Error::NoGames)?;
        Ok(s.wdl.wins as f64 - s.wdl.losses as f64)
    }
}

/// Games between `theta+` and `theta-` with the in-process match runner
/// at a fixed node count (see [`IterationGames`] for the games).
#[derive(Clone, Debug)]
pub struct MatchObjective {
    /// The games of an iteration.
    pub games: IterationGames,
    /// Weights not tuned (and the starting point).
    pub base: EvalParams,
    /// Indices of the tuned weights.
    pub tuned: Vec<usize>,
    /// Nodes per move.
    pub nodes: u64,
    /// Hash per engine, MB.
    pub hash_mb: usize,
}

impl MatchObjective {
    /// The weights `theta` (rounded) put into the base parameters.
    pub fn params(&self, theta: &[f64]) -> EvalParams {
        let mut p = self.base.clone();
        // In index order: a term (both halves) before its endgame half.
        let mut pairs: Vec<(usize, f64)> = self
            .tuned
            .iter()
            .copied()
            .zip(theta.iter().copied())
            .collect();
        pairs.sort_by_key(|&(i, _)| i);
        for (i, v) in pairs {
            p.set(i, v.round() as i32);
        }
        p
    }
}

impl Objective for MatchObjective {
    fn compare(&mut self, k: usize, plus: &[f64], minus: &[f64]) -> Result<f64> {
        let limits = MoveLimits {
            nodes: Some(self.nodes.max(1)),
            ..MoveLimits::default()
        };
        let (pp, pm) = (self.params(plus), self.params(minus));
        let hash = self.hash_mb;
        let factory = move |s: &EngineConfig| -> std::result::Result<Box<dyn Player>, PlayerError> {
            let p = if s.name == "plus" { &pp } else { &pm };
            Ok(Box::new(InProcess::with_evaluator(
                &s.name,
                Evaluator::from(p.clone()),
                hash,
            )))
        };
        self.games.play(
            k,
            EngineConfig::in_process("plus", limits),
            EngineConfig::in_process("minus", limits),
            &factory,
        )
    }
}
