//! UCI: the protocol loop behind `varia uci`.
//!
//! Commands: `uci`, `debug`, `isready`, `setoption`, `register`,
//! `ucinewgame`, `position startpos|fen <FEN> [moves ...]`, `go` (`wtime`,
//! `btime`, `winc`, `binc`, `movestogo`, `movetime`, `depth`, `nodes`,
//! `mate`, `infinite`, `ponder`), `stop`, `ponderhit`, `quit`, and `d`
//! (a debugging nicety: the board, `Fen: ...`, `Legal moves: ...` and
//! `Outcome: -` or e.g. `Outcome: 1/2-1/2 repetition`, judged with the
//! game's history).
//!
//! Options: `UCI_Variant` (combo of the protocol names `chess giveaway 3check
//! atomic losers knightmate`), `Hash` (MB), `Threads`, `EvalFile` (an
//! [`EvalParams`](crate::EvalParams) TOML for the current variant; empty for
//! the built-in weights).
//!
//! FENs are varia's dialect: threecheck takes the `W+B` remaining-checks
//! field before the clocks, or Lichess's trailing `+W+B` checks-given field;
//! knightmate writes the royal knight `K` and commoners `M`.
//!
//! Anything wrong in the input is answered with `info string error <what>`
//! and the engine goes on. For an illegal move in `position ... moves` the
//! position is kept as it was after the last legal move, and the message
//! says so. `go` with no limit at all searches until `stop`.

use super::{
    load_params, new_game, spawn_reader, tokens, AnyGame, Event, Output, Running, SearchJob,
    DEFAULT_HASH_MB, ENGINE_NAME, ENGINE_VERSION, MAX_THREADS,
};
use crate::{EvalParams, Info, Limits, SearchResult, Shared};
use movegen::VariantKind;
use std::io::{self, BufRead, Write};
use std::sync::atomic::AtomicBool;
use std::sync::mpsc::Sender;
use std::sync::Arc;
use std::time::Duration;

/// The `UCI_Variant` values, in the order they are offered.
pub const VARIANTS: [&str; 6] = [
    "chess",
    "giveaway",
    "3check",
    "atomic",
    "losers",
    "knightmate",
];

/// Runs the UCI loop until `quit` or the end of `input`. At the end of input a
/// search with limits is allowed to finish (and its `bestmove` printed); an
/// infinite one is stopped first.
pub fn run<R, W>(input: R, output: W) -> io::Result<()>
where
    R: BufRead + Send + 'static,
    W: Write + Send + 'static,
{
    let out = Output::new(output);
    let (tx, rx) = spawn_reader(input);
    let mut engine = Uci::new(out, tx);
    let mut eof = false;
    while let Ok(event) = rx.recv() {
        match event {
            Event::Line(line) => {
                if !engine.command(&line) {
                    break;
                }
            }
            Event::Eof => {
                eof = true;
                match &engine.running {
                    Some((r, infinite)) => {
                        if *infinite {
                            r.stop();
                        }
                    }
                    None => break,
                }
            }
            Event::Done { id, result } => {
                engine.finished(id, result);
                if eof && engine.running.is_none() {
                    break;
                }
            }
        }
    }
    if let Some((r, _)) = engine.running.take() {
        r.abort();
    }
    Ok(())
}

/// The UCI engine's state.
struct Uci {
    out: Output,
    events: Sender<Event>,
    kind: VariantKind,
    game: Box<dyn AnyGame>,
    hash_mb: usize,
    threads: usize,
    eval_file: String,
    params: Arc<EvalParams>,
    shared: Arc<Shared>,
    /// The running search and whether it is infinite.
    running: Option<(Running, bool)>,
    next_id: u64,
}

/// The `info` line of an iteration.
pub fn info_line(info: &Info) -> String {
    let score = match info.mate_in() {
        Some(n) => format!("mate {n}"),
        None => format!("cp {}", info.score),
    };
    let mut s = format!(
        "info depth {} seldepth {} score {} nodes {} nps {} time {} hashfull {}",
        info.depth,
        info.seldepth,
        score,
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

impl Uci {
    fn new(out: Output, events: Sender<Event>) -> Uci {
        let kind = VariantKind::Chess;
        Uci {
            out,
            events,
            kind,
            game: new_game(kind, None).unwrap_or_else(|_| unreachable!("start position is valid")),
            hash_mb: DEFAULT_HASH_MB,
            threads: 1,
            eval_file: String::new(),
            params: Arc::new(EvalParams::default_for(kind)),
            shared: Arc::new(Shared::new(DEFAULT_HASH_MB)),
            running: None,
            next_id: 1,
        }
    }

    fn error(&self, what: &str) {
        self.out.line(&format!("info string error {what}"));
    }

    /// Handles one line; `false` on `quit`.
    fn command(&mut self, line: &str) -> bool {
        let toks = tokens(line);
        let Some(&(_, cmd)) = toks.first() else {
            return true;
        };
        match cmd {
            "uci" => self.uci(),
            "debug" | "register" | "ponderhit" => {}
            "isready" => self.out.line("readyok"),
            "setoption" => self.setoption(line, &toks),
            "ucinewgame" => {
                self.shared = Arc::new(Shared::new(self.hash_mb));
                self.reset_game();
            }
            "position" => self.position(&toks),
            "go" => self.go(&toks),
            "stop" => {
                if let Some((r, _)) = &self.running {
                    r.stop();
                }
            }
            "quit" => return false,
            "d" => {
                let fen = self.game.fen();
                self.out.line(&super::diagram(&fen));
                self.out
                    .line(&format!("Variant: {}", self.kind.protocol_name()));
                self.out.line(&format!("Fen: {fen}"));
                self.out
                    .line(&format!("Legal moves: {}", self.game.legal_uci().join(" ")));
                // The game's state with its history: the variant's rules,
                // repetition, the 50-move rule, insufficient material.
                self.out.line(&match self.game.outcome() {
                    Some(o) => format!("Outcome: {} {}", o.result_str(), o.reason()),
                    None => "Outcome: -".to_string(),
                });
            }
            _ => self.error(&format!("unknown command: {}", line.trim())),
        }
        true
    }

    fn uci(&self) {
        let out = &self.out;
        out.line(&format!("id name {ENGINE_NAME} {ENGINE_VERSION}"));
        out.line("id author the varia authors");
        let vars: String = VARIANTS.iter().map(|v| format!(" var {v}")).collect();
        out.line(&format!(
            "option name UCI_Variant type combo default chess{vars}"
        ));
        out.line(&format!(
            "option name Hash type spin default {DEFAULT_HASH_MB} min 1 max {}",
            crate::settings::max_hash_mb()
        ));
        out.line(&format!(
            "option name Threads type spin default 1 min 1 max {MAX_THREADS}"
        ));
        out.line("option name EvalFile type string default <empty>");
        out.line("uciok");
    }

    fn reset_game(&mut self) {
        if let Ok(g) = new_game(self.kind, None) {
            self.game = g;
        }
    }

    /// Loads the weights for the current variant from `eval_file`.
    fn load_eval(&mut self) {
        match load_params(self.kind, &self.eval_file) {
            Ok(p) => self.params = Arc::new(p),
            Err(e) => {
                self.error(&format!(
                    "EvalFile not loaded, using the built-in weights: {e}"
                ));
                self.params = Arc::new(EvalParams::default_for(self.kind));
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
                    if kind != self.kind {
                        self.kind = kind;
                        self.load_eval();
                    }
                    self.reset_game();
                }
                None => self.error(&format!(
                    "unknown variant \"{value}\" (valid: {})",
                    VARIANTS.join(" ")
                )),
            },
            "hash" => match value.parse::<u64>().map(crate::settings::check_hash_mb) {
                Ok(Ok(mb)) => {
                    if mb != self.hash_mb {
                        self.hash_mb = mb;
                        self.shared = Arc::new(Shared::new(mb));
                    }
                }
                _ => self.error(&format!(
                    "bad Hash value \"{value}\" (1 to {} MB)",
                    crate::settings::max_hash_mb()
                )),
            },
            "threads" => match value.parse::<usize>() {
                Ok(n) if (1..=MAX_THREADS).contains(&n) => self.threads = n,
                _ => self.error(&format!(
                    "bad Threads value \"{value}\" (1 to {MAX_THREADS})"
                )),
            },
            "evalfile" => {
                self.eval_file = if value == "<empty>" {
                    String::new()
                } else {
                    value.to_string()
                };
                self.load_eval();
            }
            "" => self.error("setoption: missing option name"),
            _ => self.error(&format!("unknown option \"{name}\"")),
        }
    }

    fn position(&mut self, toks: &[(usize, &str)]) {
        let words: Vec<&str> = toks.iter().map(|t| t.1).collect();
        let moves_at = words.iter().position(|&w| w == "moves");
        let setup_end = moves_at.unwrap_or(words.len());
        let game = match words.get(1).copied() {
            Some("startpos") => {
                if setup_end > 2 {
                    self.error(&format!(
                        "position: unexpected \"{}\" after startpos (ignored)",
                        words[2..setup_end].join(" ")
                    ));
                }
                new_game(self.kind, None)
            }
            Some("fen") if setup_end > 2 => {
                let fen = words[2..setup_end].join(" ");
                new_game(self.kind, Some(&fen)).map_err(|e| {
                    format!(
                        "bad FEN \"{fen}\" for {}: {e}; position unchanged",
                        self.kind.protocol_name()
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
                if let Err(e) = game.play_uci(text) {
                    self.error(&format!(
                        "{e} (move {} of the list); position kept after the {n} legal move{} before it",
                        n + 1,
                        if n == 1 { "" } else { "s" }
                    ));
                    break;
                }
            }
        }
        self.game = game;
    }

    fn go(&mut self, toks: &[(usize, &str)]) {
        if self.running.is_some() {
            self.error("go: already searching (send stop first)");
            return;
        }
        let mut limits = Limits::default();
        let mut any_limit = false;
        let mut i = 1;
        while i < toks.len() {
            let key = toks[i].1;
            match key {
                "infinite" | "ponder" => {
                    limits.infinite = true;
                    any_limit = true;
                }
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
        let infinite = limits.infinite;
        let id = self.next_id;
        self.next_id += 1;
        let out = self.out.clone();
        let job = SearchJob {
            id,
            limits,
            params: self.params.clone(),
            shared: self.shared.clone(),
            threads: self.threads,
            stop: Arc::new(AtomicBool::new(false)),
            hold: infinite,
            on_info: Box::new(move |info: &Info| out.line(&info_line(info))),
            done: self.events.clone(),
        };
        let running = self.game.spawn_search(job);
        self.running = Some((running, infinite));
    }

    /// A search ended: print its move.
    fn finished(&mut self, id: u64, result: Option<SearchResult>) {
        if self.running.as_ref().map(|r| r.0.id) != Some(id) {
            return; // a search that was aborted
        }
        self.running = None;
        if result.is_none() {
            self.error("search failed; playing the first legal move");
        }
        let best = result.and_then(|r| r.best);
        match best {
            Some(m) => self.out.line(&format!("bestmove {}", m.uci())),
            None => {
                if let Some(first) = self.game.legal_uci().first() {
                    self.out.line(&format!("bestmove {first}"));
                } else {
                    if let Some(o) = self.game.outcome() {
                        self.out.line(&format!(
                            "info string game over: {} {}",
                            o.result_str(),
                            super::describe_outcome(o)
                        ));
                    }
                    self.out.line("bestmove 0000");
                }
            }
        }
    }
}
