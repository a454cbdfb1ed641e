//! Parallel perft: the tree is split into subtasks at the root and the
//! second ply (deeper when that gives too few tasks), the subtasks run on a
//! rayon pool, and their counts are summed per root move so that a divide
//! comes for free.

use super::progress::Progress;
use movegen::{perft, Move, Position, Variant};
use rayon::prelude::*;

/// How a perft is cut into subtasks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SplitConfig {
    /// Always split at least this many plies below the root (when the depth
    /// allows): 2 splits at the root and the second ply.
    pub min_plies: u32,
    /// Keep splitting one more ply while there are fewer tasks than this ...
    pub min_tasks: usize,
    /// ... but never below this many plies.
    pub max_plies: u32,
}

impl Default for SplitConfig {
    fn default() -> Self {
        SplitConfig {
            min_plies: 2,
            min_tasks: 256,
            max_plies: 4,
        }
    }
}

impl SplitConfig {
    /// The default split for a pool of `threads` workers: enough tasks that
    /// the largest one is a small share of each worker's load.
    pub fn for_threads(threads: usize) -> SplitConfig {
        SplitConfig {
            min_tasks: (64 * threads).max(256),
            ..SplitConfig::default()
        }
    }
}

/// One subtree: the position after some plies, which root move leads to it,
/// and the depth still to count below it.
struct Task<V: Variant> {
    root: usize,
    pos: Position<V>,
    depth: u32,
}

/// Cuts the perft of `pos` at `depth` into tasks, grouped by root move.
/// Returns the root moves and the tasks (each at least one ply deep).
fn split<V: Variant>(
    pos: &Position<V>,
    depth: u32,
    config: SplitConfig,
) -> (Vec<Move>, Vec<Task<V>>) {
    let roots: Vec<Move> = pos.legal_moves().to_vec();
    if depth == 0 {
        return (roots, Vec::new());
    }
    let mut tasks: Vec<Task<V>> = roots
        .iter()
        .enumerate()
        .map(|(root, &m)| Task {
            root,
            pos: pos.play(m),
            depth: depth - 1,
        })
        .collect();
    let mut plies = 1;
    // Every task has the same remaining depth; split one ply further only
    // while the children would still have a ply to count.
    while plies < config.max_plies
        && tasks.first().is_some_and(|t| t.depth >= 2)
        && (plies < config.min_plies || tasks.len() < config.min_tasks)
    {
        let mut next = Vec::with_capacity(tasks.len() * 32);
        for t in &tasks {
            for &m in t.pos.legal_moves().iter() {
                next.push(Task {
                    root: t.root,
                    pos: t.pos.play(m),
                    depth: t.depth - 1,
                });
            }
        }
        tasks = next;
        plies += 1;
    }
    (roots, tasks)
}

/// Perft of `pos` at `depth` divided by root move, computed on `pool`.
/// Root moves come in generation order; an empty list at depth 0.
/// `progress` gets its length set to the number of subtasks and one tick
/// per finished subtask.
pub fn perft_divide_parallel<V: Variant>(
    pos: &Position<V>,
    depth: u32,
    pool: &rayon::ThreadPool,
    config: SplitConfig,
    progress: &Progress,
) -> Vec<(Move, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    let (roots, tasks) = split(pos, depth, config);
    progress.set_length(tasks.len() as u64);
    let counts: Vec<u64> = pool.install(|| {
        tasks
            .par_iter()
            .with_max_len(1)
            .map(|t| {
                let n = perft(&t.pos, t.depth);
                progress.inc(1, n);
                n
            })
            .collect()
    });
    let mut per_root = vec![0u64; roots.len()];
    for (t, n) in tasks.iter().zip(counts) {
        per_root[t.root] += n;
    }
    roots.into_iter().zip(per_root).collect()
}

/// Perft of `pos` at `depth`, computed on `pool`.
pub fn perft_parallel<V: Variant>(
    pos: &Position<V>,
    depth: u32,
    pool: &rayon::ThreadPool,
    config: SplitConfig,
    progress: &Progress,
) -> u64 {
    match depth {
        0 => 1,
        // Too small to be worth a thread: the bulk count of one position.
        1 => pos.count_legal(),
        _ => perft_divide_parallel(pos, depth, pool, config, progress)
            .iter()
            .map(|&(_, n)| n)
            .sum(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use movegen::{divide, variants, VariantKind};

    fn pool(threads: usize) -> rayon::ThreadPool {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .expect("pool")
    }

    #[test]
    fn matches_sequential_divide_in_every_variant() {
        let pool = pool(2);
        let hidden = Progress::hidden();
        for kind in VariantKind::ALL {
            movegen::dispatch!(kind, V => {
                let pos = Position::<V>::startpos();
                for depth in 0..=4 {
                    let par = perft_divide_parallel(&pos, depth, &pool, SplitConfig::default(), &hidden);
                    assert_eq!(par, divide(&pos, depth), "{kind} depth {depth}");
                    assert_eq!(
                        perft_parallel(&pos, depth, &pool, SplitConfig::default(), &hidden),
                        perft(&pos, depth),
                        "{kind} depth {depth}"
                    );
                }
            });
        }
    }

    #[test]
    fn deep_split_and_dead_ends() {
        // Few moves at the root, mates and finished games inside the split
        // plies: splitting to the maximum still sums right.
        let pool = pool(3);
        let hidden = Progress::hidden();
        let config = SplitConfig {
            min_plies: 4,
            min_tasks: usize::MAX,
            max_plies: 4,
        };
        let fens = [
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "4k3/8/8/8/8/8/8/4K2R w K - 0 1",
        ];
        for fen in fens {
            let pos = Position::<variants::Chess>::from_fen(fen).expect("fen");
            for depth in 1..=5 {
                assert_eq!(
                    perft_divide_parallel(&pos, depth, &pool, config, &hidden),
                    divide(&pos, depth),
                    "{fen} depth {depth}"
                );
            }
        }
        // Atomic: a capture that explodes the king ends the game inside the split.
        let pos = Position::<variants::Atomic>::from_fen("4k3/4q3/8/8/8/8/4Q3/4K3 w - - 0 1")
            .expect("fen");
        for depth in 1..=4 {
            assert_eq!(
                perft_divide_parallel(&pos, depth, &pool, config, &hidden),
                divide(&pos, depth)
            );
        }
    }
}
