//! SVG line charts, written by hand (no plotting dependency): a page of
//! fixed width with a title, and panels stacked on it, each a framed plot
//! area with five grid lines, axis numbers and polylines in data
//! coordinates, plus a legend column on the right. It is the one home of
//! varia's SVG drawing: `varia tune plot` (tune's trace plots) and
//! `varia match --plot` ([`crate::plot`]) both draw through it, so the two
//! kinds of plot look alike. It lives in arena because both the tuner and
//! the command line already depend on it.
//!
//! Everything is appended to a `String`; writing the file (atomically) is
//! the caller's business.

use std::fmt::Write as _;

/// Page width in pixels.
pub const WIDTH: f64 = 900.0;
/// Height of one panel's plot area.
pub const PANEL_HEIGHT: f64 = 300.0;
/// Left margin (axis numbers and the y label).
pub const LEFT: f64 = 70.0;
/// Right margin (the legend column).
pub const RIGHT: f64 = 190.0;
/// Space above the first panel (the page title).
pub const TOP: f64 = 40.0;
/// Space between panels (axis numbers and the next panel's title).
pub const GAP: f64 = 60.0;

/// Line colours, taken in turn.
pub const COLORS: [&str; 12] = [
    "#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f",
    "#bcbd22", "#17becf", "#000080", "#808000",
];

/// `s` with the XML special characters of text content escaped.
pub fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// A short label for an axis value: no decimals from 100 on, two from 1,
/// four below.
pub fn number_label(v: f64) -> String {
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

/// The range of the finite values, padded by 5% on each side (a flat
/// series gets a band around its value; no values give 0..1).
pub fn padded_range(values: impl Iterator<Item = f64>) -> (f64, f64) {
    let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
    for v in values.filter(|v| v.is_finite()) {
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

/// Starts a page `height` pixels high: the `<svg>` element, a white
/// background and `title` centred on top. End it with [`end_page`].
pub fn begin_page(s: &mut String, height: f64, title: &str) {
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" viewBox="0 0 {WIDTH} {height}" font-family="sans-serif">"#
    );
    let _ = writeln!(s, r#"<rect width="100%" height="100%" fill="white"/>"#);
    let _ = writeln!(
        s,
        r#"<text x="{}" y="20" font-size="16" text-anchor="middle">{}</text>"#,
        WIDTH / 2.0,
        escape(title)
    );
}

/// Closes the page [`begin_page`] opened.
pub fn end_page(s: &mut String) {
    s.push_str("</svg>\n");
}

/// One legend row at (`x`, `y`) of the legend column: a short line in
/// `color`, then `text`.
pub fn legend_entry(s: &mut String, x: f64, y: f64, color: &str, text: &str) {
    let _ = writeln!(
        s,
        r#"<line x1="{x}" y1="{y}" x2="{}" y2="{y}" stroke="{color}" stroke-width="2"/><text x="{}" y="{}" font-size="11">{}</text>"#,
        x + 16.0,
        x + 20.0,
        y + 4.0,
        escape(text)
    );
}

/// A line of text at (`x`, `y`), 11 pixels high.
pub fn text(s: &mut String, x: f64, y: f64, text: &str) {
    let _ = writeln!(
        s,
        r#"<text x="{x}" y="{y}" font-size="11">{}</text>"#,
        escape(text)
    );
}

/// A panel: its plot area's top edge on the page and the data ranges it
/// maps onto the area (x left to right, y bottom to top).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Panel {
    /// Top edge of the plot area, in pixels from the top of the page.
    pub y0: f64,
    /// Data x at the left edge.
    pub xmin: f64,
    /// Data x at the right edge.
    pub xmax: f64,
    /// Data y at the bottom edge.
    pub ymin: f64,
    /// Data y at the top edge.
    pub ymax: f64,
}

impl Panel {
    /// The panel at `y0` over the data x range `xmin..xmax` whose y range
    /// holds `values` ([`padded_range`]): how every chart sizes a panel to
    /// what it draws.
    pub fn fitting(y0: f64, xmin: f64, xmax: f64, values: impl Iterator<Item = f64>) -> Self {
        let (ymin, ymax) = padded_range(values);
        Panel {
            y0,
            xmin,
            xmax,
            ymin,
            ymax,
        }
    }

    /// Page x of data x `v`.
    pub fn x(&self, v: f64) -> f64 {
        LEFT + (v - self.xmin) / (self.xmax - self.xmin).max(1e-12) * (WIDTH - LEFT - RIGHT)
    }

    /// Page y of data y `v`.
    pub fn y(&self, v: f64) -> f64 {
        self.y0 + PANEL_HEIGHT - (v - self.ymin) / (self.ymax - self.ymin).max(1e-12) * PANEL_HEIGHT
    }

    /// The frame, `title` above it, five horizontal grid lines with their y
    /// values, five x values (as integers) below, and `ylabel` turned along
    /// the left edge.
    pub fn frame(&self, s: &mut String, title: &str, ylabel: &str) {
        let (x0, x1) = (LEFT, WIDTH - RIGHT);
        let _ = writeln!(
            s,
            r##"<rect x="{x0}" y="{}" width="{}" height="{PANEL_HEIGHT}" fill="none" stroke="#444"/>"##,
            self.y0,
            x1 - x0
        );
        let _ = writeln!(
            s,
            r#"<text x="{x0}" y="{}" font-size="14" font-weight="bold">{}</text>"#,
            self.y0 - 10.0,
            escape(title)
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
                number_label(yv)
            );
            let xv = self.xmin + f * (self.xmax - self.xmin);
            let xx = self.x(xv);
            let _ = writeln!(
                s,
                r#"<text x="{xx:.1}" y="{}" font-size="11" text-anchor="middle">{}</text>"#,
                self.y0 + PANEL_HEIGHT + 14.0,
                xv.round() as i64
            );
        }
        let _ = writeln!(
            s,
            r#"<text x="14" y="{:.1}" font-size="12" transform="rotate(-90 14 {:.1})" text-anchor="middle">{}</text>"#,
            self.y0 + PANEL_HEIGHT / 2.0,
            self.y0 + PANEL_HEIGHT / 2.0,
            escape(ylabel)
        );
    }

    /// A solid polyline through the data points `pts`.
    pub fn line(&self, s: &mut String, pts: &[(f64, f64)], color: &str) {
        self.polyline(s, pts, color, "");
    }

    /// A dashed polyline through the data points `pts` (intervals, bounds).
    pub fn dashed_line(&self, s: &mut String, pts: &[(f64, f64)], color: &str) {
        self.polyline(s, pts, color, r#" stroke-dasharray="5,3""#);
    }

    /// A dashed horizontal line across the plot area at data y `v`.
    pub fn level(&self, s: &mut String, v: f64, color: &str) {
        self.dashed_line(s, &[(self.xmin, v), (self.xmax, v)], color);
    }

    fn polyline(&self, s: &mut String, pts: &[(f64, f64)], color: &str, extra: &str) {
        let mut p = String::new();
        for (x, y) in pts {
            let _ = write!(p, "{:.1},{:.1} ", self.x(*x), self.y(*y));
        }
        let _ = writeln!(
            s,
            r#"<polyline fill="none" stroke="{color}" stroke-width="1.5"{extra} points="{}"/>"#,
            p.trim_end()
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn panels_map_data_onto_their_area() {
        let p = Panel {
            y0: 60.0,
            xmin: 0.0,
            xmax: 10.0,
            ymin: -1.0,
            ymax: 1.0,
        };
        assert_eq!(p.x(0.0), LEFT);
        assert_eq!(p.x(10.0), WIDTH - RIGHT);
        assert_eq!(p.y(-1.0), 60.0 + PANEL_HEIGHT);
        assert_eq!(p.y(1.0), 60.0);
        let mut s = String::new();
        begin_page(&mut s, 400.0, "a < b & c");
        p.frame(&mut s, "t", "y");
        p.dashed_line(&mut s, &[(0.0, 0.0), (10.0, 1.0)], COLORS[0]);
        end_page(&mut s);
        assert!(s.starts_with("<svg ") && s.ends_with("</svg>\n"));
        assert!(s.contains("a &lt; b &amp; c"));
        assert!(s.contains(r#"stroke-dasharray="5,3" points="70.0,210.0 710.0,60.0""#));
    }

    #[test]
    fn ranges_pad_and_survive_flat_or_empty_data() {
        assert_eq!(padded_range([0.0, 10.0].into_iter()), (-0.5, 10.5));
        assert_eq!(padded_range(std::iter::empty()), (0.0, 1.0));
        assert_eq!(padded_range([f64::NAN].into_iter()), (0.0, 1.0));
        let (lo, hi) = padded_range([2.0, 2.0].into_iter());
        assert!(lo < 2.0 && hi > 2.0);
        assert_eq!(number_label(1234.4), "1234");
        assert_eq!(number_label(0.5), "0.5000");
    }
}
