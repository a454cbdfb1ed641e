//! `varia tune texel` and `varia tune spsa`: fitting evaluation weights from
//! labelled positions (Texel) or from games (SPSA: varia's weights
//! in-process, or any UCI engine's spin options with `--engine`). The work
//! is in the `tune` crate; this module parses arguments, shows progress, and
//! writes the trace (CSV), the weights (TOML) or the final `setoption`
//! lines, and the plot (SVG). Both SPSA kinds share one trace, one loop and
//! one identity core, and differ only in their objective and what they save.

use ::tune::spsa::{IterationGames, MatchObjective, Objective, SpsaConfig, SpsaParam};
use ::tune::spsa_uci::{check_options, setoption_lines, OptionParam, UciObjective};
use ::tune::texel::{Optimizer, TexelConfig, TexelEvent, TexelOutcome};
use ::tune::trace::{Trace, TraceRow, TraceWriter};
use anyhow::{anyhow, bail, Context as _};
use arena::engine_config::split_settings;
use arena::external::Protocol;
use arena::openings::Opening;
use arena::record::{self, RunIdentity};
use arena::{EngineConfig, EngineKind};
use indicatif::ProgressBar;
use movegen::{dispatch, Position, Variant, VariantKind};
use search::eval::MAX_WEIGHT;
use search::EvalParams;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

/// A progress bar on stderr with rate and ETA (hidden with `quiet` or when
/// stderr is not a terminal).
pub fn bar(quiet: bool, len: u64, msg: &str, unit: &str) -> ProgressBar {
    let style = crate::resources::progress_style(&format!(
        "{{msg}} [{{elapsed_precise}}] {{wide_bar}} {{pos}}/{{len}} {unit} ({{per_sec}}, ETA {{eta}})"
    ));
    crate::resources::progress_bar(crate::resources::show_progress(quiet), len, style)
        .with_message(msg.to_string())
}

/// Arguments of `varia tune`.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(subcommand)]
    method: Method,
}

#[derive(clap::Subcommand, Debug)]
enum Method {
    /// Fit weights to game results: minimize the squared error between the
    /// result and a sigmoid of the quiescence score (first the scale K, then
    /// the weights).
    Texel(TexelArgs),
    /// Tune weights by games: SPSA with theta+c*delta against theta-c*delta
    /// (fishtest's schedule), in-process engines at fixed nodes, or the spin
    /// options of an external UCI engine (--engine, --param).
    Spsa(SpsaArgs),
    /// Plot a trace (from texel or spsa) as SVG.
    Plot(PlotArgs),
}

/// Arguments of `varia tune plot`.
#[derive(clap::Args, Debug)]
pub struct PlotArgs {
    /// Trace CSV.
    #[arg(long)]
    trace: PathBuf,
    /// SVG file (default: the trace's name with .svg).
    #[arg(long)]
    out: Option<PathBuf>,
    /// Title.
    #[arg(long)]
    title: Option<String>,
}

/// Arguments of `varia tune texel`.
#[derive(clap::Args, Debug)]
#[command(after_help = "\
Examples:
  varia tune texel --variant suicide --positions pos.csv --out trace.csv --weights suicide-tuned.toml
  varia tune texel --variant chess --positions pos.csv --params material,pst_knight,bishop_pair \\
      --out trace.csv --weights tuned.toml --plot tuned.svg")]
pub struct TexelArgs {
    #[arg(long, help = crate::variant_arg::help(""))]
    variant: VariantKind,
    /// Position file(s) (`fen,result` CSV, from `varia datagen`).
    #[arg(long, required = true, num_args = 1..)]
    positions: Vec<PathBuf>,
    /// Weights to fit: groups (material, bishop_pair, mobility, pst_pawn, ...)
    /// or single weights (material.queen), comma separated.
    #[arg(long, default_value = "material")]
    params: String,
    /// Starting weights (TOML; default: the built-in ones).
    #[arg(long)]
    init: Option<PathBuf>,
    /// Trace CSV: iteration, loss, one column per fitted weight.
    #[arg(long)]
    out: PathBuf,
    /// Final weights (TOML, loadable by the engine and the match runner).
    #[arg(long)]
    weights: PathBuf,
    /// Plot (SVG; default: the trace's name with .svg).
    #[arg(long)]
    plot: Option<PathBuf>,
    /// Optimizer: gn (Gauss-Newton with Levenberg-Marquardt damping) or adam.
    #[arg(long, default_value = "gn")]
    optimizer: String,
    /// Iterations (default: 30 for gn, 1000 for adam).
    #[arg(long)]
    iterations: Option<usize>,
    /// Adam's step size in centipawns.
    #[arg(long, default_value_t = 1.0)]
    lr: f64,
    /// Use this scale K instead of fitting it.
    #[arg(long)]
    k: Option<f64>,
    /// Use each position's static evaluation, not its quiescence leaf.
    #[arg(long)]
    no_resolve: bool,
    /// Re-resolve the quiescence leaves with the current weights every N iterations (0: never).
    #[arg(long, default_value_t = 0)]
    resolve_every: usize,
    /// Use only the first N positions.
    #[arg(long)]
    limit: Option<usize>,
    /// Worker threads (default: all cores).
    #[arg(long)]
    threads: Option<usize>,
    /// No progress bar.
    #[arg(long)]
    quiet: bool,
}

/// Arguments of `varia tune spsa`.
#[derive(clap::Args, Debug)]
#[command(after_help = "\
c_k = c_end*N^gamma/(k+1)^gamma and a_k = r_end*c_end^2*(A+N)^alpha/(k+1+A)^alpha,
A = a-ratio*N; each iteration moves theta by a_k/c_k * (wins - losses of theta+) * delta.
The trace is resumable: run the same command with --resume after an interruption.

Without --engine, varia's weights are tuned in-process at --nodes per move (--params,
--init, --weights, --hash). With --engine, the spin options of an external UCI engine are
tuned: each --param NAME=START,MIN,MAX[,C_END[,R_END]] is one option (checked against the
engine's uci reply; C_END and R_END default to --c-end of START and --r-end), theta+ and
theta- are two copies of the engine with the options set by setoption (rounded), playing at
the --each limits (tc=, nodes=, depth=, ...). The final values are printed as setoption
lines and written beside the trace (trace.csv -> trace.options.txt).

Examples:
  varia tune spsa --variant suicide --iterations 2000 --nodes 500 --out spsa.csv --weights spsa.toml
  varia tune spsa --variant threecheck --params material,checks_given --c-end 10 --resume \\
      --out spsa.csv --weights spsa.toml
  varia tune spsa --variant suicide --engine cmd=varia 'args=uci --tune --variant suicide' \\
      --each nodes=2000 --param material.queen=600,0,2000 --param material.rook=400,0,2000,20 \\
      --iterations 300 --concurrency 2 --out uci.csv")]
pub struct SpsaArgs {
    #[arg(long, help = crate::variant_arg::help(""))]
    variant: VariantKind,
    /// An external UCI engine whose options are tuned: `cmd=PATH` plus the
    /// settings of `varia match --engine` (args=, option.NAME=, timeout=, ...).
    #[arg(long, value_name = "KEY=VALUE", num_args = 1..)]
    engine: Option<Vec<String>>,
    /// With --engine: the move limits and settings of both copies (tc=, nodes=, depth=, ...).
    #[arg(long, value_name = "KEY=VALUE", num_args = 1..)]
    each: Vec<String>,
    /// With --engine: an option to tune, NAME=START,MIN,MAX[,C_END[,R_END]] (repeat it).
    #[arg(long, value_name = "NAME=START,MIN,MAX")]
    param: Vec<String>,
    /// Weights to tune (groups or single weights, comma separated).
    #[arg(long, default_value = "material", conflicts_with = "engine")]
    params: String,
    /// Starting weights (TOML; default: the built-in ones).
    #[arg(long, conflicts_with = "engine")]
    init: Option<PathBuf>,
    /// Iterations N.
    #[arg(long, default_value_t = 1000)]
    iterations: usize,
    /// Game pairs per iteration.
    #[arg(long, default_value_t = 1)]
    pairs: usize,
    /// Nodes per move.
    #[arg(long, default_value_t = 500, conflicts_with = "engine")]
    nodes: u64,
    /// Perturbation at the end: a number of centipawns for every weight, or
    /// a share like `5%` of each weight's starting |value| (at least 5).
    #[arg(long, default_value = "5%")]
    c_end: String,
    /// a_end / c_end^2 (fishtest's R at the end).
    #[arg(long, default_value_t = 0.002)]
    r_end: f64,
    /// Step decay exponent.
    #[arg(long, default_value_t = 0.602)]
    alpha: f64,
    /// Perturbation decay exponent.
    #[arg(long, default_value_t = 0.101)]
    gamma: f64,
    /// A as a share of the iterations.
    #[arg(long, default_value_t = 0.1)]
    a_ratio: f64,
    /// Seed of the perturbations and openings.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Opening book: EPD/FEN lines or PGN (default: random plies from the start).
    #[arg(long)]
    book: Option<PathBuf>,
    /// Random plies after the book position.
    #[arg(long, default_value_t = 8)]
    random_plies: usize,
    /// Games longer than this many plies are draws (0: never, as in `varia match`).
    #[arg(long, default_value_t = 400)]
    max_plies: u32,
    /// Games at once (default: all cores).
    #[arg(long)]
    concurrency: Option<usize>,
    /// Hash per engine, MB.
    #[arg(long, default_value_t = 4, conflicts_with = "engine")]
    hash: usize,
    /// Trace CSV: iteration, result, one column per tuned weight (or --param).
    #[arg(long)]
    out: PathBuf,
    /// Weights (TOML), rewritten after every iteration (in-process runs).
    #[arg(long, required_unless_present = "engine", conflicts_with = "engine")]
    weights: Option<PathBuf>,
    /// Plot (SVG; default: the trace's name with .svg).
    #[arg(long)]
    plot: Option<PathBuf>,
    /// Continue the run recorded in --out.
    #[arg(long)]
    resume: bool,
    /// No progress bar.
    #[arg(long)]
    quiet: bool,
}

/// Runs `varia tune`.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let mut stdout = std::io::stdout();
    match args.method {
        Method::Texel(a) => texel(a),
        Method::Spsa(a) => spsa(a),
        Method::Plot(a) => {
            let trace = ::tune::trace::read(&a.trace)?;
            let out = plot_path(&a.out, &a.trace);
            let title = a.title.unwrap_or_else(|| a.trace.display().to_string());
            ::tune::plot::write(&trace, &title, &out)?;
            writeln!(stdout, "wrote {}", out.display())?;
            Ok(ExitCode::SUCCESS)
        }
    }
}

fn plot_path(plot: &Option<PathBuf>, out: &Path) -> PathBuf {
    plot.clone().unwrap_or_else(|| out.with_extension("svg"))
}

fn init_params(kind: VariantKind, init: &Option<PathBuf>) -> anyhow::Result<EvalParams> {
    Ok(match init {
        Some(p) => EvalParams::load(kind, p)?,
        None => EvalParams::default_for(kind),
    })
}

/// A run's starting weights as an identity field: a checksum of their TOML.
fn weights_identity(p: &EvalParams) -> String {
    format!("{:016x}", record::checksum(&p.to_toml()))
}

/// `value` if it is a finite number in `range` (`expected` says which in
/// words): float options that are NaN, infinite or absurd would only write
/// NaN rows and zeroed weights.
fn check_float(
    flag: &str,
    value: f64,
    range: std::ops::RangeInclusive<f64>,
    expected: &str,
) -> anyhow::Result<f64> {
    if value.is_finite() && range.contains(&value) {
        Ok(value)
    } else {
        bail!("{flag} {value}: expected {expected}")
    }
}

fn save_with_comment(params: &EvalParams, path: &Path, comment: &str) -> anyhow::Result<()> {
    let text = format!("{comment}{}", params.to_toml());
    std::fs::write(path, text).map_err(|e| anyhow!("{}: {e}", path.display()))
}

/// A rayon pool of `--threads` threads (default: all cores).
pub(crate) fn threads_pool(threads: Option<usize>) -> anyhow::Result<rayon::ThreadPool> {
    let threads = crate::resources::threads("--threads", threads)?;
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| anyhow!("thread pool: {e}"))
}

/// Runs `varia tune texel`: check, read, fit, save, report.
fn texel(a: TexelArgs) -> anyhow::Result<ExitCode> {
    let started = Instant::now();
    let (init, cfg) = texel_config(&a)?;
    let names: Vec<String> = cfg
        .tuned
        .iter()
        .map(|&i| EvalParams::weight_name(i))
        .collect();
    let plot = plot_path(&a.plot, &a.out);
    let pool = threads_pool(a.threads)?;
    let (r, trace) = pool.install(|| -> anyhow::Result<_> {
        dispatch!(a.variant, V => {
            let positions = texel_positions::<V>(&a)?;
            texel_fit::<V>(&a, &positions, &init, &cfg, &names)
        })
    })?;
    texel_save(&a, &r, &trace, &plot)?;
    texel_report(&a, &init, &cfg, &r, &plot, started)
}

/// Checks the texel options and turns them into the tuner's configuration;
/// returns it with the starting weights.
fn texel_config(a: &TexelArgs) -> anyhow::Result<(EvalParams, TexelConfig)> {
    let tuned = ::tune::select_weights(&a.params)?;
    let init = init_params(a.variant, &a.init)?;
    let optimizer = match a.optimizer.as_str() {
        "gn" | "gauss-newton" | "lm" => Optimizer::GaussNewton,
        "adam" => Optimizer::Adam { lr: a.lr },
        o => bail!("unknown optimizer \"{o}\" (gn or adam)"),
    };
    if let Some(k) = a.k {
        if !(k.is_finite() && k > 0.0) {
            bail!("--k must be a positive number");
        }
    }
    let positive = f64::MIN_POSITIVE;
    let max_lr = f64::from(MAX_WEIGHT);
    check_float(
        "--lr",
        a.lr,
        positive..=max_lr,
        &format!("a number above 0, at most {max_lr}"),
    )?;
    let iterations = a.iterations.unwrap_or(match optimizer {
        Optimizer::GaussNewton => 30,
        Optimizer::Adam { .. } => 1000,
    });
    let cfg = TexelConfig {
        tuned,
        iterations,
        optimizer,
        k: a.k,
        resolve: !a.no_resolve,
        resolve_every: a.resolve_every,
    };
    Ok((init, cfg))
}

/// Reads the position files (the first `--limit` positions of them),
/// refusing an empty set.
fn texel_positions<V: Variant>(a: &TexelArgs) -> anyhow::Result<Vec<(Position<V>, f32)>> {
    let t = Instant::now();
    let mut positions = Vec::new();
    for p in &a.positions {
        positions.extend(::tune::positions::read::<V>(p)?);
    }
    if let Some(l) = a.limit {
        positions.truncate(l);
    }
    if positions.is_empty() {
        let files: Vec<String> = a
            .positions
            .iter()
            .map(|p| p.display().to_string())
            .collect();
        bail!("no positions in {}", files.join(", "));
    }
    if !a.quiet {
        eprintln!(
            "texel: read {} positions in {:.1}s",
            positions.len(),
            t.elapsed().as_secs_f64()
        );
    }
    Ok(positions)
}

/// Fits the weights, writing each iteration to the trace CSV as it comes
/// and telling the resolve and K steps on stderr; returns the outcome and
/// the trace. A failed trace write ends the run once the fit returns.
fn texel_fit<V: Variant>(
    a: &TexelArgs,
    positions: &[(Position<V>, f32)],
    init: &EvalParams,
    cfg: &TexelConfig,
    names: &[String],
) -> anyhow::Result<(TexelOutcome, Trace)> {
    let quiet = a.quiet;
    let identity = RunIdentity::new()
        .with("method", "texel")
        .with("variant", a.variant.name())
        .with("params", &a.params)
        .with("init", weights_identity(init));
    let mut writer = TraceWriter::create(&a.out, "loss", names, &identity)?;
    let mut trace = Trace {
        metric: "loss".into(),
        names: names.to_vec(),
        rows: Vec::new(),
    };
    let pb = bar(quiet, cfg.iterations as u64, "texel", "iterations");
    let mut failure: Option<anyhow::Error> = None;
    let r = ::tune::texel::tune::<V>(positions, init, cfg, &mut |ev| match ev {
        TexelEvent::Resolved {
            kept,
            dropped,
            seconds,
        } => {
            if !quiet {
                pb.suspend(|| eprintln!("texel: {kept} positions resolved to quiescence leaves ({dropped} dropped: the game ends within the search, or the search is beyond its node budget) in {seconds:.1}s"));
            }
        }
        TexelEvent::K { k, loss } => {
            if !quiet {
                pb.suspend(|| eprintln!("texel: K = {k:.4}, loss {loss:.6}"));
            }
            // A warning even with --quiet: the weights that follow are
            // scaled toward their bounds.
            if cfg.k.is_none() && ::tune::texel::k_at_bound(*k) {
                pb.suspend(|| eprintln!("warning: K = {k:.4} is at an end of its search range ({} to {}): the fitted weights will be scaled toward their bounds; at the low end the evaluation at the starting weights predicts these labels no better than a constant. Give --k to fix the scale", ::tune::texel::K_RANGE.0, ::tune::texel::K_RANGE.1));
            }
            pb.reset_eta();
        }
        TexelEvent::Iteration(row) => {
            if let Err(e) = writer.write(row) {
                failure.get_or_insert(e.into());
            }
            trace.rows.push(row.clone());
            pb.set_position(row.iteration as u64);
            pb.set_message(format!("texel, loss {:.6}", row.metric));
        }
    })?;
    pb.finish_and_clear();
    if let Some(e) = failure {
        return Err(e);
    }
    Ok((r, trace))
}

/// Writes the fitted weights (with a comment saying how they were made)
/// and the plot.
fn texel_save(a: &TexelArgs, r: &TexelOutcome, trace: &Trace, plot: &Path) -> anyhow::Result<()> {
    let comment = format!(
        "# Texel-tuned {} weights ({}) from {} positions: K = {:.4}, loss {:.6} -> {:.6}\n",
        a.variant.name(),
        a.params,
        r.positions,
        r.k,
        r.initial_loss,
        r.rounded_loss
    );
    save_with_comment(&r.params, &a.weights, &comment)?;
    ::tune::plot::write(
        trace,
        &format!("Texel tuning, {} ({})", a.variant.name(), a.params),
        plot,
    )?;
    Ok(())
}

/// Prints the summary of a texel run: the losses, each fitted weight's
/// change (the first 40), and the files written.
fn texel_report(
    a: &TexelArgs,
    init: &EvalParams,
    cfg: &TexelConfig,
    r: &TexelOutcome,
    plot: &Path,
    started: Instant,
) -> anyhow::Result<ExitCode> {
    let mut stdout = std::io::stdout();
    let tuned = &cfg.tuned;
    writeln!(stdout,
        "texel: {} positions, K = {:.4}, loss {:.6} -> {:.6} (rounded {:.6}), {} iterations in {:.1}s",
        r.positions,
        r.k,
        r.initial_loss,
        r.final_loss,
        r.rounded_loss,
        cfg.iterations,
        started.elapsed().as_secs_f64()
    )?;
    let shown = tuned.len().min(40);
    for &i in tuned.iter().take(shown) {
        writeln!(
            stdout,
            "  {:<24} {:>6} -> {:>6}",
            EvalParams::weight_name(i),
            init.weights[i],
            r.params.weights[i]
        )?;
    }
    if tuned.len() > shown {
        writeln!(stdout, "  ... {} more", tuned.len() - shown)?;
    }
    writeln!(
        stdout,
        "wrote {}, {}, {}",
        a.out.display(),
        a.weights.display(),
        plot.display()
    )?;
    Ok(ExitCode::SUCCESS)
}

/// The trace of an SPSA run opened for appending: the writer, the rows so
/// far (row 0, the starting values, for a new run) and the last of them,
/// and the plot drawn from it (its path and title).
struct SpsaTrace {
    writer: TraceWriter,
    trace: Trace,
    last: TraceRow,
    plot: PathBuf,
    title: String,
}

/// What both kinds of SPSA run share once their parameters are known: the
/// schedule, the games of an iteration, and the trace with its identity.
struct SpsaRun {
    params: Vec<SpsaParam>,
    cfg: SpsaConfig,
    games: IterationGames,
}

/// Runs `varia tune spsa`: in-process (no --engine) or over UCI.
fn spsa(a: SpsaArgs) -> anyhow::Result<ExitCode> {
    check_spsa_args(&a)?;
    if a.engine.is_none() && !(a.param.is_empty() && a.each.is_empty()) {
        bail!("--param and --each tune an external engine: give it with --engine cmd=...");
    }
    match &a.engine {
        Some(words) => spsa_uci(&a, words),
        None => spsa_in_process(&a),
    }
}

/// The schedule and the games of a run of `params`.
fn spsa_run(a: &SpsaArgs, params: Vec<SpsaParam>) -> anyhow::Result<SpsaRun> {
    let cfg = SpsaConfig {
        iterations: a.iterations,
        alpha: a.alpha,
        gamma: a.gamma,
        a_ratio: a.a_ratio,
        seed: a.seed,
    };
    let book = match &a.book {
        Some(p) => arena::openings::load(p, a.variant).map_err(|e| anyhow!("{e}"))?,
        None => Vec::new(),
    };
    let games = IterationGames {
        variant: a.variant,
        pairs: a.pairs.max(1),
        concurrency: crate::resources::threads("--concurrency", a.concurrency)?,
        seed: a.seed,
        book,
        random_plies: a.random_plies,
        max_plies: a.max_plies,
    };
    Ok(SpsaRun { params, cfg, games })
}

/// `varia tune spsa` without --engine: varia's weights, in-process.
fn spsa_in_process(a: &SpsaArgs) -> anyhow::Result<ExitCode> {
    let started = Instant::now();
    let weights = a
        .weights
        .as_ref()
        .ok_or_else(|| anyhow!("--weights is required without --engine"))?;
    let tuned = ::tune::select_weights(&a.params)?;
    let init = init_params(a.variant, &a.init)?;
    let names: Vec<String> = tuned.iter().map(|&i| EvalParams::weight_name(i)).collect();
    let params = spsa_params(a, &tuned, &names, &init)?;
    let run = spsa_run(a, params)?;
    let hash_mb = crate::resources::hash_mb("--hash", a.hash)?;
    // One table per engine, two engines per game: all of them must fit too.
    crate::resources::hash_mb(
        "--hash times 2 --concurrency",
        hash_mb.saturating_mul(2 * run.games.concurrency),
    )?;
    let kind = SpsaKind::InProcess {
        init: weights_identity(&init),
    };
    let identity = spsa_identity(a, &run.games.book, &kind);
    let start: Vec<f64> = tuned.iter().map(|&i| init.weights[i] as f64).collect();
    let title = format!("SPSA, {} ({})", a.variant.name(), a.params);
    let mut opened = open_spsa_trace(a, &names, start, &identity, title)?;
    let mut objective = MatchObjective {
        games: run.games.clone(),
        base: init.clone(),
        tuned: tuned.clone(),
        nodes: a.nodes.max(1),
        hash_mb,
    };
    let header = format!(
        "# SPSA-tuned {} weights ({}), seed {}, {} nodes/move\n",
        a.variant.name(),
        a.params,
        a.seed,
        a.nodes
    );
    let as_params = objective.clone();
    let theta = spsa_iterations(a, &run, &mut objective, &mut opened, &mut |theta| {
        save_with_comment(&as_params.params(theta), weights, &header)
    })?;
    let mut stdout = std::io::stdout();
    let how = format!("at {} nodes", a.nodes);
    writeln!(stdout, "{}", spsa_done_line(a, &opened, &how, started))?;
    for (j, &i) in tuned.iter().enumerate().take(40) {
        writeln!(
            stdout,
            "  {:<24} {:>6} -> {:>9.2}",
            names[j], init.weights[i], theta[j]
        )?;
    }
    writeln!(
        stdout,
        "wrote {}, {}, {}",
        a.out.display(),
        weights.display(),
        opened.plot.display()
    )?;
    Ok(ExitCode::SUCCESS)
}

/// The external engine of `varia tune spsa --engine`: the `--each` and
/// `--engine` words as one engine's settings (its own win), which must
/// name a UCI engine with `cmd=`.
fn uci_engine(a: &SpsaArgs, words: &[String]) -> anyhow::Result<EngineConfig> {
    let mut settings = split_settings("--each", &a.each)?;
    settings.extend(split_settings(
        &format!("--engine {}", words.join(" ")),
        words,
    )?);
    let engine = EngineConfig::parse("engine", &settings)?;
    match &engine.kind {
        EngineKind::External(x) if x.proto == Protocol::Uci => Ok(engine),
        EngineKind::External(_) => bail!("--engine: only UCI engines can be tuned (proto=uci)"),
        EngineKind::InProcess(_) => {
            bail!("--engine needs cmd= (an external UCI engine; without --engine varia is tuned in-process)")
        }
    }
}

/// `varia tune spsa --engine`: an external UCI engine's spin options.
fn spsa_uci(a: &SpsaArgs, words: &[String]) -> anyhow::Result<ExitCode> {
    let started = Instant::now();
    let engine = uci_engine(a, words)?;
    if a.param.is_empty() {
        bail!("--engine needs at least one --param NAME=START,MIN,MAX[,C_END[,R_END]]");
    }
    let given: Vec<OptionParam> = a
        .param
        .iter()
        .map(|t| OptionParam::parse(t))
        .collect::<Result<_, _>>()?;
    let EngineKind::External(external) = &engine.kind else {
        unreachable!("uci_engine returns external engines")
    };
    let declared = arena::external::uci_options(&engine.name, external)
        .map_err(|e| anyhow!("--engine: {e}"))?;
    let options = check_options(&given, &declared)?;
    // The first game would fail the same way; say it before any.
    engine
        .start_for(a.variant)
        .and_then(|mut p| p.new_game(a.variant))
        .map_err(|e| anyhow!("--engine: {e}"))?;
    let names: Vec<String> = given.iter().map(|p| p.name.clone()).collect();
    let params = given
        .iter()
        .map(|p| {
            Ok(SpsaParam {
                name: p.name.clone(),
                c_end: match p.c_end {
                    Some(c) => c,
                    None => c_end_for(&a.c_end, p.start)?,
                },
                r_end: p.r_end.unwrap_or(a.r_end),
                min: p.min,
                max: p.max,
            })
        })
        .collect::<anyhow::Result<Vec<_>>>()?;
    let run = spsa_run(a, params)?;
    // Every number of every --param, as resolved: the schedule and start.
    let param_text: Vec<String> = given
        .iter()
        .zip(&run.params)
        .map(|(g, p)| {
            format!(
                "{}={},{},{},{},{}",
                g.name, g.start, p.min, p.max, p.c_end, p.r_end
            )
        })
        .collect();
    let kind = SpsaKind::Uci {
        engine: words.join(" "),
        param: param_text.join(" "),
    };
    let identity = spsa_identity(a, &run.games.book, &kind);
    let start: Vec<f64> = given.iter().map(|p| p.start).collect();
    let title = format!("SPSA over UCI, {}", a.variant.name());
    let mut opened = open_spsa_trace(a, &names, start, &identity, title)?;
    let mut objective = UciObjective {
        games: run.games.clone(),
        engine,
        options: options.clone(),
    };
    let values_file = a.out.with_extension("options.txt");
    let theta = spsa_iterations(a, &run, &mut objective, &mut opened, &mut |theta| {
        std::fs::write(&values_file, setoption_lines(&options, theta))
            .map_err(|e| anyhow!("{}: {e}", values_file.display()))
    })?;
    let mut stdout = std::io::stdout();
    writeln!(
        stdout,
        "{}",
        spsa_done_line(a, &opened, "over UCI", started)
    )?;
    write!(stdout, "{}", setoption_lines(&options, &theta))?;
    writeln!(
        stdout,
        "wrote {}, {}, {}",
        a.out.display(),
        values_file.display(),
        opened.plot.display()
    )?;
    Ok(ExitCode::SUCCESS)
}

/// Refuses an SPSA schedule that cannot run: no iterations, or a float
/// option outside its range.
fn check_spsa_args(a: &SpsaArgs) -> anyhow::Result<()> {
    if a.iterations == 0 {
        bail!("--iterations must be at least 1");
    }
    let unit = f64::MIN_POSITIVE..=1.0;
    let above_0 = "a number above 0, at most 1";
    check_float("--r-end", a.r_end, unit.clone(), above_0)?;
    check_float("--alpha", a.alpha, unit.clone(), above_0)?;
    check_float("--gamma", a.gamma, unit, above_0)?;
    check_float("--a-ratio", a.a_ratio, 0.0..=1.0, "a number from 0 to 1")?;
    Ok(())
}

/// The `--c-end` perturbation of a weight starting at `start`: `text` is
/// centipawns, or a share like `5%` of |start| (at least 5).
fn c_end_for(text: &str, start: f64) -> anyhow::Result<f64> {
    let s = text.trim();
    let c = if let Some(p) = s.strip_suffix('%') {
        let p: f64 = p
            .trim()
            .parse()
            .map_err(|_| anyhow!("bad --c-end \"{s}\""))?;
        (p / 100.0 * start.abs()).max(5.0)
    } else {
        s.parse().map_err(|_| anyhow!("bad --c-end \"{s}\""))?
    };
    if !(c.is_finite() && c > 0.0) {
        bail!("--c-end must be positive");
    }
    Ok(c)
}

/// The tuned weights as SPSA parameters: their perturbation, step ratio
/// and the bounds a weights file can hold.
fn spsa_params(
    a: &SpsaArgs,
    tuned: &[usize],
    names: &[String],
    init: &EvalParams,
) -> anyhow::Result<Vec<SpsaParam>> {
    tuned
        .iter()
        .zip(names)
        .map(|(&i, n)| {
            Ok(SpsaParam {
                name: n.clone(),
                c_end: c_end_for(&a.c_end, init.weights[i] as f64)?,
                r_end: a.r_end,
                // Weights a file can hold (EvalParams::load bounds them).
                min: -f64::from(MAX_WEIGHT),
                max: f64::from(MAX_WEIGHT),
            })
        })
        .collect()
}

/// What an SPSA run tunes, for its identity: varia's weights in-process
/// (from these starting weights), or an external engine's options.
enum SpsaKind {
    /// `--params` of varia's weights; `init` is the checksum of the start.
    InProcess { init: String },
    /// `--engine` words and every `--param` as resolved.
    Uci { engine: String, param: String },
}

/// The identity of an SPSA run: every setting that changes the trace (not
/// --concurrency: the games are a function of the seed and iteration
/// alone), so that --resume refuses a different run. An in-process run's
/// fields are those it always had, in their order, so its older traces
/// resume.
fn spsa_identity(a: &SpsaArgs, book: &[Opening], kind: &SpsaKind) -> RunIdentity {
    let book_text: String = book.iter().map(|o| o.describe() + "\n").collect();
    let mut id = RunIdentity::new();
    match kind {
        SpsaKind::InProcess { init } => {
            id = id
                .with("method", "spsa")
                .with("variant", a.variant.name())
                .with("params", &a.params)
                .with("init", init);
        }
        SpsaKind::Uci { engine, param } => {
            id = id
                .with("method", "spsa-uci")
                .with("variant", a.variant.name())
                .with("engine", engine)
                .with("each", a.each.join(" "))
                .with("param", param);
        }
    }
    id = id
        .with("iterations", a.iterations)
        .with("pairs", a.pairs.max(1));
    if let SpsaKind::InProcess { .. } = kind {
        id = id.with("nodes", a.nodes.max(1));
    }
    id = id
        .with("c_end", &a.c_end)
        .with("r_end", a.r_end)
        .with("alpha", a.alpha)
        .with("gamma", a.gamma)
        .with("a_ratio", a.a_ratio)
        .with("seed", a.seed)
        .with(
            "book",
            if book.is_empty() {
                "none".to_string()
            } else {
                format!(
                    "{} openings (checksum {:016x})",
                    book.len(),
                    record::checksum(&book_text)
                )
            },
        )
        .with("random_plies", a.random_plies)
        .with("max_plies", a.max_plies);
    if let SpsaKind::InProcess { .. } = kind {
        id = id.with("hash", a.hash.max(1));
    }
    id
}

/// Opens the trace CSV: resumes the run recorded in --out (with --resume)
/// or creates it with row 0, the starting values. Refuses a trace already
/// past --iterations. Its plot, titled `title`, goes to --plot or beside
/// --out.
fn open_spsa_trace(
    a: &SpsaArgs,
    names: &[String],
    start: Vec<f64>,
    identity: &RunIdentity,
    title: String,
) -> anyhow::Result<SpsaTrace> {
    let exists = record::refuse_existing(&a.out, a.resume, "run")?;
    let (writer, trace) = if exists {
        TraceWriter::resume(&a.out, "result", names, identity)?
    } else {
        let mut w = TraceWriter::create(&a.out, "result", names, identity)?;
        let row0 = TraceRow {
            iteration: 0,
            metric: 0.0,
            values: start,
        };
        w.write(&row0)?;
        (
            w,
            Trace {
                metric: "result".into(),
                names: names.to_vec(),
                rows: vec![row0],
            },
        )
    };
    let last = trace
        .rows
        .last()
        .cloned()
        .ok_or_else(|| anyhow!("{}: no rows to resume from", a.out.display()))?;
    if last.iteration > a.iterations {
        bail!(
            "{}: already {} iterations, more than --iterations {}",
            a.out.display(),
            last.iteration,
            a.iterations
        );
    }
    Ok(SpsaTrace {
        writer,
        trace,
        last,
        plot: plot_path(&a.plot, &a.out),
        title,
    })
}

/// The line that ends an SPSA run: iterations in all and run now (the
/// trace `opened` resumed after the rest), game pairs each, `how` they were
/// played, and the time since `started`.
fn spsa_done_line(a: &SpsaArgs, opened: &SpsaTrace, how: &str, started: Instant) -> String {
    format!(
        "spsa: {} iterations ({} now) of {} game pair(s) {how} in {:.1}s",
        a.iterations,
        a.iterations - opened.last.iteration,
        a.pairs,
        started.elapsed().as_secs_f64()
    )
}

/// Runs the remaining SPSA iterations, appending each to the trace and
/// calling `save` with the values after every one (the plot every 25);
/// then saves the final values and plot. Returns the final theta.
fn spsa_iterations(
    a: &SpsaArgs,
    run: &SpsaRun,
    objective: &mut dyn Objective,
    opened: &mut SpsaTrace,
    save: &mut dyn FnMut(&[f64]) -> anyhow::Result<()>,
) -> anyhow::Result<Vec<f64>> {
    let pb = bar(a.quiet, a.iterations as u64, "spsa", "iterations");
    pb.set_position(opened.last.iteration as u64);
    pb.reset_eta();
    let SpsaTrace {
        writer,
        trace,
        last,
        plot,
        title,
    } = opened;
    let mut sum = 0.0;
    let theta = ::tune::spsa::run(
        &run.params,
        &run.cfg,
        &last.values,
        last.iteration,
        objective,
        &mut |row| {
            writer.write(row)?;
            trace.rows.push(row.clone());
            sum += row.metric;
            save(&row.values).map_err(|e| ::tune::Error::Callback(e.into()))?;
            if row.iteration % 25 == 0 {
                ::tune::plot::write(trace, title, plot)?;
            }
            pb.set_position(row.iteration as u64);
            pb.set_message(format!("spsa, result sum {sum:+}"));
            Ok(())
        },
    )
    .context("spsa")?;
    pb.finish_and_clear();
    save(&theta)?;
    ::tune::plot::write(trace, title, plot)?;
    Ok(theta)
}
