//! Scripted UCI sessions: the protocol loop of `varia uci` driven through
//! pipes, including bad input.

mod protocol_session;

use protocol_session::{assert_legal, fen_after, fen_from_start, start_fen, Session};
use std::time::Duration;

fn bestmove(line: &str) -> String {
    line.split_whitespace()
        .nth(1)
        .unwrap_or_else(|| panic!("no move in {line:?}"))
        .to_string()
}

/// Asks `d` and returns the FEN it prints.
fn current_fen(s: &mut Session) -> String {
    s.send("d");
    s.expect("Fen: ").trim_start_matches("Fen: ").to_string()
}

/// Checks that none of `lines` is a `bestmove`.
fn assert_no_bestmove(lines: &[String]) {
    assert!(
        !lines.iter().any(|l| l.starts_with("bestmove")),
        "{lines:?}"
    );
}

/// Up to the engine's next `readyok` it says only that it plays chess's
/// built-in default evaluation, its embedded net (as after `setoption name
/// EvalFile` of nothing, or of a net it refused).
fn assert_default_then_ready(s: &mut Session) {
    let lines = s.until_ready();
    assert_eq!(lines.len(), 2, "{lines:?}");
    assert!(
        lines[0].starts_with("info string evaluation: network chess-net8m (chess 128x2 screlu")
            && lines[0].ends_with("(built in)"),
        "{lines:?}"
    );
    assert_eq!(lines[1], "readyok");
}

/// A UCI session past its handshake (`uci` answered by `uciok`).
fn after_handshake() -> Session {
    let mut s = Session::uci();
    s.send("uci");
    s.expect("uciok");
    s
}

/// Checks the engine still answers `isready`, then quits it and checks the
/// loop ends.
fn ready_then_quit(mut s: Session) {
    s.send("isready");
    s.expect("readyok");
    s.send("quit");
    assert!(s.wait_ended(Duration::from_secs(10)));
}

#[test]
fn handshake_lists_options_and_answers_isready() {
    let mut s = Session::uci();
    s.send("uci");
    let lines = s.until("uciok", |l| l == "uciok");
    assert!(lines[0].starts_with("id name varia"), "{lines:?}");
    assert!(lines.iter().any(|l| l.starts_with("id author")));
    assert!(lines.contains(
        &"option name UCI_Variant type combo default chess var chess var giveaway var 3check var atomic var losers var knightmate".to_string()
    ), "{lines:?}");
    assert!(lines
        .iter()
        .any(|l| l.starts_with("option name Hash type spin default 16 min 1")));
    assert!(lines
        .iter()
        .any(|l| l.starts_with("option name Threads type spin default 1 min 1")));
    assert!(lines.contains(&"option name EvalFile type string default <empty>".to_string()));
    assert!(lines
        .contains(&"option name Move Overhead type spin default 15 min 0 max 5000".to_string()));
    assert!(
        !lines.iter().any(|l| l.contains("suicide")),
        "never announce suicide"
    );
    ready_then_quit(s);
}

#[test]
fn go_depth_plays_a_legal_move_in_every_variant() {
    let mut s = after_handshake();
    for v in movegen::VariantKind::protocol_names() {
        s.send(&format!("setoption name UCI_Variant value {v}"));
        s.send("ucinewgame");
        s.send("position startpos moves e2e4");
        s.send("go depth 4");
        let lines = s.until("bestmove", |l| l.starts_with("bestmove"));
        assert!(
            lines.iter().any(|l| l.starts_with("info depth 4 seldepth")
                && l.contains(" score ")
                && l.contains(" nodes ")
                && l.contains(" nps ")
                && l.contains(" time ")
                && l.contains(" hashfull ")
                && l.contains(" pv ")),
            "{v}: {lines:?}"
        );
        let after_e4 = fen_from_start(v, &["e2e4"]);
        let m = bestmove(lines.last().unwrap());
        assert_legal(v, &after_e4, &m);
        // The engine's own idea of the position agrees.
        assert_eq!(current_fen(&mut s), after_e4, "{v}");

        // And from a FEN, with a few moves on top.
        let fen = match v {
            "3check" => "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5Q2/PPPP1PPP/RNB1K1NR b KQkq - 3+3 3 3",
            "knightmate" => "r1bqkb1r/pppp1ppp/2m2m2/4p3/4P3/2M2M2/PPPP1PPP/R1BQKB1R w KQkq - 4 4",
            _ => "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
        };
        let moves: &[&str] = match v {
            "3check" => &["g8f6", "a2a3"],
            // Captures are forced.
            "giveaway" | "losers" => &["f3e5", "c6e5"],
            _ => &["a2a3", "a7a6"],
        };
        s.send(&format!("position fen {fen} moves {}", moves.join(" ")));
        s.send("go nodes 3000");
        let m = bestmove(&s.expect("bestmove"));
        assert_legal(v, &fen_after(v, fen, moves), &m);
    }
    s.send("quit");
}

#[test]
fn stop_ends_an_infinite_search_and_isready_answers_during_it() {
    let mut s = Session::uci();
    s.send("position startpos moves d2d4 d7d5");
    s.send("go infinite");
    s.expect("info depth 3 ");
    assert_no_bestmove(&s.until_ready());
    // No bestmove before stop, however long it runs.
    assert_no_bestmove(&s.drain(Duration::from_millis(300)));
    s.send("stop");
    let m = bestmove(&s.expect("bestmove"));
    assert_legal("chess", &fen_from_start("chess", &["d2d4", "d7d5"]), &m);
    // Exactly one bestmove, and the engine goes on.
    assert_no_bestmove(&s.until_ready());
    // `go` with no limit at all is infinite too; a stop right after `go` is not lost.
    s.send("go");
    s.send("stop");
    bestmove(&s.expect("bestmove"));
    let rest = s.finish();
    assert!(!rest.iter().any(|l| l.starts_with("bestmove")), "{rest:?}");
}

#[test]
fn infinite_search_of_a_finished_game_waits_for_stop() {
    let mut s = Session::uci();
    // Checkmated: no move at all.
    s.send("position fen R5k1/5ppp/8/8/8/8/8/6K1 b - - 1 1");
    s.send("go infinite");
    assert_no_bestmove(&s.drain(Duration::from_millis(200)));
    s.send("stop");
    assert_eq!(s.expect("bestmove"), "bestmove 0000");
    s.send("position fen R5k1/5ppp/8/8/8/8/8/6K1 b - - 1 1");
    s.send("go depth 3");
    let lines = s.until("bestmove", |l| l.starts_with("bestmove"));
    assert_eq!(lines.last().unwrap(), "bestmove 0000");
    assert!(
        lines.iter().any(|l| l.contains("game over: 1-0")),
        "{lines:?}"
    );
    s.send("quit");
}

#[test]
fn quit_during_a_search_ends_the_loop() {
    let mut s = Session::uci();
    s.send("go infinite");
    s.expect("info depth 2 ");
    s.send("quit");
    assert!(
        s.wait_ended(Duration::from_secs(10)),
        "quit did not stop the engine"
    );
}

#[test]
fn quit_during_a_search_prints_its_bestmove_first() {
    // Every kind of search, and a go queued behind a stopping one: `quit`
    // stops them all and each answers before the loop ends, with the input
    // still open (a GUI) or closed right after (a shell pipe).
    let cases: [&[&str]; 7] = [
        &["go depth 20"],
        &["go nodes -5"],
        &["go movetime 100"],
        &["go infinite"],
        &["go ponder wtime 1000 btime 1000"],
        &["go ponder"],
        &[
            "go infinite",
            "stop",
            "position startpos moves e2e4",
            "go depth 30",
        ],
    ];
    for close_input in [false, true] {
        for script in cases {
            let mut s = after_handshake();
            s.send("position startpos");
            s.send_all(script);
            s.send("quit");
            // Lines after quit are not commands any more.
            s.send("isready");
            let what = format!("{script:?} then quit");
            let rest = if close_input {
                s.finish_within(Duration::from_secs(20), &what)
            } else {
                assert!(s.wait_ended(Duration::from_secs(20)), "{what}: no end");
                s.finish()
            };
            // Everything after `uciok`.
            let all = rest;
            let moves: Vec<&String> = all.iter().filter(|l| l.starts_with("bestmove")).collect();
            let queued = script.len() > 1;
            assert_eq!(moves.len(), 1 + queued as usize, "{what}: {all:?}");
            assert_legal("chess", &start_fen("chess"), &bestmove(moves[0]));
            if queued {
                assert_legal(
                    "chess",
                    &fen_from_start("chess", &["e2e4"]),
                    &bestmove(moves[1]),
                );
            }
            assert!(!all.contains(&"readyok".to_string()), "{what}: {all:?}");
        }
    }
}

#[test]
fn end_of_input_stops_a_limited_search_and_prints_its_move() {
    let mut s = Session::uci();
    s.send_all(&[
        "setoption name UCI_Variant value atomic",
        "position startpos",
        "go depth 5",
    ]);
    let rest = s.finish();
    let last = rest.last().expect("output");
    assert!(last.starts_with("bestmove "), "{rest:?}");
    assert_legal("atomic", &start_fen("atomic"), &bestmove(last));
    // Searches that would run for many minutes end with the input too.
    for go in [
        "go depth 100",
        "go movetime 600000",
        "go wtime 3600000 btime 3600000",
    ] {
        let mut s = Session::uci();
        s.send_all(&["position startpos", go]);
        s.expect("info depth 1 ");
        let rest = s.finish_within(Duration::from_secs(20), go);
        let last = rest.last().expect("output");
        assert!(last.starts_with("bestmove "), "{go}: {rest:?}");
        assert_legal("chess", &start_fen("chess"), &bestmove(last));
    }
}

/// Reads until `n` `bestmove` lines and a `readyok` have come; returns the
/// `bestmove`s' moves in order.
fn bestmoves_and_readyok(s: &mut Session, n: usize) -> Vec<String> {
    let mut moves = Vec::new();
    let mut ready = false;
    while moves.len() < n || !ready {
        let line = s
            .until("bestmove or readyok", |l| {
                l.starts_with("bestmove") || l == "readyok"
            })
            .pop()
            .unwrap_or_default();
        if line == "readyok" {
            ready = true;
        } else {
            moves.push(bestmove(&line));
        }
    }
    moves
}

#[test]
fn every_go_gets_its_bestmove_even_while_a_search_is_stopping() {
    let mut s = after_handshake();
    // The script: go right after stop, before the bestmove.
    s.send_all(&[
        "position startpos",
        "go infinite",
        "stop",
        "position startpos moves e2e4",
        "go depth 1",
        "isready",
    ]);
    let moves = bestmoves_and_readyok(&mut s, 2);
    assert_legal("chess", &start_fen("chess"), &moves[0]);
    // The queued go searched the position it was given.
    assert_legal("chess", &fen_from_start("chess", &["e2e4"]), &moves[1]);
    // A go while a limited search runs waits for it.
    s.send_all(&["position startpos", "go depth 4", "go depth 2", "isready"]);
    let moves = bestmoves_and_readyok(&mut s, 2);
    for m in &moves {
        assert_legal("chess", &start_fen("chess"), m);
    }
    // A stop stops the queued searches too: each answers.
    s.send_all(&[
        "position startpos",
        "go infinite",
        "go infinite",
        "go depth 100",
        "stop",
        "isready",
    ]);
    let moves = bestmoves_and_readyok(&mut s, 3);
    for m in &moves {
        assert_legal("chess", &start_fen("chess"), m);
    }
    let rest = s.finish();
    assert!(!rest.iter().any(|l| l.starts_with("bestmove")), "{rest:?}");
}

#[test]
fn garbage_gets_error_replies_and_the_engine_goes_on() {
    let mut s = Session::uci();
    let bad: &[(&str, &str)] = &[
        ("foo bar", "unknown command"),
        ("position", "expected"),
        ("position fen", "missing FEN"),
        ("position fen rnbqkbnr/pppppppp/8/8 w KQkq - 0 1", "bad FEN"),
        ("position fen 8/8/8/8/8/8/8/8 w - - 0 1", "bad FEN"),
        (
            "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
            "bad FEN",
        ),
        (
            "position fen 4k3/8/8/8/8/8/8/4K3 w - - 99999999 1",
            "bad FEN",
        ),
        (
            "setoption name UCI_Variant value suicide",
            "unknown variant",
        ),
        (
            "setoption name UCI_Variant value crazyhouse",
            "unknown variant",
        ),
        ("setoption name Hash value lots", "bad Hash"),
        ("setoption name Hash value 0", "bad Hash"),
        ("setoption name Hash value 99999999", "bad Hash"),
        ("setoption name Threads value -1", "bad Threads"),
        ("setoption name NoSuchOption value 1", "unknown option"),
        ("setoption value 3", "setoption"),
        (
            "setoption name EvalFile value /no/such/file.toml",
            "EvalFile",
        ),
        ("\u{1b}[A\u{0}\u{7f}", "unknown command"),
    ];
    for (line, reply) in bad {
        s.send(line);
        let got = s.expect("info string error");
        assert!(
            got.contains(reply),
            "{line:?} -> {got:?}, expected {reply:?}"
        );
    }
    s.send("");
    s.send("   ");
    s.send("setoption name EvalFile value");
    // Blank lines and an empty EvalFile are fine.
    assert_default_then_ready(&mut s);
    // Bad go parameters are reported and ignored; the search still runs.
    s.send("position startpos");
    s.send("go depth x nodes 2000 banana");
    let lines = s.until("bestmove", |l| l.starts_with("bestmove"));
    assert!(
        lines.iter().any(|l| l.contains("\"depth\" needs a number")),
        "{lines:?}"
    );
    assert!(
        lines
            .iter()
            .any(|l| l.contains("unknown parameter \"banana\"")),
        "{lines:?}"
    );
    assert_legal(
        "chess",
        &start_fen("chess"),
        &bestmove(lines.last().unwrap()),
    );
    // A second go while searching is queued behind it, not refused: the
    // stop ends the first, then the second answers too.
    s.send("go infinite");
    s.send("go depth 1");
    s.send("stop");
    s.expect("bestmove");
    s.expect("bestmove");
    s.send("quit");
}

#[test]
fn illegal_moves_keep_the_position_up_to_the_last_legal_move() {
    let mut s = Session::uci();
    s.send("position startpos moves e2e4 e7e5 e1e3 g1f3");
    let err = s.expect("info string error");
    assert!(
        err.contains("e1e3") && err.contains("move 3") && err.contains("2 legal moves"),
        "{err}"
    );
    let want = fen_from_start("chess", &["e2e4", "e7e5"]);
    assert_eq!(current_fen(&mut s), want);
    s.send("position startpos moves e2e4 zz99");
    let err = s.expect("info string error");
    assert!(err.contains("zz99"), "{err}");
    // A move of the wrong variant: knights do not exist in knightmate.
    s.send("setoption name UCI_Variant value knightmate");
    s.send("position startpos moves b1c3");
    s.expect("info string error");
    assert_eq!(current_fen(&mut s), start_fen("knightmate"));
    // Bad FEN leaves the position as it was.
    s.send("position startpos moves e2e4");
    s.send("position fen not a fen");
    s.expect("info string error bad FEN");
    assert_eq!(current_fen(&mut s), fen_from_start("knightmate", &["e2e4"]));
    s.send("quit");
}

#[test]
fn variant_fens_and_promotion_letters() {
    let mut s = Session::uci();
    s.send("setoption name UCI_Variant value 3check");
    // Our W+B field (checks remaining) and Lichess's trailing +W+B (checks given).
    s.send("position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 2+3 0 1");
    assert_eq!(
        current_fen(&mut s),
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 2+3 0 1"
    );
    s.send("position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 +0+2");
    assert_eq!(
        current_fen(&mut s),
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 3+1 0 1"
    );
    // Knightmate promotes to the commoner with `m`.
    s.send("setoption name UCI_Variant value knightmate");
    s.send("position fen 4k3/1P6/8/8/8/8/8/4K3 w - - 0 1 moves b7b8m");
    assert_eq!(current_fen(&mut s), "1M2k3/8/8/8/8/8/8/4K3 b - - 0 1");
    // Giveaway promotes to a king with `k`.
    s.send("setoption name UCI_Variant value giveaway");
    s.send("position fen 8/P7/8/8/8/8/8/7r w - - 0 1 moves a7a8k");
    assert_eq!(current_fen(&mut s), "K7/8/8/8/8/8/8/7r b - - 0 1");
    s.send("quit");
}

#[test]
fn repetition_history_reaches_the_search() {
    // White is a queen down; after Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 the position
    // after ...Ng8 would be the third occurrence: Black, winning, avoids it.
    let mut s = Session::uci();
    let fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNB1KBNR w KQkq - 0 1";
    let moves = "g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1";
    s.send(&format!("position fen {fen} moves {moves}"));
    s.send("go depth 6");
    let m = bestmove(&s.expect("bestmove"));
    assert_ne!(m, "f6g8", "the search must know the game's history");
    s.send("quit");
}

#[test]
fn eval_file_loads_for_its_variant() {
    let dir = std::env::temp_dir().join(format!("varia-uci-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("atomic.toml");
    let params = search::EvalParams::default_for(movegen::VariantKind::Atomic);
    std::fs::write(&path, params.to_toml()).unwrap();
    let mut s = Session::uci();
    s.send("setoption name UCI_Variant value atomic");
    s.send(&format!("setoption name EvalFile value {}", path.display()));
    let lines = s.until_ready();
    assert_eq!(
        lines,
        vec![
            format!("info string evaluation: classical from {}", path.display()),
            "readyok".to_string()
        ],
        "the file loads"
    );
    // The file is for atomic: switching the variant reports it and falls back.
    s.send("setoption name UCI_Variant value chess");
    let err = s.expect("info string error");
    assert!(err.contains("EvalFile"), "{err}");
    s.send("position startpos");
    s.send("go depth 3");
    assert_legal(
        "chess",
        &start_fen("chess"),
        &bestmove(&s.expect("bestmove")),
    );
    s.send("quit");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn eval_file_plays_a_net_and_a_bad_file_keeps_the_evaluation_in_use() {
    use search::nnue::{Activation, FloatNetwork};
    let dir = tempfile::tempdir().unwrap();
    let net =
        FloatNetwork::init(movegen::VariantKind::Atomic, 32, Activation::SCReLU, 5).quantise();
    let good = dir.path().join("atomic.nnue");
    net.save(&good).unwrap();
    let bytes = net.to_bytes();
    let short = dir.path().join("short.nnue");
    std::fs::write(&short, &bytes[..bytes.len() / 2]).unwrap();
    let junk = dir.path().join("junk.bin");
    std::fs::write(&junk, [0u8, 159, 146, 150]).unwrap();
    let hash = format!("hash {:016x}", net.hash());

    let mut s = Session::uci();
    s.send("setoption name UCI_Variant value atomic");
    s.send(&format!("setoption name EvalFile value {}", good.display()));
    let lines = s.until_ready();
    assert_eq!(lines.len(), 2, "{lines:?}");
    assert!(
        lines[0].starts_with("info string evaluation: network (atomic 32x2 screlu")
            && lines[0].contains(&hash)
            && lines[0].ends_with(&format!("from {}", good.display())),
        "{lines:?}"
    );
    s.send("position startpos moves e2e4 e7e5");
    s.send("go nodes 3000");
    let fen = fen_from_start("atomic", &["e2e4", "e7e5"]);
    assert_legal("atomic", &fen, &bestmove(&s.expect("bestmove")));
    // Bad files: one line each, naming the file, and the net stays.
    for (file, what) in [
        (&short, "truncated net file"),
        (&junk, "neither a varia net file"),
    ] {
        s.send(&format!("setoption name EvalFile value {}", file.display()));
        let err = s.expect("info string error");
        assert!(
            err.contains(&file.display().to_string())
                && err.contains(what)
                && err.contains("keeping the network (atomic 32x2 screlu")
                && err.contains(&hash),
            "{err}"
        );
    }
    s.send("go nodes 2000");
    assert_legal("atomic", &fen, &bestmove(&s.expect("bestmove")));
    // A net of another game: not loaded either.
    s.send("setoption name UCI_Variant value chess");
    let err = s.expect("info string error");
    assert!(err.contains("a net for atomic, not for chess"), "{err}");
    assert_default_then_ready(&mut s);
    s.send("quit");
}

#[test]
fn the_first_go_says_which_evaluation_plays_and_classical_names_the_classical_one() {
    let mut s = Session::uci();
    s.send("position startpos");
    s.send("go depth 2");
    let first = s.expect("info");
    assert!(
        first.starts_with("info string evaluation: network chess-net8m (chess"),
        "{first}"
    );
    s.expect("bestmove");
    // Said once: the next search does not repeat it.
    s.send("go depth 2");
    let lines = s.until("bestmove", |l| l.starts_with("bestmove"));
    assert!(
        lines.iter().all(|l| !l.starts_with("info string")),
        "{lines:?}"
    );
    s.send("setoption name EvalFile value classical");
    assert_eq!(
        s.until_ready(),
        ["info string evaluation: classical (built in)", "readyok"]
    );
    s.send("setoption name UCI_Variant value atomic");
    s.send("go depth 2");
    let first = s.expect("info");
    assert_eq!(first, "info string evaluation: classical (built in)");
    s.expect("bestmove");
    s.send("quit");
}

#[test]
fn threads_and_hash_options_search_normally() {
    let mut s = Session::uci();
    s.send("setoption name Threads value 2");
    s.send("setoption name Hash value 8");
    s.send("setoption name UCI_Variant value losers");
    s.send("position startpos moves e2e4 d7d5");
    s.send("go wtime 2000 btime 2000 winc 10 binc 10");
    let m = bestmove(&s.expect("bestmove"));
    assert_legal("losers", &fen_from_start("losers", &["e2e4", "d7d5"]), &m);
    assert_eq!(m, "e4d5", "captures are forced in losers");
    s.send("go movetime 100");
    s.expect("bestmove");
    s.send("quit");
}

#[test]
fn d_reports_the_outcome_with_the_games_history() {
    let mut s = Session::uci();
    s.send("position startpos moves g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1");
    s.send("d");
    assert_eq!(s.expect("Outcome:"), "Outcome: -");
    s.send("position startpos moves g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8");
    s.send("d");
    assert_eq!(s.expect("Outcome:"), "Outcome: 1/2-1/2 repetition");
    s.send("setoption name UCI_Variant value atomic");
    s.send("position fen 4k3/4q3/8/8/8/8/8/4RK2 w - - 0 1 moves e1e7");
    s.send("d");
    assert_eq!(s.expect("Outcome:"), "Outcome: 1-0 king_exploded");
    s.send("quit");
}

#[test]
fn bench_answers_the_signature_and_rejects_a_bad_depth() {
    let mut s = Session::uci();
    s.send("bench 2");
    let lines = s.until("total", |l| l.starts_with("total "));
    let want = search::bench::Signature::measure(2).expect("bench positions parse");
    assert_eq!(lines.join("\n") + "\n", want.to_string());
    assert!(lines.contains(&"depth 2".to_string()), "{lines:?}");
    for bad in ["bench 0", "bench 65", "bench deep", "bench 3 4"] {
        s.send(bad);
        let err = s.expect("info string error");
        assert!(err.starts_with("info string error bench: "), "{bad}: {err}");
    }
    ready_then_quit(s);
}

#[test]
fn move_overhead_option_is_checked_and_comes_off_the_clock() {
    let mut s = after_handshake();
    for bad in ["-1", "5001", "x", ""] {
        s.send(&format!("setoption name Move Overhead value {bad}"));
        let e = s.expect("info string error");
        assert!(e.contains("bad Move Overhead value"), "{bad}: {e}");
    }
    // 5000 ms kept back from a 5000 ms move leaves the least there is: the
    // move comes long before the five seconds.
    s.send("setoption name Move Overhead value 5000");
    s.send("position startpos");
    let (reply, took) = s.timed("go movetime 5000", "bestmove");
    let m = bestmove(&reply);
    assert!(took < Duration::from_millis(2500), "{took:?}");
    assert_legal("chess", &start_fen("chess"), &m);
    s.send("setoption name Move Overhead value 0");
    let lines = s.until_ready();
    assert!(!lines.iter().any(|l| l.contains("error")), "{lines:?}");
    s.send("quit");
}

#[test]
fn pondering_waits_for_ponderhit_or_stop() {
    let mut s = after_handshake();
    s.send("setoption name Ponder value maybe");
    assert!(s.expect("info string error").contains("bad Ponder value"));
    s.send("setoption name Ponder value true");
    // bestmove names the expected reply, a legal move after the best move.
    s.send("position startpos moves e2e4");
    s.send("go depth 5");
    let line = s.expect("bestmove");
    let words: Vec<&str> = line.split_whitespace().collect();
    assert_eq!(words.len(), 4, "{line}");
    assert_eq!(words[2], "ponder", "{line}");
    let after_e4 = fen_from_start("chess", &["e2e4"]);
    let after_best = assert_legal("chess", &after_e4, words[1]);
    assert_legal("chess", &after_best, words[3]);
    // A ponder search that ends by itself (depth 2) still waits for the hit.
    s.send("position startpos moves e2e4 e7e5");
    s.send("go ponder depth 2");
    s.expect("info depth 2 ");
    assert_no_bestmove(&s.drain(Duration::from_millis(300)));
    s.send("ponderhit");
    let after_e5 = fen_from_start("chess", &["e2e4", "e7e5"]);
    assert_legal("chess", &after_e5, &bestmove(&s.expect("bestmove")));
    // The time limit counts from the hit: 200 ms of movetime are long
    // gone, but pondering goes on until ponderhit, then the move comes.
    s.send("go ponder movetime 200");
    assert_no_bestmove(&s.drain(Duration::from_millis(600)));
    s.send("ponderhit");
    assert_legal("chess", &after_e5, &bestmove(&s.expect("bestmove")));
    // stop during pondering answers at once.
    s.send("go ponder wtime 60000 btime 60000");
    s.expect("info depth 2 ");
    let (reply, took) = s.timed("stop", "bestmove");
    assert_legal("chess", &after_e5, &bestmove(&reply));
    assert!(took < Duration::from_secs(5), "{took:?}");
    // A clock search after ponderhit ends by itself (no stop needed).
    s.send("go ponder wtime 3000 btime 3000");
    s.expect("info depth 1 ");
    s.send("ponderhit");
    assert_legal("chess", &after_e5, &bestmove(&s.expect("bestmove")));
    assert_no_bestmove(&s.until_ready());
    s.send("quit");
}
