//! Positions labelled by an engine's judgement instead of a game's result.
//!
//! Texel tuning on game results ([`crate::texel`]) asks of each position
//! "who won the game it came from": a weak, noisy signal that needs many
//! games, and one that can mislead when the games are the engine's own (the
//! suicide experiment in `data/tuning/` moved weights the wrong way). A
//! stronger engine's search score of the position itself is a denser signal:
//! every position carries what that engine expects from it. This module
//! writes such labels in the position-file format the tuner reads, the label
//! being the engine's expected score from White's view,
//! `1 / (1 + 10^(-cp / 400))` ([`expected_score`]; a mate is 1 or 0); the
//! tuner fits its scale `K` to these as it does to results, so the engine's
//! centipawn scale does not need to match varia's.
//!
//! The engine is an [`EngineConfig`] with the words of `varia match --engine`:
//! an external engine over UCI or CECP (`cmd=...`), or varia itself
//! in-process, limited by `depth=`, `nodes=` or `movetime=` (a clock means
//! nothing for a single position). Each worker thread runs its own engine and
//! takes positions from one shared counter; before each position the engine
//! is told a new game, so a label does not depend on the positions searched
//! before it. Each label is appended and flushed as it arrives
//! ([`AppendLog`]: the run's identity in `FILE.meta`, the file locked for
//! the run, torn last line cut off), so an
//! interrupted run loses nothing and the same command later labels only the
//! positions the file lacks. Positions that are already over (no move to
//! search) are left out.

use crate::{Error, Result};
use arena::engine_config::EngineConfig;
use arena::record::{AppendLog, RecordFormat, RunIdentity};
use arena::{MoveRequest, Player};
use movegen::{Color, VariantGame, VariantKind};
use std::collections::HashSet;
use std::path::Path;

/// The output format: plain `fen,result` rows (no checksums), readable by
/// every position reader, under the run's identity.
pub const LABEL_FORMAT: RecordFormat = RecordFormat {
    kind: "varia label",
    version: 1,
    checksum: false,
};

/// What to label with.
#[derive(Clone, Debug)]
pub struct LabelConfig {
    /// The game.
    pub variant: VariantKind,
    /// The engine and its move limit.
    pub engine: EngineConfig,
    /// The engine's settings as given (the run's identity).
    pub engine_text: String,
    /// Worker threads, one engine each.
    pub threads: usize,
}

/// Progress of a run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LabelProgress {
    /// Positions labelled in the file.
    pub done: usize,
    /// Positions to label in all (those of the input not over).
    pub total: usize,
    /// Positions labelled by this run.
    pub labelled: usize,
}

/// White's expected score for a score of `cp` centipawns from White's view
/// (mates as ±`search::MATE` minus plies saturate to 1 and 0).
pub fn expected_score(cp: i32) -> f64 {
    1.0 / (1.0 + 10f64.powf(-f64::from(cp) / 400.0))
}

/// The FENs of a position file (`fen,result` rows, `#` comments, an
/// optional header) or of a plain list of FENs, in order, each once.
/// Every FEN must be a position of `variant`; the error names the line.
pub fn read_fens(text: &str, variant: VariantKind, origin: &str) -> Result<Vec<String>> {
    let mut seen = HashSet::new();
    let mut fens = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') || line.eq_ignore_ascii_case("fen,result") {
            continue;
        }
        let fen = line.rsplit_once(',').map_or(line, |(fen, _)| fen).trim();
        VariantGame::from_fen(variant, fen).map_err(|e| Error::Line {
            file: origin.to_string(),
            line: i + 1,
            message: format!("bad {} FEN \"{fen}\": {e}", variant.name()),
        })?;
        if seen.insert(fen.to_string()) {
            fens.push(fen.to_string());
        }
    }
    Ok(fens)
}

/// The run's identity: what decides the labels.
fn identity(cfg: &LabelConfig, input: &Path) -> RunIdentity {
    RunIdentity::new()
        .with("variant", cfg.variant.name())
        .with("positions", input.display())
        .with("engine", &cfg.engine_text)
}

/// Labels the positions of `input` into `out` (resuming it if it exists),
/// calling `progress` from the calling thread after each label.
pub fn run(
    cfg: &LabelConfig,
    input: &Path,
    out: &Path,
    progress: &mut dyn FnMut(&LabelProgress),
) -> Result<LabelProgress> {
    let input_name = input.display().to_string();
    let text = search::input::read_to_string(input).map_err(Error::io(&input_name))?;
    // Read and checked by `read_fens`: parsing again cannot fail.
    let games: Vec<(String, VariantGame)> = read_fens(&text, cfg.variant, &input_name)?
        .into_iter()
        .filter_map(|fen| {
            let game = VariantGame::from_fen(cfg.variant, &fen).ok()?;
            game.position_outcome().is_none().then_some((fen, game))
        })
        .collect();
    let name = out.display().to_string();
    let (mut log, old) = AppendLog::open(
        out,
        &LABEL_FORMAT,
        &identity(cfg, input),
        &["fen", "result"],
        &name,
    )?;
    let done: HashSet<String> = old
        .iter()
        .flat_map(|r| &r.lines)
        .filter(|l| !l.comment)
        .filter_map(|l| l.text.rsplit_once(',').map(|(fen, _)| fen.to_string()))
        .collect();
    let todo: Vec<&(String, VariantGame)> =
        games.iter().filter(|(f, _)| !done.contains(f)).collect();
    let mut state = LabelProgress {
        done: games.len() - todo.len(),
        total: games.len(),
        labelled: 0,
    };
    progress(&state);
    crate::workers::for_each_parallel(
        &todo,
        cfg.threads,
        || Ok(cfg.engine.start_for(cfg.variant)?),
        |player, (fen, game)| {
            label_one(cfg, player.as_mut(), fen, game).map(|p| format!("{fen},{p:.4}"))
        },
        |row: String| {
            log.append(&row)?;
            state.done += 1;
            state.labelled += 1;
            progress(&state);
            Ok(())
        },
    )?;
    Ok(state)
}

/// One position's label: the engine searches it after a new game; its last
/// reported score (mover's view) becomes White's expected score. An engine
/// that fails is restarted once for the position.
fn label_one(
    cfg: &LabelConfig,
    player: &mut dyn Player,
    fen: &str,
    game: &VariantGame,
) -> Result<f64> {
    let req = MoveRequest {
        game,
        limits: &cfg.engine.limits,
        clocks: [None, None],
    };
    let ask = |player: &mut dyn Player| {
        player.new_game(cfg.variant)?;
        player.go(&req)
    };
    let reply = match ask(player) {
        Ok(r) => r,
        Err(_) => {
            player.restart()?;
            ask(player)?
        }
    };
    let score = reply.score.ok_or_else(|| {
        Error::Engine(arena::PlayerError::Protocol(format!(
            "no score for {fen} (bestmove {})",
            reply.uci
        )))
    })?;
    let white = if game.turn() == Color::White {
        score
    } else {
        -score
    };
    Ok(expected_score(white))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn expected_score_is_the_logistic_of_the_score() {
        assert_eq!(expected_score(0), 0.5);
        assert!((expected_score(400) - 10.0 / 11.0).abs() < 1e-12);
        assert!((expected_score(-400) - 1.0 / 11.0).abs() < 1e-12);
        assert!(expected_score(search::MATE - 3) > 0.999_999);
        assert!(expected_score(3 - search::MATE) < 1e-6);
    }

    #[test]
    fn fens_are_read_from_position_files_and_lists_once_each() {
        let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        let e4 = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";
        let text =
            format!("# varia datagen v1\nfen,result\n{start},1\n\n{e4},0.5\n{start},0\n{e4}\n");
        let fens = read_fens(&text, VariantKind::Chess, "x.csv").unwrap();
        assert_eq!(fens, vec![start.to_string(), e4.to_string()]);
        let err = read_fens("fen,result\nnot a fen,1\n", VariantKind::Chess, "x.csv")
            .unwrap_err()
            .to_string();
        assert!(
            err.starts_with("x.csv:2: bad chess FEN \"not a fen\""),
            "{err}"
        );
    }
}
