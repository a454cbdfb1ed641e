//! Position files: CSV with a `fen,result` header and one labelled position
//! per line, the result being the game's final score from White's view
//! (`1`, `0.5` or `0`), or any expected score between 0 and 1 (the labels
//! of [`crate::label`], an engine's judgement of the position). Lines
//! starting with `#` are comments: the data generator writes its settings
//! as the first lines and a `# game N` line after the positions of game `N`
//! (see [`crate::datagen`]); readers skip them
//! (`pandas.read_csv(path, comment="#")` does too). FENs contain no commas,
//! so no quoting is needed.

use crate::{Error, Result};
use arena::GameResult;
use movegen::{Position, Variant};
use rayon::prelude::*;
use std::path::Path;

/// The header line.
pub const HEADER: &str = "fen,result";

/// Parses a result field: White's score as a number from 0 to 1 (`1`,
/// `0.5`, `0`, or an expected score such as `0.6234`), `1/2`, or a game
/// result in PGN's spelling (`1-0`, `1/2-1/2`, `0-1`, read by
/// [`GameResult::from_pgn`]).
pub fn parse_result(s: &str) -> Option<f32> {
    let s = s.trim();
    if s == "1/2" {
        return Some(0.5);
    }
    match s.parse::<f32>() {
        Ok(r) if (0.0..=1.0).contains(&r) => Some(r),
        Ok(_) => None,
        Err(_) => GameResult::from_pgn(s).map(|r| r.white_score() as f32),
    }
}

/// Formats White's score as written in position files.
pub fn format_result(r: f64) -> &'static str {
    if r >= 0.75 {
        "1"
    } else if r <= 0.25 {
        "0"
    } else {
        "0.5"
    }
}

/// Reads a position file for game `V`, in parallel. Every malformed line is
/// an error naming the file and the line.
pub fn read<V: Variant>(path: &Path) -> Result<Vec<(Position<V>, f32)>> {
    let name = path.display().to_string();
    let text = search::input::read_to_string(path).map_err(Error::io(&name))?;
    parse::<V>(&text, &name)
}

/// Parses the text of a position file (`origin` names it in errors).
pub fn parse<V: Variant>(text: &str, origin: &str) -> Result<Vec<(Position<V>, f32)>> {
    let mut lines: Vec<(usize, &str)> = text
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.trim()))
        .filter(|(_, l)| !l.is_empty() && !l.starts_with('#'))
        .collect();
    if lines
        .first()
        .is_some_and(|(_, l)| l.eq_ignore_ascii_case(HEADER))
    {
        lines.remove(0);
    }
    lines
        .par_iter()
        .map(|&(n, line)| {
            let err = |message: String| Error::Line {
                file: origin.to_string(),
                line: n,
                message,
            };
            let (fen, result) = line
                .rsplit_once(',')
                .ok_or_else(|| err("expected \"fen,result\"".into()))?;
            let r = parse_result(result).ok_or_else(|| {
                err(format!(
                    "bad result \"{}\" (expected 1, 0.5, 0 or a score between 0 and 1)",
                    result.trim()
                ))
            })?;
            let pos = Position::<V>::from_fen(fen.trim())
                .map_err(|e| err(format!("bad FEN \"{}\": {e}", fen.trim())))?;
            Ok((pos, r))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::parse_result;

    #[test]
    fn results_read_as_scores_or_in_pgn_spelling() {
        for (text, score) in [
            ("1", 1.0),
            ("0.5", 0.5),
            (" 0 ", 0.0),
            ("1-0", 1.0),
            ("1/2-1/2", 0.5),
            ("0-1", 0.0),
            ("0.6234", 0.6234),
            (".25", 0.25),
        ] {
            assert_eq!(parse_result(text), Some(score), "{text}");
        }
        for bad in ["*", "2", "1-1", "", "-0.1", "1.01", "NaN", "inf"] {
            assert_eq!(parse_result(bad), None, "{bad}");
        }
    }
}
