//! `varia pgn-score`: the score of a match another client played
//! (cutechess-cli, fastchess), read from its PGN and reported with the
//! statistics of `varia match` itself: W/D/L, Elo with its 95% interval
//! (pentanomial when the rounds are pairs of one opening with colours
//! swapped), LOS, draw ratio, and the summary CSV of `varia match
//! --summary`. One home for match statistics ([`arena::stats`]), whoever
//! ran the games; reading the PGN also replays every move under varia's
//! rules of the game, so a game the client let go wrong is an error here.

use anyhow::Context as _;
use arena::pgn::{game_rows, read_games};
use arena::results::{summarize, write_summary, GameRow};
use movegen::VariantKind;
use std::collections::BTreeMap;
use std::io::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `varia pgn-score`.
#[derive(clap::Args, Debug, Clone)]
#[command(after_help = "\
Pairs: as cutechess-cli and fastchess write them with `-games 2 -repeat`, the
two games of one opening share their [Round] tag.

Examples:
  varia pgn-score --variant giveaway --player varia games.pgn
  varia pgn-score --variant atomic --player varia a.pgn b.pgn --summary summary.csv")]
pub struct Args {
    /// PGN files of one game, as written by cutechess-cli or fastchess.
    #[arg(value_name = "FILES", required = true)]
    pub files: Vec<PathBuf>,

    #[arg(long, help = crate::variant_arg::help(""))]
    pub variant: VariantKind,

    /// Report each pairing from this player's side (default: the first
    /// player named in the files).
    #[arg(long, value_name = "NAME")]
    pub player: Option<String>,

    /// Summary CSV, one row per pairing (the columns of `varia match --summary`).
    #[arg(long, value_name = "FILE")]
    pub summary: Option<PathBuf>,
}

/// Runs `varia pgn-score`.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let mut rows: Vec<GameRow> = Vec::new();
    let mut unfinished = 0;
    let mut next_pair = 1;
    for path in &args.files {
        let name = path.display();
        let text = search::input::read_to_string(path).with_context(|| format!("{name}"))?;
        let games = read_games(&text, args.variant).map_err(|e| anyhow::anyhow!("{name}: {e}"))?;
        let (file_rows, file_unfinished) =
            game_rows(&games, args.variant, rows.len() + 1, next_pair)
                .map_err(|e| anyhow::anyhow!("{name}: {e}"))?;
        if let Some(last) = file_rows.iter().map(|r| r.pair).max() {
            next_pair = last + 1;
        }
        rows.extend(file_rows);
        unfinished += file_unfinished;
    }
    if rows.is_empty() {
        anyhow::bail!("no finished {} games in the files given", args.variant);
    }
    let player = args.player.unwrap_or_else(|| rows[0].white.clone());
    if !rows.iter().any(|r| r.white == player || r.black == player) {
        anyhow::bail!("no game of {player} in the files given");
    }
    let stats = summarize(&rows, std::slice::from_ref(&player));
    let mut out = std::io::stdout().lock();
    for s in &stats {
        writeln!(out, "{}", s.line())?;
    }
    // How the player's losses ended, where the rules did not end them.
    let mut abnormal: BTreeMap<&str, usize> = BTreeMap::new();
    for r in &rows {
        let lost = match r.result.winner() {
            Some(movegen::Color::White) => r.black == player,
            Some(movegen::Color::Black) => r.white == player,
            None => false,
        };
        if lost && r.termination != "normal" {
            *abnormal.entry(r.termination.as_str()).or_default() += 1;
        }
    }
    let losses: Vec<String> = abnormal.iter().map(|(t, n)| format!("{t} {n}")).collect();
    writeln!(
        out,
        "{player}'s losses not ended by the rules: {}",
        if losses.is_empty() {
            "none".to_string()
        } else {
            losses.join(", ")
        }
    )?;
    if unfinished > 0 {
        writeln!(out, "{unfinished} unfinished games (result *) left out")?;
    }
    if let Some(path) = &args.summary {
        write_summary(path, args.variant.name(), &stats)
            .with_context(|| format!("{}", path.display()))?;
    }
    Ok(ExitCode::SUCCESS)
}
