//! Players: anything that answers "your move" in a game. varia's own engine
//! runs in-process (no protocol, no process per game); external engines are
//! driven over UCI or CECP (see `external.rs`).

use crate::tc::{Clock, MoveLimits};
use movegen::{dispatch, Game, Position, VariantKind};
use search::{EvalParams, Limits, Shared};
use std::any::Any;
use std::path::PathBuf;

/// What a player is asked for a move.
#[derive(Clone, Debug)]
pub struct MoveRequest<'a> {
    /// The game.
    pub variant: VariantKind,
    /// Start position of the game (before the opening moves).
    pub start_fen: &'a str,
    /// Every move since the start, in UCI.
    pub moves: &'a [String],
    /// The player's per-move limits.
    pub limits: &'a MoveLimits,
    /// Both clocks (White, Black) when a time control is used.
    pub clocks: [Option<Clock>; 2],
}

/// A player's answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveReply {
    /// The move in UCI notation (checked by the runner).
    pub uci: String,
    /// Score in centipawns from the mover's view, if reported (wins as ±`search::MATE` minus distance).
    pub score: Option<i32>,
}

/// Why a player failed to move.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PlayerError {
    /// The process died or its pipe closed.
    #[error("engine crashed: {0}")]
    Crashed(String),
    /// No answer in time.
    #[error("engine timed out")]
    Timeout,
    /// Unintelligible output.
    #[error("protocol error: {0}")]
    Protocol(String),
    /// The engine could not be set up (bad settings, missing file).
    #[error("{0}")]
    Setup(String),
    /// The engine resigned (CECP `resign`): the game is lost by adjudication.
    #[error("engine resigned")]
    Resigned,
}

/// Something that plays moves.
pub trait Player: Send {
    /// The name used in results.
    fn name(&self) -> &str;
    /// Prepares for a new game of `variant`.
    fn new_game(&mut self, variant: VariantKind) -> Result<(), PlayerError>;
    /// Chooses a move.
    fn go(&mut self, req: &MoveRequest) -> Result<MoveReply, PlayerError>;
    /// Restarts after a crash (external engines); in-process players never crash.
    fn restart(&mut self) -> Result<(), PlayerError> {
        Ok(())
    }
}

/// varia's engine, searched in this process.
pub struct InProcess {
    name: String,
    eval_file: Option<PathBuf>,
    params: Option<EvalParams>,
    hash_mb: usize,
    threads: usize,
    shared: Shared,
    /// The game as of the last request (start FEN, moves, `Game<V>`), so each
    /// move plays only the moves since the last one instead of the whole game.
    cache: Option<GameCache>,
}

struct GameCache {
    start_fen: String,
    moves: Vec<String>,
    game: Box<dyn Any + Send>,
}

impl InProcess {
    /// An in-process engine with an optional evaluation file, a table of
    /// `hash_mb` megabytes and `threads` search threads.
    pub fn new(
        name: &str,
        eval_file: Option<PathBuf>,
        hash_mb: usize,
        threads: usize,
    ) -> InProcess {
        InProcess {
            name: name.to_string(),
            eval_file,
            params: None,
            hash_mb,
            threads: threads.max(1),
            shared: Shared::new(hash_mb),
            cache: None,
        }
    }

    /// An in-process engine with explicit weights (the tuner uses this).
    pub fn with_params(name: &str, params: EvalParams, hash_mb: usize) -> InProcess {
        InProcess {
            name: name.to_string(),
            eval_file: None,
            params: Some(params),
            hash_mb,
            threads: 1,
            shared: Shared::new(hash_mb),
            cache: None,
        }
    }
}

impl Player for InProcess {
    fn name(&self) -> &str {
        &self.name
    }

    fn new_game(&mut self, variant: VariantKind) -> Result<(), PlayerError> {
        let reload = self.params.as_ref().is_none_or(|p| p.variant != variant);
        if reload {
            self.params = Some(match &self.eval_file {
                Some(path) => EvalParams::load(variant, path)
                    .map_err(|e| PlayerError::Setup(e.to_string()))?,
                None => EvalParams::default_for(variant),
            });
        }
        // A cleared table makes every game depend only on its moves (resumable,
        // reproducible matches).
        if self.shared.tt.size_mb() != self.hash_mb {
            self.shared = Shared::new(self.hash_mb);
        } else {
            self.shared.tt.clear();
        }
        self.cache = None;
        Ok(())
    }

    fn go(&mut self, req: &MoveRequest) -> Result<MoveReply, PlayerError> {
        let params = match &self.params {
            Some(p) if p.variant == req.variant => p,
            _ => {
                return Err(PlayerError::Setup(
                    "new_game was not called for this variant".into(),
                ))
            }
        };
        let limits = to_search_limits(req);
        let shared = &self.shared;
        let threads = self.threads;
        let cache = &mut self.cache;
        dispatch!(req.variant, V => {
            // Reuse the game of the last request when this one continues it.
            let reusable = cache.as_ref().is_some_and(|c| {
                c.start_fen == req.start_fen
                    && c.moves.len() <= req.moves.len()
                    && c.moves[..] == req.moves[..c.moves.len()]
                    && c.game.is::<Game<V>>()
            });
            if !reusable {
                let start = Position::<V>::from_fen(req.start_fen)
                    .map_err(|e| PlayerError::Setup(e.to_string()))?;
                *cache = Some(GameCache {
                    start_fen: req.start_fen.to_string(),
                    moves: Vec::new(),
                    game: Box::new(Game::new(start)),
                });
            }
            let Some(c) = cache.as_mut() else {
                return Err(PlayerError::Setup("no game".into()));
            };
            let Some(game) = c.game.downcast_mut::<Game<V>>() else {
                return Err(PlayerError::Setup("no game".into()));
            };
            for m in &req.moves[c.moves.len()..] {
                if let Err(e) = game.play_uci(m) {
                    *cache = None;
                    return Err(PlayerError::Protocol(e.to_string()));
                }
                c.moves.push(m.clone());
            }
            let keys = game.keys();
            let history = &keys[..keys.len() - 1];
            let r = search::search(game.position(), history, &limits, params, shared, threads, &mut |_| {});
            match r.best {
                Some(m) => Ok(MoveReply { uci: m.uci(), score: Some(r.score) }),
                None => Err(PlayerError::Protocol("no move in a finished game".into())),
            }
        })
    }
}

/// Index (0 White, 1 Black) of the side to move in a request: the start
/// FEN's side to move, flipped by every move played since.
pub fn side_to_move(req: &MoveRequest) -> usize {
    let black_starts = req.start_fen.split_whitespace().nth(1) == Some("b");
    (black_starts as usize + req.moves.len()) % 2
}

/// Converts match limits to a search's limits.
pub fn to_search_limits(req: &MoveRequest) -> Limits {
    let l = req.limits;
    let mut limits = Limits {
        depth: l.depth,
        nodes: l.nodes,
        movetime: l.movetime,
        ..Limits::default()
    };
    if let Some(tc) = l.tc {
        if let Some(w) = req.clocks[0] {
            limits.wtime = Some(w.left);
        }
        if let Some(b) = req.clocks[1] {
            limits.btime = Some(b.left);
        }
        // Moves to go of the side to move's own clock.
        limits.movestogo = req.clocks[side_to_move(req)].and_then(|c| c.moves_to_go);
        limits.winc = tc.increment;
        limits.binc = tc.increment;
    }
    limits
}
