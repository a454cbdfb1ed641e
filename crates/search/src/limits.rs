//! Search limits and time management.
//!
//! [`Limits`] is what a protocol asks for (`wtime/btime/winc/binc/movestogo`,
//! `movetime`, `depth`, `nodes`, `infinite`); [`Clock`] turns it into a soft
//! limit (do not start another iteration after it) and a hard limit (stop in
//! the middle of one), with a safety margin for the protocol round trip
//! ([`Limits::move_overhead`], the protocols' `Move Overhead` option).
//!
//! On a clock the soft limit may also follow the search
//! (`SearchParams::tm_stability`, off by default): after each iteration
//! [`soft_limit_factor`], a pure function of how long the best move has held
//! and of the scores so far, scales it, as Stockfish's iterative deepening
//! scales its optimum time by best-move instability and a falling
//! evaluation. The hard limit never moves, and a scaled soft limit never
//! passes it; a `movetime` search keeps its fixed time.

use crate::params::SearchParams;
use crate::score::MATE_BOUND;
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
    /// The budget comes from a clock (not a fixed `movetime`), so the soft
    /// limit may be scaled.
    on_clock: bool,
}

impl Budget {
    /// The budget `limits` give `us` with the factors of `params`, counted
    /// from now.
    fn new(limits: &Limits, us: Color, params: &SearchParams) -> Budget {
        let (mut soft, mut hard, mut on_clock) = (None, None, false);
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
                    let reserve = limits
                        .move_overhead
                        .saturating_mul(params.reserve_overheads as u32);
                    let cap = permille(left.saturating_sub(reserve), params.cap_permille);
                    let soft_t = permille(base, params.soft_permille);
                    let hard_t = permille(base, params.hard_permille);
                    soft = Some(soft_t.min(cap).max(Duration::from_millis(1)));
                    hard = Some(hard_t.min(cap).max(Duration::from_millis(1)));
                    on_clock = true;
                }
            }
        }
        Budget {
            from: Instant::now(),
            soft,
            hard,
            on_clock,
        }
    }

    /// The soft limit scaled by `permille` (clock budgets only), never past
    /// the hard limit.
    fn scaled_soft(&self, permille: u32) -> Option<Duration> {
        let soft = self.soft?;
        if !self.on_clock || permille == 1000 {
            return Some(soft);
        }
        let scaled = soft.saturating_mul(permille) / 1000;
        Some(self.hard.map_or(scaled, |h| scaled.min(h)))
    }
}

/// The factor, in permille, that the soft limit is scaled by after an
/// iteration (with `tm_stability`; 1000 without): the best move's stability
/// (`stable_iterations`, how many completed iterations in a row it stayed
/// the same: 0 when the last one changed it) from `tm_unstable_permille`
/// down to `tm_stable_permille`, times the score's fall over `scores` (the
/// completed iterations' scores, oldest first): `1000 +
/// tm_score_drop_permille` per centipawn of a third of (twice the last
/// score's drop from the mean of the scores before it + its drop from the
/// one before it), within
/// `tm_score_min_permille..=tm_score_max_permille`. A mate score among them
/// leaves the score's part at 1000 (its distance is no trend).
pub fn soft_limit_factor(params: &SearchParams, stable_iterations: u32, scores: &[i32]) -> u32 {
    if params.tm_stability == 0 {
        return 1000;
    }
    let full = params.tm_stable_iterations.max(1) as i64;
    let held = (stable_iterations as i64).min(full);
    let (unstable, stable) = (
        params.tm_unstable_permille as i64,
        params.tm_stable_permille as i64,
    );
    let stability = unstable + (stable - unstable) * held / full;
    let falling = match scores {
        [before @ .., last]
            if !before.is_empty() && scores.iter().all(|s| s.abs() <= MATE_BOUND) =>
        {
            let mean = before.iter().map(|&s| s as i64).sum::<i64>() / before.len() as i64;
            let previous = before[before.len() - 1] as i64;
            let last = *last as i64;
            let drop = (2 * (mean - last) + (previous - last)) / 3;
            (1000 + params.tm_score_drop_permille as i64 * drop).clamp(
                params.tm_score_min_permille as i64,
                params.tm_score_max_permille as i64,
            )
        }
        _ => 1000,
    };
    (stability * falling / 1000).max(1) as u32
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
        self.past_scaled_soft_limit(1000)
    }

    /// `true` once no new iteration should start, with the soft limit of a
    /// clock budget scaled by `permille` ([`soft_limit_factor`]; at most the
    /// hard limit; a `movetime` budget is not scaled).
    pub fn past_scaled_soft_limit(&self, permille: u32) -> bool {
        self.budget.get().is_some_and(|b| {
            b.scaled_soft(permille)
                .is_some_and(|s| b.from.elapsed() >= s)
        })
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
        // 3 s / 30 moves, times 3; with a large overhead, the cap (2/5 of
        // what is left after it and the reserve of five more) binds first.
        assert_eq!(clock(0), Duration::from_millis(300));
        assert_eq!(clock(400), Duration::from_millis((3000 - 6 * 400) * 2 / 5));
        assert_eq!(clock(500), Duration::from_millis(1));
        assert_eq!(clock(5000), Duration::from_millis(1));
    }

    #[test]
    fn a_bank_played_down_to_the_increment_keeps_its_reserve() {
        let on = |bank: u64, reserve_overheads: i32| {
            let l = Limits {
                wtime: Some(Duration::from_millis(bank)),
                winc: Duration::from_millis(10),
                ..Limits::default()
            };
            let params = SearchParams {
                reserve_overheads,
                ..SearchParams::default()
            };
            Clock::start(&l, Color::White, 1, &params).hard().unwrap()
        };
        // 1+0.01 with the default 15 ms overhead: a bank of 90 ms (the
        // overhead and the reserve of five more) or less plays at the
        // minimum, so each move costs less than the increment brings in.
        // Without the reserve a 40 ms bank spent 10 ms, plus the reply's
        // lag: the bank drained to a few milliseconds.
        for bank in [20, 40, 60, 90] {
            assert_eq!(on(bank, 5), Duration::from_millis(1), "bank {bank} ms");
        }
        assert_eq!(on(40, 0), Duration::from_millis(10));
        // Above it the cap grows with the bank again.
        assert_eq!(on(140, 5), Duration::from_millis(20));
        // A healthy bank budgets as without the reserve.
        for bank in [1000, 5000, 60_000] {
            assert_eq!(on(bank, 5), on(bank, 0), "bank {bank} ms");
        }
    }

    fn stability_on() -> SearchParams {
        SearchParams {
            tm_stability: 1,
            ..SearchParams::default()
        }
    }

    #[test]
    fn the_soft_limit_factor_follows_stability_and_a_falling_score() {
        let p = stability_on();
        // Off: always 1000, whatever the search did.
        assert_eq!(
            soft_limit_factor(&SearchParams::default(), 0, &[0, -300]),
            1000
        );
        // A flat score: stability alone, 1800 down to 700 over 4 iterations.
        let flat = [20, 20, 20];
        let by_stability: Vec<u32> = (0..6).map(|n| soft_limit_factor(&p, n, &flat)).collect();
        assert_eq!(by_stability, [1800, 1525, 1250, 975, 700, 700]);
        // One score or none: no trend.
        assert_eq!(soft_limit_factor(&p, 4, &[]), 700);
        assert_eq!(soft_limit_factor(&p, 4, &[-500]), 700);
        // Falling 30 cp against the last and the mean: 1000 + 10 * 30.
        assert_eq!(soft_limit_factor(&p, 4, &[50, 50, 20]), 700 * 1300 / 1000);
        // The fall counts twice against the mean: mean 80, previous 20.
        // drop = (2 * (80 - 20) + (20 - 20)) / 3 = 40.
        assert_eq!(soft_limit_factor(&p, 4, &[140, 20, 20]), 700 * 1400 / 1000);
        // Bounded both ways.
        assert_eq!(soft_limit_factor(&p, 4, &[300, 0]), 700 * 1600 / 1000);
        assert_eq!(soft_limit_factor(&p, 4, &[0, 300]), 700 * 750 / 1000);
        // A mate score: no trend.
        let mate = crate::score::MATE - 5;
        assert_eq!(soft_limit_factor(&p, 0, &[mate, 0]), 1800);
    }

    #[test]
    fn a_scaled_soft_limit_stays_within_the_hard_limit_and_off_movetime() {
        let clock = Limits {
            wtime: Some(Duration::from_millis(60_000)),
            move_overhead: Duration::ZERO,
            ..Limits::default()
        };
        let c = Clock::start(&clock, Color::White, 1, &stability_on());
        let budget = c.budget.get().expect("started");
        // 60 s / 30 moves = 2 s base: soft 1.2 s, hard 6 s.
        assert_eq!(c.soft(), Some(Duration::from_millis(1200)));
        assert_eq!(budget.scaled_soft(1000), c.soft());
        assert_eq!(budget.scaled_soft(500), Some(Duration::from_millis(600)));
        assert_eq!(budget.scaled_soft(2000), Some(Duration::from_millis(2400)));
        assert_eq!(
            budget.scaled_soft(9000),
            c.hard(),
            "never past the hard limit"
        );
        let fixed = Clock::start(
            &Limits::movetime(Duration::from_millis(500)),
            Color::White,
            1,
            &stability_on(),
        );
        let budget = fixed.budget.get().expect("started");
        assert_eq!(
            budget.scaled_soft(500),
            fixed.soft(),
            "movetime is not scaled"
        );
    }

    #[test]
    fn a_search_with_a_scaled_soft_limit_stops_by_the_hard_limit() {
        use crate::alphabeta::Shared;
        use crate::evaluator::Evaluator;
        use movegen::variants::Chess;
        use movegen::{Position, Variant};
        // 3 s on the clock: 100 ms a move, soft limit 60 ms, hard 300 ms.
        // Scaled ten times the soft limit would be 600 ms: it stops at the
        // hard limit instead, which no iteration passes.
        let settings = SearchParams {
            tm_unstable_permille: 10000,
            tm_stable_permille: 10000,
            ..stability_on()
        };
        let limits = Limits {
            wtime: Some(Duration::from_millis(3000)),
            move_overhead: Duration::ZERO,
            ..Limits::default()
        };
        let hard = Clock::start(&limits, Color::White, 1, &settings).hard();
        assert_eq!(hard, Some(Duration::from_millis(300)));
        let pos = Position::<Chess>::startpos();
        let evaluator = Evaluator::default_for(<Chess>::KIND);
        let shared = Shared::new(16);
        let started = Instant::now();
        let result = crate::search(
            &pos,
            &[],
            &limits,
            &evaluator,
            &settings,
            &shared,
            1,
            &mut |_| {},
        );
        let took = started.elapsed();
        assert!(result.best.is_some());
        // The scaled soft limit is the hard one, so the search ends only
        // there; the node batch that notices it and the unwinding take a
        // little longer (on a loaded machine more).
        assert!(
            took >= Duration::from_millis(300),
            "stopped early: {took:?}"
        );
        assert!(took < Duration::from_millis(300 + 800), "took {took:?}");
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
