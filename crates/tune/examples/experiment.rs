//! The tuning experiment of `data/tuning/README.md` through the library,
//! without the command line: self-play data, and the SPRT of tuned weights
//! against the defaults with the in-process match runner.
//!
//! ```text
//! cargo run --release -p tune --example experiment -- datagen VARIANT GAMES NODES OUT.csv
//! cargo run --release -p tune --example experiment -- sprt VARIANT TUNED.toml NODES MAX_GAMES GAMES.csv
//! ```
//!
//! `datagen` writes exactly what `varia datagen --variant VARIANT --games
//! GAMES --nodes NODES --out OUT.csv` writes (the same settings line, so
//! either can resume the other's file). `sprt` plays TUNED against the
//! built-in weights, game pairs from 8-ply random openings (seed 1), until
//! the SPRT (elo0 0, elo1 10, alpha = beta = 0.05, logistic) decides or
//! MAX_GAMES are played; the per-game CSV resumes.
//!
//! `synthetic VARIANT N OUT.csv` writes N quiet positions from random
//! playouts labelled from the built-in weights (results drawn from the
//! sigmoid with K = 1): a large position file for timing `varia tune texel`.

use arena::{
    Adjudication, EngineConfig, InProcess, MatchConfig, MoveLimits, Player, PlayerError, Sprt,
};
use movegen::{dispatch_cold, VariantKind};
use search::{EvalParams, Evaluator};
use std::path::PathBuf;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let r = match args.first().map(String::as_str) {
        Some("datagen") if args.len() == 5 => datagen(&args[1..]),
        Some("sprt") if args.len() == 6 => sprt(&args[1..]),
        Some("synthetic") if args.len() == 4 => synthetic(&args[1..]),
        _ => Err("usage: experiment datagen VARIANT GAMES NODES OUT.csv | sprt VARIANT TUNED.toml NODES MAX_GAMES GAMES.csv | synthetic VARIANT N OUT.csv".into()),
    };
    if let Err(e) = r {
        eprintln!("error: {e}");
        std::process::exit(2);
    }
}

fn kind(s: &str) -> Result<VariantKind, String> {
    s.parse().map_err(|e| format!("{e}"))
}

fn num<T: std::str::FromStr>(s: &str) -> Result<T, String> {
    s.parse().map_err(|_| format!("bad number \"{s}\""))
}

fn threads() -> usize {
    search::settings::default_threads()
}

fn datagen(a: &[String]) -> Result<(), String> {
    let cfg = tune::datagen::DatagenConfig {
        variant: kind(&a[0])?,
        games: num(&a[1])?,
        limit: tune::datagen::SearchLimit::Nodes(num(&a[2])?),
        random_plies: tune::datagen::PlyRange::exactly(8),
        max_plies: 400,
        seed: 1,
        threads: threads(),
        hash_mb: 8,
        book: Vec::new(),
        book_name: "none".into(),
        evaluator: None,
        format: tune::datafile::Format::Csv,
        score_cap: 3000,
        win: None,
        shard: None,
    };
    let t = std::time::Instant::now();
    let mut last = 0;
    let r = tune::datagen::run(&cfg, &PathBuf::from(&a[3]), &mut |p| {
        if p.done >= last + 500 || p.done == p.total {
            last = p.done;
            eprintln!(
                "{}/{} games, {} positions this run, {:.0}s",
                p.done,
                p.total,
                p.positions,
                t.elapsed().as_secs_f64()
            );
        }
    })
    .map_err(|e| e.to_string())?;
    println!(
        "datagen: {}/{} games, {} played, {} positions in {:.1}s",
        r.done,
        r.total,
        r.played,
        r.positions,
        t.elapsed().as_secs_f64()
    );
    Ok(())
}

fn sprt(a: &[String]) -> Result<(), String> {
    let variant = kind(&a[0])?;
    let tuned = EvalParams::load(variant, &PathBuf::from(&a[1])).map_err(|e| e.to_string())?;
    let nodes: u64 = num(&a[2])?;
    let max_games: usize = num(&a[3])?;
    let out = PathBuf::from(&a[4]);
    let pairs = max_games.div_ceil(2);
    let openings: Vec<_> = (0..pairs)
        .map(|i| {
            dispatch_cold!(variant, V => tune::datagen::make_opening::<V>(&[], 8, 1, i as u64, 0)
                .map(|g| tune::datagen::to_opening(&g)))
        })
        .collect::<Result<_, _>>()
        .map_err(|e| e.to_string())?;
    let limits = MoveLimits {
        nodes: Some(nodes),
        ..MoveLimits::default()
    };
    let engines = vec![
        EngineConfig::in_process("tuned", limits),
        EngineConfig::in_process("default", limits),
    ];
    let mut cfg = MatchConfig::new(variant, engines, openings);
    cfg.schedule.games = Some(2 * pairs);
    cfg.concurrency = threads();
    cfg.adjudication = Adjudication {
        max_plies: 400,
        ..Adjudication::default()
    };
    cfg.summary = Some(out.with_extension("summary.csv"));
    cfg.out = Some(out);
    cfg.resume = true;
    cfg.sprt = Some(Sprt::logistic(0.0, 10.0));
    let default = EvalParams::default_for(variant);
    let factory = move |s: &EngineConfig| -> Result<Box<dyn Player>, PlayerError> {
        let p = if s.name == "tuned" { &tuned } else { &default };
        Ok(Box::new(InProcess::with_evaluator(
            &s.name,
            Evaluator::from(p.clone()),
            8,
        )))
    };
    let t = std::time::Instant::now();
    let report = arena::run(&cfg, &factory, &mut |p| {
        if p.done % 100 == 0 {
            if let (Some(s), Some((llr, lo, hi))) = (p.stats.first(), p.sprt) {
                eprintln!(
                    "{} games, {}, LLR {llr:.2} [{lo:.2}, {hi:.2}], {:.0}s",
                    p.done,
                    s.line(),
                    t.elapsed().as_secs_f64()
                );
            }
        }
    })
    .map_err(|e| e.to_string())?;
    for s in &report.stats {
        println!("{}", s.line());
        let e = s.elo();
        println!("elo {:+.1} [{:+.1}, {:+.1}] (95%)", e.elo, e.low, e.high);
    }
    println!(
        "sprt: {:?} after {} games ({} now) in {:.0}s",
        report.sprt, report.games, report.played, report.seconds
    );
    Ok(())
}

fn synthetic(a: &[String]) -> Result<(), String> {
    let variant = kind(&a[0])?;
    let n: usize = num(&a[1])?;
    let text = dispatch_cold!(variant, V => synthetic_text::<V>(n));
    std::fs::write(&a[2], text).map_err(|e| format!("{}: {e}", a[2]))?;
    println!("wrote {n} positions to {}", a[2]);
    Ok(())
}

fn synthetic_text<V: movegen::Variant>(n: usize) -> String {
    use rayon::prelude::*;
    let params = EvalParams::default_for(V::KIND);
    let per = 16;
    let lines: Vec<String> = (0..n.div_ceil(per))
        .into_par_iter()
        .flat_map_iter(|game| {
            let mut rng = tune::rng::stream(42, game as u64, 0);
            let mut pos = movegen::Position::<V>::startpos();
            let mut out = Vec::new();
            let mut tries = 0;
            while out.len() < per && tries < 2000 {
                tries += 1;
                let moves = pos.legal_moves();
                if pos.outcome().is_some() || moves.is_empty() {
                    pos = movegen::Position::<V>::startpos();
                    continue;
                }
                pos = pos.play_unchecked(moves[rng.below(moves.len())]);
                if pos.fullmove_number() > 4
                    && rng.below(3) == 0
                    && pos.outcome().is_none()
                    && !pos.is_check()
                    && !pos.has_capture()
                {
                    let white = if pos.turn().is_white() { 1 } else { -1 };
                    let s = (white * search::evaluate(&pos, &params)) as f64;
                    let p = 1.0 / (1.0 + 10f64.powf(-s / 400.0));
                    let r = match (rng.unit() < p, rng.unit() < p) {
                        (true, true) => "1",
                        (false, false) => "0",
                        _ => "0.5",
                    };
                    out.push(format!("{},{r}\n", pos.fen()));
                }
            }
            out
        })
        .collect();
    let mut s = String::from("fen,result\n");
    for l in lines.into_iter().take(n) {
        s.push_str(&l);
    }
    s
}
