//! The network plays: searches with a small random network in all six
//! games. The evaluation stack checks (`search::evaluator::check_accumulators`)
//! that at every evaluation the top accumulator equals a fresh one of the
//! position, so a search that reaches captures, promotions,
//! castling, explosions and null moves tests every incremental update the
//! search makes; searches follow one another on the same threads, so the
//! accumulators kept from one search to the next are tested too.

use movegen::{variants::*, Position, Variant};
use search::nnue::{Activation, FloatNetwork};
use search::{search, Evaluator, Limits, SearchParams, Shared};
use std::sync::Arc;

/// Plays `plies` moves of a game from `fen` with searches of `nodes` nodes
/// by a random network on `threads` threads, returning the nodes searched.
fn play_with_a_net<V: Variant>(fen: &str, plies: usize, nodes: u64, threads: usize) -> u64 {
    search::evaluator::check_accumulators(true);
    let net = FloatNetwork::init(V::KIND, 32, Activation::SCReLU, 7).quantise();
    let evaluator = Evaluator::Network(Arc::new(net));
    let shared = Shared::new(4);
    let settings = SearchParams::default();
    let mut pos = Position::<V>::from_fen(fen).expect("valid FEN");
    let mut history = Vec::new();
    let mut total = 0;
    for _ in 0..plies {
        if pos.outcome().is_some() {
            break;
        }
        let r = search(
            &pos,
            &history,
            &Limits::nodes(nodes),
            &evaluator,
            &settings,
            &shared,
            threads,
            &mut |_| {},
        );
        total += r.nodes;
        let best = r.best.expect("a move while the game goes on");
        assert!(
            pos.legal_moves().contains(&best),
            "{}: {} is legal",
            V::KIND,
            best.uci()
        );
        history.push(pos.key());
        pos = pos.play_unchecked(best);
    }
    total
}

#[test]
fn a_random_network_searches_every_game_with_exact_accumulators() {
    // Positions with captures, promotions, castling and checks at hand.
    let kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    let promo = "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N w - - 0 1";
    assert!(play_with_a_net::<Chess>(kiwipete, 4, 3_000, 1) > 3_000);
    assert!(play_with_a_net::<Chess>(promo, 4, 2_000, 2) > 2_000);
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    assert!(play_with_a_net::<Atomic>(start, 6, 3_000, 1) > 3_000);
    assert!(play_with_a_net::<Suicide>(start, 6, 2_000, 1) > 2_000);
    assert!(play_with_a_net::<Losers>(kiwipete, 4, 2_000, 1) > 2_000);
    assert!(
        play_with_a_net::<ThreeCheck>(
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 2+2 0 1",
            4,
            3_000,
            1
        ) > 3_000
    );
    assert!(
        play_with_a_net::<Knightmate>(
            "rmbqkbmr/pppppppp/8/8/8/8/PPPPPPPP/RMBQKBMR w KQkq - 0 1",
            4,
            2_000,
            1
        ) > 2_000
    );
}
