//! Parallel perft: the tree is split into subtasks at the root and the
//! second ply (deeper when that gives too few tasks), the subtasks run on a
//! rayon pool, and their counts (node counts or detailed stats, hashed or
//! not: a [`Counter`]) are summed per root move so that a divide comes for
//! free.

use super::count::{nodes, Counter};
use super::progress::Progress;
use movegen::{Move, PerftStats, Position, Variant};
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
    /// Exactly `plies` plies below the root, whatever the number of tasks
    /// (`--split-depth`); shallower only where the depth leaves no ply
    /// below the split.
    pub fn fixed(plies: u32) -> SplitConfig {
        SplitConfig {
            min_plies: plies,
            min_tasks: 0,
            max_plies: plies,
        }
    }

    /// The default split for a pool of `threads` workers: enough tasks that
    /// the largest one is a small share of each worker's load.
    pub fn for_threads(threads: usize) -> SplitConfig {
        SplitConfig {
            min_tasks: (64 * threads).max(256),
            ..SplitConfig::default()
        }
    }
}

/// Where a parallel perft runs: the pool, how the tree is cut into subtasks
/// for it, and the progress bar those subtasks tick. One value, so that
/// every count below takes the same three things in one argument.
#[derive(Clone, Copy)]
pub struct Workers<'a> {
    /// The thread pool the subtasks run on.
    pub pool: &'a rayon::ThreadPool,
    /// How the tree is cut into subtasks.
    pub split: SplitConfig,
    /// Gets its length set to the number of subtasks and one tick per
    /// finished subtask.
    pub progress: &'a Progress,
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
            pos: pos.play_unchecked(m),
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
                    pos: t.pos.play_unchecked(m),
                    depth: t.depth - 1,
                });
            }
        }
        tasks = next;
        plies += 1;
    }
    (roots, tasks)
}

/// Counts of `pos` at `depth` divided by root move, computed by `workers`
/// with `counter`. Root moves come in generation order; an empty list at
/// depth 0.
pub fn divide_counts<V: Variant>(
    pos: &Position<V>,
    depth: u32,
    workers: Workers<'_>,
    counter: Counter<'_>,
) -> Vec<(Move, PerftStats)> {
    let Workers {
        pool,
        split: config,
        progress,
    } = workers;
    if depth == 0 {
        return Vec::new();
    }
    if depth == 1 {
        // Leaves only: nothing worth a thread.
        return pos
            .legal_moves()
            .iter()
            .map(|&m| (m, counter.leaf(pos, m)))
            .collect();
    }
    let (roots, tasks) = split(pos, depth, config);
    progress.set_length(tasks.len() as u64);
    let counts: Vec<PerftStats> = pool.install(|| {
        tasks
            .par_iter()
            .with_max_len(1)
            .map(|t| {
                let c = counter.subtree(&t.pos, t.depth);
                progress.inc(1, c.nodes);
                c
            })
            .collect()
    });
    let mut per_root = vec![PerftStats::default(); roots.len()];
    for (t, c) in tasks.iter().zip(counts) {
        per_root[t.root] += c;
    }
    roots.into_iter().zip(per_root).collect()
}

/// Counts of `pos` at `depth` with `counter`, computed by `workers`.
pub fn perft_counts<V: Variant>(
    pos: &Position<V>,
    depth: u32,
    workers: Workers<'_>,
    counter: Counter<'_>,
) -> PerftStats {
    match depth {
        0 => nodes(1),
        // Too small to be worth a thread: the bulk count of one position.
        1 if !counter.stats() => nodes(pos.count_legal()),
        _ => {
            let mut total = PerftStats::default();
            for (_, c) in divide_counts(pos, depth, workers, counter) {
                total += c;
            }
            total
        }
    }
}

/// Perft of `pos` at `depth` divided by root move, computed by `workers`.
/// Root moves come in generation order; an empty list at depth 0.
pub fn perft_divide_parallel<V: Variant>(
    pos: &Position<V>,
    depth: u32,
    workers: Workers<'_>,
) -> Vec<(Move, u64)> {
    divide_counts(pos, depth, workers, Counter::Nodes)
        .into_iter()
        .map(|(m, c)| (m, c.nodes))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use movegen::{divide, perft, perft_stats, variants, VariantKind};

    fn pool(threads: usize) -> rayon::ThreadPool {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .expect("pool")
    }

    fn on<'a>(
        pool: &'a rayon::ThreadPool,
        split: SplitConfig,
        progress: &'a Progress,
    ) -> Workers<'a> {
        Workers {
            pool,
            split,
            progress,
        }
    }

    #[test]
    fn matches_sequential_divide_in_every_variant() {
        let pool = pool(2);
        let hidden = Progress::hidden();
        let workers = on(&pool, SplitConfig::default(), &hidden);
        for kind in VariantKind::ALL {
            movegen::dispatch!(kind, V => {
                let pos = Position::<V>::startpos();
                for depth in 0..=4 {
                    let par = perft_divide_parallel(&pos, depth, workers);
                    assert_eq!(par, divide(&pos, depth), "{kind} depth {depth}");
                    assert_eq!(
                        perft_counts(&pos, depth, workers, Counter::Nodes).nodes,
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
        let workers = on(&pool, config, &hidden);
        let fens = [
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "4k3/8/8/8/8/8/8/4K2R w K - 0 1",
        ];
        for fen in fens {
            let pos = Position::<variants::Chess>::from_fen(fen).expect("fen");
            for depth in 1..=5 {
                assert_eq!(
                    perft_divide_parallel(&pos, depth, workers),
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
                perft_divide_parallel(&pos, depth, workers),
                divide(&pos, depth)
            );
        }
    }

    #[test]
    fn stats_and_hashed_counts_match_sequential() {
        let pool = pool(2);
        let hidden = Progress::hidden();
        let workers = on(&pool, SplitConfig::fixed(2), &hidden);
        for kind in VariantKind::ALL {
            movegen::dispatch!(kind, V => {
                let pos = Position::<V>::startpos();
                let nodes_table = movegen::PerftTable::new(1 << 16);
                let stats_table = super::super::count::StatsTable::new(1 << 16);
                for depth in 0..=4 {
                    let want = perft_stats(&pos, depth);
                    for (counter, stats) in [
                        (Counter::Stats, true),
                        (Counter::HashedStats(&stats_table), true),
                        (Counter::Nodes, false),
                        (Counter::HashedNodes(&nodes_table), false),
                    ] {
                        let got = perft_counts(&pos, depth, workers, counter);
                        if stats {
                            assert_eq!(got, want, "{kind} depth {depth}");
                        } else {
                            assert_eq!(got, nodes(want.nodes), "{kind} depth {depth}");
                        }
                        let per_move = divide_counts(&pos, depth, workers, counter);
                        let mut sum = if depth == 0 { nodes(1) } else { PerftStats::default() };
                        for (_, c) in per_move {
                            sum += c;
                        }
                        assert_eq!(sum, got, "{kind} depth {depth}");
                    }
                }
            });
        }
    }
}
