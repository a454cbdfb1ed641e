//! Playing one game: ask each player for moves, keep the clocks, check every
//! move against varia's rules, and end the game by the rules (checkmate,
//! third check, exploded king, ...), by the 50-move rule, repetition,
//! insufficient material, a length limit, score adjudication, or a player's
//! failure (time, illegal move, crash).

use crate::openings::Opening;
use crate::player::{MoveRequest, Player, PlayerError};
use crate::schedule::GameSpec;
use crate::tc::{Clock, MoveLimits};
use movegen::{Color, VariantGame, VariantKind};
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

/// Plays the game `spec` of `variant` between `white` and `black` from
/// `opening`. `crashed` is set for a player whose engine crashed (the runner
/// restarts it).
pub fn play_game(
    variant: VariantKind,
    spec: &GameSpec,
    opening: &Opening,
    players: [&mut dyn Player; 2],
    limits: [&MoveLimits; 2],
    adj: &Adjudication,
    crashed: &mut [bool; 2],
) -> GameRecord {
    let started = Instant::now();
    let names = [players[0].name().to_string(), players[1].name().to_string()];
    let mut record = GameRecord {
        spec: *spec,
        variant,
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
        if let Err(e) = p.new_game(variant) {
            crashed[i] = matches!(e, PlayerError::Crashed(_) | PlayerError::Timeout);
            let side = if i == 0 { Color::White } else { Color::Black };
            return finish(record, loss_for(side), "crash");
        }
    }
    let mut game = match VariantGame::from_uci_moves(variant, Some(&opening.fen), &opening.moves) {
        Ok(g) => g,
        Err(_) => return finish(record, "1/2-1/2", "adjudication"),
    };
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
        let mv = match game.play_uci(&reply.uci) {
            Ok(m) => m,
            Err(_) => return finish(record, loss_for(side), "illegal_move"),
        };
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
                if game.fullmove_number() > r.after && quiet(0) && quiet(1) {
                    return finish(record, "1/2-1/2", "adjudication");
                }
            }
        }
    }
}
