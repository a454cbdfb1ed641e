//! `varia uci`: the engine over the UCI protocol on stdin/stdout (see
//! [`search::protocol::uci`]). Everything a GUI sets goes through
//! `setoption`; the flags are for tuners, which must see the tuning
//! options and their values for the right game in the `uci` reply, before
//! any `setoption` (see [`search::protocol::uci::UciConfig`]).

use movegen::VariantKind;
use search::protocol::uci::UciConfig;
use search::{EvalChoice, Evaluator};
use std::io;
use std::process::ExitCode;

/// Arguments of `varia uci`.
#[derive(clap::Args, Debug)]
#[command(after_help = "\
Examples:
  varia uci
  varia uci --tune --variant suicide   # every weight as a spin option (material.queen, ...)
  varia uci --tune --eval classical    # chess's classical weights (its default is a net)
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
    /// The evaluation before any EvalFile: `default` (the game's embedded
    /// net where it has one, else classical), `classical` (whose weights
    /// --tune offers), or a file, a net or weights TOML.
    #[arg(long, value_name = "default|classical|FILE", default_value = "default")]
    eval: String,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let variant = args.variant.unwrap_or(VariantKind::Chess);
    let eval = EvalChoice::parse(&args.eval);
    // A file that cannot be used is an error now, not a silent default.
    Evaluator::choose(variant, &eval)?;
    let config = UciConfig {
        variant,
        tune: args.tune,
        eval,
    };
    search::protocol::uci::run_with(io::BufReader::new(io::stdin()), io::stdout(), config)?;
    Ok(ExitCode::SUCCESS)
}
