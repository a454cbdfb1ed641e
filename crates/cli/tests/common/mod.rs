//! Helpers shared by the CLI integration tests: run the `varia` binary and
//! check its output. Each test crate uses a subset of them.
#![allow(dead_code)]

use std::process::{Command, Output};

/// Runs `varia` with `args` and collects its output.
pub fn varia(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_varia"))
        .args(args)
        .output()
        .expect("run varia")
}

/// Stdout of a run that must have succeeded.
pub fn ok_stdout(o: &Output) -> String {
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "exit {:?}: {err}", o.status.code());
    String::from_utf8(o.stdout.clone()).expect("utf-8 stdout")
}

/// Exit code 2 and exactly one line on stderr, `error: ...` containing
/// every one of `needles` and no panic; nothing on stdout.
pub fn assert_one_line_error(o: &Output, needles: &[&str]) {
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "stderr: {err}");
    assert!(
        o.stdout.is_empty(),
        "stdout: {}",
        String::from_utf8_lossy(&o.stdout)
    );
    assert_eq!(err.lines().count(), 1, "one line expected: {err:?}");
    assert!(err.starts_with("error: "), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    for n in needles {
        assert!(err.contains(n), "{err:?} should mention {n:?}");
    }
}

/// The text of a record file (`arena::record`) with every row's checksum
/// computed afresh: a file edited by a writer that knows the format, whose
/// content the other checks (subtree, shard, schedule) must still catch.
pub fn with_fresh_checksums(text: &str) -> String {
    let mut out = String::new();
    let mut columns_seen = false;
    for line in text.lines() {
        if line.starts_with('#') || !columns_seen {
            columns_seen |= !line.starts_with('#');
            out.push_str(line);
        } else {
            let (row, _) = line.rsplit_once(',').expect("a checksum column");
            out.push_str(&arena::record::with_checksum(row));
        }
        out.push('\n');
    }
    out
}
