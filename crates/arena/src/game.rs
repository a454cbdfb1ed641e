//! Playing one game: ask each player for moves, keep the clocks, check every
//! move against varia's rules, and end the game by the rules (checkmate,
//! third check, exploded king, ...), by the 50-move rule, repetition,
//! insufficient material, a length limit, score adjudication, or a player's
//! failure (time, illegal move, crash).
//!
//! The end is kept typed ([`GameEnd`]: a rule's [`movegen::Outcome`] or one
//! of the runner's own reasons), not as text: the result, White's score and
//! the CSV/PGN words are derived from it in one place each.
//!
//! A [`GameObserver`] may watch the moves and end a game early: the tuner's
//! data generator plays its self-play games through this same loop, records
//! positions with one, and stops a game once a search has found its result.

use crate::openings::Opening;
use crate::player::{MoveRequest, Player, PlayerError};
use crate::schedule::GameSpec;
use crate::tc::{Clock, MoveLimits};
use movegen::{Color, EndReason, Move, Outcome, VariantGame, VariantKind};
use std::time::{Duration, Instant};

/// When to end games early.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Adjudication {
    /// Draw after this many plies (0: never).
    pub max_plies: u32,
    /// Draw when both sides report |score| <= `score` for `moves` moves each,
    /// after move `after`.
    pub draw: Option<ScoreRule>,
    /// Loss when both sides agree a side is behind by `score` for `moves`
    /// moves each.
    pub resign: Option<ScoreRule>,
    /// Extra time an engine may use beyond its clock before losing on time.
    pub time_margin: Duration,
}

impl Default for Adjudication {
    fn default() -> Self {
        Adjudication {
            max_plies: 600,
            draw: None,
            resign: None,
            time_margin: Duration::from_millis(100),
        }
    }
}

/// A score threshold held for some moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ScoreRule {
    /// Centipawns.
    pub score: i32,
    /// Consecutive moves per side.
    pub moves: u32,
    /// First move number at which the rule applies (draws).
    pub after: u32,
}

/// A game's result: who won, or a draw. In the CSV `result` column (and
/// PGN) it is `1-0`, `0-1` or `1/2-1/2`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum GameResult {
    /// `1-0`.
    #[serde(rename = "1-0")]
    WhiteWins,
    /// `0-1`.
    #[serde(rename = "0-1")]
    BlackWins,
    /// `1/2-1/2`.
    #[serde(rename = "1/2-1/2")]
    Draw,
}

impl GameResult {
    /// The result with this winner (`None`: a draw).
    pub const fn with_winner(winner: Option<Color>) -> GameResult {
        match winner {
            Some(Color::White) => GameResult::WhiteWins,
            Some(Color::Black) => GameResult::BlackWins,
            None => GameResult::Draw,
        }
    }

    /// The loss of `side`.
    pub const fn loss_for(side: Color) -> GameResult {
        GameResult::with_winner(Some(side.other()))
    }

    /// The winner, if any.
    pub const fn winner(self) -> Option<Color> {
        match self {
            GameResult::WhiteWins => Some(Color::White),
            GameResult::BlackWins => Some(Color::Black),
            GameResult::Draw => None,
        }
    }

    /// White's score: 1, 0.5 or 0.
    pub const fn white_score(self) -> f64 {
        match self {
            GameResult::WhiteWins => 1.0,
            GameResult::BlackWins => 0.0,
            GameResult::Draw => 0.5,
        }
    }

    /// The result written `1-0`, `0-1` or `1/2-1/2` (PGN's and the CSV's
    /// spelling); `None` for anything else (PGN's `*`, an unfinished game).
    pub fn from_pgn(s: &str) -> Option<GameResult> {
        match s {
            "1-0" => Some(GameResult::WhiteWins),
            "0-1" => Some(GameResult::BlackWins),
            "1/2-1/2" => Some(GameResult::Draw),
            _ => None,
        }
    }

    /// `1-0`, `0-1` or `1/2-1/2`.
    pub const fn as_str(self) -> &'static str {
        match self {
            GameResult::WhiteWins => "1-0",
            GameResult::BlackWins => "0-1",
            GameResult::Draw => "1/2-1/2",
        }
    }
}

impl std::fmt::Display for GameResult {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// How a game ended: by the rules of the game, or by the runner (a length
/// limit, adjudication, a player's failure).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameEnd {
    /// By the rules (checkmate, repetition, ...).
    Rules(Outcome),
    /// Drawn at the ply limit ([`Adjudication::max_plies`]).
    MaxLength,
    /// Drawn by score adjudication.
    ScoreDraw,
    /// Lost by `loser`: it resigned, or both sides' scores agreed it is lost.
    Resign {
        /// The side that lost.
        loser: Color,
    },
    /// Drawn because the opening could not be set up.
    BadOpening,
    /// `loser` ran out of time (or stopped answering).
    Time {
        /// The side that lost.
        loser: Color,
    },
    /// `loser`'s engine crashed (or failed to start the game).
    Crash {
        /// The side that lost.
        loser: Color,
    },
    /// `loser` sent a move that is not legal.
    IllegalMove {
        /// The side that lost.
        loser: Color,
    },
}

/// Every rule-based end reason, to read `termination` back.
const END_REASONS: [EndReason; 9] = [
    EndReason::Checkmate,
    EndReason::Stalemate,
    EndReason::ThirdCheck,
    EndReason::KingExploded,
    EndReason::NoMoves,
    EndReason::BareKing,
    EndReason::FiftyMoves,
    EndReason::Repetition,
    EndReason::InsufficientMaterial,
];

impl GameEnd {
    /// The result.
    pub const fn result(self) -> GameResult {
        match self {
            GameEnd::Rules(o) => GameResult::with_winner(o.winner()),
            GameEnd::MaxLength | GameEnd::ScoreDraw | GameEnd::BadOpening => GameResult::Draw,
            GameEnd::Resign { loser }
            | GameEnd::Time { loser }
            | GameEnd::Crash { loser }
            | GameEnd::IllegalMove { loser } => GameResult::loss_for(loser),
        }
    }

    /// The CSV `termination` (and PGN `Termination`) word: the rule's
    /// [`EndReason::name`], or `max_length`, `adjudication`, `time`, `crash`,
    /// `illegal_move`.
    pub const fn termination(self) -> &'static str {
        match self {
            GameEnd::Rules(o) => o.reason().name(),
            GameEnd::MaxLength => "max_length",
            GameEnd::ScoreDraw | GameEnd::Resign { .. } | GameEnd::BadOpening => "adjudication",
            GameEnd::Time { .. } => "time",
            GameEnd::Crash { .. } => "crash",
            GameEnd::IllegalMove { .. } => "illegal_move",
        }
    }

    /// The end written as `result` and `termination`, read back. A draw
    /// by `adjudication` reads as [`GameEnd::ScoreDraw`] (the CSV does not
    /// tell it from [`GameEnd::BadOpening`]). `None` if the two do not fit
    /// (a rule's win as a draw, or a loss by `max_length`).
    pub fn from_columns(result: GameResult, termination: &str) -> Option<GameEnd> {
        let loser = result.winner().map(Color::other);
        let end = match (termination, loser) {
            ("max_length", None) => GameEnd::MaxLength,
            ("adjudication", None) => GameEnd::ScoreDraw,
            ("adjudication", Some(loser)) => GameEnd::Resign { loser },
            ("time", Some(loser)) => GameEnd::Time { loser },
            ("crash", Some(loser)) => GameEnd::Crash { loser },
            ("illegal_move", Some(loser)) => GameEnd::IllegalMove { loser },
            (name, _) => {
                let reason = *END_REASONS.iter().find(|r| r.name() == name)?;
                GameEnd::Rules(match result.winner() {
                    Some(winner) => Outcome::Decisive { winner, reason },
                    None => Outcome::Draw { reason },
                })
            }
        };
        (end.result() == result).then_some(end)
    }
}

/// The record of a finished game: the CSV row and what PGN needs.
#[derive(Clone, Debug, PartialEq)]
pub struct GameRecord {
    /// Schedule entry.
    pub spec: GameSpec,
    /// The game.
    pub variant: VariantKind,
    /// The opening (start FEN, then `moves ...`).
    pub opening: Opening,
    /// White's name.
    pub white: String,
    /// Black's name.
    pub black: String,
    /// How it ended (and so the result).
    pub end: GameEnd,
    /// Plies played after the opening.
    pub plies: u32,
    /// Wall time of the game.
    pub seconds: f64,
    /// Moves played after the opening, in UCI.
    pub moves: Vec<String>,
}

/// How a [`GameObserver`] ends a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// This side has won (recorded as the other side's loss by adjudication).
    Win(Color),
    /// A draw (recorded as a draw by adjudication).
    Draw,
}

/// Watches a game's moves as they are played, and may end the game early.
pub trait GameObserver {
    /// The side to move in `game` chose `mv` (a legal move), with `score` in
    /// centipawns from its view if its player reported one. A verdict ends
    /// the game here by adjudication, without playing `mv`.
    fn on_move(&mut self, game: &VariantGame, mv: Move, score: Option<i32>) -> Option<Verdict>;
}

/// No observer: the game is left to the rules and [`Adjudication`].
impl GameObserver for () {
    fn on_move(&mut self, _game: &VariantGame, _mv: Move, _score: Option<i32>) -> Option<Verdict> {
        None
    }
}

/// Plays the game `spec` of `variant` between `players` (White, Black) from
/// `opening`, with `observer` shown every move before it is played (`&mut
/// ()`: none). `crashed` is set for a player whose engine crashed (the
/// runner restarts it).
#[allow(clippy::too_many_arguments)]
pub fn play_observed_game(
    variant: VariantKind,
    spec: &GameSpec,
    opening: &Opening,
    players: [&mut dyn Player; 2],
    limits: [&MoveLimits; 2],
    adj: &Adjudication,
    crashed: &mut [bool; 2],
    observer: &mut dyn GameObserver,
) -> GameRecord {
    let started = Instant::now();
    let names = [players[0].name().to_string(), players[1].name().to_string()];
    let mut record = GameRecord {
        spec: *spec,
        variant,
        opening: opening.clone(),
        white: names[0].clone(),
        black: names[1].clone(),
        // Set by `finish` on every way out.
        end: GameEnd::MaxLength,
        plies: 0,
        seconds: 0.0,
        moves: Vec::new(),
    };
    let [white, black] = players;
    let mut players: [&mut dyn Player; 2] = [white, black];
    let finish = |mut r: GameRecord, end: GameEnd| {
        r.end = end;
        r.seconds = started.elapsed().as_secs_f64();
        r
    };

    for (i, p) in players.iter_mut().enumerate() {
        if let Err(e) = p.new_game(variant) {
            crashed[i] = matches!(e, PlayerError::Crashed(_) | PlayerError::Timeout);
            let side = if i == 0 { Color::White } else { Color::Black };
            return finish(record, GameEnd::Crash { loser: side });
        }
    }
    let mut game = match VariantGame::from_uci_moves(variant, Some(&opening.fen), &opening.moves) {
        Ok(g) => g,
        Err(_) => return finish(record, GameEnd::BadOpening),
    };
    let mut clocks: [Option<Clock>; 2] = [
        limits[0].tc.map(|t| Clock::new(&t)),
        limits[1].tc.map(|t| Clock::new(&t)),
    ];
    // Recent scores per side, from White's view, for score adjudication.
    let mut scores: [Vec<i32>; 2] = [Vec::new(), Vec::new()];

    loop {
        if let Some(o) = game.outcome() {
            return finish(record, GameEnd::Rules(o));
        }
        if adj.max_plies > 0 && record.plies >= adj.max_plies {
            return finish(record, GameEnd::MaxLength);
        }
        let side = game.turn();
        let i = side.index();
        let req = MoveRequest {
            game: &game,
            limits: limits[i],
            clocks,
        };
        let t0 = Instant::now();
        let reply = players[i].go(&req);
        let used = t0.elapsed();
        let reply = match reply {
            Ok(r) => r,
            Err(e) => {
                // A timeout or crash leaves the engine in doubt: restart it.
                crashed[i] = !matches!(e, PlayerError::Resigned);
                return finish(record, failure_end(&e, side));
            }
        };
        if let (Some(tc), Some(clock)) = (limits[i].tc, clocks[i].as_mut()) {
            if !clock.charge(&tc, used, adj.time_margin) {
                return finish(record, GameEnd::Time { loser: side });
            }
        }
        let mv = match game.parse_uci(&reply.uci) {
            Ok(m) => m,
            Err(_) => return finish(record, GameEnd::IllegalMove { loser: side }),
        };
        match observer.on_move(&game, mv, reply.score) {
            Some(Verdict::Win(winner)) => {
                return finish(
                    record,
                    GameEnd::Resign {
                        loser: winner.other(),
                    },
                )
            }
            Some(Verdict::Draw) => return finish(record, GameEnd::ScoreDraw),
            None => {}
        }
        // Legal: `parse_uci` accepts only legal moves.
        game.play_unchecked(mv);
        record.moves.push(mv.uci());
        record.plies += 1;

        if let Some(s) = reply.score {
            scores[i].push(if side.is_white() { s } else { -s });
            if let Some(end) = score_adjudication(adj, &scores, game.fullmove_number()) {
                return finish(record, end);
            }
        }
    }
}

/// How a game ends when its player `side` failed to move with `e`.
fn failure_end(e: &PlayerError, side: Color) -> GameEnd {
    match e {
        PlayerError::Timeout => GameEnd::Time { loser: side },
        PlayerError::Resigned => GameEnd::Resign { loser: side },
        _ => GameEnd::Crash { loser: side },
    }
}

/// Score adjudication after a move: resign when both sides' last scores
/// (from White's view, `scores[0]` White's) agree a side is lost, a draw when
/// both stay near zero past the rule's move number.
fn score_adjudication(
    adj: &Adjudication,
    scores: &[Vec<i32>; 2],
    fullmove: u32,
) -> Option<GameEnd> {
    let last =
        |c: usize, n: usize| (scores[c].len() >= n).then(|| &scores[c][scores[c].len() - n..]);
    if let Some(r) = adj.resign {
        let n = r.moves as usize;
        let behind = |c: usize, sign: i32| {
            last(c, n).is_some_and(|v| v.iter().all(|&v| v * sign <= -r.score))
        };
        // Both sides agree White (sign 1) or Black (sign -1) is lost.
        for (loser, sign) in [(Color::White, 1), (Color::Black, -1)] {
            if behind(0, sign) && behind(1, sign) {
                return Some(GameEnd::Resign { loser });
            }
        }
    }
    if let Some(r) = adj.draw {
        let n = r.moves as usize;
        let quiet = |c: usize| last(c, n).is_some_and(|v| v.iter().all(|v| v.abs() <= r.score));
        if fullmove > r.after && quiet(0) && quiet(1) {
            return Some(GameEnd::ScoreDraw);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::player::InProcess;
    use search::EvalChoice;

    /// Ends the game with `verdict` at its `at`-th move, counting the moves
    /// it was shown.
    struct EndAt {
        at: usize,
        verdict: Verdict,
        seen: usize,
    }

    impl GameObserver for EndAt {
        fn on_move(&mut self, game: &VariantGame, mv: Move, score: Option<i32>) -> Option<Verdict> {
            assert!(game.legal_moves().contains(&mv));
            assert!(score.is_some(), "the in-process engine reports scores");
            self.seen += 1;
            (self.seen == self.at).then_some(self.verdict)
        }
    }

    fn play(verdict: Verdict) -> (GameRecord, usize) {
        let spec = GameSpec::single(1);
        let limits = MoveLimits {
            nodes: Some(200),
            ..MoveLimits::default()
        };
        let (mut a, mut b) = (
            InProcess::new("a", EvalChoice::Default, 1, 1),
            InProcess::new("b", EvalChoice::Default, 1, 1),
        );
        let mut observer = EndAt {
            at: 5,
            verdict,
            seen: 0,
        };
        let record = play_observed_game(
            VariantKind::Chess,
            &spec,
            &Opening::start(VariantKind::Chess),
            [&mut a, &mut b],
            [&limits, &limits],
            &Adjudication::default(),
            &mut [false; 2],
            &mut observer,
        );
        (record, observer.seen)
    }

    #[test]
    fn an_observer_sees_every_move_and_its_verdict_ends_the_game() {
        let (record, seen) = play(Verdict::Win(Color::Black));
        assert_eq!(seen, 5);
        // The fifth move is not played: the verdict comes first.
        assert_eq!(record.plies, 4);
        assert_eq!(record.end.termination(), "adjudication");
        assert_eq!(record.end.result().white_score(), 0.0);
        let (record, _) = play(Verdict::Draw);
        assert_eq!(record.plies, 4);
        assert_eq!(record.end.result().white_score(), 0.5);
    }
}
