//! What a perft counts at each subtree: the node count alone or the
//! detailed stats, each with or without a transposition table.
//!
//! Every count is carried as a [`PerftStats`] (a plain count only fills
//! `nodes`), so the parallel split, checkpoints, shards and the merge handle
//! both kinds the same way.
//!
//! Hashing (`--hash SIZE`): plain counts use [`movegen::PerftTable`] (lock-free,
//! entries verified against the full 64-bit Zobrist key and the depth); the
//! detailed stats, eleven counters per subtree, do not fit its two-word
//! entries and use [`StatsTable`] here, whose buckets are guarded by a mutex
//! each and whose entries also hold the full key and the depth. Either way a
//! hit is taken only when all 64 key bits and the depth match, so a hashed
//! run gives the counts of the unhashed one unless two different positions
//! share a 64-bit key (odds in the `PerftTable` docs and docs/perft.md).

use movegen::{leaf_stats, perft_stats, Move, PerftStats, PerftTable, Position, Variant};
use std::sync::{Mutex, MutexGuard};

/// Counts of a plain perft: `nodes` only.
pub fn nodes(n: u64) -> PerftStats {
    PerftStats {
        nodes: n,
        ..PerftStats::default()
    }
}

/// How each subtree is counted.
#[derive(Clone, Copy)]
pub enum Counter<'a> {
    /// Node count ([`movegen::perft`]).
    Nodes,
    /// Node count through a shared table ([`movegen::perft_hashed`]).
    HashedNodes(&'a PerftTable),
    /// Detailed stats ([`movegen::perft_stats`]).
    Stats,
    /// Detailed stats through a shared table ([`perft_stats_hashed`]).
    HashedStats(&'a StatsTable),
}

impl Counter<'_> {
    /// `true` when the detailed stats are counted.
    pub fn stats(&self) -> bool {
        matches!(self, Counter::Stats | Counter::HashedStats(_))
    }

    /// The counts of the `depth`-ply subtree below `pos`.
    pub fn subtree<V: Variant>(&self, pos: &Position<V>, depth: u32) -> PerftStats {
        match *self {
            Counter::Nodes => nodes(movegen::perft(pos, depth)),
            Counter::HashedNodes(table) => nodes(movegen::perft_hashed(pos, depth, table)),
            Counter::Stats => perft_stats(pos, depth),
            Counter::HashedStats(table) => perft_stats_hashed(pos, depth, table),
        }
    }

    /// The counts of the one leaf reached by playing `m` from `parent`.
    pub fn leaf<V: Variant>(&self, parent: &Position<V>, m: Move) -> PerftStats {
        if self.stats() {
            leaf_stats(parent, m)
        } else {
            nodes(1)
        }
    }
}

/// The transposition table of one position's run (dropped before the next
/// position's is made, so only one is alive at a time).
pub enum HashTable {
    Nodes(PerftTable),
    Stats(StatsTable),
}

impl HashTable {
    /// A table of about `bytes` for plain counts or for stats.
    pub fn new(stats: bool, bytes: usize) -> HashTable {
        if stats {
            HashTable::Stats(StatsTable::new(bytes))
        } else {
            HashTable::Nodes(PerftTable::new(bytes))
        }
    }

    /// The counter that uses this table.
    pub fn counter(&self) -> Counter<'_> {
        match self {
            HashTable::Nodes(t) => Counter::HashedNodes(t),
            HashTable::Stats(t) => Counter::HashedStats(t),
        }
    }
}

/// The counter for a run: `table` if hashing, else the plain one.
pub fn counter(stats: bool, table: Option<&HashTable>) -> Counter<'_> {
    match (table, stats) {
        (Some(t), _) => t.counter(),
        (None, false) => Counter::Nodes,
        (None, true) => Counter::Stats,
    }
}

/// One stored subtree: full Zobrist key, depth (0 = empty) and its stats.
#[derive(Clone, Copy, Default)]
struct StatsEntry {
    key: u64,
    depth: u32,
    stats: PerftStats,
}

/// Two entries per bucket: the first keeps the deepest subtree seen, the
/// second takes whatever the first does not.
type StatsBucket = [StatsEntry; 2];

/// Detailed perft stats keyed by the full 64-bit Zobrist key and the depth,
/// shared by all threads, one mutex per bucket.
pub struct StatsTable {
    buckets: Vec<Mutex<StatsBucket>>,
}

impl StatsTable {
    /// A table using about `bytes` of memory (at least one bucket).
    pub fn new(bytes: usize) -> StatsTable {
        let n = (bytes / std::mem::size_of::<Mutex<StatsBucket>>()).max(1);
        let mut buckets = Vec::with_capacity(n);
        buckets.resize_with(n, Default::default);
        StatsTable { buckets }
    }

    fn lock(&self, key: u64) -> MutexGuard<'_, StatsBucket> {
        let i = ((key as u128 * self.buckets.len() as u128) >> 64) as usize;
        // A panic while holding the lock cannot leave a half-written entry
        // that passes the key check: entries are written whole.
        self.buckets[i]
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// The stored stats of the `depth`-ply subtree below the position `key`.
    pub fn probe(&self, key: u64, depth: u32) -> Option<PerftStats> {
        let bucket = self.lock(key);
        bucket
            .iter()
            .find(|e| e.depth == depth && e.key == key && depth != 0)
            .map(|e| e.stats)
    }

    /// Records the stats of a subtree (`depth` at least 1).
    pub fn store(&self, key: u64, depth: u32, stats: PerftStats) {
        let entry = StatsEntry { key, depth, stats };
        let mut bucket = self.lock(key);
        if bucket[0].key == key && bucket[0].depth == depth {
            return;
        }
        if depth >= bucket[0].depth {
            bucket[1] = bucket[0];
            bucket[0] = entry;
        } else {
            bucket[1] = entry;
        }
    }
}

/// Detailed perft through `table` (subtrees of 2 plies and more are stored):
/// the same counts as [`movegen::perft_stats`].
pub fn perft_stats_hashed<V: Variant>(
    pos: &Position<V>,
    depth: u32,
    table: &StatsTable,
) -> PerftStats {
    if depth <= 1 {
        return perft_stats(pos, depth);
    }
    let key = pos.key();
    if let Some(s) = table.probe(key, depth) {
        return s;
    }
    let mut total = PerftStats::default();
    for &m in pos.legal_moves().iter() {
        total += perft_stats_hashed(&pos.play_unchecked(m), depth - 1, table);
    }
    table.store(key, depth, total);
    total
}

/// Parses a memory size: bytes, or a whole number with `K`, `M`, `G` or `T`
/// (powers of 1024; case-insensitive, `B`/`iB` may follow: `512M`, `1GiB`).
pub fn parse_size(text: &str) -> Result<usize, String> {
    let t = text.trim();
    let digits = t.bytes().take_while(u8::is_ascii_digit).count();
    let (number, unit) = t.split_at(digits);
    let bad = || {
        format!(
            "invalid size \"{text}\" (expected bytes or a whole number with K, M, G or T, e.g. 512M, 1G)"
        )
    };
    let n: u64 = number.parse().map_err(|_| bad())?;
    let unit = unit.trim().to_ascii_uppercase();
    let unit = unit
        .strip_suffix("IB")
        .or_else(|| unit.strip_suffix('B'))
        .unwrap_or(&unit);
    let shift = match unit {
        "" => 0,
        "K" => 10,
        "M" => 20,
        "G" => 30,
        "T" => 40,
        _ => return Err(bad()),
    };
    if n == 0 {
        return Err(format!("size \"{text}\" must be more than 0"));
    }
    n.checked_mul(1u64 << shift)
        .and_then(|b| usize::try_from(b).ok())
        .ok_or_else(|| format!("size \"{text}\" is too large"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use movegen::{variants, VariantKind};

    #[test]
    fn sizes() {
        assert_eq!(parse_size("1G"), Ok(1 << 30));
        assert_eq!(parse_size("1g"), Ok(1 << 30));
        assert_eq!(parse_size("512M"), Ok(512 << 20));
        assert_eq!(parse_size("64K"), Ok(64 << 10));
        assert_eq!(parse_size("2GiB"), Ok(2 << 30));
        assert_eq!(parse_size("3MB"), Ok(3 << 20));
        assert_eq!(parse_size("65536"), Ok(65536));
        for bad in ["", "G", "1X", "1.5G", "-1", "1 G B", "0", "0M"] {
            assert!(parse_size(bad).is_err(), "{bad:?}");
        }
        assert!(parse_size("99999999999999T").is_err());
    }

    #[test]
    fn hashed_stats_equal_plain_stats() {
        let kiwi = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
        let p = Position::<variants::Chess>::from_fen(kiwi).unwrap();
        // A tiny table forces replacements and collisions of bucket index.
        for bytes in [1, 4096, 1 << 20] {
            let t = StatsTable::new(bytes);
            assert_eq!(perft_stats_hashed(&p, 3, &t), perft_stats(&p, 3));
        }
        for kind in VariantKind::ALL {
            movegen::dispatch!(kind, V => {
                let p = Position::<V>::startpos();
                let t = StatsTable::new(1 << 16);
                for d in 0..=4 {
                    assert_eq!(perft_stats_hashed(&p, d, &t), perft_stats(&p, d), "{kind} {d}");
                }
            });
        }
    }

    #[test]
    fn stats_table_checks_key_and_depth() {
        let t = StatsTable::new(1);
        let s = nodes(7);
        t.store(42, 3, s);
        assert_eq!(t.probe(42, 3), Some(s));
        assert_eq!(t.probe(42, 2), None);
        assert_eq!(t.probe(43, 3), None);
        t.store(43, 2, nodes(9));
        t.store(44, 5, nodes(11));
        assert_eq!(t.probe(44, 5), Some(nodes(11)));
        assert_eq!(t.probe(0, 0), None);
    }
}
