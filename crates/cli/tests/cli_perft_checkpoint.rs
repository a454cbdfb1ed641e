//! `varia perft --checkpoint FILE`: finished subtrees are recorded, a run
//! restarted with the same arguments resumes from the file (after a real
//! kill too) and gives the same counts; files of other runs are rejected.

use std::collections::HashMap;
use std::path::Path;
use std::process::Stdio;
use std::time::{Duration, Instant};

mod common;
use common::*;

/// CSV output rows up to the counts (time columns dropped).
fn counts_of(out: &str, fields: usize) -> Vec<String> {
    out.lines()
        .skip(1)
        .map(|l| l.split(',').take(fields).collect::<Vec<_>>().join(","))
        .collect()
}

/// The header block (with the column line) and the record lines of a
/// checkpoint file.
fn split_file(text: &str) -> (String, Vec<String>) {
    let mut head = String::new();
    let mut lines = text.lines();
    for l in lines.by_ref() {
        head.push_str(l);
        head.push('\n');
        if !l.starts_with('#') {
            break;
        }
    }
    (head, lines.map(str::to_string).collect())
}

/// The checkpoint file of `head` with only its first `n` `records`: a run
/// stopped after `n` subtrees.
fn first_records(head: &str, records: &[String], n: usize) -> String {
    format!("{head}{}\n", records[..n].join("\n"))
}

/// `(depth, index)` of each record, checking none appears twice.
fn record_keys(records: &[String]) -> Vec<(u32, usize)> {
    let mut seen = HashMap::new();
    for r in records {
        let f: Vec<&str> = r.split(',').collect();
        let key = (f[0].parse().unwrap(), f[1].parse().unwrap());
        assert!(seen.insert(key, r.clone()).is_none(), "{key:?} twice");
    }
    let mut keys: Vec<_> = seen.into_keys().collect();
    keys.sort();
    keys
}

/// `perft` of chess to depth 4, split at depth 2, checkpointed in `ck`, as a
/// table: index 2 is the variant, 4 the depth, 6 the split depth.
fn table_args(ck: &Path) -> Vec<&str> {
    perft_args(
        "chess",
        "4",
        &["--split-depth", "2", "--checkpoint", ck.to_str().unwrap()],
    )
}

/// [`table_args`] as CSV on two threads, then `extra`.
fn run_args<'a>(ck: &'a Path, extra: &[&'a str]) -> Vec<&'a str> {
    let mut args = table_args(ck);
    args.extend(["--format", "csv", "--threads", "2"]);
    args.extend(extra);
    args
}

#[test]
fn resumes_from_a_partly_filled_file() {
    let dir = tempfile::tempdir().unwrap();
    let full = dir.path().join("full.ckpt");
    let plain = counts_of(
        &ok_stdout(&varia(&perft_args("chess", "4", &["--format", "csv"]))),
        4,
    );
    let first = ok_stdout(&varia(&run_args(&full, &[])));
    assert_eq!(counts_of(&first, 4), plain);
    // The CSV opens with its column names; the run is in its sidecar.
    let csv = std::fs::read_to_string(&full).unwrap();
    assert!(
        csv.starts_with("depth,index,path,nodes,seconds,check\n"),
        "{csv}"
    );
    let text = legacy_text(&full);
    let (head, records) = split_file(&text);
    assert!(head.starts_with("# varia perft checkpoint v2\n# variant: chess\n"));
    assert!(head.contains("# depth: 4\n# split_depth: 2\n"), "{head}");
    assert!(
        head.ends_with("depth,index,path,nodes,seconds,check\n"),
        "{head}"
    );
    // Depths 3 and 4 are beyond the split: 400 subtrees each.
    let keys = record_keys(&records);
    assert_eq!(keys.len(), 800);
    assert!(keys.iter().all(|&(d, i)| (d == 3 || d == 4) && i < 400));

    // A run "killed" after part of the subtrees: the first 300 records.
    let part = write_file(
        dir.path(),
        "part.ckpt",
        &first_records(&head, &records, 300),
    );
    let resumed = ok_stdout(&varia(&run_args(&part, &[])));
    assert_eq!(counts_of(&resumed, 4), plain);
    let (_, after) = split_file(&std::fs::read_to_string(&part).unwrap());
    assert_eq!(record_keys(&after), keys, "every subtree recorded once");
    assert_eq!(after[..300], records[..300]);
    // A finished file: nothing left to count, same result.
    let again = ok_stdout(&varia(&run_args(&part, &["--quiet"])));
    assert_eq!(counts_of(&again, 4), plain);

    // An edited count is refused, naming its line (before: it was taken
    // silently), and the file is left as it is.
    let altered = dir.path().join("altered.ckpt");
    let mut recs = records.clone();
    let i = recs.iter().position(|r| r.starts_with("4,")).unwrap();
    let mut f: Vec<String> = recs[i].split(',').map(str::to_string).collect();
    f[3] = (f[3].parse::<u64>().unwrap() + 1000).to_string();
    recs[i] = f.join(",");
    let edited = format!("{head}{}\n", recs.join("\n"));
    std::fs::write(&altered, &edited).unwrap();
    let line = format!("line {}", head.lines().count() + i + 1);
    let table_run = table_args(&altered);
    assert_one_line_error(
        &varia(&table_run),
        &["altered.ckpt", &line, "checksum mismatch"],
    );
    assert_eq!(std::fs::read_to_string(&altered).unwrap(), edited);
    // The recorded counts are used, not recounted: with its checksum made
    // to fit, the altered count is taken.
    std::fs::write(&altered, with_fresh_checksums(&edited)).unwrap();
    let out = counts_of(&ok_stdout(&varia(&run_args(&altered, &[]))), 4);
    assert_eq!(out[..3], plain[..3]);
    let d4: u64 = out[3].rsplit(',').next().unwrap().parse().unwrap();
    assert_eq!(d4, 197281 + 1000);

    // A torn last line (a crash mid-write) is dropped and recounted.
    let torn = dir.path().join("torn.ckpt");
    let cut = format!("{head}{}\n{}", records[..50].join("\n"), &records[50][..5]);
    std::fs::write(&torn, cut).unwrap();
    let out = ok_stdout(&varia(&run_args(&torn, &[])));
    assert_eq!(counts_of(&out, 4), plain);
    let (_, after) = split_file(&std::fs::read_to_string(&torn).unwrap());
    assert_eq!(record_keys(&after), keys);
}

#[test]
fn divide_and_stats_resume_too() {
    let dir = tempfile::tempdir().unwrap();
    let ck = dir.path().join("d.ckpt");
    let args = |ck: &Path| {
        vec![
            "perft".to_string(),
            "--variant".into(),
            "atomic".into(),
            "--depth".into(),
            "4".into(),
            "--stats".into(),
            "--divide".into(),
            "--format".into(),
            "csv".into(),
            "--checkpoint".into(),
            ck.to_str().unwrap().into(),
        ]
    };
    let run = |ck: &Path| {
        let a = args(ck);
        ok_stdout(&varia(&a.iter().map(String::as_str).collect::<Vec<_>>()))
    };
    let plain = ok_stdout(&varia(&perft_args(
        "atomic",
        "4",
        &["--stats", "--divide", "--format", "csv"],
    )));
    assert_eq!(run(&ck), plain);
    let (head, records) = split_file(&legacy_text(&ck));
    // Default split 3 plies: 8902 subtrees at depth 4 only (a divide).
    assert!(head.contains("# split_depth: 3\n# stats: yes\n"), "{head}");
    assert_eq!(record_keys(&records).len(), 8902);
    let part = write_file(dir.path(), "p.ckpt", &first_records(&head, &records, 4000));
    assert_eq!(run(&part), plain);
}

#[test]
fn files_of_other_runs_are_rejected() {
    let dir = tempfile::tempdir().unwrap();
    let ck = dir.path().join("c.ckpt");
    ok_stdout(&varia(&run_args(&ck, &[])));
    let before = std::fs::read_to_string(&ck).unwrap();
    let base = table_args(&ck);
    let with = |i: usize, v: &'static str| {
        let mut a: Vec<&str> = base.to_vec();
        a[i] = v;
        a
    };
    assert_one_line_error(
        &varia(&with(4, "5")),
        &["belongs to another run", "depth is 4", "this run's is 5"],
    );
    assert_one_line_error(
        &varia(&with(6, "3")),
        &["belongs to another run", "split_depth is 2"],
    );
    assert_one_line_error(
        &varia(&with(2, "threecheck")),
        &["belongs to another run", "variant is chess"],
    );
    let mut stats = base.to_vec();
    stats.push("--stats");
    assert_one_line_error(&varia(&stats), &["stats is no"]);
    let mut fen = base.to_vec();
    fen.extend(["--fen", KIWIPETE]);
    assert_one_line_error(&varia(&fen), &["fen is rnbqkbnr/"]);
    assert_eq!(
        std::fs::read_to_string(&ck).unwrap(),
        before,
        "left unchanged"
    );

    // A record that does not match its subtree, and a file that is not a
    // checkpoint at all.
    let (head, mut records) = split_file(&legacy_text(&ck));
    let i = records.iter().position(|r| r.starts_with("3,0,")).unwrap();
    let tampered = records.remove(i).replacen("a2a3 a7a5", "a2a3 a7a6", 1);
    records.insert(0, tampered);
    let bad = dir.path().join("bad.ckpt");
    std::fs::write(
        &bad,
        with_fresh_checksums(&format!("{head}{}\n", records.join("\n"))),
    )
    .unwrap();
    let mut a = base.to_vec();
    a[8] = bad.to_str().unwrap();
    // (Line 2: resuming converted the file to today's layout first.)
    assert_one_line_error(&varia(&a), &["bad.ckpt", "line 2", "subtree 0"]);
    let other = write_file(dir.path(), "notes.csv", "variant,fen,depth,nodes\n");
    a[8] = other.to_str().unwrap();
    assert_one_line_error(&varia(&a), &["notes.csv", "notes.csv.meta is missing"]);
    assert_eq!(
        std::fs::read_to_string(&other).unwrap(),
        "variant,fen,depth,nodes\n"
    );
    // Without --variant there is no single run to name.
    assert_one_line_error(
        &varia(&["perft", "--depth", "3", "--checkpoint", path(&ck)]),
        &["--checkpoint needs --variant"],
    );
}

#[test]
fn a_killed_run_resumes_and_gives_the_same_total() {
    let dir = tempfile::tempdir().unwrap();
    let ck = dir.path().join("kill.ckpt");
    let args = perft_args(
        "chess",
        "5",
        &[
            "--fen",
            KIWIPETE,
            "--split-depth",
            "2",
            "--divide",
            "--threads",
            "1",
            "--format",
            "csv",
            "--quiet",
            "--checkpoint",
            ck.to_str().unwrap(),
        ],
    );
    let mut child = spawn_varia(&args, Stdio::inherit(), Stdio::null(), Stdio::null());
    // Wait until some subtrees are recorded, then kill it (SIGKILL).
    let start = Instant::now();
    let records = loop {
        let n = std::fs::read_to_string(&ck)
            .map(|t| split_file(&t).1.len())
            .unwrap_or(0);
        if n >= 40 {
            break n;
        }
        assert!(
            child.try_wait().unwrap().is_none(),
            "the run finished before it could be killed"
        );
        assert!(start.elapsed() < Duration::from_secs(120), "no progress");
        std::thread::sleep(Duration::from_millis(1));
    };
    assert!(child.try_wait().unwrap().is_none(), "still running");
    child.kill().expect("kill");
    child.wait().expect("wait");
    let (_, recorded) = split_file(&std::fs::read_to_string(&ck).unwrap());
    assert!(recorded.len() >= records);
    assert!(recorded.len() < 2039, "killed mid-way: {}", recorded.len());

    let out = ok_stdout(&varia(&args));
    let total: u64 = out
        .lines()
        .skip(1)
        .map(|l| l.rsplit(',').next().unwrap().parse::<u64>().unwrap())
        .sum();
    assert_eq!(total, 193_690_690);
    assert_eq!(out.lines().count(), 1 + 48);
    let (_, after) = split_file(&std::fs::read_to_string(&ck).unwrap());
    let keys = record_keys(&after);
    assert_eq!(keys.len(), 2039, "each subtree once");
    assert!(keys.iter().all(|&(d, _)| d == 5));
}

#[test]
fn a_shard_resumes_from_its_checkpoint() {
    let dir = tempfile::tempdir().unwrap();
    let ck = dir.path().join("s.ckpt");
    let args = |ck: &Path, extra: &[&str]| {
        let mut a: Vec<String> = perft_args(
            "suicide",
            "5",
            &[
                "--split-depth",
                "3",
                "--shard",
                "2/3",
                "--stats",
                "--checkpoint",
            ],
        )
        .iter()
        .map(|s| s.to_string())
        .collect();
        a.push(ck.to_str().unwrap().to_string());
        a.extend(extra.iter().map(|s| s.to_string()));
        a
    };
    let run = |a: Vec<String>| ok_stdout(&varia(&a.iter().map(String::as_str).collect::<Vec<_>>()));
    // The part without its seconds and checksum columns.
    let counts = |part: &str| -> Vec<String> {
        part.lines()
            .map(|l| match l.rsplitn(3, ',').nth(2) {
                Some(rest) if !l.starts_with('#') => rest.to_string(),
                _ => l.to_string(),
            })
            .collect()
    };
    let first = run(args(&ck, &[]));
    let (head, records) = split_file(&legacy_text(&ck));
    assert!(head.contains("# shard: 2/3\n"), "{head}");
    // Suicide perft(3) has 8067 subtrees; shard 2 of 3 owns 2689 of them.
    assert_eq!(record_keys(&records).len(), 2689);
    let part = write_file(dir.path(), "p.ckpt", &first_records(&head, &records, 1000));
    let resumed = run(args(&part, &["--hash", "4M"]));
    assert_eq!(counts(&resumed), counts(&first));
    // Another shard's checkpoint is refused.
    let mut other = args(&ck, &[]);
    other[8] = "3/3".to_string();
    let o = varia(&other.iter().map(String::as_str).collect::<Vec<_>>());
    assert_one_line_error(&o, &["another run", "shard is 2/3"]);
}
