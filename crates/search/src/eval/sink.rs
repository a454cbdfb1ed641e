//! Term sinks: what [`super::eval_terms`] reports each term to. The
//! engine's [`Score`] sums the weighted terms of both halves and blends them
//! by the [`phase`] ([`taper`]); the tuner's [`Features`] keeps the counts.

use super::layout::{idx, ParamGroup, EG, NUM_TERMS, PHASE_MAX};
use movegen::{Position, Role, Variant};

/// Receives the evaluation's terms: the engine's [`Score`] sums them
/// weighted, the tuner's [`Features`] collects them.
pub trait TermSink {
    /// The position's phase, `0..=PHASE_MAX` ([`phase`]): told once, before
    /// the first term.
    fn set_phase(&mut self, phase: i32);
    /// The game's own rule calls the position a draw by insufficient
    /// material (told before the first term, and only then): where the
    /// switch `insufficient_material` is not 0 its evaluation is 0, whatever
    /// the terms.
    fn set_drawn(&mut self);
    /// Term `index` (below [`NUM_TERMS`]) counted `count` times, from
    /// White's point of view.
    fn add(&mut self, index: usize, count: i32);
    /// `false` when the terms of group `g` cannot change what this
    /// term sink computes, so that [`eval_terms`] may skip working them
    /// out: the engine's [`Score`] says so for a group whose weights are 0 in
    /// both halves (most games leave the chess-tested terms at 0). The
    /// tuner's [`Features`] wants every term, the default.
    #[inline(always)]
    fn wants(&self, g: ParamGroup) -> bool {
        let _ = g;
        true
    }
}

/// The phase of `pos`, from [`PHASE_MAX`] (the middlegame: the middlegame
/// half of each weight alone) down to 0 (the endgame half alone). In the
/// chess-like games the usual non-pawn material count: a minor piece (a
/// knight, a bishop, knightmate's commoner) 1, a rook 2, a queen 4, 24 for
/// the starting pieces; promotions beyond that stay at 24. In suicide and
/// losers, where a side wins by losing its pieces and the queens are no more
/// a middlegame than the rest, the number of pieces of both sides, 32 at the
/// start, scaled to 24.
pub fn phase<V: Variant>(pos: &Position<V>) -> i32 {
    let b = pos.board();
    if V::MUST_CAPTURE {
        return (b.occupied().count() as i32 * PHASE_MAX / 32).min(PHASE_MAX);
    }
    let minors = (b.role(Role::Knight) | b.role(Role::Bishop) | b.role(Role::Commoner)).count();
    let rooks = b.role(Role::Rook).count();
    let queens = b.role(Role::Queen).count();
    ((minors + 2 * rooks + 4 * queens) as i32).min(PHASE_MAX)
}

/// The tapered score: the middlegame sum `mg` and the endgame sum `eg`
/// blended by `phase` (truncated toward zero, so a position and its mirror
/// image score the negatives of each other). With equal halves it is `mg`.
#[inline]
pub fn taper(mg: i64, eg: i64, phase: i32) -> i64 {
    let phase = i64::from(phase);
    let max = i64::from(PHASE_MAX);
    (mg * phase + eg * (max - phase)) / max
}

/// Sums `count * weight` for each half: the engine's evaluation.
pub struct Score<'a> {
    /// The weights, middlegame halves then endgame halves.
    pub weights: &'a [i32],
    /// Running middlegame total (White's view), wide enough that no
    /// weights overflow it.
    pub mg: i64,
    /// Running endgame total (White's view).
    pub eg: i64,
    /// The position's phase.
    pub phase: i32,
    /// Drawn by insufficient material ([`TermSink::set_drawn`]).
    pub drawn: bool,
}

impl<'a> Score<'a> {
    /// An empty sum over `weights`.
    pub fn new(weights: &'a [i32]) -> Score<'a> {
        Score {
            weights,
            mg: 0,
            eg: 0,
            phase: PHASE_MAX,
            drawn: false,
        }
    }

    /// The two sums blended by the phase (White's view, not clamped); 0 for
    /// a drawn position where the `insufficient_material` switch is on.
    pub fn total(&self) -> i64 {
        if self.drawn && scores_drawn_as_zero(self.weights) {
            return 0;
        }
        taper(self.mg, self.eg, self.phase)
    }
}

/// `true` if `weights` score a position drawn by insufficient material as 0
/// (the `insufficient_material` switch, either half, is not 0).
pub fn scores_drawn_as_zero(weights: &[i32]) -> bool {
    weights[idx::INSUFFICIENT_MATERIAL] != 0 || weights[EG + idx::INSUFFICIENT_MATERIAL] != 0
}

impl TermSink for Score<'_> {
    #[inline(always)]
    fn set_phase(&mut self, phase: i32) {
        self.phase = phase;
    }

    fn set_drawn(&mut self) {
        self.drawn = true;
    }

    #[inline(always)]
    fn add(&mut self, index: usize, count: i32) {
        self.mg += i64::from(self.weights[index]) * i64::from(count);
        self.eg += i64::from(self.weights[EG + index]) * i64::from(count);
    }

    #[inline(always)]
    fn wants(&self, g: ParamGroup) -> bool {
        let (first, len) = (g.offset, g.len);
        let w = self.weights;
        w[first..first + len].iter().any(|&x| x != 0)
            || w[EG + first..EG + first + len].iter().any(|&x| x != 0)
    }
}

/// Collects the feature vector: `(term index, count)` pairs summed per
/// term, and the phase.
#[derive(Default)]
pub struct Features {
    /// Dense counts, one per term.
    pub counts: Vec<i32>,
    /// The position's phase.
    pub phase: i32,
    /// Drawn by insufficient material ([`TermSink::set_drawn`]).
    pub drawn: bool,
}

impl Features {
    /// White's evaluation of these features with `weights` (not clamped):
    /// [`evaluate`] from White's side, for a feature vector.
    pub fn score(&self, weights: &[i32]) -> i64 {
        let mut s = Score::new(weights);
        s.set_phase(self.phase);
        s.drawn = self.drawn;
        for (i, &c) in self.counts.iter().enumerate() {
            if c != 0 {
                s.add(i, c);
            }
        }
        s.total()
    }
}

impl TermSink for Features {
    fn set_phase(&mut self, phase: i32) {
        self.phase = phase;
    }

    fn set_drawn(&mut self) {
        self.drawn = true;
    }

    fn add(&mut self, index: usize, count: i32) {
        if self.counts.is_empty() {
            self.counts = vec![0; NUM_TERMS];
        }
        self.counts[index] += count;
    }
}
