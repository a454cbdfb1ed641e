//! The settings of an external engine ([`ExternalConfig`]): its command
//! line, protocol, options and timeouts, typed once when the match is set up
//! (by [`crate::EngineConfig::parse`], which owns the `key=value` words), so
//! the players below never see a string setting.
//!
//! | key | meaning |
//! |---|---|
//! | `cmd=PATH` | engine binary (required); a relative path containing `/` is taken from the current directory |
//! | `args=A B ...` | space-separated arguments |
//! | `dir=PATH` | working directory of the engine |
//! | `proto=uci\|xboard` | protocol (default `uci`; `cecp` and `winboard` are aliases of `xboard`) |
//! | `option.NAME=VALUE` | UCI `setoption`; in CECP `option.Hash`/`option.memory` → `memory N`, `option.Threads`/`option.cores` → `cores N`, others `option NAME=VALUE` (the engine must announce them) |
//! | `initstr=TEXT` | sent to the engine after the handshake (`\n` separates lines) |
//! | `timeout=SECONDS` | handshake/ready timeout and the wait for moves without a clock (default 30) |
//! | `margin=SECONDS` | extra wait beyond the clock or move time before giving up (default 1) |
//! | `stderr=PATH\|inherit` | where the engine's standard error goes (default: discarded) |
//! | `log=PATH` | append the protocol traffic to a file (debugging) |

use std::path::PathBuf;
use std::time::Duration;

/// The keys of [`ExternalConfig::set`], as listed in error messages.
pub const EXTERNAL_KEYS: &[&str] = &[
    "cmd",
    "args",
    "dir",
    "proto",
    "option.NAME",
    "initstr",
    "timeout",
    "margin",
    "stderr",
    "log",
];

/// The protocol an engine speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Protocol {
    /// UCI.
    Uci,
    /// CECP (XBoard/WinBoard protocol version 2).
    Xboard,
}

/// Where an engine's standard error goes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StderrTarget {
    /// Discarded (the default).
    Discard,
    /// Shared with varia's own standard error.
    Inherit,
    /// Appended to a file.
    File(PathBuf),
}

/// Settings of an external engine (see the module docs for the keys).
#[derive(Clone, Debug, PartialEq)]
pub struct ExternalConfig {
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
    /// Where standard error goes.
    pub stderr: StderrTarget,
    /// Protocol log file.
    pub log: Option<PathBuf>,
}

/// Why the value of a setting is not accepted: what was expected instead.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Expected(pub String);

impl ExternalConfig {
    /// The defaults for the engine binary `cmd`: UCI, no arguments or
    /// options, 30 s timeout, 1 s margin, standard error discarded. A
    /// relative `cmd` with a `/` is resolved against the current directory.
    pub fn new(cmd: &str) -> ExternalConfig {
        ExternalConfig {
            cmd: resolve_cmd(cmd),
            args: Vec::new(),
            dir: None,
            proto: Protocol::Uci,
            options: Vec::new(),
            initstr: Vec::new(),
            timeout: Duration::from_secs(30),
            margin: Duration::from_secs(1),
            stderr: StderrTarget::Discard,
            log: None,
        }
    }

    /// Applies the setting `key=value`: `Ok(false)` if `key` is not an
    /// external engine's setting, `Err` if its value is bad.
    pub fn set(&mut self, key: &str, value: &str) -> Result<bool, Expected> {
        let expected = |what: &str| Err(Expected(what.to_string()));
        match key {
            "cmd" if value.trim().is_empty() => return expected("the path of the engine binary"),
            "cmd" => self.cmd = resolve_cmd(value),
            "args" => self.args = value.split_whitespace().map(str::to_string).collect(),
            "dir" if !std::path::Path::new(value).is_dir() => return expected("a directory"),
            "dir" => self.dir = Some(PathBuf::from(value)),
            "proto" | "protocol" => {
                self.proto = match value.to_ascii_lowercase().as_str() {
                    "uci" => Protocol::Uci,
                    "xboard" | "cecp" | "winboard" => Protocol::Xboard,
                    _ => return expected("uci or xboard"),
                }
            }
            "initstr" => {
                self.initstr = value
                    .replace("\\n", "\n")
                    .lines()
                    .map(|l| l.trim().to_string())
                    .filter(|l| !l.is_empty())
                    .collect()
            }
            "timeout" => self.timeout = seconds(value)?,
            "margin" => self.margin = seconds(value)?,
            "stderr" if value == "inherit" => self.stderr = StderrTarget::Inherit,
            "stderr" => self.stderr = StderrTarget::File(PathBuf::from(value)),
            "log" => self.log = Some(PathBuf::from(value)),
            _ => {
                let Some(name) = key.strip_prefix("option.") else {
                    return Ok(false);
                };
                if name.trim().is_empty() {
                    return expected("option.NAME=VALUE (an option name)");
                }
                if name.contains(['\n', '\r']) || value.contains(['\n', '\r']) {
                    return expected("an option without line breaks");
                }
                self.options.push((name.to_string(), value.to_string()));
            }
        }
        Ok(true)
    }
}

/// `cmd` as a path; a relative one with a `/` is taken from the current
/// directory (the engine may run in another `dir=`).
fn resolve_cmd(cmd: &str) -> PathBuf {
    let path = PathBuf::from(cmd.trim());
    if path.is_relative() && path.components().count() > 1 {
        if let Ok(cwd) = std::env::current_dir() {
            return cwd.join(path);
        }
    }
    path
}

fn seconds(v: &str) -> Result<Duration, Expected> {
    v.trim()
        .parse::<f64>()
        .ok()
        .filter(|x| x.is_finite() && *x > 0.0 && *x < 1e6)
        .map(Duration::from_secs_f64)
        .ok_or_else(|| Expected("a positive number of seconds".into()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_are_typed_and_checked() {
        let mut c = ExternalConfig::new("/bin/true");
        for (k, v) in [
            ("args", "a  b"),
            ("proto", "cecp"),
            ("option.Hash", "16"),
            ("timeout", "2.5"),
            ("stderr", "inherit"),
            ("initstr", "a\\n b \\n\\n"),
        ] {
            assert_eq!(c.set(k, v), Ok(true), "{k}");
        }
        assert_eq!(c.args, ["a", "b"]);
        assert_eq!(c.proto, Protocol::Xboard);
        assert_eq!(c.options, [("Hash".to_string(), "16".to_string())]);
        assert_eq!(c.timeout, Duration::from_millis(2500));
        assert_eq!(c.stderr, StderrTarget::Inherit);
        assert_eq!(c.initstr, ["a", "b"]);
        assert_eq!(c.set("hash", "16"), Ok(false));
        for (k, v) in [
            ("cmd", " "),
            ("proto", "usi"),
            ("timeout", "-1"),
            ("margin", "soon"),
            ("dir", "/no/such/dir"),
            ("option.", "1"),
            ("option.X", "a\nb"),
        ] {
            assert!(c.set(k, v).is_err(), "{k}={v}");
        }
        let relative = ExternalConfig::new("engines/x");
        assert!(relative.cmd.is_absolute());
        assert_eq!(
            ExternalConfig::new("stockfish").cmd,
            PathBuf::from("stockfish")
        );
    }
}
