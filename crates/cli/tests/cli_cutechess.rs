//! varia under cutechess-cli, the tournament manager most engine authors
//! use: UCI against CECP with pondering and a move overhead, at a fast time
//! control. cutechess-cli is not part of the project: the test runs only
//! when `VARIA_CUTECHESS` names its binary, and says so when it skips.

use std::process::Command;

#[test]
fn pondering_games_under_cutechess_end_normally() {
    let Some(cutechess) = std::env::var_os("VARIA_CUTECHESS") else {
        eprintln!("skipped: set VARIA_CUTECHESS to a cutechess-cli binary to run it");
        return;
    };
    let varia = env!("CARGO_BIN_EXE_varia");
    let out = Command::new(cutechess)
        .args(["-engine", "name=uci", &format!("cmd={varia}"), "arg=uci"])
        .args(["proto=uci", "option.Move Overhead=100"])
        .args([
            "-engine",
            "name=cecp",
            &format!("cmd={varia}"),
            "arg=xboard",
        ])
        .args(["proto=xboard", "option.Move Overhead=100"])
        .args(["-each", "tc=2+0.02", "ponder", "option.Hash=16"])
        .args(["-games", "2", "-repeat", "-debug", "all"])
        .output()
        .expect("cutechess-cli runs");
    let log = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{log}");
    let finished: Vec<&str> = log
        .lines()
        .filter(|l| l.starts_with("Finished game"))
        .collect();
    assert_eq!(finished.len(), 2, "{log}");
    for line in &finished {
        for bad in [
            "on time",
            "illegal",
            "disconnects",
            "stalls",
            "crash",
            "connection",
        ] {
            assert!(!line.to_lowercase().contains(bad), "{line}");
        }
    }
    // Both protocols pondered: UCI through go ponder / ponderhit, CECP
    // after hard.
    assert!(log.contains("go ponder") && log.contains(": hard"), "{log}");
    assert!(log.contains(" ponder "), "no bestmove ... ponder: {log}");
}
