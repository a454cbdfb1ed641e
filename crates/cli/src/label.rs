//! `varia label`: the positions of a file labelled with an engine's expected
//! score instead of a game's result, for `varia tune texel`. The work is in
//! the `tune` crate ([`::tune::label`]); this module parses arguments, shows
//! progress and reports.

use crate::tune::bar;
use anyhow::bail;
use arena::engine_config::split_settings;
use arena::EngineConfig;
use movegen::VariantKind;
use std::io::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

/// Arguments of `varia label`.
#[derive(clap::Args, Debug)]
#[command(after_help = "\
Each position is searched by the engine after a new game; its last reported score s
(centipawns from White's view, mates saturating) becomes the label 1/(1+10^(-s/400)),
White's expected score. The output is a position file (`fen,result`, the settings on top
as `#` lines) that `varia tune texel --positions` reads like game results; the tuner
fits its scale K to the engine's. Labels are appended as they are found: the same
command started again labels only the positions the file lacks. Positions already over
are left out.

Examples:
  varia label --variant suicide --positions pos.csv --out labelled.csv \\
      --engine cmd=fairy-stockfish depth=10
  varia label --variant losers --positions pos.csv --out labelled.csv --engine depth=8")]
pub struct Args {
    #[arg(long, help = crate::variant_arg::help(""))]
    variant: VariantKind,
    /// Positions to label: a position file (`fen,result`, e.g. from `varia
    /// datagen`) or one FEN per line.
    #[arg(long)]
    positions: PathBuf,
    /// Output position file (resumed if it exists).
    #[arg(long)]
    out: PathBuf,
    /// The engine, in the words of `varia match --engine`, with its limit:
    /// depth=N, nodes=N or movetime=MS (e.g. cmd=PATH option.Hash=16
    /// depth=10). Without cmd=, varia in-process.
    #[arg(long, value_name = "SETTINGS", num_args = 1.., required = true)]
    engine: Vec<String>,
    /// Worker threads, one engine each (default: all cores).
    #[arg(long)]
    threads: Option<usize>,
    /// No progress bar.
    #[arg(long)]
    quiet: bool,
}

/// Runs `varia label`.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let started = Instant::now();
    let text = args.engine.join(" ");
    let settings = split_settings(&format!("--engine {text}"), &args.engine)?;
    let engine = EngineConfig::parse("engine", &settings)?;
    // `EngineConfig::parse` refuses an engine without a limit.
    if engine.limits.tc.is_some() {
        bail!("--engine: a clock (tc=) means nothing for one position: give depth=, nodes= or movetime=");
    }
    let threads = crate::resources::threads("--threads", args.threads)?;
    let cfg = ::tune::label::LabelConfig {
        variant: args.variant,
        engine,
        engine_text: text,
        threads,
    };
    let pb = bar(args.quiet, 0, "label", "positions");
    let mut resumed = None;
    let report = ::tune::label::run(&cfg, &args.positions, &args.out, &mut |p| {
        if resumed.is_none() {
            resumed = Some(p.done);
            pb.set_length(p.total as u64);
            pb.set_position(p.done as u64);
            pb.reset_eta();
        }
        pb.set_position(p.done as u64);
    })?;
    pb.finish_and_clear();
    writeln!(
        std::io::stdout(),
        "label: {}/{} positions of {} in {} ({} labelled now) in {:.1}s",
        report.done,
        report.total,
        args.positions.display(),
        args.out.display(),
        report.labelled,
        started.elapsed().as_secs_f64()
    )?;
    Ok(ExitCode::SUCCESS)
}
