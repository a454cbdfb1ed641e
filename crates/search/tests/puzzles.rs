//! Win-in-N puzzles for every game, fixed-node determinism, and Lazy SMP
//! sanity. A puzzle passes when the search reports a win in exactly N moves
//! (moves of the winner: a win that comes with the loser's forced reply counts
//! as the winner's move)
//! and its principal variation, played out, ends the game with the side to
//! move at the root winning.

use movegen::{variants::*, Game, Position, Variant};
use search::score::mate_in;
use search::{search, Evaluator, Limits, SearchParams, SearchResult, Shared};

fn solve<V: Variant>(fen: &str, depth: u32, threads: usize) -> (Position<V>, SearchResult) {
    let pos = Position::<V>::from_fen(fen).expect("puzzle FEN is valid");
    let shared = Shared::new(16);
    let evaluator = Evaluator::default_for(V::KIND);
    let r = search(
        &pos,
        &[],
        &Limits::depth(depth),
        &evaluator,
        &SearchParams::default(),
        &shared,
        threads,
        &mut |_| {},
    );
    (pos, r)
}

fn assert_win_in<V: Variant>(fen: &str, moves: i32, first: Option<&str>) {
    let (pos, r) = solve::<V>(fen, 2 * moves as u32 + 3, 1);
    assert_eq!(
        mate_in(r.score),
        Some(moves),
        "{} {fen}: score {} pv {:?}",
        V::KIND,
        r.score,
        r.pv
    );
    if let Some(first) = first {
        assert_eq!(r.best.map(|m| m.uci()).as_deref(), Some(first), "{fen}");
    }
    let mut game = Game::new(pos);
    for m in &r.pv {
        game.play(*m).expect("PV moves are legal");
        if game.position().outcome().is_some() {
            break;
        }
    }
    let outcome = game
        .position()
        .outcome()
        .unwrap_or_else(|| panic!("PV {:?} does not end the game", r.pv));
    assert_eq!(outcome.winner(), Some(pos.turn()), "{fen}: {outcome:?}");
}

#[test]
fn chess_mate_in_two() {
    // Back rank: 1. Re8+ Rxe8 2. Rxe8#. (Zugzwang problems such as Morphy's
    // 1. Ra6 are out of reach of null-move pruning by design.)
    assert_win_in::<Chess>("2r3k1/5ppp/8/8/8/8/4RPPP/4R1K1 w - - 0 1", 2, Some("e2e8"));
}

#[test]
fn suicide_forced_giveaway() {
    // The rook offers itself, Black must take, and White has no pieces left: a win.
    assert_win_in::<Suicide>("7r/8/8/8/8/8/8/R7 w - - 0 1", 1, None);
    // A longer forced line: give the bishop, then the king.
    assert_win_in::<Suicide>("8/8/8/8/8/1r6/8/B3K3 w - - 0 1", 2, None);
}

#[test]
fn atomic_winning_explosion() {
    assert_win_in::<Atomic>("4k3/4p3/8/8/8/8/4R3/4K3 w - - 0 1", 1, Some("e2e7"));
}

#[test]
fn threecheck_third_check() {
    assert_win_in::<ThreeCheck>(
        "rnbqkbnr/ppp2ppp/8/3pp3/4P3/5Q2/PPPP1PPP/RNB1KBNR w KQkq - 1+3 0 3",
        1,
        None,
    );
}

#[test]
fn losers_lose_everything() {
    // White must take the queen, Black must take back: White is left with a
    // bare king and wins. (Black keeps a pawn, or taking its queen would leave
    // Black bare and winning.)
    assert_win_in::<Losers>("3qk3/7p/8/8/3R4/8/8/4K3 w - - 0 1", 1, Some("d4d8"));
}

#[test]
fn knightmate_royal_knight_mate() {
    assert_win_in::<Knightmate>("k7/2p5/1p6/8/8/8/8/4K2R w - - 0 1", 1, Some("h1h8"));
}

#[test]
fn fixed_node_searches_are_deterministic_with_one_thread() {
    for fen in [
        <Chess>::START_FEN,
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    ] {
        let pos = Position::<Chess>::from_fen(fen).unwrap();
        let evaluator = Evaluator::default_for(<Chess>::KIND);
        let run = || {
            let shared = Shared::new(8);
            search(
                &pos,
                &[],
                &Limits::nodes(30_000),
                &evaluator,
                &SearchParams::default(),
                &shared,
                1,
                &mut |_| {},
            )
        };
        let (a, b) = (run(), run());
        assert_eq!(
            (a.best, a.score, a.depth, a.nodes),
            (b.best, b.score, b.depth, b.nodes)
        );
        assert!(a.nodes >= 30_000 && a.nodes < 31_000, "{}", a.nodes);
    }
}

#[test]
fn two_threads_find_the_same_mate() {
    let (_, r) = solve::<Chess>("2r3k1/5ppp/8/8/8/8/4RPPP/4R1K1 w - - 0 1", 7, 2);
    assert_eq!(mate_in(r.score), Some(2));
    assert_eq!(r.best.map(|m| m.uci()).as_deref(), Some("e2e8"));
}
