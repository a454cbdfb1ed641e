//! UCI: the protocol loop behind `varia uci`.
//!
//! Commands: `uci`, `debug`, `isready`, `setoption`, `register`,
//! `ucinewgame`, `position startpos|fen <FEN> [moves ...]`, `go` (`wtime`,
//! `btime`, `winc`, `binc`, `movestogo`, `movetime`, `depth`, `nodes`,
//! `mate`, `infinite`, `ponder`), `stop`, `ponderhit`, `quit`, `d`
//! (a debugging nicety: the board, `Fen: ...`, `Legal moves: ...` and
//! `Outcome: -` or e.g. `Outcome: 1/2-1/2 repetition`, judged with the
//! game's history), and `bench [DEPTH]` (the search's signature, the text of
//! `varia bench --signature --depth DEPTH`, by default at the depth of
//! `data/bench.txt`).
//!
//! Pondering: `go ponder ...` searches the position after the expected
//! reply with no time limit and no `bestmove` until `ponderhit` (the search
//! goes on, its time budget counted from the hit) or `stop` (the `bestmove`
//! comes at once). `bestmove` names the expected reply from the principal
//! variation when there is one: `bestmove e2e4 ponder e7e5`.
//!
//! Options: `Ponder` (check; accepted, the GUI decides when to ponder),
//! `UCI_Variant` (combo of the protocol names `chess giveaway 3check
//! atomic losers knightmate`), `Hash` (MB), `Threads`, `Move Overhead` (ms
//! kept back from every clock budget for the GUI round trip, 0 to 5000,
//! default 15), `EvalFile` (the evaluation for the current variant: empty
//! for the game's default, its embedded net where it has one; `classical`
//! for the built-in classical evaluation; or a net file, which
//! `Evaluator::load` tells by its magic, or an [`EvalParams`] TOML; each
//! evaluation set is announced as `info string evaluation: classical (built
//! in)` or `info string evaluation: network (...) from FILE`, as is the one
//! in use at the first `go` after it changed, and a file that cannot be
//! used is an `info string error` with the previous evaluation kept),
//! `SearchFile` (a
//! [`SearchParams`] TOML read for the current variant, its fields on top of
//! that game's defaults; empty for the defaults). Both files are read again
//! when `UCI_Variant` changes the game, as the defaults differ per game.
//!
//! Tuning options (`varia uci --tune`, [`UciConfig::tune`]): every
//! [`EvalParams`] weight as a spin option named as in the TOML
//! (`material.queen`, `pst_knight.e4`, `tempo`; -10000 to 10000; a term's
//! name sets both its halves, `material_eg.queen` the endgame half alone,
//! as in a weights file), and every
//! integer [`SearchParams`] field (`rfp_margin`,
//! `nmp_min_depth`, ...; their own ranges), so that a tuner drives varia
//! through `setoption` like any engine. The two floating-point search fields
//! (`lmr_base`, `lmr_divisor`) are not offered: a spin option is an integer.
//! The list follows the variant at `uci` time (each `default` is the value in
//! use for the current variant: the built-in weights or `EvalFile`'s, with
//! earlier `setoption`s on top), and the variant at start is
//! [`UciConfig::variant`] (`varia uci --tune --variant suicide`), since a GUI
//! reads the options before it sends `UCI_Variant`. A tuning option set with
//! `setoption` stays set when `UCI_Variant`, `EvalFile` or `SearchFile`
//! reload the weights or the search settings: it is applied on top of them.
//! With a net as the evaluation the weight options do nothing (an `info
//! string` says so when one is set).
//! Plain `varia uci` keeps the short list above for GUIs.
//!
//! FENs are varia's dialect: threecheck takes the `W+B` remaining-checks
//! field before the clocks, or Lichess's trailing `+W+B` checks-given field;
//! knightmate writes the royal knight `K` and commoners `M`.
//!
//! Anything wrong in the input is answered with `info string error <what>`
//! and the engine goes on. For an illegal move in `position ... moves` the
//! position is kept as it was after the last legal move, and the message
//! says so. `go` with no limit at all searches until `stop`.
//!
//! Every `go` gets its `bestmove`. A `go` that arrives while a search still
//! runs (typically right after `stop`, before that search's `bestmove`) is
//! queued with the position and limits it was given, and starts as soon as
//! the search before it has reported, as Stockfish does; a `stop` stops the
//! queued searches as well (each still answers). `quit` and the end of
//! input both stop every search (running, pondering or queued), print their
//! `bestmove`s and end the loop, as Stockfish does: a script piping
//! `go ...` then `quit`, or a GUI closing the pipe, still gets its move.

use super::parse_move_overhead;
use super::session::{self, Engine, Protocol, SearchRequest};
use super::{
    new_game, play_uci, tokens, DEFAULT_HASH_MB, ENGINE_NAME, ENGINE_VERSION, MAX_THREADS,
};
use crate::bench::{Signature, MAX_DEPTH, SIGNATURE_DEPTH};
use crate::eval::{EG, MAX_WEIGHT};
use crate::limits::{DEFAULT_MOVE_OVERHEAD, MAX_MOVE_OVERHEAD};
use crate::score::UciScore;
use crate::{EvalChoice, EvalParams, Evaluator, Info, Limits, SearchParams, SearchResult};
use movegen::{VariantGame, VariantKind};
use std::collections::{BTreeMap, VecDeque};
use std::io::{self, BufRead, Write};
use std::path::Path;
use std::sync::atomic::Ordering::Relaxed;
use std::sync::Arc;
use std::time::Duration;

/// The `UCI_Variant` values, in the order they are offered (the registry's
/// protocol names).
pub const VARIANTS: [&str; VariantKind::ALL.len()] = VariantKind::protocol_names();

/// Runs the UCI loop until `quit` or the end of `input`. At either, the
/// running search is stopped, its `bestmove` printed, and the loop ends.
pub fn run<R, W>(input: R, output: W) -> io::Result<()>
where
    R: BufRead + Send + 'static,
    W: Write + Send + 'static,
{
    session::run::<Uci, R, W>(input, output)
}

/// How the UCI loop starts (`varia uci [--tune] [--variant V] [--eval E]`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UciConfig {
    /// The variant before any `UCI_Variant`: the one whose weights the
    /// tuning options show at `uci`.
    pub variant: VariantKind,
    /// Offer the tuning options (see the module docs).
    pub tune: bool,
    /// The evaluation before any `EvalFile`, as `EvalFile` would name it
    /// (`classical` gives a game with a net its classical weights, which
    /// the weight options show). Checked by the caller: one that cannot be
    /// used starts the game's default.
    pub eval: EvalChoice,
}

impl Default for UciConfig {
    /// Chess, no tuning options, the default evaluation: plain `varia uci`.
    fn default() -> UciConfig {
        UciConfig {
            variant: VariantKind::Chess,
            tune: false,
            eval: EvalChoice::Default,
        }
    }
}

/// [`run`] started as `config` says.
pub fn run_with<R, W>(input: R, output: W, config: UciConfig) -> io::Result<()>
where
    R: BufRead + Send + 'static,
    W: Write + Send + 'static,
{
    session::run_with(input, output, |mut engine: Engine| {
        engine.kind = config.variant;
        engine.reset_game();
        engine.evaluator = Arc::new(
            Evaluator::choose(config.variant, &config.eval)
                .unwrap_or_else(|_| Evaluator::default_for(config.variant)),
        );
        engine.settings = Arc::new(SearchParams::default_for(config.variant));
        let mut uci = Uci::new(engine);
        uci.eval = config.eval;
        uci.tune = config.tune;
        uci.start_variant = config.variant;
        uci
    })
}

/// The UCI engine's state: the shared engine plus the `EvalFile` option,
/// the tuning options and the queued `go`s.
struct Uci {
    engine: Engine,
    /// `EvalFile` as [`EvalChoice::parse`] read it: the game's default
    /// (empty), `classical` or a file (the choice in use: a file that failed
    /// to load is not kept).
    eval: EvalChoice,
    /// The evaluation in use has been announced (`info string evaluation:
    /// ...`); the next `go` announces it if not.
    eval_announced: bool,
    /// `SearchFile`, empty for the current variant's default settings.
    search_file: String,
    /// The tuning options are offered (`varia uci --tune`).
    tune: bool,
    /// The variant at start: `UCI_Variant`'s default.
    start_variant: VariantKind,
    /// Weights set by `setoption`, by index, applied on top of `EvalFile`.
    weight_options: BTreeMap<usize, i32>,
    /// Search fields set by `setoption`, applied on top of `SearchFile`.
    search_options: BTreeMap<&'static str, f64>,
    /// `go`s received while a search was running, oldest first.
    queued: VecDeque<SearchRequest>,
}

/// The `info` line of an iteration.
pub fn info_line(info: &Info) -> String {
    let mut s = format!(
        "info depth {} seldepth {} score {} nodes {} nps {} time {} hashfull {}",
        info.depth,
        info.seldepth,
        UciScore(info.score),
        info.nodes,
        info.nps(),
        info.time_ms,
        info.hashfull
    );
    if !info.pv.is_empty() {
        s.push_str(" pv");
        for m in &info.pv {
            s.push(' ');
            s.push_str(&m.uci());
        }
    }
    s
}

/// Parses a number that may be negative (some GUIs send a negative clock when
/// a side has overstepped), clamped at zero.
fn non_negative(text: &str) -> Option<u64> {
    text.parse::<i64>().ok().map(|v| v.max(0) as u64)
}

impl Protocol for Uci {
    /// `quit` during a search prints its `bestmove` first (see the module
    /// docs).
    const QUIT_REPORTS: bool = true;

    fn new(engine: Engine) -> Uci {
        Uci {
            engine,
            eval: EvalChoice::Default,
            eval_announced: false,
            search_file: String::new(),
            tune: false,
            start_variant: VariantKind::Chess,
            weight_options: BTreeMap::new(),
            search_options: BTreeMap::new(),
            queued: VecDeque::new(),
        }
    }

    fn engine(&mut self) -> &mut Engine {
        &mut self.engine
    }

    /// Handles one line; `false` on `quit`.
    fn command(&mut self, line: &str) -> bool {
        let toks = tokens(line);
        let Some(&(_, cmd)) = toks.first() else {
            return true;
        };
        match cmd {
            "uci" => self.uci(),
            "debug" | "register" => {}
            "ponderhit" => self.ponderhit(),
            "isready" => self.engine.out.line("readyok"),
            "setoption" => self.setoption(line, &toks),
            "ucinewgame" => {
                self.engine.new_table();
                self.engine.reset_game();
            }
            "position" => self.position(&toks),
            "go" => self.go(&toks),
            "stop" => self.stop(),
            "quit" => return false,
            "bench" => self.bench(&toks),
            "d" => self.show(),
            _ => self.error(&format!("unknown command: {}", line.trim())),
        }
        true
    }

    /// A search ended: print its move, then start the next queued `go`.
    fn finished(&mut self, searched: VariantGame, result: SearchResult) {
        let out = &self.engine.out;
        match result.best {
            Some(m) => match result.pv.get(1).filter(|_| result.pv[0] == m) {
                Some(reply) => out.line(&format!("bestmove {} ponder {}", m.uci(), reply.uci())),
                None => out.line(&format!("bestmove {}", m.uci())),
            },
            None => {
                if let Some(o) = searched.outcome() {
                    out.line(&format!(
                        "info string game over: {} {}",
                        o.result_str(),
                        o.description()
                    ));
                }
                out.line("bestmove 0000");
            }
        }
        if let Some(next) = self.queued.pop_front() {
            self.engine.start_search(next);
        }
    }

    fn end_of_input(&mut self) {
        self.stop();
    }
}

impl Uci {
    /// `stop`: the running search and every queued one stop (and report).
    fn stop(&mut self) {
        self.engine.stop();
        for q in &self.queued {
            q.stop.store(true, Relaxed);
        }
    }

    /// `ponderhit`: the pondering search (running or queued) goes on as a
    /// normal one, its time budget counted from now.
    fn ponderhit(&mut self) {
        if let Some(q) = self.queued.iter_mut().rev().find(|q| q.ponder) {
            q.ponder = false;
        } else if let Some(r) = self.engine.running.as_ref().filter(|r| r.is_pondering()) {
            r.ponderhit();
        }
    }

    fn error(&self, what: &str) {
        self.engine.out.line(&format!("info string error {what}"));
    }

    /// `d`: the board, the variant, the FEN, the legal moves and the
    /// outcome judged with the game's history.
    fn show(&self) {
        let (out, game) = (&self.engine.out, &self.engine.game);
        out.line(&game.diagram());
        out.line(&format!("Variant: {}", self.engine.kind.protocol_name()));
        out.line(&format!("Fen: {}", game.fen()));
        let legal: Vec<String> = game.legal_moves().iter().map(|m| m.uci()).collect();
        out.line(&format!("Legal moves: {}", legal.join(" ")));
        // The game's state with its history: the variant's rules,
        // repetition, the 50-move rule, insufficient material.
        out.line(&match game.outcome() {
            Some(o) => format!("Outcome: {} {}", o.result_str(), o.reason()),
            None => "Outcome: -".to_string(),
        });
    }

    fn uci(&self) {
        let out = &self.engine.out;
        out.line(&format!("id name {ENGINE_NAME} {ENGINE_VERSION}"));
        out.line("id author the varia authors");
        let vars: String = VARIANTS.iter().map(|v| format!(" var {v}")).collect();
        out.line(&format!(
            "option name UCI_Variant type combo default {}{vars}",
            self.start_variant.protocol_name()
        ));
        out.line(&format!(
            "option name Hash type spin default {DEFAULT_HASH_MB} min 1 max {}",
            crate::settings::max_hash_mb()
        ));
        out.line(&format!(
            "option name Threads type spin default 1 min 1 max {MAX_THREADS}"
        ));
        out.line("option name Ponder type check default false");
        out.line(&format!(
            "option name Move Overhead type spin default {} min 0 max {}",
            DEFAULT_MOVE_OVERHEAD.as_millis(),
            MAX_MOVE_OVERHEAD.as_millis()
        ));
        out.line("option name EvalFile type string default <empty>");
        out.line("option name SearchFile type string default <empty>");
        if self.tune {
            let classical = self.engine.evaluator.classical();
            for (i, w) in classical.iter().flat_map(|p| p.weights.iter()).enumerate() {
                out.line(&format!(
                    "option name {} type spin default {w} min {} max {MAX_WEIGHT}",
                    EvalParams::weight_name(i),
                    -MAX_WEIGHT
                ));
            }
            for f in tuning_fields(&self.engine.settings) {
                out.line(&format!(
                    "option name {} type spin default {} min {} max {}",
                    f.name, f.value, f.min, f.max
                ));
            }
        }
        out.line("uciok");
    }

    /// `setoption` of a tuning option (`name` lowercased): `Some(())` if
    /// `name` is one (its `value` applied, or the error reported), `None`
    /// if it is not.
    fn set_tuning_option(&mut self, name: &str, value: &str) -> Option<()> {
        if !self.tune {
            return None;
        }
        if let Some(i) = EvalParams::weight_index(name) {
            match value.parse::<i32>() {
                Ok(v) if (-MAX_WEIGHT..=MAX_WEIGHT).contains(&v) => {
                    self.weight_options.insert(i, v);
                    let evaluator = Arc::make_mut(&mut self.engine.evaluator);
                    if let Some(params) = evaluator.classical_mut() {
                        params.set(i, v);
                        // A term sets both halves; an endgame half set before stays.
                        if let Some(&eg) = self.weight_options.get(&(EG + i)) {
                            params.set(EG + i, eg);
                        }
                    } else {
                        self.engine.out.line(&format!(
                            "info string {name} does nothing: the evaluation is a network"
                        ));
                    }
                }
                _ => self.error(&format!(
                    "bad {name} value \"{value}\" (an integer from {} to {MAX_WEIGHT})",
                    -MAX_WEIGHT
                )),
            }
            return Some(());
        }
        let field = tuning_fields(&self.engine.settings).find(|f| f.name == name)?;
        match value.parse::<i64>() {
            Ok(v) => {
                let mut settings = (*self.engine.settings).clone();
                match settings.set(field.name, v as f64) {
                    Ok(()) => {
                        self.search_options.insert(field.name, v as f64);
                        self.engine.settings = Arc::new(settings);
                    }
                    Err(e) => self.error(&e.to_string()),
                }
            }
            Err(_) => self.error(&format!(
                "bad {name} value \"{value}\" (an integer from {} to {})",
                field.min, field.max
            )),
        }
        Some(())
    }

    /// The evaluation of the current variant (`EvalFile`'s or the built-in
    /// one) with the weight options set so far on top (classical weights
    /// only: a net has none).
    fn set_evaluator(&mut self, mut evaluator: Evaluator) {
        if let Some(params) = evaluator.classical_mut() {
            // In index order: each term (both halves) before its endgame half.
            for (&i, &v) in &self.weight_options {
                params.set(i, v);
            }
        }
        self.engine.evaluator = Arc::new(evaluator);
        self.eval_announced = false;
    }

    /// `info string evaluation: ...`: which evaluation plays.
    fn announce_eval(&mut self) {
        let what = self.engine.evaluator.to_string();
        let line = match &self.eval {
            EvalChoice::File(path) => {
                format!("info string evaluation: {what} from {}", path.display())
            }
            EvalChoice::Default | EvalChoice::Classical => {
                format!("info string evaluation: {what} (built in)")
            }
        };
        self.engine.out.line(&line);
        self.eval_announced = true;
    }

    /// The search settings (`SearchFile`'s or the defaults) with the tuning
    /// options set so far on top (each was checked when it was set).
    fn set_settings(&mut self, mut settings: SearchParams) {
        for (&name, &v) in &self.search_options {
            // Checked against the same range when the option was set.
            let _ = settings.set(name, v);
        }
        self.engine.settings = Arc::new(settings);
    }

    /// `bench [DEPTH]`: the signature of [`Signature::measure`], one line
    /// at a time. It searches with one thread and fresh tables whatever the
    /// options say (so it matches `varia bench --signature`), and answers
    /// when done.
    fn bench(&mut self, toks: &[(usize, &str)]) {
        if self.engine.running.is_some() {
            self.error("bench: already searching (send stop first)");
            return;
        }
        let depth = match toks.get(1..).unwrap_or_default() {
            [] => SIGNATURE_DEPTH,
            [(_, text)] => match text.parse::<u32>() {
                Ok(d) if (1..=MAX_DEPTH).contains(&d) => d,
                _ => {
                    self.error(&format!(
                        "bench: depth must be 1 to {MAX_DEPTH}, got \"{text}\""
                    ));
                    return;
                }
            },
            [_, rest @ ..] => {
                let extra: Vec<&str> = rest.iter().map(|t| t.1).collect();
                self.error(&format!(
                    "bench: expected \"bench [DEPTH]\", got \"{}\" after the depth",
                    extra.join(" ")
                ));
                return;
            }
        };
        match Signature::measure(depth) {
            Ok(signature) => {
                for line in signature.to_string().lines() {
                    self.engine.out.line(line);
                }
            }
            Err(e) => self.error(&format!("bench: {e}")),
        }
    }

    /// Loads the evaluation for the current variant from `eval` after
    /// a change of variant: a file that cannot be used for the new game
    /// (a net of the old one) leaves the built-in evaluation, as the old
    /// game's cannot play.
    fn load_eval(&mut self) {
        let kind = self.engine.kind;
        let had_file = self.eval != EvalChoice::Default;
        match Evaluator::choose(kind, &self.eval) {
            Ok(ev) => self.set_evaluator(ev),
            Err(e) => {
                self.error(&format!(
                    "EvalFile not loaded, using the built-in evaluation: {e}"
                ));
                self.eval = EvalChoice::Default;
                self.set_evaluator(Evaluator::default_for(kind));
            }
        }
        if had_file {
            self.announce_eval();
        }
    }

    /// `setoption name EvalFile value FILE`: the evaluation `file` names
    /// ([`EvalChoice::parse`]: the game's default if empty, `classical`, or
    /// a file) for the current variant, or an error with the evaluation in
    /// use kept.
    fn set_eval_file(&mut self, file: &str) {
        let choice = EvalChoice::parse(file);
        match Evaluator::choose(self.engine.kind, &choice) {
            Ok(ev) => {
                self.eval = choice;
                self.set_evaluator(ev);
                self.announce_eval();
            }
            Err(e) => {
                let kept = self.engine.evaluator.to_string();
                self.error(&format!(
                    "EvalFile not loaded, keeping the {kept} evaluation: {e}"
                ));
            }
        }
    }

    /// Loads the search settings for the current variant from `search_file`.
    fn load_search(&mut self) {
        let kind = self.engine.kind;
        let path = (!self.search_file.is_empty()).then(|| Path::new(&self.search_file));
        match SearchParams::load_or_default(kind, path) {
            Ok(p) => self.set_settings(p),
            Err(e) => {
                self.error(&format!("SearchFile not loaded, using the defaults: {e}"));
                self.set_settings(SearchParams::default_for(kind));
            }
        }
    }

    fn setoption(&mut self, line: &str, toks: &[(usize, &str)]) {
        if toks.get(1).map(|t| t.1.to_ascii_lowercase()) != Some("name".into()) {
            self.error("setoption: expected \"setoption name <id> [value <x>]\"");
            return;
        }
        let value_at = toks
            .iter()
            .skip(2)
            .position(|t| t.1.eq_ignore_ascii_case("value"))
            .map(|i| i + 2);
        let name_end = value_at.unwrap_or(toks.len());
        let name = toks[2..name_end]
            .iter()
            .map(|t| t.1)
            .collect::<Vec<_>>()
            .join(" ");
        let value = match value_at {
            Some(i) => {
                let (at, word) = toks[i];
                line[at + word.len()..].trim()
            }
            None => "",
        };
        match name.to_ascii_lowercase().as_str() {
            "uci_variant" => match VariantKind::from_protocol_name(&value.to_ascii_lowercase()) {
                Some(kind) => {
                    if kind != self.engine.kind {
                        self.engine.kind = kind;
                        self.load_eval();
                        self.load_search();
                    }
                    self.engine.reset_game();
                }
                None => self.error(&format!(
                    "unknown variant \"{value}\" (valid: {})",
                    VARIANTS.join(" ")
                )),
            },
            "hash" => match value.parse::<u64>().map(crate::settings::check_hash_mb) {
                Ok(Ok(mb)) => self.engine.set_hash_mb(mb),
                _ => self.error(&format!(
                    "bad Hash value \"{value}\" (1 to {} MB)",
                    crate::settings::max_hash_mb()
                )),
            },
            "threads" => match value.parse::<usize>() {
                Ok(n) if (1..=MAX_THREADS).contains(&n) => self.engine.threads = n,
                _ => self.error(&format!(
                    "bad Threads value \"{value}\" (1 to {MAX_THREADS})"
                )),
            },
            // The GUI decides when to ponder; the option only says that it
            // may (the engine's time use is the same either way).
            "ponder" => {
                if !matches!(value, "true" | "false") {
                    self.error(&format!("bad Ponder value \"{value}\" (true or false)"));
                }
            }
            "move overhead" => match parse_move_overhead(value) {
                Some(t) => self.engine.move_overhead = t,
                None => self.error(&format!(
                    "bad Move Overhead value \"{value}\" (0 to {} ms)",
                    MAX_MOVE_OVERHEAD.as_millis()
                )),
            },
            "evalfile" => self.set_eval_file(if value == "<empty>" { "" } else { value }),
            "searchfile" => {
                self.search_file = if value == "<empty>" {
                    String::new()
                } else {
                    value.to_string()
                };
                self.load_search();
            }
            "" => self.error("setoption: missing option name"),
            lower => {
                if self.set_tuning_option(lower, value).is_none() {
                    self.error(&format!("unknown option \"{name}\""));
                }
            }
        }
    }

    fn position(&mut self, toks: &[(usize, &str)]) {
        let words: Vec<&str> = toks.iter().map(|t| t.1).collect();
        let moves_at = words.iter().position(|&w| w == "moves");
        let setup_end = moves_at.unwrap_or(words.len());
        let kind = self.engine.kind;
        let game = match words.get(1).copied() {
            Some("startpos") => {
                if setup_end > 2 {
                    self.error(&format!(
                        "position: unexpected \"{}\" after startpos (ignored)",
                        words[2..setup_end].join(" ")
                    ));
                }
                new_game(kind, None).map_err(|e| e.to_string())
            }
            Some("fen") if setup_end > 2 => {
                let fen = words[2..setup_end].join(" ");
                new_game(kind, Some(&fen)).map_err(|e| {
                    format!(
                        "bad FEN \"{fen}\" for {}: {e}; position unchanged",
                        kind.protocol_name()
                    )
                })
            }
            Some("fen") => Err("position fen: missing FEN; position unchanged".to_string()),
            _ => Err(
                "position: expected \"startpos\" or \"fen <FEN>\"; position unchanged".to_string(),
            ),
        };
        let mut game = match game {
            Ok(g) => g,
            Err(e) => {
                self.error(&e);
                return;
            }
        };
        if let Some(at) = moves_at {
            for (n, text) in words[at + 1..].iter().enumerate() {
                if let Err(e) = play_uci(&mut game, text) {
                    self.error(&format!(
                        "{e} (move {} of the list); position kept after the {n} legal move{} before it",
                        n + 1,
                        if n == 1 { "" } else { "s" }
                    ));
                    break;
                }
            }
        }
        self.engine.game = game;
    }

    fn go(&mut self, toks: &[(usize, &str)]) {
        let mut limits = Limits::default();
        let mut any_limit = false;
        let mut ponder = false;
        let mut i = 1;
        while i < toks.len() {
            let key = toks[i].1;
            match key {
                "infinite" => {
                    limits.infinite = true;
                    any_limit = true;
                }
                "ponder" => ponder = true,
                "wtime" | "btime" | "winc" | "binc" | "movestogo" | "movetime" | "depth"
                | "nodes" | "mate" => {
                    let Some(v) = toks.get(i + 1).and_then(|t| non_negative(t.1)) else {
                        self.error(&format!("go: \"{key}\" needs a number (ignored)"));
                        i += 1;
                        continue;
                    };
                    i += 1;
                    let ms = Duration::from_millis(v);
                    let small = v.min(u32::MAX as u64) as u32;
                    match key {
                        "wtime" => limits.wtime = Some(ms),
                        "btime" => limits.btime = Some(ms),
                        "winc" => limits.winc = ms,
                        "binc" => limits.binc = ms,
                        "movestogo" => limits.movestogo = Some(small.max(1)),
                        "movetime" => limits.movetime = Some(ms),
                        "depth" => limits.depth = Some(small),
                        "nodes" => limits.nodes = Some(v),
                        _ => limits.depth = Some(small.saturating_mul(2).saturating_sub(1)),
                    }
                    if !matches!(key, "winc" | "binc" | "movestogo") {
                        any_limit = true;
                    }
                }
                "searchmoves" => {
                    self.error("go: searchmoves is not supported (ignored)");
                    // Skip the move list.
                    while toks.get(i + 1).is_some_and(|t| {
                        t.1.len() >= 4
                            && t.1.as_bytes()[0].is_ascii_lowercase()
                            && t.1.as_bytes()[1].is_ascii_digit()
                    }) {
                        i += 1;
                    }
                }
                _ => self.error(&format!("go: unknown parameter \"{key}\" (ignored)")),
            }
            i += 1;
        }
        if !any_limit {
            limits.infinite = true;
        }
        // An infinite search answers only after `stop`.
        let hold = limits.infinite;
        let out = self.engine.out.clone();
        let mut request = SearchRequest::new(
            self.engine.game.clone(),
            limits,
            hold,
            Box::new(move |info: &Info| out.line(&info_line(info))),
        );
        request.ponder = ponder;
        if !self.eval_announced {
            self.announce_eval();
        }
        if self.engine.running.is_some() {
            self.queued.push_back(request);
        } else {
            self.engine.start_search(request);
        }
    }
}

/// The search fields offered as tuning options: the integer ones.
fn tuning_fields(settings: &SearchParams) -> impl Iterator<Item = crate::params::ParamField> {
    settings.fields().into_iter().filter(|f| f.integer)
}
