//! A transposition table for perft subtrees, shared by all threads without
//! locks, and the hashed perft that uses it.
//!
//! Each entry is two `AtomicU64` words: `data = nodes << 8 | depth` and
//! `check = key ^ data`. A reader accepts an entry only if `check ^ data`
//! equals the full 64-bit Zobrist key of the position and the depth matches,
//! so a torn write (one word from another writer) fails the check instead of
//! returning a wrong count: every one of the 64 key bits is verified (the
//! bucket index is taken from the key as well, but is not relied on). A false
//! hit needs two different positions with equal 64-bit keys; with 4 entries
//! compared per probe that is about 4 / 2^64 per probe, around 2e-9 over the
//! 10^10 probes of a perft(9).
//!
//! Buckets of four entries fill one 64-byte cache line (the slots and
//! buckets are [`crate::bucket_table`]'s, shared with the engine's table); a
//! store replaces the shallowest entry of its bucket (deep subtrees are
//! worth more).

use crate::bucket_table::BucketTable;
use crate::movegen::{generate, EachMove};
use crate::position::Position;
use crate::variant::Variant;

/// Perft subtree counts keyed by Zobrist key and depth.
pub struct PerftTable {
    table: BucketTable,
}

impl PerftTable {
    /// A table using about `bytes` of memory (at least one bucket).
    pub fn new(bytes: usize) -> PerftTable {
        PerftTable {
            table: BucketTable::new(bytes),
        }
    }

    /// Bytes used.
    pub fn size_bytes(&self) -> usize {
        self.table.size_bytes()
    }

    /// The stored count of the subtree of `depth` below the position with `key`.
    #[inline]
    pub fn probe(&self, key: u64, depth: u32) -> Option<u64> {
        for e in self.table.bucket(key) {
            let (data, stored_key) = e.load();
            if stored_key == key && data & 0xff == depth as u64 && data != 0 {
                return Some(data >> 8);
            }
        }
        None
    }

    /// Records the count of a subtree (counts must stay below 2^56).
    #[inline]
    pub fn store(&self, key: u64, depth: u32, nodes: u64) {
        let data = nodes << 8 | depth as u64;
        let bucket = self.table.bucket(key);
        let mut victim = &bucket[0];
        let mut victim_depth = u64::MAX;
        for e in bucket {
            let (d, stored_key) = e.load();
            if stored_key == key {
                victim = e;
                break;
            }
            if d & 0xff < victim_depth {
                victim_depth = d & 0xff;
                victim = e;
            }
        }
        victim.store(key, data);
    }
}

/// Perft using `table` for subtrees of depth 2 and more. Gives exactly the
/// counts of [`crate::perft`] (up to the false-hit odds in the module docs).
pub fn perft_hashed<V: Variant>(pos: &Position<V>, depth: u32, table: &PerftTable) -> u64 {
    if depth <= 1 {
        return crate::perft(pos, depth);
    }
    if let Some(n) = table.probe(pos.key(), depth) {
        return n;
    }
    let mut nodes = 0;
    let mut sink = EachMove::<V, _>::new(pos.ep_square(), |m, _| {
        nodes += perft_hashed(&pos.play_unchecked(m), depth - 1, table);
    });
    generate(pos, &mut sink);
    table.store(pos.key(), depth, nodes);
    nodes
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variants::{Atomic, Chess, ThreeCheck};

    #[test]
    fn hashed_equals_plain() {
        let table = PerftTable::new(1 << 20);
        let kiwi = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
        let p = Position::<Chess>::from_fen(kiwi).unwrap();
        assert_eq!(perft_hashed(&p, 4, &table), crate::perft(&p, 4));
        let a = Position::<Atomic>::startpos();
        assert_eq!(perft_hashed(&a, 4, &PerftTable::new(1 << 16)), 197326);
        let t = Position::<ThreeCheck>::startpos();
        assert_eq!(
            perft_hashed(&t, 4, &PerftTable::new(1 << 12)),
            crate::perft(&t, 4)
        );
    }

    #[test]
    fn torn_or_foreign_entries_are_rejected() {
        let table = PerftTable::new(64);
        table.store(42, 3, 1000);
        assert_eq!(table.probe(42, 3), Some(1000));
        assert_eq!(table.probe(42, 4), None);
        assert_eq!(table.probe(43, 3), None);
    }
}
