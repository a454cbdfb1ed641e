//! `varia uci`: the engine over the UCI protocol on stdin/stdout (see
//! [`search::protocol::uci`]). Everything a GUI sets goes through
//! `setoption`; the two flags are for tuners, which must see the tuning
//! options and their values for the right game in the `uci` reply, before
//! any `setoption` (see [`search::protocol::uci::UciConfig`]).

use movegen::VariantKind;
use search::protocol::uci::UciConfig;
use std::io;
use std::process::ExitCode;

/// Arguments of `varia uci`.
#[derive(clap::Args, Debug)]
#[command(after_help = "\
Examples:
  varia uci
  varia uci --tune --variant suicide   # every weight as a spin option (material.queen, ...)
  varia tune spsa --variant suicide --engine cmd=varia 'args=uci --tune --variant suicide' \\
      --each nodes=2000 --param material.queen=600,0,2000 --iterations 200 --out q.csv")]
pub struct Args {
    /// Offer every evaluation weight (named as in the weights TOML, e.g.
    /// material.queen) and every integer search setting as UCI spin options,
    /// for tuners such as `varia tune spsa --engine`.
    #[arg(long)]
    tune: bool,
    #[arg(long, help = crate::variant_arg::help("The game before any UCI_Variant, whose weights the tuning options show; default chess"))]
    variant: Option<VariantKind>,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let config = UciConfig {
        variant: args.variant.unwrap_or(VariantKind::Chess),
        tune: args.tune,
    };
    search::protocol::uci::run_with(io::BufReader::new(io::stdin()), io::stdout(), config)?;
    Ok(ExitCode::SUCCESS)
}
