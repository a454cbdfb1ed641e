//! Split perft across processes: `varia perft --split-depth K --shard I/N`
//! writes part files, `varia perft-merge` checks and combines them. Shards
//! run here as plain processes (and through GNU parallel when it is
//! installed); the merge must equal the single run, for every game, with
//! and without --stats, also where games end before the split depth.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

mod common;
use common::*;

/// After 1.f3 e5 2.g4: 2...Qh4# ends the game one ply in.
const FOOLS: &str = "rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2";
/// Atomic: Qxe7 explodes the black king at once.
const ATOMIC_BLAST: &str = "4k3/4q3/8/8/8/8/4Q3/4K3 w - - 0 1";
/// Losers: capturing the last black piece but the king ends the game.
const LOSERS_BARE: &str = "4k3/8/8/8/8/8/3p4/4K3 w - - 0 1";

/// The counts of a `--format csv` output (header kept, time columns
/// dropped), keyed by depth.
fn counts(out: &str, stats: bool) -> Vec<(u32, String)> {
    let keep = if stats { 14 } else { 4 };
    let mut lines = out.lines();
    let header = lines.next().expect("header");
    let mut rows = vec![(0, header.to_string())];
    for l in lines {
        let f: Vec<&str> = l.split(',').collect();
        rows.push((f[2].parse().unwrap(), f[..keep].join(",")));
    }
    rows
}

struct Run<'a> {
    variant: &'a str,
    fen: &'a str,
    depth: u32,
    split: u32,
    stats: bool,
}

impl<'a> Run<'a> {
    /// `variant` from `fen` to `depth`, split `split` plies deep, with
    /// `--stats` or not.
    fn new(variant: &'a str, fen: &'a str, depth: u32, split: u32, stats: bool) -> Run<'a> {
        Run {
            variant,
            fen,
            depth,
            split,
            stats,
        }
    }

    fn base(&self) -> Vec<String> {
        let mut a: Vec<String> = ["perft", "--variant", self.variant, "--fen", self.fen]
            .iter()
            .map(|s| s.to_string())
            .collect();
        a.extend(["--depth".into(), self.depth.to_string()]);
        if self.stats {
            a.push("--stats".into());
        }
        a
    }

    fn shard_args(&self, i: u32, n: u32) -> Vec<String> {
        let mut a = self.base();
        a.extend([
            "--split-depth".into(),
            self.split.to_string(),
            "--shard".into(),
            format!("{i}/{n}"),
            "--threads".into(),
            "1".into(),
        ]);
        a
    }

    /// Runs shards 1..=n as processes at once, each writing its part file.
    fn shards(&self, dir: &Path, n: u32) -> Vec<PathBuf> {
        let mut children = Vec::new();
        let mut paths = Vec::new();
        for i in 1..=n {
            let path = dir.join(format!("{}-{i}.csv", self.variant));
            let mut a = self.shard_args(i, n);
            // Half of them to --out, half to stdout.
            let child = if i % 2 == 0 {
                a.extend(["--out".into(), path.to_str().unwrap().into()]);
                Command::new(env!("CARGO_BIN_EXE_varia"))
                    .args(&a)
                    .stdout(std::process::Stdio::null())
                    .spawn()
            } else {
                Command::new(env!("CARGO_BIN_EXE_varia"))
                    .args(&a)
                    .stdout(std::fs::File::create(&path).unwrap())
                    .spawn()
            };
            children.push(child.expect("spawn shard"));
            paths.push(path);
        }
        for mut c in children {
            assert!(c.wait().unwrap().success(), "{}", self.variant);
        }
        paths
    }

    fn single(&self) -> String {
        let mut a = self.base();
        a.extend(["--format".into(), "csv".into()]);
        ok_stdout(&varia(&a.iter().map(String::as_str).collect::<Vec<_>>()))
    }
}

fn merge(parts: &[PathBuf]) -> Output {
    let mut a = vec!["perft-merge".to_string(), "--format".into(), "csv".into()];
    a.extend(parts.iter().map(|p| p.to_str().unwrap().to_string()));
    varia(&a.iter().map(String::as_str).collect::<Vec<_>>())
}

/// The merge of `parts` equals the single run at depths 1..=K and N.
fn check_merge(run: &Run, parts: &[PathBuf]) {
    let merged = counts(&ok_stdout(&merge(parts)), run.stats);
    let single = counts(&run.single(), run.stats);
    let want: Vec<_> = single
        .into_iter()
        .filter(|&(d, _)| d <= run.split || d == run.depth)
        .collect();
    assert_eq!(
        merged, want,
        "{} {} stats={}",
        run.variant, run.fen, run.stats
    );
}

/// The files `name` in `dir` of shards 1 to `n`, `{i}` in `name` standing
/// for the shard number: the part files a script wrote.
fn numbered(dir: &Path, name: &str, n: u32) -> Vec<PathBuf> {
    (1..=n)
        .map(|i| dir.join(name.replace("{i}", &i.to_string())))
        .collect()
}

/// The `.meta` sidecar of a part written with `--out`.
fn meta(part: &Path) -> PathBuf {
    arena::record::meta_path(part)
}

#[test]
fn four_shards_merge_to_the_single_run_in_every_game() {
    let dir = tempfile::tempdir().unwrap();
    for variant in VARIANTS {
        let fen = if variant == "knightmate" {
            "rmbqkbmr/pppppppp/8/8/8/8/PPPPPPPP/RMBQKBMR w KQkq - 0 1"
        } else {
            START
        };
        for stats in [false, true] {
            let run = Run::new(variant, fen, 4, 2, stats);
            let parts = run.shards(dir.path(), 4);
            // Every subtree is in exactly one part: 400 (324) rows in all.
            let rows: usize = parts
                .iter()
                .enumerate()
                .map(|(i, p)| {
                    // A part written with --out (even shards) opens with
                    // its column names, the run's identity beside it; one
                    // on stdout has the identity on top.
                    let text = std::fs::read_to_string(p).unwrap();
                    assert_eq!(text.starts_with("index,path,"), i % 2 == 1, "{text}");
                    assert!(legacy_text(p).starts_with("# varia perft part v2\n"));
                    text.lines().filter(|l| !l.starts_with('#')).count() - 1
                })
                .sum();
            assert_eq!(rows, if variant == "knightmate" { 324 } else { 400 });
            check_merge(&run, &parts);
        }
    }
}

#[test]
fn games_that_end_before_the_split_depth() {
    let dir = tempfile::tempdir().unwrap();
    for (variant, fen, depth, split) in [
        ("chess", FOOLS, 4, 2),
        ("atomic", ATOMIC_BLAST, 4, 2),
        ("losers", LOSERS_BARE, 5, 3),
        // The root itself is over: one dead-end subtree with an empty path.
        ("atomic", "8/8/8/8/8/8/8/4K3 b - - 0 1", 3, 2),
    ] {
        for stats in [false, true] {
            let run = Run::new(variant, fen, depth, split, stats);
            let parts = run.shards(dir.path(), 3);
            check_merge(&run, &parts);
        }
    }
    // The dead end is a row of its own, with zero counts.
    let run = Run::new("chess", FOOLS, 3, 2, false);
    let parts = run.shards(dir.path(), 1);
    let text = std::fs::read_to_string(&parts[0]).unwrap();
    assert!(
        text.lines()
            .any(|l| l.split(',').nth(1) == Some("d8h4") && l.split(',').nth(2) == Some("0")),
        "{text}"
    );
}

#[test]
fn uneven_splits_and_more_shards_than_subtrees() {
    let dir = tempfile::tempdir().unwrap();
    let run = Run::new("chess", START, 3, 1, true);
    // 20 subtrees over 7 shards; and over 25 (five parts are empty).
    check_merge(&run, &run.shards(dir.path(), 7));
    let dir2 = tempfile::tempdir().unwrap();
    check_merge(&run, &run.shards(dir2.path(), 25));
}

#[test]
fn merge_table_output() {
    let dir = tempfile::tempdir().unwrap();
    let run = Run::new("atomic", START, 4, 2, false);
    let parts = run.shards(dir.path(), 2);
    let mut a = vec!["perft-merge".to_string()];
    a.extend(parts.iter().map(|p| p.to_str().unwrap().to_string()));
    let out = ok_stdout(&varia(&a.iter().map(String::as_str).collect::<Vec<_>>()));
    let rows: Vec<Vec<&str>> = out
        .lines()
        .skip(2)
        .map(|l| l.split_whitespace().collect())
        .collect();
    assert!(out.starts_with("atomic  rnbqkbnr/"), "{out}");
    assert_eq!(rows.len(), 3, "{out}");
    assert_eq!(rows[0][..2], ["1", "20"]);
    assert_eq!(rows[1][..2], ["2", "400"]);
    assert_eq!(rows[2][..2], ["4", "197326"]);
}

#[test]
fn shards_with_gnu_parallel_when_installed() {
    let found = Command::new("parallel")
        .arg("--version")
        .output()
        .map(|o| o.status.success() && String::from_utf8_lossy(&o.stdout).contains("GNU parallel"))
        .unwrap_or(false);
    if !found {
        eprintln!("GNU parallel is not installed: skipped");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let run = Run::new("threecheck", START, 4, 2, true);
    // -q: the command's arguments are passed as they are (the FEN has spaces).
    let mut a = vec![
        "--will-cite".to_string(),
        "-q".into(),
        "--jobs".into(),
        "4".into(),
    ];
    a.push(env!("CARGO_BIN_EXE_varia").to_string());
    a.extend(
        run.shard_args(1, 4)
            .into_iter()
            .map(|s| if s == "1/4" { "{}/4".to_string() } else { s }),
    );
    a.extend([
        "--out".into(),
        dir.path().join("part{}.csv").to_str().unwrap().into(),
        ":::".into(),
    ]);
    a.extend(["1", "2", "3", "4"].map(String::from));
    let o = Command::new("parallel").args(&a).output().unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    check_merge(&run, &numbered(dir.path(), "part{i}.csv", 4));
}

#[test]
fn merge_names_missing_and_duplicated_subtrees() {
    let dir = tempfile::tempdir().unwrap();
    let run = Run::new("chess", START, 3, 2, false);
    let parts = run.shards(dir.path(), 4);
    let missing = [parts[0].clone(), parts[1].clone(), parts[3].clone()];
    assert_one_line_error(
        &merge(&missing),
        &[
            "100 of 400 subtrees missing",
            "\"a2a3 b7b5\" (shard 3/4)",
            "no part file for shard 3/4",
        ],
    );
    let mut twice = parts.clone();
    twice.push(parts[1].clone());
    assert_one_line_error(&merge(&twice), &["given twice", "chess-2.csv"]);
    // The same shard run twice (two files with the same rows).
    let copy = dir.path().join("copy-of-2.csv");
    std::fs::copy(&parts[1], &copy).unwrap();
    std::fs::copy(meta(&parts[1]), meta(&copy)).unwrap();
    twice.pop();
    twice.push(copy);
    assert_one_line_error(
        &merge(&twice),
        &[
            "100 subtree(s) appear more than once",
            "\"a2a3 a7a6\" (shard 2/4)",
            "and 97 more",
        ],
    );

    // A part of another run (another depth, another number of shards).
    let other = Run::new("chess", START, 4, 2, false);
    let dir2 = tempfile::tempdir().unwrap();
    let other_parts = other.shards(dir2.path(), 4);
    let mixed = [
        parts[0].clone(),
        parts[1].clone(),
        parts[2].clone(),
        other_parts[3].clone(),
    ];
    assert_one_line_error(&merge(&mixed), &["disagree on depth", "has 3", "has 4"]);
    let dir3 = tempfile::tempdir().unwrap();
    let three = run.shards(dir3.path(), 3);
    assert_one_line_error(
        &merge(&[parts[0].clone(), three[1].clone()]),
        &["number of shards", "1/4", "2/3"],
    );
    let stats = Run {
        stats: true,
        ..other
    };
    let dir4 = tempfile::tempdir().unwrap();
    let stats_parts = stats.shards(dir4.path(), 4);
    assert_one_line_error(
        &merge(&[other_parts[0].clone(), stats_parts[1].clone()]),
        &["disagree on stats"],
    );

    // A row edited to name another subtree, or moved to another shard
    // (with its checksum made to fit: the merge still catches it).
    // Edited as a file of the older layout (identity on top), which the
    // merge reads too.
    let text = legacy_text(&parts[0]);
    let edited = dir.path().join("edited.csv");
    std::fs::write(
        &edited,
        with_fresh_checksums(&text.replacen("0,a2a3 a7a5,", "0,a2a3 a7a6,", 1)),
    )
    .unwrap();
    assert_one_line_error(
        &merge(&[edited.clone(), parts[1].clone()]),
        &["edited.csv", "line 10", "subtree 0 is \"a2a3 a7a5\""],
    );
    std::fs::write(
        &edited,
        with_fresh_checksums(&text.replacen("\n0,a2a3 a7a5,", "\n1,a2a3 a7a6,", 1)),
    )
    .unwrap();
    assert_one_line_error(
        &merge(std::slice::from_ref(&edited)),
        &["line 10", "subtree 1 belongs to shard 2/4"],
    );
    // An edited count, or a row damaged otherwise, is refused naming the row
    // (before: the merge added the edited count as if counted).
    let row = text.lines().nth(9).unwrap();
    let f: Vec<&str> = row.split(',').collect();
    let nodes: u64 = f[2].parse().unwrap();
    let bumped = [f[0], f[1], &(nodes + 1).to_string(), f[3], f[4]].join(",");
    std::fs::write(&edited, text.replacen(row, &bumped, 1)).unwrap();
    assert_one_line_error(
        &merge(&[
            edited.clone(),
            parts[1].clone(),
            parts[2].clone(),
            parts[3].clone(),
        ]),
        &["edited.csv", "line 10", "checksum mismatch"],
    );
    std::fs::write(&edited, text.replacen("# depth: 3\n", "", 1)).unwrap();
    assert_one_line_error(
        &merge(std::slice::from_ref(&edited)),
        &["edited.csv", "depth"],
    );
    std::fs::write(&edited, "index,path,nodes,seconds\n").unwrap();
    // A CSV without the sidecar that names its run.
    assert_one_line_error(
        &merge(std::slice::from_ref(&edited)),
        &["edited.csv.meta is missing"],
    );
    std::fs::write(meta(&edited), "varia match v1\n").unwrap();
    assert_one_line_error(&merge(&[edited]), &["not a varia perft part"]);
    let nowhere = dir.path().join("nowhere.csv");
    assert_one_line_error(
        &merge(&[nowhere]),
        &["cannot read part file", "nowhere.csv"],
    );
}

#[test]
fn bad_shard_arguments() {
    let base = perft_args("chess", "4", &[]);
    let with = |extra: &[&'static str]| {
        let mut a = base.to_vec();
        a.extend(extra);
        varia(&a)
    };
    for (spec, needle) in [
        ("0/4", "between 1 and 4"),
        ("5/4", "between 1 and 4"),
        ("1/0", "at least 1"),
        ("x", "expected I/N"),
        ("1-4", "expected I/N"),
    ] {
        assert_one_line_error(
            &with(&["--split-depth", "2", "--shard", spec]),
            &["--shard", spec, needle],
        );
    }
    assert_one_line_error(
        &with(&["--split-depth", "4", "--shard", "1/2"]),
        &["--split-depth 4 must be less than --depth 4"],
    );
    assert_one_line_error(
        &with(&["--split-depth", "7"]),
        &["--split-depth 7 must be less than --depth 4"],
    );
    assert_one_line_error(&with(&["--split-depth", "0"]), &["--split-depth"]);
    assert_one_line_error(&with(&["--shard", "1/2"]), &["--shard needs --split-depth"]);
    assert_one_line_error(
        &varia(&["perft", "--split-depth", "1", "--shard", "1/2"]),
        &["--shard needs --variant"],
    );
    assert_one_line_error(
        &with(&["--split-depth", "2", "--shard", "1/2", "--divide"]),
        &["--divide"],
    );
    assert_one_line_error(
        &with(&["--out", "x.csv"]),
        &["--out needs --suite or --shard"],
    );
    let o = varia(&["perft-merge"]);
    assert_eq!(o.status.code(), Some(2));
}

fn script(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../scripts")
        .join(name)
}

#[test]
fn slurm_script_as_array_tasks() {
    // Each array task is the script run with SLURM_ARRAY_TASK_ID set; no
    // Slurm needed to check that the tasks' parts merge to the single run.
    let dir = tempfile::tempdir().unwrap();
    let run = Run::new("losers", START, 4, 2, true);
    for i in 1..=3 {
        let o = Command::new("bash")
            .arg(script("perft_slurm.sh"))
            .args(["losers", "4", "2", "3", "--stats"])
            .env("SLURM_ARRAY_TASK_ID", i.to_string())
            .env("SLURM_CPUS_PER_TASK", "1")
            .env("VARIA", env!("CARGO_BIN_EXE_varia"))
            .env("OUT_DIR", dir.path())
            .env("HASH", "16M")
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        assert!(dir.path().join(format!("ckpt-{i}.csv")).exists());
    }
    check_merge(&run, &numbered(dir.path(), "part-{i}.csv", 3));
}

#[test]
fn gnu_parallel_script_when_installed() {
    if Command::new("parallel").arg("--version").output().is_err() {
        eprintln!("GNU parallel is not installed: skipped");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let run = Run::new(
        "knightmate",
        "rmbqkbmr/pppppppp/8/8/8/8/PPPPPPPP/RMBQKBMR w KQkq - 0 1",
        4,
        2,
        false,
    );
    // Through --sshlogin (":" is this machine, so no ssh is needed), two
    // jobs at once.
    let o = Command::new("bash")
        .arg(script("perft_parallel.sh"))
        .args(["knightmate", "4", "2", "5"])
        .env("VARIA", env!("CARGO_BIN_EXE_varia"))
        .env("OUT_DIR", dir.path())
        .env("SSHLOGIN", "2/:")
        .env("THREADS", "1")
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let merged = counts(&String::from_utf8(o.stdout).unwrap(), false);
    let single = counts(&run.single(), false);
    let want: Vec<_> = single
        .into_iter()
        .filter(|&(d, _)| d <= 2 || d == 4)
        .collect();
    assert_eq!(merged, want);
}
