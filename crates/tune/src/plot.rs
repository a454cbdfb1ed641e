//! SVG plots of a trace, written by hand: the metric (loss or result) over
//! iterations on top, every weight over iterations below (one polyline per
//! weight; a legend names up to 24 of them). With many weights they are
//! drawn relative to their starting value so the changes stay visible. The
//! drawing itself (page, panels, polylines, legend rows) is
//! [`arena::chart`], shared with the match plots; this module only lays the
//! trace out on it.

use crate::trace::Trace;
use crate::{Error, Result};
use arena::chart::{self, Panel, COLORS, GAP, PANEL_HEIGHT as PANEL_H, RIGHT, TOP, WIDTH as W};
use std::path::Path;

/// The SVG text of a plot of `trace` titled `title`.
pub fn svg(trace: &Trace, title: &str) -> String {
    let rows = &trace.rows;
    let (xmin, xmax) = if rows.is_empty() {
        (0.0, 1.0)
    } else {
        (
            rows[0].iteration as f64,
            (rows[rows.len() - 1].iteration as f64).max(rows[0].iteration as f64 + 1.0),
        )
    };
    let relative = trace.names.len() > 12;
    let h = TOP + 2.0 * PANEL_H + GAP + 40.0;
    let mut s = String::new();
    chart::begin_page(&mut s, h, title);
    // Metric panel (a running mean of 20 rows for noisy SPSA results).
    let smooth = trace.metric != "loss";
    let metric: Vec<(f64, f64)> = if smooth {
        let mut out = Vec::new();
        let mut window: std::collections::VecDeque<f64> = Default::default();
        for r in rows.iter().skip(1) {
            window.push_back(r.metric);
            if window.len() > 20 {
                window.pop_front();
            }
            out.push((
                r.iteration as f64,
                window.iter().sum::<f64>() / window.len() as f64,
            ));
        }
        out
    } else {
        rows.iter()
            .map(|r| (r.iteration as f64, r.metric))
            .collect()
    };
    let top = Panel::fitting(TOP + 20.0, xmin, xmax, metric.iter().map(|p| p.1));
    let label = if smooth {
        format!("{} (mean of 20)", trace.metric)
    } else {
        trace.metric.clone()
    };
    top.frame(&mut s, &label, &trace.metric);
    top.line(&mut s, &metric, "#d62728");
    // Weights panel.
    let series: Vec<Vec<(f64, f64)>> = (0..trace.names.len())
        .map(|j| {
            let base = if relative {
                rows.first().map(|r| r.values[j]).unwrap_or(0.0)
            } else {
                0.0
            };
            rows.iter()
                .map(|r| (r.iteration as f64, r.values[j] - base))
                .collect()
        })
        .collect();
    let bottom = Panel::fitting(
        top.y0 + PANEL_H + GAP,
        xmin,
        xmax,
        series.iter().flatten().map(|p| p.1),
    );
    bottom.frame(
        &mut s,
        if relative {
            "weights (change from start)"
        } else {
            "weights"
        },
        "value",
    );
    for (j, pts) in series.iter().enumerate() {
        bottom.line(&mut s, pts, COLORS[j % COLORS.len()]);
    }
    for (j, name) in trace.names.iter().enumerate().take(24) {
        let y = bottom.y0 + 10.0 + j as f64 * 14.0;
        let x = W - RIGHT + 10.0;
        let last = rows.last().map(|r| r.values[j]).unwrap_or(0.0);
        chart::legend_entry(
            &mut s,
            x,
            y,
            COLORS[j % COLORS.len()],
            &format!("{name} {}", chart::number_label(last)),
        );
    }
    if trace.names.len() > 24 {
        chart::text(
            &mut s,
            W - RIGHT + 10.0,
            bottom.y0 + 10.0 + 24.0 * 14.0,
            &format!("... {} more", trace.names.len() - 24),
        );
    }
    chart::end_page(&mut s);
    s
}

/// Writes the plot of `trace` to `path`.
pub fn write(trace: &Trace, title: &str, path: &Path) -> Result<()> {
    std::fs::write(path, svg(trace, title)).map_err(Error::io(path.display()))
}
