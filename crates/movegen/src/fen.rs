//! FEN reading and writing for every variant, with validation.
//!
//! Field order: board, side to move, castling, en passant, then for
//! threecheck the X-FEN remaining-checks field `W+B`, then the halfmove clock
//! and fullmove number (both optional, defaulting to `0 1`). Threecheck also
//! accepts Lichess's trailing checks-given field `+W+B`; without either it
//! assumes `3+3`. Knightmate writes its royal knight as `K` and commoners as
//! `M`.
//!
//! Errors name the field and the offending text; positions that cannot arise
//! are rejected with a reason (three or more checkers outside atomic, the
//! side not to move in check, both threecheck counters spent, both counter
//! forms in one FEN), but finished games (an exploded king, a bare king, one
//! spent check counter) load normally.

use crate::attacks::king_attacks;
use crate::bitboard::Bitboard;
use crate::board::Board;
use crate::position::{castle, Position, CASTLES};
use crate::types::{Color, Piece, Role, Square};
use crate::variant::Variant;
use std::marker::PhantomData;

/// Why a FEN was rejected.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FenError {
    /// Nothing to parse.
    #[error("empty FEN")]
    Empty,
    /// The piece placement field.
    #[error("invalid board field \"{field}\": {reason}")]
    Board {
        /// The field as given.
        field: String,
        /// What is wrong with it.
        reason: String,
    },
    /// The side-to-move field.
    #[error("invalid side to move \"{0}\" (expected w or b)")]
    Turn(String),
    /// The castling field.
    #[error("invalid castling field \"{0}\"")]
    Castling(String),
    /// The en-passant field.
    #[error("invalid en passant field \"{0}\"")]
    EnPassant(String),
    /// The threecheck counter field.
    #[error("invalid remaining checks field \"{0}\"")]
    Checks(String),
    /// The halfmove clock.
    #[error("invalid halfmove clock \"{0}\"")]
    Halfmove(String),
    /// The fullmove number.
    #[error("invalid fullmove number \"{0}\"")]
    Fullmove(String),
    /// A field after the last one this variant has.
    #[error("unexpected FEN field \"{0}\"")]
    Extra(String),
    /// Well formed, but the position cannot arise in the game.
    #[error("impossible position: {0}")]
    Impossible(String),
}

fn parse_board<V: Variant>(field: &str) -> Result<Board, FenError> {
    let err = |reason: String| FenError::Board {
        field: field.to_string(),
        reason,
    };
    let ranks: Vec<&str> = field.split('/').collect();
    if ranks.len() != 8 {
        return Err(err(format!("{} ranks instead of 8", ranks.len())));
    }
    let mut board = Board::empty();
    for (i, rank_text) in ranks.iter().enumerate() {
        let rank = 7 - i as u8;
        let mut file = 0u8;
        for c in rank_text.chars() {
            if let Some(d) = c.to_digit(10) {
                if !(1..=8).contains(&d) {
                    return Err(err(format!("bad empty-square count '{c}'")));
                }
                file += d as u8;
            } else {
                let piece = Piece::from_char(c)
                    .filter(|p| V::ROLES.contains(&p.role))
                    .ok_or_else(|| err(format!("'{c}' is not a piece of {}", V::KIND.name())))?;
                if file >= 8 {
                    return Err(err(format!("rank {} has more than 8 squares", rank + 1)));
                }
                board.put(Square::from_coords(file, rank), piece);
                file += 1;
            }
            if file > 8 {
                return Err(err(format!("rank {} has more than 8 squares", rank + 1)));
            }
        }
        if file != 8 {
            return Err(err(format!("rank {} has {file} squares", rank + 1)));
        }
    }
    Ok(board)
}

fn parse_checks_pair(s: &str) -> Option<(u8, u8)> {
    let (w, b) = s.split_once('+')?;
    let w: u8 = w.parse().ok().filter(|&v| v <= 3 && w.len() == 1)?;
    let b: u8 = b.parse().ok().filter(|&v| v <= 3 && b.len() == 1)?;
    Some((w, b))
}

fn parse_turn(field: Option<&str>) -> Result<Color, FenError> {
    match field {
        None | Some("w") => Ok(Color::White),
        Some("b") => Ok(Color::Black),
        Some(t) => Err(FenError::Turn(t.to_string())),
    }
}

fn parse_castling(field: Option<&str>) -> Result<u8, FenError> {
    let c = match field {
        None | Some("-") => return Ok(0),
        Some(c) => c,
    };
    let mut rights = 0u8;
    for ch in c.chars() {
        let bit = match ch {
            'K' => castle::WHITE_KING,
            'Q' => castle::WHITE_QUEEN,
            'k' => castle::BLACK_KING,
            'q' => castle::BLACK_QUEEN,
            _ => return Err(FenError::Castling(c.to_string())),
        };
        if rights & bit != 0 {
            return Err(FenError::Castling(c.to_string()));
        }
        rights |= bit;
    }
    Ok(rights)
}

fn parse_ep(field: Option<&str>, turn: Color) -> Result<Option<Square>, FenError> {
    let e = match field {
        None | Some("-") => return Ok(None),
        Some(e) => e,
    };
    let sq = Square::parse(e).ok_or_else(|| FenError::EnPassant(e.to_string()))?;
    let expected_rank = if turn.is_white() { 5 } else { 2 };
    if sq.rank() != expected_rank {
        return Err(FenError::EnPassant(e.to_string()));
    }
    Ok(Some(sq))
}

/// The fields after the en-passant square: threecheck's remaining checks
/// (X-FEN `W+B`, before the clocks), the halfmove clock, the fullmove
/// number, and threecheck's checks given (Lichess `+W+B`, after the clocks).
/// Returns the clocks and the checks remaining.
fn parse_counters<'a, V: Variant>(
    fields: &mut std::iter::Peekable<impl Iterator<Item = &'a str>>,
) -> Result<(u32, u32, [u8; 2]), FenError> {
    let mut checks_left = [3u8, 3u8];
    let mut remaining_given = false;
    if let Some(f) = fields.peek() {
        if f.contains('+') && !f.starts_with('+') {
            if !V::CHECK_COUNTING {
                return Err(FenError::Extra(f.to_string()));
            }
            let (w, b) = parse_checks_pair(f).ok_or_else(|| FenError::Checks(f.to_string()))?;
            checks_left = [w, b];
            remaining_given = true;
            fields.next();
        }
    }
    let halfmove = match fields.peek() {
        Some(h) if !h.starts_with('+') => {
            let v = h
                .parse::<u32>()
                .map_err(|_| FenError::Halfmove(h.to_string()))?;
            fields.next();
            v
        }
        _ => 0,
    };
    let fullmove = match fields.peek() {
        Some(f) if !f.starts_with('+') => {
            let v = f
                .parse::<u32>()
                .ok()
                .filter(|&v| v > 0)
                .ok_or_else(|| FenError::Fullmove(f.to_string()))?;
            fields.next();
            v
        }
        _ => 1,
    };
    if let Some(f) = fields.next() {
        if !V::CHECK_COUNTING || !f.starts_with('+') {
            return Err(FenError::Extra(f.to_string()));
        }
        if remaining_given {
            // Two counters that could disagree: which one is meant?
            return Err(FenError::Checks(format!(
                "{f}: give either the remaining checks (W+B) or the checks given (+W+B), not both"
            )));
        }
        let (w, b) = parse_checks_pair(&f[1..]).ok_or_else(|| FenError::Checks(f.to_string()))?;
        checks_left = [3 - w, 3 - b];
        if let Some(extra) = fields.next() {
            return Err(FenError::Extra(extra.to_string()));
        }
    }
    Ok((halfmove, fullmove, checks_left))
}

impl<V: Variant> Position<V> {
    /// Parses and validates a FEN.
    pub fn from_fen(fen: &str) -> Result<Self, FenError> {
        let mut fields = fen.split_ascii_whitespace().peekable();
        let board = parse_board::<V>(fields.next().ok_or(FenError::Empty)?)?;
        let turn = parse_turn(fields.next())?;
        let castling = parse_castling(fields.next())?;
        let ep = parse_ep(fields.next(), turn)?;
        let (halfmove, fullmove, checks_left) = parse_counters::<V>(&mut fields)?;

        let mut pos = Position::<V> {
            board,
            turn,
            castling,
            ep: None,
            halfmove,
            fullmove,
            checks_left,
            key: 0,
            checkers: Bitboard::EMPTY,
            pinned: Bitboard::EMPTY,
            _variant: PhantomData,
        };
        pos.validate(ep)?;
        pos.ep = ep.filter(|&sq| {
            (crate::attacks::pawn_attacks(turn.other(), sq) & board.pieces(turn, Role::Pawn)).any()
        });
        pos.update_check_info();
        pos.key = pos.compute_key();
        // One move uncovers at most one line besides its own attack; only an
        // atomic explosion can open more at once.
        if !V::ATOMIC && pos.checkers.count() > 2 {
            return Err(FenError::Impossible(format!(
                "{} pieces give check (one move gives at most two)",
                pos.checkers.count()
            )));
        }
        // The side that just moved cannot have left its own king attacked,
        // finished game or not; only an atomic game that ended with an
        // explosion may leave it so.
        if V::ROYAL && !(V::ATOMIC && pos.is_over_by_rule()) {
            pos.check_side_not_to_move_is_safe()?;
        }
        Ok(pos)
    }

    fn validate(&self, ep: Option<Square>) -> Result<(), FenError> {
        let b = &self.board;
        let bad = |s: String| Err(FenError::Impossible(s));
        if (b.role(Role::Pawn) & Bitboard::BACK_RANKS).any() {
            return bad("pawn on the first or last rank".into());
        }
        for color in Color::ALL {
            let name = if color.is_white() { "white" } else { "black" };
            let kings = b.pieces(color, Role::King).count();
            if V::ROYAL {
                let royal = if V::ROYAL_KNIGHT {
                    "royal knights"
                } else {
                    "kings"
                };
                if kings > 1 {
                    return bad(format!("{name} has {kings} {royal}"));
                }
                if kings == 0 && !V::ATOMIC {
                    return bad(format!("{name} has no {}", &royal[..royal.len() - 1]));
                }
            }
            // Every piece beyond the initial set must come from a promotion.
            let count = |r: Role| b.pieces(color, r).count() as i32;
            let pawns = count(Role::Pawn);
            let extra = |r: Role, initial: i32| (count(r) - initial).max(0);
            let mut promoted = extra(Role::Queen, 1)
                + extra(Role::Rook, 2)
                + extra(Role::Bishop, 2)
                + extra(Role::Knight, 2)
                + extra(Role::Commoner, 2);
            if !V::ROYAL {
                promoted += extra(Role::King, 1);
            }
            if pawns > 8 || promoted > 8 - pawns {
                return bad(format!("{name} has more pieces than promotions allow"));
            }
        }
        if V::CHECK_COUNTING && self.checks_left == [0, 0] {
            return bad(
                "both sides have given three checks (the game ends at the first third check)"
                    .into(),
            );
        }
        if V::ATOMIC && b.role(Role::King).is_empty() {
            return bad("both kings are missing".into());
        }
        for side in CASTLES {
            if self.castling & side.right == 0 {
                continue;
            }
            let color = if side.king_from.rank() == 0 {
                Color::White
            } else {
                Color::Black
            };
            let king_ok = b.piece_at(side.king_from)
                == Some(Piece {
                    color,
                    role: Role::King,
                });
            let rook_ok = b.piece_at(side.rook_from)
                == Some(Piece {
                    color,
                    role: Role::Rook,
                });
            if !king_ok || !rook_ok {
                return bad(format!(
                    "castling right {} without a king on {} and a rook on {}",
                    castling_string(side.right),
                    side.king_from,
                    side.rook_from
                ));
            }
        }
        if let Some(sq) = ep {
            let mover = self.turn.other();
            let pawn_sq = Square::from_coords(sq.file(), if mover.is_white() { 3 } else { 4 });
            let origin = Square::from_coords(sq.file(), mover.pawn_rank());
            let ok = b.piece_at(pawn_sq)
                == Some(Piece {
                    color: mover,
                    role: Role::Pawn,
                })
                && b.piece_at(sq).is_none()
                && b.piece_at(origin).is_none();
            if !ok {
                return Err(FenError::EnPassant(format!(
                    "{sq}: no pawn can just have moved two squares past it"
                )));
            }
        }
        Ok(())
    }

    fn check_side_not_to_move_is_safe(&self) -> Result<(), FenError> {
        let waiting = self.turn.other();
        let Some(ksq) = self.king(waiting) else {
            return Ok(());
        };
        let attacked = self
            .attackers_to(ksq, self.turn, self.board.occupied())
            .any();
        let touching =
            V::ATOMIC && (king_attacks(ksq) & self.board.pieces(self.turn, Role::King)).any();
        if attacked && !touching {
            return Err(FenError::Impossible(
                "the side not to move is in check".into(),
            ));
        }
        Ok(())
    }

    /// A text picture of the board (rank 8 first, pieces in FEN letters,
    /// `.` for an empty square, files under it), for a person debugging.
    pub fn diagram(&self) -> String {
        let mut out = String::from(" +-----------------+\n");
        for rank in (0..8).rev() {
            out.push_str(&format!("{}| ", rank + 1));
            for file in 0..8 {
                match self.board.piece_at(Square::from_coords(file, rank)) {
                    Some(p) => {
                        out.push(p.char());
                        out.push(' ');
                    }
                    None => out.push_str(". "),
                }
            }
            out.push_str("|\n");
        }
        out.push_str(" +-----------------+\n   a b c d e f g h");
        out
    }

    /// The FEN of this position (threecheck with its `W+B` field).
    pub fn fen(&self) -> String {
        let mut s = String::with_capacity(90);
        for rank in (0..8).rev() {
            let mut empty = 0;
            for file in 0..8 {
                match self.board.piece_at(Square::from_coords(file, rank)) {
                    Some(p) => {
                        if empty > 0 {
                            s.push((b'0' + empty) as char);
                            empty = 0;
                        }
                        s.push(p.char());
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                s.push((b'0' + empty) as char);
            }
            if rank > 0 {
                s.push('/');
            }
        }
        s.push(' ');
        s.push(self.turn.char());
        s.push(' ');
        s.push_str(&castling_string(self.castling));
        s.push(' ');
        match self.ep {
            Some(sq) => s.push_str(&sq.to_string()),
            None => s.push('-'),
        }
        if V::CHECK_COUNTING {
            s.push_str(&format!(" {}+{}", self.checks_left[0], self.checks_left[1]));
        }
        s.push_str(&format!(" {} {}", self.halfmove, self.fullmove));
        s
    }
}

fn castling_string(rights: u8) -> String {
    if rights == 0 {
        return "-".into();
    }
    [
        (castle::WHITE_KING, 'K'),
        (castle::WHITE_QUEEN, 'Q'),
        (castle::BLACK_KING, 'k'),
        (castle::BLACK_QUEEN, 'q'),
    ]
    .iter()
    .filter(|(bit, _)| rights & bit != 0)
    .map(|&(_, c)| c)
    .collect()
}

#[cfg(test)]
mod tests {
    use crate::variants::{Atomic, Chess, Losers, ThreeCheck};
    use crate::{FenError, Position};

    #[test]
    fn both_threecheck_counter_forms_are_refused() {
        let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -";
        let e = Position::<ThreeCheck>::from_fen(&format!("{start} 1+1 0 1 +0+0")).unwrap_err();
        assert!(
            matches!(&e, FenError::Checks(m) if m.contains("not both")),
            "{e}"
        );
        let p = Position::<ThreeCheck>::from_fen(&format!("{start} 1+2 0 1")).unwrap();
        assert_eq!(p.checks_left, [1, 2]);
        let p = Position::<ThreeCheck>::from_fen(&format!("{start} 0 1 +2+1")).unwrap();
        assert_eq!(p.checks_left, [1, 2]);
    }

    #[test]
    fn positions_that_cannot_arise_are_refused() {
        let impossible = |r: Result<(), FenError>, why: &str| match r {
            Err(FenError::Impossible(m)) => assert!(m.contains(why), "{m}"),
            other => panic!("{other:?} should be impossible: {why}"),
        };
        let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -";
        impossible(
            Position::<ThreeCheck>::from_fen(&format!("{start} 0+0 0 1")).map(drop),
            "both sides have given three checks",
        );
        // One spent counter is a finished game, and loads.
        assert!(Position::<ThreeCheck>::from_fen(&format!("{start} 0+1 0 1")).is_ok());
        // Bishop, knight and rook all check the white king.
        let triple = "4k3/8/8/8/1b6/3n4/8/r3K3 w - - 0 1";
        impossible(
            Position::<Chess>::from_fen(triple).map(drop),
            "3 pieces give check",
        );
        // Losers: Black, not to move, is in check, though the game is over
        // (Black has only its king left, which wins losers).
        let losers = "4k3/4R3/8/8/8/8/8/4K3 w - - 0 1";
        impossible(
            Position::<Losers>::from_fen(losers).map(drop),
            "the side not to move is in check",
        );
        // Atomic: an explosion can uncover several lines at once.
        assert!(Position::<Atomic>::from_fen("4k3/8/8/8/1b6/3n4/8/r3K3 w - - 0 1").is_ok());
    }
}
