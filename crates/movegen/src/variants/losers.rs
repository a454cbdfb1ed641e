//! Losers chess (XBoard "Losers Chess"; FICS/ICC losers).
//!
//! - Captures are mandatory among the legal moves (a capture that would leave
//!   your king in check does not count).
//! - The king is royal; castling as in FIDE.
//! - You win by being checkmated, by being stalemated, or by losing every piece
//!   but your king. A position where either side has only its king is over,
//!   won by that side; if both are bare (a FEN only) the side not to move wins.

use super::{FIDE_PROMOTIONS, FIDE_ROLES, FIDE_START};
use std::marker::PhantomData;

use crate::cpu::{Lookup, MagicLookup};
use crate::outcome::{EndReason, Outcome};
use crate::position::Position;
use crate::variant::{win_for, Variant, VariantKind};
use crate::Role;

/// Losers chess.
///
/// `L` is the slider lookup its code is compiled with; the default, magic,
/// runs everywhere (see [`crate::cpu::Lookup`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Losers<L: Lookup = MagicLookup>(PhantomData<L>);

impl<L: Lookup> Variant for Losers<L> {
    type Lookup = L;
    type WithLookup<M: Lookup> = Losers<M>;
    const KIND: VariantKind = VariantKind::Losers;
    const HAS_END_RULE: bool = true;
    const MUST_CAPTURE: bool = true;
    const PROMOTIONS: &'static [Role] = FIDE_PROMOTIONS;
    const ROLES: &'static [Role] = FIDE_ROLES;
    const START_FEN: &'static str = FIDE_START;

    fn end_by_rule(pos: &Position<Self>) -> Option<Outcome> {
        let b = pos.board();
        let mover = pos.turn().other();
        [mover, mover.other()]
            .into_iter()
            .find(|&c| (b.color(c) & !b.role(Role::King)).is_empty())
            .map(|c| win_for(c, EndReason::BareKing))
    }

    fn end_without_moves(pos: &Position<Self>) -> Outcome {
        let reason = if pos.is_check() {
            EndReason::Checkmate
        } else {
            EndReason::Stalemate
        };
        win_for(pos.turn(), reason)
    }
}
