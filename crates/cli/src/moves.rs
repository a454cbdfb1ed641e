//! `varia moves` (to be written).
use std::process::ExitCode;

#[derive(clap::Args, Debug, Default)]
pub struct Args {}

pub fn run(_args: Args) -> anyhow::Result<ExitCode> {
    anyhow::bail!("moves: not yet built")
}
