//! Typed engine settings ([`EngineConfig`]), parsed once from the
//! `key=value` words of `varia match --engine ... --each ...` (cutechess's
//! and fastchess's engine options), so that every key is checked in one
//! place against one list per kind of engine, and an unknown or unimplemented
//! key is an error naming it and the valid ones, never silently ignored.
//!
//! | key | engines | meaning |
//! |---|---|---|
//! | `name=N` | all | name in results (default `engine1`, `engine2`, ...) |
//! | `tc=[M/]S[+I]` | all | time control (see [`TimeControl::parse`]) |
//! | `nodes=N`, `depth=D` | all | nodes or depth per move |
//! | `st=S`, `movetime=MS` | all | fixed time per move, in seconds or milliseconds |
//! | `eval=default\|classical\|FILE`, `hash=MB`, `threads=T` | in-process | varia's evaluation (`search::EvalChoice`: the game's default, its embedded net where it has one, else the classical evaluation; `classical`; or a file: a net, or classical weights in TOML, told apart by `search::Evaluator::load` when the match starts), table size (default 1) and search threads |
//! | `search=FILE` | in-process | varia's search settings (a `SearchParams` TOML, loaded and checked when the settings are parsed) |
//! | `cmd=PATH` and the keys of [`crate::external::settings`] | external | an external UCI/CECP engine |
//!
//! Words may hold several settings separated by commas; a comma belongs to
//! the value unless a `key=` follows it (`eval=a,b.toml`).

use crate::external::settings::{Expected, EXTERNAL_KEYS};
use crate::external::{self, ExternalConfig};
use crate::player::{InProcess, Player, PlayerError};
use crate::tc::{MoveLimits, TimeControl};
use movegen::VariantKind;
use search::settings::{MAX_HASH_MB, MAX_SEARCH_DEPTH as MAX_DEPTH};
use search::{EvalChoice, SearchParams};
use std::path::PathBuf;
use std::time::Duration;

/// Hash table size of an in-process engine without `hash=`, in MB: small,
/// because the table is cleared before every game and fixed-node games
/// never fill more.
pub const DEFAULT_HASH_MB: usize = 1;
/// Most search threads per in-process engine: fewer than
/// [`search::settings::MAX_THREADS`], since a match runs several engines at
/// once. `hash=` and `depth=` take the bounds of every front end
/// ([`search::settings::MAX_HASH_MB`], [`search::settings::MAX_SEARCH_DEPTH`]).
pub const MAX_THREADS: usize = 256;

/// Keys every engine takes: its name and its move limits.
pub const COMMON_KEYS: &[&str] = &["name", "tc", "nodes", "depth", "st", "movetime"];
/// Keys of varia's in-process engine.
pub const IN_PROCESS_KEYS: &[&str] = &["eval", "search", "hash", "threads"];

/// One player of a match: its name, per-move limits and what it is.
#[derive(Clone, Debug, PartialEq)]
pub struct EngineConfig {
    /// Name in results.
    pub name: String,
    /// Per-move limits.
    pub limits: MoveLimits,
    /// In-process or external, with its settings.
    pub kind: EngineKind,
}

/// What plays: varia in this process, or an external engine.
#[derive(Clone, Debug, PartialEq)]
pub enum EngineKind {
    /// varia's engine, searched in this process.
    InProcess(InProcessConfig),
    /// A UCI or CECP engine in a child process.
    External(ExternalConfig),
}

/// Settings of varia's in-process engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InProcessConfig {
    /// The evaluation: the game's default (its embedded net if it has one),
    /// the classical one, or a file (a net or classical weights in TOML).
    pub eval: EvalChoice,
    /// Search settings (TOML); `None`: the defaults.
    pub search: Option<PathBuf>,
    /// Transposition table size in MB.
    pub hash_mb: usize,
    /// Search threads.
    pub threads: usize,
}

impl Default for InProcessConfig {
    fn default() -> Self {
        InProcessConfig {
            eval: EvalChoice::Default,
            search: None,
            hash_mb: DEFAULT_HASH_MB,
            threads: 1,
        }
    }
}

/// Why engine settings were not accepted.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EngineConfigError {
    /// A word that is not `key=value`.
    #[error("{within}: bad setting \"{piece}\": expected key=value")]
    NotKeyValue {
        /// Where it was (`--each`, `--engine WORDS`).
        within: String,
        /// The offending piece.
        piece: String,
    },
    /// A per-engine key in the settings shared by every engine.
    #[error("--each {0}= makes no sense: give it per --engine")]
    NotShared(String),
    /// A key this kind of engine does not take.
    #[error("engine {engine}: unknown setting \"{key}\"{hint}; {kind} engines take {valid}")]
    UnknownKey {
        /// The engine.
        engine: String,
        /// The key.
        key: String,
        /// Why, if there is more to say (` (needs cmd=)`).
        hint: String,
        /// `in-process` or `external`.
        kind: &'static str,
        /// The valid keys.
        valid: String,
    },
    /// A value that does not parse or is out of range.
    #[error("engine {engine}: bad {key}=\"{value}\": expected {expected}")]
    BadValue {
        /// The engine.
        engine: String,
        /// The key.
        key: String,
        /// The value given.
        value: String,
        /// What is accepted.
        expected: String,
    },
    /// `name=` with nothing in it.
    #[error("engine {0}: empty name")]
    EmptyName(String),
    /// No `tc=`, `nodes=`, `depth=`, `st=` or `movetime=`.
    #[error("engine {0}: no move limit: give tc=, nodes=, depth=, st= or movetime= (in --each or --engine)")]
    NoLimit(String),
    /// An `eval=` file that does not exist.
    #[error("engine {engine}: eval file {path} not found")]
    EvalNotFound {
        /// The engine.
        engine: String,
        /// The path given.
        path: String,
    },
    /// A `search=` file that does not load (missing, bad TOML, an unknown
    /// key or a value out of range).
    #[error("engine {engine}: search settings not loaded: {message}")]
    BadSearchFile {
        /// The engine.
        engine: String,
        /// Why, naming the file.
        message: String,
    },
    /// Two engines with one name.
    #[error("two engines are named \"{0}\": give each a name=")]
    DuplicateName(String),
    /// Fewer than two engines.
    #[error("a match needs at least two engines: give --engine twice or more")]
    TooFewEngines,
}

/// Splits `key=value` words, several to a word when separated by commas (a
/// comma belongs to the value unless a `key=` follows it). `within` names
/// the words in errors.
pub fn split_settings(
    within: &str,
    words: &[String],
) -> Result<Vec<(String, String)>, EngineConfigError> {
    let is_key = |k: &str| {
        let mut chars = k.chars();
        chars
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
            && chars.all(|c| c.is_ascii_alphanumeric() || "_.-".contains(c))
    };
    let mut out = Vec::new();
    for word in words {
        let mut pieces: Vec<String> = Vec::new();
        for piece in word.split(',') {
            let starts_setting = piece.split_once('=').is_some_and(|(k, _)| is_key(k));
            match pieces.last_mut() {
                Some(last) if !starts_setting => {
                    last.push(',');
                    last.push_str(piece);
                }
                _ => pieces.push(piece.to_string()),
            }
        }
        for piece in pieces {
            match piece.split_once('=') {
                Some((k, v)) if is_key(k) => out.push((k.to_string(), v.to_string())),
                _ => {
                    return Err(EngineConfigError::NotKeyValue {
                        within: within.to_string(),
                        piece,
                    })
                }
            }
        }
    }
    Ok(out)
}

/// The engines of a match from the words shared by all (`--each`) and each
/// engine's own words (one list per `--engine`); an engine's own settings
/// win. Engines without `name=` are called `engine1`, `engine2`, ...
pub fn parse_engines(
    shared: &[String],
    engines: &[Vec<String>],
) -> Result<Vec<EngineConfig>, EngineConfigError> {
    let shared = split_settings("--each", shared)?;
    if let Some((k, _)) = shared.iter().find(|(k, _)| k == "name" || k == "cmd") {
        return Err(EngineConfigError::NotShared(k.clone()));
    }
    let mut out: Vec<EngineConfig> = Vec::new();
    for (i, words) in engines.iter().enumerate() {
        let own = split_settings(&format!("--engine {}", words.join(" ")), words)?;
        let settings: Vec<(String, String)> = shared.iter().chain(&own).cloned().collect();
        let engine = EngineConfig::parse(&format!("engine{}", i + 1), &settings)?;
        if out.iter().any(|e| e.name == engine.name) {
            return Err(EngineConfigError::DuplicateName(engine.name));
        }
        out.push(engine);
    }
    if out.len() < 2 {
        return Err(EngineConfigError::TooFewEngines);
    }
    Ok(out)
}

impl EngineConfig {
    /// varia in-process with the built-in weights, named `name`.
    pub fn in_process(name: &str, limits: MoveLimits) -> EngineConfig {
        EngineConfig {
            name: name.to_string(),
            limits,
            kind: EngineKind::InProcess(InProcessConfig::default()),
        }
    }

    /// Reads one engine's settings, in order (a later value of a key wins;
    /// `option.NAME` settings are all kept). An engine with `cmd=` is
    /// external, else in-process; either needs a move limit.
    pub fn parse(
        default_name: &str,
        settings: &[(String, String)],
    ) -> Result<EngineConfig, EngineConfigError> {
        let last = |key: &str| settings.iter().rev().find(|(k, _)| k == key);
        let name = match last("name") {
            Some((_, n)) if n.trim().is_empty() => {
                return Err(EngineConfigError::EmptyName(default_name.to_string()))
            }
            Some((_, n)) => n.trim().to_string(),
            None => default_name.to_string(),
        };
        let mut kind = match last("cmd") {
            Some((_, cmd)) => EngineKind::External(ExternalConfig::new(cmd)),
            None => EngineKind::InProcess(InProcessConfig::default()),
        };
        let mut limits = MoveLimits::default();
        for (key, value) in settings {
            let known = match &mut kind {
                _ if key == "name" => Ok(true),
                _ if COMMON_KEYS.contains(&key.as_str()) => set_limit(&mut limits, key, value),
                EngineKind::InProcess(c) => c.set(key, value),
                EngineKind::External(c) => c.set(key, value),
            };
            match known {
                Ok(true) => {}
                Ok(false) => return Err(unknown_key(&name, key, &kind)),
                Err(Expected(expected)) => {
                    return Err(EngineConfigError::BadValue {
                        engine: name,
                        key: key.clone(),
                        value: value.clone(),
                        expected,
                    })
                }
            }
        }
        if limits.is_empty() {
            return Err(EngineConfigError::NoLimit(name));
        }
        if let EngineKind::InProcess(InProcessConfig {
            eval: EvalChoice::File(p),
            ..
        }) = &kind
        {
            if !p.is_file() {
                let path = p.display().to_string();
                return Err(EngineConfigError::EvalNotFound { engine: name, path });
            }
        }
        if let EngineKind::InProcess(InProcessConfig {
            search: Some(p), ..
        }) = &kind
        {
            // What a file may set is the same in every game: checked as chess.
            if let Err(e) = SearchParams::load(VariantKind::Chess, p) {
                let message = e.to_string();
                return Err(EngineConfigError::BadSearchFile {
                    engine: name,
                    message,
                });
            }
        }
        Ok(EngineConfig { name, limits, kind })
    }

    /// Starts the player: an in-process engine, or the external engine's
    /// process through its handshake.
    pub fn start(&self) -> Result<Box<dyn Player>, PlayerError> {
        self.start_checked(None)
    }

    /// Like [`EngineConfig::start`], and also checks that an external engine
    /// plays `variant`, so that a match fails at once with a clear message
    /// instead of losing every game.
    pub fn start_for(&self, variant: VariantKind) -> Result<Box<dyn Player>, PlayerError> {
        self.start_checked(Some(variant))
    }

    fn start_checked(&self, variant: Option<VariantKind>) -> Result<Box<dyn Player>, PlayerError> {
        match &self.kind {
            EngineKind::InProcess(c) => {
                let engine = InProcess::new(&self.name, c.eval.clone(), c.hash_mb, c.threads);
                Ok(Box::new(match &c.search {
                    Some(path) => engine.with_search_file(path.clone()),
                    None => engine,
                }))
            }
            EngineKind::External(c) => external::spawn(&self.name, c, variant),
        }
    }
}

impl InProcessConfig {
    /// Applies `key=value`: `Ok(false)` if `key` is not an in-process
    /// engine's setting, `Err` if its value is bad.
    pub fn set(&mut self, key: &str, value: &str) -> Result<bool, Expected> {
        match key {
            "eval" => self.eval = EvalChoice::parse(value),
            "search" => self.search = Some(PathBuf::from(value)),
            "hash" => {
                self.hash_mb = number_in(value, 1..=MAX_HASH_MB, || {
                    format!("1 to {MAX_HASH_MB} megabytes")
                })?
            }
            "threads" => {
                self.threads = number_in(value, 1..=MAX_THREADS, || {
                    format!("1 to {MAX_THREADS} threads")
                })?
            }
            _ => return Ok(false),
        }
        Ok(true)
    }
}

/// Applies a move-limit key (`tc`, `nodes`, `depth`, `st`, `movetime`).
fn set_limit(l: &mut MoveLimits, key: &str, value: &str) -> Result<bool, Expected> {
    let v = value.trim();
    match key {
        "tc" => {
            l.tc = Some(TimeControl::parse(v).ok_or_else(|| {
                Expected("[moves/]seconds[+increment], e.g. 40/60+0.6 or 10+0.1".into())
            })?)
        }
        "nodes" => {
            l.nodes = Some(number_in(v, 1..=u64::MAX, || {
                "a positive number of nodes".into()
            })?)
        }
        "depth" => {
            l.depth = Some(number_in(v, 1..=MAX_DEPTH, || {
                format!("a depth from 1 to {MAX_DEPTH}")
            })?)
        }
        "st" => l.movetime = Some(seconds_per_move(v.parse().ok(), 1.0)?),
        "movetime" => l.movetime = Some(seconds_per_move(v.parse().ok(), 1e-3)?),
        _ => return Ok(false),
    }
    Ok(true)
}

/// A fixed time per move given in units of `unit` seconds.
fn seconds_per_move(v: Option<f64>, unit: f64) -> Result<Duration, Expected> {
    let secs = v.map(|x| x * unit);
    match secs {
        Some(s) if s.is_finite() && s > 0.0 && s < 1e6 => Ok(Duration::from_secs_f64(s)),
        _ if unit == 1.0 => Err(Expected("a positive number of seconds per move".into())),
        _ => Err(Expected(
            "a positive number of milliseconds per move".into(),
        )),
    }
}

/// An integer in `range`; `expected` describes it for the error.
fn number_in<T: std::str::FromStr + PartialOrd>(
    v: &str,
    range: std::ops::RangeInclusive<T>,
    expected: impl FnOnce() -> String,
) -> Result<T, Expected> {
    v.trim()
        .parse::<T>()
        .ok()
        .filter(|n| range.contains(n))
        .ok_or_else(|| Expected(expected()))
}

/// The error for `key` on an engine of `kind`, with a hint when the key
/// belongs to the other kind or is not implemented.
fn unknown_key(engine: &str, key: &str, kind: &EngineKind) -> EngineConfigError {
    let external = matches!(kind, EngineKind::External(_));
    let hint = match key {
        _ if external && IN_PROCESS_KEYS.contains(&key) => {
            format!(
                " ({key}= is for varia's in-process engine; use option.NAME= for an external one)"
            )
        }
        _ if !external && (key.starts_with("option.") || EXTERNAL_KEYS.contains(&key)) => {
            format!(" ({key}= needs cmd=)")
        }
        "variant" => " (the match's --variant sets the game)".into(),
        "ponder" => " (not implemented: engines never ponder)".into(),
        "restart" => " (not implemented: engines restart only after a crash or timeout)".into(),
        _ => String::new(),
    };
    let own = if external {
        EXTERNAL_KEYS
    } else {
        IN_PROCESS_KEYS
    };
    EngineConfigError::UnknownKey {
        engine: engine.to_string(),
        key: key.to_string(),
        hint,
        kind: if external { "external" } else { "in-process" },
        valid: COMMON_KEYS
            .iter()
            .chain(own)
            .copied()
            .collect::<Vec<_>>()
            .join(", "),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(s: &[&str]) -> Vec<String> {
        s.iter().map(|w| w.to_string()).collect()
    }

    fn parse(s: &[&str]) -> Result<EngineConfig, EngineConfigError> {
        EngineConfig::parse("e", &split_settings("test", &words(s))?)
    }

    #[test]
    fn settings_split_on_commas_before_keys_only() {
        let s = split_settings(
            "x",
            &words(&["name=tuned,eval=a,b.toml,hash=16", "option.Threads=1"]),
        )
        .unwrap();
        assert_eq!(
            s,
            [
                ("name".into(), "tuned".into()),
                ("eval".into(), "a,b.toml".into()),
                ("hash".into(), "16".into()),
                ("option.Threads".into(), "1".into())
            ]
        );
        let e = split_settings("--each", &words(&["nonsense"])).unwrap_err();
        assert_eq!(
            e.to_string(),
            "--each: bad setting \"nonsense\": expected key=value"
        );
    }

    #[test]
    fn limits_parse_and_are_checked() {
        let c = parse(&["tc=40/60+0.6,nodes=1000,depth=7,st=0.5"]).unwrap();
        let l = c.limits;
        assert_eq!(l.nodes, Some(1000));
        assert_eq!(l.depth, Some(7));
        assert_eq!(l.movetime, Some(Duration::from_millis(500)));
        assert!(l.tc.is_some());
        let ms = parse(&["movetime=250"]).unwrap();
        assert_eq!(ms.limits.movetime, Some(Duration::from_millis(250)));
        for bad in [
            "tc=x",
            "nodes=0",
            "depth=0",
            "depth=101",
            "st=-1",
            "nodes=abc",
            "movetime=0",
        ] {
            let e = parse(&[bad]).unwrap_err();
            assert!(
                matches!(e, EngineConfigError::BadValue { .. }),
                "{bad}: {e}"
            );
        }
        assert_eq!(
            parse(&["name=x"]),
            Err(EngineConfigError::NoLimit("x".into()))
        );
    }

    #[test]
    fn in_process_settings() {
        let c = parse(&["name=a,nodes=5,hash=16,threads=2"]).unwrap();
        assert_eq!(c.name, "a");
        let want = InProcessConfig {
            eval: EvalChoice::Default,
            search: None,
            hash_mb: 16,
            threads: 2,
        };
        assert_eq!(c.kind, EngineKind::InProcess(want));
        for bad in ["hash=0", "hash=x", "threads=0", "threads=257"] {
            assert!(parse(&["nodes=5", bad]).is_err(), "{bad}");
        }
        let e = parse(&["nodes=5", "eval=/no/such.toml"]).unwrap_err();
        assert!(e.to_string().contains("not found"), "{e}");
        let e = parse(&["nodes=5", "search=/no/such.toml"]).unwrap_err();
        assert!(
            matches!(&e, EngineConfigError::BadSearchFile { .. })
                && e.to_string().contains("/no/such.toml"),
            "{e}"
        );
        assert!(matches!(
            parse(&["name= ", "nodes=5"]),
            Err(EngineConfigError::EmptyName(_))
        ));
    }

    #[test]
    fn unknown_and_unimplemented_keys_name_the_valid_ones() {
        for (kind, key) in [
            (&[][..], "bogus"),
            (&[][..], "ponder"),
            (&[][..], "restart"),
            (&[][..], "variant"),
            (&[][..], "proto"),
            (&[][..], "option.Hash"),
            (&["cmd=/bin/true"][..], "restart"),
            (&["cmd=/bin/true"][..], "ponder"),
            (&["cmd=/bin/true"][..], "variant"),
            (&["cmd=/bin/true"][..], "hash"),
            (&["cmd=/bin/true"][..], "bogus"),
        ] {
            let mut w = words(kind);
            w.push("nodes=5".into());
            w.push(format!("{key}=1"));
            let e = EngineConfig::parse("e", &split_settings("t", &w).unwrap()).unwrap_err();
            let text = e.to_string();
            assert!(matches!(e, EngineConfigError::UnknownKey { .. }), "{text}");
            assert!(text.contains(&format!("\"{key}\"")), "{text}");
            assert!(
                text.contains("name, tc, nodes, depth, st, movetime"),
                "{text}"
            );
            assert!(!text.contains('\n'), "{text}");
        }
    }

    #[test]
    fn external_settings() {
        let c = parse(&["cmd=/bin/true", "proto=xboard", "option.Hash=8", "st=1"]).unwrap();
        let EngineKind::External(x) = &c.kind else {
            panic!("{c:?}")
        };
        assert_eq!(x.proto, external::Protocol::Xboard);
        assert_eq!(x.options, [("Hash".to_string(), "8".to_string())]);
        let e = parse(&["cmd=/bin/true", "st=1", "timeout=soon"]).unwrap_err();
        assert_eq!(
            e.to_string(),
            "engine e: bad timeout=\"soon\": expected a positive number of seconds"
        );
        assert!(parse(&["cmd=", "st=1"]).is_err());
    }

    #[test]
    fn engines_share_settings_and_have_distinct_names() {
        let each = words(&["nodes=5"]);
        let list = parse_engines(&each, &[words(&["name=a"]), words(&["hash=2"])]).unwrap();
        assert_eq!(list[1].name, "engine2");
        assert_eq!(list[1].limits.nodes, Some(5));
        let own = parse_engines(&each, &[words(&["nodes=7"]), words(&[])]).unwrap();
        assert_eq!(own[0].limits.nodes, Some(7));
        let dup = parse_engines(&each, &[words(&["name=a"]), words(&["name=a"])]);
        assert_eq!(dup, Err(EngineConfigError::DuplicateName("a".into())));
        let one = parse_engines(&each, &[words(&["name=a"])]);
        assert_eq!(one, Err(EngineConfigError::TooFewEngines));
        let shared_name = parse_engines(&words(&["name=x"]), &[words(&[]), words(&[])]);
        assert_eq!(
            shared_name,
            Err(EngineConfigError::NotShared("name".into()))
        );
    }
}
