//! `varia train`: trains the engine's neural network for one game from
//! packed positions (`varia datagen --format bin`). The work is in the
//! `tune` crate ([`::tune::train`]); this module parses arguments, shows the
//! progress bar and reports. The net is not played by the engine yet.

use crate::tune::{bar, threads_pool};
use ::tune::train::{load_positions, parameters, train, Progress, TrainConfig};
use movegen::VariantKind;
use search::nnue::Activation;
use std::io::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

/// Arguments of `varia train`.
#[derive(clap::Args, Debug)]
#[command(after_help = "\
The network is (inputs -> H) x 2 -> 1 over the features of search::nnue
(own/enemy x 7 roles x 64 squares from each side's view, threecheck's check
counters too). The loss is the squared error between sigmoid(eval / K) and
wdl * result + (1 - wdl) * sigmoid(score / K); K is fitted to the data unless
--k is given. After every epoch OUT holds epoch-N.nnue (the quantised net),
checkpoint.bin, trace.csv (epoch,train_loss,val_loss,positions_per_s,lr) and
trace.svg. --resume continues from checkpoint.bin (same settings and data;
--epochs may grow) and ends with the same bytes as an uninterrupted run.
The engine plays a net with `--eval NET`, `eval=NET` or EvalFile (docs/nnue.md).

Example:
  varia train --variant chess --data chess-1.bin --data chess-2.bin --out nets/chess --epochs 10")]
pub struct Args {
    #[arg(long, help = crate::variant_arg::help(""))]
    variant: VariantKind,
    /// A packed position file (repeat for several; all must hold --variant).
    #[arg(long, required = true)]
    data: Vec<PathBuf>,
    /// Output directory (nets, checkpoint, trace, plot).
    #[arg(long)]
    out: PathBuf,
    /// Hidden size H.
    #[arg(long, default_value_t = 128)]
    hidden: usize,
    /// Activation: screlu or crelu.
    #[arg(long, default_value = "screlu")]
    activation: Activation,
    /// Epochs in all (passes over the training positions).
    #[arg(long, default_value_t = 10)]
    epochs: usize,
    /// Positions per batch (one AdamW step).
    #[arg(long, default_value_t = 16384)]
    batch: usize,
    /// Starting learning rate.
    #[arg(long, default_value_t = 0.001)]
    lr: f32,
    /// Multiply the learning rate by --lr-gamma every this many epochs (0: never).
    #[arg(long, default_value_t = 4)]
    lr_drop_every: usize,
    /// The learning rate's factor at each drop.
    #[arg(long, default_value_t = 0.3)]
    lr_gamma: f32,
    /// AdamW's weight decay.
    #[arg(long, default_value_t = 0.01)]
    weight_decay: f32,
    /// Weight of the game result in the target (0: search score only, 1: result only).
    /// 0 by default: on the few million positions of a first net, a share of
    /// the result made chess nets play worse (data/nnue/README.md).
    #[arg(long, default_value_t = 0.0)]
    wdl: f32,
    /// The scale K in centipawns (default: fitted to the data).
    #[arg(long)]
    k: Option<f64>,
    /// Fraction of the positions held out for the validation loss.
    #[arg(long, default_value_t = 0.02)]
    val_fraction: f64,
    /// Seed of the initial weights, the validation split and the shuffles.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Do not mirror training positions. By default each is mirrored left
    /// to right (files a-h) with probability one half, drawn afresh each
    /// epoch: the inputs hold no castling rights, so a position and its
    /// mirror image share a value, and on 1.4M chess positions the mirrored
    /// net played about 95 Elo better (data/nnue/README.md).
    #[arg(long)]
    no_mirror: bool,
    /// Worker threads (default: all cores; the result does not depend on it).
    #[arg(long)]
    threads: Option<usize>,
    /// Continue the run whose checkpoint is in --out.
    #[arg(long)]
    resume: bool,
    /// No progress bar or epoch lines.
    #[arg(long)]
    quiet: bool,
}

/// Runs `varia train`.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let started = Instant::now();
    let config = TrainConfig {
        game: args.variant,
        hidden: args.hidden,
        activation: args.activation,
        epochs: args.epochs,
        batch_size: args.batch,
        lr: args.lr,
        lr_drop_every: args.lr_drop_every,
        lr_gamma: args.lr_gamma,
        weight_decay: args.weight_decay,
        wdl: args.wdl,
        k: args.k,
        val_fraction: args.val_fraction,
        seed: args.seed,
        mirror: !args.no_mirror,
    };
    config.check()?;
    let pool = threads_pool(args.threads)?;
    let data = load_positions(&args.data, args.variant)?;
    let mut stdout = std::io::stdout();
    let mut pb = bar(true, 0, "train", "positions");
    // Lines go to stdout as they come (above the bar); the first write
    // error ends the run's reporting and is returned at the end.
    let mut written: std::io::Result<()> = Ok(());
    let quiet = args.quiet;
    let mut say = |pb: &indicatif::ProgressBar, line: String| {
        if !quiet && written.is_ok() {
            written = pb.suspend(|| writeln!(std::io::stdout(), "{line}"));
        }
    };
    let summary = pool.install(|| {
        train(&config, &data, &args.data, &args.out, args.resume, &mut |p| match p {
            Progress::Start {
                from_epoch,
                epochs,
                train,
                validation,
                k,
            } => {
                let done = from_epoch.min(epochs) as u64 * train as u64;
                pb = bar(quiet, epochs as u64 * train as u64, "train", "positions");
                pb.set_position(done);
                pb.reset_eta();
                let resumed = if from_epoch > 0 {
                    format!(", resumed after epoch {from_epoch}")
                } else {
                    String::new()
                };
                say(
                    &pb,
                    format!(
                        "train: {} positions ({train} training, {validation} validation), {} parameters, K = {k}{resumed}",
                        data.len(),
                        parameters(&config)
                    ),
                );
            }
            Progress::Batch(n) => pb.inc(n as u64),
            Progress::Epoch(row) => say(
                &pb,
                format!(
                    "epoch {}: train loss {:.6}, validation loss {:.6}, {:.0} positions/s, lr {}",
                    row.epoch, row.train_loss, row.val_loss, row.positions_per_s, row.lr
                ),
            ),
        })
    })?;
    pb.finish_and_clear();
    written?;
    writeln!(
        stdout,
        "train: {} epochs -> {} ({}/trace.csv, trace.svg) in {:.1}s",
        summary.rows.len(),
        summary.net.display(),
        args.out.display(),
        started.elapsed().as_secs_f64()
    )?;
    Ok(ExitCode::SUCCESS)
}
