//! `--checkpoint FILE`: long runs record each finished subtree there, and a
//! run restarted with the same arguments skips what the file already holds.
//!
//! The file ([`super::part`] describes the layout) starts with a header
//! naming the run (variant, FEN, depth, split depth, stats, shard, number of
//! subtrees); a file written for another run is rejected, never changed.
//! Then one row per finished subtree and depth, appended and flushed as the
//! subtree finishes, so a killed run loses at most the subtrees that were
//! in flight. A torn last line (a machine crash mid-write) is cut off when
//! the file is opened again. Every row is checked against the subtree list
//! (number and path), so rows cannot be attributed to the wrong subtree.
//!
//! Hashing and thread counts are not part of the run's identity: they do
//! not change the counts, so a run may be resumed with other values.

use super::part::{count_fields, read_rows, RunMeta, CHECKPOINT_TAG};
use super::subtrees::{Done, Subtree};
use anyhow::{anyhow, bail, Context as _};
use movegen::{PerftStats, StatColumns, Variant};
use std::collections::HashMap;
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// An open checkpoint file.
pub struct Checkpoint {
    path: PathBuf,
    file: Mutex<File>,
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
        let name = path.display();
        let text = match search::input::read(path) {
            Ok(bytes) => String::from_utf8(bytes)
                .map_err(|_| anyhow!("checkpoint file {name} is not valid UTF-8"))?,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
            Err(e) => return Err(anyhow!("cannot read checkpoint file {name}: {e}")),
        };
        let columns = StatColumns::of::<V>();
        let mut done = HashMap::new();
        if text.trim().is_empty() {
            // New (or empty) file: write the header.
            let mut f = File::create(path)
                .with_context(|| format!("cannot write checkpoint file {name}"))?;
            let mut head = meta.header(CHECKPOINT_TAG);
            let mut cols = vec!["depth", "index", "path"];
            cols.extend(super::part::count_columns(meta.stats));
            cols.push("seconds");
            head.push_str(&cols.join(","));
            head.push('\n');
            f.write_all(head.as_bytes())
                .and_then(|()| f.flush())
                .with_context(|| format!("cannot write checkpoint file {name}"))?;
        } else {
            let what = format!("checkpoint file {name}");
            let found = RunMeta::parse(&text, CHECKPOINT_TAG, &what)?;
            if let Some((field, want, got)) = meta.difference(&found, &[]) {
                bail!(
                    "checkpoint file {name} belongs to another run: its {field} is {got}, this run's is {want} (use another file, or delete it to start over)"
                );
            }
            // A torn last line (no newline) is dropped from the file.
            let complete = match text.rfind('\n') {
                Some(i) => &text[..=i],
                None => "",
            };
            if complete.len() < text.len() {
                let f = OpenOptions::new()
                    .write(true)
                    .open(path)
                    .with_context(|| format!("cannot write checkpoint file {name}"))?;
                f.set_len(complete.len() as u64)
                    .with_context(|| format!("cannot write checkpoint file {name}"))?;
            }
            let rows = read_rows(complete, &what, &["depth", "index", "path"], meta.stats)?;
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
        let file = OpenOptions::new()
            .append(true)
            .open(path)
            .with_context(|| format!("cannot write checkpoint file {name}"))?;
        Ok(Checkpoint {
            path: path.to_path_buf(),
            file: Mutex::new(file),
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
        let mut w = csv::WriterBuilder::new()
            .has_headers(false)
            .from_writer(Vec::new());
        let mut rec = vec![depth.to_string(), done.index.to_string(), path.to_string()];
        rec.extend(count_fields(self.stats, self.columns, &done.counts));
        rec.push(format!("{:.6}", done.seconds));
        w.write_record(&rec)?;
        let line = w.into_inner().map_err(|e| anyhow!("{e}"))?;
        let mut f = self.file.lock().unwrap_or_else(|p| p.into_inner());
        f.write_all(&line)
            .and_then(|()| f.flush())
            .with_context(|| format!("cannot write checkpoint file {}", self.path.display()))
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
