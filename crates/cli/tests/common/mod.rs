//! Helpers shared by the CLI integration tests: run the `varia` binary and
//! check its output. Each test crate uses a subset of them.
#![allow(dead_code)]

use std::io::Write as _;
use std::path::Path;
use std::process::{Command, Output, Stdio};

/// Runs `varia` with `args` and collects its output.
pub fn varia(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_varia"))
        .args(args)
        .output()
        .expect("run varia")
}

/// Runs `varia` with `args` and `stdin` piped in (then closed), and collects
/// its output.
pub fn varia_with_stdin(args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_varia"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("varia starts");
    let mut input = child.stdin.take().expect("stdin is piped");
    input.write_all(stdin.as_bytes()).expect("stdin written");
    drop(input);
    child.wait_with_output().expect("varia finishes")
}

/// Runs `varia <sub>` with `script` on stdin; the stdout of a run that must
/// have succeeded.
pub fn session(sub: &str, script: &str) -> String {
    ok_stdout(&varia_with_stdin(&[sub], script))
}

/// The run's stdout, which must be UTF-8.
pub fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).expect("utf-8 stdout")
}

/// The run's stderr, which must be UTF-8.
pub fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).expect("utf-8 stderr")
}

/// Stdout of a run that must have succeeded.
pub fn ok_stdout(o: &Output) -> String {
    assert!(
        o.status.success(),
        "exit {:?}\nstdout: {}\nstderr: {}",
        o.status.code(),
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    stdout(o)
}

/// A temporary path as the `&str` argument the binary takes.
pub fn path(p: &Path) -> &str {
    p.to_str().expect("utf-8 temp path")
}

/// Exit code 2 and exactly one line on stderr, `error: ...` containing
/// every one of `needles` and no panic; nothing on stdout. Returns the line.
pub fn assert_one_line_error(o: &Output, needles: &[&str]) -> String {
    let err = stderr(o);
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
    err
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
