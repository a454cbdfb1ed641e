//! `varia analyse`: search one position and print each iteration, then the
//! best move, its score (centipawns or mate in N moves, from the side to
//! move's view) and the principal variation in UCI and SAN.
//!
//! ```text
//! varia analyse --variant atomic --fen '<FEN>' --depth 10
//! varia analyse --variant chess --movetime 2000 --threads 2 --eval weights.toml
//! varia analyse --variant chess --depth 12 --search data/search/default.toml
//! ```
//!
//! Bad input (unknown variant, bad FEN, unreadable evaluation or search
//! settings file, no limit) is one `error: ...` line and exit code 2.

use anyhow::{bail, Context as _};
use movegen::{with_position, Position, Variant, VariantKind};
use search::score::UciScore;
use search::settings::{DEFAULT_HASH_MB, MAX_MOVETIME, MAX_SEARCH_DEPTH};
use search::{search, Evaluator, Info, Limits, SearchParams, Shared};
use std::io::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

/// Arguments of `varia analyse`.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[arg(long, help = crate::variant_arg::help(""))]
    variant: VariantKind,
    /// The position (default: the start position).
    #[arg(long)]
    fen: Option<String>,
    /// Search to this depth in plies.
    #[arg(
        long,
        required_unless_present = "movetime",
        conflicts_with = "movetime"
    )]
    depth: Option<u32>,
    /// Search for this many milliseconds.
    #[arg(long)]
    movetime: Option<u64>,
    /// Search threads.
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Transposition table size in MB.
    #[arg(long, default_value_t = DEFAULT_HASH_MB)]
    hash: usize,
    /// The evaluation: `default` (the game's embedded net where it has
    /// one, else the classical evaluation), `classical`, or a file for this
    /// game, a net or classical weights (an EvalParams TOML).
    #[arg(long, value_name = "default|classical|FILE")]
    eval: Option<String>,
    /// Search settings (a SearchParams TOML file; see docs/engine.md).
    #[arg(long, value_name = "FILE")]
    search: Option<PathBuf>,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    crate::resources::threads("--threads", Some(args.threads))?;
    crate::resources::hash_mb("--hash", args.hash)?;
    if args.depth == Some(0) || args.depth.is_some_and(|d| d > MAX_SEARCH_DEPTH) {
        bail!("--depth must be between 1 and {MAX_SEARCH_DEPTH}");
    }
    let max_ms = MAX_MOVETIME.as_millis();
    if let Some(ms) = args.movetime {
        if ms == 0 || u128::from(ms) > max_ms {
            bail!("--movetime must be between 1 and {max_ms} ms (one day), got {ms}");
        }
    }
    // The engine protocols' checks: a valid FEN with sane clocks.
    let game =
        search::protocol::new_game(args.variant, args.fen.as_deref()).with_context(|| {
            format!(
                "invalid FEN \"{}\" for {}",
                args.fen.as_deref().unwrap_or_default(),
                args.variant
            )
        })?;
    with_position!(&game, V, pos => analyse::<V>(&pos, &args))
}

fn analyse<V: Variant>(pos: &Position<V>, args: &Args) -> anyhow::Result<ExitCode> {
    let mut stdout = std::io::stdout();
    let evaluator = Evaluator::from_spec(V::KIND, args.eval.as_deref().unwrap_or("default"))?;
    let settings = SearchParams::load_or_default(V::KIND, args.search.as_deref())?;
    let limits = match (args.depth, args.movetime) {
        (Some(d), _) => Limits::depth(d),
        (None, Some(ms)) => Limits::movetime(Duration::from_millis(ms)),
        (None, None) => bail!("give --depth or --movetime"),
    };
    writeln!(stdout, "variant {}  fen {}", V::KIND.name(), pos.fen())?;
    if let Some(o) = pos.outcome() {
        writeln!(
            stdout,
            "game over: {} ({})",
            o.result_str(),
            o.description()
        )?;
        writeln!(stdout, "bestmove 0000")?;
        return Ok(ExitCode::SUCCESS);
    }
    let shared = Shared::new(args.hash);
    // A closed stdout stops the search; the error ends the run after it.
    let mut report_error = None;
    let mut report = |info: &Info| {
        if report_error.is_some() {
            return;
        }
        let written = writeln!(
            std::io::stdout(),
            "depth {:>2}  seldepth {:>2}  score {:>8}  nodes {:>10}  nps {:>8}  time {:>6} ms  pv {}",
            info.depth,
            info.seldepth,
            UciScore(info.score),
            info.nodes,
            info.nps(),
            info.time_ms,
            pos.san_line(&info.pv)
        );
        if let Err(e) = written {
            shared
                .stop
                .store(true, std::sync::atomic::Ordering::Relaxed);
            report_error = Some(e);
        }
    };
    let r = search(
        pos,
        &[],
        &limits,
        &evaluator,
        &settings,
        &shared,
        args.threads,
        &mut report,
    );
    if let Some(e) = report_error {
        return Err(e.into());
    }
    let Some(best) = r.best else {
        bail!("no move found");
    };
    let pv: Vec<String> = r.pv.iter().map(|m| m.uci()).collect();
    writeln!(stdout, "bestmove {}  ({})", best.uci(), pos.san(best))?;
    writeln!(stdout, "score {}", UciScore(r.score))?;
    writeln!(stdout, "depth {}  nodes {}", r.depth, r.nodes)?;
    writeln!(stdout, "pv {}", pv.join(" "))?;
    writeln!(stdout, "san {}", pos.san_line(&r.pv))?;
    Ok(ExitCode::SUCCESS)
}
