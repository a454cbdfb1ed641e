//! Labelled positions for tuning.
//!
//! **Self-play** ([`run`]): games of the engine against itself at a fixed
//! node count, each from a varied opening (a book position if one is given,
//! then `random_plies` uniformly random moves), on every core. Every quiet
//! position after the opening (side to move not in check, the move chosen
//! neither a capture nor a promotion; see [`crate::qleaf::is_quiet`]) is
//! written with the game's final result from White's view. A game ends by the
//! rules (repetition and the 50-move rule included), when the search reports
//! a forced win (the result is then known), or as a draw after `max_plies`.
//!
//! **Resuming.** The file starts with a settings comment
//! (`# varia datagen variant=... nodes=... seed=...`) and the `fen,result`
//! header. Each finished game is appended as one block — its positions, then
//! a `# game N` line — and flushed. Game `N` is a function of the seed and
//! `N` alone (its own random stream, one search thread at a fixed node count,
//! a cleared hash table), so the thread that plays it does not matter. On
//! restart the file is read back: games with a `# game N` line are done,
//! anything after the last such line (a block cut short by a crash) is cut
//! off, and the remaining games of `1..=games` are played. A run with other
//! settings (other than `--games`, which may grow) is refused.
//!
//! **From games** ([`from_games`]): the same quiet positions from the match
//! runner's per-game CSV (the opening's moves are skipped) or a PGN file
//! (the first `skip_plies` plies are skipped).

use crate::positions::{format_result, HEADER};
use crate::qleaf::{is_quiet, white_score};
use crate::rng::Rng;
use crate::{Error, Result};
use arena::Opening;
use movegen::{dispatch, Game, Position, Variant, VariantKind};
use search::{EvalParams, Limits, Shared, MATE_BOUND};
use std::collections::HashSet;
use std::io::{BufRead, BufReader, Seek, SeekFrom, Write};
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;

/// Settings of a self-play run.
#[derive(Clone, Debug)]
pub struct DatagenConfig {
    /// The game.
    pub variant: VariantKind,
    /// Games to have in the file (resumed ones included).
    pub games: usize,
    /// Nodes per move.
    pub nodes: u64,
    /// Random plies after the book position.
    pub random_plies: usize,
    /// A game still going after this many plies (opening included) is a draw.
    pub max_plies: usize,
    /// Seed of the openings.
    pub seed: u64,
    /// Worker threads.
    pub threads: usize,
    /// Hash table per thread, in MB.
    pub hash_mb: usize,
    /// Opening book (empty: the start position).
    pub book: Vec<Opening>,
    /// Name of the book in the settings line (`none` without one).
    pub book_name: String,
    /// Evaluation the games are played with (`None`: the defaults).
    pub params: Option<EvalParams>,
}

impl DatagenConfig {
    /// The settings line at the top of the file.
    pub fn settings_line(&self) -> String {
        format!(
            "# varia datagen variant={} nodes={} seed={} random_plies={} max_plies={} book={} eval={}",
            self.variant.name(),
            self.nodes,
            self.seed,
            self.random_plies,
            self.max_plies,
            self.book_name,
            if self.params.is_some() { "file" } else { "default" }
        )
    }
}

/// Progress of a run.
#[derive(Clone, Copy, Debug)]
pub struct DatagenProgress {
    /// Games in the file.
    pub done: usize,
    /// Games wanted.
    pub total: usize,
    /// Games played by this run.
    pub played: usize,
    /// Positions written by this run.
    pub positions: u64,
}

/// One finished game: its quiet positions and result.
#[derive(Clone, Debug, PartialEq)]
pub struct GamePositions {
    /// Game number (from 1).
    pub id: usize,
    /// FENs of the quiet positions.
    pub fens: Vec<String>,
    /// White's score.
    pub result: f64,
}

impl GamePositions {
    /// The block written for this game: positions, then `# game N`.
    pub fn block(&self) -> String {
        let r = format_result(self.result);
        let mut s = String::with_capacity(self.fens.len() * 64 + 16);
        for f in &self.fens {
            s.push_str(f);
            s.push(',');
            s.push_str(r);
            s.push('\n');
        }
        s.push_str(&format!("# game {}\n", self.id));
        s
    }
}

/// A varied opening for unit `(a, b)` of a run seeded `seed`: a book entry
/// chosen at random (or the start position), then `random_plies` uniformly
/// random legal moves, retried with the next random stream until the game
/// is still going.
pub fn make_opening<V: Variant>(
    book: &[Opening],
    random_plies: usize,
    seed: u64,
    a: u64,
    b: u64,
) -> Result<Game<V>> {
    for attempt in 0..1000u64 {
        let mut rng = Rng::new(seed, a, b.wrapping_mul(1000).wrapping_add(attempt));
        let mut game = if book.is_empty() {
            Game::new(Position::<V>::startpos())
        } else {
            let o = &book[rng.below(book.len())];
            let start = Position::<V>::from_fen(&o.fen).map_err(|e| Error(format!("book: {e}")))?;
            let mut g = Game::new(start);
            for m in &o.moves {
                g.play_uci(m).map_err(|e| Error(format!("book: {e}")))?;
            }
            g
        };
        let mut ok = true;
        for _ in 0..random_plies {
            if game.outcome().is_some() {
                ok = false;
                break;
            }
            let moves = game.position().legal_moves();
            if moves.is_empty() {
                ok = false;
                break;
            }
            game.play_unchecked(moves[rng.below(moves.len())]);
        }
        if ok && game.outcome().is_none() {
            return Ok(game);
        }
    }
    Err(Error(format!(
        "no opening for ({a}, {b}) that does not end the game"
    )))
}

/// A game's opening as the match runner takes it: start FEN and UCI moves.
pub fn to_opening<V: Variant>(game: &Game<V>) -> Opening {
    Opening {
        fen: game.start().fen(),
        moves: game.moves().iter().map(|m| m.uci()).collect(),
    }
}

fn opening<V: Variant>(cfg: &DatagenConfig, id: usize) -> Result<Game<V>> {
    make_opening::<V>(&cfg.book, cfg.random_plies, cfg.seed, id as u64, 0)
}

/// Plays self-play game `id` (deterministic for given settings).
pub fn play_game<V: Variant>(
    cfg: &DatagenConfig,
    id: usize,
    params: &EvalParams,
    shared: &mut Shared,
) -> Result<GamePositions> {
    let mut game = opening::<V>(cfg, id)?;
    shared.tt.clear();
    let limits = Limits::nodes(cfg.nodes.max(1));
    let mut fens = Vec::new();
    let result = loop {
        if let Some(o) = game.outcome() {
            break white_score(o);
        }
        if game.moves().len() >= cfg.max_plies {
            break 0.5;
        }
        let pos = *game.position();
        let keys = game.keys();
        let r = search::search(
            &pos,
            &keys[..keys.len() - 1],
            &limits,
            params,
            shared,
            1,
            &mut |_| {},
        );
        let Some(m) = r.best else { break 0.5 };
        if is_quiet(&pos, m) {
            fens.push(pos.fen());
        }
        if r.score.abs() > MATE_BOUND {
            // A forced win found: the result is known.
            let mover_wins = r.score > 0;
            break if mover_wins == pos.turn().is_white() {
                1.0
            } else {
                0.0
            };
        }
        game.play_unchecked(m);
    };
    Ok(GamePositions { id, fens, result })
}

/// Reads back an existing output file: checks its settings line, cuts off a
/// trailing partial block, and returns the finished game numbers and the
/// number of positions kept.
fn resume_scan(path: &Path, settings: &str) -> Result<(HashSet<usize>, u64)> {
    let name = path.display().to_string();
    let io = |e: std::io::Error| Error(format!("{name}: {e}"));
    let (file, _) = search::input::open(path).map_err(io)?;
    let mut reader = BufReader::new(file);
    let mut line = String::new();
    let mut offset: u64 = 0;
    let mut keep: u64 = 0;
    let mut done = HashSet::new();
    let mut positions = 0u64;
    let mut pending = 0u64;
    let mut n = 0usize;
    loop {
        line.clear();
        let read = reader.read_line(&mut line).map_err(io)?;
        if read == 0 {
            break;
        }
        n += 1;
        offset += read as u64;
        let complete = line.ends_with('\n');
        let t = line.trim_end();
        if n == 1 {
            if t != settings {
                return Err(Error(format!(
                    "{name} was written with other settings (\"{}\"; this run: \"{}\"): choose another --out or the same settings",
                    t.trim_start_matches("# "),
                    settings.trim_start_matches("# ")
                )));
            }
            continue;
        }
        if n == 2 {
            if t != HEADER || !complete {
                return Err(Error(format!("{name}:2: expected the header \"{HEADER}\"")));
            }
            keep = offset;
            continue;
        }
        if let Some(id) = t.strip_prefix("# game ") {
            if !complete {
                break;
            }
            let id: usize = id
                .trim()
                .parse()
                .map_err(|_| Error(format!("{name}:{n}: bad game marker \"{t}\"")))?;
            done.insert(id);
            positions += pending;
            pending = 0;
            keep = offset;
        } else if !t.starts_with('#') && !t.is_empty() {
            pending += 1;
        }
    }
    if n < 2 {
        return Err(Error(format!(
            "{name}: no \"{HEADER}\" header: not a datagen file (remove it or choose another --out)"
        )));
    }
    let f = std::fs::OpenOptions::new()
        .write(true)
        .open(path)
        .map_err(io)?;
    f.set_len(keep).map_err(io)?;
    Ok((done, positions))
}

/// Runs self-play data generation into `out` (resuming it if it exists).
/// `progress` is called from the calling thread after each game.
pub fn run(
    cfg: &DatagenConfig,
    out: &Path,
    progress: &mut dyn FnMut(&DatagenProgress),
) -> Result<DatagenProgress> {
    let name = out.display().to_string();
    let io = |e: std::io::Error| Error(format!("{name}: {e}"));
    let settings = cfg.settings_line();
    let exists = out.exists() && std::fs::metadata(out).map(|m| m.len() > 0).unwrap_or(false);
    let (done, _kept) = if exists {
        resume_scan(out, &settings)?
    } else {
        std::fs::write(out, format!("{settings}\n{HEADER}\n")).map_err(io)?;
        (HashSet::new(), 0)
    };
    let todo: Vec<usize> = (1..=cfg.games).filter(|g| !done.contains(g)).collect();
    let mut file = std::fs::OpenOptions::new()
        .append(true)
        .open(out)
        .map_err(io)?;
    file.seek(SeekFrom::End(0)).map_err(io)?;
    let params = cfg
        .params
        .clone()
        .unwrap_or_else(|| EvalParams::default_for(cfg.variant));
    let mut state = DatagenProgress {
        done: (1..=cfg.games).filter(|g| done.contains(g)).count(),
        total: cfg.games,
        played: 0,
        positions: 0,
    };
    progress(&state);
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let (tx, rx) = mpsc::channel::<Result<GamePositions>>();
    let mut failure: Option<Error> = None;
    std::thread::scope(|s| {
        for _ in 0..cfg.threads.max(1).min(todo.len().max(1)) {
            let tx = tx.clone();
            let (todo, next, stop, params) = (&todo, &next, &stop, &params);
            s.spawn(move || {
                let mut shared = Shared::new(cfg.hash_mb.max(1));
                loop {
                    if stop.load(Ordering::Relaxed) {
                        return;
                    }
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(&id) = todo.get(i) else { return };
                    let g =
                        dispatch!(cfg.variant, V => play_game::<V>(cfg, id, params, &mut shared));
                    if tx.send(g).is_err() {
                        return;
                    }
                }
            });
        }
        drop(tx);
        for msg in rx {
            match msg {
                Ok(g) => {
                    if failure.is_some() {
                        continue;
                    }
                    if let Err(e) = file
                        .write_all(g.block().as_bytes())
                        .and_then(|_| file.flush())
                    {
                        failure = Some(io(e));
                        stop.store(true, Ordering::Relaxed);
                        continue;
                    }
                    state.done += 1;
                    state.played += 1;
                    state.positions += g.fens.len() as u64;
                    progress(&state);
                }
                Err(e) => {
                    failure.get_or_insert(e);
                    stop.store(true, Ordering::Relaxed);
                }
            }
        }
    });
    match failure {
        Some(e) => Err(e),
        None => Ok(state),
    }
}

/// Terminations whose result says nothing about the position.
const NOISE: [&str; 3] = ["crash", "illegal_move", "time"];

fn game_positions<V: Variant>(
    start_fen: &str,
    book: &[&str],
    moves: &[&str],
    skip: usize,
    result: f64,
    id: usize,
) -> std::result::Result<GamePositions, String> {
    let mut pos = Position::<V>::from_fen(start_fen).map_err(|e| format!("bad FEN: {e}"))?;
    for m in book {
        let mv = pos
            .parse_uci(m)
            .map_err(|e| format!("opening move {m}: {e}"))?;
        pos = pos.play_unchecked(mv);
    }
    let mut fens = Vec::new();
    for (i, m) in moves.iter().enumerate() {
        let mv = pos.parse_uci(m).map_err(|e| format!("move {m}: {e}"))?;
        if i >= skip && is_quiet(&pos, mv) {
            fens.push(pos.fen());
        }
        pos = pos.play_unchecked(mv);
    }
    Ok(GamePositions { id, fens, result })
}

/// Quiet positions of the games in `path` for `kind`: a per-game CSV of
/// `varia match` (rows of other games, unfinished games and games lost by a
/// crash, time or an illegal move are skipped; the opening's moves are not
/// used), or a PGN file (`.pgn`; the first `skip_plies` plies are skipped).
/// Returns the games and how many were skipped.
pub fn from_games(
    path: &Path,
    kind: VariantKind,
    skip_plies: usize,
) -> Result<(Vec<GamePositions>, usize)> {
    let name = path.display().to_string();
    let is_pgn = path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("pgn"));
    let mut out = Vec::new();
    let mut skipped = 0;
    if is_pgn {
        let text =
            search::input::read_to_string(path).map_err(|e| Error(format!("{name}: {e}")))?;
        let games = arena::pgn::read_games(&text, kind)
            .map_err(|e| Error(format!("{name}:{}: {}", e.line, e.message)))?;
        for (i, g) in games.iter().enumerate() {
            let Some(r) = crate::positions::parse_result(&g.result) else {
                skipped += 1;
                continue;
            };
            let moves: Vec<&str> = g.moves.iter().map(String::as_str).collect();
            let gp = dispatch!(kind, V => game_positions::<V>(&g.start_fen, &[], &moves, skip_plies, r as f64, i + 1))
                .map_err(|e| Error(format!("{name}: game {}: {e}", i + 1)))?;
            out.push(gp);
        }
    } else {
        let rows = arena::results::read_games(path).map_err(Error)?;
        for (i, row) in rows.iter().enumerate() {
            let line = i + 2;
            let same = row
                .variant
                .parse::<VariantKind>()
                .map_err(|e| Error(format!("{name}:{line}: {e}")))?
                == kind;
            let Some(r) = crate::positions::parse_result(&row.result) else {
                skipped += 1;
                continue;
            };
            if !same || NOISE.contains(&row.termination.as_str()) {
                skipped += 1;
                continue;
            }
            let (fen, book) = match row.opening.split_once(" moves ") {
                Some((f, m)) => (f.trim(), m.split_whitespace().collect::<Vec<_>>()),
                None => (row.opening.trim(), Vec::new()),
            };
            let moves: Vec<&str> = row.moves.split_whitespace().collect();
            let gp = dispatch!(kind, V => game_positions::<V>(fen, &book, &moves, 0, r as f64, row.game))
                .map_err(|e| Error(format!("{name}:{line}: game {}: {e}", row.game)))?;
            out.push(gp);
        }
    }
    Ok((out, skipped))
}

/// Writes games' positions to `out` (a fresh file: header, then one block per game).
pub fn write_games(out: &Path, games: &[GamePositions], comment: &str) -> Result<u64> {
    let name = out.display().to_string();
    let mut s = format!("# {comment}\n{HEADER}\n");
    let mut n = 0;
    for g in games {
        s.push_str(&g.block());
        n += g.fens.len() as u64;
    }
    std::fs::write(out, s).map_err(|e| Error(format!("{name}: {e}")))?;
    Ok(n)
}
