//! Results: the per-game CSV (appended and flushed as each game ends, read
//! back to resume), and the per-pairing summary (W/D/L, Elo, LOS, draw ratio,
//! pentanomial counts) that the progress line, the final report and
//! `--summary` share.

use crate::game::GameRecord;
use crate::stats::{elo_pentanomial, elo_trinomial, EloEstimate, Pentanomial, Wdl};
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
    pub result: String,
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
            result: r.result.clone(),
            termination: r.termination.clone(),
            plies: r.plies,
            seconds: (r.seconds * 1000.0).round() / 1000.0,
            moves: r.moves.join(" "),
        }
    }
}

impl GameRow {
    /// White's score.
    pub fn white_score(&self) -> f64 {
        match self.result.as_str() {
            "1-0" => 1.0,
            "0-1" => 0.0,
            _ => 0.5,
        }
    }
}

/// Appends rows to the per-game CSV, writing the header to a new file and
/// flushing after every row so a crash loses nothing already finished.
pub struct GameWriter {
    writer: csv::Writer<std::fs::File>,
}

impl GameWriter {
    /// Opens `path` for appending (creating it with a header if it is empty).
    pub fn open(path: &Path) -> std::io::Result<GameWriter> {
        let file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)?;
        let empty = file.metadata()?.len() == 0;
        let mut writer = csv::WriterBuilder::new()
            .has_headers(false)
            .from_writer(file);
        if empty {
            writer.write_record(GAME_COLUMNS)?;
            writer.flush()?;
        }
        Ok(GameWriter { writer })
    }

    /// Appends one game and flushes.
    pub fn write(&mut self, row: &GameRow) -> std::io::Result<()> {
        self.writer.serialize(row).map_err(std::io::Error::other)?;
        self.writer.flush()
    }
}

/// Reads a per-game CSV (to resume a match or merge shards). A truncated last
/// line (a crash mid-write) is ignored; any other malformed row is an error
/// naming its line.
pub fn read_games(path: &Path) -> Result<Vec<GameRow>, String> {
    let text =
        search::input::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    // Every row is written with its newline in one write: text after the last
    // newline is a row cut short by a crash, even if it happens to parse (a
    // row cut inside its `moves` column would).
    let complete = match text.rfind('\n') {
        Some(i) => &text[..=i],
        None => "",
    };
    if complete.is_empty() && !text.is_empty() {
        return Ok(Vec::new());
    }
    if !complete.is_empty() {
        let header = complete.lines().next().unwrap_or_default();
        let columns: Vec<&str> = header.split(',').map(str::trim).collect();
        if columns != GAME_COLUMNS {
            return Err(format!(
                "{}: not a per-game results file (expected the header {})",
                path.display(),
                GAME_COLUMNS.join(",")
            ));
        }
    }
    let mut reader = csv::Reader::from_reader(complete.as_bytes());
    let mut rows = Vec::new();
    for (i, r) in reader.deserialize::<GameRow>().enumerate() {
        match r {
            Ok(row) => rows.push(row),
            Err(e) => return Err(format!("{}: line {}: {e}", path.display(), i + 2)),
        }
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

/// Per-pairing statistics kept up to date one game at a time (the runner
/// adds each game as it ends; [`summarize`] gives the same result from all
/// rows at once). Pairings are keyed by the two names in the order of
/// `order` (lower player index first), pairs by the `pair` column.
#[derive(Clone, Debug, Default)]
pub struct Tally {
    order: Vec<String>,
    pairings: BTreeMap<PairingKey, PairingStats>,
    /// First game of each pair whose second game has not ended yet:
    /// pair -> (pairing key, points of the first-named player).
    open_pairs: BTreeMap<usize, (PairingKey, f64)>,
}

/// A pairing: the two players' ranks in the player list, then their names.
type PairingKey = (usize, usize, String, String);

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
        let score = if &r.white == a {
            r.white_score()
        } else {
            1.0 - r.white_score()
        };
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
        match self.open_pairs.remove(&r.pair) {
            Some((first_key, first)) if first_key == key => s.penta.add(first + score),
            // A pair of two different pairings cannot come from one schedule;
            // count neither game as a pair.
            Some(_) => {}
            None => {
                self.open_pairs.insert(r.pair, (key, score));
            }
        }
    }

    /// The statistics so far, one entry per pairing.
    pub fn stats(&self) -> Vec<PairingStats> {
        self.pairings.values().cloned().collect()
    }
}

/// Aggregates game rows into per-pairing statistics. Pairings are keyed by
/// the two names in first-appearance order of the schedule (lower player
/// index first), pairs by the `pair` column.
pub fn summarize(rows: &[GameRow], order: &[String]) -> Vec<PairingStats> {
    if rows.iter().all(|r| r.pair > 0) {
        let mut counts: BTreeMap<usize, usize> = BTreeMap::new();
        for r in rows {
            *counts.entry(r.pair).or_default() += 1;
        }
        if counts.values().all(|&c| c <= 2) {
            let mut t = Tally::new(order);
            for r in rows {
                t.add(r);
            }
            return t.stats();
        }
    }
    summarize_all(rows, order)
}

fn summarize_all(rows: &[GameRow], order: &[String]) -> Vec<PairingStats> {
    let rank = |n: &str| order.iter().position(|o| o == n).unwrap_or(usize::MAX);
    let mut pairings: BTreeMap<(usize, usize, String, String), PairingStats> = BTreeMap::new();
    let mut pairs: BTreeMap<usize, Vec<&GameRow>> = BTreeMap::new();
    for r in rows {
        let (a, b) = if rank(&r.white) <= rank(&r.black) {
            (r.white.clone(), r.black.clone())
        } else {
            (r.black.clone(), r.white.clone())
        };
        let key = (rank(&a), rank(&b), a.clone(), b.clone());
        let s = pairings.entry(key).or_insert_with(|| PairingStats {
            player: a.clone(),
            opponent: b,
            ..Default::default()
        });
        let score = if r.white == a {
            r.white_score()
        } else {
            1.0 - r.white_score()
        };
        if score == 1.0 {
            s.wdl.wins += 1;
        } else if score == 0.0 {
            s.wdl.losses += 1;
        } else {
            s.wdl.draws += 1;
        }
        pairs.entry(r.pair).or_default().push(r);
    }
    for games in pairs.values() {
        if games.len() != 2 {
            continue;
        }
        let a = if rank(&games[0].white) <= rank(&games[0].black) {
            &games[0].white
        } else {
            &games[0].black
        };
        let b = if &games[0].white == a {
            &games[0].black
        } else {
            &games[0].white
        };
        let points: f64 = games
            .iter()
            .map(|g| {
                if &g.white == a {
                    g.white_score()
                } else {
                    1.0 - g.white_score()
                }
            })
            .sum();
        let key = (rank(a), rank(b), a.clone(), b.clone());
        if let Some(s) = pairings.get_mut(&key) {
            s.penta.add(points);
        }
    }
    pairings.into_values().collect()
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

#[cfg(test)]
mod tests {
    use super::*;

    fn row(game: usize, pair: usize, white: &str, black: &str, result: &str) -> GameRow {
        GameRow {
            game,
            round: 1,
            pair,
            variant: "chess".into(),
            opening: "startpos".into(),
            white: white.into(),
            black: black.into(),
            result: result.into(),
            termination: "checkmate".into(),
            plies: 10,
            seconds: 0.5,
            moves: "e2e4 e7e5".into(),
        }
    }

    #[test]
    fn a_row_cut_short_is_dropped_even_if_it_parses() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("games.csv");
        let mut w = GameWriter::open(&path).unwrap();
        w.write(&row(1, 1, "a", "b", "1-0")).unwrap();
        w.write(&row(2, 1, "b", "a", "0-1")).unwrap();
        drop(w);
        let mut text = std::fs::read_to_string(&path).unwrap();
        assert_eq!(read_games(&path).unwrap().len(), 2);
        text.push_str("3,2,2,chess,startpos,a,b,1-0,checkmate,10,0.5,e2e4 e7");
        std::fs::write(&path, &text).unwrap();
        let rows = read_games(&path).unwrap();
        assert_eq!(rows.len(), 2);
        assert_eq!(rows[1].game, 2);
        std::fs::write(&path, "not,a,results,file\n1,2,3,4\n").unwrap();
        assert!(read_games(&path)
            .unwrap_err()
            .contains("not a per-game results file"));
    }

    #[test]
    fn tally_counts_pairs_like_summarize() {
        let order = vec!["a".to_string(), "b".to_string(), "c".to_string()];
        let rows = vec![
            row(1, 1, "a", "b", "1-0"),
            row(2, 1, "b", "a", "1/2-1/2"),
            row(3, 2, "a", "c", "0-1"),
            row(4, 2, "c", "a", "0-1"),
            row(5, 3, "c", "b", "1-0"),
        ];
        let mut t = Tally::new(&order);
        for r in &rows {
            t.add(r);
        }
        let s = t.stats();
        assert_eq!(s, summarize_all(&rows, &order));
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
    }
}
