//! Labelled positions for tuning and for training networks.
//!
//! **Self-play** ([`run`]): games of the engine against itself at a fixed
//! node count or depth, each from a varied opening (a book position if one
//! is given, then a number of uniformly random moves drawn from a range),
//! on every core. The games are played by the match runner's game loop
//! (`arena::game`), each side with its own table as in a match; a
//! [`GameObserver`] records every position after the opening that passes
//! the field's filters: the side to move not in check, the move chosen
//! neither a capture nor a promotion ([`crate::qleaf::is_quiet`]), the
//! search's score no mate and at most the score cap in magnitude. Each is
//! packed with that score (side to move's view) and, once the game is over,
//! its result from White's view ([`PackedPosition`]), then written in the
//! chosen format ([`crate::datafile`]). A game ends by the rules (repetition
//! and the 50-move rule included), when the search reports a forced win,
//! when both sides' scores agree a side is winning by the adjudication
//! margin for the adjudication's plies (arena's resign rule), or as a draw
//! after `max_plies`.
//!
//! **Determinism.** Game `N` is a function of the settings and `N` alone
//! (its own random stream, one search thread at a fixed node count or
//! depth, tables cleared for each game), and finished games are written in
//! game order (games that finish early wait for those before them), so the
//! file is the same bytes at any thread count. `shard` `(I, N)` plays only
//! the games `g` with `(g - 1) mod N = I - 1`: the shards together hold the
//! single run's games.
//!
//! **Resuming** is the output's ([`crate::datafile`]): the run's settings
//! ([`DatagenConfig::identity`]) are in the progress file beside the
//! output; the games already written are
//! skipped, a torn tail is cut off, and a run with other settings (other
//! than `--games`, which may grow, and the threads) is refused, naming the
//! first setting that differs.
//!
//! **From games** ([`from_games`]): the quiet positions (no score: a game
//! record has none) from the match runner's per-game CSV (the opening's
//! moves are skipped) or a PGN file (the first `skip_plies` plies are
//! skipped), as `fen,result` CSV.

use crate::datafile::{csv_row, Format, Output};
use crate::packed::{PackedPosition, BLACK_WIN, DRAW, WHITE_WIN};
use crate::positions::HEADER;
use crate::qleaf::is_quiet;
use crate::rng::{hash3, stream};
use crate::{Error, Result};
use arena::game::{play_observed_game, GameEnd, GameObserver, Verdict};
use arena::openings::random_opening;
use arena::record::RunIdentity;
use arena::{Adjudication, GameSpec, InProcess, MoveLimits, Opening, ScoreRule};
use movegen::{dispatch_cold, with_game, Game, Move, Position, Variant, VariantGame, VariantKind};
use search::{EvalParams, Evaluator, MATE_BOUND};
use std::collections::BTreeMap;
use std::fmt;
use std::path::Path;
use std::str::FromStr;

/// How long each move's search is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SearchLimit {
    /// A node budget per move. The search's node limit is hard: it stops
    /// mid-iteration when the budget is spent.
    Nodes(u64),
    /// A fixed depth per move.
    Depth(u32),
}

/// A range of random opening plies, `lo..=hi`; each game draws its count.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlyRange {
    /// Fewest.
    pub lo: usize,
    /// Most.
    pub hi: usize,
}

impl PlyRange {
    /// Exactly `n` plies.
    pub fn exactly(n: usize) -> PlyRange {
        PlyRange { lo: n, hi: n }
    }
}

impl fmt::Display for PlyRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{}", self.lo, self.hi)
    }
}

impl FromStr for PlyRange {
    type Err = String;

    /// `N` or `LO-HI` with `LO <= HI`.
    fn from_str(s: &str) -> std::result::Result<Self, Self::Err> {
        let bad = || format!("bad ply range \"{s}\" (expected N or LO-HI, e.g. 8-12)");
        let num = |t: &str| t.trim().parse::<usize>().map_err(|_| bad());
        let r = match s.split_once('-') {
            Some((lo, hi)) => PlyRange {
                lo: num(lo)?,
                hi: num(hi)?,
            },
            None => PlyRange::exactly(num(s)?),
        };
        if r.lo > r.hi {
            return Err(format!(
                "bad ply range \"{s}\": {} is more than {}",
                r.lo, r.hi
            ));
        }
        Ok(r)
    }
}

/// Win adjudication: both sides' scores agree a side is ahead by at least
/// `score` centipawns for `plies` plies in a row (half of them each side's).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WinRule {
    /// Centipawns.
    pub score: i32,
    /// Plies (even).
    pub plies: u32,
}

/// Settings of a self-play run.
#[derive(Clone, Debug)]
pub struct DatagenConfig {
    /// The game.
    pub variant: VariantKind,
    /// Games of the whole run (all shards; resumed ones included).
    pub games: usize,
    /// Each move's search.
    pub limit: SearchLimit,
    /// Random plies after the book position.
    pub random_plies: PlyRange,
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
    /// Evaluation the games are played with (`None`: the game's default,
    /// [`Evaluator::default_for`]).
    pub evaluator: Option<Evaluator>,
    /// The output format.
    pub format: Format,
    /// Positions whose search score exceeds this in magnitude are not kept.
    pub score_cap: i32,
    /// Win adjudication (`None`: games end by the rules, a found mate or
    /// `max_plies`).
    pub win: Option<WinRule>,
    /// Only shard `(I, N)` of the games (1-based `I`).
    pub shard: Option<(usize, usize)>,
}

impl DatagenConfig {
    /// The settings that decide the file's bytes, written with it (not
    /// `--games`, which may grow, nor the threads: games are played with one
    /// search thread each and a cleared table, and written in order).
    pub fn identity(&self) -> RunIdentity {
        let id = RunIdentity::new().with("variant", self.variant.name());
        let id = match self.limit {
            SearchLimit::Nodes(n) => id.with("nodes", n),
            SearchLimit::Depth(d) => id.with("depth", d),
        };
        id.with("seed", self.seed)
            .with("random_plies", self.random_plies)
            .with("max_plies", self.max_plies)
            .with("book", &self.book_name)
            .with("eval", eval_name(&self.evaluator(), self.variant))
            .with("format", self.format)
            .with("score_cap", self.score_cap)
            .with(
                "win_adjudication",
                self.win.map_or("off".to_string(), |w| {
                    format!("{}cp/{}plies", w.score, w.plies)
                }),
            )
            .with("hash_mb", self.hash_mb)
            .with(
                "shard",
                self.shard
                    .map_or("all".to_string(), |(i, n)| format!("{i}/{n}")),
            )
    }

    /// The evaluation the games are played with: [`DatagenConfig::evaluator`]
    /// or the game's default.
    pub fn evaluator(&self) -> Evaluator {
        self.evaluator
            .clone()
            .unwrap_or_else(|| Evaluator::default_for(self.variant))
    }

    /// `true` if game `id` (from 1) is this run's shard's.
    pub fn plays(&self, id: usize) -> bool {
        self.shard.is_none_or(|(i, n)| (id - 1) % n == i - 1)
    }

    /// The games of this run's shard, in order.
    pub fn shard_games(&self) -> Vec<usize> {
        (1..=self.games).filter(|&g| self.plays(g)).collect()
    }
}

/// Progress of a run.
#[derive(Clone, Copy, Debug)]
pub struct DatagenProgress {
    /// Games of this shard in the file.
    pub done: usize,
    /// Games of this shard wanted.
    pub total: usize,
    /// Games played by this run.
    pub played: usize,
    /// Positions written by this run.
    pub positions: u64,
    /// Positions in the file (text and bin; CSV: those written by this run).
    pub file_positions: u64,
}

/// One finished game: its kept positions and the moves chosen in them.
#[derive(Clone, Debug, PartialEq)]
pub struct LabelledGame {
    /// Game number (from 1).
    pub id: usize,
    /// The kept positions, with their scores and the game's result.
    pub positions: Vec<PackedPosition>,
    /// The move the search chose in each kept position.
    pub moves: Vec<Move>,
    /// The result from White's view ([`crate::packed`]'s result byte).
    pub result: u8,
}

/// One finished game of [`from_games`]: its quiet positions and result.
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
        let mut s = String::with_capacity(self.fens.len() * 64 + 16);
        for f in &self.fens {
            s.push_str(&csv_row(f, self.result));
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

/// The stream index of a game's count of random plies (apart from the
/// streams of its moves, which use index 0 and up).
const PLY_COUNT_STREAM: u64 = u64::MAX;

/// Random plies of game `id`: drawn from the range (a fixed count draws
/// nothing, so such runs keep the openings of earlier versions).
pub fn random_plies(range: PlyRange, seed: u64, id: usize) -> usize {
    if range.lo == range.hi {
        return range.lo;
    }
    let span = (range.hi - range.lo + 1) as u64;
    range.lo + (hash3(seed, id as u64, PLY_COUNT_STREAM) % span) as usize
}

fn opening<V: Variant>(cfg: &DatagenConfig, id: usize) -> Result<Game<V>> {
    let plies = random_plies(cfg.random_plies, cfg.seed, id);
    make_opening::<V>(&cfg.book, plies, cfg.seed, id as u64, 0)
}

/// Records a self-play game's kept positions as it is played, and ends it
/// at the length limit or once a search has found a forced win.
struct Recorder {
    max_plies: usize,
    score_cap: i32,
    positions: Vec<PackedPosition>,
    moves: Vec<Move>,
}

impl Recorder {
    fn new(max_plies: usize, score_cap: i32) -> Recorder {
        Recorder {
            max_plies,
            score_cap,
            positions: Vec::new(),
            moves: Vec::new(),
        }
    }
}

/// `true` if a position whose search chose `mv` with `score` is kept: quiet
/// (not in check, `mv` neither a capture nor a promotion), and the score no
/// mate and at most `cap` in magnitude.
pub fn keeps<V: Variant>(pos: &Position<V>, mv: Move, score: i32, cap: i32) -> bool {
    score.abs() <= cap.min(MATE_BOUND) && is_quiet(pos, mv)
}

impl GameObserver for Recorder {
    fn on_move(&mut self, game: &VariantGame, mv: Move, score: Option<i32>) -> Option<Verdict> {
        if game.ply() >= self.max_plies {
            return Some(Verdict::Draw);
        }
        if let Some(s) = score {
            let kept = with_game!(game, V, g => {
                let pos = g.position();
                keeps(pos, mv, s, self.score_cap)
                    .then(|| PackedPosition::from_position(pos, s as i16, DRAW))
            });
            if let Some(p) = kept {
                self.positions.push(p);
                self.moves.push(mv);
            }
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
/// side with its own table, as in a match. They are made once per worker
/// thread and kept across its games (each game clears their tables).
pub fn self_play_players(cfg: &DatagenConfig, evaluator: &Evaluator) -> [InProcess; 2] {
    let player = || InProcess::with_evaluator("varia", evaluator.clone(), cfg.hash_mb.max(1));
    [player(), player()]
}

/// The result byte of White's score.
fn result_byte(white_score: f64) -> u8 {
    if white_score >= 0.75 {
        WHITE_WIN
    } else if white_score <= 0.25 {
        BLACK_WIN
    } else {
        DRAW
    }
}

/// Plays self-play game `id` through the match runner's game loop
/// (deterministic for given settings: each player clears its table for a
/// new game and searches with one thread to a fixed node count or depth).
pub fn play_game<V: Variant>(
    cfg: &DatagenConfig,
    id: usize,
    players: &mut [InProcess; 2],
) -> Result<LabelledGame> {
    let opening = to_opening(&opening::<V>(cfg, id)?);
    let spec = GameSpec::single(id);
    let limits = match cfg.limit {
        SearchLimit::Nodes(n) => MoveLimits {
            nodes: Some(n.max(1)),
            ..MoveLimits::default()
        },
        SearchLimit::Depth(d) => MoveLimits {
            depth: Some(d.max(1)),
            ..MoveLimits::default()
        },
    };
    // The length limit counts the opening too, so the recorder keeps it.
    let adjudication = Adjudication {
        max_plies: 0,
        draw: None,
        resign: cfg.win.map(|w| ScoreRule {
            score: w.score,
            moves: w.plies.div_ceil(2).max(1),
            after: 0,
        }),
        ..Adjudication::default()
    };
    let mut recorder = Recorder::new(cfg.max_plies, cfg.score_cap);
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
    let result = result_byte(record.end.result().white_score());
    Ok(LabelledGame {
        id,
        positions: recorder
            .positions
            .into_iter()
            .map(|p| p.with_result(result))
            .collect(),
        moves: recorder.moves,
        result,
    })
}

/// The identity's name of the evaluation `ev` of `kind`'s games: `network
/// HASH` for a net (embedded or from a file: the weights decide the data),
/// `classical` for the built-in classical weights, `file` for others.
fn eval_name(ev: &Evaluator, kind: VariantKind) -> String {
    match ev {
        Evaluator::Network(net) => format!("network {:016x}", net.hash()),
        Evaluator::Classical(p) if *p == EvalParams::default_for(kind) => "classical".to_string(),
        Evaluator::Classical(_) => "file".to_string(),
    }
}

/// `identity` as the run's file `out` names it, if that file is of a
/// version that named the built-in classical evaluation `default` (before
/// the games had embedded nets, the default was always classical): such a
/// run resumes with the classical evaluation, the same games.
fn with_legacy_eval_name(mut identity: RunIdentity, out: &Path) -> RunIdentity {
    let meta = arena::record::meta_path(&crate::datafile::progress_path(out));
    let legacy = std::fs::read_to_string(meta)
        .is_ok_and(|text| text.lines().any(|l| l.trim_end() == "eval: default"));
    if legacy && identity.get("eval") == Some("classical") {
        identity.set("eval", "default");
    }
    identity
}

/// Runs self-play data generation into `out` (resuming it if it holds part
/// of this run). `progress` is called from the calling thread after each
/// game written.
pub fn run(
    cfg: &DatagenConfig,
    out: &Path,
    progress: &mut dyn FnMut(&DatagenProgress),
) -> Result<DatagenProgress> {
    let identity = with_legacy_eval_name(cfg.identity(), out);
    let (mut output, resumed) = Output::open(out, cfg.format, cfg.variant, &identity)?;
    let games = cfg.shard_games();
    let todo: Vec<(usize, usize)> = games
        .iter()
        .copied()
        .filter(|&g| !resumed.holds(g))
        .enumerate()
        .collect();
    let evaluator = cfg.evaluator();
    let mut state = DatagenProgress {
        done: games.len() - todo.len(),
        total: games.len(),
        played: 0,
        positions: 0,
        file_positions: resumed.positions,
    };
    progress(&state);
    // Games finished ahead of an earlier one wait here, by their place in
    // `todo`, so the file is written in game order.
    let mut waiting: BTreeMap<usize, LabelledGame> = BTreeMap::new();
    let mut next = 0;
    let played = crate::workers::for_each_parallel(
        &todo,
        cfg.threads,
        || Ok(self_play_players(cfg, &evaluator)),
        |players, &(i, id)| {
            dispatch_cold!(cfg.variant, V => play_game::<V>(cfg, id, players)).map(|g| (i, g))
        },
        |(i, g): (usize, LabelledGame)| {
            waiting.insert(i, g);
            while let Some(g) = waiting.remove(&next) {
                output.write_game(g.id, &g.positions)?;
                next += 1;
                state.done += 1;
                state.played += 1;
                state.positions += g.positions.len() as u64;
                state.file_positions += g.positions.len() as u64;
                progress(&state);
            }
            Ok(())
        },
    );
    // What was written is recorded even when a game failed.
    output.checkpoint()?;
    played?;
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
/// Either may be gzip-compressed (`.csv.gz`, `.pgn.gz`: see
/// [`search::input`]). Returns the games and how many were skipped.
pub fn from_games(
    path: &Path,
    kind: VariantKind,
    skip_plies: usize,
) -> Result<(Vec<GamePositions>, usize)> {
    let name = path.display().to_string();
    // `games.pgn.gz` is a PGN too: its kind is the name's before `.gz`.
    let is_pgn = search::input::uncompressed_name(path)
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
            let gp = dispatch_cold!(kind, V => game_positions::<V>(&g.start_fen, &[], &moves, skip_plies, r, i + 1))
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
            let gp =
                dispatch_cold!(kind, V => game_positions::<V>(fen, &book, &moves, 0, r, row.game))
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
        let mut r = Recorder::new(3, 3000);
        let mut game = VariantGame::new(VariantKind::Chess);
        let e4 = game.parse_uci("e2e4").expect("legal");
        assert_eq!(r.on_move(&game, e4, Some(20)), None);
        assert_eq!(r.positions.len(), 1);
        assert_eq!(r.positions[0].to_fen(VariantKind::Chess), game.fen());
        assert_eq!((r.positions[0].score(), r.moves[0]), (20, e4));
        // Beyond the cap, or a mate: not kept.
        assert_eq!(r.on_move(&game, e4, Some(3001)), None);
        assert_eq!(r.positions.len(), 1);
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
        assert_eq!(r.positions.len(), 1);
        game.play(exd5).expect("legal");
        let qxd5 = game.parse_uci("d8d5").expect("legal");
        assert_eq!(r.on_move(&game, qxd5, Some(0)), Some(Verdict::Draw));
    }
}
