//! Results: the per-game CSV (appended and flushed as each game ends, read
//! back to resume), and the per-pairing summary (W/D/L, Elo, LOS, draw ratio,
//! pentanomial counts) that the progress line, the final report and
//! `--summary` share.

use crate::game::{GameEnd, GameRecord, GameResult};
use crate::openings::Opening;
use crate::record::{self, AppendLog, Record, RecordError, RecordFormat, RunIdentity};
use crate::schedule::GameSpec;
use crate::stats::{elo_pentanomial, elo_trinomial, EloEstimate, Pentanomial, Wdl};
use movegen::VariantKind;
use std::collections::BTreeMap;
use std::io::Write;
use std::path::Path;

/// Columns of the per-game CSV.
pub const GAME_COLUMNS: [&str; 12] = [
    "game",
    "round",
    "pair",
    "variant",
    "opening",
    "white",
    "black",
    "result",
    "termination",
    "plies",
    "seconds",
    "moves",
];

/// The per-game CSV as a [`record`] file: the match's identity in the
/// sidecar `FILE.meta` (tagged `varia match v1`), a checksum per row.
pub const GAMES_FORMAT: RecordFormat = RecordFormat {
    kind: "varia match",
    version: 1,
    checksum: true,
};

/// One row of the per-game CSV, as read back.
#[derive(Clone, Debug, PartialEq, serde::Deserialize, serde::Serialize)]
pub struct GameRow {
    /// Game number.
    pub game: usize,
    /// Round.
    pub round: usize,
    /// Pair.
    pub pair: usize,
    /// Variant name.
    pub variant: String,
    /// Opening FEN (and moves).
    pub opening: String,
    /// White's name.
    pub white: String,
    /// Black's name.
    pub black: String,
    /// Result.
    pub result: GameResult,
    /// Termination.
    pub termination: String,
    /// Plies.
    pub plies: u32,
    /// Seconds.
    pub seconds: f64,
    /// Moves in UCI, space separated.
    pub moves: String,
}

impl From<&GameRecord> for GameRow {
    fn from(r: &GameRecord) -> GameRow {
        GameRow {
            game: r.spec.game,
            round: r.spec.round,
            pair: r.spec.pair,
            variant: r.variant.name().to_string(),
            opening: r.opening.describe(),
            white: r.white.clone(),
            black: r.black.clone(),
            result: r.end.result(),
            termination: r.end.termination().to_string(),
            plies: r.plies,
            seconds: (r.seconds * 1000.0).round() / 1000.0,
            moves: r.moves.join(" "),
        }
    }
}

impl GameRow {
    /// The game record of this row, for game `spec` of `variant` from
    /// `opening` (the row's own opening column, read back). `None` if
    /// `result` and `termination` do not fit together.
    pub fn to_record(
        &self,
        spec: GameSpec,
        variant: VariantKind,
        opening: &Opening,
    ) -> Option<GameRecord> {
        Some(GameRecord {
            spec,
            variant,
            opening: opening.clone(),
            white: self.white.clone(),
            black: self.black.clone(),
            end: GameEnd::from_columns(self.result, &self.termination)?,
            plies: self.plies,
            seconds: self.seconds,
            moves: self.moves.split_whitespace().map(str::to_string).collect(),
        })
    }

    /// The CSV line (no newline, no checksum).
    pub fn csv_line(&self) -> Result<String, ResultsError> {
        let mut w = csv::WriterBuilder::new()
            .has_headers(false)
            .from_writer(Vec::new());
        w.serialize(self).map_err(ResultsError::Csv)?;
        let bytes = w
            .into_inner()
            .map_err(|e| ResultsError::Csv(e.into_error().into()))?;
        let text = String::from_utf8(bytes).unwrap_or_default();
        Ok(text.trim_end_matches(['\n', '\r']).to_string())
    }
}

/// An error of the per-game CSV.
#[derive(Debug, thiserror::Error)]
pub enum ResultsError {
    /// The record file (identity, checksum, torn lines, I/O).
    #[error(transparent)]
    Record(#[from] RecordError),
    /// A row that does not parse.
    #[error("{file}: line {line}: {message}")]
    Row {
        /// The file.
        file: String,
        /// 1-based line.
        line: usize,
        /// What is wrong.
        message: String,
    },
    /// Serializing a row failed.
    #[error("writing a row: {0}")]
    Csv(csv::Error),
}

/// Appends rows to the per-game CSV, each flushed as it is written, so a
/// crash loses nothing already finished.
pub struct GameWriter {
    log: AppendLog,
}

impl GameWriter {
    /// Opens `path` for the match `identity`: creates it with the header, or
    /// continues it (a file of another match is refused, naming the first
    /// differing setting; a torn last row is cut off). Returns the writer
    /// and the rows already there.
    pub fn open(
        path: &Path,
        identity: &RunIdentity,
    ) -> Result<(GameWriter, Vec<GameRow>), ResultsError> {
        let file = path.display().to_string();
        let (log, old) = AppendLog::open(path, &GAMES_FORMAT, identity, &GAME_COLUMNS, &file)?;
        let rows = match old {
            Some(record) => rows_of(&record, &file)?,
            None => Vec::new(),
        };
        Ok((GameWriter { log }, rows))
    }

    /// Appends one game and flushes.
    pub fn write(&mut self, row: &GameRow) -> Result<(), ResultsError> {
        self.log.append(&row.csv_line()?)?;
        Ok(())
    }
}

/// A per-game CSV read back: the match's identity and its rows.
#[derive(Clone, Debug, PartialEq)]
pub struct GamesFile {
    /// The identity in the header.
    pub identity: RunIdentity,
    /// The rows, checksums verified.
    pub rows: Vec<GameRow>,
}

/// Reads a per-game CSV (to merge shards, or take positions from). A
/// truncated last line (a crash mid-write) is ignored; a malformed row, or
/// one whose checksum does not match, is an error naming its line.
pub fn read_games_file(path: &Path) -> Result<GamesFile, ResultsError> {
    let file = path.display().to_string();
    let record = Record::read(path, &GAMES_FORMAT, &file)?;
    record.expect_columns(&GAME_COLUMNS, &file)?;
    Ok(GamesFile {
        rows: rows_of(&record, &file)?,
        identity: record.identity,
    })
}

/// The rows of a per-game CSV (see [`read_games_file`]).
pub fn read_games(path: &Path) -> Result<Vec<GameRow>, ResultsError> {
    read_games_file(path).map(|f| f.rows)
}

/// Writes a whole per-game CSV: `rows` with checksums, and `identity` in
/// its sidecar `FILE.meta`.
pub fn write_games(
    path: &Path,
    identity: &RunIdentity,
    rows: &[GameRow],
) -> Result<(), ResultsError> {
    let lines = rows
        .iter()
        .map(GameRow::csv_line)
        .collect::<Result<Vec<_>, _>>()?;
    record::write_file(path, &GAMES_FORMAT, identity, &GAME_COLUMNS, lines)?;
    Ok(())
}

fn rows_of(record: &Record, file: &str) -> Result<Vec<GameRow>, ResultsError> {
    let header = csv::StringRecord::from(GAME_COLUMNS.to_vec());
    let mut rows = Vec::new();
    for line in record.lines.iter().filter(|l| !l.comment) {
        let row_error = |message: String| ResultsError::Row {
            file: file.to_string(),
            line: line.number,
            message,
        };
        let mut reader = csv::ReaderBuilder::new()
            .has_headers(false)
            .from_reader(line.text.as_bytes());
        let mut fields = csv::StringRecord::new();
        match reader.read_record(&mut fields) {
            Ok(true) => {}
            Ok(false) => return Err(row_error("empty row".into())),
            Err(e) => return Err(row_error(e.to_string())),
        }
        let row: GameRow = fields
            .deserialize(Some(&header))
            .map_err(|e| row_error(e.to_string()))?;
        rows.push(row);
    }
    Ok(rows)
}

/// Results of one pairing, from the first-named player's view.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PairingStats {
    /// First player.
    pub player: String,
    /// Second player.
    pub opponent: String,
    /// Wins, draws, losses of `player`.
    pub wdl: Wdl,
    /// Completed pairs of `player`.
    pub penta: Pentanomial,
}

impl PairingStats {
    /// Elo estimate: pentanomial when pairs exist, trinomial otherwise.
    pub fn elo(&self) -> EloEstimate {
        // Pairs still open (one game played) are left out of the pentanomial
        // figure; without pairs (`--no-repeat`) games count one by one.
        let e = if self.penta.pairs() * 4 >= self.wdl.games() && self.penta.pairs() > 0 {
            elo_pentanomial(&self.penta)
        } else {
            elo_trinomial(&self.wdl)
        };
        // No "-0.0" in reports.
        let z = |x: f64| if x == 0.0 { 0.0 } else { x };
        EloEstimate {
            elo: z(e.elo),
            low: z(e.low),
            high: z(e.high),
        }
    }

    /// One-line summary.
    pub fn line(&self) -> String {
        let e = self.elo();
        format!(
            "{} vs {}: {} games, +{} ={} -{}, score {:.1}%, Elo {:+.1} +/- {:.1}, LOS {:.1}%, draws {:.1}%, penta [{}]",
            self.player,
            self.opponent,
            self.wdl.games(),
            self.wdl.wins,
            self.wdl.draws,
            self.wdl.losses,
            100.0 * self.wdl.score(),
            e.elo,
            e.error(),
            100.0 * self.wdl.los(),
            100.0 * self.wdl.draw_ratio(),
            self.penta.0.iter().map(|c| c.to_string()).collect::<Vec<_>>().join(" ")
        )
    }
}

/// Per-pairing statistics kept up to date one game at a time: the one
/// aggregation of games (the runner adds each game as it ends; [`summarize`]
/// adds all rows at once). Pairings are keyed by the two names in the order
/// of `order` (lower player index first), pairs by the `pair` column: two
/// games of one pair and one pairing count as a pentanomial pair; a pair
/// whose games are of two pairings, or that has more than two games, counts
/// as none.
#[derive(Clone, Debug, Default)]
pub struct Tally {
    order: Vec<String>,
    pairings: BTreeMap<PairingKey, PairingStats>,
    pairs: BTreeMap<usize, PairState>,
}

/// A pairing: the two players' ranks in the player list, then their names.
type PairingKey = (usize, usize, String, String);

/// How far a pair has got.
#[derive(Clone, Debug)]
enum PairState {
    /// One game: its pairing and the first-named player's points.
    Open(PairingKey, f64),
    /// Counted as a pair with these points.
    Counted(PairingKey, f64),
    /// Not a pair (two pairings, or a third game).
    Broken,
}

impl Tally {
    /// An empty tally for players named in `order`.
    pub fn new(order: &[String]) -> Tally {
        Tally {
            order: order.to_vec(),
            ..Tally::default()
        }
    }

    fn rank(&self, n: &str) -> usize {
        self.order.iter().position(|o| o == n).unwrap_or(usize::MAX)
    }

    /// Adds one finished game.
    pub fn add(&mut self, r: &GameRow) {
        let (a, b) = if self.rank(&r.white) <= self.rank(&r.black) {
            (&r.white, &r.black)
        } else {
            (&r.black, &r.white)
        };
        let key = (self.rank(a), self.rank(b), a.clone(), b.clone());
        let white = r.result.white_score();
        let score = if &r.white == a { white } else { 1.0 - white };
        let s = self
            .pairings
            .entry(key.clone())
            .or_insert_with(|| PairingStats {
                player: a.clone(),
                opponent: b.clone(),
                ..Default::default()
            });
        if score == 1.0 {
            s.wdl.wins += 1;
        } else if score == 0.0 {
            s.wdl.losses += 1;
        } else {
            s.wdl.draws += 1;
        }
        let next = match self.pairs.remove(&r.pair) {
            None => PairState::Open(key, score),
            Some(PairState::Open(first_key, first)) if first_key == key => {
                s.penta.add(first + score);
                PairState::Counted(key, first + score)
            }
            Some(PairState::Counted(first_key, points)) => {
                // A third game: the pair counted is not one after all.
                if let Some(p) = self.pairings.get_mut(&first_key) {
                    let i = (points * 2.0).round().clamp(0.0, 4.0) as usize;
                    p.penta.0[i] -= 1;
                }
                PairState::Broken
            }
            Some(_) => PairState::Broken,
        };
        self.pairs.insert(r.pair, next);
    }

    /// The statistics so far of the pairing of `a` and `b` (named in either
    /// order), if it has games.
    pub fn pairing(&self, a: &str, b: &str) -> Option<&PairingStats> {
        let (a, b) = if self.rank(a) <= self.rank(b) {
            (a, b)
        } else {
            (b, a)
        };
        let key = (self.rank(a), self.rank(b), a.to_string(), b.to_string());
        self.pairings.get(&key)
    }

    /// The statistics so far, one entry per pairing.
    pub fn stats(&self) -> Vec<PairingStats> {
        self.pairings.values().cloned().collect()
    }
}

/// Aggregates game rows into per-pairing statistics (a [`Tally`] of them).
pub fn summarize(rows: &[GameRow], order: &[String]) -> Vec<PairingStats> {
    let mut t = Tally::new(order);
    for r in rows {
        t.add(r);
    }
    t.stats()
}

/// Writes the summary CSV, one row per pairing.
pub fn write_summary(path: &Path, variant: &str, stats: &[PairingStats]) -> std::io::Result<()> {
    let mut f = std::fs::File::create(path)?;
    writeln!(
        f,
        "variant,player,opponent,games,wins,draws,losses,score,elo,elo_low,elo_high,los,draw_ratio,penta_0,penta_1,penta_2,penta_3,penta_4"
    )?;
    for s in stats {
        let e = s.elo();
        writeln!(
            f,
            "{variant},{},{},{},{},{},{},{:.4},{:.2},{:.2},{:.2},{:.4},{:.4},{},{},{},{},{}",
            s.player,
            s.opponent,
            s.wdl.games(),
            s.wdl.wins,
            s.wdl.draws,
            s.wdl.losses,
            s.wdl.score(),
            e.elo,
            e.low,
            e.high,
            s.wdl.los(),
            s.wdl.draw_ratio(),
            s.penta.0[0],
            s.penta.0[1],
            s.penta.0[2],
            s.penta.0[3],
            s.penta.0[4]
        )?;
    }
    Ok(())
}

/// A finished game's row as the tests of this crate build them: chess from
/// the start position, ten plies, decided by checkmate.
#[cfg(test)]
pub(crate) fn test_row(
    game: usize,
    pair: usize,
    white: &str,
    black: &str,
    result: GameResult,
) -> GameRow {
    GameRow {
        game,
        round: 1,
        pair,
        variant: "chess".into(),
        opening: "startpos".into(),
        white: white.into(),
        black: black.into(),
        result,
        termination: "checkmate".into(),
        plies: 10,
        seconds: 0.5,
        moves: "e2e4 e7e5".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use test_row as row;

    use GameResult::{BlackWins, Draw, WhiteWins};

    #[test]
    fn a_row_cut_short_is_dropped_even_if_it_parses() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("games.csv");
        let id = RunIdentity::new().with("variant", "chess");
        let (mut w, old) = GameWriter::open(&path, &id).unwrap();
        assert!(old.is_empty());
        w.write(&row(1, 1, "a", "b", WhiteWins)).unwrap();
        w.write(&row(2, 1, "b", "a", BlackWins)).unwrap();
        drop(w);
        let mut text = std::fs::read_to_string(&path).unwrap();
        assert_eq!(read_games(&path).unwrap().len(), 2);
        text.push_str(&record::with_checksum(
            "3,2,2,chess,startpos,a,b,1-0,checkmate,10,0.5,e2e4",
        ));
        std::fs::write(&path, &text).unwrap();
        let rows = read_games(&path).unwrap();
        assert_eq!(rows.len(), 2);
        assert_eq!(rows[1].game, 2);
        let (_, rows) = GameWriter::open(&path, &id).unwrap();
        assert_eq!(rows.len(), 2);
        // The CSV opens with its column names; the identity is beside it.
        assert!(text.starts_with("game,round,pair,"), "{text}");
        std::fs::write(&path, "not,a,results,file\n").unwrap();
        let e = read_games(&path).unwrap_err().to_string();
        assert!(e.contains("columns are \"not,a,results,file\""), "{e}");
        std::fs::write(record::meta_path(&path), "varia perft part v2\n").unwrap();
        let e = read_games(&path).unwrap_err().to_string();
        assert!(e.contains("is not a varia match"), "{e}");
    }

    #[test]
    fn a_flipped_result_or_a_bad_one_is_an_error_naming_the_line() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("games.csv");
        let id = RunIdentity::new().with("variant", "chess");
        let (mut w, _) = GameWriter::open(&path, &id).unwrap();
        w.write(&row(1, 1, "a", "b", WhiteWins)).unwrap();
        drop(w);
        let text = std::fs::read_to_string(&path).unwrap();
        std::fs::write(&path, text.replace(",1-0,", ",0-1,")).unwrap();
        let e = read_games(&path).unwrap_err().to_string();
        assert!(
            e.ends_with(
                "games.csv: line 2: checksum mismatch (the row was changed after it was written)"
            ),
            "{e}"
        );
        let line = "1,1,1,chess,startpos,a,b,2-0,checkmate,10,0.5,e2e4";
        let head: String = text.lines().take(1).map(|l| format!("{l}\n")).collect();
        std::fs::write(&path, format!("{head}{}\n", record::with_checksum(line))).unwrap();
        let e = read_games(&path).unwrap_err().to_string();
        assert!(e.contains("games.csv: line 2: "), "{e}");
    }

    #[test]
    fn tally_counts_pairs_of_one_pairing_only() {
        let order = vec!["a".to_string(), "b".to_string(), "c".to_string()];
        let rows = vec![
            row(1, 1, "a", "b", WhiteWins),
            row(2, 1, "b", "a", Draw),
            row(3, 2, "a", "c", BlackWins),
            row(4, 2, "c", "a", BlackWins),
            row(5, 3, "c", "b", WhiteWins),
        ];
        let s = summarize(&rows, &order);
        assert_eq!(s.len(), 3);
        // a vs b: a won as White and drew as Black: 1.5 of 2 in one pair.
        assert_eq!((s[0].player.as_str(), s[0].opponent.as_str()), ("a", "b"));
        assert_eq!(s[0].penta.0, [0, 0, 0, 1, 0]);
        assert_eq!((s[0].wdl.wins, s[0].wdl.draws, s[0].wdl.losses), (1, 1, 0));
        // a vs c: one loss, one win: 1 of 2.
        assert_eq!(s[1].penta.0, [0, 0, 1, 0, 0]);
        // b vs c: a single game, no pair yet.
        assert_eq!(s[2].penta.pairs(), 0);
        assert_eq!(s[2].wdl.losses, 1);

        // A third game in pair 1 undoes it; a pair across two pairings is none.
        let mut more = rows.clone();
        more.push(row(6, 1, "a", "b", WhiteWins));
        more.push(row(7, 3, "a", "b", WhiteWins));
        let s = summarize(&more, &order);
        assert_eq!(s[0].penta.pairs(), 0);
        assert_eq!(s[0].wdl.games(), 4);
        assert_eq!(s[2].penta.pairs(), 0);
    }
}
