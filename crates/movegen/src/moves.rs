//! `Move`: a move packed into 16 bits, and `MoveList`, a fixed-capacity list
//! that lives on the stack.
//!
//! Bits 0-5 hold the origin, 6-11 the destination, 12-15 the kind: 0 normal,
//! 1 en passant, 2 castling, 8 + role for a promotion. Castling is stored as
//! the king's two-square move, which is also its UCI form.

use crate::types::{Role, Square};
use std::fmt;

/// What kind of move a [`Move`] is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MoveKind {
    /// Any move that is not one of the others (including captures and double pushes).
    Normal,
    /// En-passant capture.
    EnPassant,
    /// Castling, stored as the king's move.
    Castle,
    /// Pawn promotion to the given role.
    Promotion(Role),
}

/// A move, packed into 16 bits.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Move(u16);

impl Move {
    const EP: u16 = 1;
    const CASTLE: u16 = 2;
    const PROMO: u16 = 8;

    /// Builds a move of the given kind.
    #[inline]
    pub const fn new(from: Square, to: Square, kind: MoveKind) -> Move {
        let flag = match kind {
            MoveKind::Normal => 0,
            MoveKind::EnPassant => Self::EP,
            MoveKind::Castle => Self::CASTLE,
            MoveKind::Promotion(role) => Self::PROMO + role as u16,
        };
        Move(from.raw() as u16 | (to.raw() as u16) << 6 | flag << 12)
    }

    /// A normal move.
    #[inline]
    pub const fn normal(from: Square, to: Square) -> Move {
        Move(from.raw() as u16 | (to.raw() as u16) << 6)
    }

    /// Origin square.
    #[inline]
    pub const fn from(self) -> Square {
        Square::from_index_unchecked((self.0 & 63) as u8)
    }

    /// Destination square (the king's for castling).
    #[inline]
    pub const fn to(self) -> Square {
        Square::from_index_unchecked(((self.0 >> 6) & 63) as u8)
    }

    /// The move's kind.
    #[inline]
    pub const fn kind(self) -> MoveKind {
        let flag = self.0 >> 12;
        if flag >= Self::PROMO {
            match Role::from_index((flag - Self::PROMO) as usize) {
                Some(r) => MoveKind::Promotion(r),
                None => MoveKind::Normal,
            }
        } else if flag == Self::EP {
            MoveKind::EnPassant
        } else if flag == Self::CASTLE {
            MoveKind::Castle
        } else {
            MoveKind::Normal
        }
    }

    /// The promotion role, if this is a promotion.
    #[inline]
    pub const fn promotion(self) -> Option<Role> {
        match self.kind() {
            MoveKind::Promotion(r) => Some(r),
            _ => None,
        }
    }

    /// `true` for castling.
    #[inline]
    pub const fn is_castle(self) -> bool {
        self.0 >> 12 == Self::CASTLE
    }

    /// `true` for en passant.
    #[inline]
    pub const fn is_en_passant(self) -> bool {
        self.0 >> 12 == Self::EP
    }

    /// The raw 16-bit encoding (for hash tables).
    #[inline]
    pub const fn raw(self) -> u16 {
        self.0
    }

    /// A move from its raw encoding, if it is well formed.
    pub fn from_raw(raw: u16) -> Option<Move> {
        let flag = raw >> 12;
        let ok = flag <= Self::CASTLE || (Self::PROMO + 1..Self::PROMO + 7).contains(&flag);
        ok.then_some(Move(raw))
    }

    /// UCI text: origin, destination, promotion letter (`e7e8q`, `e1g1`).
    pub fn uci(self) -> String {
        let mut s = format!("{}{}", self.from(), self.to());
        if let Some(r) = self.promotion() {
            s.push(r.char());
        }
        s
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.uci())
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.uci())
    }
}

/// Capacity of a [`MoveList`]; no legal position in any of the six games has
/// more moves (the chess maximum is 218; suicide's extra king promotions stay
/// well below this).
pub const MAX_MOVES: usize = 256;

/// A list of moves on the stack.
#[derive(Clone)]
pub struct MoveList {
    moves: [Move; MAX_MOVES],
    len: usize,
}

impl Default for MoveList {
    fn default() -> Self {
        Self::new()
    }
}

impl MoveList {
    /// An empty list.
    #[inline]
    pub const fn new() -> MoveList {
        MoveList {
            moves: [Move(0); MAX_MOVES],
            len: 0,
        }
    }

    /// Appends a move. Silently ignores moves beyond capacity (cannot happen
    /// for positions that pass validation).
    #[inline]
    pub fn push(&mut self, m: Move) {
        if self.len < MAX_MOVES {
            self.moves[self.len] = m;
            self.len += 1;
        }
    }

    /// Number of moves.
    #[inline]
    pub const fn len(&self) -> usize {
        self.len
    }

    /// `true` if there are no moves.
    #[inline]
    pub const fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Removes all moves.
    #[inline]
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// Keeps only the moves for which `f` is true.
    pub fn retain(&mut self, mut f: impl FnMut(Move) -> bool) {
        let mut j = 0;
        for i in 0..self.len {
            if f(self.moves[i]) {
                self.moves[j] = self.moves[i];
                j += 1;
            }
        }
        self.len = j;
    }
}

impl std::ops::Deref for MoveList {
    type Target = [Move];
    #[inline]
    fn deref(&self) -> &[Move] {
        &self.moves[..self.len]
    }
}

impl std::ops::DerefMut for MoveList {
    #[inline]
    fn deref_mut(&mut self) -> &mut [Move] {
        &mut self.moves[..self.len]
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = std::slice::Iter<'a, Move>;
    fn into_iter(self) -> Self::IntoIter {
        self.moves[..self.len].iter()
    }
}

impl fmt::Debug for MoveList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encoding_round_trips() {
        for from in Square::all() {
            for to in [Square::A1, Square::H8, Square::E1] {
                for kind in [
                    MoveKind::Normal,
                    MoveKind::EnPassant,
                    MoveKind::Castle,
                    MoveKind::Promotion(Role::Queen),
                    MoveKind::Promotion(Role::King),
                    MoveKind::Promotion(Role::Commoner),
                ] {
                    let m = Move::new(from, to, kind);
                    assert_eq!((m.from(), m.to(), m.kind()), (from, to, kind));
                    assert_eq!(Move::from_raw(m.raw()), Some(m));
                }
            }
        }
    }
}
