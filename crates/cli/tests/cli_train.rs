//! `varia train` end to end on a few hundred positions (no real net is
//! trained): the files of every epoch, `--resume`, and the one-line errors
//! with exit code 2.

mod common;
use common::*;
use movegen::variants::{Atomic, Chess};
use movegen::{Position, SplitMix64, Variant, VariantKind};
use std::path::Path;
use tune::packed::{Header, PackedPosition, DRAW};

/// A packed file of `n` positions of random playouts of `V`, scored 0.
fn packed_file<V: Variant>(path: &Path, n: usize) {
    let mut bytes = Header { game: V::KIND }.to_bytes().to_vec();
    let mut rng = SplitMix64::new(3);
    let mut pos = Position::<V>::startpos();
    let mut count = 0;
    while count < n {
        let moves = pos.legal_moves();
        if moves.is_empty() || pos.is_over_by_rule() || pos.halfmove_clock() > 40 {
            pos = Position::<V>::startpos();
            continue;
        }
        pos = pos.play_unchecked(moves[rng.below(moves.len())]);
        bytes.extend_from_slice(PackedPosition::from_position(&pos, 0, DRAW).as_bytes());
        count += 1;
    }
    std::fs::write(path, bytes).unwrap();
}

#[test]
fn train_writes_every_epoch_and_resumes() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("chess.bin");
    packed_file::<Chess>(&data, 600);
    let out = dir.path().join("net");
    let run = |epochs: &str, extra: &[&str]| {
        let mut args = vec![
            "train",
            "--variant",
            "chess",
            "--data",
            path(&data),
            "--out",
            path(&out),
            "--hidden",
            "8",
            "--batch",
            "128",
            "--k",
            "400",
            "--epochs",
            epochs,
        ];
        args.extend_from_slice(extra);
        varia(&args)
    };
    let o = run("2", &[]);
    let text = ok_stdout(&o);
    assert!(text.contains("epoch 2: train loss"), "{text}");
    assert!(text.contains("train: 2 epochs ->"), "{text}");
    for f in [
        "epoch-1.nnue",
        "epoch-2.nnue",
        "checkpoint.bin",
        "trace.csv",
        "trace.svg",
    ] {
        assert!(out.join(f).exists(), "{f}");
    }
    search::nnue::Network::load(&out.join("epoch-2.nnue"), VariantKind::Chess).unwrap();
    // Not overwritten without --resume.
    assert_one_line_error(&run("3", &[]), &["checkpoint.bin exists", "--resume"]);
    let o = run("3", &["--resume", "--quiet"]);
    let text = ok_stdout(&o);
    assert!(
        !text.contains("epoch 3:") && text.contains("train: 3 epochs"),
        "{text}"
    );
    let trace = std::fs::read_to_string(out.join("trace.csv")).unwrap();
    let lines: Vec<&str> = trace.lines().collect();
    assert_eq!(lines[0], "epoch,train_loss,val_loss,positions_per_s,lr");
    assert_eq!(lines.len(), 4, "{trace}");
    assert!(lines[3].starts_with("3,"));
    // Other settings on resume are refused, naming the setting.
    assert_one_line_error(
        &run("4", &["--resume", "--wdl", "0.5"]),
        &[
            "checkpoint of another run",
            "it has wdl=0,",
            "this run wdl=0.5",
        ],
    );
}

#[test]
fn train_refuses_bad_input_in_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let atomic = dir.path().join("atomic.bin");
    packed_file::<Atomic>(&atomic, 10);
    let out = dir.path().join("net");
    let args = |data: &str, extra: &[&'static str]| -> Vec<String> {
        let mut v: Vec<String> = ["train", "--variant", "chess", "--data", data, "--out"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        v.push(path(&out).to_string());
        v.extend(extra.iter().map(|s| s.to_string()));
        v
    };
    let run = |a: Vec<String>| varia(&a.iter().map(String::as_str).collect::<Vec<_>>());
    assert_one_line_error(
        &run(args(path(&atomic), &[])),
        &["atomic.bin", "positions of atomic, not of chess"],
    );
    let text = write_file(dir.path(), "text.bin", "not packed\n");
    assert_one_line_error(
        &run(args(path(&text), &[])),
        &["text.bin", "not a varia packed-position file"],
    );
    let missing = dir.path().join("missing.bin");
    assert_one_line_error(&run(args(path(&missing), &[])), &["missing.bin"]);
    assert_one_line_error(
        &run(args(path(&atomic), &["--wdl", "2"])),
        &["--wdl must be in [0, 1]"],
    );
    assert_one_line_error(
        &run(args(path(&atomic), &["--activation", "relu"])),
        &["unknown activation"],
    );
    assert!(!out.join("checkpoint.bin").exists());
}
