//! Search limits and time management.
//!
//! [`Limits`] is what a protocol asks for (`wtime/btime/winc/binc/movestogo`,
//! `movetime`, `depth`, `nodes`, `infinite`); [`Clock`] turns it into a soft
//! limit (do not start another iteration after it) and a hard limit (stop in
//! the middle of one), with a safety margin for the protocol round trip
//! ([`Limits::move_overhead`], the protocols' `Move Overhead` option).

use crate::params::SearchParams;
use movegen::Color;
use std::sync::OnceLock;
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
///
/// A pondering search (UCI `go ponder`, CECP pondering) has no budget until
/// [`Clock::ponderhit`]: it searches as if infinite, and its budget is then
/// counted from the hit, on the real clock.
#[derive(Debug)]
pub struct Clock {
    start: Instant,
    us: Color,
    /// The time budget, set at the start or at the ponder hit.
    budget: OnceLock<Budget>,
    /// Depth limit, if any.
    pub depth_limit: Option<u32>,
    /// Node limit, if any.
    pub node_limit: Option<u64>,
    /// Number of threads (node limits count all of them).
    pub threads: usize,
    /// The search settings whose time-management factors make the budget.
    params: SearchParams,
}

/// A time budget: soft and hard limits counted from `from`.
#[derive(Debug)]
struct Budget {
    from: Instant,
    soft: Option<Duration>,
    hard: Option<Duration>,
}

impl Budget {
    /// The budget `limits` give `us` with the factors of `params`, counted
    /// from now.
    fn new(limits: &Limits, us: Color, params: &SearchParams) -> Budget {
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
        Budget {
            from: Instant::now(),
            soft,
            hard,
        }
    }
}

impl Clock {
    /// Starts the clock for `limits` with `us` to move, budgeting time with
    /// the factors of `params`.
    pub fn start(limits: &Limits, us: Color, threads: usize, params: &SearchParams) -> Clock {
        let clock = Clock::pondering(limits, us, threads, params);
        clock.ponderhit(limits);
        clock
    }

    /// Starts the clock of a pondering search: the depth and node limits of
    /// `limits` hold, the time budget waits for [`Clock::ponderhit`].
    pub fn pondering(limits: &Limits, us: Color, threads: usize, params: &SearchParams) -> Clock {
        Clock {
            start: Instant::now(),
            us,
            budget: OnceLock::new(),
            depth_limit: limits.depth,
            node_limit: limits.nodes,
            threads,
            params: params.clone(),
        }
    }

    /// The ponder move was played: the time budget of `limits` starts now.
    /// Only the first call counts.
    pub fn ponderhit(&self, limits: &Limits) {
        let _ = self.budget.set(Budget::new(limits, self.us, &self.params));
    }

    /// `true` while the search ponders (no [`Clock::ponderhit`] yet).
    pub fn is_pondering(&self) -> bool {
        self.budget.get().is_none()
    }

    /// Time since the start.
    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// `true` if there is a time limit in force.
    pub fn has_time_limit(&self) -> bool {
        self.budget.get().is_some_and(|b| b.hard.is_some())
    }

    /// `true` once no new iteration should start.
    pub fn past_soft_limit(&self) -> bool {
        self.budget
            .get()
            .is_some_and(|b| b.soft.is_some_and(|s| b.from.elapsed() >= s))
    }

    /// `true` once the search must stop.
    pub fn past_hard_limit(&self) -> bool {
        self.budget
            .get()
            .is_some_and(|b| b.hard.is_some_and(|h| b.from.elapsed() >= h))
    }

    /// The hard limit in force, if any.
    #[cfg(test)]
    fn hard(&self) -> Option<Duration> {
        self.budget.get().and_then(|b| b.hard)
    }

    /// The soft limit in force, if any.
    #[cfg(test)]
    fn soft(&self) -> Option<Duration> {
        self.budget.get().and_then(|b| b.soft)
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
        assert!(c.hard().unwrap() <= Duration::from_millis(800));
        assert!(c.soft().unwrap() < c.hard().unwrap());
        let c = Clock::start(&Limits::depth(5), Color::Black, 1, &SearchParams::default());
        assert!(!c.has_time_limit());
        let tiny = Limits {
            btime: Some(Duration::from_millis(5)),
            ..Limits::default()
        };
        assert!(
            Clock::start(&tiny, Color::Black, 1, &SearchParams::default())
                .hard()
                .unwrap()
                >= Duration::from_millis(1)
        );
    }

    #[test]
    fn move_overhead_comes_off_every_budget() {
        let movetime = Limits::movetime(Duration::from_millis(1000));
        assert_eq!(movetime.move_overhead, DEFAULT_MOVE_OVERHEAD);
        let c = Clock::start(&movetime, Color::White, 1, &SearchParams::default());
        assert_eq!(c.hard(), Some(Duration::from_millis(985)));
        let c = Clock::start(
            &Limits {
                move_overhead: Duration::from_millis(300),
                ..movetime
            },
            Color::White,
            1,
            &SearchParams::default(),
        );
        assert_eq!(c.hard(), Some(Duration::from_millis(700)));
        let clock = |overhead: u64| {
            let l = Limits {
                btime: Some(Duration::from_millis(3000)),
                move_overhead: Duration::from_millis(overhead),
                ..Limits::default()
            };
            Clock::start(&l, Color::Black, 1, &SearchParams::default())
                .hard()
                .unwrap()
        };
        // 2/5 of what is left after the overhead.
        assert_eq!(clock(0), Duration::from_millis(300));
        assert_eq!(clock(1500), Duration::from_millis(150));
        assert_eq!(clock(5000), Duration::from_millis(1));
    }

    #[test]
    fn a_pondering_clock_has_no_budget_until_the_hit() {
        let l = Limits {
            depth: Some(7),
            movetime: Some(Duration::from_millis(50)),
            ..Limits::default()
        };
        let c = Clock::pondering(&l, Color::White, 1, &SearchParams::default());
        assert!(c.is_pondering() && !c.has_time_limit());
        std::thread::sleep(Duration::from_millis(60));
        assert!(!c.past_soft_limit() && !c.past_hard_limit());
        assert_eq!(c.depth_limit, Some(7));
        // Counted from the hit, not from the start.
        c.ponderhit(&l);
        assert!(!c.is_pondering() && c.has_time_limit());
        assert_eq!(c.hard(), Some(Duration::from_millis(35)));
        assert!(!c.past_hard_limit());
        // A second hit changes nothing.
        c.ponderhit(&Limits::default());
        assert_eq!(c.hard(), Some(Duration::from_millis(35)));
    }
}
