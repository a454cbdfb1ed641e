//! A progress bar on stderr that appears only once a run has lasted a
//! second, and never when disabled (`--quiet`, stderr not a terminal).
//!
//! The bar advances in work units (subtasks of a perft, or expected nodes of
//! a suite) for the ETA, and separately counts the nodes actually done for
//! the nodes/s rate.

use super::report::human_rate;
use indicatif::{ProgressBar, ProgressState};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// How long a run goes before its bar is drawn.
const SHOW_AFTER: Duration = Duration::from_secs(1);

/// What the bar counts, shown after it.
#[derive(Clone, Copy, Debug)]
pub enum Units {
    /// `12/400 tasks`.
    Tasks,
    /// `37%`.
    Percent,
}

/// A progress bar that is safe to tick from worker threads.
pub struct Progress {
    bar: Option<ProgressBar>,
    nodes: Arc<AtomicU64>,
    start: Instant,
    shown: AtomicBool,
}

impl Progress {
    /// A bar over `len` units (the length may be set later), drawn only if
    /// `enabled` and the run passes a second.
    pub fn new(enabled: bool, len: u64, units: Units, message: String) -> Progress {
        let nodes = Arc::new(AtomicU64::new(0));
        let bar = enabled.then(|| {
            let counter = match units {
                Units::Tasks => "{pos}/{len} tasks",
                Units::Percent => "{percent:>3}%",
            };
            let template = format!(
                "{{msg}} [{{elapsed_precise}}] {{wide_bar}} {counter} {{rate}}, ETA {{eta}}"
            );
            let done = Arc::clone(&nodes);
            let style = crate::resources::progress_style(&template).with_key(
                "rate",
                move |state: &ProgressState, w: &mut dyn std::fmt::Write| {
                    let seconds = state.elapsed().as_secs_f64();
                    let n = done.load(Ordering::Relaxed);
                    let rate = if seconds > 0.0 {
                        n as f64 / seconds
                    } else {
                        0.0
                    };
                    let _ = write!(w, "{} nodes/s", human_rate(rate));
                },
            );
            crate::resources::progress_bar(false, len, style).with_message(message)
        });
        Progress {
            bar,
            nodes,
            start: Instant::now(),
            shown: AtomicBool::new(false),
        }
    }

    /// A bar that never draws.
    pub fn hidden() -> Progress {
        Progress::new(false, 0, Units::Tasks, String::new())
    }

    /// Sets the total number of units.
    pub fn set_length(&self, len: u64) {
        if let Some(bar) = &self.bar {
            bar.set_length(len);
        }
    }

    /// Replaces the message before the bar.
    pub fn set_message(&self, message: String) {
        if let Some(bar) = &self.bar {
            bar.set_message(message);
        }
    }

    /// Adds `units` finished units that counted `nodes` nodes, and draws the
    /// bar from now on if the run has lasted more than a second.
    pub fn inc(&self, units: u64, nodes: u64) {
        let Some(bar) = &self.bar else { return };
        self.nodes.fetch_add(nodes, Ordering::Relaxed);
        bar.inc(units);
        if !self.shown.load(Ordering::Relaxed)
            && self.start.elapsed() >= SHOW_AFTER
            && !self.shown.swap(true, Ordering::Relaxed)
        {
            crate::resources::draw_progress(bar);
            bar.enable_steady_tick(Duration::from_millis(200));
        }
    }

    /// Removes the bar (if drawn) before results are printed.
    pub fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        self.finish();
    }
}
