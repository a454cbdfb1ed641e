//! A tiny chess board for the fake engines, independent of `movegen`.
//!
//! It applies any move a GUI sends (castling, also as king-takes-rook,
//! en passant, promotion) and generates a subset of the legal moves (no
//! castling, no en passant, promotion to a queen only): enough for an engine
//! that must only ever play *some* legal move. It is deliberately not
//! `movegen`, so that the tests of the match runner do not check varia's
//! rules against themselves, and so that the fakes do not follow that
//! crate's API changes. Squares are numbered a1 = 0 .. h8 = 63; a square
//! holds a FEN piece letter or `.`.

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
const FILES: &str = "abcdefgh";

/// The steps (±a, ±b) and (±b, ±a): every piece of the subset moves by the
/// reflections of one base step, so the board derives its steps from that
/// step rather than keeping a list beside `movegen`'s tables.
fn reflections(a: i32, b: i32) -> Vec<(i32, i32)> {
    let mut steps = Vec::new();
    for (x, y) in [(a, b), (b, a)] {
        for (sx, sy) in [(1, 1), (1, -1), (-1, 1), (-1, -1)] {
            if !steps.contains(&(sx * x, sy * y)) {
                steps.push((sx * x, sy * y));
            }
        }
    }
    steps
}

/// The knight's leaps.
fn knight() -> Vec<(i32, i32)> {
    reflections(1, 2)
}

/// The rook's directions.
fn rook() -> Vec<(i32, i32)> {
    reflections(0, 1)
}

/// The bishop's directions.
fn bishop() -> Vec<(i32, i32)> {
    reflections(1, 1)
}

/// The king's steps (and the queen's directions): the rook's and the
/// bishop's together.
fn king() -> Vec<(i32, i32)> {
    let mut steps = rook();
    steps.extend(bishop());
    steps
}

/// The square named by the first two characters of `name` (`e4`), if any.
fn square(name: &str) -> Option<usize> {
    let b = name.as_bytes();
    if b.len() < 2 || !(b'a'..=b'h').contains(&b[0]) || !(b'1'..=b'8').contains(&b[1]) {
        return None;
    }
    Some(usize::from(b[0] - b'a') + 8 * usize::from(b[1] - b'1'))
}

/// The name of square `s` (`e4`).
fn name(s: usize) -> String {
    format!("{}{}", &FILES[s % 8..s % 8 + 1], s / 8 + 1)
}

/// A board position as far as the fake engines need it.
#[derive(Clone)]
pub struct Board {
    squares: [u8; 64],
    white: bool,
    ep: Option<usize>,
    /// Moves played on this board since it was set up (varies the choice).
    plies: usize,
}

impl Default for Board {
    fn default() -> Self {
        Self::from_fen(START)
    }
}

impl Board {
    /// The position of a FEN; fields it lacks take the start position's
    /// values, and a malformed placement leaves the squares it cannot read
    /// empty (the GUI under test only sends valid FENs).
    pub fn from_fen(fen: &str) -> Self {
        let parts: Vec<&str> = fen.split_whitespace().collect();
        let mut squares = [b'.'; 64];
        for (r, row) in parts.first().unwrap_or(&"").split('/').take(8).enumerate() {
            let mut f = 0;
            for c in row.bytes() {
                if c.is_ascii_digit() {
                    f += usize::from(c - b'0');
                } else {
                    if f < 8 {
                        squares[8 * (7 - r) + f] = c;
                    }
                    f += 1;
                }
            }
        }
        Board {
            squares,
            white: parts.get(1).is_none_or(|s| *s == "w"),
            ep: parts.get(3).and_then(|s| square(s)),
            plies: 0,
        }
    }

    /// True if `p` is a piece of the side `white`.
    fn mine(p: u8, white: bool) -> bool {
        p != b'.' && p.is_ascii_uppercase() == white
    }

    /// Applies a move in UCI (also king-takes-rook castling). Text that is
    /// not a move is ignored.
    pub fn play(&mut self, uci: &str) {
        let (Some(f), Some(mut t)) = (square(uci), uci.get(2..).and_then(square)) else {
            return;
        };
        let p = self.squares[f];
        let white_piece = p.is_ascii_uppercase();
        let king = p.eq_ignore_ascii_case(&b'K');
        let b = &mut self.squares;
        if king && b[t] != b'.' && Self::mine(b[t], white_piece) {
            // King takes own rook: castling in that notation.
            let rook = t;
            t = if rook > f { f + 2 } else { f - 2 };
            b[rook] = b'.';
            b[(f + t) / 2] = if white_piece { b'R' } else { b'r' };
            b[f] = b'.';
            b[t] = p;
        } else if king && t.abs_diff(f) == 2 {
            let rook_from = if t > f { f + 3 } else { f - 4 };
            b[(f + t) / 2] = b[rook_from];
            b[rook_from] = b'.';
            b[f] = b'.';
            b[t] = p;
        } else {
            let pawn = p.eq_ignore_ascii_case(&b'P');
            if pawn && Some(t) == self.ep && b[t] == b'.' && t.abs_diff(f) % 8 != 0 {
                b[if white_piece { t - 8 } else { t + 8 }] = b'.';
            }
            b[f] = b'.';
            b[t] = p;
            if let Some(&promo) = uci.as_bytes().get(4) {
                b[t] = if white_piece {
                    promo.to_ascii_uppercase()
                } else {
                    promo.to_ascii_lowercase()
                };
            }
        }
        self.ep = (p.eq_ignore_ascii_case(&b'P') && t.abs_diff(f) == 16).then_some((f + t) / 2);
        self.white = !self.white;
        self.plies += 1;
    }

    /// The piece `df` files and `dr` ranks away from `s`, or None off the board.
    fn at(&self, s: usize, df: i32, dr: i32) -> Option<u8> {
        Self::target(s, df, dr).map(|t| self.squares[t])
    }

    /// The square `df` files and `dr` ranks away from `s`, or None off the board.
    fn target(s: usize, df: i32, dr: i32) -> Option<usize> {
        let f = (s % 8) as i32 + df;
        let r = (s / 8) as i32 + dr;
        ((0..8).contains(&f) && (0..8).contains(&r)).then_some((8 * r + f) as usize)
    }

    /// True if square `s` is attacked by the side `by_white`.
    fn attacked(&self, s: usize, by_white: bool) -> bool {
        let own = |c: u8| if by_white { c } else { c.to_ascii_lowercase() };
        if knight()
            .into_iter()
            .any(|(df, dr)| self.at(s, df, dr) == Some(own(b'N')))
        {
            return true;
        }
        if king()
            .into_iter()
            .any(|(df, dr)| self.at(s, df, dr) == Some(own(b'K')))
        {
            return true;
        }
        let dr = if by_white { -1 } else { 1 };
        if [-1, 1]
            .iter()
            .any(|&df| self.at(s, df, dr) == Some(own(b'P')))
        {
            return true;
        }
        for (dirs, kinds) in [(rook(), b"RQ"), (bishop(), b"BQ")] {
            for (df, dr) in dirs {
                let mut k = 1;
                while let Some(p) = self.at(s, df * k, dr * k) {
                    if p != b'.' {
                        if p.is_ascii_uppercase() == by_white
                            && kinds.contains(&p.to_ascii_uppercase())
                        {
                            return true;
                        }
                        break;
                    }
                    k += 1;
                }
            }
        }
        false
    }

    /// The pseudo-legal moves of the subset: (from, to, promotion suffix).
    fn pseudo(&self) -> Vec<(usize, usize, &'static str)> {
        let w = self.white;
        let mut out = Vec::new();
        for s in 0..64 {
            let p = self.squares[s];
            if !Self::mine(p, w) {
                continue;
            }
            match p.to_ascii_uppercase() {
                b'P' => {
                    let d = if w { 1 } else { -1 };
                    let last = if w { 7 } else { 0 };
                    let promo = |t: usize| if t / 8 == last { "q" } else { "" };
                    if let Some(t) = Self::target(s, 0, d) {
                        if self.squares[t] == b'.' {
                            out.push((s, t, promo(t)));
                            if s / 8 == if w { 1 } else { 6 } {
                                if let Some(t2) = Self::target(s, 0, 2 * d) {
                                    if self.squares[t2] == b'.' {
                                        out.push((s, t2, ""));
                                    }
                                }
                            }
                        }
                    }
                    for df in [-1, 1] {
                        if let Some(t) = Self::target(s, df, d) {
                            let q = self.squares[t];
                            if q != b'.' && !Self::mine(q, w) {
                                out.push((s, t, promo(t)));
                            }
                        }
                    }
                }
                kind @ (b'N' | b'K') => {
                    let steps = if kind == b'N' { knight() } else { king() };
                    for (df, dr) in steps {
                        if let Some(t) = Self::target(s, df, dr) {
                            if !Self::mine(self.squares[t], w) {
                                out.push((s, t, ""));
                            }
                        }
                    }
                }
                kind => {
                    let dirs = match kind {
                        b'R' => rook(),
                        b'B' => bishop(),
                        _ => king(),
                    };
                    for (df, dr) in dirs {
                        let mut k = 1;
                        while let Some(t) = Self::target(s, df * k, dr * k) {
                            if Self::mine(self.squares[t], w) {
                                break;
                            }
                            out.push((s, t, ""));
                            if self.squares[t] != b'.' {
                                break;
                            }
                            k += 1;
                        }
                    }
                }
            }
        }
        out
    }

    /// The legal moves of the subset as UCI strings, sorted.
    pub fn legal(&self) -> Vec<String> {
        let mut out: Vec<String> = self
            .pseudo()
            .into_iter()
            .filter_map(|(f, t, promo)| {
                let uci = format!("{}{}{promo}", name(f), name(t));
                let mut after = self.clone();
                after.play(&uci);
                // The side that just moved is the one not to move now.
                let king = if after.white { b'k' } else { b'K' };
                let safe = match after.squares.iter().position(|&p| p == king) {
                    None => true,
                    Some(ks) => !after.attacked(ks, after.white),
                };
                safe.then_some(uci)
            })
            .collect();
        out.sort();
        out
    }

    /// A legal move, varied by the move number; None if there is none.
    pub fn choose(&self) -> Option<String> {
        let moves = self.legal();
        if moves.is_empty() {
            return None;
        }
        Some(moves[(self.plies * 7) % moves.len()].clone())
    }

    /// Long-ish SAN of a move of `choose`: `Ng1f3`, `Qd1xd7`, `e4`, `exd5`, `e8=Q`.
    pub fn san(&self, uci: &str) -> String {
        let (Some(f), Some(t)) = (square(uci), uci.get(2..).and_then(square)) else {
            return uci.to_string();
        };
        let p = self.squares[f].to_ascii_uppercase();
        let capture = if self.squares[t] != b'.' { "x" } else { "" };
        let promo = uci
            .get(4..5)
            .map(|c| format!("={}", c.to_ascii_uppercase()))
            .unwrap_or_default();
        if p == b'P' {
            if capture.is_empty() {
                format!("{}{promo}", &uci[2..4])
            } else {
                format!("{}x{}{promo}", &uci[0..1], &uci[2..4])
            }
        } else {
            format!("{}{}{capture}{}", p as char, &uci[0..2], &uci[2..4])
        }
    }
}

/// True the first time it is called for `path`, across processes (the file
/// is created as the marker); always true without a path.
pub fn once(path: Option<&str>) -> bool {
    match path {
        None => true,
        Some(p) => std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(p)
            .is_ok(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_position_has_the_twenty_moves_and_the_choice_varies() {
        let b = Board::default();
        let moves = b.legal();
        assert_eq!(moves.len(), 20);
        assert_eq!(b.choose().as_deref(), Some(moves[0].as_str()));
        let mut b2 = b.clone();
        b2.play("e2e4");
        assert_eq!(b2.legal().len(), 20);
        // Ply 1: the 8th of Black's 20 sorted moves.
        assert_eq!(b2.choose(), Some(b2.legal()[7].clone()));
    }

    #[test]
    fn moves_that_leave_the_king_in_check_are_excluded() {
        // Scholar's mate: Black has no moves.
        let b =
            Board::from_fen("r1bqkb1r/pppp1Qpp/2n2n2/4p3/2B1P3/8/PPPP1PPP/RNB1K1NR b KQkq - 0 4");
        assert_eq!(b.legal(), Vec::<String>::new());
        assert_eq!(b.choose(), None);
        // A pinned knight stays put.
        let b = Board::from_fen("4k3/4r3/8/8/8/8/4N3/4K3 w - - 0 1");
        assert!(b.legal().iter().all(|m| !m.starts_with("e2")));
    }

    #[test]
    fn gui_moves_castle_capture_en_passant_and_promote() {
        let mut b = Board::from_fen("r3k2r/1P6/8/3pP3/8/8/8/R3K2R w KQkq d6 0 1");
        b.play("e5d6");
        assert_eq!(b.squares[square("d5").unwrap()], b'.');
        assert_eq!(b.squares[square("d6").unwrap()], b'P');
        b.play("e8h8"); // king takes own rook
        assert_eq!(b.squares[square("g8").unwrap()], b'k');
        assert_eq!(b.squares[square("f8").unwrap()], b'r');
        b.play("e1c1");
        assert_eq!(b.squares[square("c1").unwrap()], b'K');
        assert_eq!(b.squares[square("d1").unwrap()], b'R');
        assert_eq!(b.squares[square("a1").unwrap()], b'.');
        b.play("g8h8");
        b.play("b7b8n");
        assert_eq!(b.squares[square("b8").unwrap()], b'N');
    }

    #[test]
    fn san_is_long_form() {
        let mut b = Board::default();
        assert_eq!(b.san("g1f3"), "Ng1f3");
        assert_eq!(b.san("e2e4"), "e4");
        b.play("e2e4");
        b.play("d7d5");
        assert_eq!(b.san("e4d5"), "exd5");
        let b = Board::from_fen("3q3k/4P3/8/8/8/8/8/3QK3 w - - 0 1");
        assert_eq!(b.san("d1d8"), "Qd1xd8");
        assert_eq!(b.san("e7e8q"), "e8=Q");
    }

    #[test]
    fn once_is_true_only_for_the_first_caller() {
        let dir = tempfile::tempdir().unwrap();
        let marker = dir.path().join("m");
        let marker = marker.to_str().unwrap();
        assert!(once(Some(marker)));
        assert!(!once(Some(marker)));
        assert!(once(None));
    }
}
