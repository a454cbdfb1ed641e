//! The plot of a match (`varia match --plot`, `varia match-merge --plot`):
//! each pairing's Elo with its 95% interval over the games played, and with
//! an SPRT its log-likelihood ratio against the two bounds, as SVG.
//!
//! The series comes from the per-game rows in game-number order, not in the
//! order games finished (that depends on concurrency): after game k the
//! point is what a [`Tally`] of games 1..k reports, through the same
//! estimator as the summary ([`PairingStats::elo`], pentanomial once pairs
//! exist) and the same [`Sprt::llr`], so the last point is the printed
//! result whatever order the games ended in, and a resumed or merged match
//! plots like one played in a single run. [`MatchPlot`] keeps only the
//! columns the tally reads (no moves, no opening), so a long match costs
//! little memory; the drawing is [`crate::chart`]'s.

use crate::chart::{self, Panel, COLORS, GAP, PANEL_HEIGHT, RIGHT, TOP, WIDTH};
use crate::results::{GameRow, PairingStats, Tally};
use crate::stats::{EloEstimate, Sprt};

/// At most this many points per polyline; longer series are thinned
/// evenly (the last point is always kept).
const MAX_POINTS: usize = 1000;

/// The games of a match so far, to plot.
#[derive(Clone, Debug)]
pub struct MatchPlot {
    order: Vec<String>,
    sprt: Option<Sprt>,
    rows: Vec<GameRow>,
}

/// One pairing's Elo after each of its games.
#[derive(Clone, Debug, PartialEq)]
pub struct PairingSeries {
    /// The pairing's statistics after its last game (what the summary shows).
    pub stats: PairingStats,
    /// (games of the match so far, Elo estimate of this pairing), one point
    /// per game of this pairing.
    pub points: Vec<(usize, EloEstimate)>,
}

/// Everything the plot shows.
#[derive(Clone, Debug, PartialEq)]
pub struct Series {
    /// Games in the plot.
    pub games: usize,
    /// One entry per pairing, in the tally's pairing order.
    pub pairings: Vec<PairingSeries>,
    /// The SPRT's (games so far, LLR) after each game of the first two
    /// players' pairing; empty without an SPRT.
    pub llr: Vec<(usize, f64)>,
}

impl MatchPlot {
    /// An empty plot of the players named in `order` (the match's player
    /// order, as the summary's tally takes it), with `sprt`'s LLR if given.
    pub fn new(order: &[String], sprt: Option<Sprt>) -> MatchPlot {
        MatchPlot {
            order: order.to_vec(),
            sprt,
            rows: Vec::new(),
        }
    }

    /// Adds one finished game (in any order; the plot sorts by game number).
    pub fn add(&mut self, row: &GameRow) {
        self.rows.push(GameRow {
            opening: String::new(),
            moves: String::new(),
            ..row.clone()
        });
    }

    /// Games added so far.
    pub fn len(&self) -> usize {
        self.rows.len()
    }

    /// Whether no game was added.
    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }

    /// The series, from the games in game-number order.
    pub fn series(&self) -> Series {
        let mut rows: Vec<&GameRow> = self.rows.iter().collect();
        rows.sort_by_key(|r| r.game);
        let mut tally = Tally::new(&self.order);
        let mut pairings: Vec<PairingSeries> = Vec::new();
        let mut llr = Vec::new();
        let sprt_pairing = match (self.sprt, &self.order[..]) {
            (Some(sprt), [a, b, ..]) => Some((sprt, a, b)),
            _ => None,
        };
        for (i, row) in rows.iter().enumerate() {
            tally.add(row);
            let Some(stats) = tally.pairing(&row.white, &row.black) else {
                continue;
            };
            let point = (i + 1, stats.elo());
            match pairings
                .iter_mut()
                .find(|p| p.stats.player == stats.player && p.stats.opponent == stats.opponent)
            {
                Some(p) => {
                    p.stats = stats.clone();
                    p.points.push(point);
                }
                None => pairings.push(PairingSeries {
                    stats: stats.clone(),
                    points: vec![point],
                }),
            }
            if let Some((sprt, a, b)) = sprt_pairing {
                if stats.player == *a && stats.opponent == *b {
                    llr.push((i + 1, sprt.llr(&stats.penta)));
                }
            }
        }
        let first = |p: &PairingSeries| {
            let a = self.order.iter().position(|n| *n == p.stats.player);
            let b = self.order.iter().position(|n| *n == p.stats.opponent);
            (a, b)
        };
        pairings.sort_by_key(first);
        Series {
            games: rows.len(),
            pairings,
            llr,
        }
    }

    /// The SVG text of the plot, titled `title`.
    pub fn svg(&self, title: &str) -> String {
        let series = self.series();
        let sprt = self.sprt.filter(|_| self.order.len() >= 2);
        let panels = if sprt.is_some() { 2.0 } else { 1.0 };
        let height = TOP + panels * PANEL_HEIGHT + (panels - 1.0) * GAP + 60.0;
        let mut s = String::new();
        chart::begin_page(&mut s, height, title);
        let xmax = series.games.max(1) as f64;
        let elo = elo_panel(&series, TOP + 20.0, xmax);
        elo.frame(&mut s, "Elo with its 95% interval (dashed)", "Elo");
        elo.level(&mut s, 0.0, "#999");
        let legend_x = WIDTH - RIGHT + 10.0;
        for (j, p) in series.pairings.iter().enumerate() {
            let color = COLORS[j % COLORS.len()];
            let clamp = |v: f64| v.clamp(elo.ymin, elo.ymax);
            let pts = thin(&p.points);
            let line = |f: fn(&EloEstimate) -> f64| -> Vec<(f64, f64)> {
                pts.iter().map(|(g, e)| (*g as f64, clamp(f(e)))).collect()
            };
            elo.dashed_line(&mut s, &line(|e| e.low), color);
            elo.dashed_line(&mut s, &line(|e| e.high), color);
            elo.line(&mut s, &line(|e| e.elo), color);
            if j < 10 {
                let y = elo.y0 + 10.0 + j as f64 * 28.0;
                let e = p.stats.elo();
                chart::legend_entry(
                    &mut s,
                    legend_x,
                    y,
                    color,
                    &format!("{} vs {}", p.stats.player, p.stats.opponent),
                );
                chart::text(
                    &mut s,
                    legend_x + 20.0,
                    y + 17.0,
                    &format!("Elo {:+.1} +/- {:.1}", e.elo, e.error()),
                );
            }
        }
        if series.pairings.len() > 10 {
            chart::text(
                &mut s,
                legend_x,
                elo.y0 + 10.0 + 10.0 * 28.0,
                &format!("... {} more", series.pairings.len() - 10),
            );
        }
        if let Some(sprt) = sprt {
            let (lower, upper) = sprt.bounds();
            let panel = Panel::fitting(
                elo.y0 + PANEL_HEIGHT + GAP,
                0.0,
                xmax,
                series.llr.iter().map(|p| p.1).chain([lower, upper, 0.0]),
            );
            panel.frame(
                &mut s,
                &format!(
                    "SPRT elo0={} elo1={}: log-likelihood ratio and bounds",
                    sprt.elo0, sprt.elo1
                ),
                "LLR",
            );
            let (h1, h0, llr_color) = ("#2ca02c", "#d62728", COLORS[0]);
            panel.level(&mut s, upper, h1);
            panel.level(&mut s, lower, h0);
            let pts: Vec<(f64, f64)> = thin(&series.llr)
                .iter()
                .map(|(g, v)| (*g as f64, *v))
                .collect();
            panel.line(&mut s, &pts, llr_color);
            let last = series.llr.last().map_or(0.0, |p| p.1);
            let y = panel.y0 + 10.0;
            chart::legend_entry(
                &mut s,
                legend_x,
                y,
                llr_color,
                &format!("LLR {last:.2} ({lower:.2}, {upper:.2})"),
            );
            chart::legend_entry(
                &mut s,
                legend_x,
                y + 14.0,
                h1,
                &format!("H1 accepted at {upper:.2}"),
            );
            chart::legend_entry(
                &mut s,
                legend_x,
                y + 28.0,
                h0,
                &format!("H0 accepted at {lower:.2}"),
            );
        }
        chart::text(
            &mut s,
            chart::LEFT,
            height - 12.0,
            &format!("games played (in game order): {}", series.games),
        );
        chart::end_page(&mut s);
        s
    }
}

/// The Elo panel. Its y range covers 0, every pairing's estimates from the
/// first tenth of the games on and its final interval: early estimates and
/// intervals run to the model's limits (a score of 0 or 1 is infinite Elo)
/// and would flatten the rest, so they are drawn clipped to the panel.
fn elo_panel(series: &Series, y0: f64, xmax: f64) -> Panel {
    let from = series.games / 10;
    let values = series.pairings.iter().flat_map(|p| {
        let last = p.stats.elo();
        p.points
            .iter()
            .filter(move |(g, _)| *g > from)
            .map(|(_, e)| e.elo)
            .chain([last.elo, last.low, last.high])
    });
    Panel::fitting(y0, 0.0, xmax, values.chain([0.0]))
}

/// At most [`MAX_POINTS`] of `points`, evenly spaced, the last one kept.
fn thin<T: Copy>(points: &[(usize, T)]) -> Vec<(usize, T)> {
    if points.len() <= MAX_POINTS {
        return points.to_vec();
    }
    let step = points.len().div_ceil(MAX_POINTS);
    let mut out: Vec<(usize, T)> = points.iter().step_by(step).copied().collect();
    if let Some(&last) = points.last() {
        if out.last().map(|p| p.0) != Some(last.0) {
            out.push(last);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::GameResult;
    use crate::results::test_row;

    fn games(n: usize) -> Vec<GameRow> {
        (1..=n)
            .map(|g| {
                let (w, b) = if g % 2 == 1 { ("a", "b") } else { ("b", "a") };
                let result = match g % 5 {
                    0 | 1 => GameResult::WhiteWins,
                    2 => GameResult::Draw,
                    _ => GameResult::BlackWins,
                };
                test_row(g, g.div_ceil(2), w, b, result)
            })
            .collect()
    }

    #[test]
    fn the_last_point_is_the_summary_whatever_order_games_came_in() {
        let order = ["a".to_string(), "b".to_string()];
        let rows = games(40);
        let mut forward = MatchPlot::new(&order, None);
        let mut backward = MatchPlot::new(&order, None);
        for r in &rows {
            forward.add(r);
        }
        for r in rows.iter().rev() {
            backward.add(r);
        }
        let series = forward.series();
        assert_eq!(series, backward.series());
        assert_eq!(series.games, 40);
        let summary = crate::results::summarize(&rows, &order);
        assert_eq!(series.pairings.len(), 1);
        let p = &series.pairings[0];
        assert_eq!(p.stats, summary[0]);
        assert_eq!(p.points.len(), 40);
        assert_eq!(p.points.last().unwrap().1, summary[0].elo());
        assert!(series.llr.is_empty());
    }

    #[test]
    fn the_svg_holds_the_series_labels_and_sprt_bounds() {
        let order = ["a".to_string(), "b".to_string()];
        let sprt = Sprt::logistic(0.0, 10.0);
        let mut plot = MatchPlot::new(&order, Some(sprt));
        for r in games(20) {
            plot.add(&r);
        }
        let series = plot.series();
        assert_eq!(series.llr.len(), 20);
        let stats = &series.pairings[0].stats;
        let last_llr = sprt.llr(&stats.penta);
        assert_eq!(series.llr.last().unwrap().1, last_llr);
        let svg = plot.svg("chess: a vs b");
        assert!(svg.starts_with("<svg ") && svg.ends_with("</svg>\n"));
        let e = stats.elo();
        assert!(svg.contains(&format!("Elo {:+.1} +/- {:.1}", e.elo, e.error())));
        assert!(svg.contains(&format!("LLR {last_llr:.2} (-2.94, 2.94)")));
        assert!(svg.contains("H1 accepted at 2.94") && svg.contains("H0 accepted at -2.94"));
        // Elo, its two interval lines, the zero line; LLR and two bounds.
        assert_eq!(svg.matches("<polyline").count(), 7);
        let plain = MatchPlot::new(&order, None);
        let empty = plain.svg("nothing yet");
        assert!(empty.ends_with("</svg>\n") && !empty.contains("LLR"));
    }

    #[test]
    fn long_series_are_thinned_keeping_the_last_point() {
        let points: Vec<(usize, f64)> = (1..=2501).map(|g| (g, g as f64)).collect();
        let t = thin(&points);
        assert!(t.len() <= MAX_POINTS + 1);
        assert_eq!(t.first(), Some(&(1, 1.0)));
        assert_eq!(t.last(), Some(&(2501, 2501.0)));
        assert_eq!(thin(&points[..10]).len(), 10);
    }
}
