//! End-to-end tests of `varia match`, `varia match-merge` and `varia
//! openings`: the binary is run as a user would run it, with in-process
//! engines at small node limits so that hundreds of games take seconds.

use arena::results::{read_games, GameRow};
use movegen::VariantKind;
use std::path::{Path, PathBuf};
use std::process::Stdio;

mod common;
use common::*;
use std::time::{Duration, Instant};

/// `varia match --variant <variant>` with an `--engine` for each of
/// `engines`, then `rest`.
fn match_args<'a>(variant: &'a str, engines: &[&'a str], rest: &[&'a str]) -> Vec<&'a str> {
    let mut a = vec!["match", "--variant", variant];
    for e in engines {
        a.extend(["--engine", e]);
    }
    a.extend_from_slice(rest);
    a
}

/// The numbers of the pairing line `a vs b: N games, +W =D -L, score S%,
/// Elo E +/- X, ...`: (games, wins, draws, losses, elo, error).
fn pairing(text: &str) -> (u64, u64, u64, u64, f64, f64) {
    let line = text
        .lines()
        .find(|l| l.contains(" vs "))
        .unwrap_or_else(|| panic!("no pairing line in {text}"));
    let num = |after: &str| -> f64 {
        let rest = &line[line
            .find(after)
            .unwrap_or_else(|| panic!("{after} in {line}"))
            + after.len()..];
        let end = rest
            .find(|c: char| !(c.is_ascii_digit() || c == '.' || c == '-' || c == '+'))
            .unwrap_or(rest.len());
        rest[..end]
            .parse()
            .unwrap_or_else(|_| panic!("number after {after} in {line}"))
    };
    (
        num(": ") as u64,
        num("+") as u64,
        num("=") as u64,
        num(" -") as u64,
        num("Elo "),
        num("+/- "),
    )
}

/// Per-game rows without the wall-time column, in game order.
fn rows_without_time(p: &Path) -> Vec<GameRow> {
    let mut rows = read_games(p).expect("per-game CSV reads back");
    for r in &mut rows {
        r.seconds = 0.0;
    }
    rows.sort_by_key(|r| r.game);
    rows
}

fn default_openings(kind: VariantKind) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../data/openings")
        .join(format!("{}.epd", kind.name()))
}

#[test]
fn shipped_opening_books_load_for_every_variant() {
    for kind in VariantKind::ALL {
        let p = default_openings(kind);
        let list =
            arena::openings::load(&p, kind).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
        assert!(list.len() >= 200, "{kind}: {} openings", list.len());
        let distinct: std::collections::HashSet<String> =
            list.iter().map(|o| o.describe()).collect();
        assert_eq!(distinct.len(), list.len(), "{kind}: duplicate openings");
        // Plain FEN lines, as cutechess-cli and fastchess read an EPD book:
        // no comment line, no moves (before: `# ...`, then `FEN moves ...`).
        let text = std::fs::read_to_string(&p).expect("book reads");
        for (i, line) in text.lines().enumerate() {
            assert!(
                !line.starts_with('#') && !line.contains(" moves "),
                "{kind}: line {}: {line}",
                i + 1
            );
            assert_eq!(
                line.split_whitespace().count(),
                fen_fields(kind),
                "{kind}: {line}"
            );
        }
    }
}

/// Fields of a FEN of `kind` in varia's dialect (threecheck's remaining
/// checks come before the clocks).
fn fen_fields(kind: VariantKind) -> usize {
    if kind == VariantKind::ThreeCheck {
        7
    } else {
        6
    }
}

#[test]
fn a_book_rewritten_from_lines_to_positions_reaches_the_same_positions() {
    let dir = tempfile::tempdir().expect("temp dir");
    for kind in VariantKind::ALL {
        // A book of lines, as older versions wrote (and shipped) them: a
        // comment line, then `START_FEN moves ...`.
        let book = dir.path().join(format!("{}.lines.epd", kind.name()));
        let generated = ok_stdout(&varia(&[
            "openings",
            "--variant",
            kind.name(),
            "--plies",
            "4",
            "--count",
            "6",
            "--depth",
            "2",
            "--format",
            "lines",
            "--quiet",
        ]));
        assert!(
            generated.lines().all(|l| l.contains(" moves ")),
            "{generated}"
        );
        std::fs::write(&book, format!("# an older book\n{generated}")).expect("write");
        let lines = arena::openings::load(&book, kind).expect("a book of lines loads");
        assert_eq!(lines.len(), 6);
        // `varia openings --from BOOK [--format FORMAT]`.
        let convert = |format: &[&str]| {
            let mut a = vec!["openings", "--variant", kind.name(), "--from", path(&book)];
            a.extend_from_slice(format);
            a.push("--quiet");
            ok_stdout(&varia(&a))
        };
        // Lines to lines gives the lines back.
        assert_eq!(convert(&["--format", "lines"]), generated, "{kind}");
        // By default (and as `epd`): one position a line, the one the line
        // reaches, with no comment line.
        let fens = convert(&[]);
        assert_eq!(convert(&["--format", "epd"]), fens);
        assert!(!fens.contains('#'), "{fens}");
        let fen_book = dir.path().join(format!("{}.fen.epd", kind.name()));
        std::fs::write(&fen_book, &fens).expect("write");
        let positions = arena::openings::load(&fen_book, kind).expect("FEN book loads");
        assert_eq!(positions.len(), lines.len(), "{kind}");
        for (line, position) in lines.iter().zip(&positions) {
            assert!(position.moves.is_empty(), "{kind}: {position:?}");
            let reached = movegen::VariantGame::from_uci_moves(kind, Some(&line.fen), &line.moves)
                .expect("book line plays");
            assert_eq!(position.fen, reached.fen(), "{kind}: {}", line.describe());
        }
    }
    // Generation options make no sense with --from.
    let out = varia(&[
        "openings",
        "--variant",
        "chess",
        "--from",
        path(&default_openings(VariantKind::Chess)),
        "--plies",
        "4",
    ]);
    assert!(!out.status.success());
}

#[test]
fn identical_engines_score_half_within_error_bars() {
    let dir = tempfile::tempdir().expect("temp dir");
    let out = dir.path().join("games.csv");
    // Pairs: the same deterministic engine on both sides plays the same game
    // twice with colours swapped, so every pair is exactly 1-1.
    let suicide = |rest: &[&'static str], out: Option<&Path>| {
        let mut a = match_args(
            "suicide",
            &["name=a", "name=b"],
            &[
                "--each",
                "nodes=300",
                "--games",
                "200",
                "--concurrency",
                "2",
                "--quiet",
            ],
        );
        a.extend_from_slice(rest);
        if let Some(out) = out {
            a.extend(["--out", path(out)]);
        }
        ok_stdout(&varia(&a))
    };
    let text = suicide(&[], Some(&out));
    let (games, w, _d, l, elo, _err) = pairing(&text);
    assert_eq!(games, 200, "{text}");
    assert_eq!(w, l, "{text}");
    assert_eq!(elo, 0.0, "{text}");
    assert!(text.contains("penta [0 0 100 0 0]"), "{text}");
    assert_eq!(rows_without_time(&out).len(), 200);

    // Single games from 200 different openings: a real spread of results,
    // and 0 Elo inside 1.5 times the 95% interval (about three standard
    // errors). The engine is deterministic, so which side each opening
    // favours is fixed by the engine's play and the test would fail on one
    // engine in twenty at the bare 95% interval (offer ordering's landing
    // put it at -57.9 +/- 48.8, 2.3 standard errors); three standard errors
    // still catch a runner that gives one name the better side.
    let text = suicide(&["--no-repeat"], None);
    let (games, w, d, l, elo, err) = pairing(&text);
    assert_eq!((games, w + d + l), (200, 200), "{text}");
    assert!(w > 20 && l > 20, "{text}");
    assert!(elo.abs() <= 1.5 * err, "0 Elo outside the interval: {text}");
}

/// Chess, `name=full` against `engine` at 300 nodes each, then `rest`.
fn queen_match<'a>(engine: &'a str, rest: &[&'a str]) -> Vec<&'a str> {
    let mut a = match_args(
        "chess",
        &["name=full", engine],
        &[
            "--each",
            "nodes=300",
            "--concurrency",
            "2",
            "--quiet",
            "--max-plies",
            "300",
        ],
    );
    a.extend_from_slice(rest);
    a
}

/// The `--engine` of `name=noqueen`, whose eval file (written in `dir`)
/// values the queen at 0.
fn noqueen_engine(dir: &Path) -> String {
    let eval = write_file(dir, "noqueen.toml", "[material]\nqueen = 0\n");
    format!("name=noqueen,eval={}", path(&eval))
}

#[test]
fn engine_without_its_queen_loses_clearly() {
    let dir = tempfile::tempdir().expect("temp dir");
    let summary = dir.path().join("summary.csv");
    let engine = noqueen_engine(dir.path());
    let text = ok_stdout(&varia(&queen_match(
        &engine,
        &["--games", "60", "--summary", path(&summary)],
    )));
    let (games, w, _d, l, elo, err) = pairing(&text);
    assert_eq!(games, 60, "{text}");
    assert!(w >= 3 * l.max(1), "{text}");
    // Near a 100% score the Elo interval has no useful width (+545 +/- 997
    // at 57-1-2): the significance is the LOS checked below.
    assert!(elo > 0.0 && err > 0.0, "{text}");
    let csv = std::fs::read_to_string(&summary).expect("summary CSV");
    let row: Vec<&str> = csv
        .lines()
        .nth(1)
        .expect("one pairing")
        .split(',')
        .collect();
    assert_eq!(&row[..4], ["chess", "full", "noqueen", "60"], "{csv}");
    assert!(row[11].parse::<f64>().expect("los") > 0.99, "{csv}");
}

#[test]
fn sprt_stops_a_lopsided_match_early() {
    let dir = tempfile::tempdir().expect("temp dir");
    let engine = noqueen_engine(dir.path());
    let text = ok_stdout(&varia(&queen_match(
        &engine,
        &[
            "--games",
            "2000",
            "--sprt",
            "elo0=0",
            "elo1=20",
            "alpha=0.05",
            "beta=0.05",
        ],
    )));
    assert!(text.contains("H1 accepted"), "{text}");
    assert!(text.contains("LLR"), "{text}");
    let (games, ..) = pairing(&text);
    assert!(games < 2000, "{text}");
}

/// Starts a match, kills it (SIGKILL) once `at_least` games are in the CSV,
/// and returns how many complete rows it left.
fn start_and_kill(args: &[String], out: &Path, at_least: usize) -> usize {
    let mut child = spawn_varia(args, Stdio::inherit(), Stdio::null(), Stdio::null());
    let started = Instant::now();
    loop {
        let rows = std::fs::read_to_string(out)
            .map(|t| {
                let lines = t.lines().filter(|l| !l.starts_with('#')).count();
                lines.saturating_sub(1)
            })
            .unwrap_or(0);
        if rows >= at_least {
            break;
        }
        if let Ok(Some(status)) = child.try_wait() {
            panic!("the match ended ({status}) before it could be killed");
        }
        assert!(
            started.elapsed() < Duration::from_secs(120),
            "no games appeared"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
    child.kill().expect("kill varia");
    child.wait().expect("reap varia");
    rows_without_time(out).len()
}

#[test]
fn a_second_match_on_the_same_out_is_refused_while_the_first_runs() {
    let dir = tempfile::tempdir().expect("temp dir");
    let out = dir.path().join("games.csv");
    let pgn = dir.path().join("games.pgn");
    let args = |resume: bool| -> Vec<String> {
        let mut a: Vec<String> = match_args(
            "chess",
            &["name=a", "name=b"],
            &[
                "--each",
                "nodes=200",
                "--games",
                "2000",
                "--concurrency",
                "1",
                "--quiet",
                "--out",
                path(&out),
                "--pgn",
                path(&pgn),
            ],
        )
        .iter()
        .map(|s| s.to_string())
        .collect();
        if resume {
            a.push("--resume".into());
        }
        a
    };
    let mut first = spawn_varia(&args(false), Stdio::null(), Stdio::null(), Stdio::null());
    let started = Instant::now();
    while rows_so_far(&out) < 2 {
        assert!(first.try_wait().unwrap().is_none(), "the first match ended");
        assert!(started.elapsed() < Duration::from_secs(120), "no games");
        std::thread::sleep(Duration::from_millis(5));
    }
    // A second run, as a job started twice would be, with or without
    // --resume: refused at once, naming the file and the first run's pid.
    let holder = format!("(pid {}", first.id());
    for resume in [false, true] {
        let second = args(resume);
        let o = varia(&second.iter().map(String::as_str).collect::<Vec<_>>());
        assert_one_line_error(&o, &["games.csv is being written by another run", &holder]);
    }
    // Its PGN alone is refused too.
    let mut other_out = args(false);
    let at = other_out.iter().position(|a| a == "--out").unwrap() + 1;
    other_out[at] = path(&dir.path().join("other.csv")).to_string();
    let o = varia(&other_out.iter().map(String::as_str).collect::<Vec<_>>());
    assert_one_line_error(&o, &["games.pgn is being written by another run", &holder]);
    assert!(
        first.try_wait().unwrap().is_none(),
        "the first match still runs"
    );
    first.kill().expect("kill");
    first.wait().expect("reap");
    // The first run's file is whole: every game once, and it resumes.
    let rows = rows_without_time(&out);
    let mut games: Vec<usize> = rows.iter().map(|r| r.game).collect();
    games.dedup();
    assert_eq!(games.len(), rows.len(), "a game written twice");
    assert!(rows.len() >= 2);
}

/// Complete rows in a per-game CSV (0 while it does not exist).
fn rows_so_far(out: &Path) -> usize {
    std::fs::read_to_string(out)
        .map(|t| t.matches('\n').count().saturating_sub(1))
        .unwrap_or(0)
}

#[test]
fn resume_after_kill_gives_the_uninterrupted_totals() {
    let dir = tempfile::tempdir().expect("temp dir");
    let d = |name: &str| dir.path().join(name);
    let args = |out: &Path, pgn: &Path, summary: &Path| -> Vec<String> {
        match_args(
            "atomic",
            &["name=a", "name=b,nodes=400"],
            &[
                "--each",
                "nodes=300",
                "--games",
                "120",
                "--concurrency",
                "2",
                "--random-openings",
                "--seed",
                "7",
                "--quiet",
                "--out",
                path(out),
                "--pgn",
                path(pgn),
                "--summary",
                path(summary),
            ],
        )
        .iter()
        .map(|s| s.to_string())
        .collect()
    };
    let full = args(&d("full.csv"), &d("full.pgn"), &d("full-summary.csv"));
    let full_text = ok_stdout(&varia(&full.iter().map(String::as_str).collect::<Vec<_>>()));

    let cut = args(&d("cut.csv"), &d("cut.pgn"), &d("cut-summary.csv"));
    let before = start_and_kill(&cut, &d("cut.csv"), 20);
    assert!(before < 120, "killed too late");
    let mut again = cut.clone();
    again.push("--resume".into());
    let text = ok_stdout(&varia(
        &again.iter().map(String::as_str).collect::<Vec<_>>(),
    ));
    assert!(
        text.contains(&format!("({} played", 120 - before)),
        "finished games were replayed ({before} were done): {text}"
    );
    assert_eq!(
        rows_without_time(&d("cut.csv")),
        rows_without_time(&d("full.csv"))
    );
    assert_eq!(
        std::fs::read_to_string(d("cut-summary.csv")).expect("summary"),
        std::fs::read_to_string(d("full-summary.csv")).expect("summary")
    );
    assert_eq!(pairing(&text), pairing(&full_text));
    // The PGN holds every game once.
    let pgn = std::fs::read_to_string(d("cut.pgn")).expect("pgn");
    let games = arena::pgn::read_games(&pgn, VariantKind::Atomic).expect("PGN parses");
    assert_eq!(games.len(), 120);

    // Resuming a finished match plays nothing and reports the same totals.
    let text = ok_stdout(&varia(
        &again.iter().map(String::as_str).collect::<Vec<_>>(),
    ));
    assert!(text.contains("(0 played"), "{text}");
    assert_eq!(pairing(&text), pairing(&full_text));
}

#[test]
fn resume_and_merge_refuse_another_run_and_edited_rows() {
    let dir = tempfile::tempdir().expect("temp dir");
    let out = dir.path().join("games.csv");
    let run = |each: &str, resume: bool| {
        let mut a = match_args(
            "chess",
            &["name=a", "name=b"],
            &[
                "--each",
                each,
                "--games",
                "4",
                "--concurrency",
                "1",
                "--quiet",
                "--out",
                path(&out),
            ],
        );
        if resume {
            a.push("--resume");
        }
        varia(&a)
    };
    ok_stdout(&run("nodes=300", false));
    let text = std::fs::read_to_string(&out).expect("per-game CSV");
    assert!(text.starts_with("game,round,pair,variant,"), "{text}");
    assert!(
        legacy_text(&out)
            .starts_with("# varia match v1\n# variant: chess\n# engine.1: name=a nodes=300"),
        "{text}"
    );
    // Another node count (before: resumed, as the engines' names agree).
    assert_one_line_error(
        &run("nodes=301", true),
        &["belongs to another run: its engine.1 is name=a nodes=300 hash=1 threads=1, this run's is name=a nodes=301 hash=1 threads=1"],
    );
    assert_eq!(
        std::fs::read_to_string(&out).expect("csv"),
        text,
        "left unchanged"
    );
    ok_stdout(&run("nodes=300", true));

    // A flipped result (before: taken silently) is an error naming the line,
    // for resume and merge alike.
    let first_row = text
        .lines()
        .position(|l| l.starts_with("1,") || l.starts_with("2,"))
        .expect("a game row");
    let lines: Vec<&str> = text.lines().collect();
    let row = lines[first_row];
    let flipped_row = if row.contains(",1-0,") {
        row.replacen(",1-0,", ",0-1,", 1)
    } else if row.contains(",0-1,") {
        row.replacen(",0-1,", ",1-0,", 1)
    } else {
        row.replacen(",1/2-1/2,", ",1-0,", 1)
    };
    let flipped = text.replacen(row, &flipped_row, 1);
    std::fs::write(&out, &flipped).expect("write");
    let line = format!("games.csv: line {}: checksum mismatch", first_row + 1);
    assert_one_line_error(&run("nodes=300", true), &[&line]);
    assert_one_line_error(&varia(&["match-merge", path(&out)]), &[&line]);
    assert_eq!(
        std::fs::read_to_string(&out).expect("csv"),
        flipped,
        "left unchanged"
    );
}

#[test]
fn pgn_reads_back_for_every_variant() {
    let dir = tempfile::tempdir().expect("temp dir");
    for kind in VariantKind::ALL {
        let out = dir.path().join(format!("{}.csv", kind.name()));
        let pgn = dir.path().join(format!("{}.pgn", kind.name()));
        ok_stdout(&varia(&match_args(
            kind.name(),
            &["name=a", "name=b"],
            &[
                "--each",
                "nodes=200",
                "--games",
                "12",
                "--concurrency",
                "2",
                "--quiet",
                "--out",
                path(&out),
                "--pgn",
                path(&pgn),
            ],
        )));
        let text = std::fs::read_to_string(&pgn).expect("pgn");
        let games = arena::pgn::read_games(&text, kind)
            .unwrap_or_else(|e| panic!("{kind}: line {}: {}", e.line, e.message));
        let mut rows = read_games(&out).expect("csv");
        assert_eq!(games.len(), rows.len(), "{kind}");
        // Same order as the CSV (both are written as games end).
        for (g, r) in games.iter().zip(rows.iter_mut()) {
            let (fen, opening) = r.opening.split_once(" moves ").unwrap_or((&r.opening, ""));
            let moves: Vec<String> = opening
                .split_whitespace()
                .chain(r.moves.split_whitespace())
                .map(str::to_string)
                .collect();
            assert_eq!(g.start_fen, fen, "{kind} game {}", r.game);
            assert_eq!(g.moves, moves, "{kind} game {}", r.game);
            assert_eq!(g.result, r.result.as_str(), "{kind} game {}", r.game);
            let tag = |k: &str| g.tags.iter().find(|(t, _)| t == k).map(|(_, v)| v.clone());
            assert_eq!(tag("Variant").as_deref(), kind.pgn_name(), "{kind}");
            assert_eq!(tag("White"), Some(r.white.clone()));
        }
    }
}

/// `--pgn-variant-names cutechess` writes the tags cutechess reads (`3check`),
/// and the file still works as a varia book.
#[test]
fn pgn_in_cutechess_names_is_a_book() {
    let dir = tempfile::tempdir().expect("temp dir");
    let pgn = dir.path().join("threecheck.pgn");
    let run = |extra: &[&str]| {
        let mut a = match_args(
            "3check",
            &["name=a", "name=b"],
            &[
                "--each",
                "nodes=200",
                "--games",
                "4",
                "--max-plies",
                "16",
                "--concurrency",
                "2",
                "--quiet",
            ],
        );
        a.extend(extra);
        varia(&a)
    };
    ok_stdout(&run(&[
        "--pgn",
        path(&pgn),
        "--pgn-variant-names",
        "cutechess",
    ]));
    let text = std::fs::read_to_string(&pgn).expect("pgn");
    assert_eq!(text.matches("[Variant \"3check\"]").count(), 4, "{text}");
    assert!(!text.contains("Three-check"), "{text}");
    let book = arena::openings::load(&pgn, VariantKind::ThreeCheck).expect("book loads");
    assert_eq!(book.len(), 4);
    ok_stdout(&run(&["--openings", path(&pgn)]));
    // The same book is another game's book for no other variant.
    assert!(arena::openings::load(&pgn, VariantKind::Chess).is_err());
    assert_one_line_error(
        &run(&["--pgn-variant-names", "pychess"]),
        &["unknown PGN variant names \"pychess\""],
    );
}

#[test]
fn shards_merge_into_the_whole_match() {
    let dir = tempfile::tempdir().expect("temp dir");
    let d = |name: &str| dir.path().join(name);
    let run = |extra: &[&str], out: &Path| {
        let mut a = match_args(
            "losers",
            &["name=a", "name=b", "name=c,nodes=250"],
            &[
                "--each",
                "nodes=200",
                "--rounds",
                "6",
                "--concurrency",
                "2",
                "--quiet",
                "--out",
                path(out),
            ],
        );
        a.extend_from_slice(extra);
        ok_stdout(&varia(&a))
    };
    run(
        &["--summary", path(&d("whole-summary.csv"))],
        &d("whole.csv"),
    );
    for i in 1..=3 {
        run(&["--shard", &format!("{i}/3")], &d(&format!("part{i}.csv")));
    }
    let merged = varia(&[
        "match-merge",
        path(&d("part1.csv")),
        path(&d("part2.csv")),
        path(&d("part3.csv")),
        "--summary",
        path(&d("merged-summary.csv")),
        "--out",
        path(&d("merged.csv")),
    ]);
    let text = ok_stdout(&merged);
    assert!(text.contains("36 games from 3 file(s)"), "{text}");
    assert!(stderr(&merged).is_empty(), "{}", stderr(&merged));
    assert_eq!(
        std::fs::read_to_string(d("merged-summary.csv")).expect("summary"),
        std::fs::read_to_string(d("whole-summary.csv")).expect("summary")
    );
    assert_eq!(
        rows_without_time(&d("merged.csv")),
        rows_without_time(&d("whole.csv"))
    );
    let header = |p: &Path| -> String {
        let text = std::fs::read_to_string(p).expect("per-game CSV");
        text.lines()
            .take_while(|l| l.starts_with('#'))
            .map(|l| format!("{l}\n"))
            .collect()
    };
    assert_eq!(header(&d("merged.csv")), header(&d("whole.csv")));

    // A shard given twice is an error; a missing shard is reported.
    let twice = varia(&["match-merge", path(&d("part1.csv")), path(&d("part1.csv"))]);
    assert_one_line_error(&twice, &["duplicate game numbers"]);
    let partial = varia(&["match-merge", path(&d("part1.csv")), path(&d("part2.csv"))]);
    ok_stdout(&partial);
    assert!(stderr(&partial).contains("missing"), "{}", stderr(&partial));
}

#[test]
fn opening_generator_is_deterministic_and_readable() {
    let dir = tempfile::tempdir().expect("temp dir");
    let a = dir.path().join("a.epd");
    let b = dir.path().join("b.epd");
    for (p, threads) in [(&a, "1"), (&b, "2")] {
        ok_stdout(&varia(&[
            "openings",
            "--variant",
            "threecheck",
            "--plies",
            "6",
            "--count",
            "12",
            "--depth",
            "4",
            "--seed",
            "5",
            "--threads",
            threads,
            "--quiet",
            "--out",
            path(p),
        ]));
    }
    let text = std::fs::read_to_string(&a).expect("book");
    assert_eq!(text, std::fs::read_to_string(&b).expect("book"));
    let list = arena::openings::load(&a, VariantKind::ThreeCheck).expect("book loads");
    assert_eq!(list.len(), 12);
    // Positions, one FEN a line (no comment line): an EPD book for
    // cutechess-cli and fastchess as it is.
    assert!(list.iter().all(|o| o.moves.is_empty()));
    assert!(
        text.lines()
            .all(|l| !l.starts_with('#') && l.split_whitespace().count() == 7),
        "{text}"
    );
}

#[test]
fn bad_input_is_a_one_line_error() {
    let dir = tempfile::tempdir().expect("temp dir");
    let existing = write_file(dir.path(), "old.csv", "game\n1\n");
    let two = ["name=a", "name=b"];
    let nodes = ["--each", "nodes=10"];
    let with_nodes = |extra: &[&'static str]| -> Vec<&'static str> {
        nodes.iter().chain(extra).copied().collect()
    };
    let out_existing = ["--each", "nodes=10", "--out", path(&existing)];
    // An eval file that does not parse; an opening file with a bad line.
    let bad_eval = write_file(dir.path(), "bad.toml", "material = \"lots\"\n");
    let bad_eval_engine = format!("name=b,eval={}", path(&bad_eval));
    let book = write_file(dir.path(), "book.epd", "not a fen\n");
    let bad_book = ["--each", "nodes=10", "--openings", path(&book)];
    // (variant, engines, further arguments, what the error names)
    let mut cases: Vec<(&str, Vec<&str>, Vec<&str>, &str)> = vec![
        (
            "crazyhouse",
            two.to_vec(),
            with_nodes(&[]),
            "unknown variant",
        ),
        (
            "chess",
            vec!["name=a", "name=b,bogus=1"],
            with_nodes(&[]),
            "bogus",
        ),
        (
            "chess",
            vec!["name=a", "justaword"],
            with_nodes(&[]),
            "key=value",
        ),
        (
            "chess",
            vec!["name=a", "name=a"],
            with_nodes(&[]),
            "two engines",
        ),
        (
            "chess",
            vec!["name=a"],
            with_nodes(&[]),
            "at least two engines",
        ),
        ("chess", two.to_vec(), vec!["--each", "tc=fast"], "bad tc"),
        ("chess", two.to_vec(), vec![], "no move limit"),
        (
            "chess",
            vec!["name=a", "name=b,eval=/no/such.toml"],
            with_nodes(&[]),
            "not found",
        ),
        (
            "chess",
            two.to_vec(),
            with_nodes(&["--openings", "/no/such/book.epd"]),
            "not found",
        ),
        (
            "chess",
            two.to_vec(),
            out_existing.to_vec(),
            "already exists",
        ),
        (
            "chess",
            two.to_vec(),
            with_nodes(&["--shard", "3/2"]),
            "--shard",
        ),
        (
            "chess",
            two.to_vec(),
            with_nodes(&["--sprt", "elo0=5", "elo1=0"]),
            "elo0",
        ),
        (
            "chess",
            two.to_vec(),
            with_nodes(&["--draw", "movecount=x", "score=10"]),
            "movecount",
        ),
        (
            "chess",
            vec!["name=a", &bad_eval_engine],
            with_nodes(&[]),
            "engine b",
        ),
        ("chess", two.to_vec(), bad_book.to_vec(), "book.epd:1"),
    ];
    // Keys no engine implements are errors naming them, for every kind of
    // engine (the external engine is never started: settings come first).
    for (engine, needle) in [
        ("name=b,cmd=/bin/true,restart=on", "\"restart\""),
        ("name=b,cmd=/bin/true,ponder=on", "\"ponder\""),
        ("name=b,cmd=/bin/true,variant=atomic", "\"variant\""),
        ("name=b,cmd=/bin/true,hash=16", "\"hash\""),
        ("name=b,restart=on", "\"restart\""),
        ("name=b,ponder=on", "\"ponder\""),
        ("name=b,option.Hash=16", "needs cmd="),
        ("name=b,movetime=0", "bad movetime"),
    ] {
        cases.push(("chess", vec!["name=a", engine], with_nodes(&[]), needle));
    }
    for (variant, engines, extra, needle) in cases {
        let mut a = match_args(variant, &engines, &["--games", "2", "--quiet"]);
        a.extend(extra);
        assert_one_line_error(&varia(&a), &[needle]);
    }
}

#[test]
fn search_settings_file_plays_and_bad_settings_are_one_line() {
    let dir = tempfile::tempdir().expect("temp dir");
    let settings = write_file(dir.path(), "no-null-move.toml", "nmp_min_depth = 121\n");
    let engine = format!("name=b,search={}", path(&settings));
    let text = ok_stdout(&varia(&match_args(
        "chess",
        &["name=a", &engine],
        &["--each", "nodes=200", "--games", "2", "--quiet"],
    )));
    let (games, ..) = pairing(&text);
    assert_eq!(games, 2, "{text}");
    let bad = write_file(dir.path(), "bad.toml", "null_move = false\n");
    let engine = format!("name=b,search={}", path(&bad));
    assert_one_line_error(
        &varia(&match_args(
            "chess",
            &["name=a", &engine],
            &["--each", "nodes=10"],
        )),
        &["unknown search parameter \"null_move\""],
    );
}

/// `varia pgn-score` on a cutechess-cli PGN (giveaway, rounds of two games
/// with colours swapped, one finished out of order, one unfinished): the
/// score, Elo and pentanomial of `varia match`'s statistics, the losses
/// not ended by the rules, the summary CSV; a move illegal under the
/// game's rules and a missing file are one-line errors.
#[test]
fn pgn_of_another_client_is_scored_with_the_match_statistics() {
    let dir = tempfile::tempdir().expect("temp dir");
    let game = |round: u32, white: &str, black: &str, result: &str, end: &str| {
        format!(
            "[Event \"?\"]\n[Round \"{round}\"]\n[White \"{white}\"]\n[Black \"{black}\"]\n\
             [Result \"{result}\"]\n[Variant \"giveaway\"]\n{end}\n\
             1. e3 {{+0.10/9 0.2s}} b5 2. Bxb5 {result}\n\n"
        )
    };
    let text = [
        game(1, "varia", "fsf", "1-0", ""),
        game(2, "varia", "fsf", "0-1", "[Termination \"time forfeit\"]\n"),
        game(1, "fsf", "varia", "1/2-1/2", ""),
        game(2, "fsf", "varia", "0-1", ""),
        game(3, "varia", "fsf", "*", "[Termination \"unterminated\"]\n"),
    ]
    .concat();
    let pgn = dir.path().join("games.pgn");
    std::fs::write(&pgn, &text).unwrap();
    let summary = dir.path().join("summary.csv");
    let run = |player: &str| {
        let o = varia(&[
            "pgn-score",
            "--variant",
            "giveaway",
            "--player",
            player,
            path(&pgn),
            "--summary",
            path(&summary),
        ]);
        assert!(o.status.success(), "{}", stderr(&o));
        stdout(&o)
    };
    let out = run("varia");
    let (games, wins, draws, losses, _, _) = pairing(&out);
    assert_eq!((games, wins, draws, losses), (4, 2, 1, 1), "{out}");
    // Round 1: a win and a draw (1.5 of 2); round 2: a loss and a win (1).
    assert!(out.contains("penta [0 0 1 1 0]"), "{out}");
    assert!(
        out.contains("varia's losses not ended by the rules: time 1"),
        "{out}"
    );
    assert!(out.contains("1 unfinished games"), "{out}");
    let csv = std::fs::read_to_string(&summary).unwrap();
    let row: Vec<&str> = csv
        .lines()
        .nth(1)
        .expect("a pairing row")
        .split(',')
        .collect();
    assert_eq!(
        &row[..7],
        ["suicide", "varia", "fsf", "4", "2", "1", "1"],
        "{csv}"
    );
    // From the other side: the mirror image.
    let out = run("fsf");
    let (_, wins, draws, losses, _, _) = pairing(&out);
    assert_eq!((wins, draws, losses), (1, 1, 2), "{out}");
    assert!(out.contains("penta [0 1 1 0 0]"), "{out}");

    std::fs::write(&pgn, text.replace("2. Bxb5", "2. Bxa6")).unwrap();
    assert_one_line_error(
        &varia(&["pgn-score", "--variant", "giveaway", path(&pgn)]),
        &["games.pgn: line", "Bxa6"],
    );
    let missing = dir.path().join("none.pgn");
    assert_one_line_error(
        &varia(&["pgn-score", "--variant", "giveaway", path(&missing)]),
        &["none.pgn"],
    );
}
