//! `varia datagen` for network data: the binary and text formats end to end,
//! a run killed mid-write and resumed to the same bytes, and bad arguments
//! as one-line errors with exit code 2.

mod common;
use common::*;
use std::path::Path;
use std::process::Stdio;
use std::time::{Duration, Instant};

fn chess<'a>(format: &'a str, games: &'a str, out: &'a str, extra: &[&'a str]) -> Vec<&'a str> {
    let mut args = datagen_args(
        "chess",
        "150",
        &[
            "--format",
            format,
            "--games",
            games,
            "--max-plies",
            "160",
            "--out",
            out,
            "--quiet",
        ],
    );
    args.extend_from_slice(extra);
    args
}

#[test]
fn bin_and_text_hold_the_same_positions() {
    let dir = tempfile::tempdir().unwrap();
    let bin = dir.path().join("c.bin");
    let txt = dir.path().join("c.txt");
    let o = ok_stdout(&varia(&chess("bin", "3", path(&bin), &["--threads", "2"])));
    assert!(o.contains("3/3 games") && o.contains("in the file"), "{o}");
    ok_stdout(&varia(&chess("text", "3", path(&txt), &["--threads", "1"])));
    let records: Vec<_> = tune::packed::PackedReader::open(&bin)
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    let lines = std::fs::read_to_string(&txt).unwrap();
    assert!(!records.is_empty());
    assert_eq!(records.len(), lines.lines().count());
    for (r, line) in records.iter().zip(lines.lines()) {
        assert!(line.starts_with(&format!("{} | ", r.to_fen(movegen::VariantKind::Chess))));
    }
    assert!(Path::new(&format!("{}.progress", bin.display())).exists());
}

#[test]
fn a_killed_run_resumes_to_the_same_bytes() {
    let dir = tempfile::tempdir().unwrap();
    let whole = dir.path().join("whole.bin");
    ok_stdout(&varia(&chess(
        "bin",
        "8",
        path(&whole),
        &["--threads", "2"],
    )));
    let expected = std::fs::read(&whole).unwrap();

    let cut = dir.path().join("cut.bin");
    let args = chess("bin", "8", path(&cut), &["--threads", "2"]);
    let mut child = spawn_varia(&args, Stdio::null(), Stdio::null(), Stdio::null());
    // Killed once some positions are written (or at the end, if it was faster).
    let deadline = Instant::now() + Duration::from_secs(60);
    while std::fs::metadata(&cut).map_or(0, |m| m.len()) <= 32 + 40 * 32
        && child.try_wait().unwrap().is_none()
        && Instant::now() < deadline
    {
        std::thread::sleep(Duration::from_millis(5));
    }
    let _ = child.kill();
    child.wait().unwrap();
    // A record cut short, as a kill in the middle of a write leaves it.
    std::fs::OpenOptions::new()
        .append(true)
        .open(&cut)
        .and_then(|mut f| std::io::Write::write_all(&mut f, &[1, 2, 3]))
        .unwrap();
    ok_stdout(&varia(&chess("bin", "8", path(&cut), &["--threads", "1"])));
    assert_eq!(std::fs::read(&cut).unwrap(), expected);
}

#[test]
fn bad_arguments_are_one_line_errors() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("x.bin");
    let o = path(&out);
    let bad: [(&[&str], &[&str]); 8] = [
        (&["--shard", "3/2"], &["--shard", "3/2"]),
        (&["--shard", "x"], &["--shard"]),
        (
            &["--random-plies", "12-8"],
            &["--random-plies", "12 is more than 8"],
        ),
        (&["--format", "pgn"], &["--format", "csv, text, bin"]),
        (&["--nodes", "0"], &["--nodes must be at least 1"]),
        (&["--score-cap", "0"], &["--score-cap"]),
        (&["--win-plies", "3"], &["--win-plies 3"]),
        (&["--games", "0"], &["--games"]),
    ];
    for (extra, needles) in bad {
        let mut args = vec!["datagen", "--variant", "chess", "--out", o];
        args.extend_from_slice(extra);
        assert_one_line_error(&varia(&args), needles);
    }
    let o = varia(&["datagen", "--variant", "chess", "--depth", "0", "--out", o]);
    assert_one_line_error(&o, &["--depth must be at least 1"]);
    let o = varia(&[
        "datagen",
        "--variant",
        "chess",
        "--nodes",
        "10",
        "--depth",
        "3",
        "--out",
        path(&out),
    ]);
    assert_one_line_error(&o, &["--nodes", "--depth"]);

    // A packed file of another run, or without its progress file.
    std::fs::write(&out, b"VARIAPOS").unwrap();
    let o = varia(&chess("bin", "1", path(&out), &[]));
    assert_one_line_error(&o, &["x.bin.progress", "does not"]);
    assert!(!out.exists() || std::fs::read(&out).unwrap() == b"VARIAPOS");
}

#[test]
fn the_evaluation_is_in_the_run_identity_and_an_older_default_resumes_as_classical() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("c.bin");
    let meta = dir.path().join("c.bin.progress.meta");
    let eval_line = || {
        std::fs::read_to_string(&meta)
            .unwrap()
            .lines()
            .find(|l| l.starts_with("eval: "))
            .unwrap()
            .to_string()
    };
    let classical = ["--eval", "classical", "--threads", "1"];
    ok_stdout(&varia(&chess("bin", "1", path(&out), &classical)));
    assert_eq!(eval_line(), "eval: classical");
    // Chess's default is its net: another run, refused by name.
    let o = varia(&chess("bin", "2", path(&out), &["--threads", "1"]));
    let err = assert_one_line_error(&o, &["eval"]);
    assert!(err.contains("network"), "{err}");
    // A file of a version whose default was the classical evaluation
    // (`eval: default`) resumes with `--eval classical`.
    let text = std::fs::read_to_string(&meta).unwrap();
    std::fs::write(&meta, text.replace("eval: classical", "eval: default")).unwrap();
    let before = std::fs::read(&out).unwrap();
    ok_stdout(&varia(&chess("bin", "2", path(&out), &classical)));
    let after = std::fs::read(&out).unwrap();
    assert!(after.len() > before.len() && after.starts_with(&before));
    assert_eq!(eval_line(), "eval: default");
    // A run with the default names the net by its weights' hash.
    let net = dir.path().join("n.bin");
    ok_stdout(&varia(&chess("bin", "1", path(&net), &["--threads", "1"])));
    let text = std::fs::read_to_string(dir.path().join("n.bin.progress.meta")).unwrap();
    assert!(text.contains("eval: network "), "{text}");
}
