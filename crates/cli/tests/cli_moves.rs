//! `varia moves`, driven as a process: one FEN with `--fen`, batches on stdin.

use std::process::Output;

mod common;
use common::*;

/// Runs `varia moves <args>` with `stdin` piped in.
fn varia_moves(args: &[&str], stdin: &str) -> Output {
    let mut a = vec!["moves"];
    a.extend_from_slice(args);
    varia_with_stdin(&a, stdin)
}

/// The tab-separated columns of the single output line.
fn columns(out: &Output) -> Vec<String> {
    let text = stdout(out);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 1, "one line expected, got {text:?}");
    lines[0].split('\t').map(str::to_string).collect()
}

/// The legal moves `varia moves` lists for `fen` in `variant` (its second
/// column), in its order.
fn moves_of(variant: &str, fen: &str) -> Vec<String> {
    let out = varia_moves(&["--variant", variant, "--fen", fen], "");
    columns(&out)[1].split(' ').map(str::to_string).collect()
}

#[test]
fn start_position_lists_sorted_moves_and_perft() {
    let out = varia_moves(&["--variant", "chess", "--fen", START, "--depth", "3"], "");
    assert!(out.status.success(), "{out:?}");
    let cols = columns(&out);
    assert_eq!(cols.len(), 4);
    assert_eq!(cols[0], START);
    let moves: Vec<&str> = cols[1].split(' ').collect();
    assert_eq!(moves.len(), 20);
    let mut sorted = moves.clone();
    sorted.sort_unstable();
    assert_eq!(moves, sorted);
    assert!(moves.contains(&"g1f3") && moves.contains(&"e2e4"));
    assert_eq!(cols[2], "-");
    assert_eq!(cols[3], "8902");
}

#[test]
fn no_perft_column_without_depth() {
    let out = varia_moves(&["--variant", "chess", "--fen", START], "");
    assert!(out.status.success());
    assert_eq!(columns(&out).len(), 3);
}

#[test]
fn aliases_pick_the_right_game() {
    // Suicide from the start: 8067 at depth 3 (chess has 8902).
    let out = varia_moves(
        &["--variant", "giveaway", "--fen", START, "--depth", "3"],
        "",
    );
    assert!(out.status.success(), "{out:?}");
    assert_eq!(columns(&out)[3], "8067");
    let fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 3+3 0 1";
    let out = varia_moves(&["--variant", "3check", "--fen", fen, "--depth", "2"], "");
    assert!(out.status.success(), "{out:?}");
    assert_eq!(columns(&out)[3], "400");
}

#[test]
fn finished_games_show_their_outcome_and_no_moves() {
    let cases = [
        (
            "chess",
            "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3",
            "0-1 checkmate",
        ),
        (
            "chess",
            "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",
            "1/2-1/2 stalemate",
        ),
        (
            "threecheck",
            "4k3/8/8/8/8/8/8/4K3 b - - 0+2 0 1",
            "1-0 third_check",
        ),
        ("atomic", "8/8/8/8/8/8/8/4K3 b - - 0 1", "1-0 king_exploded"),
        ("losers", "4k3/8/8/8/8/8/8/4K2R w - - 0 1", "0-1 bare_king"),
        ("suicide", "8/8/8/8/8/8/8/4Q3 b - - 0 1", "0-1 no_moves"),
    ];
    for (variant, fen, outcome) in cases {
        let out = varia_moves(&["--variant", variant, "--fen", fen, "--depth", "2"], "");
        assert!(out.status.success(), "{variant} {fen}: {out:?}");
        assert_eq!(columns(&out), [fen, "", outcome, "0"], "{variant} {fen}");
    }
}

#[test]
fn castling_and_promotion_moves_in_uci() {
    let moves = moves_of("chess", "r3k3/1P6/8/8/8/8/8/4K2R w K - 0 1");
    for m in ["e1g1", "b7a8q", "b7a8r", "b7a8b", "b7a8n", "b7b8q"] {
        assert!(moves.iter().any(|x| x == m), "{m} missing from {moves:?}");
    }
    // Suicide also promotes to a king; captures are forced.
    assert_eq!(
        moves_of("suicide", "r7/1P6/8/8/8/8/8/4K3 w - - 0 1"),
        ["b7a8b", "b7a8k", "b7a8n", "b7a8q", "b7a8r"]
    );
    // Knightmate: the royal knight castles, pawns promote to commoners.
    let moves = moves_of("knightmate", "4k3/1P6/8/8/8/8/8/4K2R w K - 0 1");
    for m in ["e1g1", "b7b8m"] {
        assert!(moves.iter().any(|x| x == m), "{m} missing from {moves:?}");
    }
    assert!(!moves.iter().any(|x| x == "b7b8n"), "{moves:?}");
}

#[test]
fn batch_reads_stdin_skips_blank_lines_and_reports_bad_fens() {
    let input = format!(
        "{START}\n\n   \nnot a fen\r\n8/8/8/8/8/8/8/8 w - - 0 1\n{}\n",
        "4k3/8/8/8/8/8/8/4K3 w - - 0 1"
    );
    let out = varia_moves(&["--variant", "chess", "--depth", "1"], &input);
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let text = stdout(&out);
    let lines: Vec<Vec<&str>> = text.lines().map(|l| l.split('\t').collect()).collect();
    assert_eq!(lines.len(), 4, "{text}");
    assert_eq!(lines[0][0], START);
    assert_eq!(lines[0][3], "20");
    assert_eq!(lines[1][0], "not a fen");
    assert!(
        lines[1][1].starts_with("error: invalid board field"),
        "{text}"
    );
    assert_eq!(lines[2].len(), 2);
    assert!(
        lines[2][1].starts_with("error: impossible position"),
        "{text}"
    );
    assert_eq!(
        lines[3],
        [
            "4k3/8/8/8/8/8/8/4K3 w - - 0 1",
            "e1d1 e1d2 e1e2 e1f1 e1f2",
            "-",
            "5"
        ]
    );
}

#[test]
fn batch_of_good_fens_succeeds() {
    let input = format!("{START}\n{START}\n");
    let out = varia_moves(&["--variant", "atomic"], &input);
    assert!(out.status.success(), "{out:?}");
    assert_eq!(stdout(&out).lines().count(), 2);
    assert!(out.stderr.is_empty());
}

#[test]
fn empty_stdin_prints_nothing() {
    let out = varia_moves(&["--variant", "losers"], "");
    assert!(out.status.success());
    assert!(out.stdout.is_empty());
}

#[test]
fn bad_fen_argument_is_an_error() {
    let out = varia_moves(&["--variant", "chess", "--fen", "nonsense"], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.starts_with("error: invalid FEN \"nonsense\""), "{err}");
}

#[test]
fn unknown_variant_is_a_usage_error() {
    let out = varia_moves(&["--variant", "crazyhouse", "--fen", START], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("unknown variant"));
    let out = varia_moves(&["--fen", START], "");
    assert_eq!(out.status.code(), Some(2), "--variant is required");
}
