//! The files self-play writes, in three formats, and how a run is resumed.
//!
//! A game's positions reach this module as [`PackedPosition`]s (position,
//! search score from the side to move's view, result from White's): the
//! packed record is the one in-memory form, and each format is written from
//! it.
//!
//! - [`Format::Csv`]: the `fen,result` CSV the Texel tuner reads
//!   ([`crate::positions`]): the header line, then one row a position,
//!   nothing else, so that pandas, R and spreadsheets open it as it is.
//! - [`Format::Text`]: `FEN | score | result` lines, score and result from
//!   White's view (result `1.0`, `0.5`, `0.0`), as the text converters of
//!   network trainers (bullet, marlinflow) read them.
//! - [`Format::Bin`]: [`crate::packed`]'s 32-byte records after its header.
//!
//! None of them holds comment lines, so the run identity and progress live
//! beside the output, in `OUT.progress` ([`progress_path`]), an
//! [`arena::record`] file with a checksummed row `last_game,games,
//! positions,bytes` per checkpoint. Games are written in game order, so the
//! last row says which games are in the file and how many bytes hold them.
//! The data is written before its row: a kill between the two leaves bytes
//! past the row's count, a torn tail that resuming cuts off (and the games
//! in it are played again, to the same bytes).

use crate::packed::{Header, PackedPosition, BLACK_WIN, WHITE_WIN};
use crate::positions::format_result;
use crate::{Error, Result};
use arena::record::{AppendLog, RecordFormat, RunIdentity};
use movegen::{Color, VariantKind};
use std::fmt;
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::time::{Duration, Instant};

/// An output format of self-play.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// `fen,result` CSV, header first (Texel tuning).
    Csv,
    /// `FEN | score | result` lines, White's view.
    Text,
    /// The packed binary format ([`crate::packed`]).
    Bin,
}

impl Format {
    /// The name on the command line and in the run's settings.
    pub fn name(self) -> &'static str {
        match self {
            Format::Csv => "csv",
            Format::Text => "text",
            Format::Bin => "bin",
        }
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Format {
    type Err = String;

    fn from_str(s: &str) -> std::result::Result<Self, Self::Err> {
        match s.trim().to_ascii_lowercase().as_str() {
            "csv" => Ok(Format::Csv),
            "text" | "txt" => Ok(Format::Text),
            "bin" | "binary" => Ok(Format::Bin),
            _ => Err(format!("unknown format \"{s}\" (valid: csv, text, bin)")),
        }
    }
}

/// The CSV output's first line.
pub const CSV_HEADER: &str = "fen,result\n";

/// The progress file beside an output.
pub const PROGRESS_FORMAT: RecordFormat = RecordFormat {
    kind: "varia datagen progress",
    version: 1,
    checksum: true,
};

/// Columns of the progress file.
pub const PROGRESS_COLUMNS: [&str; 4] = ["last_game", "games", "positions", "bytes"];

/// A progress row is written at most this often (and at the end): a killed
/// run replays at most this much.
const CHECKPOINT_EVERY: Duration = Duration::from_secs(10);

/// The progress file of output `out`: `OUT.progress`.
pub fn progress_path(out: &Path) -> PathBuf {
    let mut name = out.as_os_str().to_owned();
    name.push(".progress");
    PathBuf::from(name)
}

/// A result from White's view as text trainers write it.
fn text_result(result: u8) -> &'static str {
    match result {
        WHITE_WIN => "1.0",
        BLACK_WIN => "0.0",
        _ => "0.5",
    }
}

/// White's score (1, 0.5, 0) of a result byte.
pub fn white_score(result: u8) -> f64 {
    f64::from(result) / 2.0
}

/// The `FEN | score | result` line of a position (no newline), score and
/// result from White's view.
pub fn text_line(p: &PackedPosition, kind: VariantKind) -> String {
    let score = i32::from(p.score());
    let white = if p.turn() == Color::White {
        score
    } else {
        -score
    };
    format!("{} | {white} | {}", p.to_fen(kind), text_result(p.result()))
}

/// The `fen,result` CSV row of a position (no newline), result from
/// White's view.
pub fn csv_line(p: &PackedPosition, kind: VariantKind) -> String {
    csv_row(&p.to_fen(kind), white_score(p.result()))
}

/// The `fen,result` CSV row (no newline) of the position `fen` of a game
/// White scored `white_score` in: the one writer of the rows of CSV
/// position files, whether from packed records or from FENs (`varia
/// datagen --from`).
pub fn csv_row(fen: &str, white_score: f64) -> String {
    format!("{fen},{}", format_result(white_score))
}

/// What a resumed output already holds.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Resumed {
    /// Every game of the run up to this number is in the file (they are
    /// written in order); 0 for none.
    pub through: usize,
    /// Positions in the file.
    pub positions: u64,
}

impl Resumed {
    /// `true` if game `id` is in the file.
    pub fn holds(&self, id: usize) -> bool {
        id <= self.through
    }
}

/// An open output: games are appended in the order given.
pub struct Output {
    kind: VariantKind,
    format: Format,
    name: String,
    sink: Sink,
}

struct Sink {
    data: File,
    progress: AppendLog,
    last_game: usize,
    games: usize,
    positions: u64,
    bytes: u64,
    saved: Instant,
    dirty: bool,
}

impl Output {
    /// Opens `out` in `format` for the run `identity` of game `kind`,
    /// creating it or, if it holds part of this run, resuming it (a file of
    /// another run is refused, naming the first differing setting).
    pub fn open(
        out: &Path,
        format: Format,
        kind: VariantKind,
        identity: &RunIdentity,
    ) -> Result<(Output, Resumed)> {
        let name = out.display().to_string();
        let ppath = progress_path(out);
        let pname = ppath.display().to_string();
        let existing = std::fs::metadata(out).map(|m| m.len()).ok();
        let sidecar_exists = std::fs::metadata(&ppath).is_ok_and(|m| m.len() > 0);
        if !sidecar_exists && existing.is_some_and(|n| n > 0) {
            return Err(Error::Resume(format!(
                "{name} exists but {pname} (its run's settings and progress) does not: remove {name} or choose another --out"
            )));
        }
        let (mut progress, old) = AppendLog::open(
            &ppath,
            &PROGRESS_FORMAT,
            identity,
            &PROGRESS_COLUMNS,
            &pname,
        )?;
        let last_row = old
            .as_ref()
            .and_then(|r| r.lines.iter().rev().find(|l| !l.comment));
        let header_len = match format {
            Format::Bin => crate::packed::HEADER_LEN as u64,
            Format::Csv => CSV_HEADER.len() as u64,
            Format::Text => 0,
        };
        let (last_game, games, positions, bytes) = match last_row {
            Some(line) => parse_progress(&line.text).ok_or_else(|| Error::Line {
                file: pname.clone(),
                line: line.number,
                message: format!("bad progress row \"{}\"", line.text),
            })?,
            None => (0, 0, 0, header_len),
        };
        let data = if last_row.is_none() {
            // A fresh run (or one killed before its first checkpoint).
            let mut f = File::create(out).map_err(Error::io(&name))?;
            match format {
                Format::Bin => Header { game: kind }
                    .write(&mut f)
                    .map_err(Error::io(&name))?,
                Format::Csv => f
                    .write_all(CSV_HEADER.as_bytes())
                    .map_err(Error::io(&name))?,
                Format::Text => {}
            }
            f.flush().map_err(Error::io(&name))?;
            progress.append(&format!("0,0,0,{header_len}"))?;
            OpenOptions::new()
                .append(true)
                .open(out)
                .map_err(Error::io(&name))?
        } else {
            let len = existing.unwrap_or(0);
            if len < bytes {
                return Err(Error::Resume(format!(
                    "{name} holds {len} bytes but {pname} records {bytes}: the data was cut or replaced; remove both to start over"
                )));
            }
            let f = OpenOptions::new()
                .append(true)
                .open(out)
                .map_err(Error::io(&name))?;
            // The torn tail: bytes written after the last checkpoint.
            f.set_len(bytes).map_err(Error::io(&name))?;
            if format == Format::Bin {
                let (header, _) = Header::read(out)?;
                if header.game != kind {
                    return Err(Error::Resume(format!(
                        "{name} holds {} positions, this run is {}",
                        header.game.name(),
                        kind.name()
                    )));
                }
            }
            f
        };
        let sink = Sink {
            data,
            progress,
            last_game,
            games,
            positions,
            bytes,
            saved: Instant::now(),
            dirty: false,
        };
        Ok((
            Output {
                kind,
                format,
                name,
                sink,
            },
            Resumed {
                through: last_game,
                positions,
            },
        ))
    }

    /// Appends game `id`'s positions (games must come in the run's order for
    /// text and bin). A checkpoint follows when the last is old enough.
    pub fn write_game(&mut self, id: usize, positions: &[PackedPosition]) -> Result<()> {
        let kind = self.kind;
        let sink = &mut self.sink;
        let mut buf = Vec::with_capacity(positions.len() * 96);
        for p in positions {
            match self.format {
                Format::Bin => buf.extend_from_slice(p.as_bytes()),
                Format::Text => buf.extend_from_slice(text_line(p, kind).as_bytes()),
                Format::Csv => buf.extend_from_slice(csv_line(p, kind).as_bytes()),
            }
            if self.format != Format::Bin {
                buf.push(b'\n');
            }
        }
        sink.data.write_all(&buf).map_err(Error::io(&self.name))?;
        sink.last_game = id;
        sink.games += 1;
        sink.positions += positions.len() as u64;
        sink.bytes += buf.len() as u64;
        sink.dirty = true;
        if sink.saved.elapsed() >= CHECKPOINT_EVERY {
            self.checkpoint()?;
        }
        Ok(())
    }

    /// Records the progress so far.
    pub fn checkpoint(&mut self) -> Result<()> {
        let sink = &mut self.sink;
        if sink.dirty {
            sink.data.flush().map_err(Error::io(&self.name))?;
            sink.progress.append(&format!(
                "{},{},{},{}",
                sink.last_game, sink.games, sink.positions, sink.bytes
            ))?;
            sink.dirty = false;
        }
        sink.saved = Instant::now();
        Ok(())
    }
}

fn parse_progress(row: &str) -> Option<(usize, usize, u64, u64)> {
    let mut f = row.split(',').map(str::trim);
    let last = f.next()?.parse().ok()?;
    let games = f.next()?.parse().ok()?;
    let positions = f.next()?.parse().ok()?;
    let bytes = f.next()?.parse().ok()?;
    f.next()
        .is_none()
        .then_some((last, games, positions, bytes))
}

#[cfg(test)]
mod tests {
    use super::*;
    use movegen::variants::ThreeCheck;
    use movegen::Position;

    #[test]
    fn text_lines_are_from_whites_view() {
        let pos = Position::<ThreeCheck>::from_fen(
            "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 3+2 0 2",
        )
        .unwrap();
        let p = PackedPosition::from_position(&pos, 35, WHITE_WIN);
        assert_eq!(
            text_line(&p, VariantKind::ThreeCheck),
            "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 3+2 0 2 | -35 | 1.0"
        );
        assert_eq!(
            csv_line(&p.with_result(1), VariantKind::ThreeCheck),
            "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 3+2 0 2,0.5"
        );
    }

    #[test]
    fn formats_parse_by_name() {
        for f in [Format::Csv, Format::Text, Format::Bin] {
            assert_eq!(f.name().parse::<Format>(), Ok(f));
        }
        assert!("pgn"
            .parse::<Format>()
            .unwrap_err()
            .contains("valid: csv, text, bin"));
    }

    #[test]
    fn the_progress_file_sits_beside_the_output() {
        assert_eq!(
            progress_path(Path::new("/d/chess.bin")),
            PathBuf::from("/d/chess.bin.progress")
        );
        assert_eq!(parse_progress("4,2,100,3232"), Some((4, 2, 100, 3232)));
        assert_eq!(parse_progress("4,2,100"), None);
    }
}
