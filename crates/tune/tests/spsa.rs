//! SPSA on a toy objective: it converges, and a run resumed from its trace
//! is identical to an uninterrupted one.

use tune::rng::hash3;
use tune::spsa::{run, SpsaConfig, SpsaParam};
use tune::trace::{TraceRow, TraceWriter};

const TARGET: [f64; 4] = [50.0, -30.0, 200.0, 0.0];
const START: [f64; 4] = [0.0, 0.0, 150.0, 40.0];

/// A noisy "game pair": each game is won by `plus` with probability
/// `sigmoid(f(plus) - f(minus))`, `f` a negative quadratic peaking at
/// TARGET; the result is wins minus losses (-1, 0 or 1 here).
fn toy(k: usize, plus: &[f64], minus: &[f64]) -> tune::Result<f64> {
    let f = |x: &[f64]| -> f64 {
        -x.iter()
            .zip(TARGET)
            .map(|(a, t)| ((a - t) / 20.0).powi(2))
            .sum::<f64>()
    };
    let p = 1.0 / (1.0 + (f(minus) - f(plus)).exp());
    let u = (hash3(99, k as u64, 1) >> 11) as f64 / (1u64 << 53) as f64;
    let v = (hash3(99, k as u64, 2) >> 11) as f64 / (1u64 << 53) as f64;
    Ok((u < p) as i32 as f64 + (v < p) as i32 as f64 - 1.0)
}

fn params() -> Vec<SpsaParam> {
    (0..4)
        .map(|j| SpsaParam {
            name: format!("w{j}"),
            c_end: 5.0,
            r_end: 0.05,
            min: -1000.0,
            max: 1000.0,
        })
        .collect()
}

#[test]
fn schedule_matches_the_fishtest_formulas() {
    let cfg = SpsaConfig::new(1000, 1);
    let p = &params()[0];
    // At the end c_k = c_end and a_k / c_k^2 = r_end.
    assert!((cfg.c_k(p, 999) - 5.0).abs() < 1e-9);
    assert!((cfg.a_k(p, 999) / 25.0 - 0.05).abs() < 1e-12);
    // At the start c = c_end * N^gamma, a = r_end c_end^2 (A+N)^alpha / (1+A)^alpha.
    assert!((cfg.c_k(p, 0) - 5.0 * 1000f64.powf(0.101)).abs() < 1e-9);
    let a0 = 0.05 * 25.0 * 1100f64.powf(0.602) / 101f64.powf(0.602);
    assert!((cfg.a_k(p, 0) - a0).abs() < 1e-9);
    // Perturbation signs are balanced and depend only on (seed, k, j).
    let plus = (0..1000).filter(|&k| cfg.delta(k, 0) > 0.0).count();
    assert!((400..600).contains(&plus), "{plus}");
    assert_eq!(cfg.delta(17, 3), SpsaConfig::new(5, 1).delta(17, 3));
}

#[test]
fn converges_on_a_toy_objective() {
    let cfg = SpsaConfig::new(3000, 7);
    let theta = run(&params(), &cfg, &START, 0, &mut toy, &mut |_| Ok(())).unwrap();
    for (j, (got, want)) in theta.iter().zip(TARGET).enumerate() {
        assert!(
            (got - want).abs() < 8.0,
            "w{j}: {got:.2} vs {want} (all {theta:?})"
        );
    }
}

#[test]
fn resumed_trace_equals_uninterrupted() {
    let dir = tempfile::tempdir().unwrap();
    let names: Vec<String> = params().iter().map(|p| p.name.clone()).collect();
    let cfg = SpsaConfig::new(400, 3);
    let identity = arena::RunIdentity::new().with("seed", 7);
    let row0 = TraceRow {
        iteration: 0,
        metric: 0.0,
        values: START.to_vec(),
    };

    let whole = dir.path().join("whole.csv");
    let mut w = TraceWriter::create(&whole, "result", &names, &identity).unwrap();
    w.write(&row0).unwrap();
    run(&params(), &cfg, &START, 0, &mut toy, &mut |r| w.write(r)).unwrap();
    drop(w);

    // First half: an objective that fails at iteration 200, like a crash.
    let split = dir.path().join("split.csv");
    let mut w = TraceWriter::create(&split, "result", &names, &identity).unwrap();
    w.write(&row0).unwrap();
    let mut stop_at_200 = |k: usize, p: &[f64], m: &[f64]| {
        if k == 200 {
            Err(tune::Error::Callback("interrupted".into()))
        } else {
            toy(k, p, m)
        }
    };
    let e = run(&params(), &cfg, &START, 0, &mut stop_at_200, &mut |r| {
        w.write(r)
    });
    assert!(e.is_err());
    drop(w);
    // A half-written row from the crash.
    std::fs::OpenOptions::new()
        .append(true)
        .open(&split)
        .and_then(|mut f| std::io::Write::write_all(&mut f, b"201,1,3.5"))
        .unwrap();

    let (mut w, trace) = TraceWriter::resume(&split, "result", &names, &identity).unwrap();
    let last = trace.rows.last().unwrap().clone();
    assert_eq!(last.iteration, 200);
    run(
        &params(),
        &cfg,
        &last.values,
        last.iteration,
        &mut toy,
        &mut |r| w.write(r),
    )
    .unwrap();
    drop(w);
    assert_eq!(
        std::fs::read_to_string(&whole).unwrap(),
        std::fs::read_to_string(&split).unwrap()
    );
    // Other columns, or another run, are refused.
    assert!(TraceWriter::resume(&split, "result", &names[..3], &identity).is_err());
    let other = identity.clone().with("seed", 8);
    let e = TraceWriter::resume(&split, "result", &names, &other).unwrap_err();
    assert!(
        e.to_string().contains("its seed is 7, this run's is 8"),
        "{e}"
    );
}
