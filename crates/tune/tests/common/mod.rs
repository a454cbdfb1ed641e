//! Helpers shared by the tuner's integration tests: the random playouts
//! their positions come from.
#![allow(dead_code)]

use movegen::{Position, SplitMix64, Variant};

/// The position after a legal move drawn uniformly with `rng`, or `None`
/// when the game is over or no move is legal.
pub fn random_step<V: Variant>(pos: &Position<V>, rng: &mut SplitMix64) -> Option<Position<V>> {
    if pos.outcome().is_some() {
        return None;
    }
    let moves = pos.legal_moves();
    if moves.is_empty() {
        return None;
    }
    Some(pos.play_unchecked(moves[rng.below(moves.len())]))
}
