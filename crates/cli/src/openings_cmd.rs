//! `varia openings`: a balanced opening book for matches. Random lines of a
//! few plies from the start position are kept only when a shallow search of
//! the position they reach finds it near balanced (|score| below a margin
//! for the side to move), and only once each. The output is, by default,
//! one FEN a line (the position each line reaches), with no comment line:
//! cutechess-cli and fastchess read such a file as a `format=epd` book as
//! it is, and so does `varia match`. `--format lines` writes varia's own
//! `START_FEN moves m1 m2 ...` form instead (the line in UCI, which only
//! varia reads; it keeps the line's positions as repetition history).
//!
//! The result depends only on the arguments: candidates are drawn from a
//! seeded generator in a fixed order, every search is single-threaded with a
//! freshly cleared table, and candidates are accepted in draw order however
//! many threads evaluate them.
//!
//! `--from BOOK` skips the generation and rewrites an existing book (FEN or
//! `FEN moves ...` lines, or PGN, as `varia match` reads them) in
//! `--format`: books of lines (as older versions wrote them, under a `#`
//! comment line, which cutechess-cli rejects) become books of the positions
//! the lines reach.

use anyhow::{anyhow, bail, Context as _};
use arena::openings::random_line;
use movegen::{dispatch_cold, with_position, Game, Position, SplitMix64, VariantGame, VariantKind};
use rayon::prelude::*;
use search::{Evaluator, Limits, Shared};
use std::collections::HashSet;
use std::io::{IsTerminal as _, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Node cap of each balance search (keeps a pathological position from
/// stalling the run; the cap is deterministic with one thread).
const MAX_NODES: u64 = 3_000_000;
/// Candidates drawn per opening wanted before giving up.
const MAX_TRIES_PER_OPENING: usize = 2000;

/// Output format.
#[derive(clap::ValueEnum, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum OutputFormat {
    /// The FEN of the position reached, one a line: an EPD book for
    /// cutechess-cli, fastchess and varia (`epd` is the same).
    #[default]
    #[value(alias = "epd")]
    Fen,
    /// `START_FEN moves m1 m2 ...`, which only varia reads.
    Lines,
}

/// Arguments of `varia openings`.
#[derive(clap::Args, Debug, Clone)]
#[command(after_help = "\
Examples:
  varia openings --variant suicide --plies 8 --count 300 --seed 1 > data/openings/suicide.epd
  varia openings --variant atomic --depth 8 --margin 30 --format lines --out atomic-lines.txt
  varia openings --variant suicide --from old-lines-book.epd --out suicide.epd")]
pub struct Args {
    #[arg(long, value_name = "VARIANT", help = crate::variant_arg::help(""))]
    pub variant: VariantKind,

    /// Random plies from the start position.
    #[arg(long, value_name = "P", default_value_t = 8)]
    pub plies: u32,

    /// Openings wanted.
    #[arg(long, value_name = "N", default_value_t = 300)]
    pub count: usize,

    /// Seed of the random lines.
    #[arg(long, value_name = "S", default_value_t = 1)]
    pub seed: u64,

    /// Depth of the balance search.
    #[arg(long, value_name = "D", default_value_t = 7)]
    pub depth: u32,

    /// Keep a line when |score| < CP centipawns for the side to move.
    #[arg(long, value_name = "CP", default_value_t = 50)]
    pub margin: i32,

    /// Output lines: `fen` (the position reached; an EPD book for
    /// cutechess-cli and fastchess; `epd` is the same) or `lines` (start
    /// FEN, `moves`, the line, which only varia reads).
    #[arg(long, value_enum, default_value_t = OutputFormat::Fen)]
    pub format: OutputFormat,

    /// Rewrite this book (EPD/FEN lines, or PGN if it ends in `.pgn`) in
    /// `--format` instead of generating one; the generation options are
    /// then not allowed.
    #[arg(long, value_name = "BOOK", conflicts_with_all = ["plies", "count", "seed", "depth", "margin", "threads"])]
    pub from: Option<PathBuf>,

    /// Write to FILE instead of stdout.
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,

    /// Worker threads (default: all cores).
    #[arg(long, value_name = "T")]
    pub threads: Option<usize>,

    /// No statistics on stderr.
    #[arg(long)]
    pub quiet: bool,
}

/// Draws candidate `index`: `plies` uniformly random legal moves of game
/// `kind` from its start position, `None` if the game ends on the way. The
/// stream (seeded from `seed` and `index`, first output skipped) and the
/// modulo choice are what the books in `data/openings` were drawn with.
fn draw(kind: VariantKind, seed: u64, index: u64, plies: u32) -> Option<VariantGame> {
    let mut rng = SplitMix64::new(seed ^ index.wrapping_mul(0xD1B5_4A32_D192_ED03));
    rng.next_u64();
    let mut choose = |n: usize| (rng.next_u64() % n as u64) as usize;
    dispatch_cold!(kind, V => {
        let start = Game::new(Position::<V>::startpos());
        random_line(start, plies as usize, &mut choose).map(VariantGame::from)
    })
}

/// Score of the candidate's final position for the side to move, with the
/// line's positions as the repetition history.
fn balance(c: &VariantGame, depth: u32, evaluator: &Evaluator, shared: &mut Shared) -> i32 {
    shared.clear();
    let limits = Limits {
        depth: Some(depth),
        nodes: Some(MAX_NODES),
        ..Limits::default()
    };
    with_position!(c, V, pos => {
        search::search::<V>(
            &pos,
            c.history_keys(),
            &limits,
            evaluator,
            &search::SearchParams::default_for(<V as movegen::Variant>::KIND),
            shared,
            1,
            &mut |_| {},
        )
        .score
    })
}

/// One book line in `format` (a position without moves is its FEN in
/// either).
fn book_line(game: &VariantGame, format: OutputFormat) -> String {
    match format {
        OutputFormat::Lines if !game.uci_moves().is_empty() => format!(
            "{} moves {}\n",
            game.start_fen(),
            game.uci_moves().join(" ")
        ),
        OutputFormat::Lines | OutputFormat::Fen => format!("{}\n", game.fen()),
    }
}

/// Writes `text` to `--out` or stdout.
fn write_book(out: Option<&PathBuf>, text: &str) -> anyhow::Result<()> {
    match out {
        Some(p) => std::fs::write(p, text).map_err(|e| anyhow!("{}: {e}", p.display()))?,
        None => {
            let mut out = std::io::stdout().lock();
            out.write_all(text.as_bytes())?;
            out.flush()?;
        }
    }
    Ok(())
}

/// Prints `line` to stderr unless `--quiet`, or the book itself went to a
/// terminal (where the line would land in the middle of it).
fn report(args: &Args, line: impl FnOnce() -> String) {
    if !args.quiet && (args.out.is_some() || !std::io::stdout().is_terminal()) {
        eprintln!("{}", line());
    }
}

/// `varia openings --from BOOK`: the book's openings, in order, in `--format`.
fn convert(args: &Args, book: &Path) -> anyhow::Result<ExitCode> {
    let kind = args.variant;
    let openings = arena::openings::load(book, kind).map_err(|e| anyhow!("{e}"))?;
    // No comment line: cutechess-cli takes it for a bad FEN.
    let mut text = String::new();
    for o in &openings {
        // `load` has checked every line, so this cannot fail on its output;
        // the error still names the entry rather than panicking.
        let game = VariantGame::from_uci_moves(kind, Some(&o.fen), &o.moves)
            .map_err(|e| anyhow!("{}: opening \"{}\": {e}", book.display(), o.describe()))?;
        text.push_str(&book_line(&game, args.format));
    }
    write_book(args.out.as_ref(), &text)?;
    report(args, || {
        format!(
            "{}: {} openings of {}",
            kind.name(),
            openings.len(),
            book.display()
        )
    });
    Ok(ExitCode::SUCCESS)
}

/// Runs `varia openings`.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    if let Some(book) = &args.from {
        return convert(&args, book);
    }
    let kind = args.variant;
    if !(1..=40).contains(&args.plies) {
        bail!("--plies {}: expected 1 to 40", args.plies);
    }
    if !(1..=1_000_000).contains(&args.count) {
        bail!("--count {}: expected 1 to 1000000", args.count);
    }
    if !(1..=30).contains(&args.depth) {
        bail!("--depth {}: expected 1 to 30", args.depth);
    }
    if args.margin <= 0 {
        bail!(
            "--margin {}: expected a positive number of centipawns",
            args.margin
        );
    }
    let threads = crate::resources::threads("--threads", args.threads)?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .context("starting worker threads")?;
    let evaluator = Evaluator::default_for(kind);
    let batch = 64 * threads;
    let mut seen: HashSet<u64> = HashSet::new();
    let mut kept: Vec<VariantGame> = Vec::new();
    let (mut drawn, mut searched) = (0u64, 0usize);
    let limit = args.count.saturating_mul(MAX_TRIES_PER_OPENING) as u64;
    while kept.len() < args.count {
        if drawn >= limit {
            bail!(
                "only {} of {} openings found in {drawn} random lines: try a larger --margin or fewer --plies",
                kept.len(),
                args.count
            );
        }
        let mut cands = Vec::new();
        while cands.len() < batch && drawn < limit {
            let c = draw(kind, args.seed, drawn, args.plies);
            drawn += 1;
            if let Some(c) = c {
                if seen.insert(c.key()) {
                    cands.push(c);
                }
            }
        }
        searched += cands.len();
        let scores: Vec<i32> = pool.install(|| {
            cands
                .par_iter()
                .map_init(
                    || Shared::new(1),
                    |shared, c| balance(c, args.depth, &evaluator, shared),
                )
                .collect()
        });
        for (c, s) in cands.into_iter().zip(scores) {
            if kept.len() < args.count && s.abs() < args.margin {
                kept.push(c);
            }
        }
    }

    // No comment line: cutechess-cli takes it for a bad FEN.
    let mut text = String::new();
    for c in &kept {
        text.push_str(&book_line(c, args.format));
    }
    write_book(args.out.as_ref(), &text)?;
    report(&args, || {
        format!(
            "{}: kept {} of {searched} distinct random {}-ply lines ({drawn} drawn), |score| < {} cp at depth {}",
            kind.name(),
            kept.len(),
            args.plies,
            args.margin,
            args.depth
        )
    });
    Ok(ExitCode::SUCCESS)
}
