//! `varia bench`: the engine's bench ([`search::bench`]: a fixed set of
//! positions per game searched to a fixed depth), reported per position with
//! speed (the slider lookup and vector code chosen for this CPU, then
//! `N nodes M nps`, at the end), or with `--signature` as the node
//! counts of `data/bench.txt` (`make bench-signature`), which
//! `crates/cli/tests/cli_bench.rs` checks. `varia uci` answers `bench` with
//! the same signature. Each game plays its default evaluation (its
//! embedded net where it has one, else the classical one);
//! `--eval classical` benches every game's classical evaluation, so the two
//! runs give the nodes/s of both, and `--eval FILE --variant GAME` another
//! evaluation of one game (a net, or classical weights). The signature is
//! the default evaluations' alone.

use anyhow::bail;
use movegen::VariantKind;
use search::bench::{
    run_game, BenchRun, Signature, DEFAULT_DEPTH, HASH_MB, MAX_DEPTH, SIGNATURE_DEPTH,
};
use search::score::UciScore;
use search::{EvalChoice, Evaluator};
use std::io::Write as _;
use std::process::ExitCode;
use std::time::Duration;

/// Arguments of `varia bench`.
#[derive(clap::Args, Debug)]
#[command(after_help = "\
Examples:
  varia bench                          all six games, default depth, one thread
  varia bench --variant atomic --depth 10
  varia bench --signature > data/bench.txt   (what `make bench-signature` does)
  varia bench --eval classical         every game with its classical evaluation
  varia bench --variant chess --eval chess-128.nnue   (nodes/s with a net)")]
pub struct Args {
    #[arg(long, help = crate::variant_arg::help("Without it, every game."))]
    variant: Option<VariantKind>,
    /// Search depth in plies (default 10; with --signature, 7).
    #[arg(long)]
    depth: Option<u32>,
    /// Search threads (node counts are reproducible only with 1).
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Transposition table size in MB (part of the signature).
    #[arg(long, default_value_t = HASH_MB)]
    hash: usize,
    /// Print only the node counts per game and the total, in the format of
    /// data/bench.txt.
    #[arg(long)]
    signature: bool,
    /// The evaluation: `default` (each game's: its embedded net where it
    /// has one, else the classical one), `classical`, or a file, a net or
    /// classical weights in TOML, for the game of --variant.
    #[arg(long, value_name = "default|classical|FILE", default_value = "default")]
    eval: String,
}

/// Runs `varia bench`.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let mut stdout = std::io::stdout();
    let depth = args.depth.unwrap_or(if args.signature {
        SIGNATURE_DEPTH
    } else {
        DEFAULT_DEPTH
    });
    if !(1..=MAX_DEPTH).contains(&depth) {
        bail!("--depth must be between 1 and {MAX_DEPTH}, got {depth}");
    }
    crate::resources::threads("--threads", Some(args.threads))?;
    crate::resources::hash_mb("--hash", args.hash)?;
    let choice = EvalChoice::parse(&args.eval);
    if choice != EvalChoice::Default && args.signature {
        bail!("--signature is the default evaluations': leave out --eval {choice}");
    }
    let evaluators: Vec<Evaluator> = match (args.variant, &choice) {
        (Some(k), choice) => vec![Evaluator::choose(k, choice)?],
        (None, EvalChoice::File(_)) => {
            bail!("--eval {choice} needs --variant (an evaluation file is for one game)")
        }
        (None, choice) => VariantKind::ALL
            .into_iter()
            .map(|k| Evaluator::choose(k, choice))
            .collect::<Result<_, _>>()?,
    };
    let mut games = Vec::new();
    let mut total_nodes = 0u64;
    let mut total_time = Duration::ZERO;
    // A closed stdout is an error of the run, reported after the game.
    let mut write_error: Option<std::io::Error> = None;
    for evaluator in &evaluators {
        let kind = evaluator.variant();
        if !args.signature {
            writeln!(stdout, "{:<10}  evaluation: {evaluator}", kind.name())?;
        }
        let run = BenchRun {
            depth,
            threads: args.threads,
            hash_mb: args.hash,
        };
        let game = run_game(evaluator, run, &mut |p| {
            if !args.signature && write_error.is_none() {
                let written = writeln!(
                    std::io::stdout(),
                    "{:<10}  {}/{}  depth {depth}  nodes {:>10}  time {:>6} ms  nps {:>9}  best {:<6} score {}",
                    p.kind.name(),
                    p.number,
                    p.of,
                    p.nodes,
                    p.time.as_millis(),
                    (p.nodes as f64 / p.time.as_secs_f64().max(1e-6)) as u64,
                    p.best.map_or("0000".to_string(), |m| m.uci()),
                    UciScore(p.score),
                );
                write_error = written.err();
            }
        })?;
        if let Some(e) = write_error.take() {
            return Err(e.into());
        }
        total_nodes += game.nodes;
        total_time += game.time;
        if !args.signature {
            writeln!(
                stdout,
                "{:<10}  total  nodes {}  time {} ms",
                kind.name(),
                game.nodes,
                game.time.as_millis()
            )?;
        }
        games.push((kind, game.nodes));
    }
    if args.signature {
        let signature = Signature {
            depth,
            hash_mb: args.hash,
            games,
        };
        write!(stdout, "{signature}")?;
    } else {
        let nps = (total_nodes as f64 / total_time.as_secs_f64().max(1e-6)) as u64;
        // What the speed depends on besides the code: the instructions
        // chosen at run time for this CPU.
        writeln!(stdout, "cpu         {}", movegen::cpu::summary())?;
        writeln!(stdout, "{total_nodes} nodes {nps} nps")?;
    }
    Ok(ExitCode::SUCCESS)
}
