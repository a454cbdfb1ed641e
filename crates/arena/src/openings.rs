//! Opening books: EPD/FEN files (one position per line, optionally followed
//! by `moves` and UCI moves) and PGN files (`[FEN]` tag and SAN movetext).
//! Each opening is a start FEN plus moves, so external engines can be sent
//! `position fen ... moves ...` / the moves from the start position, which
//! avoids FEN dialect differences between engines.
//!
//! Random openings ([`random_line`], [`random_opening`]) are made here too,
//! for `varia openings` (which keeps the balanced ones) and the tuner's
//! self-play. The random choice is the caller's: each caller's sequence for
//! a seed is part of committed files (the opening books under
//! `data/openings`, the tuning runs under `data/tuning`), and the two draw
//! differently.

use crate::pgn;
use movegen::{dispatch_cold, Game, Position, Variant, VariantKind};
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

/// A book entry that is not a position of the game or whose moves are not
/// legal (books read by [`load`] are checked, hand-made ones may not be).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("book opening \"{opening}\": {reason}")]
pub struct BadBookEntry {
    /// The entry, as [`Opening::describe`] writes it.
    pub opening: String,
    /// What is wrong with it.
    pub reason: String,
}

/// Plays `plies` random legal moves in `game`, each the `choose(n)`-th of
/// the `n` legal moves (`choose` returns a number below `n`). `None` if the
/// game ends on the way or at the end.
pub fn random_line<V: Variant>(
    mut game: Game<V>,
    plies: usize,
    choose: &mut impl FnMut(usize) -> usize,
) -> Option<Game<V>> {
    for _ in 0..plies {
        if game.outcome().is_some() {
            return None;
        }
        let legal = game.position().legal_moves();
        if legal.is_empty() {
            return None;
        }
        game.play_unchecked(legal[choose(legal.len())]);
    }
    game.outcome().is_none().then_some(game)
}

/// A random opening: the `choose(book.len())`-th entry of `book` (the
/// variant's start position if `book` is empty), then [`random_line`] of
/// `plies` moves. `Ok(None)` if the game ends on the way.
pub fn random_opening<V: Variant>(
    book: &[Opening],
    plies: usize,
    choose: &mut impl FnMut(usize) -> usize,
) -> Result<Option<Game<V>>, BadBookEntry> {
    let start = if book.is_empty() {
        Game::new(Position::<V>::startpos())
    } else {
        let o = &book[choose(book.len())];
        let bad = |reason: String| BadBookEntry {
            opening: o.describe(),
            reason,
        };
        let mut g = Game::new(Position::<V>::from_fen(&o.fen).map_err(|e| bad(e.to_string()))?);
        for m in &o.moves {
            g.play_uci(m).map_err(|e| bad(e.to_string()))?;
        }
        g
    };
    Ok(random_line(start, plies, choose))
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
            let o = dispatch_cold!(kind, V => check_line::<V>(line)).map_err(|m| err(i + 1, m))?;
            out.push(o);
        }
    }
    if out.is_empty() {
        return Err(err(0, "no openings in file".into()));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use movegen::variants::{Chess, Suicide};

    #[test]
    fn random_opening_plays_the_chosen_entry_then_the_chosen_moves() {
        let book = [
            Opening::start(VariantKind::Chess),
            Opening {
                fen: VariantKind::Chess.start_fen().to_string(),
                moves: vec!["e2e4".into(), "e7e5".into()],
            },
        ];
        // Entry 1, then always the last legal move.
        let mut calls = 0;
        let game = random_opening::<Chess>(&book, 3, &mut |n| {
            calls += 1;
            if calls == 1 {
                1
            } else {
                n - 1
            }
        })
        .expect("valid book")
        .expect("three moves do not end the game");
        assert_eq!(calls, 4);
        assert_eq!(game.moves().len(), 5);
        let first: Vec<String> = game.moves()[..2].iter().map(|m| m.uci()).collect();
        assert_eq!(first, ["e2e4", "e7e5"]);
    }

    #[test]
    fn a_line_that_ends_the_game_is_none() {
        // Suicide: White has no pieces left, so the game is over (White
        // has won) and no line is played from it.
        let fen = "8/8/8/8/8/8/1p6/8 w - - 0 1";
        let start = Game::new(Position::<Suicide>::from_fen(fen).expect("valid FEN"));
        assert!(start.outcome().is_some());
        assert!(random_line(start, 1, &mut |_| 0).is_none());
    }

    #[test]
    fn a_bad_book_entry_is_named() {
        let book = [Opening {
            fen: VariantKind::Chess.start_fen().to_string(),
            moves: vec!["e2e5".into()],
        }];
        let e = random_opening::<Chess>(&book, 2, &mut |_| 0).expect_err("illegal move");
        assert!(e.opening.ends_with("moves e2e5"), "{e}");
    }
}
