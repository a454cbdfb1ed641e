//! End-to-end tests of `varia perft`: the binary is run as a user would run it.

use std::io::Write as _;
use std::path::PathBuf;

mod common;
use common::*;

fn public_suite() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../data/perft/perft_public.csv")
}

fn temp_csv(text: &str) -> tempfile::NamedTempFile {
    let mut f = tempfile::Builder::new()
        .suffix(".csv")
        .tempfile()
        .expect("temp file");
    f.write_all(text.as_bytes()).expect("write temp file");
    f.flush().expect("flush temp file");
    f
}

/// The move lines of a table divide: `(uci, count)` up to the blank line,
/// and the `total` line's count.
fn parse_divide(text: &str) -> (Vec<(String, u64)>, u64) {
    let mut moves = Vec::new();
    let mut total = None;
    let mut in_moves = false;
    for line in text.lines() {
        let fields: Vec<&str> = line.split_whitespace().collect();
        if line.starts_with("divide at depth") {
            in_moves = true;
        } else if line.trim().is_empty() {
            in_moves = false;
        } else if in_moves {
            assert_eq!(fields.len(), 2, "{line:?}");
            moves.push((fields[0].to_string(), fields[1].parse().expect("count")));
        } else if fields.first() == Some(&"total") {
            total = Some(fields[1].parse().expect("total"));
        }
    }
    (moves, total.expect("a total line"))
}

#[test]
fn default_run_counts_every_start_position_to_depth_5() {
    // Bare `varia` and `varia perft` are the same run.
    for args in [&[][..], &["perft"][..]] {
        let o = varia(args);
        assert!(o.status.success(), "{}", stderr(&o));
        // stderr is a pipe here: no progress bar.
        assert!(o.stderr.is_empty(), "{}", stderr(&o));
        let out = stdout(&o);
        for (variant, d5) in [
            ("chess", "4865609"),
            ("suicide", "2732672"),
            ("threecheck", "4865609"),
            ("atomic", "4864979"),
            ("losers", "2723795"),
            ("knightmate", "3249033"),
        ] {
            let block = out
                .split("\n\n")
                .find(|b| b.starts_with(&format!("{variant} ")))
                .unwrap_or_else(|| panic!("no {variant} block in\n{out}"));
            let rows: Vec<Vec<&str>> = block
                .lines()
                .skip(2)
                .map(|l| l.split_whitespace().collect())
                .collect();
            assert_eq!(rows.len(), 5, "{block}");
            for (i, row) in rows.iter().enumerate() {
                assert_eq!(row[0], (i + 1).to_string(), "{block}");
                row[2].parse::<f64>().expect("seconds");
            }
            assert_eq!(rows[4][1], d5, "{block}");
        }
        assert!(out.contains("nodes/s"), "{out}");
        assert!(out.lines().last().is_some_and(|l| l.starts_with("total ")));
    }
}

#[test]
fn csv_rows_for_chess_start_depth_3() {
    let o = varia(&perft_args("standard", "3", &["--format", "csv"]));
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "variant,fen,depth,nodes,seconds,nps");
    assert_eq!(lines.len(), 4, "{out}");
    for (line, (depth, nodes)) in lines[1..].iter().zip([(1, 20), (2, 400), (3, 8902)]) {
        let expected = format!("chess,{START},{depth},{nodes},");
        assert!(line.starts_with(&expected), "{line:?} vs {expected:?}");
        let rest: Vec<&str> = line[expected.len()..].split(',').collect();
        assert_eq!(rest.len(), 2, "{line}");
        let seconds: f64 = rest[0].parse().expect("seconds");
        let nps: u64 = rest[1].parse().expect("nps");
        assert!((0.0..60.0).contains(&seconds), "{line}");
        // seconds has 6 decimals, nps comes from the unrounded time.
        let implied = nps as f64 * seconds;
        assert!(
            (implied - nodes as f64).abs() <= nps as f64 * 1e-6 + 1.0,
            "{line}"
        );
    }
}

#[test]
fn csv_covers_all_variants_without_variant() {
    let o = varia(&["perft", "--depth", "2", "--format", "csv", "--quiet"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    let variants: Vec<&str> = out
        .lines()
        .skip(1)
        .map(|l| l.split(',').next().unwrap())
        .collect();
    assert_eq!(
        variants,
        [
            "chess",
            "chess",
            "suicide",
            "suicide",
            "threecheck",
            "threecheck",
            "atomic",
            "atomic",
            "losers",
            "losers",
            "knightmate",
            "knightmate"
        ]
    );
}

#[test]
fn divide_sums_to_the_total() {
    for threads in ["1", "2", "3"] {
        let o = varia(&perft_args(
            "chess",
            "3",
            &["--fen", KIWIPETE, "--divide", "--threads", threads],
        ));
        assert!(o.status.success(), "{}", stderr(&o));
        let (moves, total) = parse_divide(&stdout(&o));
        assert_eq!(moves.len(), 48);
        assert_eq!(total, 97862);
        assert_eq!(moves.iter().map(|(_, n)| n).sum::<u64>(), total);
        assert!(moves.contains(&("e1g1".to_string(), 2059)), "{moves:?}");
        let mut sorted = moves.clone();
        sorted.sort();
        assert_eq!(moves, sorted, "moves are listed in UCI order");
    }
    let o = varia(&perft_args("atomic", "4", &["--divide"]));
    let (moves, total) = parse_divide(&stdout(&o));
    assert_eq!((moves.len(), total), (20, 197326));
    assert_eq!(moves.iter().map(|(_, n)| n).sum::<u64>(), total);
}

#[test]
fn divide_as_csv() {
    let o = varia(&perft_args(
        "knightmate",
        "2",
        &["--divide", "--format", "csv"],
    ));
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    let mut lines = out.lines();
    assert_eq!(lines.next(), Some("variant,fen,depth,move,nodes"));
    let rows: Vec<&str> = lines.collect();
    assert_eq!(rows.len(), 18);
    let sum: u64 = rows
        .iter()
        .map(|l| l.rsplit(',').next().unwrap().parse::<u64>().unwrap())
        .sum();
    assert_eq!(sum, 324);
    assert!(rows.iter().all(|l| l.starts_with("knightmate,rmbqkbmr/")));
}

#[test]
fn thread_counts_agree() {
    let mut tables = Vec::new();
    for threads in ["1", "2", "4"] {
        let o = varia(&perft_args(
            "suicide",
            "5",
            &["--format", "csv", "--threads", threads],
        ));
        assert!(o.status.success(), "{}", stderr(&o));
        let counts: Vec<String> = stdout(&o)
            .lines()
            .skip(1)
            .map(|l| l.split(',').take(4).collect::<Vec<_>>().join(","))
            .collect();
        tables.push(counts);
    }
    assert_eq!(tables[0], tables[1]);
    assert_eq!(tables[0], tables[2]);
    assert!(tables[0][4].ends_with(",5,2732672"), "{:?}", tables[0]);
}

#[test]
fn finished_game_has_no_moves() {
    // Atomic with the black king already exploded: perft 0 at every depth.
    let o = varia(&perft_args(
        "atomic",
        "3",
        &["--fen", "8/8/8/8/8/8/8/4K3 b - - 0 1", "--format", "csv"],
    ));
    assert!(o.status.success(), "{}", stderr(&o));
    let nodes: Vec<String> = stdout(&o)
        .lines()
        .skip(1)
        .map(|l| l.split(',').nth(3).unwrap().to_string())
        .collect();
    assert_eq!(nodes, ["0", "0", "0"]);
}

#[test]
fn suite_names_the_wrong_row_and_writes_out() {
    let suite = temp_csv(&format!(
        "variant,fen,depth,nodes\n\
         chess,{START},3,8902\n\
         giveaway,{START},3,8067\n\
         \n\
         atomic,{START},3,8903\n\
         knightmate,rmbqkbmr/pppppppp/8/8/8/8/PPPPPPPP/RMBQKBMR w KQkq - 0 1,2,324\n"
    ));
    let dir = tempfile::tempdir().expect("temp dir");
    let out_path = dir.path().join("results.csv");
    let o = varia(&[
        "perft",
        "--suite",
        suite.path().to_str().unwrap(),
        "--out",
        out_path.to_str().unwrap(),
        "--threads",
        "2",
    ]);
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(1), "{out}{}", stderr(&o));
    let fails: Vec<&str> = out.lines().filter(|l| l.starts_with("FAIL")).collect();
    assert_eq!(
        fails,
        [format!(
            "FAIL line 5: atomic {START} depth 3: got 8902, expected 8903"
        )]
    );
    // The divide of the first mismatch.
    assert!(out.contains("divide of line 5"), "{out}");
    assert!(out.contains("e2e4  600"), "{out}");
    for line in ["rows    4", "passed  3", "failed  1", "nodes   26195"] {
        assert!(out.lines().any(|l| l == line), "{line:?} in\n{out}");
    }
    let written = std::fs::read_to_string(&out_path).expect("--out file");
    assert_eq!(
        written,
        format!(
            "variant,fen,depth,nodes,expected,ok\n\
             chess,{START},3,8902,8902,true\n\
             giveaway,{START},3,8067,8067,true\n\
             atomic,{START},3,8902,8903,false\n\
             knightmate,rmbqkbmr/pppppppp/8/8/8/8/PPPPPPPP/RMBQKBMR w KQkq - 0 1,2,324,324,true\n"
        )
    );
}

#[test]
fn public_suite_passes() {
    let o = varia(&["perft", "--suite", public_suite().to_str().unwrap()]);
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(0), "{out}{}", stderr(&o));
    assert!(out.lines().any(|l| l == "failed  0"), "{out}");
    assert!(out.lines().any(|l| l == "rows    1285"), "{out}");
    assert!(out.lines().any(|l| l == "nodes   757365133"), "{out}");
}

#[test]
fn bad_variant() {
    let o = varia(&["perft", "--variant", "crazyhouse"]);
    assert_one_line_error(
        &o,
        &["unknown variant", "crazyhouse", "chess", "knightmate"],
    );
}

/// Every subcommand's `--variant` help lists every name and alias of the
/// registry (one help text, derived, not copied).
#[test]
fn variant_help_lists_the_registry() {
    for sub in [
        &["perft"][..],
        &["moves"],
        &["analyse"],
        &["bench"],
        &["datagen"],
        &["match"],
        &["openings"],
        &["tune", "texel"],
        &["tune", "spsa"],
        &["train"],
    ] {
        let text = ok_stdout(&varia(&[sub, &["--help"]].concat()));
        // The option's line and its continuation, up to the next option.
        let mut lines = text
            .lines()
            .skip_while(|l| !l.trim_start().starts_with("--variant <"));
        let first = lines
            .next()
            .unwrap_or_else(|| panic!("{sub:?}: no --variant in {text}"));
        let rest = lines.take_while(|l| !l.trim_start().starts_with('-'));
        let help: String = std::iter::once(first).chain(rest).collect();
        for kind in movegen::VariantKind::ALL {
            let meta = kind.meta();
            for name in std::iter::once(meta.name).chain(meta.aliases.iter().copied()) {
                assert!(help.contains(name), "{sub:?} --variant help lacks {name}");
            }
        }
    }
}

#[test]
fn bad_fen() {
    for (fen, needles) in [
        (
            "rnbqkbnr/pppppppp/8/8 w KQkq - 0 1",
            &["invalid --fen", "board"][..],
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
            &["side to move", "\"x\""],
        ),
    ] {
        let o = varia(&["perft", "--variant", "chess", "--fen", fen]);
        assert_one_line_error(&o, needles);
    }
}

#[test]
fn bad_depth() {
    assert_one_line_error(
        &varia(&["perft", "--depth", "0"]),
        &["--depth", "at least 1"],
    );
    assert_one_line_error(
        &varia(&perft_args("chess", "21", &[])),
        &["--depth 21", "at most 20"],
    );
}

#[test]
fn bad_threads() {
    assert_one_line_error(&varia(&["perft", "--threads", "0"]), &["--threads"]);
}

#[test]
fn missing_suite_file() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("nope.csv");
    let o = varia(&["perft", "--suite", path.to_str().unwrap()]);
    assert_one_line_error(&o, &["cannot read suite file", "nope.csv"]);
}

#[test]
fn malformed_suite_lines() {
    let cases = [
        (
            format!("variant,fen,depth,nodes\nchess,{START},1,20\nchess,{START},2\n"),
            vec!["line 3", "expected 4 fields"],
        ),
        (
            format!("variant,fen,depth,nodes\n# comment\nshogi,{START},1,20\n"),
            vec!["line 3", "unknown variant \"shogi\""],
        ),
        (
            "variant,fen,depth,nodes\nchess,rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1,1,20\n"
                .to_string(),
            vec!["line 2", "invalid FEN", "board"],
        ),
        (
            format!("variant,fen,depth,nodes\nchess,{START},one,20\n"),
            vec!["line 2", "invalid depth \"one\""],
        ),
        (
            format!("variant,fen,depth,nodes\nchess,{START},0,1\n"),
            vec!["line 2", "depth 0"],
        ),
        (
            format!("variant,fen,depth,nodes\nchess,{START},1,many\n"),
            vec!["line 2", "invalid node count \"many\""],
        ),
        (
            "name,fen,depth,nodes\n".to_string(),
            vec!["line 1", "\"variant\" column"],
        ),
        ("variant,fen,depth,nodes\n".to_string(), vec!["no rows"]),
    ];
    for (text, needles) in cases {
        let f = temp_csv(&text);
        let o = varia(&["perft", "--suite", f.path().to_str().unwrap()]);
        let name = f.path().file_name().unwrap().to_str().unwrap().to_string();
        let mut needles = needles.clone();
        needles.push(&name);
        assert_one_line_error(&o, &needles);
    }
}

#[test]
fn usage_errors_exit_2() {
    for args in [
        &["perft", "--depth", "x"][..],
        &["perft", "--fen", START][..],
        &["perft", "--suite", "a.csv", "--depth", "3"][..],
        &["perft", "--format", "xml"][..],
    ] {
        let o = varia(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(!stderr(&o).contains("panicked"));
    }
}
