//! The files of split runs: shard parts (`varia perft --shard I/N`, read by
//! `varia perft-merge`) and checkpoints (`--checkpoint FILE`).
//!
//! Both are [`arena::record`] files: a CSV whose first line is its column
//! names, with a sidecar `FILE.meta` that says which run it belongs to
//! ([`RunMeta`]), and a checksum as the last column of every row, which
//! resume and `perft-merge` verify (an edited count is an error naming the
//! line). A part, `part.csv`:
//!
//! ```text
//! index,path,nodes,seconds,check
//! 0,a2a3 a7a5,20,0.000012,5c1e0d8b6a3f2e71
//! 4,a2a3 b7b5,22,0.000011,0b9d3c4e5f6a7182
//! ```
//!
//! and `part.csv.meta`:
//!
//! ```text
//! varia perft part v2
//! variant: chess
//! fen: rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1
//! depth: 6
//! split_depth: 2
//! stats: no
//! shard: 1/4
//! subtrees: 400
//! ```
//!
//! A part written to stdout has no place for a sidecar: it carries the
//! identity on top as `#` lines (`# varia perft part v2`, `# variant:
//! chess`, ...), the layout of older versions, which `perft-merge` reads
//! too.
//!
//! One row per subtree of the shard ([`super::subtrees`]): its number in the
//! sorted list, its move path, its counts at `depth`, its wall time and the
//! row's checksum. With `stats: yes` the count columns are the eleven of
//! `--stats` (empty where the game has no such column). A checkpoint has
//! the same identity (tag `varia perft checkpoint v2`, `shard: all`
//! when not sharded) and rows `depth,index,path,<counts>,seconds,check`,
//! one per finished subtree and depth. (Version 1 had no checksums.)

use super::subtrees::ShardSpec;
use anyhow::{anyhow, bail};
use arena::record::{self, Record, RecordFormat, RunIdentity};
use movegen::{PerftStats, StatColumns, VariantKind, STAT_COUNT, STAT_NAMES};
use std::io::Write;
use std::path::Path;

/// A part file.
pub const PART_FORMAT: RecordFormat = RecordFormat {
    kind: "varia perft part",
    version: 2,
    checksum: true,
};
/// A checkpoint file.
pub const CHECKPOINT_FORMAT: RecordFormat = RecordFormat {
    kind: "varia perft checkpoint",
    version: 2,
    checksum: true,
};

/// Which run a part or checkpoint belongs to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunMeta {
    pub variant: VariantKind,
    /// The position's FEN as varia writes it.
    pub fen: String,
    /// The perft depth asked for.
    pub depth: u32,
    /// The split depth K.
    pub split_depth: u32,
    /// Detailed stats or node counts.
    pub stats: bool,
    /// The shard, or `None` for all subtrees.
    pub shard: Option<ShardSpec>,
    /// Number of subtrees in the whole split (all shards).
    pub subtrees: usize,
}

impl RunMeta {
    /// The run's identity: the header fields, in order.
    pub fn identity(&self) -> RunIdentity {
        RunIdentity::new()
            .with("variant", self.variant)
            .with("fen", &self.fen)
            .with("depth", self.depth)
            .with("split_depth", self.split_depth)
            .with("stats", if self.stats { "yes" } else { "no" })
            .with(
                "shard",
                self.shard
                    .map_or_else(|| "all".to_string(), |s| s.to_string()),
            )
            .with("subtrees", self.subtrees)
    }

    /// The first field (other than those in `ignore`) where `self` and
    /// `other` differ: `(name, self's value, other's value)`.
    pub fn difference(&self, other: &RunMeta, ignore: &[&str]) -> Option<(String, String, String)> {
        self.identity()
            .first_difference(&other.identity(), ignore)
            .map(|d| (d.field, d.ours, d.theirs))
    }

    /// The run named by a file's identity. `what` names the file in errors.
    pub fn from_identity(id: &RunIdentity, what: &str) -> anyhow::Result<RunMeta> {
        let field = |name: &str| {
            id.get(name)
                .ok_or_else(|| anyhow!("{what}: header has no \"# {name}:\" line"))
        };
        let number = |name: &str| -> anyhow::Result<u64> {
            let v = field(name)?;
            v.parse()
                .map_err(|_| anyhow!("{what}: invalid {name} \"{v}\" in the header"))
        };
        let variant: VariantKind = field("variant")?
            .parse()
            .map_err(|e| anyhow!("{what}: {e}"))?;
        let stats = match field("stats")? {
            "yes" => true,
            "no" => false,
            v => bail!("{what}: invalid stats \"{v}\" in the header (yes or no)"),
        };
        let shard = match field("shard")? {
            "all" => None,
            v => Some(
                v.parse::<ShardSpec>()
                    .map_err(|e| anyhow!("{what}: header: {e}"))?,
            ),
        };
        Ok(RunMeta {
            variant,
            fen: field("fen")?.to_string(),
            depth: u32::try_from(number("depth")?)?,
            split_depth: u32::try_from(number("split_depth")?)?,
            stats,
            shard,
            subtrees: usize::try_from(number("subtrees")?)?,
        })
    }
}

/// The column names of a part (`lead` = `index,path`) or checkpoint
/// (`depth,index,path`): `lead`, the count columns, `seconds`.
pub fn columns_of<'a>(lead: &[&'a str], stats: bool) -> Vec<&'a str> {
    let mut cols = lead.to_vec();
    cols.extend(count_columns(stats));
    cols.push("seconds");
    cols
}

/// The count columns of a file: `nodes`, or the eleven stats columns.
pub fn count_columns(stats: bool) -> &'static [&'static str] {
    if stats {
        &STAT_NAMES
    } else {
        &STAT_NAMES[..1]
    }
}

/// The count fields of one row (empty where the game has no such column).
pub fn count_fields(stats: bool, columns: StatColumns, counts: &PerftStats) -> Vec<String> {
    if stats {
        super::report::stats_fields(columns, counts)
    } else {
        vec![counts.nodes.to_string()]
    }
}

/// Reads count fields back (an empty field is 0).
pub fn parse_counts(fields: &[&str]) -> Result<PerftStats, String> {
    let mut v = [0u64; STAT_COUNT];
    for (slot, text) in v.iter_mut().zip(fields) {
        let t = text.trim();
        if !t.is_empty() {
            *slot = t.parse().map_err(|_| format!("invalid count \"{t}\""))?;
        }
    }
    Ok(PerftStats::from_array(v))
}

/// One subtree row of a part.
pub struct PartRow {
    pub index: usize,
    pub path: String,
    pub counts: PerftStats,
    pub seconds: f64,
}

/// Where [`write_part`] puts the identity of a part.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Identity {
    /// On top as `#` lines: a stream (stdout) has no sidecar.
    Inline,
    /// Not in the CSV: the caller writes it to the sidecar `FILE.meta`
    /// ([`RecordFormat::meta_text`]).
    Sidecar,
}

/// Writes a part file (column names, then rows, each with its checksum),
/// with its identity on top or left for the sidecar.
pub fn write_part(
    out: &mut dyn Write,
    meta: &RunMeta,
    columns: StatColumns,
    rows: &[PartRow],
    identity: Identity,
) -> anyhow::Result<()> {
    let (cols, lines) = part_lines(meta, columns, rows)?;
    match identity {
        Identity::Inline => record::write_all(out, &PART_FORMAT, &meta.identity(), &cols, lines)?,
        Identity::Sidecar => record::write_csv(out, &PART_FORMAT, &cols, lines)?,
    }
    Ok(())
}

/// The column names and rows of a part.
fn part_lines(
    meta: &RunMeta,
    columns: StatColumns,
    rows: &[PartRow],
) -> anyhow::Result<(Vec<&'static str>, Vec<String>)> {
    let lines = rows
        .iter()
        .map(|r| {
            let mut rec = vec![r.index.to_string(), r.path.clone()];
            rec.extend(count_fields(meta.stats, columns, &r.counts));
            rec.push(format!("{:.6}", r.seconds));
            csv_line(&rec)
        })
        .collect::<anyhow::Result<Vec<_>>>()?;
    Ok((columns_of(&["index", "path"], meta.stats), lines))
}

/// One CSV line (quoted where needed), without newline.
pub fn csv_line(fields: &[String]) -> anyhow::Result<String> {
    let mut w = csv::WriterBuilder::new()
        .has_headers(false)
        .from_writer(Vec::new());
    w.write_record(fields)?;
    let bytes = w.into_inner().map_err(|e| anyhow!("{e}"))?;
    Ok(String::from_utf8(bytes)?
        .trim_end_matches(['\n', '\r'])
        .to_string())
}

/// A part file read back: its header and rows, each with its line number.
pub struct Part {
    pub meta: RunMeta,
    pub rows: Vec<(u64, PartRow)>,
}

/// Reads a part file; any problem is an error naming the file (and line).
pub fn read_part(path: &Path) -> anyhow::Result<Part> {
    let file = path.display().to_string();
    let what = format!("part file {file}");
    let record = Record::read(path, &PART_FORMAT, &what).map_err(|e| match e {
        record::RecordError::Io { source, .. } => anyhow!("cannot read part file {file}: {source}"),
        e => e.into(),
    })?;
    let meta = RunMeta::from_identity(&record.identity, &what)?;
    if meta.shard.is_none() {
        bail!("part file {file}: header has \"shard: all\" (expected I/N)");
    }
    let rows = read_rows(&record, &file, &["index", "path"], meta.stats)?
        .into_iter()
        .map(|(line, fields, counts, seconds)| {
            let index = fields[0]
                .trim()
                .parse()
                .map_err(|_| anyhow!("{file}: line {line}: invalid index \"{}\"", fields[0]))?;
            Ok((
                line,
                PartRow {
                    index,
                    path: normalize_path(&fields[1]),
                    counts,
                    seconds,
                },
            ))
        })
        .collect::<anyhow::Result<Vec<_>>>()?;
    Ok(Part { meta, rows })
}

/// A move path with single spaces.
pub fn normalize_path(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// One data row: line number, the leading fields (named in `lead`), counts
/// and seconds.
pub type RawRow = (u64, Vec<String>, PerftStats, f64);

/// Reads the rows of a record (checksums verified): column names must be
/// `lead`, then the count columns, then `seconds`.
pub fn read_rows(
    record: &Record,
    file: &str,
    lead: &[&str],
    stats: bool,
) -> anyhow::Result<Vec<RawRow>> {
    let expected = columns_of(lead, stats);
    let text = record.csv_text();
    let text = text.as_str();
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(true)
        .comment(Some(b'#'))
        .from_reader(text.as_bytes());
    let header = reader
        .headers()
        .map_err(|e| anyhow!("{file}: {e}"))?
        .clone();
    let got: Vec<&str> = header.iter().map(str::trim).collect();
    if got != expected {
        bail!(
            "{file}: columns are \"{}\", expected \"{}\"",
            got.join(","),
            expected.join(",")
        );
    }
    let lines = super::suite::Lines::new(text.as_bytes());
    let mut rows = Vec::new();
    for record in reader.records() {
        let record = record.map_err(|e| match e.position() {
            Some(p) => anyhow!("{file}: line {}: {e}", lines.line(p.byte())),
            None => anyhow!("{file}: {e}"),
        })?;
        let line = record.position().map_or(0, |p| lines.line(p.byte()));
        let fields: Vec<&str> = record.iter().collect();
        let n = lead.len();
        let counts = parse_counts(&fields[n..fields.len() - 1])
            .map_err(|e| anyhow!("{file}: line {line}: {e}"))?;
        let seconds_text = fields[fields.len() - 1].trim();
        let seconds: f64 = seconds_text
            .parse()
            .ok()
            .filter(|s: &f64| s.is_finite() && *s >= 0.0)
            .ok_or_else(|| anyhow!("{file}: line {line}: invalid seconds \"{seconds_text}\""))?;
        rows.push((
            line,
            fields[..n].iter().map(|s| s.to_string()).collect(),
            counts,
            seconds,
        ));
    }
    Ok(rows)
}

#[cfg(test)]
mod tests {
    use super::*;
    use movegen::variants::Chess;

    fn meta(stats: bool) -> RunMeta {
        RunMeta {
            variant: VariantKind::Chess,
            fen: VariantKind::Chess.start_fen().to_string(),
            depth: 4,
            split_depth: 2,
            stats,
            shard: Some(ShardSpec { index: 2, count: 3 }),
            subtrees: 400,
        }
    }

    #[test]
    fn part_round_trip() {
        for stats in [false, true] {
            let rows = vec![
                PartRow {
                    index: 1,
                    path: "a2a3 a7a6".to_string(),
                    counts: PerftStats {
                        nodes: 380,
                        captures: if stats { 2 } else { 0 },
                        ..PerftStats::default()
                    },
                    seconds: 0.25,
                },
                PartRow {
                    index: 4,
                    path: "a2a3 b7b5".to_string(),
                    counts: PerftStats {
                        nodes: 420,
                        ..PerftStats::default()
                    },
                    seconds: 0.5,
                },
            ];
            let mut buf = Vec::new();
            write_part(
                &mut buf,
                &meta(stats),
                StatColumns::of::<Chess>(),
                &rows,
                Identity::Inline,
            )
            .unwrap();
            let dir = tempfile::tempdir().unwrap();
            let path = dir.path().join("p.csv");
            std::fs::write(&path, &buf).unwrap();
            let streamed = read_part(&path).unwrap();
            assert_eq!(
                streamed.rows[1].0, 11,
                "line numbers count the header block"
            );
            // A part written to a file: the CSV and its sidecar.
            let mut csv = Vec::new();
            write_part(
                &mut csv,
                &meta(stats),
                StatColumns::of::<Chess>(),
                &rows,
                Identity::Sidecar,
            )
            .unwrap();
            assert!(csv.starts_with(b"index,path,"));
            std::fs::write(&path, &csv).unwrap();
            std::fs::write(
                record::meta_path(&path),
                PART_FORMAT.meta_text(&meta(stats).identity()),
            )
            .unwrap();
            let part = read_part(&path).unwrap();
            assert_eq!(part.rows[1].0, 3);
            for part in [streamed, part] {
                assert_eq!(part.meta, meta(stats));
                assert_eq!(part.rows.len(), 2);
                for ((_, got), want) in part.rows.iter().zip(&rows) {
                    assert_eq!(got.index, want.index);
                    assert_eq!(got.path, want.path);
                    assert_eq!(got.counts, want.counts);
                    assert_eq!(got.seconds, want.seconds);
                }
            }
        }
    }

    #[test]
    fn header_differences_and_errors() {
        let a = meta(false);
        let mut b = a.clone();
        b.depth = 5;
        assert_eq!(
            a.difference(&b, &[]),
            Some(("depth".to_string(), "4".to_string(), "5".to_string()))
        );
        b = a.clone();
        b.shard = Some(ShardSpec { index: 1, count: 3 });
        assert_eq!(a.difference(&b, &["shard"]), None);
        assert_eq!(RunMeta::from_identity(&a.identity(), "x").unwrap(), a);
        let mut buf = Vec::new();
        write_part(
            &mut buf,
            &a,
            StatColumns::of::<Chess>(),
            &[],
            Identity::Inline,
        )
        .unwrap();
        let text = String::from_utf8(buf).unwrap();
        assert!(
            text.starts_with("# varia perft part v2\n# variant: chess\n"),
            "{text}"
        );
        let e = Record::parse(&text, &CHECKPOINT_FORMAT, "x").unwrap_err();
        assert!(
            e.to_string().contains("not a varia perft checkpoint"),
            "{e}"
        );
        let r = Record::parse(&text.replace("# depth: 4\n", ""), &PART_FORMAT, "x").unwrap();
        let e = RunMeta::from_identity(&r.identity, "x").unwrap_err();
        assert!(e.to_string().contains("\"# depth:\""), "{e}");
    }
}
