//! Scripted CECP (XBoard protocol 2) sessions: the protocol loop of
//! `varia xboard` driven through pipes, including bad input.

mod protocol_session;

use protocol_session::{assert_legal, fen_after, fen_from_start, start_fen, Session};
use std::time::Duration;

const VARIANTS: [&str; 6] = [
    "normal",
    "giveaway",
    "3check",
    "atomic",
    "losers",
    "knightmate",
];

/// Our name of a CECP variant (`normal` is `chess` for the test helpers).
fn name(v: &str) -> &str {
    if v == "normal" {
        "chess"
    } else {
        v
    }
}

fn engine_move(line: &str) -> String {
    line.strip_prefix("move ")
        .unwrap_or_else(|| panic!("not a move: {line:?}"))
        .to_string()
}

/// The engine's next move, checked legal in `variant` after `moves` from its
/// start position.
fn legal_reply(s: &mut Session, variant: &str, moves: &[&str]) -> String {
    let m = engine_move(&s.expect("move "));
    assert_legal(variant, &fen_from_start(variant, moves), &m);
    m
}

/// Sends `ping n` and returns everything up to the `pong n`.
fn sync(s: &mut Session, n: u32) -> Vec<String> {
    s.send(&format!("ping {n}"));
    let pong = format!("pong {n}");
    let mut lines = s.until(&pong, |l| l == pong);
    lines.pop();
    lines
}

/// A CECP session past its handshake (`xboard`, `protover 2`, the first
/// `feature` line).
fn after_handshake() -> Session {
    let mut s = Session::xboard();
    s.send("xboard");
    s.send("protover 2");
    s.expect("feature ");
    s
}

#[test]
fn protover_announces_exactly_the_implemented_features() {
    let mut s = Session::xboard();
    s.send("xboard");
    s.send("protover 2");
    let f = s.expect("feature ");
    assert_eq!(
        f,
        "feature myname=\"varia\" variants=\"normal,giveaway,3check,atomic,losers,knightmate\" \
         setboard=1 usermove=1 ping=1 sigint=0 sigterm=0 san=0 colors=0 memory=1 smp=1 \
         analyze=1 reuse=1 option=\"Move Overhead -spin 15 0 5000\" \
         option=\"EvalFile -file \" done=1"
    );
    assert!(!f.contains("suicide"));
    // The announced commands are all understood.
    for cmd in [
        "accepted setboard",
        "accepted usermove",
        "rejected nonsense",
        "memory 32",
        "cores 2",
        "new",
        "variant 3check",
        "hard",
        "easy",
        "random",
        "computer",
        "name Someone Else",
        "post",
        "nopost",
        "level 40 5 0",
        "level 0 0:30 0.5",
        "st 2",
        "sd 5",
        "time 3000",
        "otim 3000",
        "force",
        "setboard rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 3+3 0 1",
        "usermove e2e4",
        "undo",
        "usermove d2d4",
        "usermove d7d5",
        "remove",
        "option Move Overhead=100",
    ] {
        s.send(cmd);
    }
    let lines = sync(&mut s, 1);
    assert!(lines.is_empty(), "{lines:?}");
    s.send("quit");
    assert!(s.wait_ended(Duration::from_secs(10)));
}

#[test]
fn every_variant_answers_a_user_move_with_a_legal_move() {
    let mut s = after_handshake();
    for v in VARIANTS {
        s.send("new");
        s.send(&format!("variant {v}"));
        s.send("sd 4");
        s.send("post");
        s.send("usermove e2e3");
        let lines = s.until("move", |l| l.starts_with("move "));
        let m = engine_move(lines.last().unwrap());
        let after = fen_from_start(name(v), &["e2e3"]);
        assert_legal(name(v), &after, &m);
        // Thinking output: ply score time nodes pv.
        // Before its first search of a game the engine says, in a comment,
        // which evaluation plays.
        assert!(lines[0].starts_with("# evaluation: "), "{v}: {lines:?}");
        let post: Vec<&String> = lines[1..]
            .iter()
            .filter(|l| !l.starts_with("move"))
            .collect();
        assert!(!post.is_empty(), "{v}: no thinking output");
        for l in post {
            let f: Vec<&str> = l.split_whitespace().collect();
            assert!(f.len() >= 5, "{l}");
            assert!(f[..4].iter().all(|x| x.parse::<i64>().is_ok()), "{l}");
        }
        // The game goes on from the engine's move.
        s.send("nopost");
        let after2 = fen_after(name(v), &after, &[&m]);
        let reply = ["a7a6", "h7h6", "b8a6", "a7a5"].into_iter().find(|r| {
            let kind = movegen::VariantKind::from_protocol_name(name(v)).unwrap();
            movegen::dispatch!(kind, V => movegen::Position::<V>::from_fen(&after2)
                    .unwrap()
                    .parse_uci(r)
                    .is_ok())
        });
        if let Some(r) = reply {
            s.send(&format!("usermove {r}"));
            let m2 = engine_move(&s.expect("move "));
            assert_legal(name(v), &fen_after(name(v), &after2, &[r]), &m2);
        }
    }
    s.send("quit");
}

#[test]
fn giveaway_game_from_new_variant_usermove_go() {
    let mut s = after_handshake();
    s.send_all(&[
        "new",
        "variant giveaway",
        "st 1",
        "force",
        "usermove e2e4",
        "usermove d7d5",
        "go",
    ]);
    // White must capture: e4d5 is the only legal move.
    assert_eq!(s.expect("move "), "move e4d5");
    s.send("usermove d8d5");
    legal_reply(&mut s, "giveaway", &["e2e4", "d7d5", "e4d5", "d8d5"]);
    s.send("quit");
}

#[test]
fn bad_setboard_illegal_moves_and_unknown_commands() {
    let mut s = after_handshake();
    s.send("new");
    s.send("force");
    s.send("setboard 8/8/8 w - - 0 1");
    assert_eq!(s.expect("tellusererror"), "tellusererror Illegal position");
    let e = s.expect("Error");
    assert!(e.starts_with("Error (bad FEN): 8/8/8 w - - 0 1"), "{e}");
    // A position that cannot arise: the side not to move is in check.
    s.send("setboard 4k3/8/8/8/8/8/4R3/4K3 w - - 0 1");
    assert_eq!(s.expect("tellusererror"), "tellusererror Illegal position");
    s.expect("Error (bad FEN)");
    // Commoners exist only in knightmate.
    s.send("setboard rmbqkbmr/pppppppp/8/8/8/8/PPPPPPPP/RMBQKBMR w KQkq - 0 1");
    s.expect("tellusererror");
    s.expect("Error (bad FEN)");
    s.send("usermove e2e5");
    assert_eq!(s.expect("Illegal"), "Illegal move: e2e5");
    s.send("usermove banana");
    assert_eq!(s.expect("Illegal"), "Illegal move: banana");
    s.send("e7e5");
    assert_eq!(
        s.expect("Illegal"),
        "Illegal move: e7e5",
        "bare moves are moves too"
    );
    s.send("frobnicate now");
    assert_eq!(s.expect("Error"), "Error (unknown command): frobnicate now");
    s.send("variant suicide");
    assert_eq!(
        s.expect("Error"),
        "Error (unsupported variant): variant suicide"
    );
    s.send("level x y z");
    s.expect("Error (bad level)");
    s.send("undo");
    s.expect("Error (no move to undo)");
    // Still alive, still on the start position.
    s.send("usermove e2e4");
    s.send("st 1");
    s.send("go");
    legal_reply(&mut s, "chess", &["e2e4"]);
    s.send("quit");
}

#[test]
fn pong_comes_after_the_move_being_thought_about() {
    let mut s = after_handshake();
    s.send_all(&["new", "st 0.5", "usermove e2e4", "ping 42"]);
    let lines = s.until("pong 42", |l| l == "pong 42");
    assert!(
        lines.len() >= 2 && lines[lines.len() - 2].starts_with("move "),
        "the move must come before the pong: {lines:?}"
    );
    // When idle, pong comes at once, in order.
    s.send("force");
    s.send("ping 1");
    s.send("ping 2");
    assert_eq!(s.expect("pong"), "pong 1");
    assert_eq!(s.expect("pong"), "pong 2");
    s.send("quit");
}

#[test]
fn force_mode_plays_no_moves_and_go_plays_the_side_to_move() {
    let mut s = after_handshake();
    s.send_all(&[
        "new",
        "variant atomic",
        "force",
        "usermove e2e4",
        "usermove e7e5",
        "usermove g1f3",
    ]);
    let lines = sync(&mut s, 3);
    assert!(lines.is_empty(), "no engine move in force mode: {lines:?}");
    s.send("sd 3");
    s.send("go");
    let m = legal_reply(&mut s, "atomic", &["e2e4", "e7e5", "g1f3"]);
    // The engine now plays Black: a user move for White gets an answer.
    s.send("usermove a2a3");
    legal_reply(&mut s, "atomic", &["e2e4", "e7e5", "g1f3", &m, "a2a3"]);
    // force stops a search in progress: no move comes.
    s.send_all(&["st 30", "force", "usermove b2b3", "go", "force", "ping 9"]);
    let lines = s.until("pong 9", |l| l == "pong 9");
    assert!(!lines.iter().any(|l| l.starts_with("move")), "{lines:?}");
    s.send("quit");
}

#[test]
fn move_now_and_result_during_search() {
    let mut s = after_handshake();
    s.send_all(&["new", "st 60", "force", "go"]);
    std::thread::sleep(Duration::from_millis(200));
    let (reply, took) = s.timed("?", "move ");
    let m = engine_move(&reply);
    assert!(took < Duration::from_secs(10), "? must move at once");
    assert_legal("chess", &start_fen("chess"), &m);
    // result stops the search and the game: no move.
    s.send("usermove e7e5");
    s.send("result 1/2-1/2 {agreed}");
    let lines = sync(&mut s, 5);
    assert!(!lines.iter().any(|l| l.starts_with("move")), "{lines:?}");
    // new starts over.
    s.send_all(&["new", "sd 2", "usermove d2d4"]);
    legal_reply(&mut s, "chess", &["d2d4"]);
    s.send("quit");
}

#[test]
fn game_end_is_announced_after_either_sides_move() {
    let mut s = after_handshake();
    // The engine ends the game with its move: (variant, FEN, depth, move,
    // result).
    let ends = [
        (
            None,
            "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1",
            4,
            "a1a8",
            "checkmate",
        ),
        (
            Some("atomic"),
            "4k3/4q3/8/8/8/8/8/4RK2 w - - 0 1",
            3,
            "e1e7",
            "king explosion",
        ),
        (
            Some("3check"),
            "4k3/8/8/8/8/8/8/R3K3 w - - 1+3 0 1",
            3,
            "a1a8",
            "third check",
        ),
    ];
    for (variant, fen, depth, mv, how) in ends {
        s.send("new");
        if let Some(v) = variant {
            s.send(&format!("variant {v}"));
        }
        s.send_all(&[
            "force",
            &format!("setboard {fen}"),
            &format!("sd {depth}"),
            "go",
        ]);
        assert_eq!(s.expect("move "), format!("move {mv}"));
        assert_eq!(s.expect("1-0"), format!("1-0 {{White wins by {how}}}"));
    }
    // The opponent mates: the engine (Black) announces it instead of moving.
    s.send_all(&[
        "new",
        "setboard 6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1",
        "usermove a1a8",
    ]);
    assert_eq!(s.expect("1-0"), "1-0 {White wins by checkmate}");
    let lines = sync(&mut s, 1);
    assert!(!lines.iter().any(|l| l.starts_with("move")), "{lines:?}");
    // go in a finished game announces the result again instead of moving.
    s.send("go");
    assert_eq!(s.expect("1-0"), "1-0 {White wins by checkmate}");
    // Giveaway: Black must capture White's last piece, and White wins.
    s.send_all(&[
        "new",
        "variant giveaway",
        "force",
        "setboard 8/8/8/8/8/8/1p6/R7 b - - 0 1",
        "sd 2",
        "go",
    ]);
    assert!(s.expect("move ").starts_with("move b2a1"));
    assert_eq!(s.expect("1-0"), "1-0 {White wins by having no moves left}");
    // Draws: 3-fold repetition after the opponent's move.
    s.send_all(&["new", "force"]);
    for m in ["g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1"] {
        s.send(&format!("usermove {m}"));
    }
    s.send("usermove f6g8");
    assert_eq!(s.expect("1/2-1/2"), "1/2-1/2 {Draw by 3-fold repetition}");
    s.send("quit");
}

#[test]
fn undo_remove_and_promotion_letters() {
    let mut s = after_handshake();
    // Knightmate: promotion to the commoner is `m`; to a knight is illegal.
    s.send_all(&[
        "new",
        "variant knightmate",
        "force",
        "setboard 4k3/1P6/8/8/8/8/8/4K3 w - - 0 1",
    ]);
    s.send("usermove b7b8n");
    assert_eq!(s.expect("Illegal"), "Illegal move: b7b8n");
    s.send("usermove b7b8m");
    assert!(sync(&mut s, 1).is_empty());
    s.send("undo");
    s.send("usermove b7b8q");
    assert!(sync(&mut s, 2).is_empty());
    // Giveaway: promotion to a king is `k`.
    s.send_all(&[
        "new",
        "variant giveaway",
        "force",
        "setboard 8/P7/8/8/8/8/8/7r w - - 0 1",
        "usermove a7a8k",
    ]);
    assert!(sync(&mut s, 3).is_empty());
    // remove takes back two plies.
    s.send_all(&[
        "new",
        "force",
        "usermove e2e4",
        "usermove e7e5",
        "remove",
        "usermove d2d4",
    ]);
    assert!(
        sync(&mut s, 4).is_empty(),
        "d2d4 is legal again after remove"
    );
    s.send("remove");
    s.expect("Error (no moves to remove)");
    s.send("quit");
}

#[test]
fn engine_plays_a_whole_game_against_itself_without_errors() {
    // Two engines through the protocol, short fixed-depth moves, until the
    // game ends by rule (or 120 plies).
    for v in ["atomic", "giveaway"] {
        let mut a = after_handshake();
        let mut b = after_handshake();
        for s in [&mut a, &mut b] {
            s.send_all(&["new", &format!("variant {v}"), "sd 2"]);
        }
        a.send("go"); // a plays White
        let mut fen = start_fen(v);
        let mut mover = 0;
        for _ply in 0..120 {
            let (me, other) = if mover == 0 {
                (&mut a, &mut b)
            } else {
                (&mut b, &mut a)
            };
            let line = me.until("move or result", |l| {
                l.starts_with("move ")
                    || l.starts_with("1-0")
                    || l.starts_with("0-1")
                    || l.starts_with("1/2")
            });
            let last = line.last().unwrap().clone();
            if !last.starts_with("move ") {
                break;
            }
            let m = engine_move(&last);
            fen = assert_legal(v, &fen, &m);
            other.send(&format!("usermove {m}"));
            mover = 1 - mover;
        }
        for s in [a, b] {
            assert!(
                !s.transcript
                    .iter()
                    .any(|l| l.starts_with("Error") || l.starts_with("Illegal")),
                "{:?}",
                s.transcript
            );
        }
    }
}

#[test]
fn end_of_input_stops_the_search_and_prints_its_move() {
    let mut s = after_handshake();
    s.send_all(&["new", "st 600", "post", "usermove e2e4"]);
    s.until("thinking output", |l| l.starts_with("1 "));
    let rest = s.finish_within(Duration::from_secs(20), "usermove e2e4");
    let last = rest.last().expect("output");
    let after_e4 = fen_from_start("chess", &["e2e4"]);
    assert_legal("chess", &after_e4, &engine_move(last));
}

#[test]
fn move_overhead_option_is_checked_and_comes_off_the_clock() {
    let mut s = after_handshake();
    s.send("option Move Overhead=5001");
    assert_eq!(
        s.expect("Error"),
        "Error (bad option value): Move Overhead=5001"
    );
    s.send("option Hash Size=3");
    assert_eq!(s.expect("Error"), "Error (unknown option): Hash Size=3");
    // 5000 ms kept back from a 5 s move: the move comes at once.
    s.send_all(&["new", "option Move Overhead=5000", "st 5"]);
    let (reply, took) = s.timed("usermove e2e4", "move ");
    let m = engine_move(&reply);
    assert!(took < Duration::from_millis(2500), "{took:?}");
    assert_legal("chess", &fen_from_start("chess", &["e2e4"]), &m);
    s.send("quit");
}

#[test]
fn eval_file_option_plays_a_net_for_its_game_and_refuses_a_bad_file() {
    use search::nnue::{Activation, FloatNetwork};
    let dir = tempfile::tempdir().unwrap();
    let net = FloatNetwork::init(movegen::VariantKind::Losers, 32, Activation::CReLU, 9).quantise();
    let good = dir.path().join("losers.nnue");
    net.save(&good).unwrap();
    let bytes = net.to_bytes();
    let short = dir.path().join("short.nnue");
    std::fs::write(&short, &bytes[..40]).unwrap();
    let announced = format!(
        "# evaluation: network (losers 32x2 crelu, hash {:016x}) from {}",
        net.hash(),
        good.display()
    );
    let mut s = after_handshake();
    s.send_all(&["new", "variant losers"]);
    s.send(&format!("option EvalFile={}", good.display()));
    assert_eq!(sync(&mut s, 1), vec![announced.clone()]);
    s.send(&format!("option EvalFile={}", short.display()));
    let err = s.expect("Error");
    assert!(
        err.starts_with("Error (EvalFile not loaded, keeping the network (losers 32x2 crelu")
            && err.contains(&format!("{}: truncated net file", short.display())),
        "{err}"
    );
    s.send_all(&["force", "usermove e2e4", "st 1", "sd 4", "go"]);
    legal_reply(&mut s, "losers", &["e2e4"]);
    // A new game of chess: the losers net cannot play it.
    s.send("new");
    let lines = sync(&mut s, 2);
    assert_eq!(lines.len(), 2, "{lines:?}");
    assert!(
        lines[0].contains("a net for losers, not for chess"),
        "{lines:?}"
    );
    assert!(
        lines[1].starts_with("# evaluation: network chess-net8m (chess")
            && lines[1].ends_with("(built in)"),
        "{lines:?}"
    );
    s.send("variant losers");
    assert_eq!(sync(&mut s, 3), vec![announced]);
    s.send("quit");
}

/// The moves of a post line's principal variation.
fn post_pv(line: &str) -> Vec<String> {
    line.split_whitespace()
        .skip(4)
        .map(str::to_string)
        .collect()
}

/// The legal moves of a chess position, in UCI notation.
fn legal_moves(fen: &str) -> Vec<String> {
    movegen::VariantGame::from_fen(movegen::VariantKind::Chess, fen)
        .expect("valid FEN")
        .legal_moves()
        .iter()
        .map(|m| m.uci())
        .collect()
}

#[test]
fn hard_ponders_on_the_expected_reply_and_easy_stops_it() {
    let mut s = after_handshake();
    s.send_all(&["new", "hard", "post", "st 0.3", "usermove e2e4"]);
    let lines = s.until("the engine's move", |l| l.starts_with("move "));
    let mine = engine_move(lines.last().unwrap());
    let pv = post_pv(&lines[lines.len() - 2]);
    assert_eq!(pv[0], mine, "{lines:?}");
    let expected = pv.get(1).unwrap_or_else(|| panic!("no reply in {pv:?}"));
    // It thinks on our time: thinking output goes on, no move, and a ping
    // is answered at once.
    let after_mine = fen_from_start("chess", &["e2e4", &mine]);
    let after_reply = assert_legal("chess", &after_mine, expected);
    let pondering = sync(&mut s, 7);
    let pondering = [pondering, s.drain(Duration::from_millis(300))].concat();
    assert!(
        !pondering.iter().any(|l| l.starts_with("move")),
        "{pondering:?}"
    );
    let ponder_pv = pondering
        .iter()
        .rev()
        .find(|l| l.starts_with(char::is_numeric));
    let ponder_pv = post_pv(ponder_pv.expect("pondering output"));
    assert_legal("chess", &after_reply, &ponder_pv[0]);
    // The expected reply: the search goes on and answers within the time.
    s.send(&format!("usermove {expected}"));
    let lines = s.until("the engine's move", |l| l.starts_with("move "));
    let next = engine_move(lines.last().unwrap());
    let after_next = assert_legal("chess", &after_reply, &next);
    // Any other reply: pondering is dropped and the engine answers the move
    // that came. The last thinking line may have come while pondering (a
    // search that had already used its time answers the hit with the move
    // alone), so look for it in both.
    let last_thinking = pondering
        .iter()
        .chain(&lines)
        .rev()
        .find(|l| l.starts_with(char::is_numeric))
        .expect("thinking output");
    let expected = post_pv(last_thinking).get(1).cloned();
    let other = legal_moves(&after_next)
        .into_iter()
        .find(|m| Some(m) != expected.as_ref())
        .expect("a legal move");
    s.send(&format!("usermove {other}"));
    let after_other = assert_legal("chess", &after_next, &other);
    let answer = engine_move(&s.expect("move "));
    assert_legal("chess", &after_other, &answer);
    // easy: no more thinking after the move.
    let _ = sync(&mut s, 9);
    s.send("easy");
    let _ = sync(&mut s, 10);
    let quiet = s.drain(Duration::from_millis(300));
    assert!(quiet.is_empty(), "{quiet:?}");
    s.send("quit");
}

/// Reads until a thinking-output line (after `pong n` of [`sync`]) and
/// returns its principal variation.
fn next_pv(s: &mut Session) -> Vec<String> {
    let line = s
        .until("thinking output", |l| l.starts_with(char::is_numeric))
        .pop()
        .unwrap_or_default();
    post_pv(&line)
}

#[test]
fn analyze_follows_the_position_until_exit() {
    let mut s = after_handshake();
    let start = start_fen("chess");
    s.send_all(&["new", "force", "analyze"]);
    // No post needed; the analysis of the start position goes on.
    assert_legal("chess", &start, &next_pv(&mut s)[0]);
    let lines = sync(&mut s, 1);
    assert!(!lines.iter().any(|l| l.starts_with("move")), "{lines:?}");
    s.send(".");
    let stat = s.expect("stat01: ");
    let fields: Vec<u64> = stat[8..]
        .split_whitespace()
        .map(|f| f.parse().expect("a number"))
        .collect();
    assert_eq!(fields.len(), 5, "{stat}");
    assert!(fields[1] > 0 && fields[2] >= 1 && fields[4] == 20, "{stat}");
    // A move restarts it on the new position.
    s.send("usermove e2e4");
    let _ = sync(&mut s, 2);
    let after_e4 = fen_after("chess", &start, &["e2e4"]);
    assert_legal("chess", &after_e4, &next_pv(&mut s)[0]);
    s.send("usermove e2e5");
    assert_eq!(s.expect("Illegal move"), "Illegal move: e2e5");
    let _ = sync(&mut s, 3);
    assert_legal("chess", &after_e4, &next_pv(&mut s)[0]);
    s.send("undo");
    let _ = sync(&mut s, 4);
    assert_legal("chess", &start, &next_pv(&mut s)[0]);
    let fen = "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1";
    s.send(&format!("setboard {fen}"));
    let _ = sync(&mut s, 5);
    assert_eq!(next_pv(&mut s)[0], "a1a8");
    s.send("new");
    let _ = sync(&mut s, 6);
    assert_legal("chess", &start, &next_pv(&mut s)[0]);
    // exit ends it: nothing more comes, and no move was ever played.
    s.send("exit");
    let lines = sync(&mut s, 7);
    assert!(!lines.iter().any(|l| l.starts_with("move")), "{lines:?}");
    let quiet = s.drain(Duration::from_millis(300));
    assert!(quiet.is_empty(), "{quiet:?}");
    // Out of analysis mode the engine plays again.
    s.send("st 0.2");
    s.send("usermove e2e4");
    s.send("go");
    let m = engine_move(&s.expect("move "));
    assert_legal("chess", &after_e4, &m);
    // The end of input ends an analysis too.
    s.send_all(&["force", "analyze"]);
    next_pv(&mut s);
    let rest = s.finish();
    assert!(!rest.iter().any(|l| l.starts_with("move")), "{rest:?}");
}
