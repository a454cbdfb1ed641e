//! `varia datagen` and `varia tune texel|spsa` end to end on small inputs,
//! and their one-line errors with exit code 2.

mod common;
use common::*;

#[test]
fn datagen_then_texel_then_spsa() {
    let dir = tempfile::tempdir().unwrap();
    let pos = dir.path().join("pos.csv");
    let datagen = || {
        varia(&datagen_args(
            "suicide",
            "100",
            &["--games", "4", "--out", path(&pos), "--quiet"],
        ))
    };
    let o = datagen();
    assert!(o.status.success(), "{o:?}");
    let text = std::fs::read_to_string(&pos).unwrap();
    assert!(text.starts_with("fen,result\n"), "{text}");
    assert!(!text.contains('#'), "a plain CSV: {text}");
    // The run's settings and progress are beside it.
    let progress = legacy_text(&dir.path().join("pos.csv.progress"));
    assert!(
        progress.contains("# variant: suicide\n") && progress.contains("# nodes: 100\n"),
        "{progress}"
    );
    let last = progress.lines().last().unwrap();
    assert!(last.starts_with("4,4,"), "four games written: {progress}");
    // Again: nothing left to play.
    let o = datagen();
    assert!(
        String::from_utf8_lossy(&o.stdout).contains("0 played now"),
        "{o:?}"
    );

    let trace = dir.path().join("trace.csv");
    let weights = dir.path().join("tuned.toml");
    let o = varia(&tune_args(
        "texel",
        "suicide",
        "material,tempo",
        &[
            "--positions",
            path(&pos),
            "--iterations",
            "5",
            "--out",
            path(&trace),
            "--weights",
            path(&weights),
            "--quiet",
        ],
    ));
    assert!(o.status.success(), "{o:?}");
    let t = std::fs::read_to_string(&trace).unwrap();
    assert!(t.starts_with("iteration,loss,"), "{t}");
    assert!(
        legacy_text(&trace).starts_with("# varia tune trace v1\n# method: texel\n"),
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
        let mut args = tune_args(
            "spsa",
            variant,
            "material.queen,material.rook",
            &[
                "--iterations",
                iters,
                "--nodes",
                nodes,
                "--out",
                path(&spsa),
                "--weights",
                path(&sw),
                "--quiet",
            ],
        );
        if resume {
            args.push("--resume");
        }
        varia(&args)
    };
    let run = |iters: &str, resume: bool| run_with("suicide", "100", iters, resume);
    assert!(run("4", false).status.success());
    assert_one_line_error(&run("4", false), &["--resume"]);
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
            "0,0,365,603"
        ]
    );
    assert_eq!(rows.len(), 6);
    // Resuming another run is refused, naming the setting (before: only the
    // columns were compared, and these continued the suicide trace).
    assert_one_line_error(
        &run_with("suicide", "101", "4", true),
        &["belongs to another run: its nodes is 100, this run's is 101"],
    );
    assert_one_line_error(
        &run_with("atomic", "100", "4", true),
        &["its variant is suicide, this run's is atomic"],
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
        varia(&tune_args(
            "texel",
            "suicide",
            params,
            &[
                "--positions",
                path(&pos),
                "--out",
                path(&out),
                "--weights",
                path(&w),
                "--quiet",
            ],
        ))
    };
    assert_one_line_error(&base("material"), &["bad.csv:3: bad FEN"]);
    assert_one_line_error(
        &base("material,wings"),
        &["unknown weight or group \"wings\""],
    );
    for (from, needle) in [
        (path(&pos), "bad.csv"),
        ("/nonexistent/games.pgn", "/nonexistent/games.pgn"),
    ] {
        assert_one_line_error(
            &varia(&[
                "datagen",
                "--variant",
                "suicide",
                "--from",
                from,
                "--out",
                path(&out),
            ]),
            &[needle],
        );
    }
    // `varia label`: a missing file, a bad FEN, an engine without a usable
    // limit, an unknown setting.
    std::fs::write(
        &pos,
        "fen,result\n4k3/8/8/8/8/8/8/3QK3 w - - 0 1,1\nnonsense,1\n",
    )
    .unwrap();
    let label = |positions: &str, engine: &[&str]| {
        let mut args = vec![
            "label",
            "--variant",
            "chess",
            "--positions",
            positions,
            "--out",
            path(&out),
            "--quiet",
            "--engine",
        ];
        args.extend_from_slice(engine);
        varia(&args)
    };
    assert_one_line_error(
        &label("/nonexistent/p.csv", &["depth=2"]),
        &["/nonexistent/p.csv"],
    );
    assert_one_line_error(
        &label(path(&pos), &["depth=2"]),
        &["bad.csv:3: bad chess FEN"],
    );
    assert_one_line_error(&label(path(&pos), &["hash=1"]), &["no move limit"]);
    assert_one_line_error(&label(path(&pos), &["tc=10+0.1"]), &["tc="]);
    assert_one_line_error(&label(path(&pos), &["depth=2", "wings=3"]), &["wings"]);
}
