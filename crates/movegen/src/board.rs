//! `Board`: where the pieces stand, as bitboards per colour and per role.
//!
//! There is deliberately no square-indexed mailbox: positions are copied on
//! every move (copy-make), and without one a position stays under 128 bytes,
//! which the compiler copies with a few vector moves instead of a `memcpy`
//! call (measured: about 10% of perft time). "What is on this square" tests
//! the role bitboards instead.
//!
//! The board knows nothing about whose turn it is or about rules; `Position`
//! adds those.

use crate::bitboard::Bitboard;
use crate::types::{Color, Piece, Role, Square};

/// Piece placement.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Board {
    by_color: [Bitboard; 2],
    by_role: [Bitboard; 7],
    occupied: Bitboard,
}

impl Default for Board {
    fn default() -> Self {
        Board::empty()
    }
}

impl Board {
    /// A board without pieces.
    pub const fn empty() -> Board {
        Board {
            by_color: [Bitboard::EMPTY; 2],
            by_role: [Bitboard::EMPTY; 7],
            occupied: Bitboard::EMPTY,
        }
    }

    /// All occupied squares.
    #[inline]
    pub const fn occupied(&self) -> Bitboard {
        self.occupied
    }

    /// Squares holding pieces of `color`.
    #[inline]
    pub const fn color(&self, color: Color) -> Bitboard {
        self.by_color[color as usize]
    }

    /// Squares holding pieces of `role` (either colour).
    #[inline]
    pub const fn role(&self, role: Role) -> Bitboard {
        self.by_role[role as usize]
    }

    /// Squares holding `color`'s pieces of `role`.
    #[inline]
    pub const fn pieces(&self, color: Color, role: Role) -> Bitboard {
        Bitboard(self.by_color[color as usize].0 & self.by_role[role as usize].0)
    }

    /// The piece on `sq`, if any.
    #[inline]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        let role = self.role_at(sq)?;
        let color = if self.by_color[0].contains(sq) {
            Color::White
        } else {
            Color::Black
        };
        Some(Piece { color, role })
    }

    /// The role on `sq`, if any.
    #[inline]
    pub fn role_at(&self, sq: Square) -> Option<Role> {
        if !self.occupied.contains(sq) {
            return None;
        }
        Role::ALL
            .into_iter()
            .find(|&r| self.by_role[r.index()].contains(sq))
    }

    /// Puts `piece` on the empty square `sq`.
    #[inline]
    pub fn put(&mut self, sq: Square, piece: Piece) {
        debug_assert!(!self.occupied.contains(sq), "put on occupied {sq}");
        let bb = Bitboard::from_square(sq);
        self.by_color[piece.color.index()] |= bb;
        self.by_role[piece.role.index()] |= bb;
        self.occupied |= bb;
    }

    /// Removes `piece`, which must be on `sq`.
    #[inline]
    pub fn remove(&mut self, sq: Square, piece: Piece) {
        let bb = Bitboard::from_square(sq);
        self.by_color[piece.color.index()] ^= bb;
        self.by_role[piece.role.index()] ^= bb;
        self.occupied ^= bb;
    }

    /// Moves `piece` from `from` to the empty square `to`.
    #[inline]
    pub fn shift(&mut self, from: Square, to: Square, piece: Piece) {
        let bb = Bitboard::from_square(from) | Bitboard::from_square(to);
        self.by_color[piece.color.index()] ^= bb;
        self.by_role[piece.role.index()] ^= bb;
        self.occupied ^= bb;
    }

    /// Every piece with its square, a1 first.
    pub fn iter(&self) -> impl Iterator<Item = (Square, Piece)> + '_ {
        self.occupied
            .map(move |sq| (sq, self.piece_at(sq).expect("occupied square")))
    }
}
