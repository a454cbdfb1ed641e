//! Defects found by a hostile audit of the command line, one test each:
//! output files that are not regular files, closed pipes, hostile weights,
//! unbounded inputs, sizes, depths and times, and nonsense that used to be
//! accepted silently. Every test fails on the code before its fix.

use std::os::unix::fs::FileTypeExt as _;
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::Duration;

mod common;
use common::*;

/// A small shard run writing its part file to `out`.
fn shard_to(out: &Path) -> std::process::Output {
    varia(&perft_args(
        "chess",
        "3",
        &[
            "--split-depth",
            "2",
            "--shard",
            "1/2",
            "--threads",
            "1",
            "--out",
            out.to_str().unwrap(),
        ],
    ))
}

#[test]
fn shard_out_writes_through_a_symlink_instead_of_replacing_it() {
    let dir = tempfile::tempdir().unwrap();
    let link = dir.path().join("l.csv");
    std::os::unix::fs::symlink("t.csv", &link).unwrap();
    ok_stdout(&shard_to(&link));
    let meta = std::fs::symlink_metadata(&link).unwrap();
    assert!(meta.file_type().is_symlink(), "the symlink was replaced");
    let part = std::fs::read_to_string(dir.path().join("t.csv")).unwrap();
    assert!(
        part.starts_with("index,path,nodes,seconds,check\n"),
        "{part}"
    );
    // The run's identity beside the name given.
    let identity = std::fs::read_to_string(dir.path().join("l.csv.meta")).unwrap();
    assert!(identity.contains("depth: 3"), "{identity}");
    assert!(!dir.path().join("l.csv.tmp").exists());
}

#[test]
fn shard_out_writes_into_a_fifo_instead_of_replacing_it() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("n");
    let made = Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(made.success());
    // The reader opens the FIFO (blocking until a writer does) and reads it
    // to the end; before the fix nobody ever opens it, so it is not joined.
    let (tx, rx) = std::sync::mpsc::channel();
    let reader_path = fifo.clone();
    std::thread::spawn(move || {
        let _ = tx.send(std::fs::read_to_string(reader_path));
    });
    let out = shard_to(&fifo);
    let kind = std::fs::symlink_metadata(&fifo).unwrap().file_type();
    assert!(kind.is_fifo(), "the FIFO was replaced by {kind:?}");
    ok_stdout(&out);
    let got = rx.recv_timeout(Duration::from_secs(60)).unwrap().unwrap();
    // A stream carries the run's identity on top (no sidecar beside it).
    assert!(got.contains("# depth: 3"), "{got}");
    assert!(!dir.path().join("n.meta").exists());
}

/// Runs `varia args` in `dir` with its stdout a pipe closed before it
/// writes anything (a reader like `head` that has already gone).
fn with_closed_stdout(dir: &Path, args: &[&str]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_varia"))
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    child.wait_with_output().unwrap()
}

/// A closed stdout ends the run quietly: success, nothing on stderr.
fn assert_quiet(o: &Output, what: &str) {
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{what}: exit {:?}: {err}", o.status);
    assert!(err.is_empty(), "{what}: {err}");
}

#[test]
fn a_closed_stdout_ends_every_subcommand_quietly() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let runs: &[&[&str]] = &[
        &["analyse", "--variant", "chess", "--depth", "3"],
        &["bench", "--variant", "chess", "--depth", "2"],
        &["bench", "--variant", "chess", "--depth", "2", "--signature"],
        &perft_args("chess", "2", &[]),
        &[
            "moves",
            "--variant",
            "chess",
            "--fen",
            "8/8/8/8/8/8/8/K1k5 w - - 0 1",
        ],
        &[
            "match",
            "--variant",
            "suicide",
            "--engine",
            "name=a",
            "--engine",
            "name=b",
            "--each",
            "nodes=100",
            "--games",
            "2",
            "--quiet",
            "--out",
            "games.csv",
        ],
        &["match-merge", "games.csv"],
        &datagen_args(
            "suicide",
            "100",
            &["--games", "2", "--out", "pos.csv", "--quiet"],
        ),
        &tune_args(
            "texel",
            "suicide",
            "tempo",
            &[
                "--positions",
                "pos.csv",
                // A fixed scale: two games' positions are too few for the
                // search of K, which would warn on stderr.
                "--k",
                "1",
                "--iterations",
                "2",
                "--out",
                "texel.csv",
                "--weights",
                "texel.toml",
                "--quiet",
            ],
        ),
        &tune_args(
            "spsa",
            "suicide",
            "material.queen",
            &[
                "--iterations",
                "1",
                "--nodes",
                "100",
                "--out",
                "spsa.csv",
                "--weights",
                "spsa.toml",
                "--quiet",
            ],
        ),
        &["tune", "plot", "--trace", "spsa.csv"],
    ];
    for args in runs {
        assert_quiet(&with_closed_stdout(d, args), &args.join(" "));
    }
    // What went to files before stdout was needed is all there.
    let games = std::fs::read_to_string(d.join("games.csv")).unwrap();
    // The identity header (`#` lines), the column line and both games.
    let rows = games.lines().filter(|l| !l.starts_with('#')).count();
    assert_eq!(rows, 3, "{games}");
    assert!(d.join("texel.toml").exists() && d.join("spsa.toml").exists());
}

/// Runs `varia args`, killing it after `limit`: `None` if it had to be killed.
fn within(limit: Duration, args: &[&str]) -> Option<Output> {
    let mut child = spawn_varia(args, Stdio::null(), Stdio::piped(), Stdio::piped());
    let start = std::time::Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > limit {
            child.kill().unwrap();
            child.wait().unwrap();
            return None;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    Some(child.wait_with_output().unwrap())
}

#[test]
fn weights_beyond_the_bound_are_refused_and_large_ones_do_not_hang() {
    let dir = tempfile::tempdir().unwrap();
    let w = write_file(
        dir.path(),
        "w.toml",
        "variant = \"chess\"\n[material]\npawn = 20000\n",
    );
    let analyse = |fen: &str| {
        within(
            Duration::from_secs(60),
            &[
                "analyse",
                "--variant",
                "chess",
                "--eval",
                w.to_str().unwrap(),
                "--fen",
                fen,
                "--depth",
                "1",
            ],
        )
        .expect("analyse hung")
    };
    let few = "4k3/8/8/8/8/8/PPP5/4K3 w - - 0 1";
    assert_one_line_error(&analyse(few), &["w.toml", "material.pawn = 20000", "10000"]);
    // The largest weight allowed, times eight pawns, is past the mate range:
    // the evaluation is clamped below it and the search ends.
    std::fs::write(&w, "variant = \"chess\"\n[material]\npawn = 10000\n").unwrap();
    let text = ok_stdout(&analyse("4k3/8/8/8/8/8/PPPPPPPP/4K3 w - - 0 1"));
    assert!(text.contains("bestmove"), "{text}");
    assert!(!text.contains("mate"), "{text}");
    std::fs::write(&w, "").unwrap();
    assert_one_line_error(&analyse(few), &["w.toml", "sets no weights"]);
}

#[test]
fn hash_and_thread_counts_have_the_same_bounds_everywhere() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("o.csv");
    let w = dir.path().join("w.toml");
    let o = out.to_str().unwrap();
    // Too much memory for any machine, and a size whose bytes overflow.
    let w = w.to_str().unwrap();
    let runs = [
        &datagen_args("suicide", "10", &["--games", "1", "--out", o, "--quiet"])[..],
        &tune_args(
            "spsa",
            "suicide",
            "tempo",
            &["--iterations", "1", "--out", o, "--weights", w, "--quiet"],
        ),
        &["analyse", "--variant", "chess", "--depth", "1"],
    ];
    for hash in ["100000000", "17592186044416"] {
        for run in runs {
            let mut args = run.to_vec();
            args.extend(["--hash", hash]);
            assert_one_line_error(&varia(&args), &["--hash", hash, "out of range"]);
        }
    }
    assert!(!out.exists(), "nothing written for a refused run");
    // The same thread bound in perft, analyse, bench and openings.
    let max = search::settings::MAX_THREADS.to_string();
    let over = (search::settings::MAX_THREADS + 1).to_string();
    for sub in [
        &perft_args("chess", "1", &[])[..],
        &["analyse", "--variant", "chess", "--depth", "1"],
        &["bench", "--variant", "chess", "--depth", "1"],
        &["openings", "--variant", "chess"],
    ] {
        let mut args = sub.to_vec();
        args.extend(["--threads", &over]);
        assert_one_line_error(&varia(&args), &["--threads", &over, &max]);
    }
    // CECP cannot refuse `memory`: it clamps, and says so.
    let text = session(
        "xboard",
        "xboard\nprotover 2\nmemory 17592186044416\nping 1\n",
    );
    assert!(
        text.contains("# memory 17592186044416 MB is out of range: using"),
        "{text}"
    );
    assert!(text.contains("pong 1"), "{text}");
}

#[test]
fn depth_and_movetime_are_bounded() {
    let o = varia(&["moves", "--variant", "chess", "--depth", "100"]);
    assert_one_line_error(&o, &["--depth 100", "at most 20"]);
    let o = varia(&[
        "analyse",
        "--variant",
        "chess",
        "--movetime",
        "18446744073709551615",
    ]);
    assert_one_line_error(&o, &["--movetime", "18446744073709551615"]);
    let o = varia(&["analyse", "--variant", "chess", "--depth", "101"]);
    assert_one_line_error(&o, &["--depth", "100"]);
}

#[test]
fn devices_and_other_non_files_are_refused_as_inputs() {
    let dir = tempfile::tempdir().unwrap();
    let d = |name: &str| dir.path().join(name).to_str().unwrap().to_string();
    let (out, w) = (d("out.csv"), d("w.toml"));
    let z = "/dev/zero";
    let runs: Vec<Vec<&str>> = vec![
        perft_args("chess", "4", &["--checkpoint", z]),
        vec!["perft", "--suite", z],
        vec!["perft-merge", z],
        vec!["analyse", "--variant", "chess", "--depth", "1", "--eval", z],
        vec!["match-merge", z],
        vec!["datagen", "--variant", "chess", "--from", z, "--out", &out],
        vec![
            "tune",
            "texel",
            "--variant",
            "chess",
            "--positions",
            z,
            "--out",
            &out,
            "--weights",
            &w,
        ],
        vec!["tune", "plot", "--trace", z],
        datagen_args("chess", "10", &["--games", "1", "--out", &out, "--book", z]),
    ];
    for args in &runs {
        let o = within(Duration::from_secs(60), args)
            .unwrap_or_else(|| panic!("{}: still reading", args.join(" ")));
        assert_one_line_error(&o, &["/dev/zero", "not a regular file"]);
    }
    // The engine refuses the file and keeps its built-in weights.
    let text = session(
        "uci",
        "uci\nsetoption name EvalFile value /dev/zero\nisready\nquit\n",
    );
    assert!(
        text.contains("info string error EvalFile not loaded")
            && text.contains("not a regular file"),
        "{text}"
    );
    assert!(text.contains("readyok"), "{text}");
}

#[test]
fn datagen_from_a_file_without_usable_games_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("pos.csv");
    let empty = write_file(dir.path(), "empty.pgn", "");
    let chess = dir.path().join("chess.pgn");
    std::fs::write(
        &chess,
        "[Variant \"Standard\"]\n[Result \"1-0\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n",
    )
    .unwrap();
    for (from, variant, why) in [
        (&empty, "chess", "no positions"),
        (&chess, "atomic", "[Variant \"Standard\"] is not atomic"),
    ] {
        let o = varia(&[
            "datagen",
            "--variant",
            variant,
            "--from",
            from.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ]);
        assert_one_line_error(&o, &[from.to_str().unwrap(), why]);
    }
}

#[test]
fn non_finite_and_absurd_tuning_options_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let d = |name: &str| dir.path().join(name).to_str().unwrap().to_string();
    let (out, w, pos) = (d("t.csv"), d("w.toml"), d("pos.csv"));
    std::fs::write(
        &pos,
        "fen,result\nrnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1,0.5\n",
    )
    .unwrap();
    let spsa = |flag: &str, value: &str| {
        varia(&tune_args(
            "spsa",
            "suicide",
            "tempo",
            &[
                "--iterations",
                "1",
                "--nodes",
                "10",
                "--out",
                &out,
                "--weights",
                &w,
                "--quiet",
                flag,
                value,
            ],
        ))
    };
    for (flag, value) in [
        ("--alpha", "nan"),
        ("--gamma", "inf"),
        ("--r-end", "0"),
        ("--a-ratio", "NaN"),
        ("--alpha", "1e308"),
    ] {
        assert_one_line_error(&spsa(flag, value), &[flag, "expected"]);
    }
    assert!(
        !dir.path().join("t.csv").exists(),
        "no trace for a refused run"
    );
    let texel = |extra: &[&str]| {
        let mut args = tune_args(
            "texel",
            "suicide",
            "tempo",
            &[
                "--positions",
                &pos,
                "--iterations",
                "2",
                "--weights",
                &w,
                "--quiet",
            ],
        );
        args.extend(extra);
        varia(&args)
    };
    for lr in ["1e308", "nan", "0"] {
        let o = texel(&["--optimizer", "adam", "--lr", lr, "--out", &out]);
        assert_one_line_error(&o, &["--lr", "expected"]);
    }
    // --quiet: no progress lines before an error found after reading.
    let o = texel(&["--out", "/nonexistent/dir/t.csv"]);
    assert_one_line_error(&o, &["/nonexistent/dir/t.csv"]);
}

#[test]
fn usage_errors_are_one_line() {
    for args in [
        &["perft", "--bogus"][..],
        &["moves"],
        &["analyse", "--variant", "chess", "--depth", "x"],
        &["no-such-command"],
    ] {
        assert_one_line_error(&varia(args), &["(see --help)"]);
    }
    // Help itself still goes to stdout in full.
    let help = ok_stdout(&varia(&["perft", "--help"]));
    assert!(help.lines().count() > 5, "{help}");
}

#[test]
fn a_suite_cut_off_in_its_last_row_is_malformed_not_a_mismatch() {
    let dir = tempfile::tempdir().unwrap();
    let suite = dir.path().join("suite.csv");
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    // perft(3) is 8902: the file ends inside the number.
    std::fs::write(
        &suite,
        format!("variant,fen,depth,nodes\nchess,{start},3,89"),
    )
    .unwrap();
    let o = varia(&["perft", "--suite", suite.to_str().unwrap()]);
    assert_one_line_error(&o, &["suite.csv", "line 2", "no newline"]);
    std::fs::write(
        &suite,
        format!("variant,fen,depth,nodes\nchess,{start},3,8902\n"),
    )
    .unwrap();
    ok_stdout(&varia(&["perft", "--suite", suite.to_str().unwrap()]));
}

#[test]
fn max_plies_0_means_no_limit_in_datagen_as_in_match() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("pos.csv");
    ok_stdout(&varia(&datagen_args(
        "suicide",
        "50",
        &[
            "--games",
            "1",
            "--max-plies",
            "0",
            "--out",
            out.to_str().unwrap(),
            "--quiet",
            "--threads",
            "1",
        ],
    )));
    let text = std::fs::read_to_string(&out).unwrap();
    let positions = text
        .lines()
        .filter(|l| !l.starts_with('#') && l.contains(','))
        .count();
    // Before: 0 was "a draw at once", a game without positions.
    assert!(positions > 1, "{text}");
}
