//! The fake CECP (XBoard protocol 2) engine: plays a legal chess move at once.
//!
//! Options:
//! - `--san`: reply in long SAN (`Ng1f3`, `exd5`) instead of coordinates
//! - `--my-move-is`: reply `My move is: X` instead of `move X`
//! - `--no-usermove`: announce `usermove=0` (moves arrive bare)
//! - `--slow-features S`: send `feature done=0` first, the features S seconds later
//! - `--resign-at N`: resign on the N-th `go` of this process
//! - `--reject-at N`: answer the N-th move received with `Illegal move: X`
//! - `--claim-at N RESULT`: on the N-th `go`, claim RESULT (`1-0`, `0-1`,
//!   `1/2-1/2`) instead of moving
//! - `--once FILE`: do the above only in the first process that gets there
//!   (FILE is created as the marker)

use crate::board::{once, Board};
use crate::{out, Args};
use std::time::Duration;

/// What the engine was asked to do wrong, and when.
struct Faults<'a> {
    san: bool,
    my_move_is: bool,
    resign_at: u64,
    claim_at: u64,
    claim: &'a str,
    marker: Option<&'a str>,
}

/// Answers a `go` (or a move outside force mode): a move, a resignation or
/// a claimed result. `gos` counts the `go`s of this process.
fn think(board: &mut Board, gos: &mut u64, f: &Faults) {
    *gos += 1;
    if *gos == f.resign_at && once(f.marker) {
        out("resign");
        return;
    }
    if *gos == f.claim_at && once(f.marker) {
        out(&format!("{} {{claimed}}", f.claim));
        return;
    }
    let Some(m) = board.choose() else {
        out("1/2-1/2 {no moves}");
        return;
    };
    out(&format!("1 {} 0 1 {m}", (*gos % 5) as i64 - 2));
    let text = if f.san { board.san(&m) } else { m.clone() };
    let prefix = if f.my_move_is {
        "My move is: "
    } else {
        "move "
    };
    out(&format!("{prefix}{text}"));
    board.play(&m);
}

/// Runs the engine until `quit` or the end of stdin.
pub fn run(args: &Args) -> Result<(), String> {
    let usermove = !args.has("--no-usermove");
    let slow: f64 = args.number("--slow-features", 0.0)?;
    let reject_at: u64 = args.number("--reject-at", 0)?;
    let claim_at: u64 = args.number("--claim-at", 0)?;
    let claim = match claim_at {
        0 => "",
        _ => args
            .after("--claim-at", 2)
            .ok_or("--claim-at needs a number and a result")?,
    };
    let faults = Faults {
        san: args.has("--san"),
        my_move_is: args.has("--my-move-is"),
        resign_at: args.number("--resign-at", 0)?,
        claim_at,
        claim,
        marker: args.after("--once", 1),
    };
    let mut board = Board::default();
    let mut force = false;
    let mut gos = 0;
    let mut received = 0;
    for line in crate::input_lines() {
        let toks: Vec<&str> = line.split_whitespace().collect();
        let Some(&cmd) = toks.first() else { continue };
        match cmd {
            "xboard" | "accepted" | "rejected" | "post" | "nopost" | "easy" | "hard"
            | "computer" | "random" | "level" | "st" | "sd" | "time" | "otim" | "memory"
            | "option" => {}
            "protover" => {
                if slow > 0.0 {
                    out("feature done=0");
                    std::thread::sleep(Duration::from_secs_f64(slow));
                }
                out(&format!(
                    "feature myname=\"FakeCECP\" ping=1 setboard=1 usermove={}",
                    u8::from(usermove)
                ));
                out("feature variants=\"normal\" option=\"Style -combo Solid /// Wild\" memory=1 done=1");
            }
            "new" => {
                board = Board::default();
                force = false;
            }
            "variant" => {
                if toks[1..] != ["normal"] {
                    out(&format!(
                        "Error (unsupported variant): {}",
                        toks[1..].join(" ")
                    ));
                }
            }
            "force" => force = true,
            "setboard" => board = Board::from_fen(&toks[1..].join(" ")),
            "ping" => out(&format!("pong {}", toks.get(1).unwrap_or(&""))),
            "go" => {
                force = false;
                think(&mut board, &mut gos, &faults);
            }
            "quit" => return Ok(()),
            _ => {
                let m = match toks.get(1) {
                    Some(m) if cmd == "usermove" => *m,
                    _ => cmd,
                };
                if (cmd == "usermove") != usermove
                    || m.len() < 4
                    || !m.starts_with(|c: char| ('a'..='h').contains(&c))
                {
                    out(&format!("Error (unknown command): {}", line.trim()));
                    continue;
                }
                received += 1;
                if received == reject_at && once(faults.marker) {
                    out(&format!("Illegal move: {m}"));
                    continue;
                }
                board.play(m);
                if !force {
                    think(&mut board, &mut gos, &faults);
                }
            }
        }
    }
    Ok(())
}
