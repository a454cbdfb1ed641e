//! Labelled positions for tuning.
//!
//! **Self-play** ([`run`]): games of the engine against itself at a fixed
//! node count, each from a varied opening (a book position if one is given,
//! then `random_plies` uniformly random moves), on every core. The games
//! are played by the match runner's game loop (`arena::game`), each side
//! with its own table as in a match; a [`GameObserver`] records every quiet
//! position after the opening (side to move not in check, the move chosen
//! neither a capture nor a promotion; see [`crate::qleaf::is_quiet`]), which
//! is written with the game's final result from White's view. A game ends by
//! the rules (repetition and the 50-move rule included), when the search
//! reports a forced win (the result is then known), or as a draw after
//! `max_plies`.
//!
//! **Resuming.** The file is an [`arena::record`] file: a `# varia datagen
//! v1` line, the run's settings as `# key: value` lines
//! ([`DatagenConfig::identity`]) and the `fen,result` header. Each finished
//! game is appended as one block — its positions, then a `# game N` line —
//! and flushed. Game `N` is a function of the seed and
//! `N` alone (its own random stream, one search thread at a fixed node count,
//! cleared hash tables), so the thread that plays it does not matter. On
//! restart the file is read back: games with a `# game N` line are done,
//! anything after the last such line (a block cut short by a crash) is cut
//! off, and the remaining games of `1..=games` are played. A run with other
//! settings (other than `--games`, which may grow) is refused, naming the
//! first setting that differs.
//!
//! **From games** ([`from_games`]): the same quiet positions from the match
//! runner's per-game CSV (the opening's moves are skipped) or a PGN file
//! (the first `skip_plies` plies are skipped).

use crate::positions::{format_result, HEADER};
use crate::qleaf::is_quiet;
use crate::rng::stream;
use crate::{Error, Result};
use arena::game::{play_observed_game, GameEnd, GameObserver, Verdict};
use arena::openings::random_opening;
use arena::record::{AppendLog, Record, RecordFormat, RunIdentity};
use arena::{Adjudication, GameSpec, InProcess, MoveLimits, Opening};
use movegen::{dispatch, with_game, Game, Move, Position, Variant, VariantGame, VariantKind};
use search::{Evaluator, MATE_BOUND};
use std::collections::HashSet;
use std::path::Path;

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
    /// Hash table of each side's engine, in MB (two per thread).
    pub hash_mb: usize,
    /// Opening book (empty: the start position).
    pub book: Vec<Opening>,
    /// Name of the book in the settings line (`none` without one).
    pub book_name: String,
    /// Evaluation the games are played with (`None`: the game's built-in
    /// one).
    pub evaluator: Option<Evaluator>,
}

impl DatagenConfig {
    /// The settings that decide the file's games, written on top of it
    /// (not `--games`, which may grow, nor threads or hash: games are
    /// played with one search thread and a cleared table).
    pub fn identity(&self) -> RunIdentity {
        RunIdentity::new()
            .with("variant", self.variant.name())
            .with("nodes", self.nodes)
            .with("seed", self.seed)
            .with("random_plies", self.random_plies)
            .with("max_plies", self.max_plies)
            .with("book", &self.book_name)
            .with(
                "eval",
                match &self.evaluator {
                    None => "default".to_string(),
                    Some(Evaluator::Classical(_)) => "file".to_string(),
                    Some(Evaluator::Network(net)) => format!("network {:016x}", net.hash()),
                },
            )
    }
}

/// The self-play output format (no row checksums: the rows are the plain
/// `fen,result` lines every position reader takes).
pub const DATAGEN_FORMAT: RecordFormat = RecordFormat {
    kind: "varia datagen",
    version: 1,
    checksum: false,
};

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
        let mut rng = stream(seed, a, b.wrapping_mul(1000).wrapping_add(attempt));
        let opening = random_opening::<V>(book, random_plies, &mut |n| rng.below(n))
            .map_err(|e| Error::Book(e.to_string()))?;
        if let Some(game) = opening {
            return Ok(game);
        }
    }
    Err(Error::NoOpening(a, b))
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

/// Records a self-play game's quiet positions as it is played, and ends it
/// at the length limit or once a search has found a forced win.
struct Recorder {
    max_plies: usize,
    fens: Vec<String>,
}

impl GameObserver for Recorder {
    fn on_move(&mut self, game: &VariantGame, mv: Move, score: Option<i32>) -> Option<Verdict> {
        if game.ply() >= self.max_plies {
            return Some(Verdict::Draw);
        }
        if with_game!(game, V, g => is_quiet(g.position(), mv)) {
            self.fens.push(game.fen());
        }
        // A forced win found: the result is known.
        let mover = game.turn();
        match score {
            Some(s) if s > MATE_BOUND => Some(Verdict::Win(mover)),
            Some(s) if s < -MATE_BOUND => Some(Verdict::Win(mover.other())),
            _ => None,
        }
    }
}

/// The two sides of self-play: the engine with the run's weights, each
/// side with its own table, as in a match.
pub fn self_play_players(cfg: &DatagenConfig, evaluator: &Evaluator) -> [InProcess; 2] {
    let player = || InProcess::with_evaluator("varia", evaluator.clone(), cfg.hash_mb.max(1));
    [player(), player()]
}

/// Plays self-play game `id` through the match runner's game loop
/// (deterministic for given settings: each player clears its table for a
/// new game and searches a fixed number of nodes with one thread).
pub fn play_game<V: Variant>(
    cfg: &DatagenConfig,
    id: usize,
    players: &mut [InProcess; 2],
) -> Result<GamePositions> {
    let opening = to_opening(&opening::<V>(cfg, id)?);
    let spec = GameSpec::single(id);
    let limits = MoveLimits {
        nodes: Some(cfg.nodes.max(1)),
        ..MoveLimits::default()
    };
    // The length limit counts the opening too, so the recorder keeps it.
    let adjudication = Adjudication {
        max_plies: 0,
        draw: None,
        resign: None,
        ..Adjudication::default()
    };
    let mut recorder = Recorder {
        max_plies: cfg.max_plies,
        fens: Vec::new(),
    };
    let [white, black] = players;
    let record = play_observed_game(
        V::KIND,
        &spec,
        &opening,
        [white, black],
        [&limits, &limits],
        &adjudication,
        &mut [false; 2],
        &mut recorder,
    );
    if matches!(
        record.end,
        GameEnd::Time { .. } | GameEnd::Crash { .. } | GameEnd::IllegalMove { .. }
    ) {
        return Err(Error::SelfPlay {
            game: id,
            end: record.end.termination(),
        });
    }
    Ok(GamePositions {
        id,
        fens: recorder.fens,
        result: record.end.result().white_score(),
    })
}

/// The games finished in an existing output file (those with a `# game N`
/// line), and the length of the file up to the last of them: a block cut
/// short by a crash lies beyond.
fn finished_games(record: &Record, name: &str) -> Result<(HashSet<usize>, u64)> {
    let mut keep = record.header_len;
    let mut done = HashSet::new();
    for line in &record.lines {
        if let Some(id) = line.text.trim_end().strip_prefix("# game ") {
            let id: usize = id.trim().parse().map_err(|_| Error::Line {
                file: name.to_string(),
                line: line.number,
                message: format!("bad game marker \"{}\"", line.text),
            })?;
            done.insert(id);
            keep = line.end;
        }
    }
    Ok((done, keep))
}

/// Runs self-play data generation into `out` (resuming it if it exists).
/// `progress` is called from the calling thread after each game.
pub fn run(
    cfg: &DatagenConfig,
    out: &Path,
    progress: &mut dyn FnMut(&DatagenProgress),
) -> Result<DatagenProgress> {
    let name = out.display().to_string();
    let (mut log, old) = AppendLog::open(
        out,
        &DATAGEN_FORMAT,
        &cfg.identity(),
        &["fen", "result"],
        &name,
    )?;
    let done = match old {
        Some(record) => {
            let (done, keep) = finished_games(&record, &name)?;
            log.truncate(keep)?;
            done
        }
        None => HashSet::new(),
    };
    let todo: Vec<usize> = (1..=cfg.games).filter(|g| !done.contains(g)).collect();
    let evaluator = cfg
        .evaluator
        .clone()
        .unwrap_or_else(|| Evaluator::default_for(cfg.variant));
    let mut state = DatagenProgress {
        done: (1..=cfg.games).filter(|g| done.contains(g)).count(),
        total: cfg.games,
        played: 0,
        positions: 0,
    };
    progress(&state);
    crate::workers::for_each_parallel(
        &todo,
        cfg.threads,
        || Ok(self_play_players(cfg, &evaluator)),
        |players, &id| dispatch!(cfg.variant, V => play_game::<V>(cfg, id, players)),
        |g: GamePositions| {
            log.append_raw(&g.block())?;
            state.done += 1;
            state.played += 1;
            state.positions += g.fens.len() as u64;
            progress(&state);
            Ok(())
        },
    )?;
    Ok(state)
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
        let text = search::input::read_to_string(path).map_err(Error::io(&name))?;
        let games = arena::pgn::read_games(&text, kind).map_err(|e| Error::Line {
            file: name.clone(),
            line: e.line,
            message: e.message,
        })?;
        for (i, g) in games.iter().enumerate() {
            let Some(r) =
                arena::GameResult::from_pgn(&g.result).map(arena::GameResult::white_score)
            else {
                skipped += 1;
                continue;
            };
            let moves: Vec<&str> = g.moves.iter().map(String::as_str).collect();
            let gp = dispatch!(kind, V => game_positions::<V>(&g.start_fen, &[], &moves, skip_plies, r, i + 1))
                .map_err(|message| Error::Game { file: name.clone(), game: i + 1, message })?;
            out.push(gp);
        }
    } else {
        let rows = arena::results::read_games(path)?;
        for row in &rows {
            let same = row
                .variant
                .parse::<VariantKind>()
                .map_err(|e| Error::Game {
                    file: name.clone(),
                    game: row.game,
                    message: e.to_string(),
                })?
                == kind;
            let r = row.result.white_score();
            if !same || NOISE.contains(&row.termination.as_str()) {
                skipped += 1;
                continue;
            }
            let (fen, book) = match row.opening.split_once(" moves ") {
                Some((f, m)) => (f.trim(), m.split_whitespace().collect::<Vec<_>>()),
                None => (row.opening.trim(), Vec::new()),
            };
            let moves: Vec<&str> = row.moves.split_whitespace().collect();
            let gp = dispatch!(kind, V => game_positions::<V>(fen, &book, &moves, 0, r, row.game))
                .map_err(|message| Error::Game {
                    file: name.clone(),
                    game: row.game,
                    message,
                })?;
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
    std::fs::write(out, s).map_err(Error::io(&name))?;
    Ok(n)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_recorder_keeps_quiet_positions_and_ends_at_known_results() {
        let mut r = Recorder {
            max_plies: 3,
            fens: Vec::new(),
        };
        let mut game = VariantGame::new(VariantKind::Chess);
        let e4 = game.parse_uci("e2e4").expect("legal");
        assert_eq!(r.on_move(&game, e4, Some(20)), None);
        assert_eq!(r.fens, [game.fen()]);
        game.play(e4).expect("legal");
        game.play_uci("d7d5").expect("legal");
        // A capture is not quiet; a found mate ends the game for the mover.
        let exd5 = game.parse_uci("e4d5").expect("legal");
        assert_eq!(
            r.on_move(&game, exd5, Some(search::MATE - 3)),
            Some(Verdict::Win(movegen::Color::White))
        );
        assert_eq!(
            r.on_move(&game, exd5, Some(-(search::MATE - 3))),
            Some(Verdict::Win(movegen::Color::Black))
        );
        assert_eq!(r.fens.len(), 1);
        game.play(exd5).expect("legal");
        let qxd5 = game.parse_uci("d8d5").expect("legal");
        assert_eq!(r.on_move(&game, qxd5, Some(0)), Some(Verdict::Draw));
    }
}
