//! Helpers shared by the CLI integration tests: run the `varia` binary and
//! check its output. Each test crate uses a subset of them.
#![allow(dead_code)]

use std::ffi::OsStr;
use std::io::{BufRead as _, BufReader, Write as _};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Output, Stdio};
use std::sync::OnceLock;

/// The chess start position.
pub const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// "Kiwipete", the perft position with castling, en passant and promotions
/// all within three plies.
pub const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

/// The six games by the names `--variant` takes.
pub const VARIANTS: [&str; 6] = [
    "chess",
    "suicide",
    "threecheck",
    "atomic",
    "losers",
    "knightmate",
];

/// `perft --variant VARIANT --depth DEPTH` followed by `extra`: the command
/// line every perft test builds on.
pub fn perft_args<'a>(variant: &'a str, depth: &'a str, extra: &[&'a str]) -> Vec<&'a str> {
    let mut args = vec!["perft", "--variant", variant, "--depth", depth];
    args.extend_from_slice(extra);
    args
}

/// `tune METHOD --variant VARIANT --params PARAMS` followed by `extra`: the
/// command line every tuning test builds on.
pub fn tune_args<'a>(
    method: &'a str,
    variant: &'a str,
    params: &'a str,
    extra: &[&'a str],
) -> Vec<&'a str> {
    let mut args = vec!["tune", method, "--variant", variant, "--params", params];
    args.extend_from_slice(extra);
    args
}

/// `datagen --variant VARIANT --nodes NODES` followed by `extra` (with
/// `--games`): the command line of the tests that play games for data.
pub fn datagen_args<'a>(variant: &'a str, nodes: &'a str, extra: &[&'a str]) -> Vec<&'a str> {
    let mut args = vec!["datagen", "--variant", variant, "--nodes", nodes];
    args.extend_from_slice(extra);
    args
}

/// Runs `varia` with `args` and collects its output.
/// `varia match` of chess between `a` and a stronger `b` at tiny node
/// counts (`b` is `name=b,nodes=N`, `each` the shared limit), two games at
/// once, quiet, then `rest`.
pub fn chess_match_args<'a>(
    b: &'a str,
    each: &'a str,
    games: &'a str,
    seed: &'a str,
    rest: &[&'a str],
) -> Vec<&'a str> {
    let mut a = vec![
        "match",
        "--variant",
        "chess",
        "--engine",
        "name=a",
        "--engine",
        b,
        "--each",
        each,
        "--games",
        games,
        "--seed",
        seed,
        "--concurrency",
        "2",
        "--quiet",
    ];
    a.extend_from_slice(rest);
    a
}

pub fn varia(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_varia"))
        .args(args)
        .output()
        .expect("run varia")
}

/// Starts `varia` with `args` and the given standard streams, for the tests
/// that talk to it, kill it or time it out while it runs.
pub fn spawn_varia<S: AsRef<OsStr>>(
    args: &[S],
    stdin: Stdio,
    stdout: Stdio,
    stderr: Stdio,
) -> Child {
    Command::new(env!("CARGO_BIN_EXE_varia"))
        .args(args)
        .stdin(stdin)
        .stdout(stdout)
        .stderr(stderr)
        .spawn()
        .expect("varia starts")
}

/// Runs `varia` with `args` and `stdin` piped in (then closed), and collects
/// its output.
pub fn varia_with_stdin(args: &[&str], stdin: &str) -> Output {
    let mut child = spawn_varia(args, Stdio::piped(), Stdio::piped(), Stdio::piped());
    let mut input = child.stdin.take().expect("stdin is piped");
    input.write_all(stdin.as_bytes()).expect("stdin written");
    drop(input);
    child.wait_with_output().expect("varia finishes")
}

/// Sends `script` and reads up to (and with) the line `last`; `None` if the
/// output ends first. The engine's stdin stays open, so nothing it is doing
/// is cut short by the end of its input.
pub fn send_until(
    stdin: &mut ChildStdin,
    stdout: &mut BufReader<ChildStdout>,
    script: &str,
    last: impl Fn(&str) -> bool,
) -> Option<Vec<String>> {
    stdin.write_all(script.as_bytes()).ok()?;
    stdin.flush().ok()?;
    let mut lines = Vec::new();
    loop {
        let mut line = String::new();
        if stdout.read_line(&mut line).ok()? == 0 {
            return None;
        }
        let line = line.trim_end().to_string();
        let done = last(&line);
        lines.push(line);
        if done {
            return Some(lines);
        }
    }
}

/// Runs `varia <args>` (a UCI engine), sends `script`, which must start a
/// search, and returns the output up to and with its `bestmove`; then sends
/// `quit`. Unlike piping `go ...` and `quit` together, the search finishes
/// on its own limits: `quit` or the end of input would stop it, however
/// loaded the machine, before its last iteration.
pub fn uci_until_bestmove(args: &[&str], script: &str) -> String {
    let mut child = spawn_varia(args, Stdio::piped(), Stdio::piped(), Stdio::piped());
    let mut stdin = child.stdin.take().expect("stdin is piped");
    let mut stdout = BufReader::new(child.stdout.take().expect("stdout is piped"));
    let lines = send_until(&mut stdin, &mut stdout, script, |l| {
        l.starts_with("bestmove ")
    });
    let _ = stdin.write_all(b"quit\n");
    drop(stdin);
    let out = child.wait_with_output().expect("varia finishes");
    match lines {
        Some(lines) if out.status.success() => lines.join("\n") + "\n",
        _ => panic!(
            "no bestmove from varia {args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        ),
    }
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

/// Writes `contents` to the file `name` in `dir` (a test's temporary
/// directory) and returns its path.
pub fn write_file(dir: &Path, name: &str, contents: &str) -> PathBuf {
    let file = dir.join(name);
    std::fs::write(&file, contents).expect("write a test input file");
    file
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

/// The `fake-engine` binary (crates/fake-engines), built on first use with
/// the cargo that runs the tests: only a package's own integration tests get
/// `CARGO_BIN_EXE_<name>`, and the commands under test are varia's.
pub fn fake_engine() -> &'static PathBuf {
    static BIN: OnceLock<PathBuf> = OnceLock::new();
    BIN.get_or_init(|| {
        let status = Command::new(option_env!("CARGO").unwrap_or("cargo"))
            .args([
                "build",
                "--quiet",
                "--profile",
                "test",
                "-p",
                "fake-engines",
            ])
            .args(["--bin", "fake-engine"])
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .status()
            .expect("cargo runs");
        assert!(status.success(), "building fake-engine failed");
        let exe = std::env::current_exe().expect("the test binary has a path");
        let dir = exe
            .parent()
            .and_then(|d| d.parent())
            .expect("target/<profile>/deps");
        let bin = dir.join(format!("fake-engine{}", std::env::consts::EXE_SUFFIX));
        assert!(bin.is_file(), "no {}", bin.display());
        bin
    })
}

/// A trace's column line and rows: the settings block and the checksum
/// column left out.
pub fn trace_table(t: &str) -> Vec<String> {
    t.lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| l.rsplit_once(',').expect("a checksum column").0.to_string())
        .collect()
}

/// A record file (per-game CSV, checkpoint, part, trace, datagen output)
/// as one text in the layout of older versions: its sidecar `FILE.meta`
/// as `#` lines on top of the CSV. varia still reads and resumes that
/// layout, so tests build altered or cut-short files from it.
pub fn legacy_text(file: &Path) -> String {
    let text = std::fs::read_to_string(file).expect("record file");
    if text.starts_with('#') {
        return text;
    }
    let mut meta_name = file.as_os_str().to_owned();
    meta_name.push(".meta");
    let meta = std::fs::read_to_string(PathBuf::from(meta_name)).expect("its .meta sidecar");
    let mut head: String = meta.lines().map(|l| format!("# {l}\n")).collect();
    head.push_str(&text);
    head
}
