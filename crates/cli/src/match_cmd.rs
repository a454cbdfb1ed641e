//! `varia match`: games between engines (varia's own, in-process, each with
//! its own settings, or external UCI/CECP engines), on every core, with
//! openings, clocks or node/depth limits, adjudication, per-game CSV, PGN,
//! summary CSV, SPRT, resume and shards. The runner is [`arena::run`] and the
//! engine settings are arena's ([`arena::parse_engines`]); this module groups
//! the command line's words, turns the rest into an [`arena::MatchConfig`],
//! shows the progress bar, keeps the `--plot` up to date
//! ([`crate::match_plot`]) and prints the summary.
//!
//! Option names follow cutechess-cli and fastchess where they have one:
//! `--engine name=a,eval=a.toml` (or space-separated `key=value` words),
//! `--each nodes=1000`, `--draw movenumber=40 movecount=8 score=10`,
//! `--resign movecount=3 score=1000`, `--sprt elo0=0 elo1=5`.

use anyhow::{anyhow, bail};
use arena::{
    Adjudication, EloModel, EngineConfig, Format, MatchConfig, MatchReport, Opening, ScheduleSpec,
    ScoreRule, Sprt, SprtState,
};
use clap::{Arg, ArgAction, ArgMatches, FromArgMatches};
use movegen::{PgnVariantNames, VariantKind};
use std::collections::BTreeMap;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

/// Arguments of `varia match`.
#[derive(clap::Args, Debug, Clone)]
#[command(after_help = "\
Engine settings (--engine, --each): key=value words, separated by commas or spaces:
  name=N          name in results (default engine1, engine2, ...)
  tc=[M/]S[+I]    time control: M moves in S seconds (+I per move), e.g. 40/60+0.6, 10+0.1
  nodes=N         nodes per move          depth=D    depth per move
  st=S            seconds per move        movetime=MS  milliseconds per move
  eval=E          the in-process engine's evaluation: default (the game's net if it has one),
                  classical, a net file or weights (TOML)
  hash=MB         its hash table (default 1)   threads=T  its search threads (default 1)
  cmd=PATH        an external engine instead; with proto=uci|xboard (default uci),
                  args=\"...\", dir=DIR, option.NAME=VALUE (UCI setoption / CECP option),
                  initstr=TEXT, timeout=S, margin=S, stderr=FILE|inherit, log=FILE
An unknown setting is an error naming the valid ones.

Examples:
  varia match --variant suicide --engine name=a --engine name=b --each nodes=1000 \\
      --games 2000 --concurrency 2 --seed 1 --out games.csv --pgn games.pgn
  varia match --variant atomic --engine name=base --engine name=tuned,eval=atomic.toml \\
      --each tc=10+0.1 --games 1000 --sprt elo0=0 elo1=5 --out sprt.csv --plot sprt.svg
  varia match --variant chess --engine name=varia --each nodes=5000 \\
      --engine name=fsf cmd=/usr/bin/fairy-stockfish proto=uci option.Hash=16 --rounds 100
  varia match ... --out games.csv --resume            continue after a crash
  varia match ... --shard 3/8 --out part3.csv; varia match-merge part*.csv --summary all.csv")]
pub struct Args {
    #[arg(long, value_name = "VARIANT", help = crate::variant_arg::help(""))]
    pub variant: VariantKind,

    /// The `--engine` words, one list per occurrence.
    #[command(flatten)]
    pub engines: EngineWords,

    /// Settings shared by every player (an engine's own settings win).
    #[arg(long = "each", value_name = "KEY=VALUE", num_args = 1..)]
    pub each: Vec<String>,

    /// Total games (with pairs of games per opening, colours swapped).
    #[arg(long, value_name = "N", conflicts_with = "rounds")]
    pub games: Option<usize>,

    /// Rounds: each plays every pairing once (twice with colours swapped
    /// unless --no-repeat).
    #[arg(long, value_name = "R")]
    pub rounds: Option<usize>,

    /// Play every opening twice with colours swapped, as a pair (the default).
    #[arg(long, conflicts_with = "no_repeat")]
    pub repeat: bool,

    /// One game per opening (no pairs, no pentanomial statistics, no SPRT).
    #[arg(long)]
    pub no_repeat: bool,

    /// With more than two players, the first plays every other (default:
    /// round robin, everyone plays everyone).
    #[arg(long)]
    pub gauntlet: bool,

    /// Games played at once (default: the number of cores).
    #[arg(long, value_name = "C")]
    pub concurrency: Option<usize>,

    /// Opening file: FEN/EPD lines (optionally `FEN moves m1 m2 ...`) or PGN
    /// (`.pgn`). Default: data/openings/<variant>.epd if present, else the
    /// start position.
    #[arg(long, value_name = "FILE")]
    pub openings: Option<PathBuf>,

    /// Take openings in a random order (from --seed) instead of file order.
    #[arg(long)]
    pub random_openings: bool,

    /// Seed of the opening order.
    #[arg(long, value_name = "S", default_value_t = 1)]
    pub seed: u64,

    /// Adjudicate a draw after this many plies past the opening (0: never).
    #[arg(long, value_name = "N", default_value_t = 600)]
    pub max_plies: u32,

    /// Score draw adjudication, cutechess style: `movenumber=N movecount=C
    /// score=S` (both engines within S centipawns for C moves each, from move N).
    #[arg(long, value_name = "KEY=VALUE", num_args = 1..)]
    pub draw: Option<Vec<String>>,

    /// Resign adjudication, cutechess style: `movecount=C score=S` (both
    /// engines agree a side is S centipawns behind for C moves each).
    #[arg(long, value_name = "KEY=VALUE", num_args = 1..)]
    pub resign: Option<Vec<String>>,

    /// Milliseconds an engine may overrun its clock before it loses on time.
    #[arg(long = "timemargin", value_name = "MS", default_value_t = 100)]
    pub time_margin: u64,

    /// Per-game CSV, one row appended as each game ends.
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,

    /// PGN of every game.
    #[arg(long, value_name = "FILE")]
    pub pgn: Option<PathBuf>,

    /// `[Variant]` tag names in the PGN: `lichess` (`Three-check`,
    /// `Giveaway`, ...) or `cutechess` (`3check`, `giveaway`, ...: what
    /// cutechess and XBoard read, for books used as cutechess `-openings`).
    #[arg(long, value_name = "NAMES", default_value = "lichess")]
    pub pgn_variant_names: PgnVariantNames,

    /// Summary CSV, one row per pairing.
    #[arg(long, value_name = "FILE")]
    pub summary: Option<PathBuf>,

    /// SVG plot of the Elo with its 95% interval over the games (and with
    /// --sprt the LLR against its bounds), redrawn as the match runs.
    #[arg(long, value_name = "FILE")]
    pub plot: Option<PathBuf>,

    /// Continue the match recorded in --out (same command): finished games
    /// are not replayed.
    #[arg(long)]
    pub resume: bool,

    /// Stop when a sequential probability ratio test decides: `elo0=E0
    /// elo1=E1 [alpha=0.05] [beta=0.05] [model=logistic|normalized]`.
    #[arg(long, value_name = "KEY=VALUE", num_args = 1..)]
    pub sprt: Option<Vec<String>>,

    /// Play only shard I of N of the schedule (whole pairs), for clusters;
    /// combine the shards' CSVs with `varia match-merge`.
    #[arg(long, value_name = "I/N")]
    pub shard: Option<String>,

    /// No progress bar (it is shown only when stderr is a terminal).
    #[arg(long)]
    pub quiet: bool,
}

/// The words of each `--engine` occurrence (`--engine name=b cmd=x` is one
/// engine with two words). Clap's derive flattens repeated multi-value
/// options into one list, so this reads the occurrences from the matches.
#[derive(Clone, Debug, Default)]
pub struct EngineWords(pub Vec<Vec<String>>);

const ENGINE_ARG: &str = "engine";

impl FromArgMatches for EngineWords {
    fn from_arg_matches(m: &ArgMatches) -> Result<Self, clap::Error> {
        let groups = m
            .get_occurrences::<String>(ENGINE_ARG)
            .map(|o| o.map(|words| words.cloned().collect()).collect())
            .unwrap_or_default();
        Ok(EngineWords(groups))
    }

    fn update_from_arg_matches(&mut self, m: &ArgMatches) -> Result<(), clap::Error> {
        *self = EngineWords::from_arg_matches(m)?;
        Ok(())
    }
}

impl clap::Args for EngineWords {
    fn augment_args(cmd: clap::Command) -> clap::Command {
        cmd.arg(
            Arg::new(ENGINE_ARG)
                .long("engine")
                .value_name("KEY=VALUE")
                .num_args(1..)
                .action(ArgAction::Append)
                .value_parser(clap::value_parser!(String))
                .help("A player: `name=N` plus settings (see below); give two or more"),
        )
    }

    fn augment_args_for_update(cmd: clap::Command) -> clap::Command {
        EngineWords::augment_args(cmd)
    }
}

fn parse_number<T: std::str::FromStr>(key: &str, v: &str, what: &str) -> anyhow::Result<T> {
    v.trim()
        .parse::<T>()
        .map_err(|_| anyhow!("bad {key}=\"{v}\": expected {what}"))
}

/// `key=value` words of --draw/--resign/--sprt as a map, checking the keys.
fn key_values<'a>(
    option: &str,
    words: &'a [String],
    allowed: &[&str],
) -> anyhow::Result<BTreeMap<String, &'a str>> {
    let mut map = BTreeMap::new();
    for w in words {
        for piece in w.split(',').filter(|p| !p.is_empty()) {
            let (k, v) = piece
                .split_once('=')
                .ok_or_else(|| anyhow!("{option}: bad \"{piece}\": expected key=value"))?;
            if !allowed.contains(&k) {
                bail!(
                    "{option}: unknown key \"{k}\" (known: {})",
                    allowed.join(", ")
                );
            }
            map.insert(k.to_string(), v);
        }
    }
    Ok(map)
}

fn parse_draw(words: &[String]) -> anyhow::Result<ScoreRule> {
    let m = key_values("--draw", words, &["movenumber", "movecount", "score"])?;
    let need = |k: &str| {
        m.get(k).copied().ok_or_else(|| {
            anyhow!("--draw needs {k}= (e.g. --draw movenumber=40 movecount=8 score=10)")
        })
    };
    Ok(ScoreRule {
        after: match m.get("movenumber") {
            Some(v) => parse_number("movenumber", v, "a move number")?,
            None => 0,
        },
        moves: nonzero(
            parse_number("movecount", need("movecount")?, "a move count")?,
            "--draw movecount",
        )?,
        score: parse_number::<u32>("score", need("score")?, "centipawns")? as i32,
    })
}

fn parse_resign(words: &[String]) -> anyhow::Result<ScoreRule> {
    let m = key_values("--resign", words, &["movecount", "score", "twosided"])?;
    let need = |k: &str| {
        m.get(k)
            .copied()
            .ok_or_else(|| anyhow!("--resign needs {k}= (e.g. --resign movecount=3 score=1000)"))
    };
    if let Some(t) = m.get("twosided") {
        if *t != "true" {
            bail!("--resign twosided=\"{t}\": only twosided=true (both engines agree) is played");
        }
    }
    Ok(ScoreRule {
        after: 0,
        moves: nonzero(
            parse_number("movecount", need("movecount")?, "a move count")?,
            "--resign movecount",
        )?,
        score: parse_number::<u32>("score", need("score")?, "centipawns")? as i32,
    })
}

fn nonzero(v: u32, what: &str) -> anyhow::Result<u32> {
    if v == 0 || v > 10_000 {
        bail!("{what} must be from 1 to 10000");
    }
    Ok(v)
}

/// Parses `--sprt elo0=0 elo1=5 [alpha=0.05] [beta=0.05] [model=logistic|normalized]`.
pub fn parse_sprt(words: &[String]) -> anyhow::Result<Sprt> {
    let m = key_values("--sprt", words, &["elo0", "elo1", "alpha", "beta", "model"])?;
    let num = |k: &str, default: Option<f64>| -> anyhow::Result<f64> {
        match m.get(k) {
            Some(v) => {
                let x: f64 = parse_number(k, v, "a number")?;
                if !x.is_finite() {
                    bail!("--sprt {k}={v}: expected a finite number");
                }
                Ok(x)
            }
            None => default.ok_or_else(|| anyhow!("--sprt needs {k}= (e.g. --sprt elo0=0 elo1=5)")),
        }
    };
    let sprt = Sprt {
        elo0: num("elo0", None)?,
        elo1: num("elo1", None)?,
        alpha: num("alpha", Some(0.05))?,
        beta: num("beta", Some(0.05))?,
        model: match m.get("model").copied().unwrap_or("logistic") {
            "logistic" => EloModel::Logistic,
            "normalized" => EloModel::Normalized,
            other => bail!("--sprt model=\"{other}\": expected logistic or normalized"),
        },
    };
    if sprt.elo0 >= sprt.elo1 {
        bail!("--sprt: elo0 must be below elo1");
    }
    for (k, v) in [("alpha", sprt.alpha), ("beta", sprt.beta)] {
        if !(v > 0.0 && v < 0.5) {
            bail!("--sprt {k}={v}: expected a probability between 0 and 0.5");
        }
    }
    Ok(sprt)
}

/// Parses `I/N` with 1 <= I <= N.
pub fn parse_shard(s: &str) -> anyhow::Result<(usize, usize)> {
    let bad = || anyhow!("bad --shard \"{s}\": expected I/N with 1 <= I <= N");
    let (i, n) = s.split_once('/').ok_or_else(bad)?;
    let i: usize = i.trim().parse().map_err(|_| bad())?;
    let n: usize = n.trim().parse().map_err(|_| bad())?;
    if i == 0 || n == 0 || i > n {
        return Err(bad());
    }
    Ok((i, n))
}

/// Where the shipped opening file of `kind` is, if anywhere: next to the
/// binary's source tree (`target/release/varia` -> `data/openings`), in the
/// source tree it was built from, or under the current directory.
pub fn shipped_openings(kind: VariantKind) -> Option<PathBuf> {
    let file = format!("{}.epd", kind.name());
    let mut dirs: Vec<PathBuf> = Vec::new();
    if let Ok(exe) = std::env::current_exe() {
        for up in exe.ancestors().skip(1).take(4) {
            dirs.push(up.join("data").join("openings"));
        }
    }
    dirs.push(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("..")
            .join("..")
            .join("data")
            .join("openings"),
    );
    dirs.push(PathBuf::from("data").join("openings"));
    dirs.into_iter()
        .map(|d| d.join(&file))
        .find(|p| p.is_file())
}

/// The opening list and where it came from.
fn load_openings(args: &Args, kind: VariantKind) -> anyhow::Result<(Vec<Opening>, String)> {
    let path = match &args.openings {
        Some(p) => {
            if !p.is_file() {
                bail!("opening file {} not found", p.display());
            }
            Some(p.clone())
        }
        None => shipped_openings(kind),
    };
    match path {
        Some(p) => {
            let list = arena::openings::load(&p, kind).map_err(|e| anyhow!("{e}"))?;
            let from = format!("{} ({} openings)", p.display(), list.len());
            Ok((list, from))
        }
        None => Ok((vec![Opening::start(kind)], "the start position".into())),
    }
}

/// The schedule's length and shape from --games/--rounds, --no-repeat and
/// --gauntlet, checked against a sane maximum ([`MatchConfig::new`] counts
/// the openings).
fn schedule(args: &Args, players: usize) -> anyhow::Result<ScheduleSpec> {
    let repeat = !args.no_repeat;
    let (games, rounds) = match (args.games, args.rounds) {
        (Some(0), _) => bail!("--games must be at least 1"),
        (_, Some(0)) => bail!("--rounds must be at least 1"),
        (Some(g), _) => (Some(g), 1),
        (None, Some(r)) => (None, r),
        (None, None) => bail!("give the match length: --games N (total) or --rounds R"),
    };
    let format = if args.gauntlet {
        Format::Gauntlet
    } else {
        Format::RoundRobin
    };
    let pairings = match format {
        Format::RoundRobin => players * (players - 1) / 2,
        Format::Gauntlet => players - 1,
    };
    let planned = games.unwrap_or(rounds.saturating_mul(pairings * if repeat { 2 } else { 1 }));
    if planned > 100_000_000 {
        bail!("{planned} games is too many (at most 100000000)");
    }
    Ok(ScheduleSpec {
        players,
        games,
        rounds,
        repeat,
        format,
        openings: 0,
        random_openings: args.random_openings,
        seed: args.seed,
    })
}

/// --sprt, checked against the match.
fn sprt(args: &Args, engines: usize) -> anyhow::Result<Option<Sprt>> {
    Ok(match &args.sprt {
        Some(words) => {
            if engines != 2 {
                bail!("--sprt needs exactly two engines");
            }
            if args.no_repeat {
                bail!("--sprt tests game pairs: drop --no-repeat");
            }
            Some(parse_sprt(words)?)
        }
        None => None,
    })
}

/// --out and --resume: an existing CSV is continued only with --resume.
fn check_output(args: &Args) -> anyhow::Result<()> {
    if args.resume && args.out.is_none() {
        bail!("--resume needs --out (the per-game CSV it continues from)");
    }
    if let Some(out) = &args.out {
        arena::record::refuse_existing(out, args.resume, "match")?;
    }
    Ok(())
}

/// The whole configuration, checked.
pub fn config(args: &Args) -> anyhow::Result<(MatchConfig, String)> {
    let variant = args.variant;
    let engines = arena::parse_engines(&args.each, &args.engines.0)?;
    let players = engines.len();
    let schedule = schedule(args, players)?;
    let (openings, openings_from) = load_openings(args, variant)?;
    let sprt = sprt(args, players)?;
    let shard = args.shard.as_deref().map(parse_shard).transpose()?;
    if shard.is_some() && sprt.is_some() {
        bail!("--sprt cannot stop a sharded match (each shard sees only its own games)");
    }
    check_output(args)?;
    let concurrency = crate::resources::threads("--concurrency", args.concurrency)?;
    if args.time_margin > 3_600_000 {
        bail!("--timemargin {}: at most 3600000 ms", args.time_margin);
    }
    let mut cfg = MatchConfig::new(variant, engines, openings);
    cfg.schedule = ScheduleSpec {
        openings: cfg.schedule.openings,
        ..schedule
    };
    cfg.concurrency = concurrency;
    cfg.adjudication = Adjudication {
        max_plies: args.max_plies,
        draw: args.draw.as_deref().map(parse_draw).transpose()?,
        resign: args.resign.as_deref().map(parse_resign).transpose()?,
        time_margin: Duration::from_millis(args.time_margin),
    };
    cfg.out = args.out.clone();
    cfg.pgn = args.pgn.clone();
    cfg.pgn_variant_names = args.pgn_variant_names;
    cfg.summary = args.summary.clone();
    cfg.resume = args.resume;
    cfg.sprt = sprt;
    cfg.shard = shard;
    Ok((cfg, openings_from))
}

/// Starts every engine once and sets it up for a game, so that a bad
/// setting (an eval file that does not parse, an engine that does not
/// start or does not play the variant) is a clear error before the match
/// rather than a lost game.
fn check_engines(cfg: &MatchConfig) -> anyhow::Result<()> {
    for engine in &cfg.engines {
        let name = &engine.name;
        let mut p = engine
            .start_for(cfg.variant)
            .map_err(|e| anyhow!("engine {name}: {e}"))?;
        p.new_game(cfg.variant)
            .map_err(|e| anyhow!("engine {name}: {e}"))?;
    }
    Ok(())
}

/// `1h02m03s`-style duration.
pub fn human_duration(seconds: f64) -> String {
    let s = seconds.max(0.0).round() as u64;
    if s >= 3600 {
        format!("{}h{:02}m{:02}s", s / 3600, s / 60 % 60, s % 60)
    } else if s >= 60 {
        format!("{}m{:02}s", s / 60, s % 60)
    } else {
        format!("{s}s")
    }
}

/// The message after the progress bar: rate, ETA, and the first pairing.
fn bar_message(p: &arena::Progress, played: usize, elapsed: f64) -> String {
    let rate = if elapsed > 0.0 {
        played as f64 / elapsed
    } else {
        0.0
    };
    let left = p.total.saturating_sub(p.done);
    let eta = if rate > 0.0 {
        human_duration(left as f64 / rate)
    } else {
        "?".into()
    };
    let mut msg = format!("{rate:.1} games/s, ETA {eta}");
    if let Some(s) = p.stats.first() {
        let e = s.elo();
        msg.push_str(&format!(
            " | {} vs {}: +{} ={} -{} Elo {:+.1} +/- {:.1} LOS {:.0}%",
            s.player,
            s.opponent,
            s.wdl.wins,
            s.wdl.draws,
            s.wdl.losses,
            e.elo,
            e.error(),
            100.0 * s.wdl.los()
        ));
        if p.stats.len() > 1 {
            msg.push_str(&format!(" (+{} pairings)", p.stats.len() - 1));
        }
    }
    if let Some((llr, lo, hi)) = p.sprt {
        msg.push_str(&format!(" | LLR {llr:.2} ({lo:.2}, {hi:.2})"));
    }
    msg
}

/// The `--plot` of this match, drawn once before the first game: the
/// players in schedule order, the SPRT if any, and on `--resume` the games
/// already in `--out`.
fn start_plot(path: &Path, cfg: &MatchConfig) -> anyhow::Result<crate::match_plot::LivePlot> {
    let names: Vec<String> = cfg.engines.iter().map(|e| e.name.clone()).collect();
    let mut plot = arena::plot::MatchPlot::new(&names, cfg.sprt);
    if let Some(out) = cfg.out.as_deref().filter(|_| cfg.resume) {
        if std::fs::metadata(out).is_ok_and(|m| m.len() > 0) {
            for row in arena::results::read_games(out)? {
                plot.add(&row);
            }
        }
    }
    let title = format!("{}: {}", cfg.variant, names.join(" vs "));
    crate::match_plot::LivePlot::start(path, title, plot)
}

/// Runs `varia match`.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let (cfg, openings_from) = config(&args)?;
    check_engines(&cfg)?;
    let show = crate::resources::show_progress(args.quiet);
    if show {
        eprintln!(
            "{}: {} engines ({}), openings from {openings_from}, {} at once",
            cfg.variant,
            cfg.engines.len(),
            cfg.engines
                .iter()
                .map(|e| e.name.as_str())
                .collect::<Vec<_>>()
                .join(", "),
            cfg.concurrency
        );
    }
    let bar = show.then(|| {
        let style =
            crate::resources::progress_style("[{elapsed_precise}] {bar:30} {pos}/{len} {msg}");
        crate::resources::progress_bar(true, 0, style)
    });
    let mut plot = match &args.plot {
        Some(path) => Some(start_plot(path, &cfg)?),
        None => None,
    };
    let started = Instant::now();
    let mut first_done: Option<usize> = None;
    let mut terminations: BTreeMap<String, usize> = BTreeMap::new();
    let mut progress = |p: &arena::Progress| {
        let initial = *first_done.get_or_insert(p.done);
        if let Some(row) = p.last {
            *terminations.entry(row.termination.clone()).or_default() += 1;
            if let Some(plot) = plot.as_mut() {
                plot.add(row, p.total);
            }
        }
        if let Some(b) = &bar {
            b.set_length(p.total as u64);
            b.set_position(p.done as u64);
            b.set_message(bar_message(
                p,
                p.done - initial,
                started.elapsed().as_secs_f64(),
            ));
        }
    };
    let start = |e: &EngineConfig| e.start();
    let report = arena::run(&cfg, &start, &mut progress).map_err(|e| anyhow!(e));
    if let Some(b) = &bar {
        b.finish_and_clear();
    }
    // The final plot is drawn even when the match failed; the match's
    // error comes first.
    let plotted = plot.map(crate::match_plot::LivePlot::finish);
    let report = report?;
    plotted.transpose()?;
    write!(
        std::io::stdout(),
        "{}",
        report_text(&cfg, &report, &terminations)
    )?;
    Ok(ExitCode::SUCCESS)
}

/// The summary printed at the end: totals, one line per pairing, the SPRT
/// decision and this run's terminations.
fn report_text(
    cfg: &MatchConfig,
    report: &MatchReport,
    terminations: &BTreeMap<String, usize>,
) -> String {
    let mut out = String::new();
    let rate = report.played as f64 / report.seconds.max(1e-9);
    out.push_str(&format!(
        "{}: {} games{} ({} played in {:.1} s, {:.1} games/s, concurrency {})\n",
        cfg.variant,
        report.games,
        match cfg.shard {
            Some((i, n)) => format!(" of shard {i}/{n}"),
            None => String::new(),
        },
        report.played,
        report.seconds,
        if report.played > 0 { rate } else { 0.0 },
        cfg.concurrency
    ));
    for s in &report.stats {
        out.push_str(&s.line());
        out.push('\n');
    }
    if let (Some(sprt), Some(state)) = (cfg.sprt, report.sprt) {
        if let Some(s) = report.stats.first() {
            let (lo, hi) = sprt.bounds();
            out.push_str(&format!(
                "SPRT elo0={} elo1={} alpha={} beta={} ({}): LLR {:.2} ({:.2}, {:.2}): {}\n",
                sprt.elo0,
                sprt.elo1,
                sprt.alpha,
                sprt.beta,
                match sprt.model {
                    EloModel::Logistic => "logistic",
                    EloModel::Normalized => "normalized",
                },
                sprt.llr(&s.penta),
                lo,
                hi,
                match state {
                    SprtState::AcceptH1 => "H1 accepted",
                    SprtState::AcceptH0 => "H0 accepted",
                    SprtState::Continue if s.penta.0[2] == s.penta.pairs() => {
                        "no decision: every pair ended 1-1 (identical play carries no signal)"
                    }
                    SprtState::Continue => "no decision yet",
                }
            ));
        }
    }
    if !terminations.is_empty() {
        out.push_str(&format!(
            "terminations (this run): {}\n",
            terminations
                .iter()
                .map(|(k, v)| format!("{k} {v}"))
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(s: &[&str]) -> Vec<String> {
        s.iter().map(|w| w.to_string()).collect()
    }

    #[test]
    fn engine_words_stay_grouped_by_occurrence() {
        use clap::Parser;
        #[derive(Parser)]
        struct Cli {
            #[command(flatten)]
            args: Args,
        }
        // The command line as typed: `--engine` takes every word up to the
        // next option, and `--engine=...` one.
        let line = "match --variant chess --engine name=a --engine name=b cmd=x \
                    --each nodes=5 --engine=name=c";
        let cli = Cli::try_parse_from(line.split_whitespace()).unwrap();
        assert_eq!(
            cli.args.engines.0,
            [
                words(&["name=a"]),
                words(&["name=b", "cmd=x"]),
                words(&["name=c"])
            ]
        );
        assert_eq!(cli.args.each, ["nodes=5"]);
    }

    #[test]
    fn rules_parse() {
        let d = parse_draw(&words(&["movenumber=40", "movecount=8", "score=10"])).unwrap();
        assert_eq!((d.after, d.moves, d.score), (40, 8, 10));
        assert!(parse_draw(&words(&["movecount=8"])).is_err());
        let r = parse_resign(&words(&["movecount=3", "score=1000"])).unwrap();
        assert_eq!((r.moves, r.score), (3, 1000));
        let s = parse_sprt(&words(&["elo0=0", "elo1=5", "model=normalized"])).unwrap();
        assert_eq!(s.model, EloModel::Normalized);
        assert!(parse_sprt(&words(&["elo0=5", "elo1=0"])).is_err());
        assert_eq!(parse_shard("2/8").unwrap(), (2, 8));
        for bad in ["0/2", "3/2", "x", "1/0"] {
            assert!(parse_shard(bad).is_err(), "{bad}");
        }
    }
}
