//! `varia datagen` and `varia tune texel|spsa` end to end on small inputs,
//! and their one-line errors with exit code 2.

use std::path::Path;
use std::process::{Command, Output};

fn varia(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_varia"))
        .args(args)
        .output()
        .expect("varia runs")
}

fn p(path: &Path) -> &str {
    path.to_str().unwrap()
}

/// A trace's column line and rows: the settings block and the checksum
/// column left out.
fn trace_table(t: &str) -> Vec<String> {
    t.lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| l.rsplit_once(',').expect("a checksum column").0.to_string())
        .collect()
}

fn error_line(o: &Output) -> String {
    assert_eq!(o.status.code(), Some(2), "{o:?}");
    let e = String::from_utf8_lossy(&o.stderr).to_string();
    assert_eq!(e.trim_end().lines().count(), 1, "one line: {e}");
    assert!(e.starts_with("error: "), "{e}");
    e
}

#[test]
fn datagen_then_texel_then_spsa() {
    let dir = tempfile::tempdir().unwrap();
    let pos = dir.path().join("pos.csv");
    let o = varia(&[
        "datagen",
        "--variant",
        "suicide",
        "--games",
        "4",
        "--nodes",
        "100",
        "--out",
        p(&pos),
        "--quiet",
    ]);
    assert!(o.status.success(), "{o:?}");
    let text = std::fs::read_to_string(&pos).unwrap();
    assert!(
        text.starts_with("# varia datagen v1\n# variant: suicide\n# nodes: 100\n"),
        "{text}"
    );
    assert_eq!(text.matches("# game ").count(), 4);
    // Again: nothing left to play.
    let o = varia(&[
        "datagen",
        "--variant",
        "suicide",
        "--games",
        "4",
        "--nodes",
        "100",
        "--out",
        p(&pos),
        "--quiet",
    ]);
    assert!(
        String::from_utf8_lossy(&o.stdout).contains("0 played now"),
        "{o:?}"
    );

    let trace = dir.path().join("trace.csv");
    let weights = dir.path().join("tuned.toml");
    let o = varia(&[
        "tune",
        "texel",
        "--variant",
        "suicide",
        "--positions",
        p(&pos),
        "--params",
        "material,tempo",
        "--iterations",
        "5",
        "--out",
        p(&trace),
        "--weights",
        p(&weights),
        "--quiet",
    ]);
    assert!(o.status.success(), "{o:?}");
    let t = std::fs::read_to_string(&trace).unwrap();
    assert!(
        t.starts_with("# varia tune trace v1\n# method: texel\n"),
        "{t}"
    );
    let rows = trace_table(&t);
    assert!(
        rows[0].starts_with("iteration,loss,material.pawn,material.knight,"),
        "{t}"
    );
    assert!(rows[0].ends_with(",tempo"));
    assert_eq!(rows.len(), 7);
    let svg = std::fs::read_to_string(dir.path().join("trace.svg")).unwrap();
    assert!(svg.starts_with("<svg") && svg.contains("<polyline"));
    let tuned = search::EvalParams::load(movegen::VariantKind::Suicide, &weights).unwrap();
    assert_eq!(tuned.variant, movegen::VariantKind::Suicide);

    let spsa = dir.path().join("spsa.csv");
    let sw = dir.path().join("spsa.toml");
    let run_with = |variant: &str, nodes: &str, iters: &str, resume: bool| {
        let mut args = vec![
            "tune",
            "spsa",
            "--variant",
            variant,
            "--params",
            "material.queen,material.rook",
            "--iterations",
            iters,
            "--nodes",
            nodes,
            "--out",
            p(&spsa),
            "--weights",
            p(&sw),
            "--quiet",
        ];
        if resume {
            args.push("--resume");
        }
        varia(&args)
    };
    let run = |iters: &str, resume: bool| run_with("suicide", "100", iters, resume);
    assert!(run("4", false).status.success());
    let e = error_line(&run("4", false));
    assert!(e.contains("--resume"), "{e}");
    let o = run("4", true);
    assert!(
        String::from_utf8_lossy(&o.stdout).contains("(0 now)"),
        "{o:?}"
    );
    let t = std::fs::read_to_string(&spsa).unwrap();
    let rows = trace_table(&t);
    assert_eq!(
        rows[..2],
        [
            "iteration,result,material.rook,material.queen",
            "0,0,400,600"
        ]
    );
    assert_eq!(rows.len(), 6);
    // Resuming another run is refused, naming the setting (before: only the
    // columns were compared, and these continued the suicide trace).
    let e = error_line(&run_with("suicide", "101", "4", true));
    assert!(
        e.contains("belongs to another run: its nodes is 100, this run's is 101"),
        "{e}"
    );
    let e = error_line(&run_with("atomic", "100", "4", true));
    assert!(
        e.contains("its variant is suicide, this run's is atomic"),
        "{e}"
    );
    assert_eq!(std::fs::read_to_string(&spsa).unwrap(), t, "left unchanged");
}

#[test]
fn bad_input_is_one_line_and_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    let pos = dir.path().join("bad.csv");
    std::fs::write(
        &pos,
        "fen,result\n8/8/8/8/8/8/8/8 w - - 0 1,1\nnonsense,1\n",
    )
    .unwrap();
    let out = dir.path().join("t.csv");
    let w = dir.path().join("w.toml");
    let base = |params: &str| {
        varia(&[
            "tune",
            "texel",
            "--variant",
            "suicide",
            "--positions",
            p(&pos),
            "--params",
            params,
            "--out",
            p(&out),
            "--weights",
            p(&w),
            "--quiet",
        ])
    };
    let e = error_line(&base("material"));
    assert!(e.contains("bad.csv:3: bad FEN"), "{e}");
    let e = error_line(&base("material,wings"));
    assert!(e.contains("unknown weight or group \"wings\""), "{e}");
    let e = error_line(&varia(&[
        "datagen",
        "--variant",
        "suicide",
        "--from",
        p(&pos),
        "--out",
        p(&out),
    ]));
    assert!(e.contains("bad.csv"), "{e}");
    let e = error_line(&varia(&[
        "datagen",
        "--variant",
        "suicide",
        "--from",
        "/nonexistent/games.pgn",
        "--out",
        p(&out),
    ]));
    assert!(e.contains("/nonexistent/games.pgn"), "{e}");
}
