//! `varia datagen`: labelled positions (`fen,result` CSV) for tuning, from
//! self-play or from the games of a match (per-game CSV or PGN). The work is
//! in the `tune` crate ([`::tune::datagen`]); this module parses arguments,
//! shows progress and reports.

use crate::tune::bar;
use anyhow::{anyhow, bail};
use movegen::VariantKind;
use search::Evaluator;
use std::io::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

/// Arguments of `varia datagen`.
#[derive(clap::Args, Debug)]
#[command(after_help = "\
The output is CSV with a `fen,result` header (result: White's score 1, 0.5
or 0) after `#` comment lines naming the run's settings, and a `# game N`
comment after each game's positions. An interrupted self-play run continues
where it stopped when started again with the same settings (--games may
grow; other settings are refused, naming the first that differs).

Examples:
  varia datagen --variant suicide --games 20000 --nodes 500 --out suicide.csv
  varia datagen --variant threecheck --from games.csv --out positions.csv
  varia datagen --variant atomic --from games.pgn --skip-plies 8 --out positions.csv")]
pub struct Args {
    #[arg(long, help = crate::variant_arg::help(""))]
    variant: VariantKind,
    /// Output CSV (self-play resumes it if it exists).
    #[arg(long)]
    out: PathBuf,
    /// Extract positions from the games of this file instead of playing:
    /// a `varia match` per-game CSV, or PGN (.pgn).
    #[arg(long)]
    from: Option<PathBuf>,
    /// With a PGN --from: plies at the start of each game not to use (the opening).
    #[arg(long, default_value_t = 0)]
    skip_plies: usize,
    /// Self-play games wanted in the file.
    #[arg(long, default_value_t = 1000)]
    games: usize,
    /// Nodes per move.
    #[arg(long, default_value_t = 1000)]
    nodes: u64,
    /// Random plies played from the book position (or the start) before the engines take over.
    #[arg(long, default_value_t = 8)]
    random_plies: usize,
    /// Opening book: EPD/FEN lines (optionally with `moves ...`) or PGN.
    #[arg(long)]
    book: Option<PathBuf>,
    /// A game still going after this many plies is scored a draw (0: never,
    /// the game ends by the rules; as `varia match --max-plies`).
    #[arg(long, default_value_t = 400)]
    max_plies: usize,
    /// Seed of the openings.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The evaluation the games are played with: `classical` (the built-in
    /// one, the default) or a file, a net or classical weights in TOML.
    #[arg(long, value_name = "classical|FILE")]
    eval: Option<String>,
    /// Worker threads (default: all cores).
    #[arg(long)]
    threads: Option<usize>,
    /// Hash table of each side's engine, in MB (two per thread).
    #[arg(long, default_value_t = 8)]
    hash: usize,
    /// No progress bar.
    #[arg(long)]
    quiet: bool,
}

/// Runs `varia datagen`.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let mut stdout = std::io::stdout();
    let started = Instant::now();
    if let Some(from) = &args.from {
        let (games, skipped) = ::tune::datagen::from_games(from, args.variant, args.skip_plies)?;
        if games.iter().all(|g| g.fens.is_empty()) {
            bail!(
                "{}: no positions to take from finished {} games ({} games used, {skipped} skipped: another game, no result, or adjudicated noise)",
                from.display(),
                args.variant.name(),
                games.len()
            );
        }
        let comment = format!(
            "varia datagen variant={} from={}",
            args.variant.name(),
            from.display()
        );
        let n = ::tune::datagen::write_games(&args.out, &games, &comment)?;
        writeln!(
            stdout,
            "datagen: {} positions from {} games of {} ({} skipped) -> {} in {:.1}s",
            n,
            games.len(),
            from.display(),
            skipped,
            args.out.display(),
            started.elapsed().as_secs_f64()
        )?;
        return Ok(ExitCode::SUCCESS);
    }
    if args.games == 0 {
        bail!("--games must be at least 1");
    }
    if args.nodes == 0 {
        bail!("--nodes must be at least 1");
    }
    let book = match &args.book {
        Some(p) => arena::openings::load(p, args.variant).map_err(|e| anyhow!("{e}"))?,
        None => Vec::new(),
    };
    let evaluator = match args.eval.as_deref() {
        Some("classical") | None => None,
        Some(spec) => Some(Evaluator::from_spec(args.variant, spec)?),
    };
    let threads = crate::resources::threads("--threads", args.threads)?;
    let hash_mb = crate::resources::hash_mb("--hash", args.hash)?;
    // One table per thread: all of them must fit too.
    crate::resources::hash_mb("--hash times --threads", hash_mb.saturating_mul(threads))?;
    let cfg = ::tune::datagen::DatagenConfig {
        variant: args.variant,
        games: args.games,
        nodes: args.nodes,
        random_plies: args.random_plies,
        // 0 is "no limit", as in `varia match`.
        max_plies: if args.max_plies == 0 {
            usize::MAX
        } else {
            args.max_plies
        },
        seed: args.seed,
        threads,
        hash_mb,
        book,
        book_name: args
            .book
            .as_ref()
            .map_or("none".into(), |p| p.display().to_string()),
        evaluator,
    };
    let pb = bar(args.quiet, args.games as u64, "datagen", "games");
    let mut resumed = None;
    let report = ::tune::datagen::run(&cfg, &args.out, &mut |p| {
        if resumed.is_none() {
            resumed = Some(p.done);
            pb.set_position(p.done as u64);
            pb.reset_eta();
        }
        pb.set_position(p.done as u64);
        pb.set_message(format!("datagen, {} positions", p.positions));
    })?;
    pb.finish_and_clear();
    writeln!(
        stdout,
        "datagen: {}/{} games in {} ({} played now, {} positions written now) in {:.1}s",
        report.done,
        report.total,
        args.out.display(),
        report.played,
        report.positions,
        started.elapsed().as_secs_f64()
    )?;
    Ok(ExitCode::SUCCESS)
}
