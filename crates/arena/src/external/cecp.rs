//! The CECP (XBoard protocol 2) dialect: `xboard`/`protover 2` and the
//! `feature` list, `ping`/`pong` to stay in step, `new`/`variant`/`setboard`
//! in force mode, moves sent one by one as the game goes, `level`/`st`/`sd`
//! for the limits, `time`/`otim`, and `move`, `resign` or a claimed result
//! as the reply.

use super::process::Process;
use super::{clocks_ms, move_wait, normalize_move, Dialect, ExternalConfig};
use crate::player::{MoveReply, MoveRequest, PlayerError};
use crate::tc::MoveLimits;
use movegen::{VariantGame, VariantKind};
use std::time::{Duration, Instant};

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

impl Features {
    /// Records `feature k=v`; `false` if varia must reject it (`san=1`).
    fn accept(&mut self, k: &str, v: &str) -> bool {
        let on = v == "1";
        match k {
            "ping" => self.ping = on,
            "setboard" => self.setboard = on,
            "usermove" => self.usermove = on,
            "time" => self.time = on,
            "memory" => self.memory = on,
            "smp" => self.smp = on,
            "san" => return !on,
            "variants" => {
                self.variants = Some(v.split(',').map(|x| x.trim().to_string()).collect())
            }
            "option" => {
                if let Some(name) = v.split(" -").next() {
                    self.options.push(name.trim().to_string());
                }
            }
            _ => {}
        }
        true
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

/// The `level`/`st`/`sd` commands for `l` (`timeout` bounds a depth-only
/// search). CECP has no node limit.
fn level_commands(l: &MoveLimits, timeout: Duration) -> Result<Vec<String>, PlayerError> {
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
        cmds.push(format!("st {}", timeout.as_secs().max(1)));
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

/// The CECP state of one engine process.
#[derive(Default)]
pub(crate) struct Cecp {
    feat: Features,
    variant: Option<VariantKind>,
    /// Start FEN and moves the engine's board holds in this game.
    board: Option<(String, Vec<String>)>,
    /// Limits sent since the last `new`.
    limits_sent: Option<MoveLimits>,
    ping: u32,
}

impl Cecp {
    /// Reads the `feature` lines after `protover 2`, answering each.
    fn read_features(
        &mut self,
        proc: &mut Process,
        cfg: &ExternalConfig,
    ) -> Result<(), PlayerError> {
        let started = Instant::now();
        self.feat = Features::default();
        // Engines that ignore protover 2 send no features: stop waiting after
        // a while. `done=0` asks for the full timeout.
        let mut deadline = started + cfg.timeout.min(Duration::from_secs(10));
        loop {
            let line = match proc.recv(deadline) {
                Ok(l) => l,
                Err(PlayerError::Timeout) => return Ok(()),
                Err(e) => return Err(e),
            };
            let mut done = false;
            for (k, v) in parse_features(&line) {
                if k == "done" {
                    done = v == "1";
                    if !done {
                        deadline = started + cfg.timeout;
                    }
                }
                let verdict = if self.feat.accept(&k, &v) {
                    "accepted"
                } else {
                    "rejected"
                };
                proc.send(&format!("{verdict} {k}"))?;
            }
            if done {
                return Ok(());
            }
        }
    }

    /// Sends the `option.NAME=VALUE` settings: `memory`/`cores` for hash and
    /// threads (if the engine has them), others as announced options.
    fn send_options(&self, proc: &mut Process, cfg: &ExternalConfig) -> Result<(), PlayerError> {
        for (name, value) in &cfg.options {
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
            proc.send(&cmd)?;
        }
        Ok(())
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

    fn move_text(&self, m: &str) -> String {
        if self.feat.usermove {
            format!("usermove {m}")
        } else {
            m.to_string()
        }
    }

    /// `new` and the variant, in force mode, at the start of `game` (a
    /// non-start position needs `setboard`).
    fn reset_board(&mut self, proc: &mut Process, game: &VariantGame) -> Result<(), PlayerError> {
        let is_start = game.starts_from_startpos();
        if !is_start && !self.feat.setboard {
            return Err(PlayerError::Setup(
                "cannot set up positions (no setboard=1); use openings given as moves from the start position".into(),
            ));
        }
        let variant = game.kind();
        proc.send("new")?;
        if variant != VariantKind::Chess {
            proc.send(&format!("variant {}", variant.protocol_name()))?;
        }
        proc.send("force")?;
        proc.send("easy")?;
        proc.send("post")?;
        let fen = game.start_fen();
        if !is_start {
            proc.send(&format!("setboard {fen}"))?;
        }
        self.board = Some((fen, Vec::new()));
        self.limits_sent = None;
        Ok(())
    }

    /// Reads the engine's answer after `go`: its move, a resignation, or a
    /// result claimed instead of a move; thinking lines give the score.
    fn read_reply(
        &mut self,
        proc: &mut Process,
        req: &MoveRequest,
        new_moves: &[String],
        mut deadline: Instant,
    ) -> Result<MoveReply, PlayerError> {
        let mut score = None;
        // A result claimed instead of a move: the engine has stopped playing.
        let mut claim: Option<String> = None;
        loop {
            let line = match proc.recv(deadline) {
                Err(PlayerError::Timeout) if claim.is_some() => {
                    let claim = claim.unwrap_or_default();
                    let own_loss = if req.game.turn().is_white() {
                        "0-1"
                    } else {
                        "1-0"
                    };
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
                let uci = normalize_move(req.game, m);
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
            score = parse_cecp_score(t).or(score);
        }
    }
}

impl Dialect for Cecp {
    fn reset(&mut self) {
        self.board = None;
        self.limits_sent = None;
    }

    fn handshake(&mut self, proc: &mut Process, cfg: &ExternalConfig) -> Result<(), PlayerError> {
        let crashed = |e: PlayerError| match e {
            PlayerError::Crashed(m) => {
                PlayerError::Setup(format!("engine exited during the handshake: {m}"))
            }
            e => e,
        };
        proc.send("xboard").map_err(crashed)?;
        proc.send("protover 2").map_err(crashed)?;
        self.read_features(proc, cfg).map_err(crashed)?;
        self.send_options(proc, cfg).map_err(crashed)?;
        for l in &cfg.initstr {
            proc.send(l).map_err(crashed)?;
        }
        let deadline = Instant::now() + cfg.timeout;
        self.sync(proc, deadline, &[]).map_err(|e| match e {
            PlayerError::Timeout => PlayerError::Setup(format!(
                "no pong from the engine within {} s",
                cfg.timeout.as_secs_f64()
            )),
            e => crashed(e),
        })
    }

    fn check_variant(&self, variant: VariantKind) -> Result<(), PlayerError> {
        let want = variant.protocol_name();
        let ok = variant == VariantKind::Chess
            || self
                .feat
                .variants
                .as_ref()
                .is_some_and(|list| list.iter().any(|v| v.eq_ignore_ascii_case(want)));
        if ok {
            Ok(())
        } else {
            Err(PlayerError::Setup(format!(
                "does not play {want} (its variants: {})",
                self.feat
                    .variants
                    .as_ref()
                    .map(|v| v.join(","))
                    .unwrap_or_else(|| "normal only".into())
            )))
        }
    }

    fn new_game(
        &mut self,
        proc: &mut Process,
        cfg: &ExternalConfig,
        variant: VariantKind,
    ) -> Result<(), PlayerError> {
        self.check_variant(variant)?;
        self.variant = Some(variant);
        self.reset_board(proc, &VariantGame::new(variant))?;
        self.sync(proc, Instant::now() + cfg.timeout, &[])
    }

    fn go(
        &mut self,
        proc: &mut Process,
        cfg: &ExternalConfig,
        req: &MoveRequest,
    ) -> Result<MoveReply, PlayerError> {
        let game = req.game;
        let played = game.uci_moves();
        let start_fen = game.start_fen();
        let in_sync = self.variant == Some(game.kind())
            && self
                .board
                .as_ref()
                .is_some_and(|(fen, sent)| *fen == start_fen && played.starts_with(sent));
        if !in_sync {
            self.check_variant(game.kind())?;
            self.variant = Some(game.kind());
            self.reset_board(proc, game)?;
        }
        let known = self.board.as_ref().map_or(0, |b| b.1.len());
        let new_moves = &played[known..];
        let level = if self.limits_sent != Some(*req.limits) {
            Some(level_commands(req.limits, cfg.timeout)?)
        } else {
            None
        };
        for m in new_moves {
            proc.send(&self.move_text(m))?;
        }
        if let Some((_, sent)) = self.board.as_mut() {
            sent.extend(new_moves.iter().cloned());
        }
        for c in level.iter().flatten() {
            proc.send(c)?;
        }
        if level.is_some() {
            self.limits_sent = Some(*req.limits);
        }
        if self.feat.time {
            if let Some((own, other)) = clocks_ms(req) {
                proc.send(&format!("time {}", own / 10))?;
                proc.send(&format!("otim {}", other / 10))?;
            }
        }
        let wait = move_wait(req, cfg);
        // Catch a rejected move before the engine starts thinking.
        self.sync(proc, Instant::now() + cfg.timeout, new_moves)?;
        proc.send("go")?;
        self.read_reply(proc, req, new_moves, Instant::now() + wait)
    }

    fn move_failed(&mut self, e: &PlayerError) {
        if !matches!(e, PlayerError::Resigned) {
            self.board = None;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
        let mut feat = Features::default();
        assert!(feat.accept("ping", "1") && feat.ping);
        assert!(!feat.accept("san", "1"));
        assert!(feat.accept("option", "Style -combo Wild /// Tame"));
        assert_eq!(feat.options, ["Style"]);
        assert_eq!(
            parse_cecp_score(" 8     12      137     732519 d7d5 f1d3"),
            Some(12)
        );
        assert_eq!(parse_cecp_score("9. -42 34 101500 Bxa6"), Some(-42));
        assert_eq!(parse_cecp_score("8 | *R | *N |"), None);
        assert_eq!(parse_cecp_score("move e2e4"), None);
    }

    #[test]
    fn limits_become_level_st_and_sd() {
        let t = Duration::from_secs(30);
        let tc = MoveLimits {
            tc: crate::tc::TimeControl::parse("40/90+0.5"),
            ..MoveLimits::default()
        };
        assert_eq!(level_commands(&tc, t).unwrap(), ["level 40 1:30 0.5"]);
        let depth = MoveLimits {
            depth: Some(4),
            ..MoveLimits::default()
        };
        assert_eq!(level_commands(&depth, t).unwrap(), ["st 30", "sd 4"]);
        let nodes = MoveLimits {
            nodes: Some(10),
            ..MoveLimits::default()
        };
        assert!(level_commands(&nodes, t).is_err());
    }
}
