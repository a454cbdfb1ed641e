//! Engine resource settings: the transposition table's size and the number
//! of search threads, with the bounds every front end checks them against
//! (UCI and CECP options, `analyse`, `bench`, `match` engines, `datagen`,
//! `tune spsa`, `openings`, and perft's own table). One home, so that a value
//! accepted in one place is accepted in all, and a value that cannot work
//! (more memory than the machine has, a size whose byte count overflows) is
//! refused before anything is allocated.
//!
//! Command-line front ends refuse an out-of-range value with a
//! [`SettingError`]; CECP, whose `memory` and `cores` commands come from a GUI
//! that cannot be argued with, clamps with [`clamp_hash_mb`] and says so.

use std::time::Duration;

/// Smallest transposition table, in megabytes.
pub const MIN_HASH_MB: usize = 1;
/// Largest transposition table accepted, in megabytes (64 GiB), and never more
/// than half the machine's memory ([`max_hash_mb`]): the rest of the program
/// and the machine need some too.
pub const MAX_HASH_MB: usize = 1 << 16;
/// Transposition table size when nothing is set, in megabytes.
pub const DEFAULT_HASH_MB: usize = 16;
/// Most search (or worker) threads accepted.
pub const MAX_THREADS: usize = 1024;
/// Deepest search accepted, in plies (the search itself stops short of
/// [`crate::alphabeta::MAX_PLY`]).
pub const MAX_SEARCH_DEPTH: u32 = 100;
/// Longest fixed time per search accepted (one day).
pub const MAX_MOVETIME: Duration = Duration::from_secs(24 * 60 * 60);

/// A resource setting out of its bounds.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SettingError {
    /// A table size outside `MIN..=max`.
    #[error("hash size {asked} MB is out of range ({MIN_HASH_MB} to {max} MB{why})")]
    HashSize {
        /// The size asked for, in MB.
        asked: u64,
        /// The largest size allowed here, in MB.
        max: u64,
        /// `, half this machine's memory` when that is the bound.
        why: &'static str,
    },
    /// A table size in bytes beyond what the machine or the bounds allow.
    #[error("hash size {asked} bytes is more than {max} bytes{why}")]
    HashBytes {
        /// The size asked for, in bytes.
        asked: u64,
        /// The largest size allowed here, in bytes.
        max: u64,
        /// `, half this machine's memory` when that is the bound.
        why: &'static str,
    },
    /// A thread count outside `1..=MAX_THREADS`.
    #[error("thread count {0} is out of range (1 to {MAX_THREADS})")]
    Threads(u64),
}

/// The machine's physical memory in bytes, where `/proc/meminfo` tells it.
pub fn physical_memory() -> Option<u64> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = info.lines().find(|l| l.starts_with("MemTotal:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    kib.checked_mul(1024)
}

/// The largest table in bytes: [`MAX_HASH_MB`], or half the machine's
/// memory if that is less. The second value says why (for messages).
fn max_hash_bytes() -> (u64, &'static str) {
    let cap = (MAX_HASH_MB as u64) << 20;
    match physical_memory().map(|m| m / 2) {
        Some(half) if half < cap => (half, ", half this machine's memory"),
        _ => (cap, ""),
    }
}

/// The largest table accepted on this machine, in megabytes (at least
/// [`MIN_HASH_MB`]).
pub fn max_hash_mb() -> usize {
    ((max_hash_bytes().0 >> 20) as usize).max(MIN_HASH_MB)
}

/// `mb` if it is a table size this machine can hold.
pub fn check_hash_mb(mb: u64) -> Result<usize, SettingError> {
    let (bytes, why) = max_hash_bytes();
    let max = (bytes >> 20).max(MIN_HASH_MB as u64);
    if mb < MIN_HASH_MB as u64 || mb > max {
        return Err(SettingError::HashSize {
            asked: mb,
            max,
            why,
        });
    }
    Ok(mb as usize)
}

/// `bytes` if it is a table size (in bytes, e.g. perft's `--hash 1G`) within
/// the same bound as [`check_hash_mb`].
pub fn check_hash_bytes(bytes: u64) -> Result<usize, SettingError> {
    let (max, why) = max_hash_bytes();
    if bytes > max {
        return Err(SettingError::HashBytes {
            asked: bytes,
            max,
            why,
        });
    }
    usize::try_from(bytes).map_err(|_| SettingError::HashBytes {
        asked: bytes,
        max,
        why,
    })
}

/// `mb` brought within bounds, for protocols that must accept what they are
/// given; `Some(used)` when it had to be changed.
pub fn clamp_hash_mb(mb: u64) -> (usize, Option<usize>) {
    match check_hash_mb(mb) {
        Ok(mb) => (mb, None),
        Err(_) => {
            let used = (mb.min(max_hash_mb() as u64) as usize).max(MIN_HASH_MB);
            (used, Some(used))
        }
    }
}

/// `n` if it is an accepted thread count.
pub fn check_threads(n: u64) -> Result<usize, SettingError> {
    if (1..=MAX_THREADS as u64).contains(&n) {
        Ok(n as usize)
    } else {
        Err(SettingError::Threads(n))
    }
}

/// `n` brought within `1..=MAX_THREADS`.
pub fn clamp_threads(n: u64) -> usize {
    n.clamp(1, MAX_THREADS as u64) as usize
}

/// Threads used when none are asked for: one per available CPU (at most
/// [`MAX_THREADS`]), or one if that cannot be told.
pub fn default_threads() -> usize {
    std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .min(MAX_THREADS)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hash_bounds() {
        assert_eq!(check_hash_mb(1), Ok(1));
        assert_eq!(check_hash_mb(DEFAULT_HASH_MB as u64), Ok(DEFAULT_HASH_MB));
        assert!(check_hash_mb(0).is_err());
        assert!(check_hash_mb(100_000_000).is_err());
        // Its byte count overflows 64 bits: refused, not wrapped.
        let e = check_hash_mb(17_592_186_044_416).unwrap_err().to_string();
        assert!(e.contains("17592186044416 MB is out of range"), "{e}");
        assert_eq!(
            max_hash_mb() as u64,
            check_hash_mb(max_hash_mb() as u64).unwrap() as u64
        );
        assert!(check_hash_bytes(1 << 20).is_ok());
        assert!(check_hash_bytes(u64::MAX).is_err());
        assert_eq!(clamp_hash_mb(16), (16, None));
        assert_eq!(clamp_hash_mb(0), (1, Some(1)));
        let max = max_hash_mb();
        assert_eq!(clamp_hash_mb(u64::MAX), (max, Some(max)));
        if let Some(m) = physical_memory() {
            assert!(max as u64 <= (m / 2) >> 20);
        }
    }

    #[test]
    fn thread_bounds() {
        assert_eq!(check_threads(1), Ok(1));
        assert_eq!(check_threads(MAX_THREADS as u64), Ok(MAX_THREADS));
        assert!(check_threads(0).is_err());
        assert!(check_threads(MAX_THREADS as u64 + 1).is_err());
        assert_eq!(clamp_threads(0), 1);
        assert_eq!(clamp_threads(u64::MAX), MAX_THREADS);
        assert!((1..=MAX_THREADS).contains(&default_threads()));
    }
}
