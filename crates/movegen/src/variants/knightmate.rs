//! Knightmate.
//!
//! - The royal piece (FEN `K`/`k`, starting on e1/e8) moves as a knight. It
//!   may not be left in check; checkmating it wins; stalemate draws.
//! - Commoners (FEN `M`/`m`, starting on b1, g1, b8, g8) move like a king but
//!   are not royal. There are no ordinary knights.
//! - Pawns promote to Q, R, B or commoner.
//! - Castling as in FIDE: the unmoved royal knight moves two squares toward an
//!   unmoved rook, which lands beside it; squares between them empty; the royal
//!   knight not in check on its square, the square it passes or where it lands.
//! - Two bare royal knights are a draw by insufficient material, as
//!   Fairy-Stockfish and cutechess score them (a game rule, not a perft one).

use super::chess::fide_end_without_moves;
use super::only_royals_left;
use std::marker::PhantomData;

use crate::cpu::{Lookup, MagicLookup};
use crate::outcome::Outcome;
use crate::position::Position;
use crate::variant::{Variant, VariantKind};
use crate::Role;

/// Knightmate.
///
/// `L` is the slider lookup its code is compiled with; the default, magic,
/// runs everywhere (see [`crate::cpu::Lookup`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Knightmate<L: Lookup = MagicLookup>(PhantomData<L>);

impl<L: Lookup> Variant for Knightmate<L> {
    type Lookup = L;
    type WithLookup<M: Lookup> = Knightmate<M>;
    const KIND: VariantKind = VariantKind::Knightmate;
    const HAS_END_RULE: bool = false;
    const ROYAL_KNIGHT: bool = true;
    const PROMOTIONS: &'static [Role] = &[Role::Queen, Role::Rook, Role::Bishop, Role::Commoner];
    const ROLES: &'static [Role] = &[
        Role::Pawn,
        Role::Bishop,
        Role::Rook,
        Role::Queen,
        Role::King,
        Role::Commoner,
    ];
    const START_FEN: &'static str = "rmbqkbmr/pppppppp/8/8/8/8/PPPPPPPP/RMBQKBMR w KQkq - 0 1";

    fn end_by_rule(_pos: &Position<Self>) -> Option<Outcome> {
        None
    }

    fn end_without_moves(pos: &Position<Self>) -> Outcome {
        fide_end_without_moves(pos)
    }

    fn insufficient_material(pos: &Position<Self>) -> bool {
        only_royals_left(pos)
    }
}
