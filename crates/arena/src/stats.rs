//! Match statistics: score, Elo with a 95% interval, likelihood of
//! superiority, draw ratio, pentanomial counts, and the generalized SPRT that
//! fishtest and fastchess run on game pairs.
//!
//! Elo intervals and the SPRT use the pentanomial model (the sum of the two
//! games of an opening played with colours swapped) when games come in
//! pairs, which removes the variance the opening contributes; with unpaired
//! games they fall back to the trinomial model (win/draw/loss per game).

/// Win/draw/loss counts from the first player's point of view.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Wdl {
    /// Wins.
    pub wins: u64,
    /// Draws.
    pub draws: u64,
    /// Losses.
    pub losses: u64,
}

impl Wdl {
    /// Games played.
    pub fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }

    /// Mean score in `[0, 1]` (0.5 with no games).
    pub fn score(&self) -> f64 {
        let n = self.games();
        if n == 0 {
            0.5
        } else {
            (self.wins as f64 + 0.5 * self.draws as f64) / n as f64
        }
    }

    /// Share of draws.
    pub fn draw_ratio(&self) -> f64 {
        self.draws as f64 / self.games().max(1) as f64
    }

    /// Likelihood of superiority: the probability that the first player is the
    /// stronger, from wins and losses (draws carry no information).
    pub fn los(&self) -> f64 {
        let (w, l) = (self.wins as f64, self.losses as f64);
        if w + l == 0.0 {
            return 0.5;
        }
        0.5 * (1.0 + erf((w - l) / (2.0 * (w + l)).sqrt()))
    }
}

/// Counts of game pairs by pair score: 0, 0.5, 1, 1.5, 2 points out of 2.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pentanomial(pub [u64; 5]);

impl Pentanomial {
    /// Adds a pair with `points` (0, 0.5, 1, 1.5 or 2) for the first player.
    pub fn add(&mut self, points: f64) {
        let i = (points * 2.0).round().clamp(0.0, 4.0) as usize;
        self.0[i] += 1;
    }

    /// Number of pairs.
    pub fn pairs(&self) -> u64 {
        self.0.iter().sum()
    }
}

/// Logistic Elo of a mean score.
pub fn elo_from_score(s: f64) -> f64 {
    let s = s.clamp(1e-6, 1.0 - 1e-6);
    -400.0 * (1.0 / s - 1.0).log10()
}

/// Mean score of a logistic Elo difference.
pub fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// Error function (Abramowitz and Stegun 7.1.26, |error| < 1.5e-7).
pub fn erf(x: f64) -> f64 {
    let t = 1.0 / (1.0 + 0.327_591_1 * x.abs());
    let y = 1.0
        - (((((1.061_405_429 * t - 1.453_152_027) * t) + 1.421_413_741) * t - 0.284_496_736) * t
            + 0.254_829_592)
            * t
            * (-x * x).exp();
    if x >= 0.0 {
        y
    } else {
        -y
    }
}

/// Mean and variance of a discrete distribution given as (value, count) pairs.
fn mean_var(samples: &[(f64, f64)]) -> (f64, f64, f64) {
    let n: f64 = samples.iter().map(|s| s.1).sum();
    if n == 0.0 {
        return (0.5, 0.0, 0.0);
    }
    let mean = samples.iter().map(|(v, c)| v * c).sum::<f64>() / n;
    let var = samples
        .iter()
        .map(|(v, c)| c * (v - mean).powi(2))
        .sum::<f64>()
        / n;
    (mean, var, n)
}

/// Elo estimate with a 95% interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EloEstimate {
    /// Point estimate.
    pub elo: f64,
    /// Lower end of the 95% interval.
    pub low: f64,
    /// Upper end of the 95% interval.
    pub high: f64,
}

impl EloEstimate {
    /// Half-width of the interval (as "+/-").
    pub fn error(&self) -> f64 {
        (self.high - self.low) / 2.0
    }
}

fn estimate(samples: &[(f64, f64)]) -> EloEstimate {
    let (mean, var, n) = mean_var(samples);
    let se = if n > 0.0 { (var / n).sqrt() } else { 0.0 };
    EloEstimate {
        elo: elo_from_score(mean),
        low: elo_from_score(mean - 1.959_964 * se),
        high: elo_from_score(mean + 1.959_964 * se),
    }
}

/// Elo with a 95% interval from per-game results.
pub fn elo_trinomial(wdl: &Wdl) -> EloEstimate {
    estimate(&[
        (1.0, wdl.wins as f64),
        (0.5, wdl.draws as f64),
        (0.0, wdl.losses as f64),
    ])
}

fn penta_samples(p: &Pentanomial) -> [(f64, f64); 5] {
    [
        (0.0, p.0[0] as f64),
        (0.25, p.0[1] as f64),
        (0.5, p.0[2] as f64),
        (0.75, p.0[3] as f64),
        (1.0, p.0[4] as f64),
    ]
}

/// Elo with a 95% interval from game pairs (score per pair halved).
pub fn elo_pentanomial(p: &Pentanomial) -> EloEstimate {
    estimate(&penta_samples(p))
}

/// The Elo model of an SPRT's hypotheses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EloModel {
    /// Logistic Elo (fishtest's default).
    Logistic,
    /// Normalized Elo (fastchess's option): Elo in units of the result's spread.
    Normalized,
}

/// A sequential probability ratio test on Elo.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    /// Elo under the null hypothesis.
    pub elo0: f64,
    /// Elo under the alternative.
    pub elo1: f64,
    /// False positive rate.
    pub alpha: f64,
    /// False negative rate.
    pub beta: f64,
    /// Elo model.
    pub model: EloModel,
}

/// The state of an SPRT.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum SprtState {
    /// Keep playing.
    Continue,
    /// H1 accepted (elo >= elo1 more likely).
    AcceptH1,
    /// H0 accepted (elo <= elo0 more likely).
    AcceptH0,
}

impl Sprt {
    /// The test fishtest and `varia match --sprt` run unless told otherwise:
    /// logistic Elo, alpha = beta = 0.05.
    pub fn logistic(elo0: f64, elo1: f64) -> Self {
        Sprt {
            elo0,
            elo1,
            alpha: 0.05,
            beta: 0.05,
            model: EloModel::Logistic,
        }
    }

    /// Lower and upper log-likelihood-ratio bounds.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// Generalized SPRT log-likelihood ratio of pentanomial pair counts, with
    /// pair scores in `[0, 1]`: `N/2 * ln(σ0² / σ1²)`, σi² the mean squared
    /// deviation of the pair scores from the hypothesis' score si (Van den
    /// Bergh's approximation, as fastchess computes it). Near the hypotheses
    /// it equals fishtest's `N (s1 - s0)(2 mean - s0 - s1) / (2 var)`, but it
    /// stays sane when the observed variance is tiny (a few pairs all won),
    /// where that form explodes and stops a test after two games.
    pub fn llr(&self, p: &Pentanomial) -> f64 {
        // A tiny prior on every bucket keeps the variance positive early on.
        let samples: Vec<(f64, f64)> = penta_samples(p)
            .iter()
            .map(|&(v, c)| (v, c + 1e-3))
            .collect();
        let (mean, var, n) = mean_var(&samples);
        if var <= 0.0 || p.pairs() == 0 {
            return 0.0;
        }
        let (s0, s1) = match self.model {
            EloModel::Logistic => (score_from_elo(self.elo0), score_from_elo(self.elo1)),
            EloModel::Normalized => {
                // nElo = (s - 0.5) / sigma_game * 800 / ln 10, sigma_game = sqrt(2) * sigma_pair.
                let sigma = (2.0 * var).sqrt();
                let k = std::f64::consts::LN_10 / 800.0 * sigma;
                (0.5 + self.elo0 * k, 0.5 + self.elo1 * k)
            }
        };
        let sigma0 = var + (mean - s0).powi(2);
        let sigma1 = var + (mean - s1).powi(2);
        0.5 * n * (sigma0 / sigma1).ln()
    }

    /// Decision for the current counts. While every pair has ended 1-1
    /// there is no decision, whatever the LLR: two engines that play the
    /// same moves (the same program, or a change that never alters a move,
    /// at fixed nodes) split every pair, the variance is zero, and the LLR
    /// of a hypothesis at 50% grows without bound although the games say
    /// nothing about the change.
    pub fn state(&self, p: &Pentanomial) -> SprtState {
        if p.pairs() > 0 && p.0[2] == p.pairs() {
            return SprtState::Continue;
        }
        let llr = self.llr(p);
        let (lower, upper) = self.bounds();
        if llr >= upper {
            SprtState::AcceptH1
        } else if llr <= lower {
            SprtState::AcceptH0
        } else {
            SprtState::Continue
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elo_of_known_scores() {
        assert!((elo_from_score(0.5)).abs() < 1e-9);
        assert!((elo_from_score(0.75) - 190.848).abs() < 0.01);
        assert!((score_from_elo(elo_from_score(0.6)) - 0.6).abs() < 1e-9);
        assert!((erf(0.5) - 0.520_499_877_8).abs() < 1e-6);
    }

    #[test]
    fn intervals_shrink_with_games_and_contain_the_estimate() {
        let small = elo_trinomial(&Wdl {
            wins: 30,
            draws: 40,
            losses: 30,
        });
        let big = elo_trinomial(&Wdl {
            wins: 300,
            draws: 400,
            losses: 300,
        });
        assert!(small.low < 0.0 && small.high > 0.0);
        assert!(big.error() < small.error() / 3.0);
        let p = elo_pentanomial(&Pentanomial([5, 20, 50, 20, 5]));
        assert!(p.elo.abs() < 1e-9 && p.error() > 0.0);
    }

    #[test]
    fn sprt_decides_clear_cases() {
        let sprt = Sprt::logistic(0.0, 10.0);
        // Strongly better: accept H1.
        assert_eq!(
            sprt.state(&Pentanomial([10, 100, 400, 300, 190])),
            SprtState::AcceptH1
        );
        // Clearly equal with many pairs: accept H0.
        assert_eq!(
            sprt.state(&Pentanomial([100, 800, 2000, 800, 100])),
            SprtState::AcceptH0
        );
        assert_eq!(
            sprt.state(&Pentanomial([1, 2, 3, 2, 1])),
            SprtState::Continue
        );
        // Two pairs won outright are not yet proof.
        assert_eq!(
            sprt.state(&Pentanomial([0, 0, 0, 0, 2])),
            SprtState::Continue
        );
        assert_eq!(
            sprt.state(&Pentanomial([0, 0, 0, 0, 120])),
            SprtState::AcceptH1
        );
        // Close to the hypotheses the two approximations agree.
        let p = Pentanomial([20, 200, 500, 220, 30]);
        let (s0, s1) = (score_from_elo(0.0), score_from_elo(10.0));
        let (mean, var, n) = mean_var(&penta_samples(&p));
        let classic = n * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * var);
        assert!((sprt.llr(&p) - classic).abs() < 0.01 * classic.abs());
        let n = Sprt {
            model: EloModel::Normalized,
            ..sprt
        };
        assert_eq!(
            n.state(&Pentanomial([10, 100, 400, 300, 190])),
            SprtState::AcceptH1
        );
        // Identical play: every pair 1-1 decides nothing, however many.
        let nonreg = Sprt::logistic(-10.0, 0.0);
        assert!(nonreg.llr(&Pentanomial([0, 0, 500, 0, 0])) > 2.95);
        assert_eq!(
            nonreg.state(&Pentanomial([0, 0, 500, 0, 0])),
            SprtState::Continue
        );
        let (lo, hi) = sprt.bounds();
        assert!((lo + 2.944).abs() < 0.01 && (hi - 2.944).abs() < 0.01);
    }

    #[test]
    fn los_is_symmetric() {
        let a = Wdl {
            wins: 60,
            draws: 10,
            losses: 40,
        }
        .los();
        let b = Wdl {
            wins: 40,
            draws: 10,
            losses: 60,
        }
        .los();
        assert!((a + b - 1.0).abs() < 1e-9 && a > 0.9);
    }
}
