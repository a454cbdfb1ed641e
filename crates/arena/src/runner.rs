//! The match runner: plays a schedule of games on `concurrency` threads,
//! each thread with its own player instances, and records every game as it
//! ends (CSV row appended and flushed, PGN appended) from one writer thread.
//! Resuming reads the CSV back and skips finished games; the schedule being a
//! function of the seed, the totals equal an uninterrupted run's. The CSV is
//! a [`crate::record`] file whose header is the match's identity
//! ([`match_identity`]), so a file of other settings is refused.
//!
//! [`run`] is the outline; each step is a function of its own: opening the
//! CSV and checking it against the schedule (`open_results`), rebuilding
//! the PGN (`open_pgn`), the standing (tally and SPRT, `Standing`), the
//! receiving loop (`play`) and the worker threads (`worker`).

use crate::engine_config::{EngineConfig, EngineKind};
use crate::game::{play_observed_game, Adjudication, GameRecord, GameResult, ScoreRule};
use crate::openings::Opening;
use crate::pgn;
use crate::player::{Player, PlayerError};
use crate::record::{self, RecordError, RunIdentity};
use crate::results::{write_summary, GameRow, GameWriter, PairingStats, ResultsError, Tally};
use crate::schedule::{self, Format, GameSpec, ScheduleSpec};
use crate::stats::{Sprt, SprtState};
use movegen::{PgnVariantNames, VariantKind};
use search::EvalChoice;
use std::collections::{HashMap, HashSet};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;

/// Everything a match needs.
pub struct MatchConfig {
    /// The game.
    pub variant: VariantKind,
    /// Players, in order.
    pub engines: Vec<EngineConfig>,
    /// Schedule settings.
    pub schedule: ScheduleSpec,
    /// Opening list (at least one).
    pub openings: Vec<Opening>,
    /// Games at once.
    pub concurrency: usize,
    /// Early ends.
    pub adjudication: Adjudication,
    /// Per-game CSV.
    pub out: Option<PathBuf>,
    /// PGN file.
    pub pgn: Option<PathBuf>,
    /// The `[Variant]` tag names the PGN file uses.
    pub pgn_variant_names: PgnVariantNames,
    /// Summary CSV.
    pub summary: Option<PathBuf>,
    /// Continue from `out`.
    pub resume: bool,
    /// Stop when this test decides (two players).
    pub sprt: Option<Sprt>,
    /// Only shard `(index, count)` of the schedule.
    pub shard: Option<(usize, usize)>,
}

impl MatchConfig {
    /// A match of `variant` between `engines` from `openings`: one round
    /// robin round of game pairs (colours swapped) in file order with seed 1,
    /// one game at a time, default adjudication, no files, no SPRT, no shard.
    /// Set the fields that differ (`schedule.games`, `concurrency`, ...).
    pub fn new(variant: VariantKind, engines: Vec<EngineConfig>, openings: Vec<Opening>) -> Self {
        MatchConfig {
            variant,
            schedule: ScheduleSpec {
                players: engines.len(),
                games: None,
                rounds: 1,
                repeat: true,
                format: Format::RoundRobin,
                openings: openings.len(),
                random_openings: false,
                seed: 1,
            },
            engines,
            openings,
            concurrency: 1,
            adjudication: Adjudication::default(),
            out: None,
            pgn: None,
            pgn_variant_names: PgnVariantNames::Lichess,
            summary: None,
            resume: false,
            sprt: None,
            shard: None,
        }
    }
}

/// Builds a player from its settings ([`EngineConfig::start`] is the usual one).
pub type PlayerFactory = dyn Fn(&EngineConfig) -> Result<Box<dyn Player>, PlayerError> + Sync;

/// Live state for progress display.
pub struct Progress<'a> {
    /// Games finished (resumed ones included).
    pub done: usize,
    /// Games in this run's schedule (resumed ones included).
    pub total: usize,
    /// Per-pairing results so far.
    pub stats: &'a [PairingStats],
    /// SPRT log-likelihood ratio and bounds, if running one.
    pub sprt: Option<(f64, f64, f64)>,
    /// The game that just ended (None for the initial call).
    pub last: Option<&'a GameRow>,
}

/// The end of a match.
#[derive(Clone, Debug)]
pub struct MatchReport {
    /// Per-pairing results.
    pub stats: Vec<PairingStats>,
    /// Games recorded (resumed ones included).
    pub games: usize,
    /// Games played in this run.
    pub played: usize,
    /// Wall time of this run.
    pub seconds: f64,
    /// The SPRT decision, if one was run.
    pub sprt: Option<SprtState>,
}

/// Why a match could not be run (or finished).
#[derive(Debug, thiserror::Error)]
pub enum MatchError {
    /// Fewer than two engines.
    #[error("a match needs at least two engines")]
    TooFewEngines,
    /// No opening.
    #[error("a match needs at least one opening")]
    NoOpenings,
    /// The per-game CSV (its identity, a row, I/O).
    #[error(transparent)]
    Results(#[from] ResultsError),
    /// The per-game CSV as a record file.
    #[error(transparent)]
    Record(#[from] RecordError),
    /// A recorded game that this match's schedule does not have.
    #[error("{file}: game {game} does not belong to this match's schedule (different settings?)")]
    NotInSchedule {
        /// The per-game CSV.
        file: String,
        /// The game number.
        game: usize,
    },
    /// A game recorded twice.
    #[error("{file}: game {game} appears twice")]
    Duplicate {
        /// The per-game CSV.
        file: String,
        /// The game number.
        game: usize,
    },
    /// A recorded game whose result and termination do not fit together.
    #[error("{file}: game {game}: result {result} cannot end by {termination}")]
    BadEnd {
        /// The per-game CSV.
        file: String,
        /// The game number.
        game: usize,
        /// Its result.
        result: GameResult,
        /// Its termination.
        termination: String,
    },
    /// Reading or writing the PGN or summary file.
    #[error("{file}: {source}")]
    Io {
        /// The file.
        file: String,
        /// The cause.
        source: std::io::Error,
    },
    /// A player could not be built.
    #[error("engine {name}: {message}")]
    Engine {
        /// The engine's name.
        name: String,
        /// The factory's message.
        message: String,
    },
    /// Appending a finished game failed.
    #[error("writing results: {0}")]
    WritingResults(ResultsError),
    /// Appending a finished game's PGN failed.
    #[error("writing PGN: {0}")]
    WritingPgn(std::io::Error),
}

fn io_error(path: &Path) -> impl FnOnce(std::io::Error) -> MatchError + '_ {
    move |source| MatchError::Io {
        file: path.display().to_string(),
        source,
    }
}

/// The settings of `cfg` that decide its games' results, for the per-game
/// CSV's header: a file resumed with any of them changed is refused. Not
/// included: the number of games or rounds (a match may be extended; every
/// recorded game is checked against the schedule), concurrency, the output
/// files and the SPRT (they do not change a game).
pub fn match_identity(cfg: &MatchConfig) -> RunIdentity {
    let mut id = RunIdentity::new().with("variant", cfg.variant.name());
    for (i, e) in cfg.engines.iter().enumerate() {
        id.set(&format!("engine.{}", i + 1), engine_identity(e));
    }
    let s = &cfg.schedule;
    let openings: String = cfg.openings.iter().map(|o| o.describe() + "\n").collect();
    let rule = |r: Option<ScoreRule>| {
        r.map_or_else(
            || "off".to_string(),
            |r| format!("score={} moves={} after={}", r.score, r.moves, r.after),
        )
    };
    let adj = &cfg.adjudication;
    id.with(
        "format",
        match s.format {
            Format::RoundRobin => "round_robin",
            Format::Gauntlet => "gauntlet",
        },
    )
    .with("repeat", s.repeat)
    .with(
        "openings",
        format!(
            "{} (checksum {:016x})",
            cfg.openings.len(),
            record::checksum(&openings)
        ),
    )
    .with("random_openings", s.random_openings)
    .with("seed", s.seed)
    .with("max_plies", adj.max_plies)
    .with("draw", rule(adj.draw))
    .with("resign", rule(adj.resign))
    .with("time_margin_ms", adj.time_margin.as_millis())
    .with(
        "shard",
        cfg.shard
            .map_or_else(|| "all".to_string(), |(i, n)| format!("{i}/{n}")),
    )
}

/// An engine as one identity field: name, limits, then every setting that
/// can change its play (not where its log or standard error go).
fn engine_identity(e: &EngineConfig) -> String {
    let mut words = vec![format!("name={}", e.name)];
    let l = &e.limits;
    if let Some(tc) = l.tc {
        let moves = tc.moves.map_or_else(String::new, |m| format!("{m}/"));
        words.push(format!(
            "tc={moves}{}+{}",
            tc.base.as_secs_f64(),
            tc.increment.as_secs_f64()
        ));
    }
    if let Some(n) = l.nodes {
        words.push(format!("nodes={n}"));
    }
    if let Some(d) = l.depth {
        words.push(format!("depth={d}"));
    }
    if let Some(t) = l.movetime {
        words.push(format!("st={}", t.as_secs_f64()));
    }
    match &e.kind {
        EngineKind::InProcess(p) => {
            if p.eval != EvalChoice::Default {
                words.push(format!("eval={}", p.eval));
            }
            if let Some(search) = &p.search {
                words.push(format!("search={}", search.display()));
            }
            words.push(format!("hash={}", p.hash_mb));
            words.push(format!("threads={}", p.threads));
        }
        EngineKind::External(x) => {
            words.push(format!("cmd={}", x.cmd.display()));
            if !x.args.is_empty() {
                words.push(format!("args={}", x.args.join(" ")));
            }
            if let Some(dir) = &x.dir {
                words.push(format!("dir={}", dir.display()));
            }
            words.push(format!("proto={:?}", x.proto).to_lowercase());
            words.extend(x.options.iter().map(|(k, v)| format!("option.{k}={v}")));
            words.extend(x.initstr.iter().map(|t| format!("initstr={t}")));
        }
    }
    words.join(" ")
}

/// Runs a match. `progress` is called from the calling thread after each game.
pub fn run(
    cfg: &MatchConfig,
    factory: &PlayerFactory,
    progress: &mut dyn FnMut(&Progress),
) -> Result<MatchReport, MatchError> {
    if cfg.engines.len() < 2 {
        return Err(MatchError::TooFewEngines);
    }
    if cfg.openings.is_empty() {
        return Err(MatchError::NoOpenings);
    }
    let started = std::time::Instant::now();
    let mut games = schedule::build(&cfg.schedule);
    if let Some((i, n)) = cfg.shard {
        games = schedule::shard(games, i, n);
    }
    let names: Vec<String> = cfg.engines.iter().map(|e| e.name.clone()).collect();
    let (writer, rows) = open_results(cfg, &games)?;
    let pgn_file = open_pgn(cfg, &games, &rows)?;
    let done: HashSet<usize> = rows.iter().map(|r| r.game).collect();
    let total = games.len();
    let todo: Vec<GameSpec> = games
        .into_iter()
        .filter(|g| !done.contains(&g.game))
        .collect();

    let mut state = Standing::new(cfg, &names, rows);
    progress(&state.progress(total, false));
    let decided_before = state.decided();
    if !decided_before {
        play(
            cfg,
            factory,
            &todo,
            writer,
            pgn_file,
            &mut state,
            &mut |s: &Standing| progress(&s.progress(total, true)),
        )?;
    }
    if let Some(path) = &cfg.summary {
        write_summary(path, cfg.variant.name(), &state.stats).map_err(io_error(path))?;
    }
    Ok(MatchReport {
        games: state.rows.len(),
        played: state.played,
        seconds: if decided_before {
            0.0
        } else {
            started.elapsed().as_secs_f64()
        },
        sprt: state.decision,
        stats: state.stats,
    })
}

/// Opens the per-game CSV (refusing an existing one without `--resume`,
/// or one of another match) and checks every recorded game against the
/// schedule `games`. Returns the writer and the recorded rows.
fn open_results(
    cfg: &MatchConfig,
    games: &[GameSpec],
) -> Result<(Option<GameWriter>, Vec<GameRow>), MatchError> {
    let Some(out) = &cfg.out else {
        return Ok((None, Vec::new()));
    };
    record::refuse_existing(out, cfg.resume, "match")?;
    let (writer, rows) = GameWriter::open(out, &match_identity(cfg))?;
    let file = out.display().to_string();
    let names: Vec<&str> = cfg.engines.iter().map(|e| e.name.as_str()).collect();
    let known: HashMap<usize, &GameSpec> = games.iter().map(|g| (g.game, g)).collect();
    let mut seen = HashSet::new();
    for r in &rows {
        let fits = known.get(&r.game).is_some_and(|g| {
            r.variant == cfg.variant.name()
                && r.round == g.round
                && r.pair == g.pair
                && r.white == names[g.white]
                && r.black == names[g.black]
                && r.opening == cfg.openings[g.opening % cfg.openings.len()].describe()
        });
        if !fits {
            return Err(MatchError::NotInSchedule { file, game: r.game });
        }
        if !seen.insert(r.game) {
            return Err(MatchError::Duplicate { file, game: r.game });
        }
    }
    Ok((Some(writer), rows))
}

/// The PGN file open for appending, locked for the run like the CSV.
type PgnOut = (std::fs::File, record::OutputLock);

/// Opens the PGN file for appending, and locks it (a PGN another run
/// writes is refused). When resuming, the CSV is the record:
/// the PGN is rebuilt from its rows, so that a crash between the two
/// writes neither loses nor repeats a game.
fn open_pgn(
    cfg: &MatchConfig,
    games: &[GameSpec],
    rows: &[GameRow],
) -> Result<Option<PgnOut>, MatchError> {
    let Some(p) = &cfg.pgn else { return Ok(None) };
    let lock = record::OutputLock::acquire(p, &p.display().to_string())?;
    let mut f = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(p)
        .map_err(io_error(p))?;
    if let (true, Some(out)) = (cfg.resume, &cfg.out) {
        let specs: HashMap<usize, &GameSpec> = games.iter().map(|g| (g.game, g)).collect();
        f.set_len(0).map_err(io_error(p))?;
        for r in rows {
            // `open_results` checked every row against the schedule.
            let Some(&&spec) = specs.get(&r.game) else {
                continue;
            };
            let opening = &cfg.openings[spec.opening % cfg.openings.len()];
            let record =
                r.to_record(spec, cfg.variant, opening)
                    .ok_or_else(|| MatchError::BadEnd {
                        file: out.display().to_string(),
                        game: r.game,
                        result: r.result,
                        termination: r.termination.clone(),
                    })?;
            f.write_all(pgn::write_game(&record, cfg.pgn_variant_names).as_bytes())
                .map_err(io_error(p))?;
        }
        f.flush().map_err(io_error(p))?;
    }
    Ok(Some((f, lock)))
}

/// The match so far: rows, their tally, and the SPRT's decision.
struct Standing<'a> {
    cfg: &'a MatchConfig,
    rows: Vec<GameRow>,
    tally: Tally,
    stats: Vec<PairingStats>,
    /// `(llr, lower bound, upper bound, state)` of the last game added.
    sprt: Option<(f64, f64, f64, SprtState)>,
    /// The first decision stands: games still running when it came are
    /// recorded, but do not reopen the test.
    decision: Option<SprtState>,
    played: usize,
}

impl<'a> Standing<'a> {
    fn new(cfg: &'a MatchConfig, names: &[String], rows: Vec<GameRow>) -> Standing<'a> {
        let mut tally = Tally::new(names);
        for r in &rows {
            tally.add(r);
        }
        let mut s = Standing {
            cfg,
            rows,
            tally,
            stats: Vec::new(),
            sprt: None,
            decision: None,
            played: 0,
        };
        s.update();
        s
    }

    fn update(&mut self) {
        self.stats = self.tally.stats();
        self.sprt = self.cfg.sprt.and_then(|sprt| {
            let s = self.stats.first()?;
            let (lo, hi) = sprt.bounds();
            Some((sprt.llr(&s.penta), lo, hi, sprt.state(&s.penta)))
        });
        if self.decision.is_none_or(|d| d == SprtState::Continue) {
            self.decision = self.sprt.map(|s| s.3);
        }
    }

    fn add(&mut self, row: GameRow) {
        self.tally.add(&row);
        self.rows.push(row);
        self.played += 1;
        self.update();
    }

    /// The SPRT has stopped the match.
    fn decided(&self) -> bool {
        self.decision.is_some_and(|d| d != SprtState::Continue)
    }

    fn progress(&self, total: usize, with_last: bool) -> Progress<'_> {
        Progress {
            done: self.rows.len(),
            total,
            stats: &self.stats,
            sprt: self.sprt.map(|s| (s.0, s.1, s.2)),
            last: if with_last { self.rows.last() } else { None },
        }
    }
}

/// A worker's message: a finished game, or why it stopped.
type WorkerMessage = Result<GameRecord, MatchError>;

/// Plays `todo` on `cfg.concurrency` threads, recording each game as it
/// ends (CSV, PGN) and adding it to `state`, until done, stopped by the
/// SPRT, or failed.
fn play(
    cfg: &MatchConfig,
    factory: &PlayerFactory,
    todo: &[GameSpec],
    mut writer: Option<GameWriter>,
    mut pgn_file: Option<PgnOut>,
    state: &mut Standing,
    progress: &mut dyn FnMut(&Standing),
) -> Result<(), MatchError> {
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let (tx, rx) = mpsc::channel::<WorkerMessage>();
    let mut failure: Option<MatchError> = None;
    std::thread::scope(|scope| {
        for _ in 0..cfg.concurrency.max(1).min(todo.len().max(1)) {
            let tx = tx.clone();
            let (next, stop) = (&next, &stop);
            scope.spawn(move || worker(cfg, factory, todo, next, stop, &tx));
        }
        drop(tx);
        for msg in rx {
            let record = match msg {
                Ok(r) => r,
                Err(e) => {
                    failure.get_or_insert(e);
                    continue;
                }
            };
            let row = GameRow::from(&record);
            if let Some(w) = writer.as_mut() {
                if let Err(e) = w.write(&row) {
                    failure.get_or_insert(MatchError::WritingResults(e));
                    stop.store(true, Ordering::Relaxed);
                }
            }
            if let Some((f, _)) = pgn_file.as_mut() {
                let text = pgn::write_game(&record, cfg.pgn_variant_names);
                if let Err(e) = f.write_all(text.as_bytes()).and_then(|_| f.flush()) {
                    failure.get_or_insert(MatchError::WritingPgn(e));
                    stop.store(true, Ordering::Relaxed);
                }
            }
            state.add(row);
            if state.decided() {
                stop.store(true, Ordering::Relaxed);
            }
            progress(state);
        }
    });
    failure.map_or(Ok(()), Err)
}

/// One worker thread: takes the next game of `todo` until none is left or
/// `stop` is set, with its own player instances (built on first use,
/// restarted or rebuilt after a crash).
fn worker(
    cfg: &MatchConfig,
    factory: &PlayerFactory,
    todo: &[GameSpec],
    next: &AtomicUsize,
    stop: &AtomicBool,
    tx: &mpsc::Sender<WorkerMessage>,
) {
    let mut players: Vec<Option<Box<dyn Player>>> = cfg.engines.iter().map(|_| None).collect();
    loop {
        if stop.load(Ordering::Relaxed) {
            return;
        }
        let i = next.fetch_add(1, Ordering::Relaxed);
        let Some(spec) = todo.get(i) else { return };
        for idx in [spec.white, spec.black] {
            if players[idx].is_none() {
                match factory(&cfg.engines[idx]) {
                    Ok(p) => players[idx] = Some(p),
                    Err(e) => {
                        let name = cfg.engines[idx].name.clone();
                        let message = e.to_string();
                        let _ = tx.send(Err(MatchError::Engine { name, message }));
                        stop.store(true, Ordering::Relaxed);
                        return;
                    }
                }
            }
        }
        let opening = &cfg.openings[spec.opening % cfg.openings.len()];
        let mut crashed = [false; 2];
        let record = {
            let (w, b) = two_mut(&mut players, spec.white, spec.black);
            let (Some(w), Some(b)) = (w.as_deref_mut(), b.as_deref_mut()) else {
                return;
            };
            let limits = [
                &cfg.engines[spec.white].limits,
                &cfg.engines[spec.black].limits,
            ];
            play_observed_game(
                cfg.variant,
                spec,
                opening,
                [w, b],
                limits,
                &cfg.adjudication,
                &mut crashed,
                &mut (),
            )
        };
        for (side, idx) in [(0, spec.white), (1, spec.black)] {
            if crashed[side] {
                // Restart in place, or build a new instance.
                let ok = players[idx].as_mut().is_some_and(|p| p.restart().is_ok());
                if !ok {
                    players[idx] = None;
                }
            }
        }
        if tx.send(Ok(record)).is_err() {
            return;
        }
    }
}

/// Two distinct mutable elements of a slice.
fn two_mut<T>(v: &mut [T], a: usize, b: usize) -> (&mut T, &mut T) {
    assert_ne!(a, b, "a player cannot play itself");
    if a < b {
        let (x, y) = v.split_at_mut(b);
        (&mut x[a], &mut y[0])
    } else {
        let (x, y) = v.split_at_mut(a);
        (&mut y[0], &mut x[b])
    }
}
