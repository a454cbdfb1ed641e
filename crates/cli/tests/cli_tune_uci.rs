//! `varia tune spsa --engine` (SPSA of an external UCI engine's spin
//! options) and `varia uci --tune` (varia's weights as such options), end to
//! end: the one-line errors for bad, unknown and out-of-range `--param`s, the
//! trace and its columns, the final `setoption` lines, `--resume` equal to
//! an uninterrupted run, the direction SPSA moves an option that makes the
//! engine weaker, and varia tuned over UCI equal to varia tuned in-process.
//!
//! The external engine is `fake-engine uci --tunable` (crates/fake-engines:
//! it declares `Blunder`, a spin option from 0 to 1000, and plays an illegal
//! move, losing the game, with a chance of Blunder/1000 a move). Only a
//! package's own integration tests get `CARGO_BIN_EXE_<name>`, so it is
//! built here with the cargo that runs the tests, as
//! `cli_perft_compare.rs` does.

mod common;
use common::*;
use std::path::Path;
use std::process::Output;

/// `--engine cmd=<fake engine> args=uci --tunable`.
fn fake_cmd() -> String {
    format!("cmd={}", fake_engine().display())
}

/// `varia tune spsa` of the fake engine's options `params` (chess, one
/// node a move, 2 games at once) into `out`, with `extra` arguments.
fn tune_fake(out: &Path, params: &[&str], iterations: &str, extra: &[&str]) -> Output {
    let cmd = fake_cmd();
    let mut args = vec![
        "tune",
        "spsa",
        "--variant",
        "chess",
        "--engine",
        &cmd,
        "args=uci --tunable",
        "--each",
        "nodes=1",
        "--iterations",
        iterations,
        "--concurrency",
        "2",
        "--max-plies",
        "60",
        "--out",
        path(out),
        "--quiet",
    ];
    for p in params {
        args.push("--param");
        args.push(p);
    }
    args.extend_from_slice(extra);
    varia(&args)
}

#[test]
fn bad_unknown_and_out_of_range_params_are_one_line_errors() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("t.csv");
    let run = |p: &str| tune_fake(&out, &[p], "2", &[]);
    assert_one_line_error(
        &run("Blunder=1,2"),
        &["bad --param \"Blunder=1,2\"", "3 to 5 values"],
    );
    assert_one_line_error(&run("Blunder=x,0,9"), &["bad --param", "numbers"]);
    assert_one_line_error(&run("Blunder=50,60,90"), &["START must be within"]);
    assert_one_line_error(
        &run("Skill=5,0,10"),
        &["the engine has no option \"Skill\"", "Hash, Blunder"],
    );
    assert_one_line_error(
        &run("Blunder=500,0,2000"),
        &["--param Blunder: 0..2000 is outside the engine's range 0..1000"],
    );
    assert_one_line_error(
        &run("UCI_Variant=1,0,2"),
        &["--param UCI_Variant: a combo option cannot be tuned"],
    );
    assert_one_line_error(
        &tune_fake(&out, &["Blunder=5,0,9", "blunder=5,0,9"], "2", &[]),
        &["--param Blunder is given twice"],
    );
    assert_one_line_error(
        &tune_fake(&out, &[], "2", &[]),
        &["--engine needs at least one --param"],
    );
    assert!(!out.exists(), "no trace is written for a refused run");
    // The in-process flags are refused with --engine, and the UCI ones without.
    let w = dir.path().join("w.toml");
    assert_one_line_error(
        &tune_fake(&out, &["Blunder=5,0,9"], "2", &["--weights", path(&w)]),
        &["--weights", "--engine"],
    );
    // `tune spsa --variant VARIANT --out OUT` followed by `extra`.
    let spsa = |variant: &str, extra: &[&str]| {
        let mut args = vec!["tune", "spsa", "--variant", variant, "--out", path(&out)];
        args.extend_from_slice(extra);
        varia(&args)
    };
    assert_one_line_error(
        &spsa(
            "chess",
            &["--param", "Blunder=5,0,9", "--weights", path(&w)],
        ),
        &["--param and --each tune an external engine"],
    );
    // An engine that is not external, or does not play the variant.
    let one_param = ["--each", "nodes=1", "--param", "Blunder=5,0,9"];
    assert_one_line_error(
        &spsa("chess", &[&["--engine", "name=x"][..], &one_param].concat()),
        &["--engine needs cmd="],
    );
    let cmd = fake_cmd();
    assert_one_line_error(
        &spsa(
            "suicide",
            &[&["--engine", &cmd, "args=uci --tunable"][..], &one_param].concat(),
        ),
        &["does not play giveaway"],
    );
}

#[test]
fn spsa_lowers_an_option_that_loses_games_and_writes_setoption_lines() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("blunder.csv");
    let o = tune_fake(&out, &["Blunder=500,0,1000,200,0.05"], "16", &[]);
    let text = ok_stdout(&o);
    let rows = trace_table(&std::fs::read_to_string(&out).unwrap());
    assert_eq!(rows[..2], ["iteration,result,Blunder", "0,0,500"]);
    assert_eq!(rows.len(), 18, "the columns, row 0 and 16 iterations");
    let last: f64 = rows[17].rsplit(',').next().unwrap().parse().unwrap();
    assert!(
        last < 350.0,
        "SPSA should lower Blunder from 500, ended at {last}: {rows:?}"
    );
    let line = format!("setoption name Blunder value {}", last.round() as i64);
    let options = dir.path().join("blunder.options.txt");
    assert_eq!(
        std::fs::read_to_string(&options).unwrap(),
        line.clone() + "\n"
    );
    assert!(text.contains(&line), "{text}");
    assert!(text.contains("blunder.options.txt"), "{text}");
    assert!(dir.path().join("blunder.svg").is_file());
}

#[test]
fn resume_equals_an_uninterrupted_run() {
    let dir = tempfile::tempdir().unwrap();
    let whole = dir.path().join("whole.csv");
    let cut = dir.path().join("cut.csv");
    let params = ["Blunder=400,0,1000,150,0.02", "Hash=16,1,64,4"];
    ok_stdout(&tune_fake(&whole, &params, "8", &[]));
    // The trace as an interruption after iteration 3 leaves it: the
    // settings, the columns and rows 0 to 3, the last one cut short (in
    // the layout of older versions, identity on top, which resume converts).
    let text = legacy_text(&whole);
    let mut kept = String::new();
    let mut rows = 0;
    for l in text.lines() {
        if !l.starts_with('#') {
            rows += 1;
        }
        if rows > 5 {
            kept.push_str(&l[..l.len() / 2]);
            break;
        }
        kept.push_str(l);
        kept.push('\n');
    }
    std::fs::write(&cut, kept).unwrap();
    assert_one_line_error(&tune_fake(&cut, &params, "8", &[]), &["--resume"]);
    let o = tune_fake(&cut, &params, "8", &["--resume"]);
    assert!(ok_stdout(&o).contains("(5 now)"), "{o:?}");
    assert_eq!(
        trace_table(&std::fs::read_to_string(&cut).unwrap()),
        trace_table(&text)
    );
    assert_eq!(
        std::fs::read_to_string(dir.path().join("cut.options.txt")).unwrap(),
        std::fs::read_to_string(dir.path().join("whole.options.txt")).unwrap()
    );
    // Another schedule is another run.
    let other = ["Blunder=400,0,1000,150,0.03", "Hash=16,1,64,4"];
    assert_one_line_error(
        &tune_fake(&cut, &other, "8", &["--resume"]),
        &["belongs to another run", "param"],
    );
}

#[test]
fn varia_tuned_over_uci_equals_varia_tuned_in_process() {
    let dir = tempfile::tempdir().unwrap();
    let in_process = dir.path().join("in-process.csv");
    let over_uci = dir.path().join("uci.csv");
    let common = [
        "--variant",
        "suicide",
        "--iterations",
        "5",
        "--r-end",
        "0.05",
        "--concurrency",
        "2",
        "--quiet",
    ];
    let w = dir.path().join("w.toml");
    // 700 nodes: at fewer (300 since suicide's single-reply extension, 400
    // since its SPSA-tuned piece values, 500 since offer ordering; 600 and
    // 800 also move) every iteration's pair of games ties and no weight
    // moves. The --param starts are suicide's defaults,
    // where the in-process run starts.
    let mut args = vec!["tune", "spsa"];
    args.extend_from_slice(&common);
    args.extend_from_slice(&[
        "--params",
        "material.knight,material.queen",
        "--nodes",
        "700",
        "--out",
        path(&in_process),
        "--weights",
        path(&w),
    ]);
    ok_stdout(&varia(&args));
    let cmd = format!("cmd={}", env!("CARGO_BIN_EXE_varia"));
    let mut args = vec!["tune", "spsa"];
    args.extend_from_slice(&common);
    args.extend_from_slice(&[
        "--engine",
        &cmd,
        "args=uci --tune --variant suicide",
        "option.Hash=4",
        "--each",
        "nodes=700",
        "--param",
        "material.knight=282,-10000,10000",
        "--param",
        "material.queen=603,-10000,10000",
        "--out",
        path(&over_uci),
    ]);
    let text = ok_stdout(&varia(&args));
    let a = trace_table(&std::fs::read_to_string(&in_process).unwrap());
    let b = trace_table(&std::fs::read_to_string(&over_uci).unwrap());
    assert_eq!(a, b, "same schedule, games and rounding");
    assert!(
        a[1..]
            .iter()
            .any(|r| !r.starts_with("0,0,") && !r.contains(",0,")),
        "some iteration moved the weights: {a:?}"
    );
    assert!(
        text.contains("setoption name material.queen value "),
        "{text}"
    );
}

#[test]
fn uci_tune_offers_the_weights_of_the_variant_as_spin_options() {
    let queen = |default: i32| {
        format!("option name material.queen type spin default {default} min -10000 max 10000")
    };
    let plain = ok_stdout(&varia_with_stdin(&["uci"], "uci\nquit\n"));
    assert!(!plain.contains("material.queen"), "{plain}");
    // Chess plays its net by default: no weights to offer, the search's
    // settings still; `--eval classical` offers its classical weights.
    let net = ok_stdout(&varia_with_stdin(&["uci", "--tune"], "uci\nquit\n"));
    assert!(!net.contains("material.queen"), "{net}");
    assert!(net.contains("option name rfp_margin type spin"), "{net}");
    let ignored = ok_stdout(&varia_with_stdin(
        &["uci", "--tune"],
        "setoption name material.queen value 1000\nquit\n",
    ));
    assert!(
        ignored.contains("info string material.queen does nothing: the evaluation is a network"),
        "{ignored}"
    );
    let chess = ok_stdout(&varia_with_stdin(
        &["uci", "--tune", "--eval", "classical"],
        "uci\nquit\n",
    ));
    assert!(chess.contains(&queen(1213)), "{chess}");
    assert!(
        chess.contains("option name rfp_margin type spin default 90 min 0 max 1000"),
        "{chess}"
    );
    assert!(!chess.contains("option name lmr_base"), "{chess}");
    // The list follows the variant: at start, and after UCI_Variant.
    let suicide = ok_stdout(&varia_with_stdin(
        &["uci", "--tune", "--variant", "suicide"],
        "uci\nquit\n",
    ));
    assert!(suicide.contains(&queen(603)), "{suicide}");
    assert!(
        suicide.contains("option name UCI_Variant type combo default giveaway var chess"),
        "{suicide}"
    );
    let switched = ok_stdout(&varia_with_stdin(
        &["uci", "--tune", "--eval", "classical"],
        "setoption name UCI_Variant value giveaway\nuci\nquit\n",
    ));
    assert!(switched.contains(&queen(603)), "{switched}");
    // A weight set before UCI_Variant stays set when the variant's weights load.
    let kept = ok_stdout(&varia_with_stdin(
        &["uci", "--tune", "--eval", "classical"],
        "uci\nsetoption name material.queen value 1234\n\
         setoption name UCI_Variant value giveaway\nuci\nquit\n",
    ));
    assert!(
        kept.contains(&queen(1213)) && kept.contains(&queen(1234)),
        "{kept}"
    );
    // A term's option sets both halves, its `_eg` option the endgame half
    // alone, in whichever order they come.
    let queen_eg = |v: i32| {
        format!("option name material_eg.queen type spin default {v} min -10000 max 10000")
    };
    // Chess's endgame half of the queen is 1049 (the Texel fit).
    assert!(chess.contains(&queen_eg(1049)), "{chess}");
    for script in [
        "setoption name material_eg.queen value 1100\nsetoption name material.queen value 800\n",
        "setoption name material.queen value 800\nsetoption name material_eg.queen value 1100\n",
    ] {
        let halves = ok_stdout(&varia_with_stdin(
            &["uci", "--tune", "--eval", "classical"],
            &format!("{script}uci\nquit\n"),
        ));
        assert!(
            halves.contains(&queen(800)) && halves.contains(&queen_eg(1100)),
            "{halves}"
        );
    }
    let both = ok_stdout(&varia_with_stdin(
        &["uci", "--tune", "--eval", "classical"],
        "setoption name material.queen value 800\nuci\nquit\n",
    ));
    assert!(both.contains(&queen_eg(800)), "{both}");
    // Bad values are reported and the engine goes on.
    let bad = ok_stdout(&varia_with_stdin(
        &["uci", "--tune", "--eval", "classical"],
        "setoption name material.queen value 20000\nsetoption name rfp_margin value 5000\n\
         isready\nquit\n",
    ));
    assert!(
        bad.contains("info string error bad material.queen value \"20000\""),
        "{bad}"
    );
    assert!(
        bad.contains("\"rfp_margin\" = 5000 is out of range"),
        "{bad}"
    );
    assert!(bad.ends_with("readyok\n"), "{bad}");
    // Without --tune the weights are no options.
    let off = ok_stdout(&varia_with_stdin(
        &["uci"],
        "setoption name material.queen value 1\nquit\n",
    ));
    assert!(off.contains("unknown option \"material.queen\""), "{off}");
}

#[test]
fn search_settings_follow_the_variant_with_the_search_file_on_top() {
    let ext = |v: i32| format!("option name check_extension type spin default {v} min 0 max 1");
    let uci = |args: &[&str], script: &str| ok_stdout(&varia_with_stdin(args, script));
    // Atomic's defaults extend checks, chess's do not.
    let chess = uci(&["uci", "--tune"], "uci\nquit\n");
    assert!(chess.contains(&ext(0)), "{chess}");
    let atomic = uci(&["uci", "--tune", "--variant", "atomic"], "uci\nquit\n");
    assert!(atomic.contains(&ext(1)), "{atomic}");
    let switched = uci(
        &["uci", "--tune"],
        "setoption name UCI_Variant value atomic\nuci\nquit\n",
    );
    assert!(switched.contains(&ext(1)), "{switched}");
    // A SearchFile sets its fields on top of the variant's defaults, and is
    // read again for the new variant.
    let dir = tempfile::tempdir().unwrap();
    let margin = write_file(dir.path(), "margin.toml", "rfp_margin = 120\n");
    let off = write_file(dir.path(), "off.toml", "check_extension = 0\n");
    let script = |file: &Path| {
        format!(
            "setoption name SearchFile value {}\nsetoption name UCI_Variant value atomic\nuci\nquit\n",
            path(file)
        )
    };
    let kept = uci(&["uci", "--tune"], &script(&margin));
    assert!(
        kept.contains(&ext(1)) && kept.contains("option name rfp_margin type spin default 120 "),
        "{kept}"
    );
    let turned_off = uci(&["uci", "--tune"], &script(&off));
    assert!(turned_off.contains(&ext(0)), "{turned_off}");
}

#[test]
fn setoption_of_a_weight_changes_the_search() {
    // A queen up in chess: the score is about the queen's value.
    let score = |queen: &str| {
        let script = format!(
            "setoption name material.queen value {queen}\n\
             position fen 4k3/8/8/8/8/8/8/3QK3 w - - 0 1\ngo depth 1\n"
        );
        let out = uci_until_bestmove(&["uci", "--tune", "--eval", "classical"], &script);
        out.lines()
            .find(|l| l.starts_with("info depth 1 "))
            .and_then(|l| l.split(" score cp ").nth(1))
            .and_then(|s| s.split(' ').next())
            .and_then(|s| s.parse::<i32>().ok())
            .unwrap_or_else(|| panic!("no depth-1 score: {out}"))
    };
    let (default, heavy) = (score("900"), score("1500"));
    assert!(default > 800, "{default}");
    assert_eq!(heavy - default, 600);
}

#[test]
fn uci_eval_flag_starts_with_that_evaluation_or_refuses_a_bad_file() {
    let out = uci_until_bestmove(
        &["uci", "--eval", "classical"],
        "position startpos\ngo depth 1\n",
    );
    assert!(
        out.contains("info string evaluation: classical (built in)"),
        "{out}"
    );
    let o = varia_with_stdin(&["uci", "--eval", "/no/such.nnue"], "uci\nquit\n");
    assert_one_line_error(&o, &["/no/such.nnue"]);
}
