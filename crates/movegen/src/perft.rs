//! Perft: the number of legal move sequences of a given length, the standard
//! test of a move generator. The last ply is counted in bulk (a popcount per
//! batch of destinations, see `movegen.rs`), never by making the moves, and
//! inner plies recurse straight from the generator's batches without building
//! move lists. Each child is made knowing the moving piece's role (the batch
//! says it) and without a Zobrist key, and its check information is derived
//! from the move through the parent's check context, taken once for all of
//! its children (`Position::child_check_context`, `Position::play_unhashed_mut`).

use crate::movegen::{generate, EachMove};
use crate::moves::Move;
use crate::position::{ChildCheckContext, Position};
use crate::variant::Variant;

/// Number of legal move sequences of exactly `depth` plies from `pos`.
pub fn perft<V: Variant>(pos: &Position<V>, depth: u32) -> u64 {
    match pos.child_check_context() {
        Some(ctx) => perft_with(pos, Some(&ctx), depth),
        None => perft_with(pos, None, depth),
    }
}

/// [`perft`] with `ctx`, the position's [`Position::child_check_context`].
#[inline(always)]
fn perft_with<V: Variant>(pos: &Position<V>, ctx: Option<&ChildCheckContext>, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => pos.count_legal(),
        // The leaf-parents get a loop of their own, without the recursion.
        2 => {
            let mut nodes = 0;
            let mut sink = EachMove::<V, _>::new(pos.ep_square(), |m, role| {
                let mut child = *pos;
                child.play_unhashed_mut(ctx, m, role);
                nodes += child.count_legal();
            });
            generate(pos, &mut sink);
            nodes
        }
        _ => {
            let mut nodes = 0;
            let mut sink = EachMove::<V, _>::new(pos.ep_square(), |m, role| {
                let mut child = *pos;
                child.play_unhashed_mut(ctx, m, role);
                nodes += perft(&child, depth - 1);
            });
            generate(pos, &mut sink);
            nodes
        }
    }
}

/// Perft split by first move: each legal move with the count below it.
pub fn divide<V: Variant>(pos: &Position<V>, depth: u32) -> Vec<(Move, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    pos.legal_moves()
        .iter()
        .map(|&m| (m, perft(&pos.play_unchecked(m), depth - 1)))
        .collect()
}
