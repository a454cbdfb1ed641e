//! Named subtrees: the perft tree cut at a fixed number of plies (the split
//! depth K), each subtree named by its move path from the root. Checkpoints
//! record finished subtrees by name, and shards divide them between
//! processes, so the cut must not depend on thread counts or machines.
//!
//! Order and numbering: at every position the legal moves are sorted by
//! their UCI text, and the subtrees are numbered 0, 1, ... in depth-first
//! order, i.e. by the sorted move paths. A position with no legal moves
//! before ply K (a finished game: mate, stalemate, a variant win) is a
//! subtree too, a *dead end* with a shorter path; it counts nothing at any
//! depth beyond the split, but is listed so that the list is the same for
//! every depth and a merge can check that nothing is missing.
//!
//! Shard `I` of `N` (1-based, as Slurm's `--array=1-N` numbers jobs) owns the
//! subtrees whose number `i` has `i % N == I - 1`: round robin over the
//! sorted list, so that neighbouring (similar) subtrees land on different
//! shards.

use super::count::Counter;
use super::progress::Progress;
use anyhow::bail;
use movegen::{Move, PerftStats, Position, Variant};
use rayon::prelude::*;
use std::fmt;
use std::str::FromStr;
use std::time::Instant;

/// The most subtrees a split may produce (the list is held in memory).
pub const MAX_SUBTREES: u64 = 5_000_000;

/// One subtree of the cut (its number is its place in the list).
pub struct Subtree<V: Variant> {
    /// The moves from the root (shorter than the split depth for a dead end).
    pub path: Vec<Move>,
    /// The position at the end of the path.
    pub pos: Position<V>,
    /// No legal moves before the split depth.
    pub dead_end: bool,
}

impl<V: Variant> Subtree<V> {
    /// The path as UCI moves separated by single spaces (empty for the root).
    pub fn path_text(&self) -> String {
        path_text(&self.path)
    }
}

/// UCI moves separated by single spaces.
pub fn path_text(path: &[Move]) -> String {
    path.iter().map(|m| m.uci()).collect::<Vec<_>>().join(" ")
}

/// The subtrees `split` plies below `pos`, in sorted-path order.
/// Errors if there would be more than [`MAX_SUBTREES`].
pub fn enumerate<V: Variant>(pos: &Position<V>, split: u32) -> anyhow::Result<Vec<Subtree<V>>> {
    let leaves = movegen::perft(pos, split);
    if leaves > MAX_SUBTREES {
        bail!(
            "--split-depth {split} gives {leaves} subtrees, more than {MAX_SUBTREES}; use a smaller split depth"
        );
    }
    let mut out = Vec::with_capacity(leaves as usize);
    let mut path = Vec::with_capacity(split as usize);
    walk(pos, split, &mut path, &mut out);
    Ok(out)
}

fn walk<V: Variant>(pos: &Position<V>, left: u32, path: &mut Vec<Move>, out: &mut Vec<Subtree<V>>) {
    let moves = if left == 0 {
        Vec::new()
    } else {
        let mut moves: Vec<(String, Move)> =
            pos.legal_moves().iter().map(|&m| (m.uci(), m)).collect();
        moves.sort_by(|a, b| a.0.cmp(&b.0));
        moves
    };
    if moves.is_empty() {
        out.push(Subtree {
            path: path.clone(),
            pos: *pos,
            dead_end: left > 0,
        });
        return;
    }
    for (_, m) in moves {
        path.push(m);
        walk(&pos.play_unchecked(m), left - 1, path, out);
        path.pop();
    }
}

/// `--shard I/N`: shard `index` (1-based) of `count`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ShardSpec {
    pub index: u32,
    pub count: u32,
}

impl ShardSpec {
    /// The shard (1-based) that owns subtree number `i` among `count` shards.
    pub fn owner(i: usize, count: u32) -> u32 {
        (i % count as usize) as u32 + 1
    }

    /// `true` if this shard owns subtree number `i`.
    pub fn owns(self, i: usize) -> bool {
        Self::owner(i, self.count) == self.index
    }
}

impl fmt::Display for ShardSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

impl FromStr for ShardSpec {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let bad = || format!("invalid shard \"{s}\" (expected I/N with 1 <= I <= N, e.g. 1/4)");
        let (i, n) = s.trim().split_once('/').ok_or_else(bad)?;
        let index: u32 = i.trim().parse().map_err(|_| bad())?;
        let count: u32 = n.trim().parse().map_err(|_| bad())?;
        if count == 0 {
            return Err(format!("invalid shard \"{s}\": N must be at least 1"));
        }
        if index == 0 || index > count {
            return Err(format!(
                "invalid shard \"{s}\": I must be between 1 and {count} (shards are numbered from 1, as in Slurm's --array=1-{count})"
            ));
        }
        Ok(ShardSpec { index, count })
    }
}

/// One finished subtree.
#[derive(Clone, Copy, Debug)]
pub struct Done {
    pub index: usize,
    pub counts: PerftStats,
    /// Wall time of this subtree.
    pub seconds: f64,
}

/// Counts the subtrees `todo` (numbers into `subtrees`) at `depth` plies from
/// the root (so `depth - path length` below each), on `pool`, calling
/// `on_done` as each one finishes (from worker threads, in any order).
/// Dead ends count nothing and are reported without work. Stops at the
/// first error of `on_done`. Subtrees are also split inside (two more plies)
/// when there are too few of them to keep every thread busy.
pub fn count<V: Variant>(
    subtrees: &[Subtree<V>],
    todo: &[usize],
    depth: u32,
    pool: &rayon::ThreadPool,
    counter: Counter<'_>,
    progress: &Progress,
    on_done: &(dyn Fn(Done) -> anyhow::Result<()> + Sync),
) -> anyhow::Result<()> {
    progress.set_length(todo.len() as u64);
    let inner_plies = if todo.len() < 64 * pool.current_num_threads() {
        2
    } else {
        0
    };
    pool.install(|| {
        todo.par_iter().with_max_len(1).try_for_each(|&i| {
            let t = &subtrees[i];
            let start = Instant::now();
            let counts = if t.dead_end {
                PerftStats::default()
            } else {
                let left = depth.saturating_sub(t.path.len() as u32);
                nested(&t.pos, left, counter, inner_plies)
            };
            let seconds = start.elapsed().as_secs_f64();
            progress.inc(1, counts.nodes);
            on_done(Done {
                index: i,
                counts,
                seconds,
            })
        })
    })
}

/// The counts `depth` plies below `pos`, split over the pool for `plies`
/// more plies (where at least 3 plies remain below).
fn nested<V: Variant>(
    pos: &Position<V>,
    depth: u32,
    counter: Counter<'_>,
    plies: u32,
) -> PerftStats {
    if plies == 0 || depth < 4 {
        return if depth == 0 {
            super::count::nodes(1)
        } else {
            counter.subtree(pos, depth)
        };
    }
    let moves = pos.legal_moves();
    moves[..]
        .par_iter()
        .with_max_len(1)
        .map(|&m| nested(&pos.play_unchecked(m), depth - 1, counter, plies - 1))
        .reduce(PerftStats::default, |mut a, b| {
            a += b;
            a
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use movegen::{perft, variants};
    use std::sync::Mutex;

    #[test]
    fn shard_specs() {
        assert_eq!("3/4".parse(), Ok(ShardSpec { index: 3, count: 4 }));
        assert_eq!(" 1 / 1 ".parse(), Ok(ShardSpec { index: 1, count: 1 }));
        for bad in ["0/4", "5/4", "1/0", "a/4", "1", "1/4/5", "-1/4", ""] {
            assert!(bad.parse::<ShardSpec>().is_err(), "{bad:?}");
        }
        let s = ShardSpec { index: 2, count: 3 };
        assert_eq!(s.to_string(), "2/3");
        let owned: Vec<usize> = (0..9).filter(|&i| s.owns(i)).collect();
        assert_eq!(owned, [1, 4, 7]);
    }

    #[test]
    fn sorted_paths_with_dead_ends() {
        // Fool's mate: after 1...Qh4# White has no moves (a dead end at ply 1).
        let fen = "rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2";
        let pos = Position::<variants::Chess>::from_fen(fen).unwrap();
        let subtrees = enumerate(&pos, 2).unwrap();
        let texts: Vec<String> = subtrees.iter().map(Subtree::path_text).collect();
        let mut sorted = texts.clone();
        sorted.sort();
        assert_eq!(texts, sorted);
        let dead: Vec<&str> = subtrees
            .iter()
            .zip(&texts)
            .filter(|(t, _)| t.dead_end)
            .map(|(_, p)| p.as_str())
            .collect();
        assert_eq!(dead, ["d8h4"]);
        let full = subtrees.iter().filter(|t| !t.dead_end).count() as u64;
        assert_eq!(full, perft(&pos, 2));
        // The root of a finished game is one dead end with an empty path.
        let over = Position::<variants::Atomic>::from_fen("8/8/8/8/8/8/8/4K3 b - - 0 1").unwrap();
        let subtrees = enumerate(&over, 3).unwrap();
        assert_eq!(subtrees.len(), 1);
        assert!(subtrees[0].dead_end && subtrees[0].path.is_empty());
        // Split 0: the root itself.
        let start = Position::<variants::Chess>::startpos();
        let subtrees = enumerate(&start, 0).unwrap();
        assert_eq!(subtrees.len(), 1);
        assert!(!subtrees[0].dead_end);
        assert!(enumerate(&start, 6).is_err());
    }

    #[test]
    fn counting_all_subtrees_gives_perft() {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(2)
            .build()
            .unwrap();
        let fen = "rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2";
        let pos = Position::<variants::Chess>::from_fen(fen).unwrap();
        for split in 1..=2 {
            let subtrees = enumerate(&pos, split).unwrap();
            let todo: Vec<usize> = (0..subtrees.len()).collect();
            for depth in split + 1..=5 {
                let total = Mutex::new(PerftStats::default());
                count(
                    &subtrees,
                    &todo,
                    depth,
                    &pool,
                    Counter::Stats,
                    &Progress::hidden(),
                    &|d| {
                        *total.lock().unwrap() += d.counts;
                        Ok(())
                    },
                )
                .unwrap();
                assert_eq!(
                    total.into_inner().unwrap(),
                    movegen::perft_stats(&pos, depth),
                    "split {split} depth {depth}"
                );
            }
        }
    }
}
