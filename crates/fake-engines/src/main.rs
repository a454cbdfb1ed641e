//! `fake-engine`: scripted UCI and CECP engines for the tests of arena's
//! external players.
//!
//! `fake-engine uci [OPTIONS]` and `fake-engine xboard [OPTIONS]` play a
//! legal chess move at once (from the small board in `board.rs`), and fail on
//! request in the ways a match must survive: a crash, a hang, an illegal
//! move, a rejected move, a resignation, a result claimed instead of a move,
//! features sent in two parts. The options are listed in `uci.rs` and
//! `cecp.rs`.
//!
//! `fake-engine perft-uci [FAULT]` and `fake-engine perftree [FAULT] ...`
//! are move generators with one planted fault, for the tests of `varia
//! perft-compare` (`perft.rs`; those tests live in `crates/cli`, which
//! builds this binary, see `crates/cli/tests/cli_perft_compare.rs`).
//!
//! Why a binary of its own crate: the tests must start a real process that
//! speaks the protocols, and `cargo test --workspace` must need nothing but
//! Rust. Cargo builds a package's binaries before its integration tests and
//! names them in `CARGO_BIN_EXE_<name>`, so the tests that drive these
//! engines (`tests/external.rs`, run through arena's public API) live in
//! this crate, next to the binary they need, rather than in `crates/arena`,
//! whose tests could not find a binary of another package.

mod board;
mod cecp;
mod perft;
mod uci;

use std::io::{BufRead, Write};
use std::process::ExitCode;

/// The lines of stdin, up to its end or the first read error: what every
/// engine's command loop reads.
fn input_lines() -> impl Iterator<Item = String> {
    std::io::stdin().lock().lines().map_while(Result::ok)
}

/// Writes one protocol line to stdout and flushes it; a closed pipe ends
/// the engine (its GUI is gone).
fn out(line: &str) {
    let mut stdout = std::io::stdout().lock();
    if writeln!(stdout, "{line}")
        .and_then(|()| stdout.flush())
        .is_err()
    {
        std::process::exit(0);
    }
}

/// The options of a fake engine, as given after the mode.
struct Args(Vec<String>);

impl Args {
    fn has(&self, flag: &str) -> bool {
        self.0.iter().any(|a| a == flag)
    }

    /// The `n`-th word after `flag` (1 = the next one), if the flag is there.
    fn after(&self, flag: &str, n: usize) -> Option<&str> {
        let i = self.0.iter().position(|a| a == flag)?;
        self.0.get(i + n).map(String::as_str)
    }

    /// The number after `flag`, or `default` without the flag; a flag with
    /// a missing or malformed value is an error naming it.
    fn number<T: std::str::FromStr>(&self, flag: &str, default: T) -> Result<T, String> {
        if !self.has(flag) {
            return Ok(default);
        }
        self.after(flag, 1)
            .and_then(|v| v.parse().ok())
            .ok_or_else(|| format!("{flag} needs a number"))
    }
}

fn main() -> ExitCode {
    let mut argv = std::env::args().skip(1);
    let mode = argv.next();
    let args = Args(argv.collect());
    let result = match mode.as_deref() {
        Some("uci") => uci::run(&args),
        Some("xboard") => cecp::run(&args),
        Some("perft-uci") => perft::run_uci(&args),
        Some("perftree") => perft::run_perftree(&args),
        _ => Err("usage: fake-engine uci|xboard|perft-uci|perftree [OPTIONS]".to_string()),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}
