//! Atomic chess, as FICS, Lichess, Fairy-Stockfish and shakmaty play it.
//!
//! - A capture explodes: the captured piece, the capturer and every non-pawn
//!   piece on the eight squares around the capture square are removed (for en
//!   passant, around the square the capturing pawn moves to).
//! - Kings never capture. Exploding the enemy king wins; a move that explodes
//!   your own king is illegal, even if it also explodes the enemy's; a move that
//!   explodes the enemy king is legal even when your king is in check.
//! - Check as in FIDE, except that kings standing next to each other cannot
//!   be in check (capturing one would explode both); kings may step next to
//!   each other. Castling as in FIDE with the same exception.
//! - Checkmate wins, stalemate draws. A position without one of the kings is
//!   over (it exploded): no legal moves.
//! - Bare kings (K v K) are a draw by insufficient material, as
//!   Fairy-Stockfish and cutechess score them: kings never capture, so
//!   neither side can win. A game rule, not a perft one.
//!
//! The explosion and the per-move legality test live in `movegen.rs` and
//! `position.rs`, behind `V::ATOMIC`.

use super::chess::fide_end_without_moves;
use super::{only_royals_left, FIDE_PROMOTIONS, FIDE_ROLES, FIDE_START};
use std::marker::PhantomData;

use crate::cpu::{Lookup, MagicLookup};
use crate::outcome::{EndReason, Outcome};
use crate::position::Position;
use crate::variant::{win_for, Variant, VariantKind};
use crate::{Color, Role};

/// Atomic chess.
///
/// `L` is the slider lookup its code is compiled with; the default, magic,
/// runs everywhere (see [`crate::cpu::Lookup`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Atomic<L: Lookup = MagicLookup>(PhantomData<L>);

impl<L: Lookup> Variant for Atomic<L> {
    type Lookup = L;
    type WithLookup<M: Lookup> = Atomic<M>;
    const KIND: VariantKind = VariantKind::Atomic;
    const HAS_END_RULE: bool = true;
    const ATOMIC: bool = true;
    const PROMOTIONS: &'static [Role] = FIDE_PROMOTIONS;
    const ROLES: &'static [Role] = FIDE_ROLES;
    const START_FEN: &'static str = FIDE_START;

    fn end_by_rule(pos: &Position<Self>) -> Option<Outcome> {
        let kings = pos.board().role(Role::King);
        Color::ALL
            .into_iter()
            .find(|&c| (kings & pos.board().color(c)).is_empty())
            .map(|lost| win_for(lost.other(), EndReason::KingExploded))
    }

    fn end_without_moves(pos: &Position<Self>) -> Outcome {
        fide_end_without_moves(pos)
    }

    fn insufficient_material(pos: &Position<Self>) -> bool {
        only_royals_left(pos)
    }
}
