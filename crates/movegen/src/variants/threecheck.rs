//! Three-check: FIDE chess, plus the side that gives its third check wins.
//!
//! Positions carry the checks each side still has to give (`3+3` at the
//! start). A position where either side has 0 left is over: in play only the
//! side that just moved can reach 0; a FEN with the side to move at 0 is
//! treated as over too. Checkmate wins, stalemate draws, and only K v K is
//! insufficient material.

use super::chess::fide_end_without_moves;
use super::{only_royals_left, FIDE_PROMOTIONS, FIDE_ROLES};
use std::marker::PhantomData;

use crate::cpu::{Lookup, MagicLookup};
use crate::outcome::{EndReason, Outcome};
use crate::position::Position;
use crate::variant::{win_for, Variant, VariantKind};
use crate::{Color, Role};

/// Three-check.
///
/// `L` is the slider lookup its code is compiled with; the default, magic,
/// runs everywhere (see [`crate::cpu::Lookup`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct ThreeCheck<L: Lookup = MagicLookup>(PhantomData<L>);

impl<L: Lookup> Variant for ThreeCheck<L> {
    type Lookup = L;
    type WithLookup<M: Lookup> = ThreeCheck<M>;
    const KIND: VariantKind = VariantKind::ThreeCheck;
    const HAS_END_RULE: bool = true;
    const CHECK_COUNTING: bool = true;
    const PROMOTIONS: &'static [Role] = FIDE_PROMOTIONS;
    const ROLES: &'static [Role] = FIDE_ROLES;
    const START_FEN: &'static str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 3+3 0 1";

    fn end_by_rule(pos: &Position<Self>) -> Option<Outcome> {
        // The side that just moved is checked first: that is the case play produces.
        let mover = pos.turn().other();
        [mover, mover.other()]
            .into_iter()
            .find(|&c: &Color| pos.checks_remaining(c) == 0)
            .map(|c| win_for(c, EndReason::ThirdCheck))
    }

    fn end_without_moves(pos: &Position<Self>) -> Outcome {
        fide_end_without_moves(pos)
    }

    fn insufficient_material(pos: &Position<Self>) -> bool {
        only_royals_left(pos)
    }
}
