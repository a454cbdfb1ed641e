//! Opening books: EPD/FEN files (one position per line, optionally followed
//! by `moves` and UCI moves) and PGN files (`[FEN]` tag and SAN movetext).
//! Each opening is a start FEN plus moves, so external engines can be sent
//! `position fen ... moves ...` / the moves from the start position, which
//! avoids FEN dialect differences between engines.

use crate::pgn;
use movegen::{dispatch, Position, Variant, VariantKind};
use std::path::Path;

/// One opening: a start position and moves from it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    /// Start FEN (varia's dialect).
    pub fen: String,
    /// Moves from it, in UCI.
    pub moves: Vec<String>,
}

impl Opening {
    /// The variant's start position, no moves.
    pub fn start(kind: VariantKind) -> Opening {
        Opening {
            fen: kind.start_fen().to_string(),
            moves: Vec::new(),
        }
    }

    /// Text for the CSV `opening` column: the FEN, then `moves ...` if any.
    pub fn describe(&self) -> String {
        if self.moves.is_empty() {
            self.fen.clone()
        } else {
            format!("{} moves {}", self.fen, self.moves.join(" "))
        }
    }
}

/// Error reading an opening file.
#[derive(Debug, thiserror::Error)]
#[error("{path}:{line}: {message}")]
pub struct OpeningError {
    /// File.
    pub path: String,
    /// Line (1-based; 0 for the whole file).
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

fn check_line<V: Variant>(text: &str) -> Result<Opening, String> {
    let (fen_part, moves_part) = match text.split_once(" moves ") {
        Some((f, m)) => (f.trim(), Some(m)),
        None => (text.trim(), None),
    };
    // EPD: four fields (plus the threecheck counter) followed by operations.
    let fields: Vec<&str> = fen_part.split_whitespace().collect();
    let mut candidates = vec![fields.join(" ")];
    for n in [4, 5, 6, 7] {
        if fields.len() > n {
            candidates.push(fields[..n].join(" "));
        }
    }
    let mut last_err = String::new();
    for fen in candidates {
        match Position::<V>::from_fen(&fen) {
            Ok(start) => {
                let mut pos = start;
                let mut moves = Vec::new();
                for m in moves_part.unwrap_or("").split_whitespace() {
                    let mv = pos.parse_uci(m).map_err(|e| e.to_string())?;
                    pos = pos.play_unchecked(mv);
                    moves.push(mv.uci());
                }
                if pos.outcome().is_some() {
                    return Err("the opening ends the game".into());
                }
                return Ok(Opening {
                    fen: start.fen(),
                    moves,
                });
            }
            Err(e) => last_err = e.to_string(),
        }
    }
    Err(last_err)
}

/// Reads an opening file for `kind`: `.pgn` as PGN, anything else as EPD/FEN lines.
pub fn load(path: &Path, kind: VariantKind) -> Result<Vec<Opening>, OpeningError> {
    let name = path.display().to_string();
    let err = |line, message: String| OpeningError {
        path: name.clone(),
        line,
        message,
    };
    let text = search::input::read_to_string(path).map_err(|e| err(0, e.to_string()))?;
    let mut out = Vec::new();
    if path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("pgn"))
    {
        for game in pgn::read_games(&text, kind).map_err(|e| err(e.line, e.message))? {
            out.push(Opening {
                fen: game.start_fen,
                moves: game.moves,
            });
        }
    } else {
        for (i, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let o = dispatch!(kind, V => check_line::<V>(line)).map_err(|m| err(i + 1, m))?;
            out.push(o);
        }
    }
    if out.is_empty() {
        return Err(err(0, "no openings in file".into()));
    }
    Ok(out)
}
