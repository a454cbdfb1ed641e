//! `varia perft-compare` against move generators with a planted fault, and
//! against the real Fairy-Stockfish when one is available.
//!
//! Where the fake engine comes from: the faulty generators are modes of
//! `fake-engine` (crates/fake-engines, `src/perft.rs`). Only a package's own
//! integration tests get `CARGO_BIN_EXE_<name>`, and the command under test
//! is varia's, so these tests live here and build the fake engine themselves
//! with `cargo build --profile test -p fake-engines` (the cargo that runs the
//! tests, the same target directory and profile, so the build is a no-op
//! after `cargo test --workspace` and a small one otherwise), once per run.
//!
//! The real-engine test reads the path of Fairy-Stockfish from
//! `VARIA_FAIRY_STOCKFISH` and is skipped, with a message, when it is unset
//! or names no file.

mod common;
use common::fake_engine;
use std::path::PathBuf;
use std::process::{Command, Output};

fn compare(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_varia"))
        .arg("perft-compare")
        .args(args)
        .output()
        .expect("varia runs")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// The value of the `key: ` line of a report.
fn field(report: &str, key: &str) -> Option<String> {
    report
        .lines()
        .find_map(|l| l.strip_prefix(&format!("{key}: ")))
        .map(str::to_string)
}

/// The `--engine` setting of the fake engine in `mode` with `fault`.
fn engine(mode: &str, variant: &str, fault: &[&str]) -> String {
    let mut args = vec![mode.to_string()];
    if mode == "perftree" {
        args.push(format!("--variant {variant}"));
    }
    args.extend(fault.iter().map(|f| f.to_string()));
    let proto = if mode == "perftree" {
        "perftree"
    } else {
        "uci"
    };
    format!(
        "cmd={},proto={proto},args={}",
        fake_engine().display(),
        args.join(" ")
    )
}

#[test]
fn a_dropped_or_added_move_is_found_exactly_in_every_game() {
    // (game, fault, the moves to the faulty node and the faulty move, depth)
    let cases: &[(&str, &str, &str, u32)] = &[
        ("chess", "--drop-move", "e2e4,e7e5,g1f3", 4),
        ("giveaway", "--add-move", "e2e3,b7b5,a1a8", 4),
        ("atomic", "--drop-move", "g1f3,d7d5,f3e5", 4),
        ("3check", "--add-move", "e2e4,d7d5,f1b5,e8e7", 4),
        ("losers", "--drop-move", "d2d4,e7e6,c1g5", 3),
        ("knightmate", "--add-move", "e2e4,e7e5,h1h5", 3),
    ];
    for (i, &(variant, flag, moves, depth)) in cases.iter().enumerate() {
        let mode = if i % 2 == 0 { "perft-uci" } else { "perftree" };
        let fault = format!("{flag} {moves}");
        let settings = engine(mode, variant, &fault.split(' ').collect::<Vec<_>>());
        let depth = depth.to_string();
        let o = compare(&[
            "--variant",
            variant,
            "--depth",
            &depth,
            "--engine",
            &settings,
            "--quiet",
        ]);
        let report = stdout(&o);
        assert_eq!(
            o.status.code(),
            Some(1),
            "{variant}: {report}{}",
            stderr(&o)
        );
        let mut path: Vec<&str> = moves.split(',').collect();
        let wrong = path.pop().unwrap();
        assert_eq!(
            field(&report, "path").as_deref(),
            Some(path.join(" ").as_str()),
            "{report}"
        );
        let (key, other) = if flag == "--drop-move" {
            ("varia only", "engine only")
        } else {
            ("engine only", "varia only")
        };
        let listed = field(&report, key).unwrap_or_default();
        assert!(
            listed.starts_with(&format!("{wrong} (")),
            "{variant}: {report}"
        );
        assert_eq!(listed.matches('(').count(), 1, "{report}");
        assert_eq!(field(&report, other), None, "{report}");
        // The FEN and depth are those of the position after the path.
        let kind: movegen::VariantKind = variant.parse().unwrap();
        let at = movegen::VariantGame::from_uci_moves(kind, None, &path).unwrap();
        assert_eq!(field(&report, "fen"), Some(at.fen()), "{report}");
        let left = (depth.parse::<usize>().unwrap() - path.len()).to_string();
        assert_eq!(field(&report, "depth"), Some(left), "{report}");
        if !o.stderr.is_empty() {
            panic!("--quiet printed {}", stderr(&o));
        }
    }
}

#[test]
fn equal_generators_give_one_line_and_exit_0() {
    let settings = engine("perft-uci", "atomic", &[]);
    let o = compare(&["--variant", "atomic", "--depth", "3", "--engine", &settings]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(
        stdout(&o),
        "atomic depth 3: 8902 nodes, varia and the engine agree\n"
    );
    assert!(stderr(&o).contains("depth 3 after []"), "{}", stderr(&o));
    let tree = engine("perftree", "knightmate", &[]);
    let fen = "r1b1kb1r/pppppppp/8/8/8/8/PPPPPPPP/R1B1KB1R w KQkq - 0 1";
    let o = compare(&[
        "--variant",
        "knightmate",
        "--fen",
        fen,
        "--depth",
        "2",
        "--engine",
        &tree,
        "--quiet",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stdout(&o).lines().count(), 1);
}

#[test]
fn engines_that_cannot_answer_are_one_line_errors_with_exit_2() {
    let fake = fake_engine().display().to_string();
    let cases: Vec<(String, &str, &str)> = vec![
        ("cmd=/no/such/engine".into(), "chess", "cannot start"),
        (
            format!("cmd={fake},args=uci"),
            "atomic",
            "does not play atomic",
        ),
        ("cmd=sleep,args=5,timeout=0.3".into(), "chess", "no uciok"),
        (
            format!("cmd={fake},args=perft-uci --garbage"),
            "chess",
            "bad count",
        ),
        (
            format!("cmd={fake},proto=perftree,args=perftree --garbage"),
            "chess",
            "unexpected line",
        ),
        (
            format!("cmd={fake},proto=xboard"),
            "chess",
            "expected uci or perftree",
        ),
        (format!("cmd={fake},nodes=5"), "chess", "unknown setting"),
    ];
    for (settings, variant, says) in cases {
        let o = compare(&["--variant", variant, "--depth", "2", "--engine", &settings]);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{settings}: {err}");
        assert!(err.contains(says), "{settings}: {err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{settings}: {err}");
    }
}

#[test]
fn fairy_stockfish_agrees_on_every_start_position_at_depth_4() {
    let Some(path) = std::env::var_os("VARIA_FAIRY_STOCKFISH").map(PathBuf::from) else {
        eprintln!("skipped: set VARIA_FAIRY_STOCKFISH to a Fairy-Stockfish binary to run this");
        return;
    };
    if !path.is_file() {
        eprintln!(
            "skipped: VARIA_FAIRY_STOCKFISH={} is not a file",
            path.display()
        );
        return;
    }
    for variant in movegen::VariantKind::protocol_names() {
        let settings = format!("cmd={},timeout=120", path.display());
        let o = compare(&[
            "--variant",
            variant,
            "--depth",
            "4",
            "--engine",
            &settings,
            "--quiet",
        ]);
        assert_eq!(
            o.status.code(),
            Some(0),
            "{variant}: {}{}",
            stdout(&o),
            stderr(&o)
        );
        assert!(stdout(&o).contains("agree"), "{}", stdout(&o));
    }
}
