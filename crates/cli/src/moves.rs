//! `varia moves`: the legal moves and game state of positions, one line per
//! FEN, for cross-checking the move generator against other implementations.
//!
//! Each output line is tab separated:
//!
//! ```text
//! <fen as given>  <legal moves in UCI, sorted, space separated>  <outcome>  [<perft>]
//! ```
//!
//! The outcome is `-` while the game goes on, else the result and the reason,
//! e.g. `1-0 checkmate` (only what the position itself decides: no 50-move
//! rule, repetition or insufficient material). The perft column is there only
//! with `--depth N` for N > 0.
//!
//! With `--fen` one position is described and a bad FEN is an error (exit 2).
//! Otherwise FENs are read from stdin, one per line (blank lines skipped); a
//! bad FEN prints `<fen>\terror: <message>`, the run goes on, and the exit
//! code is 1 at the end. Output is buffered and flushed whenever stdin has no
//! more input waiting, so batches are fast and interactive use still answers
//! each line at once.

use anyhow::Context;
use movegen::{dispatch, perft, FenError, Position, Variant, VariantKind};
use std::fmt::Write as _;
use std::io::{self, BufRead, BufWriter, Write};
use std::process::ExitCode;

#[derive(clap::Args, Debug)]
pub struct Args {
    #[arg(long, help = crate::variant_arg::help(""))]
    variant: VariantKind,
    /// One position to describe; without it FENs are read from stdin, one per line.
    #[arg(long)]
    fen: Option<String>,
    /// Also print perft to this depth as a fourth column (0: no perft column;
    /// at most perft's deepest, 20).
    #[arg(long, default_value_t = 0)]
    depth: u32,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let max = crate::perft::MAX_DEPTH;
    if args.depth > max {
        anyhow::bail!(
            "--depth {} is too deep (at most {max}, as for perft)",
            args.depth
        );
    }
    dispatch!(args.variant, V => run_for::<V>(&args))
}

fn run_for<V: Variant>(args: &Args) -> anyhow::Result<ExitCode> {
    let mut out = BufWriter::new(io::stdout().lock());
    let mut line = String::new();
    let result = if let Some(fen) = &args.fen {
        describe::<V>(fen, args.depth, &mut line)
            .with_context(|| format!("invalid FEN \"{fen}\""))?;
        out.write_all(line.as_bytes())
            .and_then(|()| out.flush())
            .map(|()| ExitCode::SUCCESS)
    } else {
        batch::<V>(args.depth, &mut out, &mut line)
    };
    // A reader that stopped early (`| head`) ends the run quietly in main.
    result.context("moves")
}

/// Describes every FEN on stdin; exit code 1 if any of them was bad.
fn batch<V: Variant>(depth: u32, out: &mut impl Write, line: &mut String) -> io::Result<ExitCode> {
    // Our own reader, so that we can see when its buffer runs dry.
    let mut input = io::BufReader::with_capacity(1 << 16, io::stdin().lock());
    let mut raw = Vec::new();
    let mut any_bad = false;
    loop {
        if input.buffer().is_empty() {
            // About to wait for stdin: show what we have so far.
            out.flush()?;
        }
        raw.clear();
        if input.read_until(b'\n', &mut raw)? == 0 {
            break;
        }
        let text = String::from_utf8_lossy(&raw);
        let fen = text.trim();
        if fen.is_empty() {
            continue;
        }
        if let Err(e) = describe::<V>(fen, depth, line) {
            any_bad = true;
            line.clear();
            let _ = writeln!(line, "{fen}\terror: {e}");
        }
        out.write_all(line.as_bytes())?;
    }
    out.flush()?;
    Ok(if any_bad {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// Writes the output line for `fen` (with its newline) into `line`.
fn describe<V: Variant>(fen: &str, depth: u32, line: &mut String) -> Result<(), FenError> {
    let pos = Position::<V>::from_fen(fen)?;
    let mut moves: Vec<String> = pos.legal_moves().iter().map(|m| m.uci()).collect();
    moves.sort_unstable();
    line.clear();
    line.push_str(fen);
    line.push('\t');
    line.push_str(&moves.join(" "));
    line.push('\t');
    match pos.outcome() {
        None => line.push('-'),
        Some(o) => {
            let _ = write!(line, "{} {}", o.result_str(), o.reason());
        }
    }
    if depth > 0 {
        let _ = write!(line, "\t{}", perft(&pos, depth));
    }
    line.push('\n');
    Ok(())
}
