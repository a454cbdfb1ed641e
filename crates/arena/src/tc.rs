//! Per-move limits of a match: a time control with increment (cutechess
//! syntax `[moves/]seconds[+increment]`, e.g. `40/60+0.6`, `10+0.1`), a fixed
//! number of nodes, a fixed depth, or a fixed time per move (`st`).

use std::time::Duration;

/// A time control.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeControl {
    /// Moves per period (`None`: the whole game).
    pub moves: Option<u32>,
    /// Time per period.
    pub base: Duration,
    /// Increment per move.
    pub increment: Duration,
}

impl TimeControl {
    /// Parses `[moves/]seconds[+increment]`.
    pub fn parse(s: &str) -> Option<TimeControl> {
        let (moves, rest) = match s.split_once('/') {
            Some((m, r)) => (Some(m.parse::<u32>().ok().filter(|&m| m > 0)?), r),
            None => (None, s),
        };
        let (base, inc) = match rest.split_once('+') {
            Some((b, i)) => (b, Some(i)),
            None => (rest, None),
        };
        let secs = |t: &str| -> Option<Duration> {
            let v: f64 = t.parse().ok()?;
            (v.is_finite() && v >= 0.0).then(|| Duration::from_secs_f64(v))
        };
        let base = secs(base)?;
        if base.is_zero() {
            return None;
        }
        Some(TimeControl {
            moves,
            base,
            increment: match inc {
                Some(i) => secs(i)?,
                None => Duration::ZERO,
            },
        })
    }
}

/// What limits each move of a player.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MoveLimits {
    /// Clock with increment.
    pub tc: Option<TimeControl>,
    /// Nodes per move.
    pub nodes: Option<u64>,
    /// Depth per move.
    pub depth: Option<u32>,
    /// Fixed time per move.
    pub movetime: Option<Duration>,
}

impl MoveLimits {
    /// `true` if no limit is set (a match needs at least one).
    pub fn is_empty(&self) -> bool {
        self.tc.is_none() && self.nodes.is_none() && self.depth.is_none() && self.movetime.is_none()
    }
}

/// A player's clock during a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clock {
    /// Time left.
    pub left: Duration,
    /// Moves left in this period.
    pub moves_to_go: Option<u32>,
}

impl Clock {
    /// A fresh clock for `tc`.
    pub fn new(tc: &TimeControl) -> Clock {
        Clock {
            left: tc.base,
            moves_to_go: tc.moves,
        }
    }

    /// Charges `used` for a move; `false` if the flag fell (beyond `margin`).
    pub fn charge(&mut self, tc: &TimeControl, used: Duration, margin: Duration) -> bool {
        if used > self.left + margin {
            self.left = Duration::ZERO;
            return false;
        }
        self.left = self.left.saturating_sub(used) + tc.increment;
        if let Some(m) = self.moves_to_go.as_mut() {
            *m -= 1;
            if *m == 0 {
                self.left += tc.base;
                *m = tc.moves.unwrap_or(1);
            }
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_cutechess_syntax() {
        let tc = TimeControl::parse("40/60+0.6").unwrap();
        assert_eq!(tc.moves, Some(40));
        assert_eq!(tc.base, Duration::from_secs(60));
        assert_eq!(tc.increment, Duration::from_millis(600));
        assert_eq!(
            TimeControl::parse("2+0.02").unwrap().increment,
            Duration::from_millis(20)
        );
        assert_eq!(TimeControl::parse("10").unwrap().increment, Duration::ZERO);
        for bad in ["", "x", "0/10", "10+x", "-1", "0", "40/"] {
            assert!(TimeControl::parse(bad).is_none(), "{bad}");
        }
    }

    #[test]
    fn clock_adds_increment_and_flags() {
        let tc = TimeControl::parse("2/1+0.5").unwrap();
        let mut c = Clock::new(&tc);
        assert!(c.charge(&tc, Duration::from_millis(400), Duration::ZERO));
        assert_eq!(c.left, Duration::from_millis(1100));
        assert!(c.charge(&tc, Duration::from_millis(100), Duration::ZERO));
        // Second move of the period: a new period's base is added.
        assert_eq!(c.left, Duration::from_millis(2500));
        assert!(!c.charge(&tc, Duration::from_secs(3), Duration::ZERO));
    }
}
