//! The resolution to quiescence leaves agrees with the engine's quiescence
//! search, and the leaf's evaluation is the score.

mod common;
use common::random_step;

use movegen::{dispatch, Position, Variant, VariantKind};
use search::alphabeta::NoObserver;
use search::eval::features_and_phase;
use search::{Clock, EvalParams, Evaluator, Limits, SearchParams, Shared, Worker};
use tune::qleaf::{Leaf, Resolver};
use tune::rng::stream;

fn check<V: Variant>() {
    let params = EvalParams::default_for(V::KIND);
    let shared = Shared::new(1);
    let limits = Limits::default();
    let resolver = Resolver::new(&params);
    let evaluator = Evaluator::from(params.clone());
    let mut checked = 0;
    for game in 0..60u64 {
        let mut rng = stream(11, game, 0);
        let mut pos = Position::<V>::startpos();
        for _ in 0..80 {
            let Some(next) = random_step(&pos, &mut rng) else {
                break;
            };
            pos = next;
            if pos.outcome().is_some() {
                break;
            }
            // The resolver follows lines, so it never answers from the
            // transposition table (`qsearch_tt`): compare with the engine's
            // quiescence without it.
            // The game's own settings, as the resolver's.
            let settings = SearchParams {
                qsearch_tt: 0,
                ..SearchParams::default_for(V::KIND)
            };
            let clock = Clock::start(&limits, pos.turn(), 1, &settings);
            let mut w = Worker::<V>::new(0, &shared, &evaluator, &settings, &clock, &[pos.key()]);
            let engine = w.quiesce(&pos, &mut NoObserver).expect("no limit");
            let r = resolver.resolve(&pos).expect("within the node budget");
            assert_eq!(r.score, engine, "{} {}", V::KIND, pos.fen());
            if let Leaf::Eval(leaf) = r.leaf {
                // The tapered sum of the leaf's features (chess's halves differ).
                let white = features_and_phase(&leaf).score(&params.weights);
                let stm = if pos.turn().is_white() { white } else { -white };
                assert_eq!(stm as i32, r.score, "{} {}", V::KIND, pos.fen());
            }
            checked += 1;
        }
    }
    assert!(checked > 1000);
}

#[test]
fn leaves_match_the_engine_quiescence_in_every_game() {
    for kind in VariantKind::ALL {
        dispatch!(kind, V => check::<V>());
    }
}
