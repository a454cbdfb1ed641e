//! What the UCI and CECP targets share: turning fuzzer bytes into a
//! session's input lines that cannot exhaust the machine.
//!
//! The sessions are run whole (reader thread, search thread, protocol loop),
//! so a line may start a search; the end of input stops it. Two kinds of line
//! are kept from the session because they would make the fuzzer's run, not
//! the engine, fail: a table size (`setoption name Hash`, CECP `memory`) can
//! ask for gigabytes, and a thread count (`Threads`, `cores`) for a thousand
//! threads, which the fuzzer's memory limit would report as a crash. Long
//! searches need no such care: the end of input stops a running search.

/// The input lines of one run: valid UTF-8 only, without the lines above.
pub fn session_input(data: &[u8]) -> Option<String> {
    let text = std::str::from_utf8(data).ok()?;
    let mut out = String::with_capacity(text.len() + 32);
    for line in text.lines() {
        let lower = line.to_ascii_lowercase();
        if lower.contains("hash") || lower.contains("thread") || lower.contains("memory")
            || lower.contains("cores")
        {
            continue;
        }
        out.push_str(line);
        out.push('\n');
    }
    Some(out)
}
