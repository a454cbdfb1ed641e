//! A running engine process: its standard input, and its standard output as
//! a channel of lines filled by a reader thread, so that every wait has a
//! deadline (a hung engine costs its game, never the match). The reader is
//! [`search::protocol::lines`], the same one varia's own protocol loops use.
//!
//! It is public so that other drivers of external programs (`varia
//! perft-compare`) reuse this one reader with deadlines instead of writing a
//! second one.

use super::settings::{ExternalConfig, StderrTarget};
use crate::player::PlayerError;
use std::fs::File;
use std::io::{BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// A running engine: its stdin, and its stdout as a channel of lines.
/// Dropping it sends `quit`, waits briefly and kills the process.
pub struct Process {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    log: Option<File>,
    name: String,
}

fn append(path: &std::path::Path, key: &str) -> Result<File, PlayerError> {
    std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .map_err(|e| PlayerError::Setup(format!("{key}={}: {e}", path.display())))
}

impl Process {
    /// Starts the engine `cfg` (named `name` in the log and thread name).
    pub fn start(name: &str, cfg: &ExternalConfig) -> Result<Process, PlayerError> {
        let mut cmd = Command::new(&cfg.cmd);
        cmd.args(&cfg.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped());
        match &cfg.stderr {
            StderrTarget::Discard => cmd.stderr(Stdio::null()),
            StderrTarget::Inherit => cmd.stderr(Stdio::inherit()),
            StderrTarget::File(path) => cmd.stderr(append(path, "stderr")?),
        };
        if let Some(d) = &cfg.dir {
            cmd.current_dir(d);
        }
        let mut child = cmd
            .spawn()
            .map_err(|e| PlayerError::Setup(format!("cannot start {}: {e}", cfg.cmd.display())))?;
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
            .name(format!("engine-{name}"))
            .spawn(move || {
                for line in search::protocol::lines(BufReader::new(stdout)) {
                    if tx.send(line).is_err() {
                        break;
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
        let log = cfg.log.as_deref().map(|p| append(p, "log")).transpose()?;
        Ok(Process {
            child,
            stdin: Some(stdin),
            lines: rx,
            log,
            name: name.to_string(),
        })
    }

    fn log(&mut self, dir: &str, line: &str) {
        if let Some(f) = self.log.as_mut() {
            let _ = writeln!(f, "{} {dir} {line}", self.name);
        }
    }

    /// Sends one line.
    pub fn send(&mut self, line: &str) -> Result<(), PlayerError> {
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
    pub fn recv(&mut self, deadline: Instant) -> Result<String, PlayerError> {
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

    /// Reads lines until one is `want` (after trimming), by `deadline`.
    pub fn wait_for(&mut self, want: &str, deadline: Instant) -> Result<(), PlayerError> {
        while self.recv(deadline)?.trim() != want {}
        Ok(())
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

    /// Ends the process at once.
    pub fn kill(&mut self) {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_come_without_endings_and_survive_bad_utf8() {
        let mut cfg = ExternalConfig::new("printf");
        cfg.args = vec!["id one\\r\\nbad \\377 byte\\nlast".into()];
        let mut p = Process::start("t", &cfg).unwrap();
        let deadline = Instant::now() + Duration::from_secs(10);
        assert_eq!(p.recv(deadline).unwrap(), "id one");
        assert_eq!(p.recv(deadline).unwrap(), "bad \u{fffd} byte");
        assert_eq!(p.recv(deadline).unwrap(), "last");
        assert!(matches!(p.recv(deadline), Err(PlayerError::Crashed(_))));
    }
}
