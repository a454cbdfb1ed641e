//! The match runner: plays a schedule of games on `concurrency` threads,
//! each thread with its own player instances, and records every game as it
//! ends (CSV row appended and flushed, PGN appended) from one writer thread.
//! Resuming reads the CSV back and skips finished games; the schedule being a
//! function of the seed, the totals equal an uninterrupted run's.

use crate::game::{play_game, Adjudication, GameRecord};
use crate::openings::Opening;
use crate::pgn;
use crate::player::Player;
use crate::results::{read_games, write_summary, GameRow, GameWriter, PairingStats, Tally};
use crate::schedule::{self, GameSpec, ScheduleSpec};
use crate::stats::{Sprt, SprtState};
use crate::tc::MoveLimits;
use movegen::{dispatch, VariantKind};
use std::collections::{HashMap, HashSet};
use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;

/// A player's settings as given on the command line.
#[derive(Clone, Debug, PartialEq)]
pub struct EngineSpec {
    /// Name in results.
    pub name: String,
    /// Per-move limits.
    pub limits: MoveLimits,
    /// Everything else (`eval=`, `hash=`, `cmd=`, `proto=`, `option.X=`), for
    /// the player factory.
    pub settings: Vec<(String, String)>,
}

impl EngineSpec {
    /// The value of a setting.
    pub fn get(&self, key: &str) -> Option<&str> {
        self.settings
            .iter()
            .rev()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }
}

/// Everything a match needs.
pub struct MatchConfig {
    /// The game.
    pub variant: VariantKind,
    /// Players, in order.
    pub engines: Vec<EngineSpec>,
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
    /// Summary CSV.
    pub summary: Option<PathBuf>,
    /// Continue from `out`.
    pub resume: bool,
    /// Stop when this test decides (two players).
    pub sprt: Option<Sprt>,
    /// Only shard `(index, count)` of the schedule.
    pub shard: Option<(usize, usize)>,
}

/// Builds a player from its settings.
pub type PlayerFactory = dyn Fn(&EngineSpec) -> Result<Box<dyn Player>, String> + Sync;

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

/// Runs a match. `progress` is called from the calling thread after each game.
pub fn run(
    cfg: &MatchConfig,
    factory: &PlayerFactory,
    progress: &mut dyn FnMut(&Progress),
) -> Result<MatchReport, String> {
    if cfg.engines.len() < 2 {
        return Err("a match needs at least two engines".into());
    }
    if cfg.openings.is_empty() {
        return Err("a match needs at least one opening".into());
    }
    let started = std::time::Instant::now();
    let mut games = schedule::build(&cfg.schedule);
    if let Some((i, n)) = cfg.shard {
        games = schedule::shard(games, i, n);
    }
    let names: Vec<String> = cfg.engines.iter().map(|e| e.name.clone()).collect();

    let mut rows: Vec<GameRow> = Vec::new();
    if let Some(out) = &cfg.out {
        let exists = out.exists() && std::fs::metadata(out).map(|m| m.len() > 0).unwrap_or(false);
        if exists && !cfg.resume {
            return Err(format!(
                "{} already exists: pass --resume to continue that match, or choose another --out",
                out.display()
            ));
        }
        if exists {
            rows = read_games(out)?;
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
                    return Err(format!(
                        "{}: game {} does not belong to this match's schedule (different settings?)",
                        out.display(),
                        r.game
                    ));
                }
                if !seen.insert(r.game) {
                    return Err(format!("{}: game {} appears twice", out.display(), r.game));
                }
            }
            // A row cut short by a crash has no newline: cut it off, so the
            // next row starts on a line of its own (truncating in place
            // keeps every finished row even if this run is killed too).
            let bytes = search::input::read(out).map_err(|e| format!("{}: {e}", out.display()))?;
            let keep = bytes.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
            if keep < bytes.len() {
                std::fs::OpenOptions::new()
                    .write(true)
                    .open(out)
                    .and_then(|f| f.set_len(keep as u64))
                    .map_err(|e| format!("{}: {e}", out.display()))?;
            }
        }
    }
    let done: HashSet<usize> = rows.iter().map(|r| r.game).collect();
    let total = games.len();
    let todo: Vec<GameSpec> = games
        .into_iter()
        .filter(|g| !done.contains(&g.game))
        .collect();

    let mut writer = match &cfg.out {
        Some(p) => Some(GameWriter::open(p).map_err(|e| format!("{}: {e}", p.display()))?),
        None => None,
    };
    let mut pgn_file = match &cfg.pgn {
        Some(p) => {
            let mut f = std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(p)
                .map_err(|e| format!("{}: {e}", p.display()))?;
            if cfg.resume && cfg.out.is_some() {
                // The CSV is the record: rebuild the PGN from it, so that a
                // crash between the two writes neither loses nor repeats a game.
                f.set_len(0).map_err(|e| format!("{}: {e}", p.display()))?;
                for r in &rows {
                    f.write_all(pgn_of_row(cfg.variant, r).as_bytes())
                        .map_err(|e| format!("{}: {e}", p.display()))?;
                }
                f.flush().map_err(|e| format!("{}: {e}", p.display()))?;
            }
            Some(f)
        }
        None => None,
    };

    let sprt_of = |stats: &[PairingStats]| -> Option<(f64, f64, f64, SprtState)> {
        let sprt = cfg.sprt?;
        let s = stats.first()?;
        let (lo, hi) = sprt.bounds();
        Some((sprt.llr(&s.penta), lo, hi, sprt.state(&s.penta)))
    };
    let mut tally = Tally::new(&names);
    for r in &rows {
        tally.add(r);
    }
    let mut stats = tally.stats();
    let mut decision = sprt_of(&stats).map(|s| s.3);
    progress(&Progress {
        done: rows.len(),
        total,
        stats: &stats,
        sprt: sprt_of(&stats).map(|s| (s.0, s.1, s.2)),
        last: None,
    });
    if decision.is_some_and(|d| d != SprtState::Continue) {
        if let Some(path) = &cfg.summary {
            write_summary(path, cfg.variant.name(), &stats)
                .map_err(|e| format!("{}: {e}", path.display()))?;
        }
        return Ok(MatchReport {
            stats,
            games: rows.len(),
            played: 0,
            seconds: 0.0,
            sprt: decision,
        });
    }

    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let (tx, rx) = mpsc::channel::<Result<GameRecord, String>>();
    let mut played = 0;
    let mut failure: Option<String> = None;
    std::thread::scope(|scope| {
        for _ in 0..cfg.concurrency.max(1).min(todo.len().max(1)) {
            let tx = tx.clone();
            let (todo, next, stop) = (&todo, &next, &stop);
            scope.spawn(move || {
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
                                    let _ = tx.send(Err(format!("engine {}: {e}", cfg.engines[idx].name)));
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
                        let (Some(w), Some(b)) = (w.as_deref_mut(), b.as_deref_mut()) else { return };
                        let limits = [&cfg.engines[spec.white].limits, &cfg.engines[spec.black].limits];
                        dispatch!(cfg.variant, V => play_game::<V>(spec, opening, [w, b], limits, &cfg.adjudication, &mut crashed))
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
            });
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
                    failure.get_or_insert(format!("writing results: {e}"));
                    stop.store(true, Ordering::Relaxed);
                }
            }
            if let Some(f) = pgn_file.as_mut() {
                let text = pgn_of_record(cfg.variant, &record);
                if let Err(e) = f.write_all(text.as_bytes()).and_then(|_| f.flush()) {
                    failure.get_or_insert(format!("writing PGN: {e}"));
                    stop.store(true, Ordering::Relaxed);
                }
            }
            tally.add(&row);
            rows.push(row);
            played += 1;
            stats = tally.stats();
            let s = sprt_of(&stats);
            // The first decision stands: games still running when it came
            // are recorded, but do not reopen the test.
            if decision.is_none_or(|d| d == SprtState::Continue) {
                decision = s.map(|s| s.3);
            }
            if decision.is_some_and(|d| d != SprtState::Continue) {
                stop.store(true, Ordering::Relaxed);
            }
            progress(&Progress {
                done: rows.len(),
                total,
                stats: &stats,
                sprt: s.map(|s| (s.0, s.1, s.2)),
                last: rows.last(),
            });
        }
    });
    if let Some(e) = failure {
        return Err(e);
    }
    if let Some(path) = &cfg.summary {
        write_summary(path, cfg.variant.name(), &stats)
            .map_err(|e| format!("{}: {e}", path.display()))?;
    }
    Ok(MatchReport {
        stats,
        games: rows.len(),
        played,
        seconds: started.elapsed().as_secs_f64(),
        sprt: decision,
    })
}

/// The PGN text of a finished game.
pub fn pgn_of_record(kind: VariantKind, r: &GameRecord) -> String {
    pgn::write_game(
        kind,
        "varia match",
        &format!("{}.{}", r.spec.round, r.spec.game),
        &r.white,
        &r.black,
        &r.result,
        &r.termination,
        &r.opening.fen,
        &[r.opening.moves.clone(), r.moves.clone()].concat(),
    )
}

/// The PGN text of a game read back from the per-game CSV.
pub fn pgn_of_row(kind: VariantKind, r: &GameRow) -> String {
    let (fen, opening_moves) = match r.opening.split_once(" moves ") {
        Some((f, m)) => (f, m),
        None => (r.opening.as_str(), ""),
    };
    let moves: Vec<String> = opening_moves
        .split_whitespace()
        .chain(r.moves.split_whitespace())
        .map(str::to_string)
        .collect();
    pgn::write_game(
        kind,
        "varia match",
        &format!("{}.{}", r.round, r.game),
        &r.white,
        &r.black,
        &r.result,
        &r.termination,
        fen,
        &moves,
    )
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
