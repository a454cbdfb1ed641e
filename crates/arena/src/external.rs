//! External engines over UCI or CECP (XBoard protocol 2).
//!
//! Each engine runs as a child process. A reader thread per process turns its
//! standard output into a channel of lines, so every wait has a deadline: the
//! handshake and `isready`/`ping` waits use `timeout=`, a move waits for the
//! player's clock (or fixed move time) plus `margin=`, and a move limited only
//! by nodes or depth waits `timeout=`. A closed pipe is a crash; a missed
//! deadline is a loss on time, after which the process is killed and
//! [`Player::restart`] starts a fresh one.
//!
//! Settings (`EngineSpec::settings`):
//!
//! | key | meaning |
//! |---|---|
//! | `cmd=PATH` | engine binary (required); a relative path containing `/` is taken from the current directory |
//! | `args=A B ...` | space-separated arguments |
//! | `dir=PATH` | working directory of the engine |
//! | `proto=uci\|xboard` | protocol (default `uci`; `cecp` is an alias of `xboard`) |
//! | `option.NAME=VALUE` | UCI `setoption`; in CECP `option.Hash`/`option.memory` → `memory N`, `option.Threads`/`option.cores` → `cores N`, others `option NAME=VALUE` (the engine must announce them) |
//! | `initstr=TEXT` | sent to the engine after the handshake (`\n` separates lines) |
//! | `timeout=SECONDS` | handshake/ready timeout and the wait for moves without a clock (default 30) |
//! | `margin=SECONDS` | extra wait beyond the clock or move time before giving up (default 1) |
//! | `stderr=PATH\|inherit` | where the engine's standard error goes (default: discarded) |
//! | `log=PATH` | append the protocol traffic to a file (debugging) |
//!
//! Moves go to engines in UCI coordinates from the start of the game (UCI
//! `position startpos moves ...` when the game began at the variant's start
//! position, so engines' FEN dialects never matter for openings given as
//! moves). Replies are normalized: coordinate moves with `-`/`x`, `=Q` or an
//! uppercase promotion letter, castling as `O-O` or king-takes-rook, and SAN
//! are all turned into varia's UCI; anything that cannot be read is passed on
//! unchanged and loses the game as an illegal move.
//!
//! A CECP `resign` loses the game by adjudication, and so does a result the
//! engine claims for its opponent instead of moving (`0-1 {...}` from White);
//! any other result claimed instead of a move is a protocol error (the game
//! is lost as a crash and the engine restarted). Claims made after a move are
//! ignored: games end by varia's rules.

use crate::player::{MoveReply, MoveRequest, Player, PlayerError};
use crate::runner::EngineSpec;
use crate::tc::MoveLimits;
use movegen::{dispatch, Game, Position, VariantKind};
use std::fs::File;
use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// Starts an external engine from its settings (see the module docs) and
/// completes the protocol handshake.
pub fn spawn(spec: &EngineSpec) -> Result<Box<dyn Player>, String> {
    let s = Settings::from_spec(spec)?;
    Ok(match s.proto {
        Protocol::Uci => Box::new(UciPlayer::start(s).map_err(|e| e.to_string())?),
        Protocol::Xboard => Box::new(CecpPlayer::start(s).map_err(|e| e.to_string())?),
    })
}

/// Like [`spawn`], and also checks that the engine plays `variant`, so that a
/// match fails at once with a clear message instead of losing every game.
pub fn spawn_for(spec: &EngineSpec, variant: VariantKind) -> Result<Box<dyn Player>, String> {
    let s = Settings::from_spec(spec)?;
    Ok(match s.proto {
        Protocol::Uci => {
            let p = UciPlayer::start(s).map_err(|e| e.to_string())?;
            p.check_variant(variant).map_err(|e| e.to_string())?;
            Box::new(p)
        }
        Protocol::Xboard => {
            let p = CecpPlayer::start(s).map_err(|e| e.to_string())?;
            p.check_variant(variant).map_err(|e| e.to_string())?;
            Box::new(p)
        }
    })
}

/// `true` if the settings describe an external engine (a `cmd=` is given).
pub fn is_external(spec: &EngineSpec) -> bool {
    spec.get("cmd").is_some()
}

/// The protocol an engine speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Protocol {
    /// UCI.
    Uci,
    /// CECP (XBoard/WinBoard protocol version 2).
    Xboard,
}

/// Parsed settings of an external engine.
#[derive(Clone, Debug, PartialEq)]
pub struct Settings {
    /// Name in results and messages.
    pub name: String,
    /// The binary.
    pub cmd: PathBuf,
    /// Its arguments.
    pub args: Vec<String>,
    /// Its working directory.
    pub dir: Option<PathBuf>,
    /// Its protocol.
    pub proto: Protocol,
    /// `option.NAME=VALUE` settings, in order.
    pub options: Vec<(String, String)>,
    /// Lines sent after the handshake.
    pub initstr: Vec<String>,
    /// Handshake timeout and the wait for moves without a clock.
    pub timeout: Duration,
    /// Extra wait beyond the clock or move time.
    pub margin: Duration,
    /// Where standard error goes: `None` discards it.
    pub stderr: Option<String>,
    /// Protocol log file.
    pub log: Option<PathBuf>,
}

/// Setting keys that belong to the match, not to the engine, and are ignored here.
const MATCH_KEYS: &[&str] = &[
    "name", "tc", "st", "nodes", "depth", "movetime", "ponder", "restart", "variant",
];

impl Settings {
    /// Reads and checks the settings; the error is one line.
    pub fn from_spec(spec: &EngineSpec) -> Result<Settings, String> {
        let name = &spec.name;
        let mut s = Settings {
            name: name.clone(),
            cmd: PathBuf::new(),
            args: Vec::new(),
            dir: None,
            proto: Protocol::Uci,
            options: Vec::new(),
            initstr: Vec::new(),
            timeout: Duration::from_secs(30),
            margin: Duration::from_secs(1),
            stderr: None,
            log: None,
        };
        let seconds = |key: &str, v: &str| -> Result<Duration, String> {
            v.trim()
                .parse::<f64>()
                .ok()
                .filter(|x| x.is_finite() && *x > 0.0 && *x < 1e6)
                .map(Duration::from_secs_f64)
                .ok_or_else(|| {
                    format!("engine {name}: {key}={v}: expected a positive number of seconds")
                })
        };
        let mut cmd = None;
        for (k, v) in &spec.settings {
            match k.as_str() {
                "cmd" => cmd = Some(v.clone()),
                "args" => s.args = v.split_whitespace().map(str::to_string).collect(),
                "dir" => s.dir = Some(PathBuf::from(v)),
                "proto" | "protocol" => {
                    s.proto = match v.to_ascii_lowercase().as_str() {
                        "uci" => Protocol::Uci,
                        "xboard" | "cecp" | "winboard" => Protocol::Xboard,
                        _ => {
                            return Err(format!("engine {name}: proto={v}: expected uci or xboard"))
                        }
                    }
                }
                "initstr" => {
                    s.initstr = v
                        .replace("\\n", "\n")
                        .lines()
                        .map(|l| l.trim().to_string())
                        .filter(|l| !l.is_empty())
                        .collect()
                }
                "timeout" => s.timeout = seconds(k, v)?,
                "margin" => s.margin = seconds(k, v)?,
                "stderr" => s.stderr = Some(v.clone()),
                "log" => s.log = Some(PathBuf::from(v)),
                _ => {
                    if let Some(opt) = k.strip_prefix("option.") {
                        if opt.trim().is_empty() {
                            return Err(format!(
                                "engine {name}: option. needs a name (option.NAME=VALUE)"
                            ));
                        }
                        if opt.contains(['\n', '\r']) || v.contains(['\n', '\r']) {
                            return Err(format!(
                                "engine {name}: option {opt}: line breaks are not allowed"
                            ));
                        }
                        s.options.push((opt.to_string(), v.clone()));
                    } else if !MATCH_KEYS.contains(&k.as_str()) {
                        return Err(format!(
                            "engine {name}: unknown setting {k}= (external engines take cmd, args, dir, proto, option.NAME, initstr, timeout, margin, stderr, log)"
                        ));
                    }
                }
            }
        }
        let cmd = match cmd {
            Some(c) if !c.trim().is_empty() => c,
            _ => {
                return Err(format!(
                    "engine {name}: cmd= is required (path to the engine binary)"
                ))
            }
        };
        let mut path = PathBuf::from(cmd.trim());
        if path.is_relative() && path.components().count() > 1 {
            if let Ok(cwd) = std::env::current_dir() {
                path = cwd.join(path);
            }
        }
        s.cmd = path;
        if let Some(d) = &s.dir {
            if !d.is_dir() {
                return Err(format!(
                    "engine {name}: dir={}: not a directory",
                    d.display()
                ));
            }
        }
        Ok(s)
    }
}

// ---------------------------------------------------------------------------
// The process and its lines.

/// A running engine: its stdin, and its stdout as a channel of lines.
struct Process {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    log: Option<File>,
    name: String,
}

impl Process {
    fn start(s: &Settings) -> Result<Process, PlayerError> {
        let mut cmd = Command::new(&s.cmd);
        cmd.args(&s.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped());
        match s.stderr.as_deref() {
            None => {
                cmd.stderr(Stdio::null());
            }
            Some("inherit") => {
                cmd.stderr(Stdio::inherit());
            }
            Some(path) => {
                let f = std::fs::OpenOptions::new()
                    .create(true)
                    .append(true)
                    .open(path)
                    .map_err(|e| PlayerError::Setup(format!("stderr={path}: {e}")))?;
                cmd.stderr(f);
            }
        }
        if let Some(d) = &s.dir {
            cmd.current_dir(d);
        }
        let mut child = cmd
            .spawn()
            .map_err(|e| PlayerError::Setup(format!("cannot start {}: {e}", s.cmd.display())))?;
        let (stdin, stdout) = match (child.stdin.take(), child.stdout.take()) {
            (Some(i), Some(o)) => (i, o),
            _ => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(PlayerError::Setup("no pipes to the engine".into()));
            }
        };
        let (tx, rx) = mpsc::channel();
        let reader = std::thread::Builder::new()
            .name(format!("engine-{}", s.name))
            .spawn(move || {
                let mut r = BufReader::new(stdout);
                let mut buf = Vec::new();
                loop {
                    buf.clear();
                    match r.read_until(b'\n', &mut buf) {
                        Ok(0) | Err(_) => break,
                        Ok(_) => {
                            let line = String::from_utf8_lossy(&buf);
                            let line = line.trim_end_matches(['\n', '\r']).to_string();
                            if tx.send(line).is_err() {
                                break;
                            }
                        }
                    }
                }
            });
        if let Err(e) = reader {
            let _ = child.kill();
            let _ = child.wait();
            return Err(PlayerError::Setup(format!(
                "cannot start a reader thread: {e}"
            )));
        }
        let log = match &s.log {
            Some(p) => Some(
                std::fs::OpenOptions::new()
                    .create(true)
                    .append(true)
                    .open(p)
                    .map_err(|e| PlayerError::Setup(format!("log={}: {e}", p.display())))?,
            ),
            None => None,
        };
        Ok(Process {
            child,
            stdin: Some(stdin),
            lines: rx,
            log,
            name: s.name.clone(),
        })
    }

    fn log(&mut self, dir: &str, line: &str) {
        if let Some(f) = self.log.as_mut() {
            let _ = writeln!(f, "{} {dir} {line}", self.name);
        }
    }

    /// Sends one line.
    fn send(&mut self, line: &str) -> Result<(), PlayerError> {
        self.log(">", line);
        let Some(stdin) = self.stdin.as_mut() else {
            return Err(PlayerError::Crashed("engine input is closed".into()));
        };
        let r = stdin
            .write_all(line.as_bytes())
            .and_then(|_| stdin.write_all(b"\n"))
            .and_then(|_| stdin.flush());
        match r {
            Ok(()) => Ok(()),
            Err(e) => Err(PlayerError::Crashed(format!(
                "writing to the engine: {e}{}",
                self.exit_note()
            ))),
        }
    }

    /// The next line, waiting until `deadline` at most.
    fn recv(&mut self, deadline: Instant) -> Result<String, PlayerError> {
        let wait = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(wait) {
            Ok(line) => {
                self.log("<", &line);
                Ok(line)
            }
            Err(RecvTimeoutError::Timeout) => Err(PlayerError::Timeout),
            Err(RecvTimeoutError::Disconnected) => Err(PlayerError::Crashed(format!(
                "engine output closed{}",
                self.exit_note()
            ))),
        }
    }

    /// `" (exit status ...)"` if the process has ended (waits briefly).
    fn exit_note(&mut self) -> String {
        for _ in 0..20 {
            match self.child.try_wait() {
                Ok(Some(status)) => return format!(" ({status})"),
                Ok(None) => std::thread::sleep(Duration::from_millis(5)),
                Err(_) => break,
            }
        }
        String::new()
    }

    fn kill(&mut self) {
        self.stdin = None;
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.send("quit");
            self.stdin = None;
            let until = Instant::now() + Duration::from_millis(300);
            while Instant::now() < until {
                match self.child.try_wait() {
                    Ok(None) => std::thread::sleep(Duration::from_millis(5)),
                    _ => break,
                }
            }
        }
        self.kill();
    }
}

// ---------------------------------------------------------------------------
// Helpers shared by both protocols.

/// The game as replayed by varia: the start FEN in varia's dialect (always
/// with the threecheck counters), whether it is the variant's start position,
/// and the side to move now.
struct Replay {
    fen: String,
    is_start: bool,
    white_to_move: bool,
}

fn replay(variant: VariantKind, fen: &str, moves: &[String]) -> Result<Replay, PlayerError> {
    dispatch!(variant, V => {
        let start = Position::<V>::from_fen(fen)
            .map_err(|e| PlayerError::Setup(format!("start position {fen}: {e}")))?;
        let canon = start.fen();
        let is_start = canon == Position::<V>::startpos().fen();
        let mut game = Game::new(start);
        for m in moves {
            game.play_uci(m).map_err(|e| PlayerError::Protocol(e.to_string()))?;
        }
        Ok(Replay { fen: canon, is_start, white_to_move: game.position().turn().is_white() })
    })
}

/// Turns an engine's move text into varia's UCI, if it names a legal move in
/// the position after `moves`; otherwise returns the text unchanged (the game
/// then ends as an illegal move).
pub fn normalize_move(variant: VariantKind, fen: &str, moves: &[String], text: &str) -> String {
    let raw = text.trim();
    let t = raw.trim_end_matches(['+', '#', '!', '?']);
    dispatch!(variant, V => {
        let Ok(start) = Position::<V>::from_fen(fen) else { return raw.to_string() };
        let mut game = Game::new(start);
        for m in moves {
            if game.play_uci(m).is_err() {
                return raw.to_string();
            }
        }
        let pos = game.position();
        if let Some(c) = coordinate_form(t) {
            if let Ok(m) = pos.parse_uci(&c) {
                return m.uci();
            }
            // Knightmate engines may call the commoner a knight.
            if variant == VariantKind::Knightmate && c.len() == 5 && c.ends_with('n') {
                if let Ok(m) = pos.parse_uci(&format!("{}m", &c[..4])) {
                    return m.uci();
                }
            }
        }
        match pos.parse_san(t) {
            Ok(m) => m.uci(),
            Err(_) => raw.to_string(),
        }
    })
}

/// `e2e4`, `e2-e4`, `e2xe4`, `e7e8Q`, `e7e8=q` → lowercase UCI text.
fn coordinate_form(t: &str) -> Option<String> {
    let b = t.as_bytes();
    let square = |i: usize| {
        b.get(i).is_some_and(|c| (b'a'..=b'h').contains(c))
            && b.get(i + 1).is_some_and(|c| (b'1'..=b'8').contains(c))
    };
    if !square(0) {
        return None;
    }
    let mut i = 2;
    if matches!(b.get(i), Some(b'-' | b'x' | b':')) {
        i += 1;
    }
    if !square(i) {
        return None;
    }
    let mut out = format!("{}{}", &t[0..2], &t[i..i + 2]);
    let mut rest = &b[i + 2..];
    if rest.first() == Some(&b'=') {
        rest = &rest[1..];
    }
    match rest {
        [] => {}
        [p] if p.is_ascii_alphabetic() => out.push(p.to_ascii_lowercase() as char),
        _ => return None,
    }
    Some(out)
}

/// How long to wait for a move: the mover's clock or fixed move time plus
/// the margin, or the fixed timeout for moves limited by nodes or depth only.
fn move_wait(req: &MoveRequest, white: bool, s: &Settings) -> Duration {
    let l = req.limits;
    if l.tc.is_some() {
        if let Some(c) = req.clocks[if white { 0 } else { 1 }] {
            return c.left + s.margin;
        }
    }
    if let Some(t) = l.movetime {
        return t + s.margin;
    }
    s.timeout
}

/// The clocks from the mover's view: (own, opponent's) in milliseconds.
fn clocks_ms(req: &MoveRequest, white: bool) -> Option<(u128, u128)> {
    let (me, them) = if white { (0, 1) } else { (1, 0) };
    let own = req.clocks[me]?;
    let other = req.clocks[them].unwrap_or(own);
    Some((own.left.as_millis(), other.left.as_millis()))
}

/// Kills the process after a timeout or forgets it after a crash.
fn after_error(proc: &mut Option<Process>, e: &PlayerError) {
    if matches!(e, PlayerError::Timeout | PlayerError::Crashed(_)) {
        if let Some(mut p) = proc.take() {
            p.kill();
        }
    }
}

fn not_running() -> PlayerError {
    PlayerError::Crashed("engine is not running".into())
}

// ---------------------------------------------------------------------------
// UCI.

#[derive(Clone, Debug, PartialEq)]
struct UciOption {
    name: String,
    kind: String,
    vars: Vec<String>,
}

/// Parses `option name NAME type T [default D] [min A] [max B] [var V]...`.
fn parse_uci_option(line: &str) -> Option<UciOption> {
    let rest = line.strip_prefix("option")?.trim_start();
    let rest = rest.strip_prefix("name")?.trim_start();
    let toks: Vec<&str> = rest.split_whitespace().collect();
    let ti = toks.iter().position(|t| *t == "type")?;
    let name = toks[..ti].join(" ");
    let kind = toks.get(ti + 1).copied().unwrap_or("").to_string();
    let mut vars = Vec::new();
    let mut cur: Option<Vec<&str>> = None;
    for t in &toks[(ti + 2).min(toks.len())..] {
        match *t {
            "var" => {
                if let Some(v) = cur.take() {
                    vars.push(v.join(" "));
                }
                cur = Some(Vec::new());
            }
            "default" | "min" | "max" => {
                if let Some(v) = cur.take() {
                    vars.push(v.join(" "));
                }
            }
            _ => {
                if let Some(v) = cur.as_mut() {
                    v.push(t);
                }
            }
        }
    }
    if let Some(v) = cur {
        vars.push(v.join(" "));
    }
    (!name.is_empty()).then_some(UciOption { name, kind, vars })
}

/// Score of an `info` line from the mover's view: centipawns, or mates as
/// ±(`search::MATE` − plies).
fn parse_uci_score(line: &str) -> Option<i32> {
    let toks: Vec<&str> = line.split_whitespace().collect();
    if toks.get(1) == Some(&"string") {
        return None;
    }
    let i = toks.iter().position(|t| *t == "score")?;
    let v: i64 = toks.get(i + 2)?.parse().ok()?;
    let mate = i64::from(search::MATE);
    match *toks.get(i + 1)? {
        "cp" => Some(v.clamp(-mate + 1000, mate - 1000) as i32),
        "mate" => {
            let plies = if v > 0 { 2 * v - 1 } else { -2 * v };
            let plies = plies.min(1000);
            Some(if v > 0 { mate - plies } else { plies - mate } as i32)
        }
        _ => None,
    }
}

/// A UCI engine.
pub struct UciPlayer {
    s: Settings,
    proc: Option<Process>,
    options: Vec<UciOption>,
    /// The `UCI_Variant` value last sent to the running process.
    variant_sent: Option<VariantKind>,
}

impl UciPlayer {
    /// Starts the engine and completes the handshake.
    pub fn start(s: Settings) -> Result<UciPlayer, PlayerError> {
        let mut p = UciPlayer {
            s,
            proc: None,
            options: Vec::new(),
            variant_sent: None,
        };
        p.launch()?;
        Ok(p)
    }

    fn launch(&mut self) -> Result<(), PlayerError> {
        if let Some(mut old) = self.proc.take() {
            old.kill();
        }
        self.variant_sent = None;
        let mut proc = Process::start(&self.s)?;
        let r = self.handshake(&mut proc);
        match r {
            Ok(()) => {
                self.proc = Some(proc);
                Ok(())
            }
            Err(e) => {
                proc.kill();
                Err(e)
            }
        }
    }

    fn handshake(&mut self, proc: &mut Process) -> Result<(), PlayerError> {
        let secs = self.s.timeout.as_secs_f64();
        let deadline = Instant::now() + self.s.timeout;
        let setup = |e: PlayerError, what: &str| match e {
            PlayerError::Timeout => PlayerError::Setup(format!(
                "no {what} from the engine within {secs} s (is it a UCI engine? try proto=xboard)"
            )),
            PlayerError::Crashed(m) => {
                PlayerError::Setup(format!("engine exited during the handshake: {m}"))
            }
            e => e,
        };
        proc.send("uci").map_err(|e| setup(e, "uciok"))?;
        let mut options = Vec::new();
        loop {
            let line = proc.recv(deadline).map_err(|e| setup(e, "uciok"))?;
            let line = line.trim();
            if line == "uciok" {
                break;
            }
            if let Some(o) = parse_uci_option(line) {
                options.push(o);
            }
        }
        self.options = options;
        for (name, value) in &self.s.options {
            let Some(o) = self
                .options
                .iter()
                .find(|o| o.name.eq_ignore_ascii_case(name))
            else {
                return Err(PlayerError::Setup(format!(
                    "the engine has no UCI option {name} (it offers: {})",
                    self.options
                        .iter()
                        .map(|o| o.name.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                )));
            };
            let cmd = if o.kind == "button" {
                format!("setoption name {}", o.name)
            } else {
                format!("setoption name {} value {value}", o.name)
            };
            proc.send(&cmd)?;
        }
        for l in &self.s.initstr {
            proc.send(l)?;
        }
        proc.send("isready")?;
        loop {
            let line = proc.recv(deadline).map_err(|e| setup(e, "readyok"))?;
            if line.trim() == "readyok" {
                return Ok(());
            }
        }
    }

    /// The `UCI_Variant` value that selects `variant`, `None` for chess on an
    /// engine without the option; an error if the engine does not play it.
    fn variant_value(&self, variant: VariantKind) -> Result<Option<String>, PlayerError> {
        let opt = self
            .options
            .iter()
            .find(|o| o.name.eq_ignore_ascii_case("UCI_Variant"));
        let want = variant.protocol_name();
        match opt {
            Some(o) => {
                if let Some(v) = o.vars.iter().find(|v| v.eq_ignore_ascii_case(want)) {
                    Ok(Some(v.clone()))
                } else if variant == VariantKind::Chess {
                    Ok(o.vars
                        .iter()
                        .find(|v| {
                            v.eq_ignore_ascii_case("normal") || v.eq_ignore_ascii_case("standard")
                        })
                        .cloned())
                } else {
                    Err(PlayerError::Setup(format!(
                        "engine {} does not play {want} (its UCI_Variant offers no {want})",
                        self.s.name
                    )))
                }
            }
            None if variant == VariantKind::Chess => Ok(None),
            None => Err(PlayerError::Setup(format!(
                "engine {} does not play {want} (it has no UCI_Variant option)",
                self.s.name
            ))),
        }
    }

    /// Checks the engine plays `variant`.
    pub fn check_variant(&self, variant: VariantKind) -> Result<(), PlayerError> {
        self.variant_value(variant).map(|_| ())
    }

    fn new_game_inner(&mut self, variant: VariantKind) -> Result<(), PlayerError> {
        let value = self.variant_value(variant)?;
        let proc = self.proc.as_mut().ok_or_else(not_running)?;
        if self.variant_sent != Some(variant) {
            if let Some(v) = value {
                proc.send(&format!("setoption name UCI_Variant value {v}"))?;
            }
            self.variant_sent = Some(variant);
        }
        proc.send("ucinewgame")?;
        proc.send("isready")?;
        let deadline = Instant::now() + self.s.timeout;
        loop {
            if proc.recv(deadline)?.trim() == "readyok" {
                return Ok(());
            }
        }
    }

    fn go_inner(&mut self, req: &MoveRequest) -> Result<MoveReply, PlayerError> {
        let game = replay(req.variant, req.start_fen, req.moves)?;
        let mut position = if game.is_start {
            "position startpos".to_string()
        } else {
            format!("position fen {}", game.fen)
        };
        if !req.moves.is_empty() {
            position.push_str(" moves ");
            position.push_str(&req.moves.join(" "));
        }
        let go = uci_go(req, game.white_to_move);
        let wait = move_wait(req, game.white_to_move, &self.s);
        let proc = self.proc.as_mut().ok_or_else(not_running)?;
        proc.send(&position)?;
        proc.send(&go)?;
        let deadline = Instant::now() + wait;
        let mut score = None;
        loop {
            let line = proc.recv(deadline)?;
            let mut toks = line.split_whitespace();
            match toks.next() {
                Some("info") => {
                    if let Some(s) = parse_uci_score(&line) {
                        score = Some(s);
                    }
                }
                Some("bestmove") => {
                    let Some(m) = toks.next() else {
                        return Err(PlayerError::Protocol("bestmove without a move".into()));
                    };
                    let uci = normalize_move(req.variant, req.start_fen, req.moves, m);
                    return Ok(MoveReply { uci, score });
                }
                _ => {}
            }
        }
    }
}

/// The UCI `go` command for a request.
fn uci_go(req: &MoveRequest, white: bool) -> String {
    let l = req.limits;
    let mut go = String::from("go");
    if let Some(tc) = l.tc {
        let w = req.clocks[0].or(req.clocks[1]);
        let b = req.clocks[1].or(req.clocks[0]);
        if let (Some(w), Some(b)) = (w, b) {
            go.push_str(&format!(
                " wtime {} btime {}",
                w.left.as_millis(),
                b.left.as_millis()
            ));
            let inc = tc.increment.as_millis();
            if inc > 0 {
                go.push_str(&format!(" winc {inc} binc {inc}"));
            }
            let own = if white { req.clocks[0] } else { req.clocks[1] };
            if let Some(mtg) = own.and_then(|c| c.moves_to_go) {
                go.push_str(&format!(" movestogo {mtg}"));
            }
        }
    }
    if let Some(n) = l.nodes {
        go.push_str(&format!(" nodes {n}"));
    }
    if let Some(d) = l.depth {
        go.push_str(&format!(" depth {d}"));
    }
    if let Some(t) = l.movetime {
        go.push_str(&format!(" movetime {}", t.as_millis().max(1)));
    }
    if go == "go" {
        go.push_str(" infinite");
    }
    go
}

impl Player for UciPlayer {
    fn name(&self) -> &str {
        &self.s.name
    }

    fn new_game(&mut self, variant: VariantKind) -> Result<(), PlayerError> {
        let r = self.new_game_inner(variant);
        if let Err(e) = &r {
            after_error(&mut self.proc, e);
        }
        r
    }

    fn go(&mut self, req: &MoveRequest) -> Result<MoveReply, PlayerError> {
        let r = self.go_inner(req);
        if let Err(e) = &r {
            after_error(&mut self.proc, e);
        }
        r
    }

    fn restart(&mut self) -> Result<(), PlayerError> {
        self.launch()
    }
}

// ---------------------------------------------------------------------------
// CECP.

/// What a CECP engine announced with `feature`.
#[derive(Clone, Debug, PartialEq)]
struct Features {
    ping: bool,
    setboard: bool,
    usermove: bool,
    time: bool,
    memory: bool,
    smp: bool,
    variants: Option<Vec<String>>,
    options: Vec<String>,
}

impl Default for Features {
    fn default() -> Self {
        Features {
            ping: false,
            setboard: false,
            usermove: false,
            time: true,
            memory: false,
            smp: false,
            variants: None,
            options: Vec::new(),
        }
    }
}

/// Splits `feature a=1 b="x y" c=2` into pairs.
fn parse_features(line: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let Some(rest) = line.trim_start().strip_prefix("feature") else {
        return out;
    };
    let mut chars = rest.chars().peekable();
    loop {
        while chars.peek().is_some_and(|c| c.is_whitespace()) {
            chars.next();
        }
        let mut key = String::new();
        while let Some(&c) = chars.peek() {
            if c == '=' || c.is_whitespace() {
                break;
            }
            key.push(c);
            chars.next();
        }
        if key.is_empty() {
            break;
        }
        if chars.peek() != Some(&'=') {
            out.push((key, String::new()));
            continue;
        }
        chars.next();
        let mut value = String::new();
        if chars.peek() == Some(&'"') {
            chars.next();
            for c in chars.by_ref() {
                if c == '"' {
                    break;
                }
                value.push(c);
            }
        } else {
            while let Some(&c) = chars.peek() {
                if c.is_whitespace() {
                    break;
                }
                value.push(c);
                chars.next();
            }
        }
        out.push((key, value));
    }
    out
}

/// A CECP (XBoard) engine.
pub struct CecpPlayer {
    s: Settings,
    proc: Option<Process>,
    feat: Features,
    variant: Option<VariantKind>,
    /// Start FEN and moves the engine's board holds in this game.
    board: Option<(String, Vec<String>)>,
    /// Limits sent since the last `new`.
    limits_sent: Option<MoveLimits>,
    ping: u32,
}

impl CecpPlayer {
    /// Starts the engine and completes the handshake.
    pub fn start(s: Settings) -> Result<CecpPlayer, PlayerError> {
        let mut p = CecpPlayer {
            s,
            proc: None,
            feat: Features::default(),
            variant: None,
            board: None,
            limits_sent: None,
            ping: 0,
        };
        p.launch()?;
        Ok(p)
    }

    fn launch(&mut self) -> Result<(), PlayerError> {
        if let Some(mut old) = self.proc.take() {
            old.kill();
        }
        self.board = None;
        self.limits_sent = None;
        let mut proc = Process::start(&self.s)?;
        match self.handshake(&mut proc) {
            Ok(()) => {
                self.proc = Some(proc);
                Ok(())
            }
            Err(e) => {
                proc.kill();
                Err(e)
            }
        }
    }

    fn handshake(&mut self, proc: &mut Process) -> Result<(), PlayerError> {
        let started = Instant::now();
        let crashed = |e: PlayerError| match e {
            PlayerError::Crashed(m) => {
                PlayerError::Setup(format!("engine exited during the handshake: {m}"))
            }
            e => e,
        };
        proc.send("xboard").map_err(crashed)?;
        proc.send("protover 2").map_err(crashed)?;
        let mut feat = Features::default();
        // Engines that ignore protover 2 send no features: stop waiting after
        // a while. `done=0` asks for the full timeout.
        let mut deadline = started + self.s.timeout.min(Duration::from_secs(10));
        loop {
            let line = match proc.recv(deadline) {
                Ok(l) => l,
                Err(PlayerError::Timeout) => break,
                Err(e) => return Err(crashed(e)),
            };
            let pairs = parse_features(&line);
            let mut done = false;
            for (k, v) in pairs {
                let on = v == "1";
                let mut accept = true;
                match k.as_str() {
                    "ping" => feat.ping = on,
                    "setboard" => feat.setboard = on,
                    "usermove" => feat.usermove = on,
                    "time" => feat.time = on,
                    "memory" => feat.memory = on,
                    "smp" => feat.smp = on,
                    "san" => accept = !on,
                    "variants" => {
                        feat.variants = Some(v.split(',').map(|x| x.trim().to_string()).collect())
                    }
                    "option" => {
                        if let Some(name) = v.split(" -").next() {
                            feat.options.push(name.trim().to_string());
                        }
                    }
                    "done" => {
                        if on {
                            done = true;
                        } else {
                            deadline = started + self.s.timeout;
                        }
                    }
                    _ => {}
                }
                let verdict = if accept { "accepted" } else { "rejected" };
                proc.send(&format!("{verdict} {k}")).map_err(crashed)?;
            }
            if done {
                break;
            }
        }
        self.feat = feat;
        for (name, value) in &self.s.options {
            let lower = name.to_ascii_lowercase();
            let cmd = if matches!(lower.as_str(), "hash" | "memory") {
                if !self.feat.memory {
                    continue;
                }
                format!("memory {}", value.trim())
            } else if matches!(lower.as_str(), "threads" | "cores") {
                if !self.feat.smp {
                    continue;
                }
                format!("cores {}", value.trim())
            } else if let Some(o) = self
                .feat
                .options
                .iter()
                .find(|o| o.eq_ignore_ascii_case(name))
            {
                format!("option {o}={value}")
            } else {
                return Err(PlayerError::Setup(format!(
                    "the engine announced no option {name} (it has: {})",
                    self.feat.options.join(", ")
                )));
            };
            proc.send(&cmd).map_err(crashed)?;
        }
        for l in &self.s.initstr {
            proc.send(l).map_err(crashed)?;
        }
        let deadline = Instant::now() + self.s.timeout;
        self.sync(proc, deadline, &[]).map_err(|e| match e {
            PlayerError::Timeout => PlayerError::Setup(format!(
                "no pong from the engine within {} s",
                self.s.timeout.as_secs_f64()
            )),
            e => crashed(e),
        })
    }

    /// `ping`/`pong` round trip (if the engine has `ping`): everything the
    /// engine says in between is read, and `Illegal move` or an `Error` about
    /// one of `moves` is a protocol error.
    fn sync(
        &mut self,
        proc: &mut Process,
        deadline: Instant,
        moves: &[String],
    ) -> Result<(), PlayerError> {
        if !self.feat.ping {
            return Ok(());
        }
        self.ping += 1;
        let n = self.ping;
        proc.send(&format!("ping {n}"))?;
        let want = format!("pong {n}");
        loop {
            let line = proc.recv(deadline)?;
            let t = line.trim();
            if t == want {
                return Ok(());
            }
            check_cecp_error(t, moves)?;
        }
    }

    /// Checks the engine plays `variant`.
    pub fn check_variant(&self, variant: VariantKind) -> Result<(), PlayerError> {
        let want = variant.protocol_name();
        let ok = match &self.feat.variants {
            None => variant == VariantKind::Chess,
            Some(list) => {
                variant == VariantKind::Chess || list.iter().any(|v| v.eq_ignore_ascii_case(want))
            }
        };
        if ok {
            Ok(())
        } else {
            Err(PlayerError::Setup(format!(
                "engine {} does not play {want} (its variants: {})",
                self.s.name,
                self.feat
                    .variants
                    .as_ref()
                    .map(|v| v.join(","))
                    .unwrap_or_else(|| "normal only".into())
            )))
        }
    }

    fn move_text(&self, m: &str) -> String {
        if self.feat.usermove {
            format!("usermove {m}")
        } else {
            m.to_string()
        }
    }

    /// `new` and the variant, in force mode, from `fen` (a non-start FEN
    /// needs `setboard`).
    fn reset_board(&mut self, variant: VariantKind, game: &Replay) -> Result<(), PlayerError> {
        if !game.is_start && !self.feat.setboard {
            return Err(PlayerError::Setup(format!(
                "engine {} cannot set up positions (no setboard=1); use openings given as moves from the start position",
                self.s.name
            )));
        }
        let proc = self.proc.as_mut().ok_or_else(not_running)?;
        proc.send("new")?;
        if variant != VariantKind::Chess {
            proc.send(&format!("variant {}", variant.protocol_name()))?;
        }
        proc.send("force")?;
        proc.send("easy")?;
        proc.send("post")?;
        if !game.is_start {
            proc.send(&format!("setboard {}", game.fen))?;
        }
        self.board = Some((game.fen.clone(), Vec::new()));
        self.limits_sent = None;
        Ok(())
    }

    fn new_game_inner(&mut self, variant: VariantKind) -> Result<(), PlayerError> {
        self.check_variant(variant)?;
        self.variant = Some(variant);
        let start = replay(variant, variant.start_fen(), &[])?;
        self.reset_board(variant, &start)?;
        let mut proc = self.proc.take().ok_or_else(not_running)?;
        let deadline = Instant::now() + self.s.timeout;
        let r = self.sync(&mut proc, deadline, &[]);
        self.proc = Some(proc);
        r
    }

    fn level_commands(&self, l: &MoveLimits) -> Result<Vec<String>, PlayerError> {
        let mut cmds = Vec::new();
        if let Some(tc) = l.tc {
            let secs = tc.base.as_secs_f64().ceil().max(1.0) as u64;
            let base = if secs.is_multiple_of(60) {
                format!("{}", secs / 60)
            } else {
                format!("{}:{:02}", secs / 60, secs % 60)
            };
            let inc = tc.increment.as_secs_f64();
            let inc = if inc.fract() == 0.0 {
                format!("{}", inc as u64)
            } else {
                format!("{inc}")
            };
            cmds.push(format!("level {} {base} {inc}", tc.moves.unwrap_or(0)));
        } else if let Some(t) = l.movetime {
            cmds.push(format!("st {}", t.as_secs_f64().round().max(1.0) as u64));
        } else if l.depth.is_some() {
            // No clock: keep the time limit out of the way of the depth.
            cmds.push(format!("st {}", self.s.timeout.as_secs().max(1)));
        }
        if let Some(d) = l.depth {
            cmds.push(format!("sd {d}"));
        }
        if l.tc.is_none() && l.movetime.is_none() && l.depth.is_none() {
            return Err(PlayerError::Setup(
                "CECP engines cannot be limited by nodes: give them tc, depth or st".into(),
            ));
        }
        Ok(cmds)
    }

    fn go_inner(&mut self, req: &MoveRequest) -> Result<MoveReply, PlayerError> {
        let game = replay(req.variant, req.start_fen, req.moves)?;
        let in_sync = self.variant == Some(req.variant)
            && self
                .board
                .as_ref()
                .is_some_and(|(fen, sent)| *fen == game.fen && req.moves.starts_with(sent));
        if !in_sync {
            self.check_variant(req.variant)?;
            self.variant = Some(req.variant);
            self.reset_board(req.variant, &game)?;
        }
        let known = self.board.as_ref().map_or(0, |b| b.1.len());
        let new_moves: Vec<String> = req.moves[known..].to_vec();
        let level = if self.limits_sent != Some(*req.limits) {
            Some(self.level_commands(req.limits)?)
        } else {
            None
        };
        let mut proc = self.proc.take().ok_or_else(not_running)?;
        let r = self.go_with(&mut proc, req, &game, &new_moves, level);
        self.proc = Some(proc);
        r
    }

    fn go_with(
        &mut self,
        proc: &mut Process,
        req: &MoveRequest,
        game: &Replay,
        new_moves: &[String],
        level: Option<Vec<String>>,
    ) -> Result<MoveReply, PlayerError> {
        for m in new_moves {
            proc.send(&self.move_text(m))?;
        }
        if let Some((_, sent)) = self.board.as_mut() {
            sent.extend(new_moves.iter().cloned());
        }
        if let Some(cmds) = level {
            for c in &cmds {
                proc.send(c)?;
            }
            self.limits_sent = Some(*req.limits);
        }
        if self.feat.time {
            if let Some((own, other)) = clocks_ms(req, game.white_to_move) {
                proc.send(&format!("time {}", own / 10))?;
                proc.send(&format!("otim {}", other / 10))?;
            }
        }
        let wait = move_wait(req, game.white_to_move, &self.s);
        // Catch a rejected move before the engine starts thinking.
        let sync_deadline = Instant::now() + self.s.timeout;
        self.sync(proc, sync_deadline, new_moves)?;
        proc.send("go")?;
        let mut deadline = Instant::now() + wait;
        let mut score = None;
        // A result claimed instead of a move: the engine has stopped playing.
        let mut claim: Option<String> = None;
        loop {
            let line = match proc.recv(deadline) {
                Err(PlayerError::Timeout) if claim.is_some() => {
                    let claim = claim.unwrap_or_default();
                    let own_loss = if game.white_to_move { "0-1" } else { "1-0" };
                    proc.send("force")?;
                    self.board = None;
                    return Err(if claim.starts_with(own_loss) {
                        PlayerError::Resigned
                    } else {
                        PlayerError::Protocol(format!("engine claimed {claim} instead of moving"))
                    });
                }
                r => r?,
            };
            let t = line.trim();
            check_cecp_error(t, new_moves)?;
            if claim.is_none() && ["1-0", "0-1", "1/2-1/2"].iter().any(|r| t.starts_with(r)) {
                claim = Some(t.to_string());
                deadline = deadline.min(Instant::now() + CLAIM_GRACE);
                continue;
            }
            let lower = t.to_ascii_lowercase();
            let text = if let Some(m) = t.strip_prefix("move ") {
                Some(m.trim())
            } else if lower.starts_with("my move is") {
                t.split([':', ' ']).rfind(|s| !s.is_empty())
            } else {
                None
            };
            if let Some(m) = text {
                let m = m.split_whitespace().next().unwrap_or("");
                proc.send("force")?;
                let uci = normalize_move(req.variant, req.start_fen, req.moves, m);
                if let Some((_, sent)) = self.board.as_mut() {
                    sent.push(uci.clone());
                }
                return Ok(MoveReply { uci, score });
            }
            if lower == "resign" || lower.starts_with("resign ") {
                proc.send("force")?;
                self.board = None;
                return Err(PlayerError::Resigned);
            }
            if let Some(s) = parse_cecp_score(t) {
                score = Some(s);
            }
        }
    }
}

/// How long a move may still come after an engine claimed a result.
const CLAIM_GRACE: Duration = Duration::from_millis(500);

/// `Illegal move ...` is always an error; `Error (...): X` when X is one of
/// the moves just sent (other errors are about commands the engine does not
/// know, which are harmless).
fn check_cecp_error(line: &str, moves: &[String]) -> Result<(), PlayerError> {
    let lower = line.to_ascii_lowercase();
    if lower.starts_with("illegal move") {
        return Err(PlayerError::Protocol(format!("engine says: {line}")));
    }
    if lower.starts_with("error") {
        let about_move = line
            .rsplit([':', ' '])
            .next()
            .is_some_and(|last| moves.iter().any(|m| m == last.trim()));
        if about_move {
            return Err(PlayerError::Protocol(format!("engine says: {line}")));
        }
    }
    Ok(())
}

/// The score of a thinking line `ply score time nodes pv...` (centipawns,
/// from the engine's view).
fn parse_cecp_score(line: &str) -> Option<i32> {
    let mut toks = line.split_whitespace();
    let ply = toks.next()?.trim_end_matches(['.', '&']);
    if ply.is_empty() || !ply.bytes().all(|c| c.is_ascii_digit()) {
        return None;
    }
    let score: i64 = toks.next()?.parse().ok()?;
    // The time and node fields must be numbers too.
    toks.next()?.parse::<u64>().ok()?;
    toks.next()?.parse::<u64>().ok()?;
    Some(score.clamp(-1_000_000, 1_000_000) as i32)
}

impl Player for CecpPlayer {
    fn name(&self) -> &str {
        &self.s.name
    }

    fn new_game(&mut self, variant: VariantKind) -> Result<(), PlayerError> {
        let r = self.new_game_inner(variant);
        if let Err(e) = &r {
            after_error(&mut self.proc, e);
        }
        r
    }

    fn go(&mut self, req: &MoveRequest) -> Result<MoveReply, PlayerError> {
        let r = self.go_inner(req);
        if let Err(e) = &r {
            after_error(&mut self.proc, e);
            if !matches!(e, PlayerError::Resigned) {
                self.board = None;
            }
        }
        r
    }

    fn restart(&mut self) -> Result<(), PlayerError> {
        self.launch()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(settings: &[(&str, &str)]) -> EngineSpec {
        EngineSpec {
            name: "e".into(),
            limits: MoveLimits::default(),
            settings: settings
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
        }
    }

    #[test]
    fn settings_are_checked() {
        let s = Settings::from_spec(&spec(&[
            ("cmd", "/bin/true"),
            ("args", "a  b"),
            ("proto", "xboard"),
            ("option.Hash", "16"),
            ("timeout", "2.5"),
        ]))
        .unwrap();
        assert_eq!(s.args, ["a", "b"]);
        assert_eq!(s.proto, Protocol::Xboard);
        assert_eq!(s.options, [("Hash".to_string(), "16".to_string())]);
        assert_eq!(s.timeout, Duration::from_millis(2500));
        for bad in [
            vec![],
            vec![("cmd", "")],
            vec![("cmd", "x"), ("proto", "usi")],
            vec![("cmd", "x"), ("timeout", "-1")],
            vec![("cmd", "x"), ("timeout", "soon")],
            vec![("cmd", "x"), ("dir", "/no/such/dir")],
            vec![("cmd", "x"), ("bogus", "1")],
        ] {
            let e = Settings::from_spec(&spec(&bad)).unwrap_err();
            assert!(!e.contains('\n'), "{e}");
        }
        let e = spawn(&spec(&[("cmd", "/no/such/engine")])).err().unwrap();
        assert!(e.contains("cannot start"), "{e}");
    }

    #[test]
    fn parses_uci_options_and_scores() {
        let o = parse_uci_option(
            "option name UCI_Variant type combo default chess var 3check var chess var giveaway",
        )
        .unwrap();
        assert_eq!(o.name, "UCI_Variant");
        assert_eq!(o.vars, ["3check", "chess", "giveaway"]);
        let o = parse_uci_option("option name Clear Hash type button").unwrap();
        assert_eq!(o.name, "Clear Hash");
        assert_eq!(
            parse_uci_score("info depth 3 score cp -25 pv e2e4"),
            Some(-25)
        );
        assert_eq!(
            parse_uci_score("info depth 3 score cp 17 lowerbound"),
            Some(17)
        );
        assert_eq!(
            parse_uci_score("info depth 9 score mate 2 pv"),
            Some(32000 - 3)
        );
        assert_eq!(
            parse_uci_score("info depth 9 score mate -1"),
            Some(-32000 + 2)
        );
        assert_eq!(parse_uci_score("info string score cp 5"), None);
        assert_eq!(parse_uci_score("info depth 1 score cp"), None);
    }

    #[test]
    fn parses_features_and_thinking() {
        let f = parse_features(
            r#"feature ping=1 myname="My Engine 1.0" variants="normal,giveaway" done=0"#,
        );
        assert_eq!(
            f,
            [
                ("ping".to_string(), "1".to_string()),
                ("myname".into(), "My Engine 1.0".into()),
                ("variants".into(), "normal,giveaway".into()),
                ("done".into(), "0".into()),
            ]
        );
        assert!(parse_features("feature").is_empty());
        assert_eq!(parse_features("feature option=\"x").len(), 1);
        assert_eq!(
            parse_cecp_score(" 8     12      137     732519 d7d5 f1d3"),
            Some(12)
        );
        assert_eq!(parse_cecp_score("9. -42 34 101500 Bxa6"), Some(-42));
        assert_eq!(parse_cecp_score("8 | *R | *N |"), None);
        assert_eq!(parse_cecp_score("move e2e4"), None);
    }

    #[test]
    fn normalizes_engine_moves() {
        let start = VariantKind::Chess.start_fen();
        let n = |moves: &[&str], t: &str| {
            let moves: Vec<String> = moves.iter().map(|m| m.to_string()).collect();
            normalize_move(VariantKind::Chess, start, &moves, t)
        };
        assert_eq!(n(&[], "e2e4"), "e2e4");
        assert_eq!(n(&[], "e2-e4"), "e2e4");
        assert_eq!(n(&[], "Nf3"), "g1f3");
        assert_eq!(n(&[], "Ng1f3+"), "g1f3");
        assert_eq!(n(&[], "e2e5"), "e2e5");
        assert_eq!(n(&[], "0000"), "0000");
        assert_eq!(n(&[], "garbage\u{0}é"), "garbage\u{0}é");
        let castle = ["e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "g8f6"];
        assert_eq!(n(&castle, "O-O"), "e1g1");
        assert_eq!(n(&castle, "e1h1"), "e1g1");
        let promo = "7k/P7/8/8/8/8/8/K7 w - - 0 1";
        assert_eq!(
            normalize_move(VariantKind::Chess, promo, &[], "a7a8Q"),
            "a7a8q"
        );
        assert_eq!(
            normalize_move(VariantKind::Chess, promo, &[], "a7a8=N"),
            "a7a8n"
        );
        assert_eq!(
            normalize_move(VariantKind::Chess, promo, &[], "a8=Q+"),
            "a7a8q"
        );
        assert_eq!(
            normalize_move(VariantKind::Suicide, promo, &[], "a7a8K"),
            "a7a8k"
        );
        let km = "7k/P7/8/8/8/8/8/K7 w - - 0 1";
        assert_eq!(
            normalize_move(VariantKind::Knightmate, km, &[], "a7a8n"),
            "a7a8m"
        );
    }
}
