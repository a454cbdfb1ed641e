//! The command line's resource options (`--threads`, `--hash`) read in one
//! place, with the bounds of [`search::settings`]: every subcommand refuses
//! the same values with the same one-line message naming the option, and
//! "no `--threads`" means the same everywhere (one per CPU) unless a
//! subcommand documents a default of its own.

use anyhow::anyhow;
use search::settings;

/// A `--threads`-style count: `None` is one thread per CPU.
pub fn threads(flag: &str, asked: Option<usize>) -> anyhow::Result<usize> {
    match asked {
        None => Ok(settings::default_threads()),
        Some(n) => settings::check_threads(n as u64).map_err(|e| anyhow!("{flag}: {e}")),
    }
}

/// A `--hash`-style table size in megabytes.
pub fn hash_mb(flag: &str, mb: usize) -> anyhow::Result<usize> {
    settings::check_hash_mb(mb as u64).map_err(|e| anyhow!("{flag}: {e}"))
}
