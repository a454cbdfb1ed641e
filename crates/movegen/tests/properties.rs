//! Property tests over random legal playouts in all six games.
//!
//! Positions come from playouts of random length (and random style:
//! uniform or capture-hungry) from each game's start position, from every
//! position of the public perft table, and from a few hand-picked tricky
//! FENs. Properties:
//!
//! - FEN round trip: `from_fen(p.fen()) == p` and the FEN is stable.
//! - The incremental Zobrist key equals `compute_key()` after every move.
//! - An independent reference: a slow mailbox model written here (its own
//!   FEN reader and writer, its own move maker with castling, en passant,
//!   promotions and atomic explosions, its own ray-walking attack test, its
//!   own forced-capture and game-end rules) must produce exactly varia's set
//!   of legal moves, the same FEN after every move, and the same outcome.

mod common;

use movegen::{Color, EndReason, Outcome, Position, Variant, VariantKind};
use proptest::prelude::*;
use rand::{rngs::StdRng, Rng, SeedableRng};
use std::collections::BTreeSet;
use std::sync::OnceLock;

// ---------------------------------------------------------------------------
// The reference model.
// ---------------------------------------------------------------------------

/// A piece of the model: colour and FEN letter (lowercase).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct Pc {
    white: bool,
    role: u8,
}

/// The model's pieces by their geometry, not by lists of steps as `movegen`
/// keeps them: a knight leaps to the squares with |df·dr| = 2, a king steps
/// to those at distance 1, a rook's rays go along a file or a rank, a
/// bishop's along a diagonal, a queen's both ways (the king's steps).
struct Geometry {
    knight: Vec<(i32, i32)>,
    king: Vec<(i32, i32)>,
    rook: Vec<(i32, i32)>,
    bishop: Vec<(i32, i32)>,
}

/// The steps of at most two files and ranks for which `shape(df, dr)` holds.
fn steps_where(shape: fn(i32, i32) -> bool) -> Vec<(i32, i32)> {
    (-2..=2)
        .flat_map(|df| (-2..=2).map(move |dr| (df, dr)))
        .filter(|&(df, dr)| shape(df, dr))
        .collect()
}

fn geometry() -> &'static Geometry {
    static GEOMETRY: OnceLock<Geometry> = OnceLock::new();
    GEOMETRY.get_or_init(|| Geometry {
        knight: steps_where(|df, dr| (df * dr).abs() == 2),
        king: steps_where(|df, dr| df.abs().max(dr.abs()) == 1),
        rook: steps_where(|df, dr| df.abs() + dr.abs() == 1),
        bishop: steps_where(|df, dr| df.abs() == 1 && dr.abs() == 1),
    })
}

/// File and rank steps.
type Steps = &'static [(i32, i32)];

/// The square `(df, dr)` away from `sq`, if on the board.
fn step(sq: usize, df: i32, dr: i32) -> Option<usize> {
    let f = (sq % 8) as i32 + df;
    let r = (sq / 8) as i32 + dr;
    ((0..8).contains(&f) && (0..8).contains(&r)).then(|| (r * 8 + f) as usize)
}

fn sq_name(sq: usize) -> String {
    format!("{}{}", (b'a' + (sq % 8) as u8) as char, sq / 8 + 1)
}

fn parse_sq(s: &str) -> Option<usize> {
    let b = s.as_bytes();
    (b.len() == 2 && (b'a'..=b'h').contains(&b[0]) && (b'1'..=b'8').contains(&b[1]))
        .then(|| (b[1] - b'1') as usize * 8 + (b[0] - b'a') as usize)
}

/// Castling: right index (K, Q, k, q), king from/to, rook from/to, the
/// square the king passes.
const CASTLINGS: [(usize, usize, usize, usize, usize, usize); 4] = [
    (0, 4, 6, 7, 5, 5),
    (1, 4, 2, 0, 3, 3),
    (2, 60, 62, 63, 61, 61),
    (3, 60, 58, 56, 59, 59),
];

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Special {
    None,
    DoublePush,
    EnPassant,
    Castle,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct RMove {
    from: usize,
    to: usize,
    promo: Option<u8>,
    special: Special,
    capture: bool,
}

impl RMove {
    fn uci(&self) -> String {
        let mut s = sq_name(self.from) + &sq_name(self.to);
        if let Some(p) = self.promo {
            s.push(p as char);
        }
        s
    }
}

/// The whole state of a game, in the plainest form.
#[derive(Clone, Debug)]
struct Model {
    kind: VariantKind,
    board: [Option<Pc>; 64],
    white: bool,
    /// K, Q, k, q.
    castling: [bool; 4],
    /// The square a pawn just skipped, as written in the FEN or set by a
    /// double push.
    ep: Option<usize>,
    halfmove: u32,
    fullmove: u32,
    /// Checks still to give, White then Black (threecheck).
    checks: [u8; 2],
}

impl Model {
    /// Reads a FEN: board, side, castling, en passant, for threecheck the
    /// `W+B` field (or the trailing `+W+B` checks-given field), clocks.
    fn from_fen(kind: VariantKind, fen: &str) -> Model {
        let fields: Vec<&str> = fen.split_whitespace().collect();
        let mut board = [None; 64];
        for (i, rank) in fields[0].split('/').enumerate() {
            let mut file = 0;
            for c in rank.chars() {
                if let Some(d) = c.to_digit(10) {
                    file += d as usize;
                } else {
                    board[(7 - i) * 8 + file] = Some(Pc {
                        white: c.is_ascii_uppercase(),
                        role: c.to_ascii_lowercase() as u8,
                    });
                    file += 1;
                }
            }
        }
        let castling_field = fields.get(2).copied().unwrap_or("-");
        let mut checks = [3, 3];
        let mut rest: Vec<&str> = fields.iter().skip(4).copied().collect();
        if let Some(f) = rest.first() {
            if f.contains('+') && !f.starts_with('+') {
                let (w, b) = f.split_once('+').unwrap();
                checks = [w.parse().unwrap(), b.parse().unwrap()];
                rest.remove(0);
            }
        }
        if let Some(f) = rest.last() {
            if let Some(given) = f.strip_prefix('+') {
                let (w, b) = given.split_once('+').unwrap();
                checks = [3 - w.parse::<u8>().unwrap(), 3 - b.parse::<u8>().unwrap()];
                rest.pop();
            }
        }
        Model {
            kind,
            board,
            white: fields.get(1) != Some(&"b"),
            castling: [
                castling_field.contains('K'),
                castling_field.contains('Q'),
                castling_field.contains('k'),
                castling_field.contains('q'),
            ],
            ep: fields.get(3).and_then(|e| parse_sq(e)),
            halfmove: rest.first().map_or(0, |h| h.parse().unwrap()),
            fullmove: rest.get(1).map_or(1, |f| f.parse().unwrap()),
            checks,
        }
    }

    /// The en-passant square worth writing: a pawn of the side to move could
    /// capture there.
    fn ep_capturable(&self) -> Option<usize> {
        let ep = self.ep?;
        let back = if self.white { -1 } else { 1 };
        [-1, 1]
            .into_iter()
            .filter_map(|df| step(ep, df, back))
            .any(|s| {
                self.board[s]
                    == Some(Pc {
                        white: self.white,
                        role: b'p',
                    })
            })
            .then_some(ep)
    }

    fn fen(&self) -> String {
        let mut s = String::new();
        for rank in (0..8).rev() {
            let mut empty = 0;
            for file in 0..8 {
                match self.board[rank * 8 + file] {
                    None => empty += 1,
                    Some(p) => {
                        if empty > 0 {
                            s += &empty.to_string();
                            empty = 0;
                        }
                        let c = p.role as char;
                        s.push(if p.white { c.to_ascii_uppercase() } else { c });
                    }
                }
            }
            if empty > 0 {
                s += &empty.to_string();
            }
            if rank > 0 {
                s.push('/');
            }
        }
        s += if self.white { " w " } else { " b " };
        let rights: String = "KQkq"
            .chars()
            .zip(self.castling)
            .filter(|&(_, on)| on)
            .map(|(c, _)| c)
            .collect();
        s += if rights.is_empty() { "-" } else { &rights };
        s += " ";
        s += &self.ep_capturable().map_or("-".to_string(), sq_name);
        if self.kind == VariantKind::ThreeCheck {
            s += &format!(" {}+{}", self.checks[0], self.checks[1]);
        }
        s += &format!(" {} {}", self.halfmove, self.fullmove);
        s
    }

    fn knightmate(&self) -> bool {
        self.kind == VariantKind::Knightmate
    }

    /// Does a piece of colour `white` attack `sq`? Walks outward from `sq`.
    fn attacked(&self, sq: usize, white: bool) -> bool {
        let is = |s: Option<usize>, roles: &[u8]| {
            s.and_then(|s| self.board[s])
                .is_some_and(|p| p.white == white && roles.contains(&p.role))
        };
        // Pawns of `white` attack diagonally forward, so they stand behind.
        let back = if white { -1 } else { 1 };
        if is(step(sq, -1, back), b"p") || is(step(sq, 1, back), b"p") {
            return true;
        }
        let (knight_like, king_like): (&[u8], &[u8]) = if self.knightmate() {
            (b"k", b"m")
        } else {
            (b"n", b"k")
        };
        if geometry()
            .knight
            .iter()
            .any(|&(df, dr)| is(step(sq, df, dr), knight_like))
        {
            return true;
        }
        if geometry()
            .king
            .iter()
            .any(|&(df, dr)| is(step(sq, df, dr), king_like))
        {
            return true;
        }
        let g = geometry();
        for (dirs, roles) in [(&g.rook, b"rq"), (&g.bishop, b"bq")] {
            for &(df, dr) in dirs {
                let mut cur = step(sq, df, dr);
                while let Some(s) = cur {
                    if let Some(p) = self.board[s] {
                        if p.white == white && roles.contains(&p.role) {
                            return true;
                        }
                        break;
                    }
                    cur = step(s, df, dr);
                }
            }
        }
        false
    }

    fn king_of(&self, white: bool) -> Option<usize> {
        (0..64).find(|&s| self.board[s] == Some(Pc { white, role: b'k' }))
    }

    fn pieces_of(&self, white: bool) -> impl Iterator<Item = (usize, Pc)> + '_ {
        (0..64).filter_map(move |s| self.board[s].filter(|p| p.white == white).map(|p| (s, p)))
    }

    fn kings_touch(&self) -> bool {
        match (self.king_of(true), self.king_of(false)) {
            (Some(w), Some(b)) => geometry()
                .king
                .iter()
                .any(|&(df, dr)| step(w, df, dr) == Some(b)),
            _ => false,
        }
    }

    /// Is the side `white`'s royal piece in check? (Atomic: not while the
    /// kings touch.)
    fn in_check(&self, white: bool) -> bool {
        match self.kind {
            VariantKind::Suicide => false,
            VariantKind::Atomic if self.kings_touch() => false,
            VariantKind::Chess
            | VariantKind::ThreeCheck
            | VariantKind::Atomic
            | VariantKind::Losers
            | VariantKind::Knightmate => self
                .king_of(white)
                .is_some_and(|k| self.attacked(k, !white)),
        }
    }

    fn promotions(&self) -> &'static [u8] {
        match self.kind {
            VariantKind::Suicide => b"qrbnk",
            VariantKind::Knightmate => b"qrbm",
            VariantKind::Chess
            | VariantKind::ThreeCheck
            | VariantKind::Atomic
            | VariantKind::Losers => b"qrbn",
        }
    }

    fn pseudo_moves(&self) -> Vec<RMove> {
        let us = self.white;
        let mut out = Vec::new();
        for (from, p) in self.pieces_of(us) {
            let mut add = |to: usize, special: Special| {
                let capture = special == Special::EnPassant || self.board[to].is_some();
                if p.role == b'p' && (to / 8 == 0 || to / 8 == 7) {
                    for &r in self.promotions() {
                        out.push(RMove {
                            from,
                            to,
                            promo: Some(r),
                            special,
                            capture,
                        });
                    }
                } else {
                    out.push(RMove {
                        from,
                        to,
                        promo: None,
                        special,
                        capture,
                    });
                }
            };
            if p.role == b'p' {
                let fwd = if us { 1 } else { -1 };
                if let Some(one) = step(from, 0, fwd).filter(|&s| self.board[s].is_none()) {
                    add(one, Special::None);
                    let start_rank = if us { 1 } else { 6 };
                    if from / 8 == start_rank {
                        if let Some(two) = step(one, 0, fwd).filter(|&s| self.board[s].is_none()) {
                            add(two, Special::DoublePush);
                        }
                    }
                }
                for df in [-1, 1] {
                    let Some(to) = step(from, df, fwd) else {
                        continue;
                    };
                    match self.board[to] {
                        Some(q) if q.white != us => add(to, Special::None),
                        None if Some(to) == self.ep => {
                            let victim = step(to, 0, -fwd).and_then(|s| self.board[s]);
                            if victim
                                == Some(Pc {
                                    white: !us,
                                    role: b'p',
                                })
                            {
                                add(to, Special::EnPassant);
                            }
                        }
                        _ => {}
                    }
                }
                continue;
            }
            // Leapers take one step; sliders walk rays.
            let g = geometry();
            let (steps, rays): (Steps, Steps) = match p.role {
                b'n' => (&g.knight, &[]),
                b'k' if self.knightmate() => (&g.knight, &[]),
                b'k' | b'm' => (&g.king, &[]),
                b'b' => (&[], &g.bishop),
                b'r' => (&[], &g.rook),
                b'q' => (&[], &g.king),
                other => panic!("unknown role {}", other as char),
            };
            // An atomic king may not capture (it would explode itself).
            let may_capture = !(self.kind == VariantKind::Atomic && p.role == b'k');
            for &(df, dr) in steps {
                if let Some(to) = step(from, df, dr) {
                    match self.board[to] {
                        None => add(to, Special::None),
                        Some(q) if q.white != us && may_capture => add(to, Special::None),
                        _ => {}
                    }
                }
            }
            for &(df, dr) in rays {
                let mut cur = step(from, df, dr);
                while let Some(to) = cur {
                    match self.board[to] {
                        None => add(to, Special::None),
                        Some(q) => {
                            if q.white != us {
                                add(to, Special::None);
                            }
                            break;
                        }
                    }
                    cur = step(to, df, dr);
                }
            }
        }
        // Castling.
        for (right, kf, kt, rf, _rt, pass) in CASTLINGS {
            if !self.castling[right] || (right < 2) != us {
                continue;
            }
            assert_eq!(
                self.board[kf],
                Some(Pc {
                    white: us,
                    role: b'k'
                }),
                "castling right without king"
            );
            assert_eq!(
                self.board[rf],
                Some(Pc {
                    white: us,
                    role: b'r'
                }),
                "castling right without rook"
            );
            let (lo, hi) = (kf.min(rf), kf.max(rf));
            if (lo + 1..hi).any(|s| self.board[s].is_some()) {
                continue;
            }
            if self.kind != VariantKind::Suicide {
                // Not out of check nor through an attacked square (atomic:
                // a square next to the enemy king is safe).
                let unsafe_sq = |s: usize| {
                    let touching = self.kind == VariantKind::Atomic
                        && geometry().king.iter().any(|&(df, dr)| {
                            step(s, df, dr).and_then(|t| self.board[t])
                                == Some(Pc {
                                    white: !us,
                                    role: b'k',
                                })
                        });
                    !touching && self.attacked(s, !us)
                };
                if unsafe_sq(kf) || unsafe_sq(pass) {
                    continue;
                }
            }
            out.push(RMove {
                from: kf,
                to: kt,
                promo: None,
                special: Special::Castle,
                capture: false,
            });
        }
        out
    }

    /// Makes a move (assumed pseudo-legal) on a copy.
    fn make(&self, m: RMove) -> Model {
        let mut n = self.clone();
        let us = self.white;
        let mover = n.board[m.from].take().expect("a piece to move");
        let mut touched = vec![m.from, m.to];
        match m.special {
            Special::Castle => {
                let (_, _, _, rf, rt, _) = *CASTLINGS
                    .iter()
                    .find(|c| c.1 == m.from && c.2 == m.to)
                    .expect("castling geometry");
                let rook = n.board[rf].take();
                n.board[m.to] = Some(mover);
                n.board[rt] = rook;
                touched.push(rf);
            }
            Special::EnPassant => {
                let victim = step(m.to, 0, if us { -1 } else { 1 }).unwrap();
                n.board[victim] = None;
                n.board[m.to] = Some(mover);
            }
            _ => {
                n.board[m.to] = Some(match m.promo {
                    Some(role) => Pc { white: us, role },
                    None => mover,
                });
            }
        }
        if self.kind == VariantKind::Atomic && m.capture {
            n.board[m.to] = None;
            for &(df, dr) in &geometry().king {
                if let Some(s) = step(m.to, df, dr) {
                    if n.board[s].is_some_and(|p| p.role != b'p') {
                        n.board[s] = None;
                        touched.push(s);
                    }
                }
            }
        }
        for s in touched {
            match s {
                4 => n.castling[0..2].copy_from_slice(&[false, false]),
                60 => n.castling[2..4].copy_from_slice(&[false, false]),
                7 => n.castling[0] = false,
                0 => n.castling[1] = false,
                63 => n.castling[2] = false,
                56 => n.castling[3] = false,
                _ => {}
            }
        }
        n.ep = (m.special == Special::DoublePush).then(|| (m.from + m.to) / 2);
        n.halfmove = if m.capture || mover.role == b'p' {
            0
        } else {
            self.halfmove + 1
        };
        if !us {
            n.fullmove += 1;
        }
        n.white = !us;
        if self.kind == VariantKind::ThreeCheck && n.in_check(n.white) {
            let c = &mut n.checks[!us as usize];
            *c = c.saturating_sub(1);
        }
        n
    }

    /// Does a pseudo-legal move keep the mover's royal piece safe?
    fn is_legal(&self, m: RMove) -> bool {
        let us = self.white;
        match self.kind {
            VariantKind::Suicide => true,
            VariantKind::Atomic => {
                let after = self.make(m);
                match (after.king_of(us), after.king_of(!us)) {
                    (None, _) => false,
                    (Some(_), None) => true,
                    (Some(k), Some(_)) => after.kings_touch() || !after.attacked(k, !us),
                }
            }
            VariantKind::Chess
            | VariantKind::ThreeCheck
            | VariantKind::Losers
            | VariantKind::Knightmate => {
                let after = self.make(m);
                let k = after.king_of(us).expect("royal piece");
                !after.attacked(k, !us)
            }
        }
    }

    /// The game's end by its own rule, before looking at moves.
    fn end_by_rule(&self) -> Option<Outcome> {
        let win = |white: bool, reason| {
            Some(Outcome::Decisive {
                winner: if white { Color::White } else { Color::Black },
                reason,
            })
        };
        let mover = !self.white;
        let bare = |white: bool| self.pieces_of(white).all(|(_, p)| p.role == b'k');
        match self.kind {
            VariantKind::Atomic => match (self.king_of(true), self.king_of(false)) {
                (None, _) => win(false, EndReason::KingExploded),
                (_, None) => win(true, EndReason::KingExploded),
                _ => None,
            },
            VariantKind::ThreeCheck => [mover, !mover]
                .into_iter()
                .find(|&c| self.checks[!c as usize] == 0)
                .and_then(|c| win(c, EndReason::ThirdCheck)),
            VariantKind::Losers => [mover, !mover]
                .into_iter()
                .find(|&c| bare(c))
                .and_then(|c| win(c, EndReason::BareKing)),
            VariantKind::Suicide if self.pieces_of(mover).next().is_none() => {
                win(mover, EndReason::NoMoves)
            }
            VariantKind::Suicide | VariantKind::Chess | VariantKind::Knightmate => None,
        }
    }

    fn legal_moves(&self) -> Vec<RMove> {
        if self.end_by_rule().is_some() {
            return Vec::new();
        }
        let mut legal: Vec<RMove> = self
            .pseudo_moves()
            .into_iter()
            .filter(|&m| self.is_legal(m))
            .collect();
        if matches!(self.kind, VariantKind::Suicide | VariantKind::Losers)
            && legal.iter().any(|m| m.capture)
        {
            legal.retain(|m| m.capture);
        }
        legal
    }

    fn outcome(&self, legal: &[RMove]) -> Option<Outcome> {
        if let Some(o) = self.end_by_rule() {
            return Some(o);
        }
        if !legal.is_empty() {
            return None;
        }
        let to_move = if self.white {
            Color::White
        } else {
            Color::Black
        };
        let check = self.in_check(self.white);
        let reason = if check {
            EndReason::Checkmate
        } else {
            EndReason::Stalemate
        };
        Some(match self.kind {
            VariantKind::Suicide => Outcome::Decisive {
                winner: to_move,
                reason: EndReason::NoMoves,
            },
            VariantKind::Losers => Outcome::Decisive {
                winner: to_move,
                reason,
            },
            VariantKind::Chess
            | VariantKind::ThreeCheck
            | VariantKind::Atomic
            | VariantKind::Knightmate => {
                if check {
                    Outcome::Decisive {
                        winner: to_move.other(),
                        reason,
                    }
                } else {
                    Outcome::Draw { reason }
                }
            }
        })
    }
}

// ---------------------------------------------------------------------------
// Start positions and playouts.
// ---------------------------------------------------------------------------

/// Hand-picked positions with pins, en passant subtleties, castling through
/// attacks, promotions, adjacent atomic kings, bare kings, spent counters.
fn tricky(kind: VariantKind) -> &'static [&'static str] {
    match kind {
        VariantKind::Chess => &[
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
            "8/8/8/K2pP2q/8/8/8/7k w - d6 0 2",
            "8/8/8/8/k2Pp2Q/8/8/3K4 b - d3 0 1",
            "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
            "r3k2r/8/8/8/8/8/5q2/R3K2R w KQkq - 0 1",
            "4k3/1P6/8/8/8/8/6p1/4K2R b K - 0 1",
        ],
        VariantKind::Suicide => &[
            "8/P7/8/8/8/8/8/7k w - - 0 1",
            "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
            "8/8/8/8/8/8/K6K/k7 w - - 0 1",
            "8/8/8/3pP3/8/8/8/8 w - d6 0 1",
            "1k6/8/8/8/8/8/8/R3K2R w KQ - 0 1",
        ],
        VariantKind::ThreeCheck => &[
            "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 1+2 0 3",
            "4k3/8/8/8/8/8/8/R3K2R w KQ - 1+1 0 1",
            "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1 +2+2",
            "4k3/8/8/8/8/8/4Q3/4K3 b - - 0+3 0 1",
        ],
        VariantKind::Atomic => &[
            "8/8/8/3kK3/8/8/8/r7 w - - 0 1",
            "8/8/8/8/3k4/8/2K5/8 w - - 0 1",
            "rnbq1bnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQ - 0 1",
            "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
            "4k3/8/8/2pP4/8/8/8/4K3 w - c6 0 1",
            "8/8/8/8/8/5k2/4q3/R3K2R w KQ - 0 1",
        ],
        VariantKind::Losers => &[
            "8/8/8/4k3/8/8/8/R3K3 w Q - 0 1",
            "4k3/8/8/8/1b6/8/3P4/4K3 w - - 0 1",
            "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
            "7k/8/8/8/8/8/6q1/7K w - - 0 1",
            "4k3/8/8/8/8/8/8/4K3 w - - 0 1",
        ],
        VariantKind::Knightmate => &[
            "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
            "4k3/1P6/8/8/8/8/8/4K3 w - - 0 1",
            "rmbqkbmr/pppppppp/8/8/8/8/PPPPPPPP/RMBQK2R w KQkq - 0 1",
            "4k3/8/8/8/8/8/3m4/4K3 w - - 0 1",
        ],
    }
}

/// Start FENs for `kind`: the start position, every FEN of the public
/// perft table for the game, and the hand-picked ones.
fn starts(kind: VariantKind) -> &'static [String] {
    static CACHE: OnceLock<Vec<Vec<String>>> = OnceLock::new();
    let all = CACHE.get_or_init(|| {
        VariantKind::ALL
            .iter()
            .map(|&k| {
                let mut v = common::start_fens(k);
                v.extend(tricky(k).iter().map(|s| s.to_string()));
                v
            })
            .collect()
    });
    &all[VariantKind::ALL.iter().position(|&k| k == kind).unwrap()]
}

/// A playout: start index, RNG seed, number of plies, capture bias.
fn playout_strategy() -> impl Strategy<Value = (usize, u64, usize, bool)> {
    (0usize..10_000, any::<u64>(), 0usize..160, any::<bool>())
}

/// Plays `plies` random legal moves from start `idx`, calling `check` on
/// every position reached (the start included). Returns early when the game
/// ends.
fn playout<V: Variant>(
    (idx, seed, plies, greedy): (usize, u64, usize, bool),
    mut check: impl FnMut(&Position<V>, &[String]) -> Result<(), TestCaseError>,
) -> Result<(), TestCaseError> {
    let fens = starts(V::KIND);
    let start = &fens[idx % fens.len()];
    let mut pos =
        Position::<V>::from_fen(start).map_err(|e| TestCaseError::fail(format!("{start}: {e}")))?;
    let mut rng = StdRng::seed_from_u64(seed);
    let mut path = vec![start.clone()];
    for _ in 0..=plies {
        check(&pos, &path)?;
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        let captures: Vec<_> = moves.iter().filter(|&&m| pos.is_capture(m)).collect();
        let m = if greedy && !captures.is_empty() && rng.gen_bool(0.7) {
            *captures[rng.gen_range(0..captures.len())]
        } else {
            moves[rng.gen_range(0..moves.len())]
        };
        path.push(m.uci());
        pos = pos.play_unchecked(m);
    }
    Ok(())
}

/// `cases` per property, or `PROPTEST_CASES` for a longer local run.
fn config(cases: u32) -> ProptestConfig {
    ProptestConfig {
        cases: std::env::var("PROPTEST_CASES")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(cases),
        // Failures print the start FEN and the moves; no files are written.
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

// ---------------------------------------------------------------------------
// Properties.
// ---------------------------------------------------------------------------

fn fen_round_trip<V: Variant>(pos: &Position<V>, path: &[String]) -> Result<(), TestCaseError> {
    let fen = pos.fen();
    let again = Position::<V>::from_fen(&fen)
        .map_err(|e| TestCaseError::fail(format!("{fen} does not parse: {e}; path {path:?}")))?;
    prop_assert_eq!(
        &again,
        pos,
        "parse(fen) differs for {} (path {:?})",
        fen,
        path
    );
    prop_assert_eq!(again.fen(), fen, "FEN not stable (path {:?})", path);
    Ok(())
}

fn key_is_incremental<V: Variant>(pos: &Position<V>, path: &[String]) -> Result<(), TestCaseError> {
    prop_assert_eq!(
        pos.key(),
        pos.compute_key(),
        "{} (path {:?})",
        pos.fen(),
        path
    );
    Ok(())
}

/// Compares varia with the reference model along the playout: the model is
/// read from the start FEN once, then moved by its own `make`.
fn reference_agrees<V: Variant>(args: (usize, u64, usize, bool)) -> Result<(), TestCaseError> {
    let mut model: Option<Model> = None;
    playout::<V>(args, |pos, path| {
        let current = match model.take() {
            None => Model::from_fen(V::KIND, &path[0]),
            Some(prev) => {
                // Follow varia's choice with the model's own move maker.
                let uci = path.last().unwrap();
                let m = prev
                    .legal_moves()
                    .into_iter()
                    .find(|m| &m.uci() == uci)
                    .ok_or_else(|| TestCaseError::fail(format!("reference has no move {uci}")))?;
                prev.make(m)
            }
        };
        let ctx = || {
            format!(
                "\n  varia FEN: {}\n  start: {}\n  moves: {}",
                pos.fen(),
                path[0],
                path[1..].join(" ")
            )
        };
        prop_assert_eq!(
            current.fen(),
            pos.fen(),
            "position after the moves differs{}",
            ctx()
        );
        let reference = current.legal_moves();
        let ours: BTreeSet<String> = pos.legal_moves().iter().map(|m| m.uci()).collect();
        let theirs: BTreeSet<String> = reference.iter().map(|m| m.uci()).collect();
        prop_assert_eq!(
            ours.len(),
            pos.legal_moves().len(),
            "duplicate moves{}",
            ctx()
        );
        if ours != theirs {
            let extra: Vec<_> = ours.difference(&theirs).collect();
            let missing: Vec<_> = theirs.difference(&ours).collect();
            return Err(TestCaseError::fail(format!(
                "legal moves differ: illegal moves generated {extra:?}, legal moves missing {missing:?}{}",
                ctx()
            )));
        }
        for m in pos.legal_moves().iter() {
            let r = reference.iter().find(|r| r.uci() == m.uci()).unwrap();
            prop_assert_eq!(
                pos.is_capture(*m),
                r.capture,
                "is_capture({}){}",
                m.uci(),
                ctx()
            );
            prop_assert_eq!(
                m.is_castle(),
                r.special == Special::Castle,
                "{}{}",
                m.uci(),
                ctx()
            );
            prop_assert_eq!(
                m.is_en_passant(),
                r.special == Special::EnPassant,
                "{}{}",
                m.uci(),
                ctx()
            );
        }
        prop_assert_eq!(
            pos.is_check(),
            current.in_check(current.white),
            "is_check{}",
            ctx()
        );
        prop_assert_eq!(
            pos.outcome(),
            current.outcome(&reference),
            "outcome{}",
            ctx()
        );
        model = Some(current);
        Ok(())
    })
}

macro_rules! properties {
    ($($module:ident => $V:ty),* $(,)?) => {$(
        mod $module {
            use super::*;

            proptest! {
                #![proptest_config(config(256))]

                #[test]
                fn fen_round_trips(args in playout_strategy()) {
                    playout::<$V>(args, fen_round_trip::<$V>)?;
                }

                #[test]
                fn incremental_key_matches_compute_key(args in playout_strategy()) {
                    playout::<$V>(args, key_is_incremental::<$V>)?;
                }

                #[test]
                fn legal_moves_match_reference_model(args in playout_strategy()) {
                    reference_agrees::<$V>(args)?;
                }
            }

            /// Every start position on its own (no random choice involved).
            #[test]
            fn every_start_position_matches_reference_model() {
                for idx in 0..starts(<$V as Variant>::KIND).len() {
                    reference_agrees::<$V>((idx, 0, 0, false)).unwrap();
                }
            }
        }
    )*};
}

properties! {
    chess => movegen::variants::Chess,
    suicide => movegen::variants::Suicide,
    threecheck => movegen::variants::ThreeCheck,
    atomic => movegen::variants::Atomic,
    losers => movegen::variants::Losers,
    knightmate => movegen::variants::Knightmate,
}

/// The reference model itself: perft from the start positions agrees with
/// the published counts (so the model is not trivially wrong in the same
/// way as the thing it checks).
#[test]
fn reference_model_perft_matches_published_counts() {
    fn perft(m: &Model, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let moves = m.legal_moves();
        if depth == 1 {
            return moves.len() as u64;
        }
        moves.iter().map(|&mv| perft(&m.make(mv), depth - 1)).sum()
    }
    for (kind, counts) in [
        (VariantKind::Chess, [20, 400, 8902]),
        (VariantKind::Suicide, [20, 400, 8067]),
        (VariantKind::ThreeCheck, [20, 400, 8902]),
        (VariantKind::Atomic, [20, 400, 8902]),
        (VariantKind::Losers, [20, 400, 8067]),
        (VariantKind::Knightmate, [18, 324, 6765]),
    ] {
        let m = Model::from_fen(kind, kind.start_fen());
        for (d, &n) in counts.iter().enumerate() {
            assert_eq!(perft(&m, d as u32 + 1), n, "{kind:?} depth {}", d + 1);
        }
    }
    // Kiwipete, depth 2 (castling, en passant, promotions, pins).
    let kiwi = Model::from_fen(
        VariantKind::Chess,
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    );
    assert_eq!(perft(&kiwi, 2), 2039);
}
