//! Writing perft results: an aligned table for people, CSV for programs.
//! Rows are written (and flushed) as soon as each depth finishes.

use super::Format;
use movegen::VariantKind;
use std::io::Write;

/// One depth of one position.
pub struct DepthRow<'a> {
    pub variant: VariantKind,
    pub fen: &'a str,
    pub depth: u32,
    pub nodes: u64,
    /// Wall time of this depth's perft alone.
    pub seconds: f64,
}

/// Receives results in order: for each position `begin_position`, then its
/// rows or one divide, then `end_position`; `finish` at the very end.
pub trait Reporter {
    fn begin_position(&mut self, variant: VariantKind, fen: &str) -> anyhow::Result<()>;
    fn row(&mut self, row: &DepthRow<'_>) -> anyhow::Result<()>;
    fn divide(
        &mut self,
        variant: VariantKind,
        fen: &str,
        depth: u32,
        moves: &[(String, u64)],
        seconds: f64,
    ) -> anyhow::Result<()>;
    fn end_position(&mut self) -> anyhow::Result<()>;
    fn finish(&mut self) -> anyhow::Result<()>;
}

/// The reporter for `format`, writing to `out`.
pub fn new<'a, W: Write + 'a>(
    format: Format,
    divide: bool,
    out: W,
) -> anyhow::Result<Box<dyn Reporter + 'a>> {
    Ok(match format {
        Format::Table => Box::new(Table::new(out)),
        Format::Csv => Box::new(Csv::new(out, divide)?),
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

struct Table<W: Write> {
    out: W,
    positions: usize,
    total_nodes: u64,
    total_seconds: f64,
}

impl<W: Write> Table<W> {
    fn new(out: W) -> Self {
        Table {
            out,
            positions: 0,
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
        writeln!(self.out, "{variant}  {fen}")?;
        Ok(())
    }

    fn row(&mut self, row: &DepthRow<'_>) -> anyhow::Result<()> {
        if row.depth == 1 {
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
            row.nodes,
            row.seconds,
            human_nps(row.nodes, row.seconds)
        )?;
        self.out.flush()?;
        self.total_nodes += row.nodes;
        self.total_seconds += row.seconds;
        Ok(())
    }

    fn divide(
        &mut self,
        _variant: VariantKind,
        _fen: &str,
        depth: u32,
        moves: &[(String, u64)],
        seconds: f64,
    ) -> anyhow::Result<()> {
        let total: u64 = moves.iter().map(|(_, n)| n).sum();
        let move_w = moves.iter().map(|(m, _)| m.len()).max().unwrap_or(0).max(5);
        let count_w = total.to_string().len();
        writeln!(self.out, "divide at depth {depth}, {} moves", moves.len())?;
        for (m, n) in moves {
            writeln!(self.out, "{m:<move_w$}  {n:>count_w$}")?;
        }
        writeln!(self.out)?;
        writeln!(self.out, "{:<move_w$}  {total:>count_w$}", "total")?;
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
}

impl<W: Write> Csv<W> {
    /// The header is written up front (so it is there even when a divide
    /// has no moves); rows are serialized without one.
    fn new(out: W, divide: bool) -> anyhow::Result<Self> {
        let mut out = csv::WriterBuilder::new()
            .has_headers(false)
            .from_writer(out);
        if divide {
            out.write_record(["variant", "fen", "depth", "move", "nodes"])?;
        } else {
            out.write_record(["variant", "fen", "depth", "nodes", "seconds", "nps"])?;
        }
        out.flush()?;
        Ok(Csv { out })
    }
}

impl<W: Write> Reporter for Csv<W> {
    fn begin_position(&mut self, _variant: VariantKind, _fen: &str) -> anyhow::Result<()> {
        Ok(())
    }

    fn row(&mut self, row: &DepthRow<'_>) -> anyhow::Result<()> {
        self.out.serialize(CsvRow {
            variant: row.variant.name(),
            fen: row.fen,
            depth: row.depth,
            nodes: row.nodes,
            seconds: format!("{:.6}", row.seconds),
            nps: nps(row.nodes, row.seconds).map_or(0, |r| r.round() as u64),
        })?;
        self.out.flush()?;
        Ok(())
    }

    fn divide(
        &mut self,
        variant: VariantKind,
        fen: &str,
        depth: u32,
        moves: &[(String, u64)],
        _seconds: f64,
    ) -> anyhow::Result<()> {
        for (m, n) in moves {
            self.out.serialize(CsvDivideRow {
                variant: variant.name(),
                fen,
                depth,
                mv: m,
                nodes: *n,
            })?;
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
        let mut buf = Vec::new();
        {
            let mut r = new(Format::Csv, false, &mut buf).unwrap();
            r.begin_position(VariantKind::Chess, "F").unwrap();
            r.row(&DepthRow {
                variant: VariantKind::Chess,
                fen: "F",
                depth: 1,
                nodes: 20,
                seconds: 0.5,
            })
            .unwrap();
            r.end_position().unwrap();
            r.finish().unwrap();
        }
        assert_eq!(
            String::from_utf8(buf).unwrap(),
            "variant,fen,depth,nodes,seconds,nps\nchess,F,1,20,0.500000,40\n"
        );
    }
}
