//! The six games, one file each. Each file states its rules in its header and
//! holds every rule of that game that is not a constant flag: how the game ends
//! by its own rule and what having no legal moves means.

mod atomic;
mod chess;
mod knightmate;
mod losers;
mod suicide;
mod threecheck;

pub use atomic::Atomic;
pub use chess::Chess;
pub use knightmate::Knightmate;
pub use losers::Losers;
pub use suicide::Suicide;
pub use threecheck::ThreeCheck;

use crate::types::Role;

/// FIDE promotion choices (queen first: the likeliest move first).
pub(crate) const FIDE_PROMOTIONS: &[Role] = &[Role::Queen, Role::Rook, Role::Bishop, Role::Knight];
/// The FIDE set of pieces: every role before the commoner (the only
/// non-FIDE one, last in [`Role::ALL`]).
pub(crate) const FIDE_ROLES: &[Role] = Role::ALL.split_at(Role::Commoner as usize).0;
/// The FIDE start position.
pub(crate) const FIDE_START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// `true` if only the royal pieces are left (K v K; two royal knights in
/// knightmate): the insufficient material of the games where nothing else
/// is (threecheck, atomic, knightmate).
pub(crate) fn only_royals_left<V: crate::Variant>(pos: &crate::Position<V>) -> bool {
    pos.board().occupied() == pos.board().role(Role::King)
}
