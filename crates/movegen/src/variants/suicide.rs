//! Suicide (XBoard "Suicide"; CECP, Fairy-Stockfish and PGN call it giveaway).
//!
//! - Captures are mandatory; the player chooses among captures.
//! - The king is an ordinary piece: no check, it can be captured, and pawns
//!   may promote to it (Q, R, B, N or K).
//! - Castling is allowed (king and rook unmoved, squares between empty, no
//!   condition about attacked squares); it is a non-capture.
//! - The side to move with no legal move wins. A position in which the side
//!   not to move has no pieces is over too, won by that side.

use super::{FIDE_ROLES, FIDE_START};
use std::marker::PhantomData;

use crate::cpu::{Lookup, MagicLookup};
use crate::outcome::{EndReason, Outcome};
use crate::position::Position;
use crate::variant::{win_for, Variant, VariantKind};
use crate::Role;

/// Suicide (giveaway with castling).
///
/// `L` is the slider lookup its code is compiled with; the default, magic,
/// runs everywhere (see [`crate::cpu::Lookup`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Suicide<L: Lookup = MagicLookup>(PhantomData<L>);

impl<L: Lookup> Variant for Suicide<L> {
    type Lookup = L;
    type WithLookup<M: Lookup> = Suicide<M>;
    const KIND: VariantKind = VariantKind::Suicide;
    const HAS_END_RULE: bool = true;
    const ROYAL: bool = false;
    const MUST_CAPTURE: bool = true;
    const PROMOTIONS: &'static [Role] = &[
        Role::Queen,
        Role::Rook,
        Role::Bishop,
        Role::Knight,
        Role::King,
    ];
    const ROLES: &'static [Role] = FIDE_ROLES;
    const START_FEN: &'static str = FIDE_START;

    fn end_by_rule(pos: &Position<Self>) -> Option<Outcome> {
        let waiting = pos.turn().other();
        pos.board()
            .color(waiting)
            .is_empty()
            .then(|| win_for(waiting, EndReason::NoMoves))
    }

    fn end_without_moves(pos: &Position<Self>) -> Outcome {
        win_for(pos.turn(), EndReason::NoMoves)
    }
}
