//! The small vocabulary of the board: colours, piece roles, pieces and squares.
//!
//! Every type here is a thin `Copy` wrapper around a small integer so that it
//! can index tables directly. The one variant-specific role is the
//! [`Role::Commoner`] of knightmate (a non-royal piece that moves like a king);
//! in knightmate the [`Role::King`] is the royal knight.

use std::fmt;

/// A side: White or Black.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Color {
    /// White moves first.
    White = 0,
    /// Black.
    Black = 1,
}

impl Color {
    /// Both colours, White first.
    pub const ALL: [Color; 2] = [Color::White, Color::Black];

    /// The other side.
    #[inline]
    pub const fn other(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }

    /// 0 for White, 1 for Black.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The FEN letter of the side to move (`w` or `b`).
    pub const fn char(self) -> char {
        match self {
            Color::White => 'w',
            Color::Black => 'b',
        }
    }

    /// White if `white`, else Black (the colour of a generator compiled for
    /// one side to move).
    #[inline(always)]
    pub(crate) const fn of_white(white: bool) -> Color {
        if white {
            Color::White
        } else {
            Color::Black
        }
    }

    /// `true` for White.
    #[inline]
    pub const fn is_white(self) -> bool {
        matches!(self, Color::White)
    }

    /// The rank (0-based) a pawn of this colour starts on and double-pushes from.
    #[inline]
    pub const fn pawn_rank(self) -> u8 {
        match self {
            Color::White => 1,
            Color::Black => 6,
        }
    }

    /// The rank (0-based) on which this side's pieces start.
    #[inline]
    pub const fn back_rank(self) -> u8 {
        match self {
            Color::White => 0,
            Color::Black => 7,
        }
    }
}

/// What a piece is, independent of colour.
///
/// `Commoner` only exists in knightmate. In knightmate `King` denotes the
/// royal knight (it moves like a knight); its FEN letter is still `K`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Role {
    /// Pawn.
    Pawn = 0,
    /// Knight.
    Knight = 1,
    /// Bishop.
    Bishop = 2,
    /// Rook.
    Rook = 3,
    /// Queen.
    Queen = 4,
    /// King (royal except in suicide; the royal knight in knightmate).
    King = 5,
    /// Knightmate's commoner: moves like a king, not royal.
    Commoner = 6,
}

impl Role {
    /// Every role, in index order.
    pub const ALL: [Role; 7] = [
        Role::Pawn,
        Role::Knight,
        Role::Bishop,
        Role::Rook,
        Role::Queen,
        Role::King,
        Role::Commoner,
    ];

    /// Index into per-role tables.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// Role from its index (`0..7`).
    #[inline]
    pub const fn from_index(i: usize) -> Option<Role> {
        if i < 7 {
            Some(Role::ALL[i])
        } else {
            None
        }
    }

    /// Lowercase letter as used in FEN (for Black), SAN (uppercased) and UCI
    /// promotion suffixes.
    pub const fn char(self) -> char {
        match self {
            Role::Pawn => 'p',
            Role::Knight => 'n',
            Role::Bishop => 'b',
            Role::Rook => 'r',
            Role::Queen => 'q',
            Role::King => 'k',
            Role::Commoner => 'm',
        }
    }

    /// Role from a letter of either case.
    pub fn from_char(c: char) -> Option<Role> {
        Some(match c.to_ascii_lowercase() {
            'p' => Role::Pawn,
            'n' => Role::Knight,
            'b' => Role::Bishop,
            'r' => Role::Rook,
            'q' => Role::Queen,
            'k' => Role::King,
            'm' => Role::Commoner,
            _ => return None,
        })
    }
}

/// A coloured piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    /// Whose piece.
    pub color: Color,
    /// What it is.
    pub role: Role,
}

impl Piece {
    /// FEN letter: uppercase for White.
    pub fn char(self) -> char {
        let c = self.role.char();
        if self.color.is_white() {
            c.to_ascii_uppercase()
        } else {
            c
        }
    }

    /// Piece from a FEN letter (uppercase is White).
    pub fn from_char(c: char) -> Option<Piece> {
        let role = Role::from_char(c)?;
        let color = if c.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        };
        Some(Piece { color, role })
    }
}

/// A square, `0` = a1, `7` = h1, `63` = h8.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

macro_rules! square_consts {
    ($($name:ident = $v:expr),* $(,)?) => {
        $(#[allow(missing_docs)] pub const $name: Square = Square($v);)*
    };
}

impl Square {
    square_consts! {
        A1 = 0, B1 = 1, C1 = 2, D1 = 3, E1 = 4, F1 = 5, G1 = 6, H1 = 7,
        A8 = 56, B8 = 57, C8 = 58, D8 = 59, E8 = 60, F8 = 61, G8 = 62, H8 = 63,
    }

    /// Square from its index; `None` unless `i < 64`.
    #[inline]
    pub const fn new(i: u8) -> Option<Square> {
        if i < 64 {
            Some(Square(i))
        } else {
            None
        }
    }

    /// Square from an index known to be below 64 (checked in debug builds).
    #[inline]
    pub const fn from_index_unchecked(i: u8) -> Square {
        debug_assert!(i < 64);
        Square(i & 63)
    }

    /// Square from file and rank (both `0..8`).
    #[inline]
    pub const fn from_coords(file: u8, rank: u8) -> Square {
        debug_assert!(file < 8 && rank < 8);
        Square((rank & 7) * 8 + (file & 7))
    }

    /// Index `0..64`. (The mask is free and lets the compiler drop bounds
    /// checks on every 64-entry table.)
    #[inline]
    pub const fn index(self) -> usize {
        (self.0 & 63) as usize
    }

    /// Raw value `0..64`.
    #[inline]
    pub const fn raw(self) -> u8 {
        self.0
    }

    /// File `0..8` (a = 0).
    #[inline]
    pub const fn file(self) -> u8 {
        self.0 & 7
    }

    /// Rank `0..8` (rank 1 = 0).
    #[inline]
    pub const fn rank(self) -> u8 {
        self.0 >> 3
    }

    /// The same square seen from Black's side (rank mirrored).
    #[inline]
    pub const fn flip(self) -> Square {
        Square(self.0 ^ 56)
    }

    /// This square relative to `color`: unchanged for White, mirrored for Black.
    #[inline]
    pub const fn relative(self, color: Color) -> Square {
        match color {
            Color::White => self,
            Color::Black => self.flip(),
        }
    }

    /// Offset by `delta` squares; `None` if the result leaves `0..64`.
    #[inline]
    pub const fn offset(self, delta: i8) -> Option<Square> {
        let v = self.0 as i16 + delta as i16;
        if v >= 0 && v < 64 {
            Some(Square(v as u8))
        } else {
            None
        }
    }

    /// Every square, a1 first.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..64).map(Square)
    }

    /// Parses algebraic notation such as `e4`.
    pub fn parse(s: &str) -> Option<Square> {
        let b = s.as_bytes();
        if b.len() != 2 {
            return None;
        }
        let (f, r) = (b[0], b[1]);
        if !(b'a'..=b'h').contains(&f) || !(b'1'..=b'8').contains(&r) {
            return None;
        }
        Some(Square::from_coords(f - b'a', r - b'1'))
    }

    /// The file letter, `a` to `h`.
    pub fn file_char(self) -> char {
        (b'a' + self.file()) as char
    }

    /// The rank digit, `1` to `8`.
    pub fn rank_char(self) -> char {
        (b'1' + self.rank()) as char
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.file_char(), self.rank_char())
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}
