//! The transposition table: shared by all search threads without locks.
//!
//! An entry is two `AtomicU64` words, `data` (move, score, depth, bound, age)
//! and `check = key ^ data`. A reader recomputes `check ^ data` and accepts
//! the entry only if it equals the position's key, so an entry torn by two
//! concurrent writers reads as a miss, never as a wrong hit. Relaxed ordering
//! is enough: each word is atomic, and the XOR ties the pair together.
//! Buckets of four entries fill a 64-byte cache line. The slots and buckets
//! are [`movegen::bucket_table`]'s, shared with the perft table; the packing
//! of an entry and the replacement policy are this table's own.

use crate::score::{score_from_tt, MATE_BOUND};
use movegen::bucket_table::BucketTable;
use movegen::Move;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// How a stored score bounds the true score.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The true score is exactly this.
    Exact = 1,
    /// The true score is at least this (fail high).
    Lower = 2,
    /// The true score is at most this (fail low).
    Upper = 3,
}

impl Bound {
    /// The bound a finished search of a node proves for its `best` score:
    /// at or above `beta` a fail high (lower bound); otherwise exact when
    /// some move raised the window's lower edge (`raised_alpha`), else a
    /// fail low (upper bound).
    #[inline]
    pub fn of_result(best: i32, beta: i32, raised_alpha: bool) -> Bound {
        if best >= beta {
            Bound::Lower
        } else if raised_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        }
    }
}

/// A table entry, unpacked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TtEntry {
    /// Best or refuting move, if one was found.
    pub mv: Option<Move>,
    /// Score (mate scores relative to this node).
    pub score: i32,
    /// Static evaluation.
    pub eval: i32,
    /// Remaining depth of the search that stored it.
    pub depth: i32,
    /// Bound type.
    pub bound: Bound,
}

impl TtEntry {
    /// The score this entry proves for the window `(alpha, beta)` at `ply`,
    /// if any: an exact score, a lower bound at or above beta, or an upper
    /// bound at or below alpha (the caller has checked the entry is deep
    /// enough).
    #[inline]
    pub(crate) fn cutoff(&self, ply: usize, alpha: i32, beta: i32) -> Option<i32> {
        let s = score_from_tt(self.score, ply);
        match self.bound {
            Bound::Exact => Some(s),
            Bound::Lower if s >= beta => Some(s),
            Bound::Upper if s <= alpha => Some(s),
            _ => None,
        }
    }

    /// The score a node at `ply` with the static evaluation `eval` is judged
    /// by under `tt_eval_refine`: this entry's score where its bound puts the
    /// node beyond the evaluation (above it for a lower bound, below it for
    /// an upper bound; an exact score always), else the evaluation. Never a
    /// mate score.
    #[inline]
    pub(crate) fn refined_eval(&self, ply: usize, eval: i32) -> i32 {
        let s = score_from_tt(self.score, ply);
        let beyond = match self.bound {
            Bound::Lower => s > eval,
            Bound::Upper => s < eval,
            Bound::Exact => true,
        };
        if beyond && s.abs() < MATE_BOUND {
            s
        } else {
            eval
        }
    }
}

/// The shared transposition table.
pub struct TranspositionTable {
    table: BucketTable,
    age: AtomicU64,
    mb: usize,
}

fn pack(e: &TtEntry, age: u8) -> u64 {
    let mv = e.mv.map_or(0, |m| m.raw()) as u64;
    let score = (e.score as i16) as u16 as u64;
    let eval = (e.eval as i16) as u16 as u64;
    let depth = (e.depth.clamp(-1, 254) + 1) as u64;
    mv | score << 16
        | eval << 32
        | depth << 48
        | (e.bound as u64) << 56
        | ((age as u64) & 0x3f) << 58
}

/// The search age a packed entry was written in (6 bits, as [`pack`] puts it).
#[inline]
fn age_of(d: u64) -> u8 {
    ((d >> 58) & 0x3f) as u8
}

fn unpack(d: u64) -> Option<TtEntry> {
    let bound = match (d >> 56) & 3 {
        1 => Bound::Exact,
        2 => Bound::Lower,
        3 => Bound::Upper,
        _ => return None,
    };
    let raw = (d & 0xffff) as u16;
    Some(TtEntry {
        mv: if raw == 0 { None } else { Move::from_raw(raw) },
        score: ((d >> 16) as u16) as i16 as i32,
        eval: ((d >> 32) as u16) as i16 as i32,
        depth: ((d >> 48) & 0xff) as i32 - 1,
        bound,
    })
}

impl TranspositionTable {
    /// A table of about `mb` megabytes (at least one bucket).
    pub fn new(mb: usize) -> TranspositionTable {
        TranspositionTable {
            table: BucketTable::new(mb.max(1) * 1024 * 1024),
            age: AtomicU64::new(0),
            mb,
        }
    }

    /// Replaces this table by an empty one of about `mb` megabytes, as
    /// [`TranspositionTable::new`] makes it, freeing the old entries before
    /// allocating the new ones: the peak is one table, not two.
    pub fn reallocate(&mut self, mb: usize) {
        self.table = BucketTable::new(0);
        *self = TranspositionTable::new(mb);
    }

    /// The size asked for, in megabytes.
    pub fn size_mb(&self) -> usize {
        self.mb
    }

    /// Forgets everything (a new game).
    pub fn clear(&mut self) {
        self.table.clear();
    }

    /// Starts a new search: older entries become preferred victims.
    pub fn new_search(&self) {
        self.age.fetch_add(1, Relaxed);
    }

    /// Looks up `key`.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<TtEntry> {
        for s in self.table.bucket(key) {
            let (data, stored_key) = s.load();
            if data != 0 && stored_key == key {
                return unpack(data);
            }
        }
        None
    }

    /// Stores an entry for `key`, replacing the same key, else the least
    /// valuable slot (oldest search first, then shallowest). With
    /// `keep_deeper`, an entry of the same key written in this search stays
    /// when the new one is shallower and not exact (depth-preferred with
    /// age: a deeper result is worth more than a fresher, shallower bound).
    #[inline]
    pub fn store(&self, key: u64, entry: TtEntry, keep_deeper: bool) {
        let age = (self.age.load(Relaxed) & 0x3f) as u8;
        let bucket = self.table.bucket(key);
        let mut victim = &bucket[0];
        let mut worst = i32::MAX;
        for s in bucket {
            let (data, stored_key) = s.load();
            if data == 0 || stored_key == key {
                let old = unpack(data);
                if keep_deeper && age_of(data) == age {
                    if let Some(old) = old {
                        if entry.bound != Bound::Exact && entry.depth < old.depth {
                            return;
                        }
                    }
                }
                // Keep a move we already have if the new entry has none.
                let mut e = entry;
                if e.mv.is_none() {
                    e.mv = old.and_then(|old| old.mv);
                }
                s.store(key, pack(&e, age));
                return;
            }
            let old_age = age_of(data);
            let stale = (age.wrapping_sub(old_age) & 0x3f) as i32;
            let value = ((data >> 48) & 0xff) as i32 - 8 * stale;
            if value < worst {
                worst = value;
                victim = s;
            }
        }
        victim.store(key, pack(&entry, age));
    }

    /// Permille of the first thousand buckets' slots written in this search.
    pub fn hashfull(&self) -> u32 {
        let age = self.age.load(Relaxed) & 0x3f;
        let n = self.table.len().min(250);
        let mut used = 0;
        for b in self.table.first_buckets(n) {
            for s in b {
                let (d, _) = s.load();
                if d != 0 && u64::from(age_of(d)) == age {
                    used += 1;
                }
            }
        }
        (used * 1000 / (n * 4).max(1)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use movegen::{MoveKind, Square};
    use std::sync::Arc;

    #[test]
    fn pack_round_trip() {
        let m = Move::new(Square::E1, Square::G1, MoveKind::Castle);
        for (score, depth, bound) in [
            (31000, 40, Bound::Exact),
            (-31000, 0, Bound::Lower),
            (5, -1, Bound::Upper),
        ] {
            let e = TtEntry {
                mv: Some(m),
                score,
                eval: -score / 2,
                depth,
                bound,
            };
            assert_eq!(unpack(pack(&e, 3)), Some(e));
        }
    }

    #[test]
    fn keep_deeper_keeps_the_deeper_entry_of_this_search() {
        let tt = TranspositionTable::new(1);
        let key = 0x1234_5678_9abc_def1;
        let entry = |depth, bound| TtEntry {
            mv: None,
            score: depth * 10,
            eval: 0,
            depth,
            bound,
        };
        tt.store(key, entry(9, Bound::Lower), true);
        tt.store(key, entry(3, Bound::Upper), true);
        assert_eq!(tt.probe(key), Some(entry(9, Bound::Lower)), "deeper kept");
        tt.store(key, entry(3, Bound::Exact), true);
        assert_eq!(
            tt.probe(key),
            Some(entry(3, Bound::Exact)),
            "exact replaces"
        );
        tt.store(key, entry(9, Bound::Lower), true);
        tt.new_search();
        tt.store(key, entry(3, Bound::Upper), true);
        assert_eq!(
            tt.probe(key),
            Some(entry(3, Bound::Upper)),
            "older search replaced"
        );
        tt.store(key, entry(9, Bound::Lower), false);
        tt.store(key, entry(3, Bound::Upper), false);
        assert_eq!(
            tt.probe(key),
            Some(entry(3, Bound::Upper)),
            "off: overwritten"
        );
    }

    #[test]
    fn threads_never_read_a_torn_entry() {
        let tt = Arc::new(TranspositionTable::new(1));
        let keys: Vec<u64> = (0..64u64)
            .map(|i| i.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
            .collect();
        std::thread::scope(|s| {
            for t in 0..4 {
                let tt = &tt;
                let keys = &keys;
                s.spawn(move || {
                    for round in 0..20_000 {
                        let k = keys[(round * 7 + t) % keys.len()];
                        // The stored score is a function of the key, so any hit must match it.
                        let score = (k % 1000) as i32;
                        tt.store(
                            k,
                            TtEntry {
                                mv: None,
                                score,
                                eval: score,
                                depth: (round % 30) as i32,
                                bound: Bound::Exact,
                            },
                            round % 2 == 0,
                        );
                        let probe = keys[(round * 13 + 3 * t) % keys.len()];
                        if let Some(e) = tt.probe(probe) {
                            assert_eq!(e.score, (probe % 1000) as i32);
                        }
                    }
                });
            }
        });
    }
}
