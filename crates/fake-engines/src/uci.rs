//! The fake UCI engine: plays a legal chess move at once.
//!
//! Options:
//! - `--crash-at N`: exit abruptly (code 3) on the N-th `go` of this process
//! - `--hang-at N`: stop answering on the N-th `go` (sleeps 60 s, then exits)
//! - `--illegal-at N`: answer the N-th `go` with an illegal move (`a1a1`)
//! - `--once FILE`: do the above only in the first process that gets there
//!   (FILE is created as the marker), so a restarted engine plays normally
//! - `--slow-start S`: sleep S seconds before answering `uci`

use crate::board::{once, Board};
use crate::{out, Args};
use std::time::Duration;

/// Runs the engine until `quit` or the end of stdin.
pub fn run(args: &Args) -> Result<(), String> {
    let crash_at: u64 = args.number("--crash-at", 0)?;
    let hang_at: u64 = args.number("--hang-at", 0)?;
    let illegal_at: u64 = args.number("--illegal-at", 0)?;
    let marker = args.after("--once", 1);
    let slow: f64 = args.number("--slow-start", 0.0)?;
    let mut board = Board::default();
    let mut gos = 0;
    for line in crate::input_lines() {
        let toks: Vec<&str> = line.split_whitespace().collect();
        let Some(&cmd) = toks.first() else { continue };
        match cmd {
            "uci" => {
                std::thread::sleep(Duration::from_secs_f64(slow));
                out("id name FakeUCI");
                out("option name Hash type spin default 16 min 1 max 1024");
                out("option name UCI_Variant type combo default chess var chess");
                out("uciok");
            }
            "isready" => out("readyok"),
            "position" => {
                let moves = toks.iter().position(|t| *t == "moves");
                board = if toks.get(1) == Some(&"startpos") {
                    Board::default()
                } else {
                    let end = moves.unwrap_or(toks.len());
                    Board::from_fen(&toks[2.min(end)..end].join(" "))
                };
                for m in moves.map_or(&[][..], |i| &toks[i + 1..]) {
                    board.play(m);
                }
            }
            "go" => {
                gos += 1;
                if gos == crash_at && once(marker) {
                    out("info string crashing");
                    std::process::exit(3);
                }
                if gos == hang_at && once(marker) {
                    std::thread::sleep(Duration::from_secs(60));
                    std::process::exit(0);
                }
                if gos == illegal_at && once(marker) {
                    out("bestmove a1a1");
                    continue;
                }
                let m = board.choose().unwrap_or_else(|| "0000".to_string());
                out(&format!(
                    "info depth 1 score cp {} nodes 1 pv {m}",
                    (gos % 7) as i64 - 3
                ));
                out(&format!("bestmove {m}"));
            }
            "quit" => return Ok(()),
            _ => {}
        }
    }
    Ok(())
}
