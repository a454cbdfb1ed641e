//! The lock-free, XOR-checked bucket table under both hash tables of varia:
//! the perft table ([`crate::PerftTable`]) and the engine's transposition
//! table (`search::tt`).
//!
//! A [`Slot`] is two `AtomicU64` words, `data` and `check = key ^ data`. A
//! reader gets the data word and the key it was stored under
//! ([`Slot::load`]); a slot torn by two concurrent writers (one word from
//! each) yields a key that matches neither, so it reads as a miss, never as
//! a wrong hit. Relaxed ordering is enough: each word is atomic and the XOR
//! ties the pair together. Four slots make a 64-byte, cache-line aligned
//! bucket, and a key picks its bucket by a multiply-shift of all 64 bits.
//!
//! Only the primitives are shared: what the data word holds, when an entry
//! matches and which slot a store replaces are each table's own, so both keep
//! their hot paths exactly as they were (the table is a plain `Vec` of
//! buckets, no indirection added).

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// Slots per bucket.
pub const BUCKET_SLOTS: usize = 4;

/// One entry: a data word and its key check.
#[derive(Default)]
pub struct Slot {
    check: AtomicU64,
    data: AtomicU64,
}

impl Slot {
    /// The data word and the key it was stored under (`0, 0` when empty).
    #[inline]
    pub fn load(&self) -> (u64, u64) {
        let data = self.data.load(Relaxed);
        let check = self.check.load(Relaxed);
        (data, check ^ data)
    }

    /// Stores `data` for `key`.
    #[inline]
    pub fn store(&self, key: u64, data: u64) {
        self.data.store(data, Relaxed);
        self.check.store(key ^ data, Relaxed);
    }
}

/// Four slots filling one cache line.
#[repr(align(64))]
#[derive(Default)]
struct Bucket([Slot; BUCKET_SLOTS]);

const _: () = assert!(std::mem::size_of::<Bucket>() == 64);

/// Buckets of [`Slot`]s, shared between threads by reference.
pub struct BucketTable {
    buckets: Vec<Bucket>,
}

impl BucketTable {
    /// Bytes of one bucket.
    pub const BUCKET_BYTES: usize = std::mem::size_of::<Bucket>();

    /// A table of about `bytes` of memory (at least one bucket), all empty.
    pub fn new(bytes: usize) -> BucketTable {
        let n = (bytes / Self::BUCKET_BYTES).max(1);
        let mut buckets = Vec::new();
        buckets.resize_with(n, Bucket::default);
        BucketTable { buckets }
    }

    /// Number of buckets.
    pub fn len(&self) -> usize {
        self.buckets.len()
    }

    /// `false`: a table has at least one bucket.
    pub fn is_empty(&self) -> bool {
        self.buckets.is_empty()
    }

    /// Bytes used.
    pub fn size_bytes(&self) -> usize {
        self.buckets.len() * Self::BUCKET_BYTES
    }

    /// Empties every slot.
    pub fn clear(&mut self) {
        for b in &mut self.buckets {
            *b = Bucket::default();
        }
    }

    /// The slots of the bucket of `key`.
    #[inline]
    pub fn bucket(&self, key: u64) -> &[Slot; BUCKET_SLOTS] {
        let i = ((key as u128 * self.buckets.len() as u128) >> 64) as usize;
        &self.buckets[i].0
    }

    /// The slots of the first `n` buckets (all of them if there are fewer),
    /// for sampling how full the table is.
    pub fn first_buckets(&self, n: usize) -> impl Iterator<Item = &[Slot; BUCKET_SLOTS]> {
        self.buckets[..n.min(self.buckets.len())]
            .iter()
            .map(|b| &b.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slots_return_the_key_they_were_stored_under() {
        let mut table = BucketTable::new(256);
        assert_eq!(table.len(), 4);
        assert_eq!(table.size_bytes(), 256);
        let key = 0x1234_5678_9abc_def0;
        let slot = &table.bucket(key)[2];
        assert_eq!(slot.load(), (0, 0));
        slot.store(key, 99);
        assert_eq!(table.bucket(key)[2].load(), (99, key));
        table.clear();
        assert_eq!(table.bucket(key)[2].load(), (0, 0));
        assert_eq!(BucketTable::new(1).len(), 1);
        assert_eq!(table.first_buckets(100).count(), 4);
    }

    #[test]
    fn keys_spread_over_all_buckets_by_their_high_bits() {
        let table = BucketTable::new(4 * 64);
        let index = |key: u64| {
            let b = table.bucket(key) as *const _ as usize;
            let first = table.bucket(0) as *const _ as usize;
            (b - first) / BucketTable::BUCKET_BYTES
        };
        assert_eq!(index(0), 0);
        assert_eq!(index(u64::MAX), 3);
        assert_eq!(index(1 << 62), 1);
        assert_eq!(index(1 << 63), 2);
    }
}
