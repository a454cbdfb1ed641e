//! `varia perft`: count legal move sequences.
//!
//! Three modes, chosen from the arguments:
//!
//! * positions (the default): one position (`--variant`, optionally `--fen`)
//!   or every variant's start position (no `--variant`), depths 1..N as a
//!   table or CSV, or a divide (`--divide`) of depth N;
//! * suite (`--suite FILE`): every row of a `variant,fen,depth,nodes` file,
//!   checked against the expected count.
//!
//! The work is split at the root and the second ply and run on a local rayon
//! pool ([`parallel`]); output formatting lives in [`report`], the progress
//! bar in [`progress`], the suite in [`suite`].
//!
//! Room for later flags (`--stats`, `--hash SIZE`, `--checkpoint FILE`,
//! `--split-depth K --shard I/N`): they belong in [`Args`], are validated in
//! [`Settings::from_args`], and reach the work through [`Settings`] and
//! [`parallel::SplitConfig`].

mod parallel;
mod progress;
mod report;
mod suite;

pub use parallel::{perft_divide_parallel, perft_parallel, SplitConfig};

use anyhow::{bail, Context as _};
use movegen::{dispatch, Position, Variant, VariantKind};
use progress::{Progress, Units};
use report::{DepthRow, Reporter};
use std::io::IsTerminal as _;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

/// Depth used when `--depth` is not given.
pub const DEFAULT_DEPTH: u32 = 5;
/// The deepest perft accepted (node counts overflow 64 bits not far beyond,
/// and nothing that deep would finish anyway).
pub const MAX_DEPTH: u32 = 20;
/// The most worker threads accepted by `--threads`.
pub const MAX_THREADS: usize = 1024;

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
  varia perft --suite data/perft/perft_public.csv --out results.csv")]
pub struct Args {
    /// Game: chess, suicide, threecheck, atomic, losers, knightmate (or an
    /// alias: standard, normal, giveaway, 3check, three-check). Without it,
    /// every game's start position is counted.
    #[arg(long, value_name = "VARIANT")]
    pub variant: Option<String>,

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

    /// Check every row of a CSV file `variant,fen,depth,nodes` (with header);
    /// exits 1 if any count differs.
    #[arg(
        long,
        value_name = "FILE",
        conflicts_with_all = ["variant", "fen", "depth", "divide", "format"]
    )]
    pub suite: Option<PathBuf>,

    /// With --suite: write `variant,fen,depth,nodes,expected,ok` rows to FILE.
    #[arg(long, value_name = "FILE", requires = "suite")]
    pub out: Option<PathBuf>,
}

/// Validated settings shared by every mode.
pub(crate) struct Settings {
    /// The pool every perft runs on.
    pub pool: rayon::ThreadPool,
    /// Show a progress bar on long runs.
    pub progress: bool,
    /// How work is split between threads.
    pub split: SplitConfig,
}

impl Settings {
    fn from_args(args: &Args) -> anyhow::Result<Settings> {
        let threads = match args.threads {
            None => std::thread::available_parallelism().map_or(1, |n| n.get()),
            Some(0) => bail!("--threads must be at least 1"),
            Some(t) if t > MAX_THREADS => {
                bail!("--threads {t} is too many (at most {MAX_THREADS})")
            }
            Some(t) => t,
        };
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .thread_name(|i| format!("perft-{i}"))
            .build()
            .with_context(|| format!("cannot start {threads} worker threads"))?;
        Ok(Settings {
            pool,
            progress: !args.quiet && std::io::stderr().is_terminal(),
            split: SplitConfig::for_threads(threads),
        })
    }

    /// A progress bar over `len` units (hidden unless enabled and the run
    /// lasts more than a second).
    pub fn progress(&self, len: u64, units: Units, message: String) -> Progress {
        Progress::new(self.progress, len, units, message)
    }
}

/// A position of any variant, for code that handles many games at run time
/// (the suite; later checkpoints and shards).
pub(crate) trait AnyPosition: Send + Sync {
    /// The game.
    fn variant(&self) -> VariantKind;
    /// Sequential perft (bulk-counted last ply).
    fn perft(&self, depth: u32) -> u64;
    /// Parallel divide on the settings' pool, sorted by UCI move.
    fn divide(&self, depth: u32, settings: &Settings) -> Vec<(String, u64)>;
}

impl<V: Variant> AnyPosition for Position<V> {
    fn variant(&self) -> VariantKind {
        V::KIND
    }

    fn perft(&self, depth: u32) -> u64 {
        movegen::perft(self, depth)
    }

    fn divide(&self, depth: u32, settings: &Settings) -> Vec<(String, u64)> {
        let progress = Progress::hidden();
        sorted_uci(perft_divide_parallel(
            self,
            depth,
            &settings.pool,
            settings.split,
            &progress,
        ))
    }
}

/// Parses `fen` as a position of game `kind`.
pub(crate) fn parse_position(
    kind: VariantKind,
    fen: &str,
) -> Result<Box<dyn AnyPosition>, movegen::FenError> {
    dispatch!(kind, V => Position::<V>::from_fen(fen).map(|p| Box::new(p) as Box<dyn AnyPosition>))
}

/// A divide with moves in UCI text, sorted.
fn sorted_uci(moves: Vec<(movegen::Move, u64)>) -> Vec<(String, u64)> {
    let mut moves: Vec<(String, u64)> = moves.into_iter().map(|(m, n)| (m.uci(), n)).collect();
    moves.sort();
    moves
}

/// One position to count, as given on the command line.
struct Job {
    kind: VariantKind,
    fen: String,
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
    let jobs = match &args.variant {
        None => VariantKind::ALL
            .iter()
            .map(|&kind| Job {
                kind,
                fen: kind.start_fen().to_string(),
            })
            .collect(),
        Some(name) => {
            let kind: VariantKind = name.parse()?;
            let fen = args
                .fen
                .clone()
                .unwrap_or_else(|| kind.start_fen().to_string());
            vec![Job { kind, fen }]
        }
    };
    // Parse every FEN before any output.
    for job in &jobs {
        parse_position(job.kind, &job.fen)
            .with_context(|| format!("invalid --fen for {}", job.kind))?;
    }
    let settings = Settings::from_args(&args)?;
    let mut reporter = report::new(args.format, args.divide, std::io::stdout().lock())?;
    for job in &jobs {
        dispatch!(job.kind, V => {
            let pos = Position::<V>::from_fen(&job.fen)
                .with_context(|| format!("invalid --fen for {}", job.kind))?;
            run_position(&pos, depth, args.divide, &settings, reporter.as_mut())?;
        });
    }
    reporter.finish()?;
    Ok(ExitCode::SUCCESS)
}

/// Counts one position: depths 1..=`depth` (one row each, timed alone), or
/// with `divide` the root moves at `depth`.
pub(crate) fn run_position<V: Variant>(
    pos: &Position<V>,
    depth: u32,
    divide: bool,
    settings: &Settings,
    reporter: &mut dyn Reporter,
) -> anyhow::Result<()> {
    let fen = pos.fen();
    reporter.begin_position(V::KIND, &fen)?;
    if divide {
        let progress = settings.progress(0, Units::Tasks, format!("{} depth {depth}", V::KIND));
        let start = Instant::now();
        let moves = perft_divide_parallel(pos, depth, &settings.pool, settings.split, &progress);
        let seconds = start.elapsed().as_secs_f64();
        progress.finish();
        reporter.divide(V::KIND, &fen, depth, &sorted_uci(moves), seconds)?;
    } else {
        for d in 1..=depth {
            let progress = settings.progress(0, Units::Tasks, format!("{} depth {d}", V::KIND));
            let start = Instant::now();
            let nodes = perft_parallel(pos, d, &settings.pool, settings.split, &progress);
            let seconds = start.elapsed().as_secs_f64();
            progress.finish();
            reporter.row(&DepthRow {
                variant: V::KIND,
                fen: &fen,
                depth: d,
                nodes,
                seconds,
            })?;
        }
    }
    reporter.end_position()?;
    Ok(())
}
