//! `varia perft-compare`: find the first wrong move of another move
//! generator, the way perftree does for chess against Stockfish, for every
//! game varia plays.
//!
//! The walk: at the root, varia's divide (`movegen::divide`) and the
//! engine's divide at `--depth` are compared; if they differ, the walk
//! descends into the first move (in UCI order) whose counts differ and
//! compares again one ply shallower, until a level where one side lists a
//! move the other lacks, or depth 1. That level is the report.
//!
//! The engine is an [`arena::ExternalConfig`] read from the same `key=value`
//! words as `varia match --engine` (arena's `split_settings` and
//! `ExternalConfig::set`, so keys, values and error messages are the
//! match's), plus `proto=perftree`, which only this command accepts:
//!
//! * `proto=uci` (default): one process for the whole walk, started through
//!   arena's [`arena::external::start_uci`] (handshake, `UCI_Variant`), then
//!   `position fen F [moves ...]` and `go perft D` per level, read from
//!   arena's [`arena::external::Process`] with the `timeout=` deadline;
//! * `proto=perftree`: perftree's script protocol, one process per level:
//!   `CMD [ARGS] DEPTH "FEN" ["MOVES"]`, answering `move count` lines, a
//!   blank line and the total.
//!
//! Engine moves are read with arena's `normalize_move` against the position
//! (so `e1h1` castling or a knightmate `n` promotion from a correct engine
//! matches varia's move); text that names no legal move stays as it is and
//! is reported as a move varia does not have.

use anyhow::{anyhow, bail, Context as _};
use arena::engine_config::{split_settings, EngineConfigError};
use arena::external::settings::{Expected, EXTERNAL_KEYS};
use arena::external::{normalize_move, start_uci, ExternalConfig, Process};
use arena::PlayerError;
use movegen::{with_position, VariantGame, VariantKind};
use std::collections::BTreeMap;
use std::io::Write as _;
use std::process::ExitCode;
use std::time::Instant;

/// The keys `--engine` takes here: those of an external match engine
/// ([`EXTERNAL_KEYS`]) but `margin`, the allowance beyond a move's clock,
/// which means nothing for a perft query.
fn keys() -> impl Iterator<Item = &'static str> {
    EXTERNAL_KEYS.iter().copied().filter(|&k| k != "margin")
}

/// Arguments of `varia perft-compare`.
#[derive(clap::Args, Debug)]
#[command(after_help = "\
Examples:
  varia perft-compare --variant atomic --depth 4 --engine cmd=fairy-stockfish
  varia perft-compare --variant chess --depth 5 --engine cmd=./perftree-script.sh,proto=perftree

Exit status: 0 when the counts agree, 1 when a difference was found, 2 when the
engine could not be run or its output not read.")]
pub struct Args {
    #[arg(long, help = crate::variant_arg::help(""))]
    variant: VariantKind,

    /// The position to start from (default: the variant's start position).
    #[arg(long, value_name = "FEN")]
    fen: Option<String>,

    /// Depth of the comparison at the root (1 to 20).
    #[arg(long, value_name = "N")]
    depth: u32,

    /// The engine, in the syntax of `varia match --engine`:
    /// cmd=PATH[,args=...][,dir=...][,proto=uci|perftree][,option.NAME=VALUE][,timeout=SECONDS].
    #[arg(long, value_name = "SETTINGS", num_args = 1.., required = true)]
    engine: Vec<String>,

    /// Only the result: no line per level of the walk on stderr.
    #[arg(long)]
    quiet: bool,
}

/// How the engine is asked for a divide.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Proto {
    /// `go perft D` over UCI, one process.
    Uci,
    /// perftree's script protocol, one process per query.
    Perftree,
}

/// The engine of `--engine`: an external engine's settings and the protocol.
#[derive(Debug)]
struct CompareEngine {
    cfg: ExternalConfig,
    proto: Proto,
}

/// The engine's name in error messages.
const ENGINE: &str = "engine";

impl CompareEngine {
    /// Reads the `--engine` words: arena's keys, with `proto=` taking `uci`
    /// or `perftree`.
    fn parse(words: &[String]) -> Result<CompareEngine, EngineConfigError> {
        let settings = split_settings(&format!("--engine {}", words.join(" ")), words)?;
        let Some((_, cmd)) = settings.iter().rev().find(|(k, _)| k == "cmd") else {
            return Err(unknown("(none)", " (cmd=PATH is required)"));
        };
        let mut cfg = ExternalConfig::new(cmd);
        let mut proto = Proto::Uci;
        for (key, value) in &settings {
            let known = keys().any(|k| k == key) || key.starts_with("option.");
            let result = match key.as_str() {
                _ if !known => return Err(unknown(key, "")),
                "proto" => match value.to_ascii_lowercase().as_str() {
                    "uci" => Ok(true),
                    "perftree" => {
                        proto = Proto::Perftree;
                        Ok(true)
                    }
                    _ => Err(Expected("uci or perftree".into())),
                },
                _ => cfg.set(key, value),
            };
            match result {
                Ok(true) => {}
                Ok(false) => return Err(unknown(key, "")),
                Err(Expected(expected)) => {
                    return Err(EngineConfigError::BadValue {
                        engine: ENGINE.into(),
                        key: key.clone(),
                        value: value.clone(),
                        expected,
                    })
                }
            }
        }
        Ok(CompareEngine { cfg, proto })
    }
}

fn unknown(key: &str, hint: &str) -> EngineConfigError {
    EngineConfigError::UnknownKey {
        engine: ENGINE.into(),
        key: key.into(),
        hint: hint.into(),
        kind: "perft-compare",
        valid: keys().collect::<Vec<_>>().join(", "),
    }
}

/// One divide: each move (varia's UCI where it names a legal move) with its
/// count.
type Divide = BTreeMap<String, u64>;

/// A running engine answering divides.
enum Session {
    /// A UCI process.
    Uci(Process),
    /// Settings of a perftree script, started per query.
    Perftree,
}

impl Session {
    fn start(engine: &CompareEngine, variant: VariantKind) -> Result<Session, PlayerError> {
        match engine.proto {
            Proto::Uci => start_uci(ENGINE, &engine.cfg, variant).map(Session::Uci),
            Proto::Perftree => Ok(Session::Perftree),
        }
    }

    /// The engine's divide at `depth` of `root` with `moves` played;
    /// `game` is that position (to read the engine's move text against).
    fn divide(
        &mut self,
        engine: &CompareEngine,
        root: &str,
        moves: &[String],
        game: &VariantGame,
        depth: u32,
    ) -> anyhow::Result<Divide> {
        let deadline = Instant::now() + engine.cfg.timeout;
        let secs = engine.cfg.timeout.as_secs_f64();
        let timed_out = |e: PlayerError| match e {
            PlayerError::Timeout => {
                anyhow!("the engine gave no perft total within {secs} s (timeout=)")
            }
            e => anyhow!("{e}"),
        };
        let lines = match self {
            Session::Uci(proc) => {
                let mut position = format!("position fen {root}");
                if !moves.is_empty() {
                    position.push_str(" moves ");
                    position.push_str(&moves.join(" "));
                }
                proc.send(&position).map_err(timed_out)?;
                proc.send(&format!("go perft {depth}")).map_err(timed_out)?;
                let mut lines = Vec::new();
                loop {
                    let line = proc.recv(deadline).map_err(timed_out)?;
                    let done = uci_total(&line).is_some();
                    lines.push(line);
                    if done {
                        break;
                    }
                }
                lines
            }
            Session::Perftree => {
                let mut cfg = engine.cfg.clone();
                cfg.args.push(depth.to_string());
                cfg.args.push(root.to_string());
                if !moves.is_empty() {
                    cfg.args.push(moves.join(" "));
                }
                let mut proc = Process::start(ENGINE, &cfg).map_err(timed_out)?;
                let mut lines = Vec::new();
                loop {
                    match proc.recv(deadline) {
                        Ok(line) => lines.push(line),
                        Err(PlayerError::Crashed(_)) => break,
                        Err(e) => return Err(timed_out(e)),
                    }
                }
                lines
            }
        };
        let proto = engine.proto;
        parse_divide(proto, &lines, game)
            .with_context(|| format!("reading the engine's divide at depth {depth}"))
    }
}

/// The total of a UCI perft (`Nodes searched: N`; also `Nodes: N`,
/// `Total: N`, `Nodes searched : N`, any case).
fn uci_total(line: &str) -> Option<u64> {
    let (key, value) = line.split_once(':')?;
    let key = key.trim().to_ascii_lowercase();
    matches!(
        key.as_str(),
        "nodes searched" | "nodes" | "total" | "total nodes"
    )
    .then(|| value.trim().parse().ok())
    .flatten()
}

/// Whether `text` looks like a move in coordinates (`e2e4`, `e7e8q`,
/// `e1h1`), not a banner word.
fn move_like(text: &str) -> bool {
    let b = text.as_bytes();
    let square = |i: usize| {
        b.get(i).is_some_and(|c| (b'a'..=b'h').contains(c))
            && b.get(i + 1).is_some_and(|c| (b'1'..=b'8').contains(c))
    };
    (b.len() == 4 || (b.len() == 5 && b[4].is_ascii_alphabetic())) && square(0) && square(2)
}

/// Reads the engine's divide from its `lines`: `move: count` (UCI) or
/// `move count` (perftree) lines and the total, which must be their sum.
fn parse_divide(proto: Proto, lines: &[String], game: &VariantGame) -> anyhow::Result<Divide> {
    let mut divide = Divide::new();
    let mut total = None;
    for line in lines {
        let line = line.trim();
        if line.is_empty() || line.starts_with("info") {
            continue;
        }
        let pair = match proto {
            Proto::Uci => {
                if let Some(t) = uci_total(line) {
                    total = Some(t);
                    continue;
                }
                line.split_once(':')
            }
            Proto::Perftree => {
                if let Ok(t) = line.parse::<u64>() {
                    total = Some(t);
                    continue;
                }
                line.split_once(' ')
            }
        };
        let Some((text, count)) = pair.map(|(m, c)| (m.trim(), c.trim())) else {
            if proto == Proto::Uci {
                continue; // a banner line
            }
            bail!("unexpected line \"{line}\"");
        };
        if !move_like(text) {
            if proto == Proto::Uci {
                continue;
            }
            bail!("unexpected line \"{line}\"");
        }
        let count: u64 = count
            .parse()
            .map_err(|_| anyhow!("bad count in \"{line}\""))?;
        if divide.insert(normalize_move(game, text), count).is_some() {
            bail!("the move {text} is listed twice");
        }
    }
    let Some(total) = total else {
        bail!("no total after the moves");
    };
    let sum: u64 = divide.values().sum();
    if sum != total {
        bail!("the total {total} is not the sum of the moves' counts {sum}");
    }
    Ok(divide)
}

/// varia's divide of `game` at `depth`, by UCI move.
fn varia_divide(game: &VariantGame, depth: u32) -> Divide {
    with_position!(game, V, pos => movegen::divide(&pos, depth))
        .into_iter()
        .map(|(m, n)| (m.uci(), n))
        .collect()
}

/// How two divides of one position differ.
#[derive(Debug, Default)]
struct Difference {
    /// Moves only the engine lists, with its counts.
    engine_only: Vec<(String, u64)>,
    /// Moves only varia lists, with its counts.
    varia_only: Vec<(String, u64)>,
    /// Moves both list with different counts: (move, varia's, engine's).
    counts: Vec<(String, u64, u64)>,
}

fn difference(varia: &Divide, engine: &Divide) -> Difference {
    let mut d = Difference::default();
    for (m, &n) in engine {
        match varia.get(m) {
            None => d.engine_only.push((m.clone(), n)),
            Some(&v) if v != n => d.counts.push((m.clone(), v, n)),
            _ => {}
        }
    }
    for (m, &n) in varia {
        if !engine.contains_key(m) {
            d.varia_only.push((m.clone(), n));
        }
    }
    d
}

fn list(moves: &[(String, u64)]) -> String {
    moves
        .iter()
        .map(|(m, n)| format!("{m} ({n})"))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Runs `varia perft-compare`.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    if !(1..=crate::perft::MAX_DEPTH).contains(&args.depth) {
        bail!(
            "--depth {}: expected 1 to {}",
            args.depth,
            crate::perft::MAX_DEPTH
        );
    }
    let engine = CompareEngine::parse(&args.engine)?;
    let root = match &args.fen {
        Some(fen) => {
            VariantGame::from_fen(args.variant, fen).map_err(|e| anyhow!("--fen \"{fen}\": {e}"))?
        }
        None => VariantGame::new(args.variant),
    };
    let root_fen = root.fen();
    let named = || format!("engine {}", engine.cfg.cmd.display());
    let mut session = Session::start(&engine, args.variant)
        .map_err(|e| anyhow!("{e}"))
        .with_context(named)?;
    let mut game = root.clone();
    let mut path: Vec<String> = Vec::new();
    let mut root_totals = None;
    for depth in (1..=args.depth).rev() {
        let ours = varia_divide(&game, depth);
        let theirs = session
            .divide(&engine, &root_fen, &path, &game, depth)
            .with_context(named)?;
        let (varia_total, engine_total) = (ours.values().sum::<u64>(), theirs.values().sum());
        root_totals.get_or_insert((varia_total, engine_total));
        let diff = difference(&ours, &theirs);
        let descend = diff.counts.first().map(|(m, _, _)| m.clone());
        if !args.quiet {
            eprintln!(
                "depth {depth} after [{}]: varia {varia_total}, engine {engine_total}{}",
                path.join(" "),
                descend
                    .as_ref()
                    .filter(|_| diff.engine_only.is_empty() && diff.varia_only.is_empty())
                    .map(|m| format!(", descending into {m}"))
                    .unwrap_or_default()
            );
        }
        if path.is_empty() && ours == theirs {
            writeln!(
                std::io::stdout(),
                "{} depth {}: {varia_total} nodes, varia and the engine agree",
                args.variant.protocol_name(),
                args.depth
            )?;
            return Ok(ExitCode::SUCCESS);
        }
        let stop = ours == theirs
            || !diff.engine_only.is_empty()
            || !diff.varia_only.is_empty()
            || depth == 1;
        if stop {
            report(&args, root_totals, &path, &game, depth, &diff)?;
            return Ok(ExitCode::from(1));
        }
        let Some(m) = descend else {
            unreachable!("divides that differ have a differing move")
        };
        game.play_uci(&m)
            .with_context(|| format!("playing {m} after [{}]", path.join(" ")))?;
        path.push(m);
    }
    unreachable!("depth 1 always ends the walk")
}

/// Prints the difference found at `game` (after `path`), `depth` plies deep.
fn report(
    args: &Args,
    root_totals: Option<(u64, u64)>,
    path: &[String],
    game: &VariantGame,
    depth: u32,
    diff: &Difference,
) -> std::io::Result<()> {
    let mut o = std::io::stdout().lock();
    let (varia, engine) = root_totals.unwrap_or_default();
    writeln!(
        o,
        "{} depth {}: varia {varia} nodes, engine {engine}",
        args.variant.protocol_name(),
        args.depth
    )?;
    writeln!(o, "path: {}", path.join(" "))?;
    writeln!(o, "fen: {}", game.fen())?;
    writeln!(o, "depth: {depth}")?;
    if !diff.engine_only.is_empty() {
        writeln!(o, "engine only: {}", list(&diff.engine_only))?;
    }
    if !diff.varia_only.is_empty() {
        writeln!(o, "varia only: {}", list(&diff.varia_only))?;
    }
    for (m, v, e) in &diff.counts {
        writeln!(o, "count differs: {m} varia {v} engine {e}")?;
    }
    if diff.engine_only.is_empty() && diff.varia_only.is_empty() && diff.counts.is_empty() {
        writeln!(
            o,
            "the engine's divide here agrees with varia's, but its count for the last move one level up did not: the engine contradicts itself"
        )?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(s: &[&str]) -> Vec<String> {
        s.iter().map(|w| w.to_string()).collect()
    }

    #[test]
    fn engine_settings_take_perftree_and_reject_others() {
        let e = CompareEngine::parse(&words(&["cmd=/bin/sh,args=-c x,proto=perftree"])).unwrap();
        assert_eq!(e.proto, Proto::Perftree);
        assert_eq!(e.cfg.args, ["-c", "x"]);
        let e = CompareEngine::parse(&words(&["cmd=/bin/true", "option.Hash=8"])).unwrap();
        assert_eq!(e.proto, Proto::Uci);
        for (bad, says) in [
            (
                &["cmd=/bin/true,proto=xboard"][..],
                "expected uci or perftree",
            ),
            (&["cmd=/bin/true,nodes=5"][..], "unknown setting \"nodes\""),
            (&["args=x"][..], "cmd=PATH is required"),
            (&["cmd=/bin/true,timeout=soon"][..], "bad timeout=\"soon\""),
        ] {
            let e = CompareEngine::parse(&words(bad)).unwrap_err().to_string();
            assert!(e.contains(says), "{bad:?}: {e}");
        }
    }

    #[test]
    fn divides_are_read_in_both_formats() {
        let game = VariantGame::new(VariantKind::Chess);
        let uci: Vec<String> = words(&[
            "info string hello",
            "Stockfish 17 by the Stockfish developers",
            "e2e4: 20",
            "a2a3: 20",
            "",
            "Nodes searched: 40",
        ]);
        let d = parse_divide(Proto::Uci, &uci, &game).unwrap();
        assert_eq!(d.get("e2e4"), Some(&20));
        assert_eq!(d.len(), 2);
        let tree = words(&["e2e4 20", "g1f3 20", "", "40"]);
        assert_eq!(
            parse_divide(Proto::Perftree, &tree, &game).unwrap().len(),
            2
        );
        for (proto, bad, says) in [
            (Proto::Uci, &["e2e4: x", "Nodes: 1"][..], "bad count"),
            (Proto::Uci, &["e2e4: 2", "Total: 3"][..], "not the sum"),
            (Proto::Uci, &["e2e4: 2", "e2e4: 2", "Total: 4"][..], "twice"),
            (Proto::Perftree, &["e2e4 2"][..], "no total"),
            (
                Proto::Perftree,
                &["hello world", "0"][..],
                "unexpected line",
            ),
        ] {
            let e = parse_divide(proto, &words(bad), &game)
                .unwrap_err()
                .to_string();
            assert!(e.contains(says), "{bad:?}: {e}");
        }
    }
}
