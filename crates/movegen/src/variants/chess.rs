//! Standard chess (FIDE rules).
//!
//! Checkmate wins, stalemate draws. Insufficient material: K v K, K+minor v K,
//! K+B v K+B with bishops on squares of one colour.

use super::{FIDE_PROMOTIONS, FIDE_ROLES, FIDE_START};
use std::marker::PhantomData;

use crate::cpu::{Lookup, MagicLookup};
use crate::outcome::{EndReason, Outcome};
use crate::position::Position;
use crate::variant::{win_for, Variant, VariantKind};
use crate::{Bitboard, Role};

/// Standard chess.
///
/// `L` is the slider lookup its code is compiled with; the default, magic,
/// runs everywhere (see [`crate::cpu::Lookup`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Chess<L: Lookup = MagicLookup>(PhantomData<L>);

impl<L: Lookup> Variant for Chess<L> {
    type Lookup = L;
    type WithLookup<M: Lookup> = Chess<M>;
    const KIND: VariantKind = VariantKind::Chess;
    const HAS_END_RULE: bool = false;
    const PROMOTIONS: &'static [Role] = FIDE_PROMOTIONS;
    const ROLES: &'static [Role] = FIDE_ROLES;
    const START_FEN: &'static str = FIDE_START;

    fn end_by_rule(_pos: &Position<Self>) -> Option<Outcome> {
        None
    }

    fn end_without_moves(pos: &Position<Self>) -> Outcome {
        fide_end_without_moves(pos)
    }

    fn insufficient_material(pos: &Position<Self>) -> bool {
        let b = pos.board();
        if (b.role(Role::Pawn) | b.role(Role::Rook) | b.role(Role::Queen)).any() {
            return false;
        }
        let minors = b.role(Role::Knight) | b.role(Role::Bishop);
        if minors.count() <= 1 {
            return true;
        }
        // Only bishops, all on one colour: no mate is possible.
        let bishops = b.role(Role::Bishop);
        b.role(Role::Knight).is_empty()
            && ((bishops & Bitboard::LIGHT).is_empty() || (bishops & Bitboard::DARK).is_empty())
    }
}

/// Checkmate wins for the side that gave it; stalemate is a draw.
pub(crate) fn fide_end_without_moves<V: Variant>(pos: &Position<V>) -> Outcome {
    if pos.is_check() {
        win_for(pos.turn().other(), EndReason::Checkmate)
    } else {
        Outcome::Draw {
            reason: EndReason::Stalemate,
        }
    }
}
