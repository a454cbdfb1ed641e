//! CECP (XBoard/WinBoard protocol version 2): the loop behind `varia xboard`.
//!
//! On `protover 2` the engine announces
//!
//! ```text
//! feature myname="varia" variants="normal,giveaway,3check,atomic,losers,knightmate" setboard=1 usermove=1 ping=1 sigint=0 sigterm=0 san=0 colors=0 memory=1 smp=1 analyze=1 reuse=1 option="Move Overhead -spin 15 0 5000" option="EvalFile -file " done=1
//! ```
//!
//! and implements what that promises: `setboard`, `usermove`, `ping`,
//! `memory` (table size in MB), `cores`, coordinate moves, no `white`/`black`
//! colour commands, analysis mode, and the option `Move Overhead` (ms
//! kept back from every clock budget for the GUI round trip), set with
//! `option Move Overhead=VALUE`, and the option `EvalFile` (a net file or
//! classical weights in TOML, as `Evaluator::load` tells them apart; empty
//! for the game's default evaluation, its embedded net where it has one;
//! `classical` for the built-in classical one), set with `option
//! EvalFile=FILE`. The file is read again for the game of each `new` and
//! `variant`; which evaluation plays is said in a comment line when it is
//! set and before the first search after it changed, `# evaluation:
//! classical (built in)` or `# evaluation: network (...) from FILE`, and a file that
//! cannot be used for the game is an `Error (EvalFile not loaded, ...)` line
//! with the evaluation in use kept (at `option`) or the built-in one (at
//! `new` and `variant`, as a net of another game cannot play). Our suicide is `giveaway` here (never
//! `suicide`, which is another game in XBoard), threecheck is `3check`.
//!
//! Commands: `xboard`, `protover`, `new`, `variant`, `force`, `go`,
//! `playother`, `usermove` (and bare moves), `setboard`, `level MPS BASE INC`
//! (base in minutes or `min:sec`), `st`, `sd`, `time`, `otim` (centiseconds),
//! `ping`, `result`, `memory`, `cores`, `post`, `nopost`, `undo`, `remove`,
//! `?` (move now), `hard` and `easy` (pondering on and off), `quit`; `random`, `computer`, `name`,
//! `accepted`, `rejected`, `draw`, `white`, `black`, `ics`, `nps`, `hint`,
//! `bk` are accepted and ignored; `option NAME=VALUE` sets an announced
//! option.
//!
//! Moves are sent as `move <uci>`: castling as the king's two-square move,
//! promotions with a lowercase letter: `q r b n`, plus `k` in giveaway and `m`
//! (the commoner, XBoard's "Man") in knightmate. XBoard's knightmate (and
//! Fairy-Max's, and Fairy-Stockfish's) uses the same letters: `K` is the
//! royal knight, `M` the commoner, and a pawn promoting to a commoner is
//! written `e7e8m`. Moves are read in the same notation (castling also as
//! the king taking its own rook, `e1h1`).
//!
//! The engine plays the side to move after `go`, and after each `usermove`
//! while not in force mode. When a move (its own or the opponent's) ends the
//! game by the variant's rules, the 50-move rule, threefold repetition or
//! insufficient material, it announces the result, e.g.
//! `1-0 {White wins by checkmate}` or `1/2-1/2 {Draw by 3-fold repetition}`,
//! and stops playing until the next `new`, `setboard` or `undo`.
//!
//! Analysis mode (`analyze` until `exit`): the engine searches the current
//! position without end and prints thinking output (whatever `post` says),
//! never a move; moves, `undo`, `remove`, `new`, `variant`, `setboard`
//! change the position and restart the analysis; `.` answers
//! `stat01: TIME NODES PLY 0 MOVES`; `go`, `playother` and `result` leave
//! the mode as `exit` does.
//!
//! Pondering (after `hard`): once the engine has moved, it thinks on the
//! opponent's time in the position after the reply its principal variation
//! expects. If that reply comes, the search goes on with the engine's clock
//! (the budget counted from then); any other move, `force`, `new`, `easy`...
//! abandon it. `ping` is answered at once while pondering, and `?` does
//! nothing then.
//!
//! The search runs in the background: `?`, `force`, `new`, `result`, `quit`,
//! `ping` work while it thinks. A `ping` that arrives while the engine is
//! thinking on its move is answered right after the move, as the protocol
//! asks. Errors: `Error (unknown command): <line>`, `Illegal move: <move>`,
//! and for a bad `setboard` `tellusererror Illegal position` followed by
//! `Error (bad FEN): <details>`; the engine keeps running.

use super::session::{self, Engine, Protocol, SearchRequest};
use super::{new_game, parse_move_overhead, play_uci, tokens};
use crate::limits::{DEFAULT_MOVE_OVERHEAD, MAX_MOVE_OVERHEAD};
use crate::score::cecp_score;
use crate::{EvalChoice, Evaluator, Info, Limits, SearchParams, SearchResult};
use movegen::{Color, Move, VariantGame, VariantKind};
use std::io::{self, BufRead, Write};
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering::Relaxed};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The `feature` line sent on `protover 2`; `variants=` lists the registry's
/// CECP names.
pub fn features() -> String {
    format!(
        "feature myname=\"varia\" variants=\"{}\" setboard=1 usermove=1 ping=1 \
sigint=0 sigterm=0 san=0 colors=0 memory=1 smp=1 analyze=1 reuse=1 \
option=\"Move Overhead -spin {} 0 {}\" option=\"EvalFile -file \" done=1",
        VariantKind::cecp_names().join(","),
        DEFAULT_MOVE_OVERHEAD.as_millis(),
        MAX_MOVE_OVERHEAD.as_millis()
    )
}

/// Commands that are accepted and need nothing done.
const IGNORED: &[&str] = &[
    "xboard", "random", "computer", "name", "accepted", "rejected", "draw", "white", "black",
    "ics", "nps", "hint", "bk", "exit", ".",
];

/// Runs the CECP loop until `quit` or the end of `input` (a search that is
/// running then is stopped and its move is printed).
pub fn run<R, W>(input: R, output: W) -> io::Result<()>
where
    R: BufRead + Send + 'static,
    W: Write + Send + 'static,
{
    session::run::<Xboard, R, W>(input, output)
}

/// The CECP engine's state: the shared engine plus force mode, the side
/// played, the time control and the pending `pong`s.
struct Xboard {
    engine: Engine,
    force: bool,
    /// The side the engine plays when not in force mode.
    engine_side: Color,
    /// Moves per time control (0: the whole game), base time, increment.
    mps: u32,
    base: Duration,
    inc: Duration,
    /// Fixed time per move (`st`).
    st: Option<Duration>,
    /// Depth limit (`sd`).
    sd: Option<u32>,
    /// Clocks from `time` and `otim`.
    our_time: Option<Duration>,
    opp_time: Option<Duration>,
    post: Arc<AtomicBool>,
    /// `ping`s received while thinking, answered after the move.
    pending_pongs: Vec<String>,
    /// The result of the current position was announced already.
    announced: bool,
    /// Pondering is on (`hard`; `easy` turns it off).
    ponder_allowed: bool,
    /// While pondering: the opponent's reply the search expects (it
    /// searches the position after it).
    pondering: Option<Move>,
    /// Analysis mode (`analyze` until `exit`).
    analyzing: bool,
    /// The analysis search's start and last completed depth, for `.`.
    analysis_start: Instant,
    analysis_depth: Arc<AtomicU32>,
    /// The `EvalFile` option as [`EvalChoice::parse`] read it (empty: the
    /// game's default evaluation).
    eval: EvalChoice,
    /// The evaluation in use has been announced (`# evaluation: ...`); the
    /// next search announces it if not.
    eval_announced: bool,
}

/// Parses `level`'s base time: minutes (`5`, `0.5`) or `min:sec` (`0:30`).
fn parse_base(text: &str) -> Option<Duration> {
    let secs = match text.split_once(':') {
        Some((m, s)) => m.parse::<u64>().ok()? as f64 * 60.0 + s.parse::<u64>().ok()? as f64,
        None => text.parse::<f64>().ok()? * 60.0,
    };
    seconds(secs)
}

/// A non-negative, finite number of seconds as a duration.
fn seconds(secs: f64) -> Option<Duration> {
    (secs.is_finite() && (0.0..1e9).contains(&secs)).then(|| Duration::from_secs_f64(secs))
}

/// Centiseconds (possibly negative: a flagged clock) as a duration.
fn centiseconds(text: &str) -> Option<Duration> {
    text.parse::<i64>()
        .ok()
        .map(|cs| Duration::from_millis(cs.clamp(0, i64::MAX / 10) as u64 * 10))
}

/// The thinking-output line of an iteration: `ply score time nodes pv`, time
/// in centiseconds, mates as `100000 + moves` (negative when being mated).
pub fn post_line(info: &Info) -> String {
    let pv: Vec<String> = info.pv.iter().map(|m| m.uci()).collect();
    format!(
        "{} {} {} {} {}",
        info.depth,
        cecp_score(info.score),
        info.time_ms / 10,
        info.nodes,
        pv.join(" ")
    )
}

impl Protocol for Xboard {
    /// CECP's `quit` ends the engine at once; no move is owed.
    const QUIT_REPORTS: bool = false;

    fn new(engine: Engine) -> Xboard {
        Xboard {
            engine,
            force: false,
            engine_side: Color::Black,
            mps: 40,
            base: Duration::from_secs(300),
            inc: Duration::ZERO,
            st: None,
            sd: None,
            our_time: None,
            opp_time: None,
            post: Arc::new(AtomicBool::new(false)),
            pending_pongs: Vec::new(),
            announced: false,
            ponder_allowed: false,
            pondering: None,
            analyzing: false,
            analysis_start: Instant::now(),
            analysis_depth: Arc::new(AtomicU32::new(0)),
            eval: EvalChoice::Default,
            eval_announced: false,
        }
    }

    fn engine(&mut self) -> &mut Engine {
        &mut self.engine
    }

    /// Handles one line; `false` on `quit`. In analysis mode a search of
    /// the current position is always running: a command that stopped it
    /// (a move, `undo`, `new`, `setboard`...) starts a new one.
    fn command(&mut self, line: &str) -> bool {
        let go_on = self.handle(line);
        if go_on && self.analyzing && self.engine.running.is_none() {
            self.start_analysis();
        }
        go_on
    }

    /// The engine's search ended: play its move.
    fn finished(&mut self, _searched: VariantGame, result: SearchResult) {
        if self.analyzing {
            // An analysis only ends when stopped: it has no move to play.
            return;
        }
        if self.pondering.take().is_some() {
            // Pondering stopped before the opponent moved: no move to play.
            return;
        }
        match result.best.map(|m| m.uci()) {
            Some(m) => match play_uci(&mut self.engine.game, &m) {
                Ok(_) => {
                    self.engine.out.line(&format!("move {m}"));
                    self.announced = false;
                    if !self.announce_end() && self.ponder_allowed && !self.force {
                        self.start_pondering(&result.pv);
                    }
                }
                Err(e) => self.engine.out.line(&format!("# internal error: {e}")),
            },
            None => {
                self.announce_end();
            }
        }
        self.flush_pongs();
    }

    fn end_of_input(&mut self) {
        self.engine.stop();
    }
}

impl Xboard {
    /// One command (see [`Protocol::command`]).
    fn handle(&mut self, line: &str) -> bool {
        let toks = tokens(line);
        let Some(&(_, cmd)) = toks.first() else {
            return true;
        };
        let arg = toks.get(1).map(|t| t.1);
        let rest = toks.get(1).map_or("", |t| line[t.0..].trim());
        match cmd {
            "protover" => {
                if arg.and_then(|v| v.parse::<u32>().ok()).unwrap_or(0) >= 2 {
                    self.engine.out.line(&features());
                }
            }
            "new" => self.new_command(),
            "variant" => match arg.and_then(VariantKind::from_protocol_name) {
                Some(kind) => {
                    self.abort_search();
                    self.engine.kind = kind;
                    self.load_eval();
                    self.engine.settings = Arc::new(SearchParams::default_for(kind));
                    self.reset_game();
                }
                None => self.error("unsupported variant", line.trim()),
            },
            "force" => {
                self.abort_search();
                self.force = true;
            }
            "analyze" => {
                self.abort_search();
                self.analyzing = true;
            }
            "exit" => {
                if self.analyzing {
                    self.abort_search();
                    self.analyzing = false;
                }
            }
            "." => self.analysis_status(),
            "go" => {
                self.analyzing = false;
                self.abort_search();
                self.force = false;
                self.engine_side = self.engine.game.turn();
                self.announced = false;
                self.think();
            }
            "playother" => {
                self.analyzing = false;
                self.abort_search();
                self.force = false;
                self.engine_side = self.engine.game.turn().other();
            }
            "usermove" => match arg {
                Some(m) => self.user_move(m),
                None => self.error("missing move", line.trim()),
            },
            "setboard" => self.setboard(rest),
            "level" => self.level(&toks, line),
            "st" => match arg.and_then(|a| a.parse::<f64>().ok()).and_then(seconds) {
                Some(t) => self.st = Some(t),
                None => self.error("bad time", line.trim()),
            },
            "sd" => match arg.and_then(|a| a.parse::<u32>().ok()) {
                Some(d) if d > 0 => self.sd = Some(d),
                _ => self.error("bad depth", line.trim()),
            },
            "time" | "otim" => match arg.and_then(centiseconds) {
                Some(t) if cmd == "time" => self.our_time = Some(t),
                Some(t) => self.opp_time = Some(t),
                None => self.error("bad time", line.trim()),
            },
            "hard" => self.ponder_allowed = true,
            "easy" => {
                self.ponder_allowed = false;
                if self.pondering.is_some() {
                    self.abort_search();
                }
            }
            "ping" => self.ping(rest),
            "result" => {
                self.analyzing = false;
                self.abort_search();
                self.force = true;
                self.announced = true;
            }
            "memory" => match arg.and_then(|a| a.parse::<u64>().ok()) {
                Some(asked) => self.memory(asked),
                None => self.error("bad memory size", line.trim()),
            },
            "cores" => match arg.and_then(|a| a.parse::<u64>().ok()) {
                Some(n) => self.engine.threads = crate::settings::clamp_threads(n),
                None => self.error("bad number of cores", line.trim()),
            },
            "option" => self.option(rest),
            "post" => self.post.store(true, Relaxed),
            "nopost" => self.post.store(false, Relaxed),
            "undo" => self.take_back(1),
            "remove" => self.take_back(2),
            // Move now; while pondering there is no move of ours to make.
            "?" if self.thinking_on_its_move() => self.engine.stop(),
            "?" => {}
            "quit" => return false,
            _ if IGNORED.contains(&cmd) => {}
            _ if looks_like_move(cmd) && toks.len() == 1 => self.user_move(cmd),
            _ => self.error("unknown command", line.trim()),
        }
        true
    }

    /// `new`: a chess game from the start, the engine playing Black, no
    /// depth or clock limits.
    fn new_command(&mut self) {
        self.abort_search();
        self.engine.kind = VariantKind::Chess;
        self.load_eval();
        self.engine.settings = Arc::new(SearchParams::default_for(VariantKind::Chess));
        self.engine.new_table();
        self.reset_game();
        self.force = false;
        self.engine_side = Color::Black;
        self.sd = None;
        self.our_time = None;
        self.opp_time = None;
    }

    /// `ping N`: answered at once, or right after the move the engine is
    /// thinking on.
    fn ping(&mut self, n: &str) {
        if self.thinking_on_its_move() {
            self.pending_pongs.push(n.to_string());
        } else {
            self.engine.out.line(&format!("pong {n}"));
        }
    }

    /// `memory N`: the table size, clamped to the bounds with a comment.
    fn memory(&mut self, asked: u64) {
        let (mb, clamped) = crate::settings::clamp_hash_mb(asked);
        if clamped.is_some() {
            self.engine.out.line(&format!(
                "# memory {asked} MB is out of range: using {mb} MB (1 to {} MB)",
                crate::settings::max_hash_mb()
            ));
        }
        self.engine.set_hash_mb(mb);
    }

    /// `undo` (one ply) and `remove` (two plies).
    fn take_back(&mut self, plies: usize) {
        self.abort_search();
        if plies == 1 {
            if !self.engine.game.undo() {
                self.error("no move to undo", "undo");
            }
        } else if self.engine.game.ply() < plies {
            self.error("no moves to remove", "remove");
        } else {
            for _ in 0..plies {
                self.engine.game.undo();
            }
        }
        self.announced = false;
    }

    fn error(&self, kind: &str, what: &str) {
        self.engine.out.line(&format!("Error ({kind}): {what}"));
    }

    /// Stops a running search (or pondering) and forgets its move.
    fn abort_search(&mut self) {
        if let Some(r) = self.engine.running.take() {
            r.abort();
        }
        self.pondering = None;
        self.flush_pongs();
    }

    /// `true` while the engine thinks on its own move (not pondering, not
    /// analysing).
    fn thinking_on_its_move(&self) -> bool {
        self.engine.running.is_some() && self.pondering.is_none() && !self.analyzing
    }

    /// Analysis mode: searches the current position until something stops
    /// it, with thinking output whatever `post` says; nothing if the game
    /// is over.
    fn start_analysis(&mut self) {
        if self.engine.game.outcome().is_some() {
            return;
        }
        let limits = Limits {
            infinite: true,
            ..Limits::default()
        };
        let out = self.engine.out.clone();
        let depth = self.analysis_depth.clone();
        depth.store(0, Relaxed);
        self.analysis_start = Instant::now();
        let on_info = Box::new(move |info: &Info| {
            depth.store(info.depth, Relaxed);
            out.line(&post_line(info));
        });
        let request = SearchRequest::new(self.engine.game.clone(), limits, true, on_info);
        self.engine.start_search(request);
    }

    /// `.` in analysis mode: `stat01: TIME NODES PLY MVLEFT MVTOT`, time in
    /// centiseconds, the depth being searched, and the root moves (the
    /// search does not count the ones left at the root, so `MVLEFT` is 0).
    fn analysis_status(&self) {
        if !self.analyzing || self.engine.running.is_none() {
            return;
        }
        let cs = self.analysis_start.elapsed().as_millis() / 10;
        let nodes = self.engine.shared.nodes.load(Relaxed);
        let ply = self.analysis_depth.load(Relaxed) + 1;
        let total = self.engine.game.legal_moves().len();
        self.engine
            .out
            .line(&format!("stat01: {cs} {nodes} {ply} 0 {total}"));
    }

    /// After the engine's move: think on the opponent's time, in the
    /// position after the reply `pv` expects (`pv[0]` is the move played).
    fn start_pondering(&mut self, pv: &[Move]) {
        let Some(&reply) = pv.get(1) else {
            return;
        };
        let mut game = self.engine.game.clone();
        if play_uci(&mut game, &reply.uci()).is_err() || game.outcome().is_some() {
            return;
        }
        let limits = self.limits_for(&game);
        let mut request = SearchRequest::new(game, limits, false, self.post_output());
        request.ponder = true;
        self.engine.start_search(request);
        self.pondering = Some(reply);
    }

    /// The thinking output of a search: `post` lines while `post` is on.
    fn post_output(&self) -> Box<dyn FnMut(&Info) + Send> {
        let out = self.engine.out.clone();
        let post = self.post.clone();
        Box::new(move |info: &Info| {
            if post.load(Relaxed) {
                out.line(&post_line(info));
            }
        })
    }

    fn flush_pongs(&mut self) {
        for n in std::mem::take(&mut self.pending_pongs) {
            self.engine.out.line(&format!("pong {n}"));
        }
    }

    fn reset_game(&mut self) {
        self.engine.reset_game();
        self.announced = false;
    }

    fn setboard(&mut self, fen: &str) {
        self.abort_search();
        match new_game(self.engine.kind, Some(fen)) {
            Ok(g) => {
                self.engine.game = g;
                self.announced = false;
            }
            Err(e) => {
                self.engine.out.line("tellusererror Illegal position");
                self.error("bad FEN", &format!("{fen}: {e}"));
            }
        }
    }

    /// `option NAME=VALUE`: the options announced in [`features`].
    fn option(&mut self, setting: &str) {
        let (name, value) = setting.split_once('=').unwrap_or((setting, ""));
        match name.trim() {
            "Move Overhead" => match parse_move_overhead(value) {
                Some(t) => self.engine.move_overhead = t,
                None => self.error("bad option value", setting),
            },
            "EvalFile" => {
                let choice = EvalChoice::parse(value.trim());
                match Evaluator::choose(self.engine.kind, &choice) {
                    Ok(ev) => {
                        self.eval = choice;
                        self.engine.evaluator = Arc::new(ev);
                        self.announce_eval(false);
                    }
                    Err(e) => {
                        let kept = self.engine.evaluator.to_string();
                        self.error(
                            &format!("EvalFile not loaded, keeping the {kept} evaluation"),
                            &e.to_string(),
                        );
                    }
                }
            }
            _ => self.error("unknown option", setting),
        }
    }

    /// The evaluation of the current game: `EvalFile`'s, or the built-in
    /// one without it or when it cannot be used for this game.
    fn load_eval(&mut self) {
        let kind = self.engine.kind;
        match Evaluator::choose(kind, &self.eval) {
            Ok(ev) => {
                self.engine.evaluator = Arc::new(ev);
                self.eval_announced = false;
                if matches!(self.eval, EvalChoice::File(_)) {
                    self.announce_eval(false);
                }
            }
            Err(e) => {
                self.error(
                    "EvalFile not loaded, using the built-in evaluation",
                    &e.to_string(),
                );
                // The file stays the option's value: the next game of its
                // variant plays it again.
                self.engine.evaluator = Arc::new(Evaluator::default_for(kind));
                self.announce_eval(true);
            }
        }
    }

    /// `# evaluation: ...`: which evaluation plays (a comment line), read
    /// from `EvalFile`'s file or built in (also when `fell_back` from a
    /// file that cannot play this game).
    fn announce_eval(&mut self, fell_back: bool) {
        let what = self.engine.evaluator.to_string();
        let line = match &self.eval {
            EvalChoice::File(path) if !fell_back => {
                format!("# evaluation: {what} from {}", path.display())
            }
            _ => format!("# evaluation: {what} (built in)"),
        };
        self.engine.out.line(&line);
        self.eval_announced = true;
    }

    fn level(&mut self, toks: &[(usize, &str)], line: &str) {
        let words: Vec<&str> = toks.iter().map(|t| t.1).collect();
        let parsed = match words.as_slice() {
            [_, mps, base, inc] => (|| {
                let mps = mps.parse::<u32>().ok()?;
                let base = parse_base(base)?;
                let inc = seconds(inc.parse::<f64>().ok()?)?;
                Some((mps, base, inc))
            })(),
            _ => None,
        };
        match parsed {
            Some((mps, base, inc)) => {
                self.mps = mps;
                self.base = base;
                self.inc = inc;
                self.st = None;
            }
            None => self.error("bad level", line.trim()),
        }
    }

    fn user_move(&mut self, text: &str) {
        if self.analyzing {
            // The analysis restarts on the new position (see `command`).
            self.abort_search();
            if play_uci(&mut self.engine.game, text).is_err() {
                self.engine.out.line(&format!("Illegal move: {text}"));
            }
            return;
        }
        if let Some(expected) = self.pondering {
            let mut after = self.engine.game.clone();
            if play_uci(&mut after, text).is_ok_and(|m| m == expected) {
                // Ponder hit: the search goes on, now on our clock.
                self.engine.game = after;
                self.announced = false;
                self.pondering = None;
                let limits = self.limits_for(&self.engine.game);
                if let Some(r) = &self.engine.running {
                    r.ponderhit_with(&limits);
                }
                return;
            }
            self.abort_search();
        }
        if self.engine.running.is_some() {
            // The engine is thinking on its own move: not the opponent's
            // turn.
            self.engine
                .out
                .line(&format!("Illegal move (engine is thinking): {text}"));
            return;
        }
        if play_uci(&mut self.engine.game, text).is_err() {
            self.engine.out.line(&format!("Illegal move: {text}"));
            return;
        }
        self.announced = false;
        if self.announce_end() {
            return;
        }
        if !self.force && self.engine.game.turn() == self.engine_side {
            self.think();
        }
    }

    /// Announces the result if the game is over (once per position);
    /// `true` if it is over.
    fn announce_end(&mut self) -> bool {
        let Some(o) = self.engine.game.outcome() else {
            return false;
        };
        if !self.announced {
            self.announced = true;
            self.engine
                .out
                .line(&format!("{} {{{}}}", o.result_str(), o.description()));
        }
        true
    }

    /// The limits of a search of `game`'s position, on the engine's clock.
    fn limits_for(&self, game: &VariantGame) -> Limits {
        let mut limits = Limits {
            depth: self.sd,
            ..Limits::default()
        };
        if let Some(st) = self.st {
            limits.movetime = Some(st);
            return limits;
        }
        let ours = self.our_time.unwrap_or(self.base);
        let theirs = self.opp_time.unwrap_or(self.base);
        let (w, b) = match game.turn() {
            Color::White => (ours, theirs),
            Color::Black => (theirs, ours),
        };
        limits.wtime = Some(w);
        limits.btime = Some(b);
        limits.winc = self.inc;
        limits.binc = self.inc;
        if self.mps > 0 {
            let made = (game.ply() / 2) as u32;
            limits.movestogo = Some(self.mps - made % self.mps);
        }
        limits
    }

    /// Starts thinking on the engine's move, unless the game is over.
    fn think(&mut self) {
        if self.announce_end() {
            return;
        }
        if !self.eval_announced {
            self.announce_eval(false);
        }
        let limits = self.limits_for(&self.engine.game);
        let request =
            SearchRequest::new(self.engine.game.clone(), limits, false, self.post_output());
        self.engine.start_search(request);
    }
}

/// `true` for text shaped like a coordinate move (`e2e4`, `e7e8q`).
fn looks_like_move(text: &str) -> bool {
    let b = text.as_bytes();
    (4..=5).contains(&b.len())
        && (b'a'..=b'h').contains(&b[0])
        && (b'1'..=b'8').contains(&b[1])
        && (b'a'..=b'h').contains(&b[2])
        && (b'1'..=b'8').contains(&b[3])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn level_base_times() {
        assert_eq!(parse_base("5"), Some(Duration::from_secs(300)));
        assert_eq!(parse_base("0:30"), Some(Duration::from_secs(30)));
        assert_eq!(parse_base("0.5"), Some(Duration::from_secs(30)));
        assert_eq!(parse_base("x"), None);
        assert_eq!(parse_base("-1"), None);
        assert_eq!(centiseconds("-50"), Some(Duration::ZERO));
        assert_eq!(centiseconds("150"), Some(Duration::from_millis(1500)));
    }

    #[test]
    fn moves_are_recognised() {
        assert!(looks_like_move("e2e4"));
        assert!(looks_like_move("b7b8m"));
        assert!(!looks_like_move("edit"));
        assert!(!looks_like_move("e9e4"));
    }
}
