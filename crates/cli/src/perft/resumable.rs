//! Runs over named subtrees ([`super::subtrees`]): a position's perft with
//! `--checkpoint FILE`, and one shard of a split run (`--shard I/N`), which
//! writes a part file for `varia perft-merge`.

use super::checkpoint::{sum, Checkpoint};
use super::count::Counter;
use super::parallel::{divide_counts, perft_counts};
use super::part::{write_part, Identity, PartRow, RunMeta, PART_FORMAT};
use super::progress::{Progress, Units};
use super::report::Reporter;
use super::subtrees::{count, enumerate, Done, ShardSpec, Subtree};
use super::{report_divide, report_row, sorted_uci, Settings};
use movegen::{PerftStats, Position, StatColumns, Variant};
use std::io::Write;
use std::path::Path;
use std::sync::Mutex;
use std::time::Instant;

/// The split depth of a checkpointed run without `--split-depth`: three
/// plies (thousands of subtrees in the usual games: fine-grained enough to
/// lose little when killed, few enough to record cheaply), less when the
/// depth is smaller.
pub const DEFAULT_CHECKPOINT_SPLIT: u32 = 3;

/// The results of subtrees `mine` at `depth`: from `checkpoint` where it has
/// them, else counted (and recorded there). In `mine` order.
fn count_resumable<V: Variant>(
    subtrees: &[Subtree<V>],
    mine: &[usize],
    depth: u32,
    settings: &Settings,
    counter: Counter<'_>,
    checkpoint: Option<(&Checkpoint, &Path)>,
    progress: &Progress,
) -> anyhow::Result<Vec<Done>> {
    let mut results: Vec<Option<Done>> = vec![None; subtrees.len()];
    if let Some((ck, _)) = checkpoint {
        for &i in mine {
            results[i] = ck.get(depth, i);
        }
    }
    let todo: Vec<usize> = mine
        .iter()
        .copied()
        .filter(|&i| results[i].is_none())
        .collect();
    if let Some((_, path)) = checkpoint {
        let resumed = mine.len() - todo.len();
        if resumed > 0 && !settings.quiet {
            eprintln!(
                "note: checkpoint {}: depth {depth}: {resumed} of {} subtrees already done",
                path.display(),
                mine.len()
            );
        }
    }
    let results = Mutex::new(results);
    count(
        subtrees,
        &todo,
        depth,
        &settings.pool,
        counter,
        progress,
        &|done| {
            if let Some((ck, _)) = checkpoint {
                ck.record(depth, &subtrees[done.index].path_text(), done)?;
            }
            results.lock().unwrap_or_else(|p| p.into_inner())[done.index] = Some(done);
            Ok(())
        },
    )?;
    let results = results.into_inner().unwrap_or_else(|p| p.into_inner());
    Ok(mine
        .iter()
        .map(|&i| {
            results[i].unwrap_or(Done {
                index: i,
                counts: PerftStats::default(),
                seconds: 0.0,
            })
        })
        .collect())
}

/// The subtrees of `pos` at `split` plies and the identity of the run that
/// counts them at `depth` (all of them, or those of `shard`): what the
/// checkpoint and the part file record.
fn split_run<V: Variant>(
    pos: &Position<V>,
    depth: u32,
    split: u32,
    settings: &Settings,
    shard: Option<ShardSpec>,
) -> anyhow::Result<(Vec<Subtree<V>>, RunMeta)> {
    let subtrees = enumerate(pos, split)?;
    let meta = RunMeta {
        variant: V::KIND,
        fen: pos.fen(),
        depth,
        split_depth: split,
        stats: settings.stats,
        shard,
        subtrees: subtrees.len(),
    };
    Ok((subtrees, meta))
}

/// `varia perft --checkpoint FILE` for one position: depths 1..=`depth`
/// (or the divide of `depth`); depths beyond the split are counted subtree
/// by subtree and recorded in the file, shallower ones directly.
pub fn run_position_checkpointed<V: Variant>(
    pos: &Position<V>,
    depth: u32,
    divide: bool,
    settings: &Settings,
    path: &Path,
    reporter: &mut dyn Reporter,
) -> anyhow::Result<()> {
    let split = settings
        .split_depth
        .unwrap_or(DEFAULT_CHECKPOINT_SPLIT.min(depth - 1));
    let table = settings.table();
    let counter = super::count::counter(settings.stats, table.as_ref());
    let (subtrees, meta) = split_run(pos, depth, split, settings, None)?;
    let fen = &meta.fen;
    let ck = Checkpoint::open(path, &meta, &subtrees)?;
    let all: Vec<usize> = (0..subtrees.len()).collect();
    reporter.begin_position(V::KIND, fen)?;
    let depths = if divide { depth..=depth } else { 1..=depth };
    for d in depths {
        let progress = settings.progress(0, Units::Tasks, format!("{} depth {d}", V::KIND));
        let start = Instant::now();
        // Shallow depths (and a divide of a split at the root) directly.
        let direct = d <= split || (divide && split == 0);
        // Otherwise the subtrees, resumed from and recorded in the file.
        let resumed = if direct {
            None
        } else {
            Some(count_resumable(
                &subtrees,
                &all,
                d,
                settings,
                counter,
                Some((&ck, path)),
                &progress,
            )?)
        };
        if divide {
            let moves = if let Some(done) = &resumed {
                // Subtrees are in sorted-path order: each root move's are together.
                let mut moves: Vec<(String, PerftStats)> = Vec::new();
                for (t, r) in subtrees.iter().zip(done) {
                    let first = t.path[0].uci();
                    match moves.last_mut() {
                        Some((m, c)) if *m == first => *c += r.counts,
                        _ => moves.push((first, r.counts)),
                    }
                }
                moves
            } else {
                sorted_uci(divide_counts(pos, d, settings.workers(&progress), counter))
            };
            report_divide::<V>(reporter, &progress, start, fen, d, &moves)?;
        } else {
            let counts = match &resumed {
                Some(done) => sum(done.iter().map(|r| r.counts)),
                None => perft_counts(pos, d, settings.workers(&progress), counter),
            };
            report_row::<V>(reporter, &progress, start, fen, d, counts)?;
        }
    }
    reporter.end_position()?;
    Ok(())
}

/// `varia perft --split-depth K --shard I/N`: counts this shard's subtrees
/// at `depth` and writes the part file to `out` (or stdout).
pub fn run_shard<V: Variant>(
    pos: &Position<V>,
    depth: u32,
    split: u32,
    shard: ShardSpec,
    settings: &Settings,
    checkpoint: Option<&Path>,
    out: Option<&Path>,
) -> anyhow::Result<()> {
    // One writer per part file, for the whole run.
    let _lock = match out {
        Some(p) => Some(arena::record::OutputLock::acquire(
            p,
            &format!("part file {}", p.display()),
        )?),
        None => None,
    };
    let table = settings.table();
    let counter = super::count::counter(settings.stats, table.as_ref());
    let (subtrees, meta) = split_run(pos, depth, split, settings, Some(shard))?;
    let ck = match checkpoint {
        Some(p) => Some((Checkpoint::open(p, &meta, &subtrees)?, p)),
        None => None,
    };
    let mine: Vec<usize> = (0..subtrees.len()).filter(|&i| shard.owns(i)).collect();
    let progress = settings.progress(
        0,
        Units::Tasks,
        format!("{} depth {depth} shard {shard}", V::KIND),
    );
    let done = count_resumable(
        &subtrees,
        &mine,
        depth,
        settings,
        counter,
        ck.as_ref().map(|(c, p)| (c, *p)),
        &progress,
    )?;
    progress.finish();
    let rows: Vec<PartRow> = done
        .iter()
        .map(|d| PartRow {
            index: d.index,
            path: subtrees[d.index].path_text(),
            counts: d.counts,
            seconds: d.seconds,
        })
        .collect();
    let columns = StatColumns::of::<V>();
    match out {
        None => {
            let mut o = std::io::stdout().lock();
            write_part(&mut o, &meta, columns, &rows, Identity::Inline)?;
            o.flush()?;
        }
        // A FIFO or device is a stream too: no file to put a sidecar beside.
        Some(p) if std::fs::metadata(p).is_ok_and(|m| !m.is_file()) => {
            crate::output::write_output_file(p, |f| {
                write_part(f, &meta, columns, &rows, Identity::Inline)
            })?
        }
        Some(p) => {
            let identity = PART_FORMAT.meta_text(&meta.identity());
            crate::output::write_output_file(&arena::record::meta_path(p), |f| {
                Ok(f.write_all(identity.as_bytes())?)
            })?;
            crate::output::write_output_file(p, |f| {
                write_part(f, &meta, columns, &rows, Identity::Sidecar)
            })?
        }
    }
    Ok(())
}
