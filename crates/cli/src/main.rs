//! `varia`: the command line of the varia toolkit. One module per subcommand;
//! `main` only parses arguments, dispatches, and turns errors into a one-line
//! message and exit code 2.
//!
//! Every subcommand writes stdout through `std::io::Write` and passes its
//! errors up (never `println!`, which panics on a closed pipe): a reader that
//! stopped early (`varia analyse ... | head -1`) shows up here as a
//! `BrokenPipe` error, and ends the program quietly with success. Whatever was
//! already written (part files, CSVs, traces) stays.

use clap::{Parser, Subcommand};
use std::process::ExitCode;

mod analyse;
mod bench;
mod datagen;
mod label;
mod match_cmd;
mod match_merge;
mod match_plot;
mod moves;
mod openings_cmd;
mod output;
mod perft;
mod perft_compare;
mod perft_merge;
mod pgn_score;
mod resources;
mod train;
mod tune;
mod uci;
mod variant_arg;
mod xboard;

/// Chess-variant toolkit: perft verification, engine, matches and tuning.
#[derive(Parser, Debug)]
#[command(name = "varia", version, about, propagate_version = true)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Count legal move sequences (perft) for one position, every variant's
    /// start position, or a suite file of expected counts.
    Perft(perft::Args),
    /// Combine the part files of a split perft (`varia perft --shard I/N`)
    /// into per-depth counts, checking that every subtree is there once.
    PerftMerge(perft_merge::Args),
    /// Find the first wrong move of another move generator: compare its
    /// divides with varia's and walk down to the move that differs.
    PerftCompare(perft_compare::Args),
    /// Print the legal moves and game state of positions (one FEN per line on
    /// stdin, or --fen), for cross-checking against other implementations.
    Moves(moves::Args),
    /// Run the engine over the UCI protocol on stdin/stdout.
    Uci(uci::Args),
    /// Run the engine over the XBoard/CECP protocol (version 2) on stdin/stdout.
    Xboard(xboard::Args),
    /// Search a fixed set of positions per game to a fixed depth: speed, and
    /// the node-count signature of the search.
    Bench(bench::Args),
    /// Search one position and print the iterations, best move, score and PV.
    Analyse(analyse::Args),
    /// Play a match between engines (varia in-process or external UCI/CECP):
    /// openings, clocks or node limits, adjudication, CSV/PGN, Elo, SPRT.
    Match(match_cmd::Args),
    /// Combine the per-game CSVs of a sharded match into one summary.
    MatchMerge(match_merge::Args),
    /// Score a match another client played (cutechess-cli, fastchess) from
    /// its PGN, with the statistics of `varia match`.
    PgnScore(pgn_score::Args),
    /// Generate a balanced opening book: random short lines kept when a
    /// shallow search finds them near balanced.
    Openings(openings_cmd::Args),
    /// Labelled positions (fen,result CSV) for tuning, from self-play or
    /// from a match's games.
    Datagen(datagen::Args),
    /// Label positions with an engine's expected score (its search score
    /// through a logistic), for Texel tuning against its judgement.
    Label(label::Args),
    /// Tune evaluation weights: Texel (from positions) or SPSA (from games).
    Tune(tune::Args),
    /// Train a neural network (NNUE) for one game from packed positions, on
    /// the CPU: AdamW, checkpoints and --resume, a CSV trace and its plot.
    Train(train::Args),
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            // Help and version go to stdout with success; usage errors are
            // one line (clap's first) and exit 2.
            if !e.use_stderr() {
                let _ = e.print();
                return ExitCode::SUCCESS;
            }
            eprintln!("{}", usage_error_line(&e.render().to_string()));
            return ExitCode::from(2);
        }
    };
    let result = match cli.command {
        None => perft::run(perft::Args::default()),
        Some(Command::Perft(args)) => perft::run(args),
        Some(Command::PerftMerge(args)) => perft_merge::run(args),
        Some(Command::PerftCompare(args)) => perft_compare::run(args),
        Some(Command::Datagen(args)) => datagen::run(args),
        Some(Command::Label(args)) => label::run(args),
        Some(Command::Tune(args)) => tune::run(args),
        Some(Command::Train(args)) => train::run(args),
        Some(Command::Moves(args)) => moves::run(args),
        Some(Command::Uci(args)) => uci::run(args),
        Some(Command::Xboard(args)) => xboard::run(args),
        Some(Command::Bench(args)) => bench::run(args),
        Some(Command::Analyse(args)) => analyse::run(args),
        Some(Command::Match(args)) => match_cmd::run(args),
        Some(Command::MatchMerge(args)) => match_merge::run(args),
        Some(Command::PgnScore(args)) => pgn_score::run(args),
        Some(Command::Openings(args)) => openings_cmd::run(args),
    };
    match result {
        Ok(code) => code,
        Err(e) if is_broken_pipe(&e) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {}", error_line(&e));
            ExitCode::from(2)
        }
    }
}

/// `e` and its causes on one line, as `{e:#}` joins them, but leaving out a
/// cause whose text the line already holds: many errors name their source
/// in their own message (`FILE: <io error>`) and also report it as their
/// source, which `{e:#}` would print twice.
fn error_line(e: &anyhow::Error) -> String {
    let mut line = String::new();
    for cause in e.chain() {
        let text = cause.to_string();
        if line.is_empty() {
            line = text;
        } else if !line.contains(&text) {
            line.push_str(": ");
            line.push_str(&text);
        }
    }
    line
}

/// The one-line form of a clap usage error: its first line (`error: ...`),
/// pointing to `--help` for the usage clap would have printed after it.
fn usage_error_line(rendered: &str) -> String {
    let first = rendered
        .lines()
        .next()
        .unwrap_or("error: invalid arguments");
    format!("{first} (see --help)")
}

/// Whether `e` comes from writing to a closed pipe (anywhere in its chain).
fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|cause| {
        cause
            .downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    })
}

#[cfg(test)]
mod tests {
    use super::error_line;

    /// An error that names its source in its message and reports it too.
    #[derive(Debug, thiserror::Error)]
    #[error("p.csv: {source}")]
    struct Named {
        source: std::io::Error,
    }

    #[test]
    fn a_cause_already_in_the_line_is_not_repeated() {
        let io = || std::io::Error::new(std::io::ErrorKind::NotFound, "no such file");
        let e = anyhow::Error::new(Named { source: io() });
        assert_eq!(format!("{e:#}"), "p.csv: no such file: no such file");
        assert_eq!(error_line(&e), "p.csv: no such file");
        // A context that does not hold its cause still shows it.
        let e = anyhow::Error::new(io()).context("reading p.csv");
        assert_eq!(error_line(&e), "reading p.csv: no such file");
    }
}
