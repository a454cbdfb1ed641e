//! Move notation: UCI (`e2e4`, `e7e8q`, castling as the king's two-square
//! move) and SAN (`Nf3`, `exd5`, `O-O`, `e8=Q+`), both ways.
//!
//! Parsing always resolves text against the legal moves of a position, so a
//! parsed move is legal by construction. Variant letters: the commoner is `M`,
//! knightmate's royal knight is `K`, and suicide promotes to `K` as well.

use crate::moves::{Move, MoveKind};
use crate::outcome::EndReason;
use crate::position::Position;
use crate::types::{Color, Role, Square};
use crate::variant::Variant;

/// Why a move text was rejected.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    /// Not a move in the expected notation.
    #[error("invalid move notation \"{0}\"")]
    Syntax(String),
    /// Well formed but not legal in the position.
    #[error("illegal move \"{0}\"")]
    Illegal(String),
    /// SAN matching more than one legal move.
    #[error("ambiguous move \"{0}\"")]
    Ambiguous(String),
}

impl<V: Variant> Position<V> {
    /// Parses a UCI move and checks it is legal. Castling may also be written
    /// as the king moving onto its own rook (`e1h1`), as some GUIs send it.
    pub fn parse_uci(&self, text: &str) -> Result<Move, MoveError> {
        let syntax = || MoveError::Syntax(text.to_string());
        if !text.is_ascii() || !(4..=5).contains(&text.len()) {
            return Err(syntax());
        }
        let from = Square::parse(&text[0..2]).ok_or_else(syntax)?;
        let to = Square::parse(&text[2..4]).ok_or_else(syntax)?;
        let promotion = match text.as_bytes().get(4) {
            None => None,
            Some(&c) => Some(
                Role::from_char(c as char)
                    .filter(|r| *r != Role::Pawn && c.is_ascii_lowercase())
                    .ok_or_else(syntax)?,
            ),
        };
        let legal = self.legal_moves();
        let found = legal.iter().copied().find(|m| {
            m.from() == from
                && m.promotion() == promotion
                && (m.to() == to || (m.is_castle() && rook_square_of_castle(*m) == Some(to)))
        });
        found.ok_or_else(|| MoveError::Illegal(text.to_string()))
    }

    /// The moves of `pv` in SAN with move numbers, from this position
    /// (`12. Nf3 Nc6`, or `12... Nc6` when Black moves first); stops at the
    /// first move that is not legal.
    pub fn san_line(&self, pv: &[Move]) -> String {
        let mut out = String::new();
        let mut pos = *self;
        for (i, &m) in pv.iter().enumerate() {
            if !pos.is_legal(m) {
                break;
            }
            if !out.is_empty() {
                out.push(' ');
            }
            if pos.turn() == Color::White {
                out.push_str(&format!("{}. ", pos.fullmove_number()));
            } else if i == 0 {
                out.push_str(&format!("{}... ", pos.fullmove_number()));
            }
            out.push_str(&pos.san(m));
            pos = pos.play_unchecked(m);
        }
        out
    }

    /// SAN of a legal move, with `+` for check and `#` for checkmate.
    pub fn san(&self, m: Move) -> String {
        let mut s = self.san_without_suffix(m);
        let after = self.play_unchecked(m);
        match after.outcome() {
            Some(o) if o.reason() == EndReason::Checkmate => s.push('#'),
            _ if after.is_check() => s.push('+'),
            _ => {}
        }
        s
    }

    fn san_without_suffix(&self, m: Move) -> String {
        if m.is_castle() {
            return if m.to().file() == 6 { "O-O" } else { "O-O-O" }.into();
        }
        let Some(piece) = self.board.piece_at(m.from()) else {
            return m.uci();
        };
        let capture = self.is_capture(m);
        let mut s = String::new();
        if piece.role == Role::Pawn {
            if capture {
                s.push(m.from().file_char());
                s.push('x');
            }
            s.push_str(&m.to().to_string());
            if let Some(r) = m.promotion() {
                s.push('=');
                s.push(r.char().to_ascii_uppercase());
            }
            return s;
        }
        s.push(piece.role.char().to_ascii_uppercase());
        // Disambiguate among other pieces of the same role reaching the same square.
        let others: Vec<Square> = self
            .legal_moves()
            .iter()
            .filter(|o| {
                o.to() == m.to()
                    && o.from() != m.from()
                    && !o.is_castle()
                    && self.board.role_at(o.from()) == Some(piece.role)
            })
            .map(|o| o.from())
            .collect();
        if !others.is_empty() {
            let file_unique = others.iter().all(|o| o.file() != m.from().file());
            let rank_unique = others.iter().all(|o| o.rank() != m.from().rank());
            if file_unique {
                s.push(m.from().file_char());
            } else if rank_unique {
                s.push(m.from().rank_char());
            } else {
                s.push_str(&m.from().to_string());
            }
        }
        if capture {
            s.push('x');
        }
        s.push_str(&m.to().to_string());
        s
    }

    /// Parses SAN leniently (missing or extra `x`, `+`, `#`, `!`, `?`,
    /// promotion with or without `=`, `0-0` for `O-O`, over-disambiguation)
    /// and resolves it to exactly one legal move.
    pub fn parse_san(&self, text: &str) -> Result<Move, MoveError> {
        let syntax = || MoveError::Syntax(text.to_string());
        let t = text.trim_end_matches(['+', '#', '!', '?']);
        if !t.is_ascii() || t.is_empty() || t.len() > 10 {
            return Err(syntax());
        }
        let legal = self.legal_moves();
        if matches!(t, "O-O" | "0-0" | "O-O-O" | "0-0-0") {
            let file = if t.len() == 3 { 6 } else { 2 };
            return legal
                .iter()
                .copied()
                .find(|m| m.is_castle() && m.to().file() == file)
                .ok_or_else(|| MoveError::Illegal(text.to_string()));
        }
        let mut b = t.as_bytes();
        // Promotion suffix.
        let mut promotion = None;
        if let Some(&last) = b.last() {
            if last.is_ascii_uppercase()
                || (last.is_ascii_lowercase() && b.len() >= 3 && b[b.len() - 2] == b'=')
            {
                let role = Role::from_char(last as char)
                    .filter(|r| *r != Role::Pawn)
                    .ok_or_else(syntax)?;
                promotion = Some(role);
                b = &b[..b.len() - 1];
                if b.last() == Some(&b'=') {
                    b = &b[..b.len() - 1];
                }
            }
        }
        // Piece letter.
        let role = match b.first() {
            Some(&c) if c.is_ascii_uppercase() => {
                b = &b[1..];
                Role::from_char(c as char)
                    .filter(|r| *r != Role::Pawn)
                    .ok_or_else(syntax)?
            }
            _ => Role::Pawn,
        };
        if b.len() < 2 {
            return Err(syntax());
        }
        let dest = std::str::from_utf8(&b[b.len() - 2..]).map_err(|_| syntax())?;
        let to = Square::parse(dest).ok_or_else(syntax)?;
        let mut rest = &b[..b.len() - 2];
        if rest.last() == Some(&b'x') || rest.last() == Some(&b':') {
            rest = &rest[..rest.len() - 1];
        }
        let (mut from_file, mut from_rank) = (None, None);
        for &c in rest {
            match c {
                b'a'..=b'h' if from_file.is_none() => from_file = Some(c - b'a'),
                b'1'..=b'8' if from_rank.is_none() => from_rank = Some(c - b'1'),
                _ => return Err(syntax()),
            }
        }
        let mut found = None;
        for &m in legal.iter() {
            if m.is_castle()
                || m.to() != to
                || m.promotion() != promotion
                || self.board.role_at(m.from()) != Some(role)
                || from_file.is_some_and(|f| m.from().file() != f)
                || from_rank.is_some_and(|r| m.from().rank() != r)
            {
                continue;
            }
            if found.is_some() {
                return Err(MoveError::Ambiguous(text.to_string()));
            }
            found = Some(m);
        }
        found.ok_or_else(|| MoveError::Illegal(text.to_string()))
    }
}

/// For a castling move, the square of the rook it moves.
fn rook_square_of_castle(m: Move) -> Option<Square> {
    if m.kind() != MoveKind::Castle {
        return None;
    }
    let file = if m.to().file() == 6 { 7 } else { 0 };
    Some(Square::from_coords(file, m.from().rank()))
}
