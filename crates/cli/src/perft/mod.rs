//! `varia perft`: count legal move sequences.
//!
//! Four modes, chosen from the arguments:
//!
//! * positions (the default): one position (`--variant`, optionally `--fen`)
//!   or every variant's start position (no `--variant`), depths 1..N as a
//!   table or CSV, or a divide (`--divide`) of depth N; with `--stats` the
//!   detailed counts ([`movegen::PerftStats`]), with `--hash SIZE` through a
//!   transposition table ([`count`]), with `--checkpoint FILE` resumable
//!   ([`checkpoint`], [`resumable`]);
//! * shard (`--split-depth K --shard I/N`): shard I of N of the subtrees K
//!   plies deep ([`subtrees`]), written as a part file ([`part`]) for
//!   `varia perft-merge`;
//! * suite (`--suite FILE`): every row of a `variant,fen,depth,nodes` file,
//!   checked against the expected count.
//!
//! The work is split at the root and the second ply and run on a local rayon
//! pool ([`parallel`]); output formatting lives in [`report`], the progress
//! bar in [`progress`], the suite in [`suite`].

pub(crate) mod checkpoint;
pub(crate) mod count;
pub(crate) mod parallel;
pub(crate) mod part;
pub(crate) mod progress;
pub(crate) mod report;
pub(crate) mod resumable;
pub(crate) mod subtrees;
mod suite;

pub use parallel::{perft_divide_parallel, SplitConfig};

use anyhow::{anyhow, bail, Context as _};
use count::HashTable;
use movegen::{
    with_position, PerftStats, Position, StatColumns, Variant, VariantGame, VariantKind,
};
use parallel::{divide_counts, perft_counts, Workers};
use progress::{Progress, Units};
use report::{DepthRow, Reporter};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;
use subtrees::ShardSpec;

/// Depth used when `--depth` is not given.
pub const DEFAULT_DEPTH: u32 = 5;
/// The deepest perft accepted (node counts overflow 64 bits not far beyond,
/// and nothing that deep would finish anyway).
pub const MAX_DEPTH: u32 = 20;

/// How results are written to stdout.
#[derive(clap::ValueEnum, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Format {
    /// Aligned, human-readable columns.
    #[default]
    Table,
    /// Comma-separated values with a header row.
    Csv,
}

/// Arguments of `varia perft`.
#[derive(clap::Args, Debug, Default, Clone)]
#[command(after_help = "\
Examples:
  varia perft                                   every variant's start position, depths 1-5
  varia perft --variant atomic --depth 6        atomic start position, depths 1-6
  varia perft --variant chess --fen 'r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1' --depth 4 --divide
  varia perft --variant losers --depth 5 --format csv --threads 1
  varia perft --variant chess --depth 5 --stats --format csv
  varia perft --variant chess --depth 8 --hash 1G --checkpoint chess8.ckpt
  varia perft --variant atomic --depth 7 --split-depth 3 --shard 2/8 --out part2.csv
  varia perft-merge part*.csv --format csv
  varia perft --suite data/perft/perft_public.csv --out results.csv")]
pub struct Args {
    #[arg(
        long,
        value_name = "VARIANT",
        help = crate::variant_arg::help("Without it, every game's start position is counted.")
    )]
    pub variant: Option<VariantKind>,

    /// Position to count (default: the variant's start position).
    #[arg(long, value_name = "FEN", requires = "variant")]
    pub fen: Option<String>,

    /// Count depths 1 to N (default 5; at most 20).
    #[arg(long, value_name = "N")]
    pub depth: Option<u32>,

    /// Print each root move with its count at depth N, then the total.
    #[arg(long)]
    pub divide: bool,

    /// Worker threads (default: all cores; 1 gives the single-thread figure).
    #[arg(long, value_name = "T")]
    pub threads: Option<usize>,

    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Table)]
    pub format: Format,

    /// No progress bar.
    #[arg(long)]
    pub quiet: bool,

    /// Detailed counts over the leaf moves: captures, en passant, castles,
    /// promotions, checks, discovered and double checks, checkmates,
    /// stalemates, variant wins (empty where the game has no such thing).
    #[arg(long)]
    pub stats: bool,

    /// Transposition table of SIZE for perft subtrees, shared by all threads
    /// (bytes, or with K, M, G: 512M, 1G). Same counts as without.
    #[arg(long, value_name = "SIZE")]
    pub hash: Option<String>,

    /// Record finished subtrees in FILE; a run restarted with the same
    /// arguments resumes from it (needs --variant).
    #[arg(long, value_name = "FILE")]
    pub checkpoint: Option<PathBuf>,

    /// Split the tree into subtrees K plies deep (1 <= K < depth): for
    /// --shard and --checkpoint (default 3 there), else the parallel split.
    #[arg(long, value_name = "K")]
    pub split_depth: Option<u32>,

    /// Count only shard I of N (1 <= I <= N) of the subtrees below
    /// --split-depth at --depth, writing a part file for `varia perft-merge`
    /// to stdout or --out.
    #[arg(long, value_name = "I/N")]
    pub shard: Option<String>,

    /// Check every row of a CSV file `variant,fen,depth,nodes` (with header);
    /// exits 1 if any count differs.
    #[arg(
        long,
        value_name = "FILE",
        conflicts_with_all = [
            "variant", "fen", "depth", "divide", "format", "stats", "hash",
            "checkpoint", "split_depth", "shard"
        ]
    )]
    pub suite: Option<PathBuf>,

    /// With --suite: write `variant,fen,depth,nodes,expected,ok` rows to FILE;
    /// with --shard: write the part file to FILE.
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
}

/// Validated settings shared by every mode.
pub(crate) struct Settings {
    /// The pool every perft runs on.
    pub pool: rayon::ThreadPool,
    /// Show a progress bar on long runs.
    pub progress: bool,
    /// `--quiet`: no progress bar, no notes on stderr.
    pub quiet: bool,
    /// How work is split between threads.
    pub split: SplitConfig,
    /// `--split-depth`.
    pub split_depth: Option<u32>,
    /// `--stats`.
    pub stats: bool,
    /// `--hash`, in bytes.
    pub hash: Option<usize>,
}

impl Settings {
    pub(crate) fn from_args(args: &Args) -> anyhow::Result<Settings> {
        let hash = match &args.hash {
            None => None,
            Some(text) => {
                let bytes = count::parse_size(text).map_err(|e| anyhow!("--hash: {e}"))?;
                let bytes = search::settings::check_hash_bytes(bytes as u64)
                    .map_err(|e| anyhow!("--hash {text}: {e}"))?;
                Some(bytes)
            }
        };
        let threads = crate::resources::threads("--threads", args.threads)?;
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .thread_name(|i| format!("perft-{i}"))
            .build()
            .with_context(|| format!("cannot start {threads} worker threads"))?;
        Ok(Settings {
            pool,
            progress: crate::resources::show_progress(args.quiet),
            quiet: args.quiet,
            split: match args.split_depth {
                Some(k) => SplitConfig::fixed(k),
                None => SplitConfig::for_threads(threads),
            },
            split_depth: args.split_depth,
            stats: args.stats,
            hash,
        })
    }

    /// A fresh transposition table for one position's run, if hashing.
    pub fn table(&self) -> Option<HashTable> {
        self.hash.map(|bytes| HashTable::new(self.stats, bytes))
    }

    /// A progress bar over `len` units (hidden unless enabled and the run
    /// lasts more than a second).
    pub fn progress(&self, len: u64, units: Units, message: String) -> Progress {
        Progress::new(self.progress, len, units, message)
    }

    /// The settings' pool and split, ticking `progress`: where their
    /// parallel counts run.
    pub(crate) fn workers<'a>(&'a self, progress: &'a Progress) -> Workers<'a> {
        Workers {
            pool: &self.pool,
            split: self.split,
            progress,
        }
    }
}

/// A divide with moves in UCI text, sorted.
pub(crate) fn sorted_uci<T>(moves: Vec<(movegen::Move, T)>) -> Vec<(String, T)> {
    let mut moves: Vec<(String, T)> = moves.into_iter().map(|(m, n)| (m.uci(), n)).collect();
    moves.sort_by(|a, b| a.0.cmp(&b.0));
    moves
}

/// Runs `varia perft` (also `varia` with no arguments).
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    if let Some(path) = &args.suite {
        let rows = suite::load(path)?;
        let settings = Settings::from_args(&args)?;
        return suite::run(path, &rows, args.out.as_deref(), &settings);
    }
    // Check everything the user typed before starting threads or work.
    let depth = match args.depth {
        None => DEFAULT_DEPTH,
        Some(0) => bail!("--depth must be at least 1"),
        Some(d) if d > MAX_DEPTH => {
            bail!("--depth {d} is too deep (at most {MAX_DEPTH})")
        }
        Some(d) => d,
    };
    let shard = match &args.shard {
        None => None,
        Some(text) => Some(
            text.parse::<ShardSpec>()
                .map_err(|e| anyhow!("--shard: {e}"))?,
        ),
    };
    if let Some(k) = args.split_depth {
        if k == 0 {
            bail!("--split-depth must be at least 1");
        }
        if k >= depth {
            bail!("--split-depth {k} must be less than --depth {depth}");
        }
    }
    if shard.is_some() {
        if args.variant.is_none() {
            bail!("--shard needs --variant (one position per split run)");
        }
        if args.split_depth.is_none() {
            bail!("--shard needs --split-depth K (the same K for every shard)");
        }
        if args.divide {
            bail!("--shard cannot be combined with --divide");
        }
    }
    if args.checkpoint.is_some() && args.variant.is_none() {
        bail!("--checkpoint needs --variant (one position per checkpoint file)");
    }
    if args.out.is_some() && shard.is_none() {
        bail!("--out needs --suite or --shard");
    }
    // The positions to count, each FEN parsed once, before any output.
    let games: Vec<VariantGame> = match args.variant {
        None => VariantKind::ALL
            .iter()
            .map(|&kind| VariantGame::new(kind))
            .collect(),
        Some(kind) => {
            let game = match &args.fen {
                None => VariantGame::new(kind),
                Some(fen) => VariantGame::from_fen(kind, fen)
                    .with_context(|| format!("invalid --fen for {kind}"))?,
            };
            vec![game]
        }
    };
    let settings = Settings::from_args(&args)?;
    if let (Some(shard), Some(split), [game]) = (shard, args.split_depth, games.as_slice()) {
        with_position!(game, V, pos => {
            resumable::run_shard(
                &pos,
                depth,
                split,
                shard,
                &settings,
                args.checkpoint.as_deref(),
                args.out.as_deref(),
            )?;
        });
        return Ok(ExitCode::SUCCESS);
    }
    let mut reporter = report::new(
        args.format,
        args.divide,
        args.stats,
        std::io::stdout().lock(),
    )?;
    for game in &games {
        with_position!(game, V, pos => {
            let pos = &pos;
            match &args.checkpoint {
                Some(path) => resumable::run_position_checkpointed(
                    pos,
                    depth,
                    args.divide,
                    &settings,
                    path,
                    reporter.as_mut(),
                )?,
                None => run_position(pos, depth, args.divide, &settings, reporter.as_mut())?,
            }
        });
    }
    reporter.finish()?;
    Ok(ExitCode::SUCCESS)
}

/// Ends a depth's `progress` and reports the counts below each root move,
/// `moves` (UCI, sorted), as the divide of `depth`, timed from `start`.
pub(crate) fn report_divide<V: Variant>(
    reporter: &mut dyn Reporter,
    progress: &Progress,
    start: Instant,
    fen: &str,
    depth: u32,
    moves: &[(String, PerftStats)],
) -> anyhow::Result<()> {
    let seconds = start.elapsed().as_secs_f64();
    progress.finish();
    let total = DepthRow {
        variant: V::KIND,
        fen,
        depth,
        counts: checkpoint::sum(moves.iter().map(|(_, c)| *c)),
        columns: StatColumns::of::<V>(),
        seconds,
    };
    reporter.divide(&total, moves)
}

/// Ends a depth's `progress` and reports `counts` as the row of `depth`,
/// timed from `start`: the one way a counted depth becomes a row, with or
/// without a checkpoint.
pub(crate) fn report_row<V: Variant>(
    reporter: &mut dyn Reporter,
    progress: &Progress,
    start: Instant,
    fen: &str,
    depth: u32,
    counts: PerftStats,
) -> anyhow::Result<()> {
    let seconds = start.elapsed().as_secs_f64();
    progress.finish();
    reporter.row(&DepthRow {
        variant: V::KIND,
        fen,
        depth,
        counts,
        columns: StatColumns::of::<V>(),
        seconds,
    })
}

/// Counts one position: depths 1..=`depth` (one row each, timed alone), or
/// with `divide` the root moves at `depth`. With `--hash` one table serves
/// every depth of the position.
pub(crate) fn run_position<V: Variant>(
    pos: &Position<V>,
    depth: u32,
    divide: bool,
    settings: &Settings,
    reporter: &mut dyn Reporter,
) -> anyhow::Result<()> {
    let fen = pos.fen();
    let table = settings.table();
    let counter = count::counter(settings.stats, table.as_ref());
    reporter.begin_position(V::KIND, &fen)?;
    if divide {
        let progress = settings.progress(0, Units::Tasks, format!("{} depth {depth}", V::KIND));
        let start = Instant::now();
        let moves = divide_counts(pos, depth, settings.workers(&progress), counter);
        report_divide::<V>(reporter, &progress, start, &fen, depth, &sorted_uci(moves))?;
    } else {
        for d in 1..=depth {
            let progress = settings.progress(0, Units::Tasks, format!("{} depth {d}", V::KIND));
            let start = Instant::now();
            let counts: PerftStats = perft_counts(pos, d, settings.workers(&progress), counter);
            report_row::<V>(reporter, &progress, start, &fen, d, counts)?;
        }
    }
    reporter.end_position()?;
    Ok(())
}
