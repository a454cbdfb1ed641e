//! Texel tuning on synthetic data drawn from known weights: the fit
//! recovers them.

mod common;
use common::random_step;

use movegen::variants::{Chess, Suicide};
use movegen::{Position, Variant, VariantKind};
use search::eval::{features_and_phase, idx};
use search::EvalParams;
use tune::rng::stream;
use tune::texel::{fit_k, Dataset, Optimizer, TexelConfig, TexelOutcome};

/// Quiet positions from random playouts (not in check, no capture to make,
/// game not over), `n` of them.
fn playout_positions<V: Variant>(n: usize, seed: u64) -> Vec<Position<V>> {
    let mut out = Vec::with_capacity(n);
    let mut game = 0u64;
    while out.len() < n {
        game += 1;
        let mut rng = stream(seed, game, 0);
        let mut pos = Position::<V>::startpos();
        let len = 10 + rng.below(110);
        for ply in 0..len {
            let Some(next) = random_step(&pos, &mut rng) else {
                break;
            };
            pos = next;
            if ply >= 8
                && rng.below(4) == 0
                && pos.outcome().is_none()
                && !pos.is_check()
                && !pos.has_capture()
                && pos.has_legal_move()
            {
                out.push(pos);
                if out.len() == n {
                    break;
                }
            }
        }
    }
    out
}

/// Results drawn from `sigmoid(K * eval)` with `truth`'s weights: a win,
/// a draw or a loss with probabilities `p^2`, `2p(1-p)`, `(1-p)^2`, so the
/// expected score is `p`.
fn label<V: Variant>(
    positions: &[Position<V>],
    truth: &EvalParams,
    k: f64,
    seed: u64,
) -> Vec<(Position<V>, f32)> {
    positions
        .iter()
        .enumerate()
        .map(|(i, pos)| {
            // The engine's (tapered) evaluation with the true weights.
            let s = features_and_phase(pos).score(&truth.weights);
            let p = 1.0 / (1.0 + 10f64.powf(-k * s as f64 / 400.0));
            let mut rng = stream(seed, i as u64, 7);
            let (u, v) = (rng.unit(), rng.unit());
            let r = match (u < p, v < p) {
                (true, true) => 1.0,
                (false, false) => 0.0,
                _ => 0.5,
            };
            (*pos, r)
        })
        .collect()
}

fn material(kind: VariantKind, values: [i32; 5]) -> EvalParams {
    let mut p = EvalParams::default_for(kind);
    // Both halves (the chess defaults' endgame halves differ).
    for (i, v) in values.into_iter().enumerate() {
        p.set(idx::MATERIAL + i, v);
    }
    p
}

/// Each piece value within `rel` of the truth (and at least `floor` centipawns).
fn check_recovery(got: &EvalParams, truth: &EvalParams, rel: f64, floor: f64) {
    for r in 0..5 {
        let (g, t) = (
            got.weights[idx::MATERIAL + r],
            truth.weights[idx::MATERIAL + r],
        );
        assert!(
            ((g - t) as f64).abs() <= (rel * t as f64).max(floor),
            "{}: got {g}, truth {t} (all: {:?} vs {:?})",
            EvalParams::weight_name(idx::MATERIAL + r),
            &got.weights[idx::MATERIAL..idx::MATERIAL + 5],
            &truth.weights[idx::MATERIAL..idx::MATERIAL + 5]
        );
    }
}

/// Texel tuning of the weights `select` names, from the variant's default
/// weights, with K fixed at 1 and no resolution to quiescence leaves.
fn tune_from_defaults<V: Variant>(
    data: &[(Position<V>, f32)],
    select: &str,
    iterations: usize,
    optimizer: Optimizer,
) -> TexelOutcome {
    let init = EvalParams::default_for(V::KIND);
    let cfg = TexelConfig {
        tuned: tune::select_weights(select).unwrap(),
        iterations,
        optimizer,
        k: Some(1.0),
        resolve: false,
        resolve_every: 0,
    };
    tune::texel::tune(data, &init, &cfg, &mut |_| {}).unwrap()
}

#[test]
fn gauss_newton_recovers_chess_piece_values() {
    let truth = material(VariantKind::Chess, [90, 280, 360, 450, 1000]);
    let data = label(&playout_positions::<Chess>(100_000, 1), &truth, 1.0, 2);
    let r = tune_from_defaults(&data, "material", 15, Optimizer::GaussNewton);
    assert!(r.final_loss < r.initial_loss);
    check_recovery(&r.params, &truth, 0.04, 8.0);
}

#[test]
fn suicide_piece_values_with_negative_material_features() {
    // In suicide material counts against its owner; the values stay positive.
    let truth = material(VariantKind::Suicide, [120, 250, 350, 420, 550]);
    let data = label(&playout_positions::<Suicide>(60_000, 3), &truth, 1.0, 4);
    let r = tune_from_defaults(
        &data,
        "material.pawn,material.knight,material.bishop,material.rook,material.queen",
        15,
        Optimizer::GaussNewton,
    );
    check_recovery(&r.params, &truth, 0.04, 8.0);
}

#[test]
fn adam_recovers_chess_piece_values() {
    let truth = material(VariantKind::Chess, [90, 280, 360, 450, 1000]);
    let data = label(&playout_positions::<Chess>(40_000, 5), &truth, 1.0, 6);
    let r = tune_from_defaults(&data, "material", 600, Optimizer::Adam { lr: 2.0 });
    check_recovery(&r.params, &truth, 0.05, 10.0);
}

#[test]
fn k_is_recovered_with_the_true_weights() {
    let truth = material(VariantKind::Chess, [100, 300, 330, 500, 900]);
    let data = label(&playout_positions::<Chess>(40_000, 7), &truth, 0.6, 8);
    let tuned = tune::select_weights("material").unwrap();
    let d = Dataset::build(&data, &truth, &tuned, false);
    let w: Vec<f64> = tuned.iter().map(|&i| truth.weights[i] as f64).collect();
    let (k, _) = fit_k(&d, &w);
    assert!((k - 0.6).abs() < 0.05, "K = {k}");
}

#[test]
fn dataset_eval_matches_the_engine() {
    // The constant plus the sparse features reproduce the engine's evaluation.
    let p = EvalParams::default_for(VariantKind::Chess);
    let positions: Vec<(Position<Chess>, f32)> = playout_positions::<Chess>(500, 9)
        .into_iter()
        .map(|x| (x, 0.5))
        .collect();
    // Both halves of material: the chess defaults' differ.
    let tuned = tune::select_weights("material,material_eg,pst_knight,mobility").unwrap();
    let d = Dataset::build(&positions, &p, &tuned, false);
    let w: Vec<f64> = tuned.iter().map(|&i| p.weights[i] as f64).collect();
    for (i, (pos, _)) in positions.iter().enumerate() {
        let white = if pos.turn().is_white() { 1 } else { -1 };
        let engine = white * search::evaluate(pos, &p);
        assert_eq!(d.eval(i, &w) as i32, engine);
    }
}

#[test]
fn dataset_eval_matches_the_engine_with_distinct_endgame_halves() {
    // Endgame halves unlike the middlegame ones: the phase-shared features
    // of a term and its endgame half, and of a term tuned for both halves
    // at once, reproduce the engine's tapered evaluation.
    let mut p = EvalParams::default_for(VariantKind::Chess);
    for i in 0..search::eval::NUM_TERMS {
        p.weights[search::eval::EG + i] = p.weights[i] * 3 / 2 + (i as i32 % 5);
    }
    let positions: Vec<(Position<Chess>, f32)> = playout_positions::<Chess>(500, 11)
        .into_iter()
        .map(|x| (x, 0.5))
        .collect();
    for select in [
        "material,material_eg,pst_king_eg,tempo",
        "pst_pawn_eg,passed_pawn",
    ] {
        let tuned = tune::select_weights(select).unwrap();
        let d = Dataset::build(&positions, &p, &tuned, false);
        let w: Vec<f64> = tuned.iter().map(|&i| p.weights[i] as f64).collect();
        // `passed_pawn` alone is one weight for both halves: the engine's
        // with the endgame half set to it.
        let mut engine_params = p.clone();
        for (&i, &v) in tuned.iter().zip(&w) {
            engine_params.set(i, v as i32);
        }
        for (i, (pos, _)) in positions.iter().enumerate() {
            let white = if pos.turn().is_white() { 1 } else { -1 };
            let engine = white * search::evaluate(pos, &engine_params);
            assert_eq!(d.eval(i, &w) as i32, engine, "{select}: {}", pos.fen());
        }
    }
}

#[test]
fn k_at_an_end_of_its_range_is_flagged() {
    use tune::texel::{k_at_bound, K_RANGE};
    assert!(k_at_bound(K_RANGE.0));
    assert!(k_at_bound(K_RANGE.1));
    assert!(!k_at_bound(0.6));
    assert!(!k_at_bound(K_RANGE.0 * 2.0));
}
