//! `--checkpoint FILE`: long runs record each finished subtree there, and a
//! run restarted with the same arguments skips what the file already holds.
//!
//! The file ([`super::part`] describes the layout) starts with a header
//! naming the run (variant, FEN, depth, split depth, stats, shard, number of
//! subtrees); a file written for another run is rejected, never changed.
//! Then one row per finished subtree and depth, appended and flushed as the
//! subtree finishes, so a killed run loses at most the subtrees that were
//! in flight. A torn last line (a machine crash mid-write) is cut off when
//! the file is opened again; a row whose checksum does not match (an edited
//! count) is an error naming its line. Every row is checked against the subtree list
//! (number and path), so rows cannot be attributed to the wrong subtree.
//!
//! Hashing and thread counts are not part of the run's identity: they do
//! not change the counts, so a run may be resumed with other values.

use super::part::{columns_of, count_fields, csv_line, read_rows, RunMeta, CHECKPOINT_FORMAT};
use super::subtrees::{Done, Subtree};
use anyhow::{anyhow, bail};
use arena::record::AppendLog;
use movegen::{PerftStats, StatColumns, Variant};
use std::collections::HashMap;
use std::path::Path;
use std::sync::Mutex;

/// An open checkpoint file.
pub struct Checkpoint {
    log: Mutex<AppendLog>,
    stats: bool,
    columns: StatColumns,
    /// Finished subtrees by `(depth, index)`.
    done: HashMap<(u32, usize), Done>,
}

impl Checkpoint {
    /// Opens (or creates) the checkpoint of the run `meta` over `subtrees`.
    pub fn open<V: Variant>(
        path: &Path,
        meta: &RunMeta,
        subtrees: &[Subtree<V>],
    ) -> anyhow::Result<Checkpoint> {
        let what = format!("checkpoint file {}", path.display());
        let columns = StatColumns::of::<V>();
        let names = columns_of(&["depth", "index", "path"], meta.stats);
        let (log, old) =
            AppendLog::open(path, &CHECKPOINT_FORMAT, &meta.identity(), &names, &what)?;
        let mut done = HashMap::new();
        if let Some(record) = old {
            let rows = read_rows(&record, &what, &["depth", "index", "path"], meta.stats)?;
            for (line, fields, counts, seconds) in rows {
                let at = || format!("{what}: line {line}");
                let depth: u32 = fields[0]
                    .trim()
                    .parse()
                    .map_err(|_| anyhow!("{}: invalid depth \"{}\"", at(), fields[0]))?;
                if depth <= meta.split_depth || depth > meta.depth {
                    bail!(
                        "{}: depth {depth} out of range (split depth {} < depth <= {})",
                        at(),
                        meta.split_depth,
                        meta.depth
                    );
                }
                let index: usize = fields[1]
                    .trim()
                    .parse()
                    .ok()
                    .filter(|&i| i < subtrees.len())
                    .ok_or_else(|| {
                        anyhow!(
                            "{}: invalid subtree index \"{}\" (there are {})",
                            at(),
                            fields[1],
                            subtrees.len()
                        )
                    })?;
                let want = subtrees[index].path_text();
                let got = super::part::normalize_path(&fields[2]);
                if got != want {
                    bail!(
                        "{}: subtree {index} is \"{want}\", the file says \"{got}\"",
                        at()
                    );
                }
                if let Some(shard) = meta.shard {
                    if !shard.owns(index) {
                        bail!("{}: subtree {index} is not in shard {shard}", at());
                    }
                }
                let d = Done {
                    index,
                    counts,
                    seconds,
                };
                if let Some(old) = done.insert((depth, index), d) {
                    if old.counts != counts {
                        bail!(
                            "{}: subtree {index} (\"{want}\") at depth {depth} is recorded twice with different counts",
                            at()
                        );
                    }
                }
            }
        }
        Ok(Checkpoint {
            log: Mutex::new(log),
            stats: meta.stats,
            columns,
            done,
        })
    }

    /// The recorded result of subtree `index` at `depth`.
    pub fn get(&self, depth: u32, index: usize) -> Option<Done> {
        self.done.get(&(depth, index)).copied()
    }

    /// Appends (and flushes) the result of a finished subtree.
    pub fn record(&self, depth: u32, path: &str, done: Done) -> anyhow::Result<()> {
        let mut rec = vec![depth.to_string(), done.index.to_string(), path.to_string()];
        rec.extend(count_fields(self.stats, self.columns, &done.counts));
        rec.push(format!("{:.6}", done.seconds));
        let line = csv_line(&rec)?;
        let mut log = self.log.lock().unwrap_or_else(|p| p.into_inner());
        Ok(log.append(&line)?)
    }
}

/// Counts of `done` summed.
pub fn sum(done: impl IntoIterator<Item = PerftStats>) -> PerftStats {
    let mut total = PerftStats::default();
    for c in done {
        total += c;
    }
    total
}
