//! `varia datagen`: labelled positions for Texel tuning (`fen,result` CSV)
//! and for training networks (`FEN | score | result` text, packed binary),
//! from self-play, or from the games of a match (per-game CSV or PGN). The work is
//! in the `tune` crate ([`::tune::datagen`]); this module parses arguments,
//! shows progress and reports.

use ::tune::datafile::Format;
use ::tune::datagen::{PlyRange, SearchLimit, WinRule};
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
Self-play keeps each position after the opening whose side to move is not in
check, whose chosen move is neither a capture nor a promotion, and whose search
score is no mate and at most --score-cap in magnitude. Formats (docs/datagen.md
gives them byte by byte):
  csv   `fen,result` (White's score 1, 0.5, 0) after `#` lines naming the run's
        settings, a `# game N` line after each game: Texel tuning
  text  `FEN | score | result` lines, score (cp) and result (1.0, 0.5, 0.0)
        from White's view, as network trainers' converters read
  bin   32-byte records after a 32-byte header (tune::packed)
The file is the same bytes at any --threads. An interrupted run continues when
started again with the same settings (--games may grow; other settings are
refused, naming the first that differs); text and bin keep the settings and the
progress in OUT.progress beside the data. Keep training data out of git
(/nnue-data/ is ignored).

Examples:
  varia datagen --variant chess --format bin --nodes 5000 --games 1000000 --out nnue-data/chess.bin
  varia datagen --variant chess --format bin --nodes 5000 --games 1000000 --shard 3/8 --out chess-3.bin
  varia datagen --variant suicide --games 20000 --nodes 500 --out suicide.csv
  varia datagen --variant threecheck --from games.csv --out positions.csv
  varia datagen --variant atomic --from games.pgn --skip-plies 8 --out positions.csv")]
pub struct Args {
    #[arg(long, help = crate::variant_arg::help(""))]
    variant: VariantKind,
    /// Output file (self-play resumes it if it holds part of the same run).
    #[arg(long)]
    out: PathBuf,
    /// Output format of self-play: csv, text or bin.
    #[arg(long, default_value = "csv")]
    format: Format,
    /// Extract positions from the games of this file instead of playing:
    /// a `varia match` per-game CSV, or PGN (.pgn). Writes csv.
    #[arg(long)]
    from: Option<PathBuf>,
    /// With a PGN --from: plies at the start of each game not to use (the opening).
    #[arg(long, default_value_t = 0)]
    skip_plies: usize,
    /// Self-play games of the whole run (all shards together).
    #[arg(long, default_value_t = 1000)]
    games: usize,
    /// Nodes per move (a hard limit: the search stops when they are spent).
    /// Default 5000 unless --depth is given.
    #[arg(long, conflicts_with = "depth")]
    nodes: Option<u64>,
    /// A fixed depth per move instead of a node budget.
    #[arg(long)]
    depth: Option<u32>,
    /// Random plies played from the book position (or the start) before the
    /// engines take over: N, or LO-HI drawn per game.
    #[arg(long, default_value = "8-12")]
    random_plies: PlyRange,
    /// Opening book: EPD/FEN lines (optionally with `moves ...`) or PGN.
    #[arg(long)]
    book: Option<PathBuf>,
    /// A game still going after this many plies is scored a draw (0: never,
    /// the game ends by the rules; as `varia match --max-plies`).
    #[arg(long, default_value_t = 400)]
    max_plies: usize,
    /// Positions whose search score is beyond this many centipawns either way are not kept.
    #[arg(long, default_value_t = 3000)]
    score_cap: i32,
    /// Win adjudication: the game is won once both sides' scores agree a
    /// side is ahead by at least this many centipawns for --win-plies plies (0: off).
    #[arg(long, default_value_t = 2500)]
    win_score: i32,
    /// Plies (even) the --win-score agreement must last.
    #[arg(long, default_value_t = 4)]
    win_plies: u32,
    /// Play only shard I of N: the games g with (g - 1) mod N = I - 1. The
    /// shards' files together hold the positions of the unsharded run.
    #[arg(long, value_name = "I/N")]
    shard: Option<String>,
    /// Seed of the openings.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The evaluation the games are played with: `default` (the game's
    /// embedded net where it has one, else the classical evaluation; the
    /// default), `classical`, or a file, a net or classical weights in TOML.
    #[arg(long, value_name = "default|classical|FILE")]
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
        if args.format != Format::Csv {
            bail!(
                "--from writes csv (games have no search scores): drop --format {}",
                args.format
            );
        }
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
    let limit = match (args.nodes, args.depth) {
        (_, Some(0)) => bail!("--depth must be at least 1"),
        (_, Some(d)) => SearchLimit::Depth(d),
        (Some(0), None) => bail!("--nodes must be at least 1"),
        (n, None) => SearchLimit::Nodes(n.unwrap_or(5000)),
    };
    if !(1..=search::MATE_BOUND).contains(&args.score_cap) {
        bail!(
            "--score-cap {} must be between 1 and {} (mate scores are never kept)",
            args.score_cap,
            search::MATE_BOUND
        );
    }
    let win = match args.win_score {
        0 => None,
        s if s < 0 => bail!("--win-score {s} must be positive (0: no win adjudication)"),
        score => {
            if args.win_plies < 2 || !args.win_plies.is_multiple_of(2) {
                bail!(
                    "--win-plies {} must be even and at least 2 (each side's scores count)",
                    args.win_plies
                );
            }
            Some(WinRule {
                score,
                plies: args.win_plies,
            })
        }
    };
    let shard = match &args.shard {
        Some(s) => Some(crate::match_cmd::parse_shard(s)?),
        None => None,
    };
    let book = match &args.book {
        Some(p) => arena::openings::load(p, args.variant).map_err(|e| anyhow!("{e}"))?,
        None => Vec::new(),
    };
    let evaluator = match args.eval.as_deref() {
        None => None,
        Some(spec) => Some(Evaluator::from_spec(args.variant, spec)?),
    };
    let threads = crate::resources::threads("--threads", args.threads)?;
    let hash_mb = crate::resources::hash_mb("--hash", args.hash)?;
    // Two tables per thread: all of them must fit too.
    crate::resources::hash_mb(
        "--hash times 2 --threads",
        hash_mb.saturating_mul(threads).saturating_mul(2),
    )?;
    let cfg = ::tune::datagen::DatagenConfig {
        variant: args.variant,
        games: args.games,
        limit,
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
        format: args.format,
        score_cap: args.score_cap,
        win,
        shard,
    };
    let total = cfg.shard_games().len() as u64;
    let style = crate::resources::progress_style(
        "{msg} [{elapsed_precise}] {wide_bar} {pos}/{len} games (ETA {eta})",
    );
    let pb =
        crate::resources::progress_bar(crate::resources::show_progress(args.quiet), total, style);
    let mut resumed: Option<(usize, Instant)> = None;
    let report = ::tune::datagen::run(&cfg, &args.out, &mut |p| {
        let (done0, t0) = *resumed.get_or_insert_with(|| {
            pb.set_position(p.done as u64);
            pb.reset_eta();
            (p.done, Instant::now())
        });
        pb.set_position(p.done as u64);
        let secs = t0.elapsed().as_secs_f64().max(1e-3);
        let rate = if p.done > done0 {
            format!("{:.0} positions/s", p.positions as f64 / secs)
        } else {
            "- positions/s".to_string()
        };
        pb.set_message(format!("datagen, {} positions, {rate}", p.file_positions));
    })?;
    pb.finish_and_clear();
    let in_file = match cfg.format {
        Format::Csv => String::new(),
        _ => format!(", {} in the file", report.file_positions),
    };
    writeln!(
        stdout,
        "datagen: {}/{} games in {} ({} played now, {} positions written now{in_file}) in {:.1}s",
        report.done,
        report.total,
        args.out.display(),
        report.played,
        report.positions,
        started.elapsed().as_secs_f64()
    )?;
    Ok(ExitCode::SUCCESS)
}
