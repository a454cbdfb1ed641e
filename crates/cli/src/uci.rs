//! `varia uci`: the engine over the UCI protocol on stdin/stdout (see
//! [`search::protocol::uci`]).

use std::io;
use std::process::ExitCode;

/// Arguments of `varia uci` (none: everything is set with `setoption`).
#[derive(clap::Args, Debug)]
pub struct Args {}

pub fn run(_args: Args) -> anyhow::Result<ExitCode> {
    search::protocol::uci::run(io::BufReader::new(io::stdin()), io::stdout())?;
    Ok(ExitCode::SUCCESS)
}
