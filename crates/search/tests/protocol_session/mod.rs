//! A protocol session for tests: the engine loop runs on its own thread,
//! reading from one pipe and writing to another; the test sends lines and
//! waits for replies with a timeout.

#![allow(dead_code)]

use std::io::{self, BufRead, BufReader, PipeReader, PipeWriter, Write};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// The protocol loop under test.
pub type Loop = fn(BufReader<PipeReader>, PipeWriter) -> io::Result<()>;

/// How long any expected reply may take.
pub const TIMEOUT: Duration = Duration::from_secs(60);

pub struct Session {
    input: Option<PipeWriter>,
    lines: Receiver<String>,
    engine: Option<JoinHandle<io::Result<()>>>,
    /// Every line received so far.
    pub transcript: Vec<String>,
}

impl Session {
    pub fn start(run: Loop) -> Session {
        let (in_r, in_w) = io::pipe().expect("pipe");
        let (out_r, out_w) = io::pipe().expect("pipe");
        let engine = std::thread::spawn(move || run(BufReader::new(in_r), out_w));
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(out_r).lines() {
                let Ok(line) = line else { return };
                if tx.send(line).is_err() {
                    return;
                }
            }
        });
        Session {
            input: Some(in_w),
            lines: rx,
            engine: Some(engine),
            transcript: Vec::new(),
        }
    }

    pub fn uci() -> Session {
        Session::start(search::protocol::uci::run::<BufReader<PipeReader>, PipeWriter>)
    }

    pub fn xboard() -> Session {
        Session::start(search::protocol::xboard::run::<BufReader<PipeReader>, PipeWriter>)
    }

    /// Sends one line.
    pub fn send(&mut self, line: &str) {
        let w = self.input.as_mut().expect("input is open");
        w.write_all(line.as_bytes()).expect("engine reads");
        w.write_all(b"\n").expect("engine reads");
        w.flush().expect("engine reads");
    }

    /// Sends several lines.
    pub fn send_all(&mut self, lines: &[&str]) {
        for l in lines {
            self.send(l);
        }
    }

    fn next_line(&mut self, deadline: Instant) -> Option<String> {
        let left = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(left) {
            Ok(l) => {
                self.transcript.push(l.clone());
                Some(l)
            }
            Err(RecvTimeoutError::Timeout) | Err(RecvTimeoutError::Disconnected) => None,
        }
    }

    /// Reads lines until one satisfies `pred`; returns all of them (the match
    /// last). Panics with the transcript after [`TIMEOUT`].
    pub fn until(&mut self, what: &str, pred: impl Fn(&str) -> bool) -> Vec<String> {
        let deadline = Instant::now() + TIMEOUT;
        let mut got = Vec::new();
        loop {
            match self.next_line(deadline) {
                Some(l) => {
                    let done = pred(&l);
                    got.push(l);
                    if done {
                        return got;
                    }
                }
                None => panic!(
                    "no line {what} within {TIMEOUT:?}; transcript:\n{}",
                    self.transcript.join("\n")
                ),
            }
        }
    }

    /// Reads lines until one starts with `prefix`; returns that line.
    pub fn expect(&mut self, prefix: &str) -> String {
        self.until(&format!("starting with {prefix:?}"), |l| {
            l.starts_with(prefix)
        })
        .pop()
        .unwrap_or_default()
    }

    /// Sends `isready` and returns every line up to its `readyok` (that
    /// last): what the engine said before it was ready again.
    pub fn until_ready(&mut self) -> Vec<String> {
        self.send("isready");
        self.until("readyok", |l| l == "readyok")
    }

    /// Sends `line` and reads up to the line starting with `prefix`: that line
    /// and how long it took to come.
    pub fn timed(&mut self, line: &str, prefix: &str) -> (String, Duration) {
        let t = Instant::now();
        self.send(line);
        let reply = self.expect(prefix);
        (reply, t.elapsed())
    }

    /// Everything that arrives within `wait`.
    pub fn drain(&mut self, wait: Duration) -> Vec<String> {
        let deadline = Instant::now() + wait;
        let mut got = Vec::new();
        while let Some(l) = self.next_line(deadline) {
            got.push(l);
        }
        got
    }

    /// Closes the input and waits for the loop to end; returns the lines
    /// that came after the last read.
    pub fn finish(mut self) -> Vec<String> {
        drop(self.input.take());
        let deadline = Instant::now() + TIMEOUT;
        let mut rest = Vec::new();
        while let Some(l) = self.next_line(deadline) {
            rest.push(l);
        }
        let engine = self.engine.take().expect("engine thread");
        while !engine.is_finished() {
            assert!(Instant::now() < deadline, "the loop did not end");
            std::thread::sleep(Duration::from_millis(5));
        }
        engine.join().expect("no panic").expect("no I/O error");
        rest
    }

    /// [`Session::finish`], checking that the loop ends within `limit` (a
    /// search running at the end of input stops instead of going on); `what`
    /// names the search in the failure message.
    pub fn finish_within(self, limit: Duration, what: &str) -> Vec<String> {
        let t = Instant::now();
        let rest = self.finish();
        assert!(
            t.elapsed() < limit,
            "{what}: the search went on after the end of input"
        );
        rest
    }

    /// `true` once the loop has returned (after `quit`).
    pub fn wait_ended(&mut self, within: Duration) -> bool {
        let deadline = Instant::now() + within;
        let engine = self.engine.as_ref().expect("engine thread");
        while !engine.is_finished() {
            if Instant::now() >= deadline {
                return false;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        true
    }
}

/// Checks that `uci` is a legal move of `fen` in the game with protocol name
/// `variant`; returns the FEN after it.
pub fn assert_legal(variant: &str, fen: &str, uci: &str) -> String {
    let kind = movegen::VariantKind::from_protocol_name(variant).expect("protocol name");
    movegen::dispatch!(kind, V => {
        let pos = movegen::Position::<V>::from_fen(fen).expect("valid FEN");
        let m = pos
            .parse_uci(uci)
            .unwrap_or_else(|e| panic!("{variant} {fen}: move {uci:?} is not legal: {e}"));
        pos.play_unchecked(m).fen()
    })
}

/// The FEN after playing `moves` (UCI) from `fen`.
pub fn fen_after(variant: &str, fen: &str, moves: &[&str]) -> String {
    let mut f = fen.to_string();
    for m in moves {
        f = assert_legal(variant, &f, m);
    }
    f
}

/// The FEN after playing `moves` (UCI) from the start position of the game
/// named `variant` (its protocol name).
pub fn fen_from_start(variant: &str, moves: &[&str]) -> String {
    fen_after(variant, &start_fen(variant), moves)
}

/// The start FEN of a game named by its protocol name.
pub fn start_fen(variant: &str) -> String {
    movegen::VariantKind::from_protocol_name(variant)
        .expect("protocol name")
        .start_fen()
        .to_string()
}
