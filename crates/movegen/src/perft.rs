//! Perft: the number of legal move sequences of a given length, the standard
//! test of a move generator. The last ply is counted in bulk (a popcount per
//! batch of destinations, see `movegen.rs`), never by making the moves, and
//! inner plies recurse straight from the generator's batches without building
//! move lists.

use crate::bitboard::Bitboard;
use crate::movegen::{generate, Sink};
use crate::moves::{Move, MoveKind};
use crate::position::{CastleSide, Position};
use crate::types::{Role, Square};
use crate::variant::Variant;

/// Number of legal move sequences of exactly `depth` plies from `pos`.
pub fn perft<V: Variant>(pos: &Position<V>, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => pos.count_legal(),
        _ => {
            let mut sink = Recurse {
                pos,
                depth: depth - 1,
                nodes: 0,
            };
            generate(pos, &mut sink);
            sink.nodes
        }
    }
}

/// Plays every move it receives and adds the perft of the child.
struct Recurse<'a, V: Variant> {
    pos: &'a Position<V>,
    /// Depth below the children.
    depth: u32,
    nodes: u64,
}

impl<V: Variant> Recurse<'_, V> {
    #[inline(always)]
    fn child(&mut self, m: Move) {
        let next = self.pos.play(m);
        self.nodes += if self.depth == 1 {
            next.count_legal()
        } else {
            perft(&next, self.depth)
        };
    }
}

impl<V: Variant> Sink for Recurse<'_, V> {
    #[inline(always)]
    fn moves(&mut self, role: Role, from: Square, to: Bitboard) -> bool {
        for sq in to {
            if role == Role::Pawn {
                if Bitboard::BACK_RANKS.contains(sq) {
                    for &r in V::PROMOTIONS {
                        self.child(Move::new(from, sq, MoveKind::Promotion(r)));
                    }
                    continue;
                }
                if Some(sq) == self.pos.ep_square() {
                    self.child(Move::new(from, sq, MoveKind::EnPassant));
                    continue;
                }
            }
            self.child(Move::normal(from, sq));
        }
        false
    }

    #[inline(always)]
    fn castle(&mut self, side: &CastleSide) -> bool {
        self.child(Move::new(side.king_from, side.king_to, MoveKind::Castle));
        false
    }
}

/// Perft split by first move: each legal move with the count below it.
pub fn divide<V: Variant>(pos: &Position<V>, depth: u32) -> Vec<(Move, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    pos.legal_moves()
        .iter()
        .map(|&m| (m, perft(&pos.play(m), depth - 1)))
        .collect()
}
