//! PGN: writing games (standard tags plus `[Variant]`, SAN movetext) and
//! reading them back (tags, SAN moves; comments, variations and NAGs are
//! skipped). The same reader serves opening books and the tuner's data.
//!
//! `[Variant]` tags: the writer uses the Lichess names by default and the
//! cutechess/XBoard ones on request ([`PgnVariantNames`]), so that a book
//! written by `varia match --pgn` works as cutechess `-openings`. The reader
//! accepts every name of the registry ([`VariantKind::from_pgn_name`]:
//! `Three-check`, `3check`, `threecheck`, `Giveaway`, ...) and refuses a game
//! whose tag names another game than the one being read.

use crate::game::{GameRecord, GameResult};
use crate::results::GameRow;
use movegen::{dispatch_cold, Game, Move, PgnVariantNames, Position, VariantGame, VariantKind};
use std::collections::HashMap;

/// A game read from PGN.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PgnGame {
    /// Tags in file order.
    pub tags: Vec<(String, String)>,
    /// Start FEN (the `[FEN]` tag or the variant's start).
    pub start_fen: String,
    /// Moves in UCI.
    pub moves: Vec<String>,
    /// The `[Result]` tag (or the movetext's result token).
    pub result: String,
}

impl PgnGame {
    /// The value of tag `name`, if the game has it.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }
}

/// The finished games of another client's PGN (cutechess-cli, fastchess) as
/// rows of varia's per-game table, so that their score goes through the
/// same statistics as a `varia match` ([`crate::results::summarize`]).
///
/// Games are numbered from `first_game`. Pairs follow those clients'
/// convention: with `-games 2 -repeat` a round is one opening played twice
/// with colours swapped, and both games carry its `[Round]` tag; each
/// distinct tag becomes a pair number from `first_pair` on (a round with
/// other than two games counts as no pair, as in [`crate::results::Tally`]).
/// The `[Termination]` tag is read in varia's words: `time forfeit` as
/// `time`, `illegal move` as `illegal_move`, `abandoned` and `stalled
/// connection` as `crash`, `adjudication` as itself, anything else (the
/// rules ended the game) as `normal`. Games without a result (`*`) are left
/// out; the second value counts them. A game without a `[White]` or
/// `[Black]` tag is an error naming it.
pub fn game_rows(
    games: &[PgnGame],
    kind: VariantKind,
    first_game: usize,
    first_pair: usize,
) -> Result<(Vec<GameRow>, usize), String> {
    let mut pairs: HashMap<&str, usize> = HashMap::new();
    let mut rows = Vec::new();
    let mut unfinished = 0;
    for (i, g) in games.iter().enumerate() {
        let number = first_game + i;
        let Some(result) = GameResult::from_pgn(&g.result) else {
            unfinished += 1;
            continue;
        };
        let player = |tag: &str| {
            g.tag(tag)
                .map(str::to_string)
                .ok_or_else(|| format!("game {number} has no [{tag}] tag"))
        };
        let round = g.tag("Round").unwrap_or("?");
        let next_pair = first_pair + pairs.len();
        let pair = *pairs.entry(round).or_insert(next_pair);
        let termination = match g.tag("Termination") {
            Some("time forfeit") => "time",
            Some("illegal move") => "illegal_move",
            Some("abandoned") | Some("stalled connection") => "crash",
            Some("adjudication") => "adjudication",
            _ => "normal",
        };
        rows.push(GameRow {
            game: number,
            round: 1,
            pair,
            variant: kind.name().to_string(),
            opening: g.start_fen.clone(),
            white: player("White")?,
            black: player("Black")?,
            result,
            termination: termination.to_string(),
            plies: g.moves.len() as u32,
            seconds: 0.0,
            moves: g.moves.join(" "),
        });
    }
    Ok((rows, unfinished))
}

/// A PGN error with its line.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {message}")]
pub struct PgnError {
    /// 1-based line.
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

/// Writes a finished game as PGN (event `varia match`, round `ROUND.GAME`),
/// the opening's moves included in the movetext, naming the game in the
/// `[Variant]` tag as `names` does.
pub fn write_game(r: &GameRecord, names: PgnVariantNames) -> String {
    let kind = r.variant;
    let start_fen = r.opening.fen.as_str();
    let result = r.end.result().as_str();
    let moves = [r.opening.moves.as_slice(), r.moves.as_slice()].concat();
    let mut s = String::new();
    let tag = |s: &mut String, k: &str, v: &str| {
        s.push_str(&format!(
            "[{k} \"{}\"]\n",
            v.replace('\\', "\\\\").replace('"', "\\\"")
        ));
    };
    tag(&mut s, "Event", "varia match");
    tag(&mut s, "Site", "varia");
    tag(&mut s, "Date", "????.??.??");
    tag(
        &mut s,
        "Round",
        &format!("{}.{}", r.spec.round, r.spec.game),
    );
    tag(&mut s, "White", &r.white);
    tag(&mut s, "Black", &r.black);
    tag(&mut s, "Result", result);
    if let Some(v) = kind.pgn_name_in(names) {
        tag(&mut s, "Variant", v);
    }
    let from_start = VariantGame::from_fen(kind, start_fen).is_ok_and(|g| g.starts_from_startpos());
    if !from_start {
        tag(&mut s, "SetUp", "1");
        tag(&mut s, "FEN", start_fen);
    }
    tag(&mut s, "Termination", r.end.termination());
    s.push('\n');
    let sans: Vec<String> = dispatch_cold!(kind, V => {
        let mut out = Vec::new();
        if let Ok(mut pos) = Position::<V>::from_fen(start_fen) {
            for m in &moves {
                match pos.parse_uci(m) {
                    Ok(mv) => {
                        out.push((pos.turn(), pos.fullmove_number(), pos.san(mv)));
                        pos = pos.play_unchecked(mv);
                    }
                    Err(_) => break,
                }
            }
        }
        out.into_iter()
            .enumerate()
            .map(|(i, (turn, n, san))| {
                if turn.is_white() {
                    format!("{n}. {san}")
                } else if i == 0 {
                    format!("{n}... {san}")
                } else {
                    san
                }
            })
            .collect()
    });
    let mut line_len = 0;
    for token in sans
        .iter()
        .map(String::as_str)
        .chain(std::iter::once(result))
    {
        if line_len + token.len() + 1 > 79 {
            s.push('\n');
            line_len = 0;
        } else if line_len > 0 {
            s.push(' ');
            line_len += 1;
        }
        s.push_str(token);
        line_len += token.len();
    }
    s.push_str("\n\n");
    s
}

/// Reads every game of a PGN text, resolving SAN with varia's rules of `kind`.
pub fn read_games(text: &str, kind: VariantKind) -> Result<Vec<PgnGame>, PgnError> {
    let mut games = Vec::new();
    let mut tags: Vec<(String, String)> = Vec::new();
    let mut movetext: Vec<(usize, String)> = Vec::new();
    let flush = |tags: &mut Vec<(String, String)>,
                 movetext: &mut Vec<(usize, String)>,
                 games: &mut Vec<PgnGame>|
     -> Result<(), PgnError> {
        if tags.is_empty() && movetext.is_empty() {
            return Ok(());
        }
        let g = parse_game(kind, std::mem::take(tags), std::mem::take(movetext))?;
        games.push(g);
        Ok(())
    };
    let mut in_movetext = false;
    for (i, line) in text.lines().enumerate() {
        let t = line.trim();
        if t.starts_with('[') {
            if in_movetext {
                flush(&mut tags, &mut movetext, &mut games)?;
                in_movetext = false;
            }
            let inner = t.trim_start_matches('[').trim_end_matches(']');
            let (k, v) = inner.split_once(' ').ok_or(PgnError {
                line: i + 1,
                message: format!("malformed tag {t}"),
            })?;
            tags.push((
                k.to_string(),
                v.trim().trim_matches('"').replace("\\\"", "\""),
            ));
        } else if !t.is_empty() {
            in_movetext = true;
            movetext.push((i + 1, t.to_string()));
        }
    }
    flush(&mut tags, &mut movetext, &mut games)?;
    Ok(games)
}

fn parse_game(
    kind: VariantKind,
    tags: Vec<(String, String)>,
    movetext: Vec<(usize, String)>,
) -> Result<PgnGame, PgnError> {
    // A game of another variant must not be replayed under these rules (its
    // moves may happen to be legal here too).
    if let Some((_, tag)) = tags.iter().find(|(k, _)| k == "Variant") {
        if VariantKind::from_pgn_name(tag) != Some(kind) {
            let names: Vec<&str> = kind.pgn_names().collect();
            return Err(PgnError {
                line: movetext.first().map_or(1, |m| m.0),
                message: format!(
                    "[Variant \"{tag}\"] is not {kind} (its PGN names: {})",
                    names.join(", ")
                ),
            });
        }
    }
    let start_fen = tags
        .iter()
        .find(|(k, _)| k == "FEN")
        .map(|(_, v)| v.clone())
        .unwrap_or_else(|| kind.start_fen().to_string());
    let mut result = tags
        .iter()
        .find(|(k, _)| k == "Result")
        .map(|(_, v)| v.clone())
        .unwrap_or_else(|| "*".into());
    let first_line = movetext.first().map_or(0, |m| m.0);
    dispatch_cold!(kind, V => {
        let start = Position::<V>::from_fen(&start_fen).map_err(|e| PgnError { line: first_line, message: e.to_string() })?;
        let mut game = Game::new(start);
        let mut moves = Vec::new();
        let mut depth = 0; // nesting of ( ) variations
        let mut in_comment = false;
        for (line, text) in &movetext {
            if text.starts_with('%') {
                continue;
            }
            let spaced = text.replace('(', " ( ").replace(')', " ) ").replace('{', " { ").replace('}', " } ");
            for token in spaced.split_whitespace() {
                if in_comment {
                    in_comment = token != "}";
                    continue;
                }
                match token {
                    "{" => in_comment = true,
                    ";" => break,
                    "(" => depth += 1,
                    ")" => depth -= 1,
                    _ if depth > 0 => {}
                    "1-0" | "0-1" | "1/2-1/2" | "*" => result = token.to_string(),
                    _ if token.starts_with('$') => {}
                    _ => {
                        let san = token.trim_start_matches(|c: char| c.is_ascii_digit() || c == '.');
                        if san.is_empty() {
                            continue;
                        }
                        let m: Move = game.position().parse_san(san).map_err(|e| PgnError { line: *line, message: e.to_string() })?;
                        game.play_unchecked(m);
                        moves.push(m.uci());
                    }
                }
            }
        }
        Ok(PgnGame { tags, start_fen: start.fen(), moves, result })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A finished game of `kind` from `fen` with `moves`, for the writer.
    fn record(kind: VariantKind, fen: &str, moves: &[String]) -> GameRecord {
        GameRecord {
            spec: crate::schedule::GameSpec::single(1),
            variant: kind,
            opening: crate::Opening {
                fen: fen.to_string(),
                moves: Vec::new(),
            },
            white: "a".into(),
            black: "b".into(),
            end: crate::game::GameEnd::MaxLength,
            plies: moves.len() as u32,
            seconds: 0.0,
            moves: moves.to_vec(),
        }
    }

    #[test]
    fn write_then_read_round_trip() {
        for kind in VariantKind::ALL {
            let moves: Vec<String> = dispatch_cold!(kind, V => {
                let mut pos = Position::<V>::startpos();
                let mut out = Vec::new();
                for i in 0..30 {
                    let legal = pos.legal_moves();
                    if legal.is_empty() || pos.outcome().is_some() {
                        break;
                    }
                    let m = legal[(i * 5 + 3) % legal.len()];
                    out.push(m.uci());
                    pos = pos.play_unchecked(m);
                }
                out
            });
            let text = write_game(
                &record(kind, kind.start_fen(), &moves),
                PgnVariantNames::Lichess,
            );
            let games = read_games(&text, kind).unwrap();
            assert_eq!(games.len(), 1);
            assert_eq!(games[0].moves, moves, "{kind}\n{text}");
        }
    }

    /// A cutechess-cli PGN: rounds of two games, colours swapped, the
    /// result and the termination in tags, comments after the moves.
    #[test]
    fn another_clients_games_become_rows_paired_by_round() {
        let game = |round: u32, white: &str, black: &str, result: &str, end: Option<&str>| {
            let termination = end.map_or(String::new(), |t| format!("[Termination \"{t}\"]\n"));
            format!(
                "[Event \"?\"]\n[Round \"{round}\"]\n[White \"{white}\"]\n[Black \"{black}\"]\n\
                 [Result \"{result}\"]\n{termination}\n1. e4 {{+0.30/12 0.1s}} e5 {{-0.20/11}} {result}\n\n"
            )
        };
        // Finished out of order, as with -concurrency: round 2 first.
        let text = [
            game(2, "varia", "fsf", "0-1", Some("time forfeit")),
            game(1, "varia", "fsf", "1-0", None),
            game(2, "fsf", "varia", "1/2-1/2", Some("adjudication")),
            game(1, "fsf", "varia", "1-0", None),
            game(3, "varia", "fsf", "*", Some("unterminated")),
        ]
        .concat();
        let games = read_games(&text, VariantKind::Chess).unwrap();
        let (rows, unfinished) = game_rows(&games, VariantKind::Chess, 1, 1).unwrap();
        assert_eq!(unfinished, 1);
        assert_eq!(rows.len(), 4);
        assert_eq!(
            rows.iter().map(|r| r.pair).collect::<Vec<_>>(),
            [1, 2, 1, 2]
        );
        assert_eq!(rows[0].termination, "time");
        assert_eq!(rows[2].termination, "adjudication");
        assert_eq!(rows[1].termination, "normal");
        assert_eq!(rows[1].moves, "e2e4 e7e5");
        let stats = crate::results::summarize(&rows, &["varia".to_string()]);
        assert_eq!(stats.len(), 1);
        assert_eq!(stats[0].player, "varia");
        let wdl = stats[0].wdl;
        assert_eq!((wdl.wins, wdl.draws, wdl.losses), (1, 1, 2));
        // Round 1: a win and a loss (1 point of 2); round 2: a loss and a
        // draw (0.5 of 2).
        assert_eq!(stats[0].penta.0, [0, 1, 1, 0, 0]);
        // Games are numbered on from `first_game`, pairs from `first_pair`.
        let (rows, _) = game_rows(&games, VariantKind::Chess, 11, 7).unwrap();
        assert_eq!(rows[0].game, 11);
        assert_eq!(
            rows.iter().map(|r| r.pair).collect::<Vec<_>>(),
            [7, 8, 7, 8]
        );
        let nameless = read_games("[Result \"1-0\"]\n\n1. e4 1-0\n", VariantKind::Chess).unwrap();
        assert_eq!(
            game_rows(&nameless, VariantKind::Chess, 1, 1).unwrap_err(),
            "game 1 has no [White] tag"
        );
    }

    #[test]
    fn reader_skips_comments_variations_and_nags() {
        let text = "[Event \"x\"]\n[Result \"1-0\"]\n\n1. e4 {best by test} e5 (1... c5 2. Nf3) 2. Nf3 $1 Nc6 1-0\n";
        let g = read_games(text, VariantKind::Chess).unwrap();
        assert_eq!(g[0].moves, ["e2e4", "e7e5", "g1f3", "b8c6"]);
        assert_eq!(g[0].result, "1-0");
        let bad = read_games("1. e4 e4", VariantKind::Chess).unwrap_err();
        assert_eq!(bad.line, 1);
    }

    #[test]
    fn variant_tags_in_both_namings() {
        let moves = ["e2e4".to_string(), "f7f5".to_string(), "d1h5".to_string()];
        let fen = VariantKind::ThreeCheck.start_fen();
        let tag = |names| {
            let text = write_game(&record(VariantKind::ThreeCheck, fen, &moves), names);
            let g = read_games(&text, VariantKind::ThreeCheck).expect("reads back");
            assert_eq!(g[0].moves, moves, "{text}");
            g[0].tags
                .iter()
                .find(|(k, _)| k == "Variant")
                .map(|(_, v)| v.clone())
        };
        assert_eq!(
            tag(PgnVariantNames::Lichess).as_deref(),
            Some("Three-check")
        );
        assert_eq!(tag(PgnVariantNames::Cutechess).as_deref(), Some("3check"));
        for kind in VariantKind::ALL {
            assert_eq!(
                kind.pgn_name_in(PgnVariantNames::Cutechess),
                (kind != VariantKind::Chess).then_some(kind.protocol_name()),
                "cutechess writes its variant name"
            );
        }
    }

    #[test]
    fn reader_takes_every_name_and_refuses_another_game() {
        let game = |tag: &str| format!("[Variant \"{tag}\"]\n\n1. e4 f5 2. Qh5+ *\n");
        // Legal in every game (no capture, no check).
        let quiet = |tag: &str| format!("[Variant \"{tag}\"]\n\n1. e4 e5 *\n");
        for tag in [
            "Three-check",
            "3check",
            "threecheck",
            "THREE-CHECK",
            "3Check",
        ] {
            let g = read_games(&game(tag), VariantKind::ThreeCheck).expect(tag);
            assert_eq!(g[0].moves, ["e2e4", "f7f5", "d1h5"], "{tag}");
        }
        for tag in ["Giveaway", "giveaway"] {
            assert!(
                read_games(&quiet(tag), VariantKind::Suicide).is_ok(),
                "{tag}"
            );
        }
        for tag in ["Standard", "From Position", "chess"] {
            assert!(read_games(&quiet(tag), VariantKind::Chess).is_ok(), "{tag}");
        }
        // Another game, or a name that is another game elsewhere (cutechess's
        // suicide, Lichess's antichess).
        for (tag, kind) in [
            ("Atomic", VariantKind::ThreeCheck),
            ("Three-check", VariantKind::Chess),
            ("suicide", VariantKind::Suicide),
            ("Antichess", VariantKind::Suicide),
            ("Crazyhouse", VariantKind::Chess),
        ] {
            let e = read_games(&game(tag), kind).unwrap_err();
            assert_eq!(e.line, 3, "{tag}");
            assert!(
                e.message.contains(tag) && e.message.contains(kind.name()),
                "{}",
                e.message
            );
        }
    }

    #[test]
    fn fen_tag_only_for_games_not_from_the_start_position() {
        let tags = |fen: &str| {
            write_game(
                &record(VariantKind::Chess, fen, &[]),
                PgnVariantNames::Lichess,
            )
        };
        assert!(!tags(VariantKind::Chess.start_fen()).contains("[FEN"));
        // The start position written without its move counters is still it.
        let short = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -";
        assert!(!tags(short).contains("[FEN"));
        let other = "4k3/8/8/8/8/8/8/4K2R w K - 0 1";
        assert!(tags(other).contains(&format!("[FEN \"{other}\"]")));
    }
}
