//! The engine subcommands as processes: `varia uci` and `varia xboard` over
//! pipes, and `varia analyse`.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Output, Stdio};

mod common;
use common::*;

/// Runs `varia analyse <args>`.
fn analyse(args: &[&str]) -> Output {
    let mut a = vec!["analyse"];
    a.extend_from_slice(args);
    varia(&a)
}

#[test]
fn uci_over_stdin_and_stdout() {
    let out = session(
        "uci",
        "uci\nisready\nsetoption name UCI_Variant value knightmate\nnonsense\nposition startpos moves e2e4\ngo depth 5\n",
    );
    assert!(out.contains("uciok\nreadyok\n"), "{out}");
    assert!(
        out.contains("info string error unknown command: nonsense"),
        "{out}"
    );
    let best = out.lines().last().expect("output");
    assert!(best.starts_with("bestmove "), "{out}");
}

#[test]
fn uci_quit_piped_after_go_prints_the_bestmove() {
    // The scripts: a shell pipe with `quit` right after `go`.
    for go in [
        "go depth 20",
        "go nodes -5",
        "go movetime 100",
        "go infinite",
    ] {
        let out = session("uci", &format!("uci\nposition startpos\n{go}\nquit\n"));
        let last = out.lines().last().unwrap_or_default();
        assert!(last.starts_with("bestmove "), "{go}: {out}");
    }
}

#[test]
fn uci_quit_while_searching_exits_at_once() {
    let mut child = spawn_varia(&["uci"], Stdio::piped(), Stdio::piped(), Stdio::inherit());
    let mut stdin = child.stdin.take().expect("stdin");
    let mut stdout = BufReader::new(child.stdout.take().expect("stdout"));
    stdin.write_all(b"go infinite\n").expect("write");
    let mut line = String::new();
    while !line.starts_with("info depth 2 ") {
        line.clear();
        assert!(stdout.read_line(&mut line).expect("read") > 0, "no info");
    }
    let t = std::time::Instant::now();
    stdin.write_all(b"quit\n").expect("write");
    // stdin stays open: quit alone must end the process, after the
    // stopped search's bestmove.
    let mut rest = String::new();
    std::io::Read::read_to_string(&mut stdout, &mut rest).expect("read");
    let status = child.wait().expect("exits");
    assert!(status.success());
    assert!(t.elapsed() < std::time::Duration::from_secs(10));
    let last = rest.lines().last().unwrap_or_default();
    assert!(last.starts_with("bestmove "), "{rest}");
    drop(stdin);
}

#[test]
fn xboard_over_stdin_and_stdout() {
    let out = session(
        "xboard",
        "xboard\nprotover 2\nnew\nvariant 3check\nsd 4\nusermove e2e4\nping 1\n",
    );
    let lines: Vec<&str> = out.lines().collect();
    assert!(
        lines[0].starts_with(
            "feature myname=\"varia\" variants=\"normal,giveaway,3check,atomic,losers,knightmate\""
        ),
        "{out}"
    );
    assert!(lines.len() >= 3, "{out}");
    assert!(lines[lines.len() - 2].starts_with("move "), "{out}");
    assert_eq!(lines[lines.len() - 1], "pong 1", "{out}");
}

#[test]
fn analyse_prints_iterations_best_move_score_and_pv() {
    let out = analyse(&[
        "--variant",
        "chess",
        "--fen",
        "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1",
        "--depth",
        "4",
    ]);
    assert!(out.status.success(), "{out:?}");
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("depth  1 "), "{text}");
    assert!(text.contains("bestmove a1a8  (Ra8#)"), "{text}");
    assert!(text.contains("score mate 1"), "{text}");
    assert!(text.contains("pv a1a8"), "{text}");
    assert!(text.contains("san 1. Ra8#"), "{text}");

    let out = analyse(&["--variant", "giveaway", "--movetime", "200"]);
    assert!(out.status.success(), "{out:?}");
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("bestmove "), "{text}");
    assert!(
        text.contains("score cp ") || text.contains("score mate "),
        "{text}"
    );
}

#[test]
fn analyse_errors_are_one_line_and_exit_2() {
    for args in [
        &["--variant", "chess", "--fen", "not a fen", "--depth", "3"][..],
        &[
            "--variant",
            "atomic",
            "--depth",
            "3",
            "--eval",
            "/no/such/file.toml",
        ],
        &["--variant", "chess", "--depth", "0"],
        &["--variant", "chess", "--depth", "3", "--threads", "0"],
        &[
            "--variant",
            "chess",
            "--depth",
            "3",
            "--search",
            "/no/such/search.toml",
        ],
    ] {
        let out = analyse(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {out:?}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.starts_with("error: "), "{err}");
    }
    // No limit at all is a usage error (exit 2 as well).
    let out = analyse(&["--variant", "chess"]);
    assert_eq!(out.status.code(), Some(2));
}

/// `varia uci` run by `sh` under an address-space limit of `limit_kb` (none
/// if `None`), with piped stdin and stdout.
#[cfg(target_os = "linux")]
fn uci_child(limit_kb: Option<u64>) -> std::process::Child {
    let limit = limit_kb.map_or("unlimited".to_string(), |kb| kb.to_string());
    Command::new("sh")
        .arg("-c")
        .arg(format!("ulimit -v {limit} && exec \"$0\" uci"))
        .arg(env!("CARGO_BIN_EXE_varia"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("varia starts")
}

/// The peak address space of process `pid` in kB.
#[cfg(target_os = "linux")]
fn vm_peak_kb(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).expect("proc status");
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmPeak:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .expect("VmPeak")
}

#[cfg(target_os = "linux")]
#[test]
fn a_new_table_is_allocated_after_the_old_one_is_freed() {
    const HASH_MB: u64 = 1024;
    // What the engine needs besides its table, measured with a tiny one.
    let mut child = uci_child(None);
    let mut stdin = child.stdin.take().expect("stdin");
    let mut stdout = BufReader::new(child.stdout.take().expect("stdout"));
    let script = "setoption name Hash value 1\nposition startpos\ngo depth 3\nisready\n";
    send_until(&mut stdin, &mut stdout, script, |l| l == "readyok").expect("a search");
    let base_kb = vm_peak_kb(child.id());
    drop(stdin);
    assert!(child.wait().expect("exits").success());
    // Room for one table of HASH_MB and a half, not for two.
    let limit_kb = base_kb + HASH_MB * 1024 * 3 / 2;
    let mut child = uci_child(Some(limit_kb));
    let mut stdin = child.stdin.take().expect("stdin");
    let mut stdout = BufReader::new(child.stdout.take().expect("stdout"));
    for (what, script) in [
        (
            "Hash",
            format!("setoption name Hash value {HASH_MB}\nisready\n"),
        ),
        ("ucinewgame", "ucinewgame\nisready\n".to_string()),
        (
            "a Hash change",
            format!("setoption name Hash value {}\nisready\n", HASH_MB - 8),
        ),
        (
            "a search",
            "position startpos\ngo depth 3\nisready\n".to_string(),
        ),
    ] {
        let got = send_until(&mut stdin, &mut stdout, &script, |l| l == "readyok");
        if got.is_none() {
            let out = child.wait_with_output().expect("exits");
            panic!(
                "{what} with a {HASH_MB} MB table did not fit in {limit_kb} kB \
                 ({base_kb} kB besides the table): {}",
                String::from_utf8_lossy(&out.stderr)
            );
        }
    }
    drop(stdin);
    assert!(child.wait().expect("exits").success());
}

/// `--search FILE` loads search settings: a valid file changes the node
/// count of a fixed-depth search, a bad key is one line naming it.
#[test]
fn analyse_search_file_changes_the_search_and_bad_keys_are_named() {
    let dir = tempfile::tempdir().unwrap();
    let no_null_move = write_file(dir.path(), "no-null-move.toml", "nmp_min_depth = 121\n");
    let bad = write_file(dir.path(), "bad.toml", "lmr_divisor = 0\n");
    let nodes = |extra: &[&str]| {
        let mut args = vec!["--variant", "chess", "--depth", "6"];
        args.extend_from_slice(extra);
        let out = analyse(&args);
        assert!(out.status.success(), "{out:?}");
        let text = String::from_utf8(out.stdout).unwrap();
        // The summary `depth D  nodes N` (the iteration lines have a seldepth).
        text.lines()
            .find(|l| l.starts_with("depth ") && !l.contains("seldepth"))
            .unwrap_or_else(|| panic!("no summary in {text}"))
            .to_string()
    };
    let shipped = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../data/search/default.toml"
    );
    assert_eq!(
        nodes(&[]),
        nodes(&["--search", shipped]),
        "the shipped file is the defaults"
    );
    assert_ne!(
        nodes(&[]),
        nodes(&["--search", no_null_move.to_str().unwrap()]),
        "a settings file changes the search"
    );
    let out = analyse(&[
        "--variant",
        "chess",
        "--depth",
        "3",
        "--search",
        bad.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("\"lmr_divisor\" = 0 is out of range"), "{err}");
}
