//! Writing perft results: an aligned table for people, CSV for programs.
//! Rows are written (and flushed) as soon as each depth finishes.
//!
//! With `--stats` every row carries the eleven detailed columns
//! ([`movegen::STAT_NAMES`]); a column that does not apply to the game
//! ([`StatColumns`]) is left empty, never written as 0.

use super::Format;
use movegen::{PerftStats, StatColumns, VariantKind, STAT_COUNT, STAT_NAMES};
use std::io::Write;

/// One depth of one position.
pub struct DepthRow<'a> {
    pub variant: VariantKind,
    pub fen: &'a str,
    pub depth: u32,
    /// The counts (only `nodes` is meaningful without `--stats`).
    pub counts: PerftStats,
    /// The stats columns of this game.
    pub columns: StatColumns,
    /// Wall time of this depth's perft alone.
    pub seconds: f64,
}

/// The header of a `--stats --format csv` table (also the shape
/// `varia perft-merge --format csv` writes for stats parts).
pub fn stats_csv_header() -> Vec<&'static str> {
    let mut h = vec!["variant", "fen", "depth"];
    h.extend(STAT_NAMES);
    h.push("seconds");
    h
}

/// The stats columns as CSV fields: empty where the column does not apply.
pub fn stats_fields(columns: StatColumns, counts: &PerftStats) -> Vec<String> {
    columns
        .values(counts)
        .iter()
        .map(|v| v.map_or_else(String::new, |n| n.to_string()))
        .collect()
}

/// Receives results in order: for each position `begin_position`, then its
/// rows or one divide, then `end_position`; `finish` at the very end.
pub trait Reporter {
    fn begin_position(&mut self, variant: VariantKind, fen: &str) -> anyhow::Result<()>;
    fn row(&mut self, row: &DepthRow<'_>) -> anyhow::Result<()>;
    /// The counts below each root move (UCI, sorted) at the depth of
    /// `total`, whose counts are their sum.
    fn divide(
        &mut self,
        total: &DepthRow<'_>,
        moves: &[(String, PerftStats)],
    ) -> anyhow::Result<()>;
    fn end_position(&mut self) -> anyhow::Result<()>;
    fn finish(&mut self) -> anyhow::Result<()>;
}

/// The reporter for `format`, writing to `out`; `stats` adds the detailed
/// columns.
pub fn new<'a, W: Write + 'a>(
    format: Format,
    divide: bool,
    stats: bool,
    out: W,
) -> anyhow::Result<Box<dyn Reporter + 'a>> {
    Ok(match format {
        Format::Table => Box::new(Table::new(out, stats)),
        Format::Csv => Box::new(Csv::new(out, divide, stats)?),
    })
}

/// Nodes per second, or `None` when the time is too short to mean anything.
pub fn nps(nodes: u64, seconds: f64) -> Option<f64> {
    (seconds > 0.0 && nodes > 0).then(|| nodes as f64 / seconds)
}

/// A rate with a metric prefix: `950`, `12.3 k`, `245.1 M`, `1.23 G`.
pub fn human_rate(rate: f64) -> String {
    if rate < 1e3 {
        format!("{rate:.0}")
    } else if rate < 1e6 {
        format!("{:.1} k", rate / 1e3)
    } else if rate < 1e9 {
        format!("{:.1} M", rate / 1e6)
    } else {
        format!("{:.2} G", rate / 1e9)
    }
}

/// `nodes/s` column text.
pub fn human_nps(nodes: u64, seconds: f64) -> String {
    nps(nodes, seconds).map_or_else(|| "-".to_string(), human_rate)
}

/// Column widths of the table.
const DEPTH_W: usize = 5;
const NODES_W: usize = 15;
const SECONDS_W: usize = 10;
const NPS_W: usize = 12;

/// Table headings and widths of the stats columns, in [`STAT_NAMES`] order.
const STAT_HEADS: [(&str, usize); STAT_COUNT] = [
    ("nodes", NODES_W),
    ("captures", 13),
    ("e.p.", 11),
    ("castles", 11),
    ("promotions", 11),
    ("checks", 13),
    ("disc.checks", 12),
    ("dbl.checks", 11),
    ("checkmates", 11),
    ("stalemates", 11),
    ("var.wins", 11),
];

/// The stats columns of a table row (empty where they do not apply).
fn stats_cells(columns: StatColumns, counts: &PerftStats) -> String {
    let mut line = String::new();
    for (v, (_, w)) in columns.values(counts).iter().zip(STAT_HEADS) {
        let text = v.map_or_else(String::new, |n| n.to_string());
        line.push_str(&format!("  {text:>w$}"));
    }
    line
}

/// The headings of the stats columns.
fn stats_heads() -> String {
    let mut line = String::new();
    for (name, w) in STAT_HEADS {
        line.push_str(&format!("  {name:>w$}"));
    }
    line
}

struct Table<W: Write> {
    out: W,
    stats: bool,
    positions: usize,
    /// Rows written for the current position (the header comes first).
    rows: usize,
    total_nodes: u64,
    total_seconds: f64,
}

impl<W: Write> Table<W> {
    fn new(out: W, stats: bool) -> Self {
        Table {
            out,
            stats,
            positions: 0,
            rows: 0,
            total_nodes: 0,
            total_seconds: 0.0,
        }
    }
}

impl<W: Write> Reporter for Table<W> {
    fn begin_position(&mut self, variant: VariantKind, fen: &str) -> anyhow::Result<()> {
        if self.positions > 0 {
            writeln!(self.out)?;
        }
        self.positions += 1;
        self.rows = 0;
        writeln!(self.out, "{variant}  {fen}")?;
        Ok(())
    }

    fn row(&mut self, row: &DepthRow<'_>) -> anyhow::Result<()> {
        let nodes = row.counts.nodes;
        if self.stats {
            if self.rows == 0 {
                writeln!(
                    self.out,
                    "{:>DEPTH_W$}{}  {:>SECONDS_W$}",
                    "depth",
                    stats_heads(),
                    "seconds"
                )?;
            }
            writeln!(
                self.out,
                "{:>DEPTH_W$}{}  {:>SECONDS_W$.3}",
                row.depth,
                stats_cells(row.columns, &row.counts),
                row.seconds
            )?;
        } else {
            if self.rows == 0 {
                writeln!(
                    self.out,
                    "{:>DEPTH_W$}  {:>NODES_W$}  {:>SECONDS_W$}  {:>NPS_W$}",
                    "depth", "nodes", "seconds", "nodes/s"
                )?;
            }
            writeln!(
                self.out,
                "{:>DEPTH_W$}  {:>NODES_W$}  {:>SECONDS_W$.3}  {:>NPS_W$}",
                row.depth,
                nodes,
                row.seconds,
                human_nps(nodes, row.seconds)
            )?;
        }
        self.out.flush()?;
        self.rows += 1;
        self.total_nodes += nodes;
        self.total_seconds += row.seconds;
        Ok(())
    }

    fn divide(&mut self, row: &DepthRow<'_>, moves: &[(String, PerftStats)]) -> anyhow::Result<()> {
        let DepthRow {
            depth,
            counts: total_counts,
            columns,
            seconds,
            ..
        } = *row;
        let total = total_counts.nodes;
        let move_w = moves.iter().map(|(m, _)| m.len()).max().unwrap_or(0).max(5);
        let count_w = total.to_string().len();
        writeln!(self.out, "divide at depth {depth}, {} moves", moves.len())?;
        if self.stats {
            writeln!(self.out, "{:<move_w$}{}", "move", stats_heads())?;
            for (m, c) in moves {
                writeln!(self.out, "{m:<move_w$}{}", stats_cells(columns, c))?;
            }
            writeln!(self.out)?;
            writeln!(
                self.out,
                "{:<move_w$}{}",
                "total",
                stats_cells(columns, &total_counts)
            )?;
        } else {
            for (m, c) in moves {
                writeln!(self.out, "{m:<move_w$}  {:>count_w$}", c.nodes)?;
            }
            writeln!(self.out)?;
            writeln!(self.out, "{:<move_w$}  {total:>count_w$}", "total")?;
        }
        writeln!(
            self.out,
            "{:<move_w$}  {seconds:.3} s ({} nodes/s)",
            "time",
            human_nps(total, seconds)
        )?;
        self.out.flush()?;
        self.total_nodes += total;
        self.total_seconds += seconds;
        Ok(())
    }

    fn end_position(&mut self) -> anyhow::Result<()> {
        Ok(())
    }

    fn finish(&mut self) -> anyhow::Result<()> {
        if self.positions > 1 {
            writeln!(self.out)?;
            writeln!(
                self.out,
                "total  {} nodes in {:.3} s ({} nodes/s)",
                self.total_nodes,
                self.total_seconds,
                human_nps(self.total_nodes, self.total_seconds)
            )?;
        }
        self.out.flush()?;
        Ok(())
    }
}

/// `variant,fen,depth,nodes,seconds,nps`.
#[derive(serde::Serialize)]
struct CsvRow<'a> {
    variant: &'static str,
    fen: &'a str,
    depth: u32,
    nodes: u64,
    seconds: String,
    nps: u64,
}

/// `variant,fen,depth,move,nodes` (with `--divide`).
#[derive(serde::Serialize)]
struct CsvDivideRow<'a> {
    variant: &'static str,
    fen: &'a str,
    depth: u32,
    #[serde(rename = "move")]
    mv: &'a str,
    nodes: u64,
}

struct Csv<W: Write> {
    out: csv::Writer<W>,
    stats: bool,
}

impl<W: Write> Csv<W> {
    /// The header is written up front (so it is there even when a divide
    /// has no moves); rows are serialized without one.
    fn new(out: W, divide: bool, stats: bool) -> anyhow::Result<Self> {
        let mut out = csv::WriterBuilder::new()
            .has_headers(false)
            .from_writer(out);
        match (divide, stats) {
            (true, false) => out.write_record(["variant", "fen", "depth", "move", "nodes"])?,
            (false, false) => {
                out.write_record(["variant", "fen", "depth", "nodes", "seconds", "nps"])?
            }
            (true, true) => {
                let mut h = vec!["variant", "fen", "depth", "move"];
                h.extend(STAT_NAMES);
                out.write_record(h)?
            }
            (false, true) => out.write_record(stats_csv_header())?,
        }
        out.flush()?;
        Ok(Csv { out, stats })
    }
}

impl<W: Write> Reporter for Csv<W> {
    fn begin_position(&mut self, _variant: VariantKind, _fen: &str) -> anyhow::Result<()> {
        Ok(())
    }

    fn row(&mut self, row: &DepthRow<'_>) -> anyhow::Result<()> {
        if self.stats {
            let mut record = vec![
                row.variant.name().to_string(),
                row.fen.to_string(),
                row.depth.to_string(),
            ];
            record.extend(stats_fields(row.columns, &row.counts));
            record.push(format!("{:.6}", row.seconds));
            self.out.write_record(record)?;
        } else {
            self.out.serialize(CsvRow {
                variant: row.variant.name(),
                fen: row.fen,
                depth: row.depth,
                nodes: row.counts.nodes,
                seconds: format!("{:.6}", row.seconds),
                nps: nps(row.counts.nodes, row.seconds).map_or(0, |r| r.round() as u64),
            })?;
        }
        self.out.flush()?;
        Ok(())
    }

    fn divide(&mut self, row: &DepthRow<'_>, moves: &[(String, PerftStats)]) -> anyhow::Result<()> {
        let DepthRow {
            variant,
            fen,
            depth,
            columns,
            ..
        } = *row;
        for (m, c) in moves {
            if self.stats {
                let mut record = vec![
                    variant.name().to_string(),
                    fen.to_string(),
                    depth.to_string(),
                    m.clone(),
                ];
                record.extend(stats_fields(columns, c));
                self.out.write_record(record)?;
            } else {
                self.out.serialize(CsvDivideRow {
                    variant: variant.name(),
                    fen,
                    depth,
                    mv: m,
                    nodes: c.nodes,
                })?;
            }
        }
        self.out.flush()?;
        Ok(())
    }

    fn end_position(&mut self) -> anyhow::Result<()> {
        Ok(())
    }

    fn finish(&mut self) -> anyhow::Result<()> {
        self.out.flush()?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rates() {
        assert_eq!(human_rate(950.0), "950");
        assert_eq!(human_rate(12_345.0), "12.3 k");
        assert_eq!(human_rate(245_100_000.0), "245.1 M");
        assert_eq!(human_rate(1_234_000_000.0), "1.23 G");
        assert_eq!(human_nps(10, 0.0), "-");
    }

    #[test]
    fn csv_rows() {
        let write = |stats: bool, kind: VariantKind, columns: StatColumns| {
            let mut buf = Vec::new();
            {
                let mut r = new(Format::Csv, false, stats, &mut buf).unwrap();
                r.begin_position(kind, "F").unwrap();
                r.row(&DepthRow {
                    variant: kind,
                    fen: "F",
                    depth: 1,
                    counts: PerftStats {
                        nodes: 20,
                        captures: 3,
                        checks: 2,
                        ..PerftStats::default()
                    },
                    columns,
                    seconds: 0.5,
                })
                .unwrap();
                r.end_position().unwrap();
                r.finish().unwrap();
            }
            String::from_utf8(buf).unwrap()
        };
        use movegen::variants::{Chess, Suicide};
        let chess = StatColumns::of::<Chess>();
        assert_eq!(
            write(false, VariantKind::Chess, chess),
            "variant,fen,depth,nodes,seconds,nps\nchess,F,1,20,0.500000,40\n"
        );
        assert_eq!(
            write(true, VariantKind::Chess, chess),
            "variant,fen,depth,nodes,captures,en_passant,castles,promotions,checks,\
             discovered_checks,double_checks,checkmates,stalemates,variant_wins,seconds\n\
             chess,F,1,20,3,0,0,0,2,0,0,0,0,,0.500000\n"
        );
        // Suicide has no check columns; chess has no variant wins: empty.
        assert!(
            write(true, VariantKind::Suicide, StatColumns::of::<Suicide>())
                .ends_with("\nsuicide,F,1,20,3,0,0,0,,,,,,0,0.500000\n")
        );
    }

    #[test]
    fn stats_table_leaves_missing_columns_empty() {
        use movegen::variants::Suicide;
        let mut buf = Vec::new();
        {
            let mut r = new(Format::Table, true, true, &mut buf).unwrap();
            let moves = vec![(
                "e2e4".to_string(),
                PerftStats {
                    nodes: 5,
                    variant_wins: 1,
                    ..PerftStats::default()
                },
            )];
            r.begin_position(VariantKind::Suicide, "F").unwrap();
            let total = DepthRow {
                variant: VariantKind::Suicide,
                fen: "F",
                depth: 2,
                counts: moves[0].1,
                columns: StatColumns::of::<Suicide>(),
                seconds: 0.0,
            };
            r.divide(&total, &moves).unwrap();
            r.finish().unwrap();
        }
        let text = String::from_utf8(buf).unwrap();
        let line = text.lines().find(|l| l.starts_with("e2e4")).unwrap();
        let cells: Vec<&str> = line.split_whitespace().collect();
        // move, nodes, captures, e.p., castles, promotions, (5 empty), wins
        assert_eq!(cells, ["e2e4", "5", "0", "0", "0", "0", "1"]);
    }
}
