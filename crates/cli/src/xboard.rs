//! `varia xboard`: the engine over CECP (the XBoard/WinBoard protocol,
//! version 2) on stdin/stdout (see [`search::protocol::xboard`]).

use std::io;
use std::process::ExitCode;

/// Arguments of `varia xboard` (none: the GUI sets everything).
#[derive(clap::Args, Debug)]
pub struct Args {}

pub fn run(_args: Args) -> anyhow::Result<ExitCode> {
    search::protocol::xboard::run(io::BufReader::new(io::stdin()), io::stdout())?;
    Ok(ExitCode::SUCCESS)
}
