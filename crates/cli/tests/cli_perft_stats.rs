//! `varia perft --stats` and `--hash`, run as a user runs them: the detailed
//! counts equal the published chess tables, empty columns where a game has
//! no such thing, hashed runs equal unhashed ones, bad sizes are rejected.

use std::path::PathBuf;

mod common;
use common::*;

const HEADER: &str = "variant,fen,depth,nodes,captures,en_passant,castles,promotions,checks,\
                      discovered_checks,double_checks,checkmates,stalemates,variant_wins,seconds";

/// CSV rows without the trailing `seconds` field (and header checked).
fn csv_rows_without_seconds(out: &str) -> Vec<String> {
    let mut lines = out.lines();
    assert_eq!(lines.next(), Some(HEADER));
    lines
        .map(|l| {
            let (rest, seconds) = l.rsplit_once(',').expect("fields");
            seconds.parse::<f64>().expect("seconds");
            rest.to_string()
        })
        .collect()
}

#[test]
fn stats_equal_the_published_chess_tables() {
    let path =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../data/perft/perft_chess_stats.csv");
    let mut reader = csv::Reader::from_path(path).expect("published table");
    let mut want: Vec<(String, u32, Vec<String>)> = Vec::new();
    for rec in reader.records() {
        let rec = rec.expect("row");
        want.push((
            rec[1].to_string(),
            rec[2].parse().unwrap(),
            rec.iter().skip(3).map(str::to_string).collect(),
        ));
    }
    assert_eq!(want.len(), 9);
    for (fen, depth, threads) in [(START, "5", "2"), (KIWIPETE, "4", "3")] {
        let out = ok_stdout(&varia(&perft_args(
            "chess",
            depth,
            &[
                "--fen",
                fen,
                "--stats",
                "--format",
                "csv",
                "--threads",
                threads,
            ],
        )));
        let rows = csv_rows_without_seconds(&out);
        let expected: Vec<_> = want.iter().filter(|(f, _, _)| f == fen).collect();
        assert_eq!(rows.len(), expected.len());
        for (row, (_, d, cols)) in rows.iter().zip(expected) {
            let fields: Vec<&str> = row.split(',').collect();
            assert_eq!(fields[0], "chess");
            assert_eq!(fields[1], fen);
            assert_eq!(fields[2], d.to_string());
            // The published columns (nodes .. checkmates), then stalemates
            // (a number) and variant wins (empty: chess has none).
            assert_eq!(&fields[3..12], &cols[..], "{fen} depth {d}");
            fields[12].parse::<u64>().expect("stalemates");
            assert_eq!(fields[13], "", "{row}");
        }
    }
}

#[test]
fn columns_that_do_not_apply_are_empty() {
    let out = ok_stdout(&varia(&[
        "perft", "--depth", "3", "--stats", "--format", "csv", "--quiet",
    ]));
    let rows = csv_rows_without_seconds(&out);
    assert_eq!(rows.len(), 18);
    for row in rows {
        let f: Vec<&str> = row.split(',').collect();
        assert_eq!(f.len(), 14, "{row}");
        let (checks, wins) = (&f[8..13], f[13]);
        match f[0] {
            "chess" | "knightmate" => {
                assert!(checks.iter().all(|c| !c.is_empty()), "{row}");
                assert_eq!(wins, "", "{row}");
            }
            "suicide" => {
                assert!(checks.iter().all(|c| c.is_empty()), "{row}");
                assert!(!wins.is_empty(), "{row}");
            }
            _ => {
                assert!(checks.iter().all(|c| !c.is_empty()), "{row}");
                assert!(!wins.is_empty(), "{row}");
            }
        }
    }
}

#[test]
fn stats_table_has_a_column_per_count() {
    let out = ok_stdout(&varia(&perft_args("atomic", "3", &["--stats"])));
    let lines: Vec<&str> = out.lines().collect();
    assert!(lines[0].starts_with("atomic  "), "{out}");
    let heads: Vec<&str> = lines[1].split_whitespace().collect();
    assert_eq!(heads.len(), 13, "{}", lines[1]);
    assert_eq!(heads[..3], ["depth", "nodes", "captures"]);
    assert_eq!(heads[12], "seconds");
    let last: Vec<&str> = lines[4].split_whitespace().collect();
    assert_eq!(last.len(), 13, "{}", lines[4]);
    assert_eq!(last[..2], ["3", "8902"]);
}

#[test]
fn hashed_and_threaded_runs_equal_the_plain_run() {
    for variant in VARIANTS {
        for stats in [false, true] {
            let run = |extra: &[&str]| {
                let mut args = perft_args(variant, "4", &[]);
                args.extend(["--format", "csv"]);
                if stats {
                    args.push("--stats");
                }
                args.extend(extra);
                let out = ok_stdout(&varia(&args));
                // Drop the time columns (seconds, and nps without stats).
                out.lines()
                    .skip(1)
                    .map(|l| {
                        let f: Vec<&str> = l.split(',').collect();
                        f[..if stats { 14 } else { 4 }].join(",")
                    })
                    .collect::<Vec<_>>()
            };
            let plain = run(&["--threads", "1"]);
            assert_eq!(plain.len(), 4);
            for extra in [
                &["--threads", "2", "--hash", "1M"][..],
                &["--threads", "3", "--hash", "64K"][..],
                &["--threads", "2", "--split-depth", "3"][..],
            ] {
                assert_eq!(run(extra), plain, "{variant} stats={stats} {extra:?}");
            }
        }
    }
}

#[test]
fn divide_with_stats_sums_to_the_total() {
    let out = ok_stdout(&varia(&perft_args(
        "chess",
        "3",
        &["--fen", KIWIPETE, "--stats", "--divide", "--format", "csv"],
    )));
    let mut lines = out.lines();
    let header = lines.next().unwrap();
    assert!(header.starts_with("variant,fen,depth,move,nodes,captures,"));
    assert!(header.ends_with(",stalemates,variant_wins"));
    let mut sums = [0u64; 10];
    let mut moves = 0;
    for l in lines {
        let f: Vec<&str> = l.split(',').collect();
        for (s, v) in sums.iter_mut().zip(&f[4..14]) {
            *s += v.parse::<u64>().unwrap();
        }
        assert_eq!(f[14], "");
        moves += 1;
    }
    assert_eq!(moves, 48);
    // nodes, captures, e.p., castles, promotions, checks, disc, double, mates
    assert_eq!(sums[..9], [97862, 17102, 45, 3162, 0, 993, 0, 0, 1]);

    let table = ok_stdout(&varia(&perft_args(
        "chess",
        "2",
        &["--fen", KIWIPETE, "--stats", "--divide"],
    )));
    let total = table.lines().find(|l| l.starts_with("total")).unwrap();
    let f: Vec<&str> = total.split_whitespace().collect();
    assert_eq!(f[1..5], ["2039", "351", "1", "91"], "{table}");
}

#[test]
fn bad_hash_sizes() {
    for bad in ["1X", "G", "-1", "1.5G", "0"] {
        let arg = format!("--hash={bad}");
        let o = varia(&perft_args("chess", "2", &[&arg]));
        assert_one_line_error(&o, &["--hash", bad]);
    }
    for (size, needles) in [
        ("99999999T", &["--hash", "99999999T"][..]),
        ("64T", &["--hash 64T", "memory"]),
    ] {
        let o = varia(&perft_args("chess", "2", &["--hash", size]));
        assert_one_line_error(&o, needles);
    }
    for good in ["1M", "65536", "2k", "1MiB"] {
        let o = varia(&perft_args(
            "chess",
            "3",
            &["--hash", good, "--format", "csv"],
        ));
        assert!(ok_stdout(&o).contains(",3,8902,"), "{good}");
    }
}
