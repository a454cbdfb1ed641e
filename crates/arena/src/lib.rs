//! # arena
//!
//! varia's match runner: a deterministic schedule of games (round robin or
//! gauntlet, opening pairs with colours swapped), played by in-process
//! engines or external ones over UCI/CECP on every core, with every game
//! recorded as it ends (CSV, PGN), resumable, shardable, and summarized with
//! Elo, LOS, pentanomial counts and a generalized SPRT.

#![warn(missing_docs)]

pub mod chart;
pub mod engine_config;
pub mod external;
pub mod game;
pub mod openings;
pub mod pgn;
pub mod player;
pub mod plot;
pub mod record;
pub mod results;
pub mod runner;
pub mod schedule;
pub mod stats;
pub mod tc;

pub use engine_config::{
    parse_engines, EngineConfig, EngineConfigError, EngineKind, InProcessConfig,
};
pub use game::{Adjudication, GameEnd, GameRecord, GameResult, ScoreRule};
pub use openings::Opening;
pub use player::{InProcess, MoveReply, MoveRequest, Player, PlayerError};
pub use record::{AppendLog, RecordError, RunIdentity};
pub use results::ResultsError;
pub use runner::{
    match_identity, run, MatchConfig, MatchError, MatchReport, PlayerFactory, Progress,
};
pub use schedule::{Format, GameSpec, ScheduleSpec};
pub use stats::{EloModel, Sprt, SprtState};
pub use tc::{MoveLimits, TimeControl};
