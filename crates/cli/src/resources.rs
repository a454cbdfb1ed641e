//! The command line's run settings in one place: resource options
//! (`--threads`, `--hash`) read with the bounds of [`search::settings`], so
//! every subcommand refuses the same values with the same one-line message
//! naming the option and "no `--threads`" means the same everywhere (one per
//! CPU) unless a subcommand documents a default of its own; and the progress
//! bars on stderr (shown only on a terminal and never with `--quiet`).

use anyhow::anyhow;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use search::settings;
use std::io::IsTerminal as _;

/// How often a progress bar redraws at most, per second.
const PROGRESS_HZ: u8 = 10;

/// A `--threads`-style count: `None` is one thread per CPU.
pub fn threads(flag: &str, asked: Option<usize>) -> anyhow::Result<usize> {
    match asked {
        None => Ok(settings::default_threads()),
        Some(n) => settings::check_threads(n as u64).map_err(|e| anyhow!("{flag}: {e}")),
    }
}

/// A `--hash`-style table size in megabytes.
pub fn hash_mb(flag: &str, mb: usize) -> anyhow::Result<usize> {
    settings::check_hash_mb(mb as u64).map_err(|e| anyhow!("{flag}: {e}"))
}

/// Whether progress bars are drawn: not with `--quiet`, and only when stderr
/// is a terminal.
pub fn show_progress(quiet: bool) -> bool {
    !quiet && std::io::stderr().is_terminal()
}

/// An indicatif style from `template` (the plain bar if the template is bad).
pub fn progress_style(template: &str) -> ProgressStyle {
    ProgressStyle::with_template(template).unwrap_or_else(|_| ProgressStyle::default_bar())
}

/// A progress bar over `len` units in `style`, drawn on stderr if `show`
/// (else hidden until [`draw_progress`]).
pub fn progress_bar(show: bool, len: u64, style: ProgressStyle) -> ProgressBar {
    let bar =
        ProgressBar::with_draw_target(Some(len), ProgressDrawTarget::hidden()).with_style(style);
    if show {
        draw_progress(&bar);
    }
    bar
}

/// Starts drawing `bar` on stderr.
pub fn draw_progress(bar: &ProgressBar) {
    bar.set_draw_target(ProgressDrawTarget::stderr_with_hz(PROGRESS_HZ));
}
