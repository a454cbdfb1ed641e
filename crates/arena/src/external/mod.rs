//! External engines over UCI or CECP (XBoard protocol 2).
//!
//! The material is cut the way fastchess (`engine/process`, `uci_engine`)
//! and cutechess (`chessengine` → `uciengine`/`xboardengine`) cut it:
//!
//! * [`settings`]: the typed settings of an engine ([`ExternalConfig`]);
//! * [`process`]: the child process and its line reader (public for other
//!   drivers of external programs, with [`start_uci`] for a UCI session
//!   outside a match, and [`uci_options`] for what an engine declares);
//! * [`normalize`]: engine move text → varia's UCI;
//! * `uci` and `cecp`: what each protocol says, as a `Dialect`;
//! * this module: `ProtocolEngine`, the plumbing both share (start and
//!   handshake, restart, killing the process after a timeout or crash), so
//!   there is one [`Player`] impl for both protocols.
//!
//! Every wait has a deadline: the handshake and `isready`/`ping` waits use
//! `timeout=`, a move waits for the player's clock (or fixed move time) plus
//! `margin=`, and a move limited only by nodes or depth waits `timeout=`. A
//! closed pipe is a crash; a missed deadline is a loss on time, after which
//! the process is killed and [`Player::restart`] starts a fresh one.
//!
//! Moves go to engines in UCI coordinates from the start of the game (UCI
//! `position startpos moves ...` when the game began at the variant's start
//! position, so engines' FEN dialects never matter for openings given as
//! moves). Replies are normalized against the game's current position (see
//! [`normalize`]).
//!
//! A CECP `resign` loses the game by adjudication, and so does a result the
//! engine claims for its opponent instead of moving (`0-1 {...}` from White);
//! any other result claimed instead of a move is a protocol error (the game
//! is lost as a crash and the engine restarted). Claims made after a move are
//! ignored: games end by varia's rules.

mod cecp;
pub mod normalize;
pub mod process;
pub mod settings;
mod uci;

pub use normalize::normalize_move;
pub use settings::{ExternalConfig, Protocol, StderrTarget};
pub use uci::{parse_uci_option, UciOption};

use crate::player::{MoveReply, MoveRequest, Player, PlayerError};
use movegen::VariantKind;
pub use process::Process;
use std::time::Duration;

/// Starts the external engine `cfg` under `name` and completes the protocol
/// handshake. With a `variant`, also checks that the engine plays it, so
/// that a match fails at once with a clear message instead of losing every
/// game.
pub fn spawn(
    name: &str,
    cfg: &ExternalConfig,
    variant: Option<VariantKind>,
) -> Result<Box<dyn Player>, PlayerError> {
    match cfg.proto {
        Protocol::Uci => start(name, cfg, uci::Uci::default(), variant),
        Protocol::Xboard => start(name, cfg, cecp::Cecp::default(), variant),
    }
}

/// Starts the UCI engine `cfg` under `name` for `variant` outside a match:
/// the handshake with its `option.NAME=` settings, the check that it plays
/// `variant`, `setoption name UCI_Variant` (when the engine needs it),
/// `ucinewgame` and `isready`. The caller then talks to the process
/// directly (e.g. `position ...` and `go perft N`).
pub fn start_uci(
    name: &str,
    cfg: &ExternalConfig,
    variant: VariantKind,
) -> Result<Process, PlayerError> {
    let mut proc = Process::start(name, cfg)?;
    let mut uci = uci::Uci::default();
    uci.handshake(&mut proc, cfg)?;
    uci.check_variant(variant)?;
    uci.new_game(&mut proc, cfg, variant)?;
    Ok(proc)
}

/// The options the UCI engine `cfg` announces in its `uci` reply (after
/// its `option.NAME=` settings were accepted), e.g. to check what a tuner
/// may set before any game. The process is ended before this returns.
pub fn uci_options(name: &str, cfg: &ExternalConfig) -> Result<Vec<UciOption>, PlayerError> {
    let mut proc = Process::start(name, cfg)?;
    let mut uci = uci::Uci::default();
    let r = uci.handshake(&mut proc, cfg);
    proc.kill();
    r.map(|()| uci.options().to_vec())
}

fn start<D: Dialect + 'static>(
    name: &str,
    cfg: &ExternalConfig,
    dialect: D,
    variant: Option<VariantKind>,
) -> Result<Box<dyn Player>, PlayerError> {
    let engine = ProtocolEngine::start(name, cfg.clone(), dialect)?;
    if let Some(v) = variant {
        engine.dialect.check_variant(v)?;
    }
    Ok(Box::new(engine))
}

/// What one protocol says: the handshake on a fresh process, a new game, a
/// move. [`ProtocolEngine`] owns the process and calls these with it.
pub(crate) trait Dialect: Send {
    /// Forgets everything about the previous process (before a start).
    fn reset(&mut self);
    /// The handshake with a freshly started engine.
    fn handshake(&mut self, proc: &mut Process, cfg: &ExternalConfig) -> Result<(), PlayerError>;
    /// Checks the engine plays `variant` (known after the handshake).
    fn check_variant(&self, variant: VariantKind) -> Result<(), PlayerError>;
    /// Prepares the engine for a new game.
    fn new_game(
        &mut self,
        proc: &mut Process,
        cfg: &ExternalConfig,
        variant: VariantKind,
    ) -> Result<(), PlayerError>;
    /// Asks for a move.
    fn go(
        &mut self,
        proc: &mut Process,
        cfg: &ExternalConfig,
        req: &MoveRequest,
    ) -> Result<MoveReply, PlayerError>;
    /// Called when [`Dialect::go`] failed with `e`.
    fn move_failed(&mut self, _e: &PlayerError) {}
}

/// An external engine: its settings, its process (if running) and the
/// protocol state. Restarting kills the process and starts a fresh one.
pub(crate) struct ProtocolEngine<D> {
    name: String,
    cfg: ExternalConfig,
    proc: Option<Process>,
    dialect: D,
}

impl<D: Dialect> ProtocolEngine<D> {
    /// Starts the engine and completes the handshake.
    fn start(name: &str, cfg: ExternalConfig, dialect: D) -> Result<Self, PlayerError> {
        let mut e = ProtocolEngine {
            name: name.to_string(),
            cfg,
            proc: None,
            dialect,
        };
        e.launch()?;
        Ok(e)
    }

    /// (Re)starts the process: kills the old one, starts a new one and
    /// completes the handshake; a process that fails it is killed.
    fn launch(&mut self) -> Result<(), PlayerError> {
        if let Some(mut old) = self.proc.take() {
            old.kill();
        }
        self.dialect.reset();
        let mut proc = Process::start(&self.name, &self.cfg)?;
        match self.dialect.handshake(&mut proc, &self.cfg) {
            Ok(()) => {
                self.proc = Some(proc);
                Ok(())
            }
            Err(e) => {
                proc.kill();
                Err(e)
            }
        }
    }

    /// Runs `f` with the running process; after a timeout the process is
    /// killed, after a crash forgotten (the runner then restarts it).
    fn with_process<T>(
        &mut self,
        f: impl FnOnce(&mut D, &mut Process, &ExternalConfig) -> Result<T, PlayerError>,
    ) -> Result<T, PlayerError> {
        let r = match self.proc.as_mut() {
            Some(proc) => f(&mut self.dialect, proc, &self.cfg),
            None => Err(PlayerError::Crashed("engine is not running".into())),
        };
        if let Err(PlayerError::Timeout | PlayerError::Crashed(_)) = &r {
            if let Some(mut p) = self.proc.take() {
                p.kill();
            }
        }
        r
    }
}

impl<D: Dialect> Player for ProtocolEngine<D> {
    fn name(&self) -> &str {
        &self.name
    }

    fn new_game(&mut self, variant: VariantKind) -> Result<(), PlayerError> {
        self.with_process(|d, proc, cfg| d.new_game(proc, cfg, variant))
    }

    fn go(&mut self, req: &MoveRequest) -> Result<MoveReply, PlayerError> {
        let r = self.with_process(|d, proc, cfg| d.go(proc, cfg, req));
        if let Err(e) = &r {
            self.dialect.move_failed(e);
        }
        r
    }

    fn restart(&mut self) -> Result<(), PlayerError> {
        self.launch()
    }
}

/// How long to wait for a move: the mover's clock or fixed move time plus
/// the margin, or the fixed timeout for moves limited by nodes or depth only.
fn move_wait(req: &MoveRequest, cfg: &ExternalConfig) -> Duration {
    let l = req.limits;
    if l.tc.is_some() {
        if let Some(c) = req.clocks[req.game.turn().index()] {
            return c.left + cfg.margin;
        }
    }
    if let Some(t) = l.movetime {
        return t + cfg.margin;
    }
    cfg.timeout
}

/// The clocks from the mover's view: (own, opponent's) in milliseconds.
fn clocks_ms(req: &MoveRequest) -> Option<(u128, u128)> {
    let me = req.game.turn().index();
    let own = req.clocks[me]?;
    let other = req.clocks[1 - me].unwrap_or(own);
    Some((own.left.as_millis(), other.left.as_millis()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_missing_binary_is_a_setup_error() {
        let e = spawn("e", &ExternalConfig::new("/no/such/engine"), None)
            .err()
            .unwrap();
        assert!(e.to_string().contains("cannot start"), "{e}");
    }
}
