//! `varia match`: games between engines (varia's own, in-process, each with
//! its own settings, or external UCI/CECP engines), on every core, with
//! openings, clocks or node/depth limits, adjudication, per-game CSV, PGN,
//! summary CSV, SPRT, resume and shards. The runner is [`arena::run`]; this
//! module turns the command line into an [`arena::MatchConfig`], shows the
//! progress bar and prints the summary.
//!
//! Option names follow cutechess-cli and fastchess where they have one:
//! `--engine name=a,eval=a.toml` (or space-separated `key=value` words),
//! `--each nodes=1000`, `--draw movenumber=40 movecount=8 score=10`,
//! `--resign movecount=3 score=1000`, `--sprt elo0=0 elo1=5`.

use anyhow::{anyhow, bail, Context as _};
use arena::{
    Adjudication, EloModel, EngineSpec, Format, InProcess, MatchConfig, MoveLimits, Opening,
    Player, ScheduleSpec, ScoreRule, Sprt, SprtState, TimeControl,
};
use movegen::VariantKind;
use std::collections::BTreeMap;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

/// Hash table size of an in-process engine without `hash=`, in MB: small,
/// because the table is cleared before every game and fixed-node games
/// never fill more.
pub const DEFAULT_HASH_MB: usize = 1;
// `hash=`, `threads=` and `depth=` have the bounds of every other front end.
use search::settings::{MAX_HASH_MB, MAX_SEARCH_DEPTH as MAX_DEPTH, MAX_THREADS};

/// Arguments of `varia match`.
#[derive(clap::Args, Debug, Clone)]
#[command(after_help = "\
Engine settings (--engine, --each): key=value words, separated by commas or spaces:
  name=N          name in results (default engine1, engine2, ...)
  tc=[M/]S[+I]    time control: M moves in S seconds (+I per move), e.g. 40/60+0.6, 10+0.1
  nodes=N         nodes per move          depth=D    depth per move
  st=S            seconds per move
  eval=FILE       evaluation weights (TOML) of varia's in-process engine
  hash=MB         its hash table (default 1)   threads=T  its search threads (default 1)
  cmd=PATH        an external engine instead; with proto=uci|xboard (default uci),
                  args=\"...\", dir=DIR, option.NAME=VALUE (UCI setoption / CECP option)

Examples:
  varia match --variant suicide --engine name=a --engine name=b --each nodes=1000 \\
      --games 2000 --concurrency 2 --seed 1 --out games.csv --pgn games.pgn
  varia match --variant atomic --engine name=base --engine name=tuned,eval=atomic.toml \\
      --each tc=10+0.1 --games 1000 --sprt elo0=0 elo1=5 --out sprt.csv
  varia match --variant chess --engine name=varia --each nodes=5000 \\
      --engine name=fsf cmd=/usr/bin/fairy-stockfish proto=uci option.Hash=16 --rounds 100
  varia match ... --out games.csv --resume            continue after a crash
  varia match ... --shard 3/8 --out part3.csv; varia match-merge part*.csv --summary all.csv")]
pub struct Args {
    /// Game: chess, suicide, threecheck, atomic, losers, knightmate (or an
    /// alias: standard, normal, giveaway, 3check, three-check).
    #[arg(long, value_name = "VARIANT")]
    pub variant: String,

    /// A player: `name=N` plus settings (see below); give two or more.
    #[arg(long = "engine", value_name = "KEY=VALUE", num_args = 1..)]
    pub engines: Vec<String>,

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

    /// Opening file: EPD/FEN lines (optionally `FEN moves m1 m2 ...`) or PGN
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

    /// Summary CSV, one row per pairing.
    #[arg(long, value_name = "FILE")]
    pub summary: Option<PathBuf>,

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

/// Splits `key=value` words, several to a word when separated by commas
/// (a comma belongs to the value unless a `key=` follows it).
pub fn split_settings(words: &[String]) -> anyhow::Result<Vec<(String, String)>> {
    let is_key = |k: &str| {
        let mut chars = k.chars();
        chars
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
            && chars.all(|c| c.is_ascii_alphanumeric() || "_.-".contains(c))
    };
    let mut out = Vec::new();
    for word in words {
        let mut pieces: Vec<String> = Vec::new();
        for piece in word.split(',') {
            let starts_setting = piece.split_once('=').is_some_and(|(k, _)| is_key(k));
            match pieces.last_mut() {
                Some(last) if !starts_setting => {
                    last.push(',');
                    last.push_str(piece);
                }
                _ => pieces.push(piece.to_string()),
            }
        }
        for piece in pieces {
            match piece.split_once('=') {
                Some((k, v)) if is_key(k) => out.push((k.to_string(), v.to_string())),
                _ => bail!("bad setting \"{piece}\": expected key=value"),
            }
        }
    }
    Ok(out)
}

/// Settings of varia's in-process engine.
const IN_PROCESS_KEYS: [&str; 3] = ["eval", "hash", "threads"];
/// Settings every player has.
const COMMON_KEYS: [&str; 5] = ["name", "tc", "nodes", "depth", "st"];
/// Settings of external engines (besides `option.NAME`; all of them are
/// checked by [`arena::external::Settings::from_spec`]).
const EXTERNAL_KEYS: [&str; 9] = [
    "cmd", "proto", "args", "dir", "initstr", "timeout", "margin", "stderr", "log",
];

fn parse_number<T: std::str::FromStr>(key: &str, v: &str, what: &str) -> anyhow::Result<T> {
    v.trim()
        .parse::<T>()
        .map_err(|_| anyhow!("bad {key}=\"{v}\": expected {what}"))
}

/// Per-move limits from an engine's settings.
pub fn limits_of(settings: &[(String, String)]) -> anyhow::Result<MoveLimits> {
    let mut l = MoveLimits::default();
    for (k, v) in settings {
        match k.as_str() {
            "tc" => {
                l.tc = Some(TimeControl::parse(v.trim()).ok_or_else(|| {
                    anyhow!(
                        "bad tc=\"{v}\": expected [moves/]seconds[+increment], e.g. 40/60+0.6 or 10+0.1"
                    )
                })?)
            }
            "nodes" => {
                let n: u64 = parse_number(k, v, "a positive number of nodes")?;
                if n == 0 {
                    bail!("bad nodes=\"{v}\": expected a positive number of nodes");
                }
                l.nodes = Some(n);
            }
            "depth" => {
                let d: u32 = parse_number(k, v, "a depth from 1 to 100")?;
                if !(1..=MAX_DEPTH).contains(&d) {
                    bail!("bad depth=\"{v}\": expected a depth from 1 to {MAX_DEPTH}");
                }
                l.depth = Some(d);
            }
            "st" => {
                let s: f64 = parse_number(k, v, "seconds per move")?;
                if !(s.is_finite() && s > 0.0 && s < 1e6) {
                    bail!("bad st=\"{v}\": expected a positive number of seconds per move");
                }
                l.movetime = Some(Duration::from_secs_f64(s));
            }
            _ => {}
        }
    }
    Ok(l)
}

/// The words of each `--engine` occurrence on the command line `argv`
/// (clap hands them over as one flat list). Falls back to one engine per
/// word if the command line does not hold exactly `flat`.
pub fn engine_groups(argv: &[String], flat: &[String]) -> Vec<Vec<String>> {
    let mut groups: Vec<Vec<String>> = Vec::new();
    let mut open = false;
    for a in argv {
        if a == "--" {
            break;
        }
        if a == "--engine" {
            groups.push(Vec::new());
            open = true;
        } else if let Some(v) = a.strip_prefix("--engine=") {
            groups.push(vec![v.to_string()]);
            open = true;
        } else if a.starts_with('-') {
            open = false;
        } else if open {
            if let Some(g) = groups.last_mut() {
                g.push(a.clone());
            }
        }
    }
    if groups.concat() == flat && groups.iter().all(|g| !g.is_empty()) {
        groups
    } else {
        flat.iter().map(|w| vec![w.clone()]).collect()
    }
}

/// Builds and checks the engine list from `--engine` and `--each`.
pub fn engine_specs(args: &Args) -> anyhow::Result<Vec<EngineSpec>> {
    let each = split_settings(&args.each).context("--each")?;
    let argv: Vec<String> = std::env::args_os()
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    let groups = engine_groups(&argv, &args.engines);
    if let Some((k, _)) = each.iter().find(|(k, _)| k == "name" || k == "cmd") {
        bail!("--each {k}= makes no sense: give it per --engine");
    }
    let mut specs: Vec<EngineSpec> = Vec::new();
    for (i, words) in groups.iter().enumerate() {
        let own = split_settings(words).with_context(|| format!("--engine {}", words.join(" ")))?;
        let settings: Vec<(String, String)> = each.iter().chain(own.iter()).cloned().collect();
        let get = |key: &str| {
            settings
                .iter()
                .rev()
                .find(|(k, _)| k == key)
                .map(|(_, v)| v.as_str())
        };
        let external = get("cmd").is_some();
        for (k, _) in &settings {
            let known = COMMON_KEYS.contains(&k.as_str())
                || if external {
                    // Checked by `Settings::from_spec` below.
                    !IN_PROCESS_KEYS.contains(&k.as_str())
                } else {
                    IN_PROCESS_KEYS.contains(&k.as_str())
                };
            if !known {
                let hint = if external && IN_PROCESS_KEYS.contains(&k.as_str()) {
                    format!(" ({k}= is for varia's in-process engine; use option.NAME= for an external one)")
                } else if !external
                    && (EXTERNAL_KEYS.contains(&k.as_str()) || k.starts_with("option."))
                {
                    format!(" ({k}= needs cmd=)")
                } else {
                    String::new()
                };
                bail!(
                    "--engine {}: unknown setting \"{k}\"{hint}",
                    words.join(" ")
                );
            }
        }
        let name = match get("name") {
            Some(n) if n.trim().is_empty() => bail!("--engine {}: empty name", words.join(" ")),
            Some(n) => n.trim().to_string(),
            None => format!("engine{}", i + 1),
        };
        if specs.iter().any(|s| s.name == name) {
            bail!("two engines are named \"{name}\": give each a name=");
        }
        let limits = limits_of(&settings).with_context(|| format!("engine {name}"))?;
        if limits.is_empty() {
            bail!("engine {name}: no move limit: give tc=, nodes=, depth= or st= (in --each or --engine)");
        }
        if !external {
            if let Some(h) = get("hash") {
                let mb: usize = parse_number("hash", h, "megabytes")?;
                if !(1..=MAX_HASH_MB).contains(&mb) {
                    bail!("engine {name}: bad hash=\"{h}\": expected 1 to {MAX_HASH_MB} megabytes");
                }
            }
            if let Some(t) = get("threads") {
                let n: usize = parse_number("threads", t, "a thread count")?;
                if !(1..=MAX_THREADS).contains(&n) {
                    bail!("engine {name}: bad threads=\"{t}\": expected 1 to {MAX_THREADS}");
                }
            }
            if let Some(e) = get("eval") {
                if !Path::new(e).is_file() {
                    bail!("engine {name}: eval file {e} not found");
                }
            }
        }
        let spec = EngineSpec {
            name,
            limits,
            settings,
        };
        if external {
            arena::external::Settings::from_spec(&spec).map_err(|e| anyhow!(e))?;
        }
        specs.push(spec);
    }
    if specs.len() < 2 {
        bail!("a match needs at least two engines: give --engine twice or more");
    }
    Ok(specs)
}

/// Makes a player from its settings: varia in-process, or an external
/// engine when `cmd=` is set.
pub fn make_player(spec: &EngineSpec) -> Result<Box<dyn Player>, String> {
    if arena::external::is_external(spec) {
        return arena::external::spawn(spec);
    }
    let hash = spec
        .get("hash")
        .and_then(|h| h.trim().parse().ok())
        .unwrap_or(DEFAULT_HASH_MB);
    let threads = spec
        .get("threads")
        .and_then(|t| t.trim().parse().ok())
        .unwrap_or(1);
    let eval = spec.get("eval").map(PathBuf::from);
    Ok(Box::new(InProcess::new(&spec.name, eval, hash, threads)))
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

/// The whole configuration, checked.
pub fn config(args: &Args) -> anyhow::Result<(MatchConfig, String)> {
    let variant: VariantKind = args.variant.parse()?;
    let engines = engine_specs(args)?;
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
        Format::RoundRobin => engines.len() * (engines.len() - 1) / 2,
        Format::Gauntlet => engines.len() - 1,
    };
    let planned = games.unwrap_or(rounds.saturating_mul(pairings * if repeat { 2 } else { 1 }));
    if planned > 100_000_000 {
        bail!("{planned} games is too many (at most 100000000)");
    }
    let (openings, openings_from) = load_openings(args, variant)?;
    let sprt = match &args.sprt {
        Some(words) => {
            if engines.len() != 2 {
                bail!("--sprt needs exactly two engines");
            }
            if !repeat {
                bail!("--sprt tests game pairs: drop --no-repeat");
            }
            Some(parse_sprt(words)?)
        }
        None => None,
    };
    let shard = args.shard.as_deref().map(parse_shard).transpose()?;
    if shard.is_some() && sprt.is_some() {
        bail!("--sprt cannot stop a sharded match (each shard sees only its own games)");
    }
    if args.resume && args.out.is_none() {
        bail!("--resume needs --out (the per-game CSV it continues from)");
    }
    if let Some(out) = &args.out {
        let exists = std::fs::metadata(out).is_ok_and(|m| m.len() > 0);
        if exists && !args.resume {
            bail!(
                "{} already exists: pass --resume to continue that match, or choose another --out",
                out.display()
            );
        }
    }
    let concurrency = crate::resources::threads("--concurrency", args.concurrency)?;
    if args.time_margin > 3_600_000 {
        bail!("--timemargin {}: at most 3600000 ms", args.time_margin);
    }
    let adjudication = Adjudication {
        max_plies: args.max_plies,
        draw: args.draw.as_deref().map(parse_draw).transpose()?,
        resign: args.resign.as_deref().map(parse_resign).transpose()?,
        time_margin: Duration::from_millis(args.time_margin),
    };
    let cfg = MatchConfig {
        variant,
        schedule: ScheduleSpec {
            players: engines.len(),
            games,
            rounds,
            repeat,
            format,
            openings: openings.len(),
            random_openings: args.random_openings,
            seed: args.seed,
        },
        engines,
        openings,
        concurrency,
        adjudication,
        out: args.out.clone(),
        pgn: args.pgn.clone(),
        summary: args.summary.clone(),
        resume: args.resume,
        sprt,
        shard,
    };
    Ok((cfg, openings_from))
}

/// Starts every engine once and sets it up for a game, so that a bad
/// setting (an eval file that does not parse, an engine that does not
/// start) is a clear error before the match rather than a lost game.
fn check_engines(cfg: &MatchConfig) -> anyhow::Result<()> {
    for spec in &cfg.engines {
        let mut p = if arena::external::is_external(spec) {
            arena::external::spawn_for(spec, cfg.variant).map_err(|e| {
                if e.starts_with(&format!("engine {}", spec.name)) {
                    anyhow!(e)
                } else {
                    anyhow!("engine {}: {e}", spec.name)
                }
            })?
        } else {
            make_player(spec).map_err(|e| anyhow!("engine {}: {e}", spec.name))?
        };
        p.new_game(cfg.variant)
            .map_err(|e| anyhow!("engine {}: {e}", spec.name))?;
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

/// Runs `varia match`.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let mut stdout = std::io::stdout();
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
    let started = Instant::now();
    let mut first_done: Option<usize> = None;
    let mut terminations: BTreeMap<String, usize> = BTreeMap::new();
    let mut progress = |p: &arena::Progress| {
        let initial = *first_done.get_or_insert(p.done);
        if let Some(row) = p.last {
            *terminations.entry(row.termination.clone()).or_default() += 1;
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
    let report = arena::run(&cfg, &make_player, &mut progress).map_err(|e| anyhow!(e));
    if let Some(b) = &bar {
        b.finish_and_clear();
    }
    let report = report?;

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
    write!(stdout, "{out}")?;
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(s: &[&str]) -> Vec<String> {
        s.iter().map(|w| w.to_string()).collect()
    }

    #[test]
    fn settings_split_on_commas_before_keys_only() {
        let s = split_settings(&words(&[
            "name=tuned,eval=a,b.toml,hash=16",
            "option.Threads=1",
        ]))
        .unwrap();
        assert_eq!(
            s,
            [
                ("name".into(), "tuned".into()),
                ("eval".into(), "a,b.toml".into()),
                ("hash".into(), "16".into()),
                ("option.Threads".into(), "1".into())
            ]
        );
        assert!(split_settings(&words(&["nonsense"])).is_err());
    }

    #[test]
    fn engine_words_group_by_occurrence() {
        let argv = words(&[
            "varia",
            "match",
            "--engine",
            "name=a",
            "--engine",
            "name=b",
            "cmd=x",
            "--each",
            "nodes=5",
            "--engine=name=c",
        ]);
        let flat = words(&["name=a", "name=b", "cmd=x", "name=c"]);
        assert_eq!(
            engine_groups(&argv, &flat),
            [
                words(&["name=a"]),
                words(&["name=b", "cmd=x"]),
                words(&["name=c"])
            ]
        );
        assert_eq!(engine_groups(&[], &flat).len(), 4);
    }

    #[test]
    fn limits_and_rules_parse() {
        let l = limits_of(
            &split_settings(&words(&["tc=40/60+0.6,nodes=1000,depth=7,st=0.5"])).unwrap(),
        )
        .unwrap();
        assert_eq!(l.nodes, Some(1000));
        assert_eq!(l.depth, Some(7));
        assert_eq!(l.movetime, Some(Duration::from_millis(500)));
        assert!(l.tc.is_some());
        for bad in ["tc=x", "nodes=0", "depth=0", "st=-1", "nodes=abc"] {
            assert!(
                limits_of(&split_settings(&words(&[bad])).unwrap()).is_err(),
                "{bad}"
            );
        }
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
