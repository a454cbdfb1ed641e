//! SVG plots of a trace, written by hand: the metric (loss or result) over
//! iterations on top, every weight over iterations below (one polyline per
//! weight; a legend names up to 24 of them). With many weights they are
//! drawn relative to their starting value so the changes stay visible.

use crate::trace::Trace;
use crate::{Error, Result};
use std::fmt::Write as _;
use std::path::Path;

const W: f64 = 900.0;
const PANEL_H: f64 = 300.0;
const LEFT: f64 = 70.0;
const RIGHT: f64 = 190.0;
const TOP: f64 = 40.0;
const GAP: f64 = 60.0;

const COLORS: [&str; 12] = [
    "#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f",
    "#bcbd22", "#17becf", "#000080", "#808000",
];

fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

fn nice(v: f64) -> String {
    if v == 0.0 {
        "0".into()
    } else if v.abs() >= 100.0 {
        format!("{v:.0}")
    } else if v.abs() >= 1.0 {
        format!("{v:.2}")
    } else {
        format!("{v:.4}")
    }
}

struct Panel {
    y0: f64,
    xmin: f64,
    xmax: f64,
    ymin: f64,
    ymax: f64,
}

impl Panel {
    fn x(&self, v: f64) -> f64 {
        LEFT + (v - self.xmin) / (self.xmax - self.xmin).max(1e-12) * (W - LEFT - RIGHT)
    }
    fn y(&self, v: f64) -> f64 {
        self.y0 + PANEL_H - (v - self.ymin) / (self.ymax - self.ymin).max(1e-12) * PANEL_H
    }
    fn frame(&self, s: &mut String, title: &str, ylabel: &str) {
        let (x0, x1) = (LEFT, W - RIGHT);
        let _ = writeln!(
            s,
            r##"<rect x="{x0}" y="{}" width="{}" height="{PANEL_H}" fill="none" stroke="#444"/>"##,
            self.y0,
            x1 - x0
        );
        let _ = writeln!(
            s,
            r#"<text x="{x0}" y="{}" font-size="14" font-weight="bold">{}</text>"#,
            self.y0 - 10.0,
            esc(title)
        );
        for i in 0..=4 {
            let f = i as f64 / 4.0;
            let yv = self.ymin + f * (self.ymax - self.ymin);
            let yy = self.y(yv);
            let _ = writeln!(
                s,
                r##"<line x1="{x0}" y1="{yy:.1}" x2="{x1}" y2="{yy:.1}" stroke="#ddd"/><text x="{}" y="{:.1}" font-size="11" text-anchor="end">{}</text>"##,
                x0 - 4.0,
                yy + 4.0,
                nice(yv)
            );
            let xv = self.xmin + f * (self.xmax - self.xmin);
            let xx = self.x(xv);
            let _ = writeln!(
                s,
                r#"<text x="{xx:.1}" y="{}" font-size="11" text-anchor="middle">{}</text>"#,
                self.y0 + PANEL_H + 14.0,
                xv.round() as i64
            );
        }
        let _ = writeln!(
            s,
            r#"<text x="14" y="{:.1}" font-size="12" transform="rotate(-90 14 {:.1})" text-anchor="middle">{}</text>"#,
            self.y0 + PANEL_H / 2.0,
            self.y0 + PANEL_H / 2.0,
            esc(ylabel)
        );
    }
    fn line(&self, s: &mut String, pts: &[(f64, f64)], color: &str) {
        let mut p = String::new();
        for (x, y) in pts {
            let _ = write!(p, "{:.1},{:.1} ", self.x(*x), self.y(*y));
        }
        let _ = writeln!(
            s,
            r#"<polyline fill="none" stroke="{color}" stroke-width="1.5" points="{}"/>"#,
            p.trim_end()
        );
    }
}

fn range(vals: impl Iterator<Item = f64>) -> (f64, f64) {
    let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
    for v in vals.filter(|v| v.is_finite()) {
        lo = lo.min(v);
        hi = hi.max(v);
    }
    if !lo.is_finite() {
        return (0.0, 1.0);
    }
    if hi - lo < 1e-9 {
        let pad = lo.abs().max(1.0) * 0.05;
        return (lo - pad, hi + pad);
    }
    let pad = (hi - lo) * 0.05;
    (lo - pad, hi + pad)
}

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
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{h}" viewBox="0 0 {W} {h}" font-family="sans-serif">"#
    );
    let _ = writeln!(s, r#"<rect width="100%" height="100%" fill="white"/>"#);
    let _ = writeln!(
        s,
        r#"<text x="{}" y="20" font-size="16" text-anchor="middle">{}</text>"#,
        W / 2.0,
        esc(title)
    );
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
    let (ymin, ymax) = range(metric.iter().map(|p| p.1));
    let top = Panel {
        y0: TOP + 20.0,
        xmin,
        xmax,
        ymin,
        ymax,
    };
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
    let (ymin, ymax) = range(series.iter().flatten().map(|p| p.1));
    let bottom = Panel {
        y0: top.y0 + PANEL_H + GAP,
        xmin,
        xmax,
        ymin,
        ymax,
    };
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
        let _ = writeln!(
            s,
            r#"<line x1="{x}" y1="{y}" x2="{}" y2="{y}" stroke="{}" stroke-width="2"/><text x="{}" y="{}" font-size="11">{} {}</text>"#,
            x + 16.0,
            COLORS[j % COLORS.len()],
            x + 20.0,
            y + 4.0,
            esc(name),
            nice(last)
        );
    }
    if trace.names.len() > 24 {
        let _ = writeln!(
            s,
            r#"<text x="{}" y="{}" font-size="11">... {} more</text>"#,
            W - RIGHT + 10.0,
            bottom.y0 + 10.0 + 24.0 * 14.0,
            trace.names.len() - 24
        );
    }
    s.push_str("</svg>\n");
    s
}

/// Writes the plot of `trace` to `path`.
pub fn write(trace: &Trace, title: &str, path: &Path) -> Result<()> {
    std::fs::write(path, svg(trace, title)).map_err(Error::io(path.display()))
}
