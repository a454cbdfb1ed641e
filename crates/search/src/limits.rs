//! Search limits and time management.
//!
//! [`Limits`] is what a protocol asks for (`wtime/btime/winc/binc/movestogo`,
//! `movetime`, `depth`, `nodes`, `infinite`); [`Clock`] turns it into a soft
//! limit (do not start another iteration after it) and a hard limit (stop in
//! the middle of one), with a safety margin for the protocol round trip. The
//! budget's factors (moves to go, increment share, soft and hard fractions,
//! cap) are [`SearchParams`] fields, so they can be tuned with the rest.

use crate::params::SearchParams;
use movegen::Color;
use std::time::{Duration, Instant};

/// What the search may spend.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Maximum depth in plies.
    pub depth: Option<u32>,
    /// Maximum nodes (all threads together).
    pub nodes: Option<u64>,
    /// Exact time for this move.
    pub movetime: Option<Duration>,
    /// White's remaining time.
    pub wtime: Option<Duration>,
    /// Black's remaining time.
    pub btime: Option<Duration>,
    /// White's increment.
    pub winc: Duration,
    /// Black's increment.
    pub binc: Duration,
    /// Moves until the next time control.
    pub movestogo: Option<u32>,
    /// Search until told to stop.
    pub infinite: bool,
}

impl Limits {
    /// A fixed-depth search.
    pub fn depth(d: u32) -> Limits {
        Limits {
            depth: Some(d),
            ..Limits::default()
        }
    }

    /// A fixed-node search.
    pub fn nodes(n: u64) -> Limits {
        Limits {
            nodes: Some(n),
            ..Limits::default()
        }
    }

    /// A fixed time per move.
    pub fn movetime(t: Duration) -> Limits {
        Limits {
            movetime: Some(t),
            ..Limits::default()
        }
    }
}

/// Time reserved for the protocol round trip and process scheduling.
pub const MOVE_OVERHEAD: Duration = Duration::from_millis(15);

/// The running clock of one search.
#[derive(Debug)]
pub struct Clock {
    start: Instant,
    soft: Option<Duration>,
    hard: Option<Duration>,
    /// Node limit, if any.
    pub node_limit: Option<u64>,
    /// Number of threads (node limits count all of them).
    pub threads: usize,
}

impl Clock {
    /// Starts the clock for `limits` with `us` to move, budgeting time with
    /// the factors of `params`.
    pub fn start(limits: &Limits, us: Color, threads: usize, params: &SearchParams) -> Clock {
        let (mut soft, mut hard) = (None, None);
        if !limits.infinite {
            if let Some(t) = limits.movetime {
                let t = t
                    .saturating_sub(MOVE_OVERHEAD)
                    .max(Duration::from_millis(1));
                soft = Some(t);
                hard = Some(t);
            } else {
                let (time, inc) = match us {
                    Color::White => (limits.wtime, limits.winc),
                    Color::Black => (limits.btime, limits.binc),
                };
                if let Some(time) = time {
                    let left = time.saturating_sub(MOVE_OVERHEAD);
                    let permille = |d: Duration, p: i32| d.saturating_mul(p as u32) / 1000;
                    let mtg = limits
                        .movestogo
                        .unwrap_or(params.moves_to_go_default as u32)
                        .clamp(1, params.moves_to_go_max as u32);
                    let base = left / mtg + permille(inc, params.increment_permille);
                    let cap = permille(left, params.cap_permille);
                    let soft_t = permille(base, params.soft_permille);
                    let hard_t = permille(base, params.hard_permille);
                    soft = Some(soft_t.min(cap).max(Duration::from_millis(1)));
                    hard = Some(hard_t.min(cap).max(Duration::from_millis(1)));
                }
            }
        }
        Clock {
            start: Instant::now(),
            soft,
            hard,
            node_limit: limits.nodes,
            threads,
        }
    }

    /// Time since the start.
    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// `true` if there is a time limit at all.
    pub fn has_time_limit(&self) -> bool {
        self.hard.is_some()
    }

    /// `true` once no new iteration should start.
    pub fn past_soft_limit(&self) -> bool {
        self.soft.is_some_and(|s| self.elapsed() >= s)
    }

    /// `true` once the search must stop.
    pub fn past_hard_limit(&self) -> bool {
        self.hard.is_some_and(|h| self.elapsed() >= h)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn budgets_stay_inside_the_clock() {
        let l = Limits {
            wtime: Some(Duration::from_millis(2000)),
            winc: Duration::from_millis(20),
            ..Limits::default()
        };
        let c = Clock::start(&l, Color::White, 1, &SearchParams::default());
        assert!(c.hard.unwrap() <= Duration::from_millis(800));
        assert!(c.soft.unwrap() < c.hard.unwrap());
        let c = Clock::start(&Limits::depth(5), Color::Black, 1, &SearchParams::default());
        assert!(!c.has_time_limit());
        let tiny = Limits {
            btime: Some(Duration::from_millis(5)),
            ..Limits::default()
        };
        assert!(
            Clock::start(&tiny, Color::Black, 1, &SearchParams::default())
                .hard
                .unwrap()
                >= Duration::from_millis(1)
        );
    }
}
