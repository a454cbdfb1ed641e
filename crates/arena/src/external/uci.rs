//! The UCI dialect: `uci`/`uciok` with the option list, `setoption`,
//! `isready`, `UCI_Variant` for the game, `position ... moves ...` and `go`
//! with the clocks or limits, `info ... score` and `bestmove`.

use super::process::Process;
use super::{move_wait, normalize_move, Dialect, ExternalConfig};
use crate::player::{MoveReply, MoveRequest, PlayerError};
use movegen::VariantKind;
use std::time::Instant;

/// One `option name ...` line of an engine's `uci` reply.
#[derive(Clone, Debug, PartialEq)]
pub struct UciOption {
    /// The option's name, as the engine spells it.
    pub name: String,
    /// Its type: `spin`, `check`, `combo`, `button` or `string`.
    pub kind: String,
    /// `default`, if given (may hold spaces, or be `<empty>`).
    pub default: Option<String>,
    /// `min` of a spin option, if given and a number.
    pub min: Option<i64>,
    /// `max` of a spin option, if given and a number.
    pub max: Option<i64>,
    /// The `var` values of a combo option.
    pub vars: Vec<String>,
}

/// Parses `option name NAME type T [default D] [min A] [max B] [var V]...`:
/// each keyword takes the words up to the next keyword.
pub fn parse_uci_option(line: &str) -> Option<UciOption> {
    let rest = line.strip_prefix("option")?.trim_start();
    let rest = rest.strip_prefix("name")?.trim_start();
    let toks: Vec<&str> = rest.split_whitespace().collect();
    let ti = toks.iter().position(|t| *t == "type")?;
    let name = toks[..ti].join(" ");
    let kind = toks.get(ti + 1).copied().unwrap_or("").to_string();
    let mut o = UciOption {
        name,
        kind,
        default: None,
        min: None,
        max: None,
        vars: Vec::new(),
    };
    let mut store = |key: &str, words: &[&str]| {
        let text = words.join(" ");
        match key {
            "var" => o.vars.push(text),
            "default" => o.default = Some(text),
            "min" => o.min = text.parse().ok(),
            _ => o.max = text.parse().ok(),
        }
    };
    let mut cur: Option<(&str, Vec<&str>)> = None;
    for t in &toks[(ti + 2).min(toks.len())..] {
        match *t {
            "var" | "default" | "min" | "max" => {
                if let Some((k, words)) = cur.take() {
                    store(k, &words);
                }
                cur = Some((t, Vec::new()));
            }
            _ => {
                if let Some((_, words)) = cur.as_mut() {
                    words.push(t);
                }
            }
        }
    }
    if let Some((k, words)) = cur {
        store(k, &words);
    }
    (!o.name.is_empty()).then_some(o)
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

/// The UCI state of one engine process.
#[derive(Default)]
pub(crate) struct Uci {
    options: Vec<UciOption>,
    /// The `UCI_Variant` value last sent to the running process.
    variant_sent: Option<VariantKind>,
}

impl Uci {
    /// The options the engine announced in its last handshake.
    pub(crate) fn options(&self) -> &[UciOption] {
        &self.options
    }

    /// Sends the `option.NAME=VALUE` settings, each checked against the
    /// options the engine announced.
    fn send_options(&self, proc: &mut Process, cfg: &ExternalConfig) -> Result<(), PlayerError> {
        for (name, value) in &cfg.options {
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
        Ok(())
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
                        "does not play {want} (its UCI_Variant offers no {want})"
                    )))
                }
            }
            None if variant == VariantKind::Chess => Ok(None),
            None => Err(PlayerError::Setup(format!(
                "does not play {want} (it has no UCI_Variant option)"
            ))),
        }
    }
}

impl Dialect for Uci {
    fn reset(&mut self) {
        self.variant_sent = None;
    }

    fn handshake(&mut self, proc: &mut Process, cfg: &ExternalConfig) -> Result<(), PlayerError> {
        let secs = cfg.timeout.as_secs_f64();
        let deadline = Instant::now() + cfg.timeout;
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
        self.options.clear();
        loop {
            let line = proc.recv(deadline).map_err(|e| setup(e, "uciok"))?;
            let line = line.trim();
            if line == "uciok" {
                break;
            }
            self.options.extend(parse_uci_option(line));
        }
        self.send_options(proc, cfg)?;
        for l in &cfg.initstr {
            proc.send(l)?;
        }
        proc.send("isready")?;
        proc.wait_for("readyok", deadline)
            .map_err(|e| setup(e, "readyok"))
    }

    fn check_variant(&self, variant: VariantKind) -> Result<(), PlayerError> {
        self.variant_value(variant).map(|_| ())
    }

    fn new_game(
        &mut self,
        proc: &mut Process,
        cfg: &ExternalConfig,
        variant: VariantKind,
    ) -> Result<(), PlayerError> {
        let value = self.variant_value(variant)?;
        if self.variant_sent != Some(variant) {
            if let Some(v) = value {
                proc.send(&format!("setoption name UCI_Variant value {v}"))?;
            }
            self.variant_sent = Some(variant);
        }
        proc.send("ucinewgame")?;
        proc.send("isready")?;
        proc.wait_for("readyok", Instant::now() + cfg.timeout)
    }

    fn go(
        &mut self,
        proc: &mut Process,
        cfg: &ExternalConfig,
        req: &MoveRequest,
    ) -> Result<MoveReply, PlayerError> {
        let game = req.game;
        let mut position = if game.starts_from_startpos() {
            "position startpos".to_string()
        } else {
            format!("position fen {}", game.start_fen())
        };
        let moves = game.uci_moves();
        if !moves.is_empty() {
            position.push_str(" moves ");
            position.push_str(&moves.join(" "));
        }
        proc.send(&position)?;
        proc.send(&uci_go(req))?;
        let deadline = Instant::now() + move_wait(req, cfg);
        let mut score = None;
        loop {
            let line = proc.recv(deadline)?;
            let mut toks = line.split_whitespace();
            match toks.next() {
                Some("info") => score = parse_uci_score(&line).or(score),
                Some("bestmove") => {
                    let Some(m) = toks.next() else {
                        return Err(PlayerError::Protocol("bestmove without a move".into()));
                    };
                    let uci = normalize_move(game, m);
                    return Ok(MoveReply { uci, score });
                }
                _ => {}
            }
        }
    }
}

/// The UCI `go` command for a request.
fn uci_go(req: &MoveRequest) -> String {
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
            let own = req.clocks[req.game.turn().index()];
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_uci_options_and_scores() {
        let o = parse_uci_option(
            "option name UCI_Variant type combo default chess var 3check var chess var giveaway",
        )
        .unwrap();
        assert_eq!(o.name, "UCI_Variant");
        assert_eq!(o.vars, ["3check", "chess", "giveaway"]);
        assert_eq!(o.default.as_deref(), Some("chess"));
        let o = parse_uci_option("option name Move Overhead type spin default 15 min 0 max 5000")
            .unwrap();
        assert_eq!(o.name, "Move Overhead");
        assert_eq!(o.kind, "spin");
        assert_eq!(
            (o.default.as_deref(), o.min, o.max),
            (Some("15"), Some(0), Some(5000))
        );
        let o = parse_uci_option(
            "option name material.king type spin default 300 min -10000 max 10000",
        )
        .unwrap();
        assert_eq!((o.min, o.max), (Some(-10000), Some(10000)));
        let o = parse_uci_option("option name EvalFile type string default my eval.toml").unwrap();
        assert_eq!(o.default.as_deref(), Some("my eval.toml"));
        assert_eq!((o.min, o.max), (None, None));
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
}
