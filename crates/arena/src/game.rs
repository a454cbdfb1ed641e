//! Playing one game: ask each player for moves, keep the clocks, check every
//! move against varia's rules, and end the game by the rules (checkmate,
//! third check, exploded king, ...), by the 50-move rule, repetition,
//! insufficient material, a length limit, score adjudication, or a player's
//! failure (time, illegal move, crash).
//!
//! A [`GameObserver`] may watch the moves and end a game early: the tuner's
//! data generator plays its self-play games through this same loop, records
//! positions with one, and stops a game once a search has found its result.

use crate::openings::Opening;
use crate::player::{MoveRequest, Player, PlayerError};
use crate::schedule::GameSpec;
use crate::tc::{Clock, MoveLimits};
use movegen::{Color, Game, Move, Position, Variant, VariantKind};
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
    /// `1-0`, `0-1` or `1/2-1/2`.
    pub result: String,
    /// How it ended (`checkmate`, `third_check`, `time`, ...).
    pub termination: String,
    /// Plies played after the opening.
    pub plies: u32,
    /// Wall time of the game.
    pub seconds: f64,
    /// Moves played after the opening, in UCI.
    pub moves: Vec<String>,
}

impl GameRecord {
    /// White's score: 1, 0.5 or 0.
    pub fn white_score(&self) -> f64 {
        match self.result.as_str() {
            "1-0" => 1.0,
            "0-1" => 0.0,
            _ => 0.5,
        }
    }
}

fn loss_for(side: Color) -> &'static str {
    if side.is_white() {
        "0-1"
    } else {
        "1-0"
    }
}

/// How a [`GameObserver`] ends a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// This side has won.
    Win(Color),
    /// A draw.
    Draw,
}

/// Watches a game's moves as they are played, and may end the game early.
pub trait GameObserver<V: Variant> {
    /// The side to move in `game` chose `mv` (a legal move), with `score` in
    /// centipawns from its view if its player reported one. A verdict ends
    /// the game here by adjudication, without playing `mv`.
    fn on_move(&mut self, game: &Game<V>, mv: Move, score: Option<i32>) -> Option<Verdict>;
}

/// No observer: the game is left to the rules and [`Adjudication`].
impl<V: Variant> GameObserver<V> for () {
    fn on_move(&mut self, _game: &Game<V>, _mv: Move, _score: Option<i32>) -> Option<Verdict> {
        None
    }
}

/// Plays the game `spec` between `white` and `black` from `opening`.
/// `restart` is set for a player whose engine crashed (the runner restarts it).
pub fn play_game<V: Variant>(
    spec: &GameSpec,
    opening: &Opening,
    players: [&mut dyn Player; 2],
    limits: [&MoveLimits; 2],
    adj: &Adjudication,
    crashed: &mut [bool; 2],
) -> GameRecord {
    play_observed_game::<V>(spec, opening, players, limits, adj, crashed, &mut ())
}

/// [`play_game`], with `observer` shown every move before it is played.
pub fn play_observed_game<V: Variant>(
    spec: &GameSpec,
    opening: &Opening,
    players: [&mut dyn Player; 2],
    limits: [&MoveLimits; 2],
    adj: &Adjudication,
    crashed: &mut [bool; 2],
    observer: &mut dyn GameObserver<V>,
) -> GameRecord {
    let started = Instant::now();
    let names = [players[0].name().to_string(), players[1].name().to_string()];
    let mut record = GameRecord {
        spec: *spec,
        variant: V::KIND,
        opening: opening.clone(),
        white: names[0].clone(),
        black: names[1].clone(),
        result: "1/2-1/2".into(),
        termination: String::new(),
        plies: 0,
        seconds: 0.0,
        moves: Vec::new(),
    };
    let [white, black] = players;
    let mut players: [&mut dyn Player; 2] = [white, black];
    let finish = |mut r: GameRecord, result: &str, why: &str| {
        r.result = result.to_string();
        r.termination = why.to_string();
        r.seconds = started.elapsed().as_secs_f64();
        r
    };

    for (i, p) in players.iter_mut().enumerate() {
        if let Err(e) = p.new_game(V::KIND) {
            crashed[i] = matches!(e, PlayerError::Crashed(_) | PlayerError::Timeout);
            let side = if i == 0 { Color::White } else { Color::Black };
            return finish(record, loss_for(side), "crash");
        }
    }
    let start = match Position::<V>::from_fen(&opening.fen) {
        Ok(p) => p,
        Err(_) => return finish(record, "1/2-1/2", "adjudication"),
    };
    let mut game = Game::new(start);
    let mut all_moves: Vec<String> = Vec::new();
    for m in &opening.moves {
        if game.play_uci(m).is_err() {
            return finish(record, "1/2-1/2", "adjudication");
        }
        all_moves.push(m.clone());
    }
    let mut clocks: [Option<Clock>; 2] = [
        limits[0].tc.map(|t| Clock::new(&t)),
        limits[1].tc.map(|t| Clock::new(&t)),
    ];
    // Recent scores per side, from White's view, for score adjudication.
    let mut scores: [Vec<i32>; 2] = [Vec::new(), Vec::new()];

    loop {
        if let Some(o) = game.outcome() {
            return finish(record, o.result_str(), o.reason().name());
        }
        if adj.max_plies > 0 && record.plies >= adj.max_plies {
            return finish(record, "1/2-1/2", "max_length");
        }
        let side = game.position().turn();
        let i = side.index();
        let req = MoveRequest {
            variant: V::KIND,
            start_fen: &opening.fen,
            moves: &all_moves,
            limits: limits[i],
            clocks,
        };
        let t0 = Instant::now();
        let reply = players[i].go(&req);
        let used = t0.elapsed();
        let reply = match reply {
            Ok(r) => r,
            Err(PlayerError::Timeout) => {
                crashed[i] = true;
                return finish(record, loss_for(side), "time");
            }
            Err(PlayerError::Resigned) => {
                return finish(record, loss_for(side), "adjudication");
            }
            Err(_) => {
                crashed[i] = true;
                return finish(record, loss_for(side), "crash");
            }
        };
        if let (Some(tc), Some(clock)) = (limits[i].tc, clocks[i].as_mut()) {
            if !clock.charge(&tc, used, adj.time_margin) {
                return finish(record, loss_for(side), "time");
            }
        }
        let mv = match game.position().parse_uci(&reply.uci) {
            Ok(m) => m,
            Err(_) => return finish(record, loss_for(side), "illegal_move"),
        };
        match observer.on_move(&game, mv, reply.score) {
            Some(Verdict::Win(winner)) => {
                return finish(record, loss_for(winner.other()), "adjudication")
            }
            Some(Verdict::Draw) => return finish(record, "1/2-1/2", "adjudication"),
            None => {}
        }
        game.play_unchecked(mv);
        all_moves.push(mv.uci());
        record.moves.push(mv.uci());
        record.plies += 1;

        if let Some(s) = reply.score {
            let white_view = if side.is_white() { s } else { -s };
            scores[i].push(white_view);
            if let Some(r) = adj.resign {
                let n = r.moves as usize;
                let behind = |c: usize, sign: i32| {
                    scores[c].len() >= n
                        && scores[c][scores[c].len() - n..]
                            .iter()
                            .all(|&v| v * sign <= -r.score)
                };
                // Both sides agree White (sign 1) or Black (sign -1) is lost.
                for (loser, sign) in [(Color::White, 1), (Color::Black, -1)] {
                    if behind(0, sign) && behind(1, sign) {
                        return finish(record, loss_for(loser), "adjudication");
                    }
                }
            }
            if let Some(r) = adj.draw {
                let n = r.moves as usize;
                let quiet = |c: usize| {
                    scores[c].len() >= n
                        && scores[c][scores[c].len() - n..]
                            .iter()
                            .all(|v| v.abs() <= r.score)
                };
                if game.position().fullmove_number() > r.after && quiet(0) && quiet(1) {
                    return finish(record, "1/2-1/2", "adjudication");
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::player::InProcess;
    use movegen::variants::Chess;

    /// Ends the game with `verdict` at its `at`-th move, counting the moves
    /// it was shown.
    struct EndAt {
        at: usize,
        verdict: Verdict,
        seen: usize,
    }

    impl GameObserver<Chess> for EndAt {
        fn on_move(&mut self, game: &Game<Chess>, mv: Move, score: Option<i32>) -> Option<Verdict> {
            assert!(game.position().legal_moves().contains(&mv));
            assert!(score.is_some(), "the in-process engine reports scores");
            self.seen += 1;
            (self.seen == self.at).then_some(self.verdict)
        }
    }

    fn play(verdict: Verdict) -> (GameRecord, usize) {
        let spec = GameSpec {
            game: 1,
            round: 1,
            pair: 1,
            opening: 0,
            white: 0,
            black: 1,
        };
        let limits = MoveLimits {
            nodes: Some(200),
            ..MoveLimits::default()
        };
        let (mut a, mut b) = (
            InProcess::new("a", None, 1, 1),
            InProcess::new("b", None, 1, 1),
        );
        let mut observer = EndAt {
            at: 5,
            verdict,
            seen: 0,
        };
        let record = play_observed_game::<Chess>(
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
        assert_eq!(record.termination, "adjudication");
        assert_eq!(record.white_score(), 0.0);
        let (record, _) = play(Verdict::Draw);
        assert_eq!(record.plies, 4);
        assert_eq!(record.white_score(), 0.5);
    }
}
