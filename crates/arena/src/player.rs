//! Players: anything that answers "your move" in a game. varia's own engine
//! runs in-process (no protocol, no process per game); external engines are
//! driven over UCI or CECP (see [`crate::external`]). A request carries the
//! game itself ([`VariantGame`]), so no player replays moves from text.

use crate::tc::{Clock, MoveLimits};
use movegen::{with_position, VariantGame, VariantKind};
use search::{EvalChoice, Evaluator, Limits, SearchParams, Shared};
use std::path::PathBuf;

/// What a player is asked for a move.
#[derive(Clone, Debug)]
pub struct MoveRequest<'a> {
    /// The game so far, from its start position (before the opening moves)
    /// with every move played since, opening moves included.
    pub game: &'a VariantGame,
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
    eval: EvalChoice,
    /// The evaluation of the current game's variant (none before the
    /// first game).
    evaluator: Option<Evaluator>,
    /// Search settings file, read for each game's variant on top of its
    /// defaults (none: the variant's defaults).
    search_file: Option<PathBuf>,
    settings: SearchParams,
    hash_mb: usize,
    threads: usize,
    shared: Shared,
}

impl InProcess {
    /// An in-process engine playing the evaluation `eval` names (chosen
    /// for each game's variant), a table of `hash_mb` megabytes and
    /// `threads` search threads.
    pub fn new(name: &str, eval: EvalChoice, hash_mb: usize, threads: usize) -> InProcess {
        InProcess {
            name: name.to_string(),
            eval,
            evaluator: None,
            search_file: None,
            settings: SearchParams::default(),
            hash_mb,
            threads: threads.max(1),
            shared: Shared::new(hash_mb),
        }
    }

    /// An in-process engine with an explicit evaluation, for its variant
    /// only (the tuner and the data generator use this).
    pub fn with_evaluator(name: &str, evaluator: Evaluator, hash_mb: usize) -> InProcess {
        InProcess {
            name: name.to_string(),
            eval: EvalChoice::Default,
            evaluator: Some(evaluator),
            search_file: None,
            settings: SearchParams::default(),
            hash_mb,
            threads: 1,
            shared: Shared::new(hash_mb),
        }
    }

    /// The same engine searching with the settings of the TOML file
    /// `search_file` (read at each new game for its variant, on top of that
    /// variant's defaults) instead of the defaults.
    pub fn with_search_file(self, search_file: PathBuf) -> InProcess {
        InProcess {
            search_file: Some(search_file),
            ..self
        }
    }
}

impl Player for InProcess {
    fn name(&self) -> &str {
        &self.name
    }

    fn new_game(&mut self, variant: VariantKind) -> Result<(), PlayerError> {
        let reload = self
            .evaluator
            .as_ref()
            .is_none_or(|e| e.variant() != variant);
        if reload {
            self.evaluator = Some(
                Evaluator::choose(variant, &self.eval)
                    .map_err(|e| PlayerError::Setup(e.to_string()))?,
            );
        }
        self.settings = SearchParams::load_or_default(variant, self.search_file.as_deref())
            .map_err(|e| PlayerError::Setup(e.to_string()))?;
        // A cleared table makes every game depend only on its moves (resumable,
        // reproducible matches).
        if self.shared.tt.size_mb() != self.hash_mb {
            self.shared = Shared::new(self.hash_mb);
        } else {
            self.shared.clear();
        }
        Ok(())
    }

    fn go(&mut self, req: &MoveRequest) -> Result<MoveReply, PlayerError> {
        let evaluator = match &self.evaluator {
            Some(e) if e.variant() == req.game.kind() => e,
            _ => {
                return Err(PlayerError::Setup(
                    "new_game was not called for this variant".into(),
                ))
            }
        };
        let limits = to_search_limits(req);
        let history = req.game.history_keys();
        let (settings, shared, threads) = (&self.settings, &self.shared, self.threads);
        let r = with_position!(req.game, V, pos => {
            search::search(&pos, history, &limits, evaluator, settings, shared, threads, &mut |_| {})
        });
        match r.best {
            Some(m) => Ok(MoveReply {
                uci: m.uci(),
                score: Some(r.score),
            }),
            None => Err(PlayerError::Protocol("no move in a finished game".into())),
        }
    }
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
        limits.movestogo = req.clocks[req.game.turn().index()].and_then(|c| c.moves_to_go);
        limits.winc = tc.increment;
        limits.binc = tc.increment;
    }
    limits
}
