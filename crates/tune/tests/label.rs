//! Labelling positions with an engine's expected score: the side to move's
//! score turned to White's view, resuming, refusing another run's file, and
//! the tuner reading the labels.

use arena::engine_config::split_settings;
use arena::EngineConfig;
use movegen::variants::Chess;
use movegen::VariantKind;
use std::path::Path;
use tune::label::{run, LabelConfig, LabelProgress};

fn cfg(words: &[&str], threads: usize) -> LabelConfig {
    let words: Vec<String> = words.iter().map(|w| w.to_string()).collect();
    let settings = split_settings("--engine", &words).unwrap();
    LabelConfig {
        variant: VariantKind::Chess,
        engine: EngineConfig::parse("engine", &settings).unwrap(),
        engine_text: words.join(" "),
        threads,
    }
}

/// White's queen up with White to move, the same with Black to move, the
/// mirror (Black's queen up), a stalemate (over: left out), and the first
/// position again (labelled once).
const POSITIONS: &str = "\
fen,result
4k3/8/8/8/8/8/8/3QK3 w - - 0 1,1
4k3/8/8/8/8/8/8/3QK3 b - - 0 1,1
3qk3/8/8/8/8/8/8/4K3 w - - 0 1,0
7k/5Q2/6K1/8/8/8/8/8 b - - 0 1,0.5
4k3/8/8/8/8/8/8/3QK3 w - - 0 1,1
";

fn labels(path: &Path) -> Vec<(String, f64)> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .filter(|l| !l.starts_with('#') && *l != "fen,result")
        .map(|l| {
            let (fen, r) = l.rsplit_once(',').unwrap();
            (fen.to_string(), r.parse().unwrap())
        })
        .collect()
}

#[test]
fn labels_are_whites_expected_score_and_a_run_resumes() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in.csv");
    let out = dir.path().join("out.csv");
    std::fs::write(&input, POSITIONS).unwrap();
    let c = cfg(&["depth=3", "hash=1"], 2);
    let mut seen = Vec::new();
    let report = run(&c, &input, &out, &mut |p| seen.push(*p)).unwrap();
    assert_eq!(
        report,
        LabelProgress {
            done: 3,
            total: 3,
            labelled: 3
        }
    );
    assert_eq!(seen.first().map(|p| p.done), Some(0));
    let mut got = labels(&out);
    got.sort_by(|a, b| a.0.cmp(&b.0));
    assert_eq!(got.len(), 3, "{got:?}");
    for (fen, p) in &got {
        let white_ahead = fen.contains('Q');
        assert!(if white_ahead { *p > 0.9 } else { *p < 0.1 }, "{fen}: {p}");
    }
    // Again: nothing left to label, the file unchanged.
    let before = std::fs::read_to_string(&out).unwrap();
    let again = run(&c, &input, &out, &mut |_| {}).unwrap();
    assert_eq!((again.done, again.labelled), (3, 0));
    assert_eq!(std::fs::read_to_string(&out).unwrap(), before);
    // A torn last line (a crash mid-write) is cut off and labelled again.
    let torn = before.trim_end().rsplit_once('\n').unwrap().0.to_string() + "\n4k3/8";
    std::fs::write(&out, &torn).unwrap();
    let resumed = run(&c, &input, &out, &mut |_| {}).unwrap();
    assert_eq!((resumed.done, resumed.labelled), (3, 1));
    assert_eq!(labels(&out).len(), 3);
    // Another engine setting is another run: refused, naming the field.
    let e = run(&cfg(&["depth=4", "hash=1"], 1), &input, &out, &mut |_| {}).unwrap_err();
    assert!(e.to_string().contains("engine"), "{e}");
    // The tuner reads the labels as results.
    let text = std::fs::read_to_string(&out).unwrap();
    let parsed = tune::positions::parse::<Chess>(&text, "out.csv").unwrap();
    assert_eq!(parsed.len(), 3);
    assert!(parsed
        .iter()
        .all(|(_, r)| (0.0..=1.0).contains(r) && *r != 0.5));
}

#[test]
fn a_bad_fen_names_its_line_and_nothing_is_written() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in.csv");
    let out = dir.path().join("out.csv");
    std::fs::write(
        &input,
        "fen,result\n4k3/8/8/8/8/8/8/3QK3 w - - 0 1,1\n4k3/8 w,1\n",
    )
    .unwrap();
    let e = run(&cfg(&["depth=1"], 1), &input, &out, &mut |_| {}).unwrap_err();
    assert!(
        e.to_string()
            .starts_with(&format!("{}:3: bad chess FEN", input.display())),
        "{e}"
    );
    assert!(!out.exists());
}
