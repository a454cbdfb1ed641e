//! `varia perft-merge PARTS...`: combines the part files of a split perft
//! (`varia perft --split-depth K --shard I/N`, one per shard, from any
//! number of machines) into the per-depth result of `varia perft`.
//!
//! Checks, each failing with a one-line error: every part is of the same
//! run (variant, FEN, depth, split depth, stats, number of shards and of
//! subtrees); every row is the subtree its number says (the merge lists the
//! subtrees again from the FEN, [`crate::perft::subtrees`]) and belongs to
//! its file's shard; every subtree appears exactly once (missing and
//! duplicated subtrees are named, with their shards).
//!
//! Output rows, in the shape of `varia perft` (`--format csv` gives the
//! same columns as `varia perft --format csv`, with or without `--stats`):
//! - depths 1..K, recounted here from the FEN (a perft of K plies, small by
//!   construction: it is what enumerating the subtrees costs anyway);
//!   `seconds` is the time of that recount;
//! - depth N, the requested depth: the sum of the parts' subtrees;
//!   `seconds` is the sum of the subtrees' times (the total compute time
//!   of all shards, not a wall-clock time).
//!
//! Depths K+1..N-1 are not in the parts (a subtree row carries depth N
//! only) and are left out.

use crate::perft::parallel::perft_counts;
use crate::perft::part::{read_part, Part, RunMeta};
use crate::perft::report::{self, DepthRow};
use crate::perft::subtrees::{enumerate, ShardSpec};
use crate::perft::{count, progress::Units, Format, Settings};
use anyhow::{anyhow, bail};
use movegen::{dispatch_cold, PerftStats, Position, StatColumns, Variant};
use std::collections::BTreeSet;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

/// Arguments of `varia perft-merge`.
#[derive(clap::Args, Debug, Clone)]
#[command(after_help = "\
Rows: depths 1..K (K = the split depth) are recounted from the FEN; the last
row, the requested depth, is the sum of the parts; depths in between are not
in the parts and are left out. In the last row, seconds is the summed compute
time of all subtrees.

Examples:
  for i in 1 2 3 4; do varia perft --variant chess --depth 7 --split-depth 2 --shard $i/4 --out part$i.csv; done
  varia perft-merge part1.csv part2.csv part3.csv part4.csv --format csv")]
pub struct Args {
    /// The part files of one split run (`varia perft ... --shard I/N`), one
    /// per shard, in any order.
    #[arg(value_name = "PARTS", required = true)]
    pub parts: Vec<PathBuf>,

    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Table)]
    pub format: Format,

    /// Worker threads for the recounted shallow depths (default: all cores).
    #[arg(long, value_name = "T")]
    pub threads: Option<usize>,

    /// No progress bar.
    #[arg(long)]
    pub quiet: bool,
}

/// Runs `varia perft-merge`.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let mut given = std::collections::HashSet::new();
    for path in &args.parts {
        let key = std::fs::canonicalize(path).unwrap_or_else(|_| path.clone());
        if !given.insert(key) {
            bail!("part file {} is given twice", path.display());
        }
    }
    let mut parts = Vec::with_capacity(args.parts.len());
    for path in &args.parts {
        parts.push((path.display().to_string(), read_part(path)?));
    }
    let (first_name, first) = &parts[0];
    let shards = first.meta.shard.map_or(1, |s| s.count);
    for (name, part) in &parts[1..] {
        if let Some((field, a, b)) = first.meta.difference(&part.meta, &["shard"]) {
            bail!("part files disagree on {field}: {first_name} has {a}, {name} has {b} (parts of different runs?)");
        }
        let count = part.meta.shard.map_or(1, |s| s.count);
        if count != shards {
            bail!(
                "part files disagree on the number of shards: {first_name} is shard {}, {name} is shard {}",
                first.meta.shard.map_or_else(String::new, |s| s.to_string()),
                part.meta.shard.map_or_else(String::new, |s| s.to_string())
            );
        }
    }
    let settings = Settings::from_args(&crate::perft::Args {
        threads: args.threads,
        quiet: args.quiet,
        ..Default::default()
    })?;
    let kind = first.meta.variant;
    dispatch_cold!(kind, V => merge::<V>(&parts, shards, args.format, &settings))
}

/// Lists up to three items, then how many more.
fn some_of(items: &[String]) -> String {
    let mut text = items.iter().take(3).cloned().collect::<Vec<_>>().join(", ");
    if items.len() > 3 {
        text.push_str(&format!(" and {} more", items.len() - 3));
    }
    text
}

fn merge<V: Variant>(
    parts: &[(String, Part)],
    shards: u32,
    format: Format,
    settings: &Settings,
) -> anyhow::Result<ExitCode> {
    let (first_name, first) = &parts[0];
    let meta = &first.meta;
    let pos = Position::<V>::from_fen(&meta.fen)
        .map_err(|e| anyhow!("part file {first_name}: invalid FEN \"{}\": {e}", meta.fen))?;
    if meta.split_depth == 0 || meta.split_depth >= meta.depth {
        bail!(
            "part file {first_name}: split depth {} must be between 1 and depth {} - 1",
            meta.split_depth,
            meta.depth
        );
    }
    let subtrees = enumerate(&pos, meta.split_depth)?;
    if subtrees.len() != meta.subtrees {
        bail!(
            "part files list {} subtrees, but {} at split depth {} has {}",
            meta.subtrees,
            meta.fen,
            meta.split_depth,
            subtrees.len()
        );
    }
    let paths: Vec<String> = subtrees.iter().map(|t| t.path_text()).collect();
    let (total, seconds) = tally(parts, &paths, shards)?;
    print_rows(&pos, meta, total, seconds, format, settings)
}

/// Adds up the parts' subtree counts, checking that every subtree is in
/// the file of its shard, once, and that none is missing. Returns the total
/// and the parts' summed time.
fn tally(
    parts: &[(String, Part)],
    paths: &[String],
    shards: u32,
) -> anyhow::Result<(PerftStats, f64)> {
    let show = |i: usize| {
        let p = if paths[i].is_empty() {
            "(root)"
        } else {
            &paths[i]
        };
        format!("\"{p}\" (shard {}/{shards})", ShardSpec::owner(i, shards))
    };
    let mut seen: Vec<Option<(usize, u64)>> = vec![None; paths.len()];
    let mut total = PerftStats::default();
    let mut seconds = 0.0;
    let mut duplicates = Vec::new();
    for (p, (name, part)) in parts.iter().enumerate() {
        let shard = part.meta.shard.unwrap_or(ShardSpec { index: 1, count: 1 });
        for (line, row) in &part.rows {
            let at = format!("part file {name}: line {line}");
            let i = row.index;
            if i >= paths.len() {
                bail!(
                    "{at}: subtree index {i} out of range (there are {})",
                    paths.len()
                );
            }
            if row.path != paths[i] {
                bail!(
                    "{at}: subtree {i} is \"{}\", the file says \"{}\"",
                    paths[i],
                    row.path
                );
            }
            if !shard.owns(i) {
                bail!(
                    "{at}: subtree {i} belongs to shard {}/{shards}, not to this file's shard {shard}",
                    ShardSpec::owner(i, shards)
                );
            }
            match seen[i] {
                Some((q, l)) => duplicates.push(format!(
                    "{} in {} line {l} and {name} line {line}",
                    show(i),
                    parts[q].0
                )),
                None => {
                    seen[i] = Some((p, *line));
                    total += row.counts;
                    seconds += row.seconds;
                }
            }
        }
    }
    if !duplicates.is_empty() {
        bail!(
            "{} subtree(s) appear more than once: {}",
            duplicates.len(),
            some_of(&duplicates)
        );
    }
    let missing: Vec<usize> = (0..paths.len()).filter(|&i| seen[i].is_none()).collect();
    if !missing.is_empty() {
        let given: BTreeSet<u32> = parts
            .iter()
            .filter_map(|(_, p)| p.meta.shard.map(|s| s.index))
            .collect();
        let absent: Vec<String> = (1..=shards)
            .filter(|i| !given.contains(i))
            .map(|i| format!("{i}/{shards}"))
            .collect();
        let names: Vec<String> = missing.iter().map(|&i| show(i)).collect();
        let files = if absent.is_empty() {
            String::new()
        } else {
            format!("; no part file for shard {}", absent.join(", "))
        };
        bail!(
            "{} of {} subtrees missing: {}{files}",
            missing.len(),
            paths.len(),
            some_of(&names)
        );
    }

    Ok((total, seconds))
}

/// Prints the depths below the split (counted here) and the merged depth.
fn print_rows<V: Variant>(
    pos: &Position<V>,
    meta: &RunMeta,
    total: PerftStats,
    seconds: f64,
    format: Format,
    settings: &Settings,
) -> anyhow::Result<ExitCode> {
    let columns = StatColumns::of::<V>();
    let mut reporter = report::new(format, false, meta.stats, std::io::stdout().lock())?;
    reporter.begin_position(V::KIND, &meta.fen)?;
    let counter = count::counter(meta.stats, None);
    for d in 1..=meta.split_depth {
        let progress = settings.progress(0, Units::Tasks, format!("{} depth {d}", V::KIND));
        let start = Instant::now();
        let counts = perft_counts(pos, d, settings.workers(&progress), counter);
        let seconds = start.elapsed().as_secs_f64();
        progress.finish();
        reporter.row(&DepthRow {
            variant: V::KIND,
            fen: &meta.fen,
            depth: d,
            counts,
            columns,
            seconds,
        })?;
    }
    reporter.row(&DepthRow {
        variant: V::KIND,
        fen: &meta.fen,
        depth: meta.depth,
        counts: total,
        columns,
        seconds,
    })?;
    reporter.end_position()?;
    reporter.finish()?;
    Ok(ExitCode::SUCCESS)
}
