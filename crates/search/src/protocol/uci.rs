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
//! Options: `UCI_Variant` (combo of the protocol names `chess giveaway 3check
//! atomic losers knightmate`), `Hash` (MB), `Threads`, `EvalFile` (an
//! [`EvalParams`] TOML for the current variant; empty for
//! the built-in weights), `SearchFile` (a [`SearchParams`](crate::SearchParams)
//! TOML; empty for the defaults).
//!
//! FENs are varia's dialect: threecheck takes the `W+B` remaining-checks
//! field before the clocks, or Lichess's trailing `+W+B` checks-given field;
//! knightmate writes the royal knight `K` and commoners `M`.
//!
//! Anything wrong in the input is answered with `info string error <what>`
//! and the engine goes on. For an illegal move in `position ... moves` the
//! position is kept as it was after the last legal move, and the message
//! says so. `go` with no limit at all searches until `stop`.

use super::session::{self, Engine, Protocol};
use super::{
    new_game, play_uci, tokens, DEFAULT_HASH_MB, ENGINE_NAME, ENGINE_VERSION, MAX_HASH_MB,
    MAX_THREADS,
};
use crate::bench::{Signature, MAX_DEPTH, SIGNATURE_DEPTH};
use crate::score::UciScore;
use crate::{EvalParams, Info, Limits, SearchResult};
use movegen::VariantKind;
use std::io::{self, BufRead, Write};
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

/// The `UCI_Variant` values, in the order they are offered (the registry's
/// protocol names).
pub const VARIANTS: [&str; VariantKind::ALL.len()] = VariantKind::protocol_names();

/// Runs the UCI loop until `quit` or the end of `input`. At the end of input a
/// search with limits is allowed to finish (and its `bestmove` printed); an
/// infinite one is stopped first.
pub fn run<R, W>(input: R, output: W) -> io::Result<()>
where
    R: BufRead + Send + 'static,
    W: Write + Send + 'static,
{
    session::run::<Uci, R, W>(input, output)
}

/// The UCI engine's state: the shared engine plus the `EvalFile` option.
struct Uci {
    engine: Engine,
    /// `EvalFile`, empty for the built-in weights.
    eval_file: String,
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
    fn new(engine: Engine) -> Uci {
        Uci {
            engine,
            eval_file: String::new(),
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
            "debug" | "register" | "ponderhit" => {}
            "isready" => self.engine.out.line("readyok"),
            "setoption" => self.setoption(line, &toks),
            "ucinewgame" => {
                self.engine.new_table();
                self.engine.reset_game();
            }
            "position" => self.position(&toks),
            "go" => self.go(&toks),
            "stop" => self.engine.stop(),
            "quit" => return false,
            "bench" => self.bench(&toks),
            "d" => self.show(),
            _ => self.error(&format!("unknown command: {}", line.trim())),
        }
        true
    }

    /// A search ended: print its move.
    fn finished(&mut self, result: Option<SearchResult>) {
        if result.is_none() {
            self.error("search failed; playing the first legal move");
        }
        let best = result.and_then(|r| r.best);
        let out = &self.engine.out;
        match best {
            Some(m) => out.line(&format!("bestmove {}", m.uci())),
            None => {
                let game = &self.engine.game;
                if let Some(first) = game.legal_moves().first() {
                    out.line(&format!("bestmove {}", first.uci()));
                } else {
                    if let Some(o) = game.outcome() {
                        out.line(&format!(
                            "info string game over: {} {}",
                            o.result_str(),
                            o.description()
                        ));
                    }
                    out.line("bestmove 0000");
                }
            }
        }
    }
}

impl Uci {
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
            "option name UCI_Variant type combo default chess{vars}"
        ));
        out.line(&format!(
            "option name Hash type spin default {DEFAULT_HASH_MB} min 1 max {MAX_HASH_MB}"
        ));
        out.line(&format!(
            "option name Threads type spin default 1 min 1 max {MAX_THREADS}"
        ));
        out.line("option name EvalFile type string default <empty>");
        out.line("option name SearchFile type string default <empty>");
        out.line("uciok");
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

    /// Loads the weights for the current variant from `eval_file`.
    fn load_eval(&mut self) {
        let kind = self.engine.kind;
        let path = (!self.eval_file.is_empty()).then(|| Path::new(&self.eval_file));
        match EvalParams::load_or_default(kind, path) {
            Ok(p) => self.engine.params = Arc::new(p),
            Err(e) => {
                self.error(&format!(
                    "EvalFile not loaded, using the built-in weights: {e}"
                ));
                self.engine.params = Arc::new(EvalParams::default_for(kind));
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
                    }
                    self.engine.reset_game();
                }
                None => self.error(&format!(
                    "unknown variant \"{value}\" (valid: {})",
                    VARIANTS.join(" ")
                )),
            },
            "hash" => match value.parse::<usize>() {
                Ok(mb) if (1..=MAX_HASH_MB).contains(&mb) => self.engine.set_hash_mb(mb),
                _ => self.error(&format!(
                    "bad Hash value \"{value}\" (1 to {MAX_HASH_MB} MB)"
                )),
            },
            "threads" => match value.parse::<usize>() {
                Ok(n) if (1..=MAX_THREADS).contains(&n) => self.engine.threads = n,
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
            "searchfile" => {
                let path = (!value.is_empty() && value != "<empty>").then(|| Path::new(value));
                match crate::SearchParams::load_or_default(path) {
                    Ok(p) => self.engine.settings = Arc::new(p),
                    Err(e) => {
                        self.error(&format!("SearchFile not loaded, using the defaults: {e}"));
                        self.engine.settings = Arc::new(crate::SearchParams::default());
                    }
                }
            }
            "" => self.error("setoption: missing option name"),
            _ => self.error(&format!("unknown option \"{name}\"")),
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
        if self.engine.running.is_some() {
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
        // An infinite search answers only after `stop`.
        let hold = limits.infinite;
        let out = self.engine.out.clone();
        self.engine.start_search(
            limits,
            hold,
            Box::new(move |info: &Info| out.line(&info_line(info))),
        );
    }
}
