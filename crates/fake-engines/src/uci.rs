//! The fake UCI engine: plays a legal chess move at once.
//!
//! Options:
//! - `--crash-at N`: exit abruptly (code 3) on the N-th `go` of this process
//! - `--hang-at N`: stop answering on the N-th `go` (sleeps 60 s, then exits)
//! - `--illegal-at N`: answer the N-th `go` with an illegal move (`a1a1`)
//! - `--once FILE`: do the above only in the first process that gets there
//!   (FILE is created as the marker), so a restarted engine plays normally
//! - `--slow-start S`: sleep S seconds before answering `uci`
//! - `--tunable`: declare `option name Blunder type spin default 0 min 0
//!   max 1000` and, with `Blunder` set to B, answer a `go` with an illegal
//!   move (a lost game) when a hash of the ply and the `go` count, modulo
//!   1000, is below B: an engine whose strength falls with an option, for
//!   the tests of SPSA over UCI (`varia tune spsa --engine`)

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
    let tunable = args.has("--tunable");
    let mut blunder: u64 = 0;
    let mut ply: u64 = 0;
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
                if tunable {
                    out("option name Blunder type spin default 0 min 0 max 1000");
                }
                out("uciok");
            }
            "isready" => out("readyok"),
            // setoption name Blunder value B
            "setoption"
                if tunable
                    && toks
                        .get(2)
                        .is_some_and(|n| n.eq_ignore_ascii_case("blunder")) =>
            {
                blunder = toks.get(4).and_then(|v| v.parse().ok()).unwrap_or(0);
            }
            "position" => {
                let moves = toks.iter().position(|t| *t == "moves");
                board = if toks.get(1) == Some(&"startpos") {
                    Board::default()
                } else {
                    let end = moves.unwrap_or(toks.len());
                    Board::from_fen(&toks[2.min(end)..end].join(" "))
                };
                let played = moves.map_or(&[][..], |i| &toks[i + 1..]);
                ply = played.len() as u64;
                for m in played {
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
                if tunable && draw(ply, gos) % 1000 < blunder {
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

/// A well-mixed number for `(a, b)` (splitmix64's finalizer).
fn draw(a: u64, b: u64) -> u64 {
    let mut z = a
        .wrapping_mul(0x9E37_79B9_7F4A_7C15)
        .wrapping_add(b.wrapping_mul(0xC2B2_AE3D_27D4_EB4F));
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}
