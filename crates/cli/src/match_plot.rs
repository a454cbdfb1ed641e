//! `--plot FILE` of `varia match` and `varia match-merge`: the match's
//! [`arena::plot::MatchPlot`] written as SVG. During a match the file is
//! redrawn every few games (a hundredth of the schedule, at least every
//! pair) and at the end, each time whole: through
//! [`crate::output::write_output_file`], so a viewer never sees half a file
//! and a device or symlink is written through rather than replaced, as
//! every other output file. A redraw that fails does not stop the match;
//! the first failure is reported when it ends.

use arena::plot::MatchPlot;
use arena::results::GameRow;
use std::path::{Path, PathBuf};

/// A plot file kept up to date as games end.
pub struct LivePlot {
    path: PathBuf,
    title: String,
    plot: MatchPlot,
    drawn: usize,
    error: Option<anyhow::Error>,
}

impl LivePlot {
    /// A plot of `plot`'s games at `path`, titled `title`; draws it once
    /// now, so a path that cannot be written is an error before any game.
    pub fn start(path: &Path, title: String, plot: MatchPlot) -> anyhow::Result<LivePlot> {
        let live = LivePlot {
            path: path.to_path_buf(),
            title,
            drawn: plot.len(),
            plot,
            error: None,
        };
        write_plot(&live.path, &live.plot, &live.title)?;
        Ok(live)
    }

    /// Adds a finished game; redraws once at least a hundredth of the
    /// `total` games (and at least two) were added since the last drawing.
    pub fn add(&mut self, row: &GameRow, total: usize) {
        self.plot.add(row);
        if self.plot.len() - self.drawn >= (total / 100).max(2) {
            self.redraw();
        }
    }

    fn redraw(&mut self) {
        self.drawn = self.plot.len();
        if let Err(e) = write_plot(&self.path, &self.plot, &self.title) {
            self.error.get_or_insert(e);
        }
    }

    /// Draws the final plot; the first error of any drawing, if one failed.
    pub fn finish(mut self) -> anyhow::Result<()> {
        self.redraw();
        match self.error {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }
}

/// Writes the SVG of `plot` titled `title` to `path`.
pub fn write_plot(path: &Path, plot: &MatchPlot, title: &str) -> anyhow::Result<()> {
    let svg = plot.svg(title);
    crate::output::write_output_file(path, |w| Ok(w.write_all(svg.as_bytes())?))
}
