//! Search limits and time management.
//!
//! [`Limits`] is what a protocol asks for (`wtime/btime/winc/binc/movestogo`,
//! `movetime`, `depth`, `nodes`, `infinite`); [`Clock`] turns it into a soft
//! limit (do not start another iteration after it) and a hard limit (stop in
//! the middle of one), with a safety margin for the protocol round trip
//! ([`Limits::move_overhead`], the protocols' `Move Overhead` option).

use movegen::Color;
use std::time::{Duration, Instant};

/// What the search may spend.
#[derive(Clone, Debug, PartialEq, Eq)]
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
    /// Time kept back from every clock budget for the protocol round trip
    /// and process scheduling ([`DEFAULT_MOVE_OVERHEAD`] unless set).
    pub move_overhead: Duration,
}

impl Default for Limits {
    /// No limit at all, with the default move overhead.
    fn default() -> Limits {
        Limits {
            depth: None,
            nodes: None,
            movetime: None,
            wtime: None,
            btime: None,
            winc: Duration::ZERO,
            binc: Duration::ZERO,
            movestogo: None,
            infinite: false,
            move_overhead: DEFAULT_MOVE_OVERHEAD,
        }
    }
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

/// Time reserved for the protocol round trip and process scheduling when
/// nothing else is set.
pub const DEFAULT_MOVE_OVERHEAD: Duration = Duration::from_millis(15);
/// Largest move overhead the protocols accept.
pub const MAX_MOVE_OVERHEAD: Duration = Duration::from_millis(5000);

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
    /// Starts the clock for `limits` with `us` to move.
    pub fn start(limits: &Limits, us: Color, threads: usize) -> Clock {
        let (mut soft, mut hard) = (None, None);
        if !limits.infinite {
            if let Some(t) = limits.movetime {
                let t = t
                    .saturating_sub(limits.move_overhead)
                    .max(Duration::from_millis(1));
                soft = Some(t);
                hard = Some(t);
            } else {
                let (time, inc) = match us {
                    Color::White => (limits.wtime, limits.winc),
                    Color::Black => (limits.btime, limits.binc),
                };
                if let Some(time) = time {
                    let left = time.saturating_sub(limits.move_overhead);
                    let mtg = limits.movestogo.unwrap_or(30).clamp(1, 50);
                    let base = left / mtg + inc * 3 / 4;
                    let cap = left * 2 / 5;
                    soft = Some((base * 6 / 10).min(cap).max(Duration::from_millis(1)));
                    hard = Some((base * 3).min(cap).max(Duration::from_millis(1)));
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
        let c = Clock::start(&l, Color::White, 1);
        assert!(c.hard.unwrap() <= Duration::from_millis(800));
        assert!(c.soft.unwrap() < c.hard.unwrap());
        let c = Clock::start(&Limits::depth(5), Color::Black, 1);
        assert!(!c.has_time_limit());
        let tiny = Limits {
            btime: Some(Duration::from_millis(5)),
            ..Limits::default()
        };
        assert!(Clock::start(&tiny, Color::Black, 1).hard.unwrap() >= Duration::from_millis(1));
    }

    #[test]
    fn move_overhead_comes_off_every_budget() {
        let movetime = Limits::movetime(Duration::from_millis(1000));
        assert_eq!(movetime.move_overhead, DEFAULT_MOVE_OVERHEAD);
        let c = Clock::start(&movetime, Color::White, 1);
        assert_eq!(c.hard, Some(Duration::from_millis(985)));
        let c = Clock::start(
            &Limits {
                move_overhead: Duration::from_millis(300),
                ..movetime
            },
            Color::White,
            1,
        );
        assert_eq!(c.hard, Some(Duration::from_millis(700)));
        let clock = |overhead: u64| {
            let l = Limits {
                btime: Some(Duration::from_millis(3000)),
                move_overhead: Duration::from_millis(overhead),
                ..Limits::default()
            };
            Clock::start(&l, Color::Black, 1).hard.unwrap()
        };
        // 2/5 of what is left after the overhead.
        assert_eq!(clock(0), Duration::from_millis(300));
        assert_eq!(clock(1500), Duration::from_millis(150));
        assert_eq!(clock(5000), Duration::from_millis(1));
    }
}
