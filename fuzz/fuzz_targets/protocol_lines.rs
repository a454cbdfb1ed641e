//! What the UCI and CECP targets share: turning fuzzer bytes into a
//! session's input lines that cannot exhaust the machine, and the allocator
//! setting that keeps one process running thousands of sessions as lean as
//! one session.
//!
//! The sessions are run whole (reader thread, search thread, protocol loop),
//! so a line may start a search; the end of input stops it. Two kinds of line
//! are kept from the session because they would make the fuzzer's run, not
//! the engine, fail: a table size (`setoption name Hash`, CECP `memory`) can
//! ask for gigabytes, and a thread count (`Threads`, `cores`) for a thousand
//! threads, which the fuzzer's memory limit would report as a crash. Long
//! searches need no such care: the end of input stops a running search.
//!
//! Each session allocates its 16 MB transposition table and frees it at the
//! end. glibc serves the first such table with `mmap`, but freeing it raises
//! its mmap threshold to the table's size (the dynamic threshold, for chunks
//! up to 32 MB), so every later table comes from the main heap. Between two
//! sessions libFuzzer keeps small allocations of its own (each input that
//! adds coverage, its features); they land in the hole the last table left,
//! so the next table no longer fits there and the heap grows by a table,
//! whose freed pages stay resident. A process that runs one session, or
//! sessions with nothing kept between them, reuses the hole and stays flat;
//! the fuzzer grew in steps of about a table until its 2 GB limit
//! (heaptrack: 66 MB of live heap at most, 864 MB resident). So
//! [`map_large_allocations`] fixes the threshold before the first run: every
//! table is mapped and unmapped whole, and what the fuzzer keeps between
//! runs cannot pin it. (docs/building.md#fuzzing has the measurements.)

/// Allocations of this size or more are always their own `mmap`: the tables
/// (1 MB or more), not the sessions' small allocations.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
const MMAP_FROM_BYTES: libc::c_int = 1 << 20;

/// Fixes glibc's mmap threshold at [`MMAP_FROM_BYTES`] (which also turns its
/// dynamic adjustment off); see the module docs. Call once, before the first
/// session. Other C libraries have no dynamic threshold to fix.
pub fn map_large_allocations() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        // SAFETY: mallopt only sets a parameter of the C allocator (under its
        // own lock); M_MMAP_THRESHOLD with a value in glibc's range (at most
        // 32 MB) is valid. It returns 1 on success.
        let set = unsafe { libc::mallopt(libc::M_MMAP_THRESHOLD, MMAP_FROM_BYTES) };
        assert_eq!(set, 1, "mallopt(M_MMAP_THRESHOLD) refused");
    }
}

/// The input lines of one run: valid UTF-8 only, without the lines above.
pub fn session_input(data: &[u8]) -> Option<String> {
    let text = std::str::from_utf8(data).ok()?;
    let mut out = String::with_capacity(text.len() + 32);
    for line in text.lines() {
        let lower = line.to_ascii_lowercase();
        if lower.contains("hash")
            || lower.contains("thread")
            || lower.contains("memory")
            || lower.contains("cores")
        {
            continue;
        }
        out.push_str(line);
        out.push('\n');
    }
    Some(out)
}
