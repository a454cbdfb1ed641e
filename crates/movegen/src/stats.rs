//! Detailed perft: besides the node count, how many of the leaf moves are
//! captures, en passant, castlings, promotions, checks (discovered, double),
//! and how many leaves are checkmate, stalemate or a win by the variant's own
//! rule. These are the columns of the published chess perft tables, extended
//! to the variants.
//!
//! Definitions (the published chess tables are reproduced exactly with them,
//! see `tests/perft_stats.rs`):
//! - a **check** is a leaf move after which the side to move is in check
//!   (atomic: with the kings apart);
//! - a **discovered check** is a check in which the piece that moved (on its
//!   new square; for castling, the rook) is *not* one of the checkers. So a
//!   double check by the moved piece and a piece it uncovered is a double check
//!   but not a discovered one. The published Kiwipete depth-4 row fixes this:
//!   counting "any checker other than the moved piece" gives 48, six too many,
//!   exactly its six double checks;
//! - a **double check** has two or more checking pieces;
//! - a **checkmate** is a leaf where the side to move is in check and has no
//!   legal move, and a **stalemate** one where it is not in check and has no
//!   legal move, in both cases unless the game already ended by the variant's
//!   own rule, which is counted as a **variant win** instead (third check in
//!   threecheck, king exploded in atomic, a bare king in losers, and in suicide
//!   every leaf without legal moves).
//!
//! Columns that mean nothing in a game are `None` (see [`StatColumns`]):
//! suicide has no check, so no checks, checkmates or stalemates; chess has no
//! variant win.

use crate::moves::Move;
use crate::position::Position;
use crate::variant::Variant;
use std::ops::AddAssign;

/// Counts over the leaf moves of a perft.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct PerftStats {
    /// Leaf moves (the perft number).
    pub nodes: u64,
    /// Captures, en passant included.
    pub captures: u64,
    /// En-passant captures.
    pub en_passant: u64,
    /// Castlings.
    pub castles: u64,
    /// Promotions (each promotion piece counts once).
    pub promotions: u64,
    /// Moves that give check.
    pub checks: u64,
    /// Checks given by a piece that did not move.
    pub discovered_checks: u64,
    /// Checks by two or more pieces.
    pub double_checks: u64,
    /// Leaves where the side to move is checkmated.
    pub checkmates: u64,
    /// Leaves where the side to move is stalemated.
    pub stalemates: u64,
    /// Leaves where the game just ended by the variant's own rule.
    pub variant_wins: u64,
}

impl AddAssign for PerftStats {
    fn add_assign(&mut self, o: PerftStats) {
        self.nodes += o.nodes;
        self.captures += o.captures;
        self.en_passant += o.en_passant;
        self.castles += o.castles;
        self.promotions += o.promotions;
        self.checks += o.checks;
        self.discovered_checks += o.discovered_checks;
        self.double_checks += o.double_checks;
        self.checkmates += o.checkmates;
        self.stalemates += o.stalemates;
        self.variant_wins += o.variant_wins;
    }
}

/// Which stats columns mean something in a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StatColumns {
    /// checks, discovered_checks, double_checks, checkmates, stalemates.
    pub check_columns: bool,
    /// variant_wins.
    pub variant_wins: bool,
}

impl StatColumns {
    /// The columns of game `V`.
    pub const fn of<V: Variant>() -> StatColumns {
        StatColumns {
            check_columns: V::ROYAL,
            variant_wins: V::HAS_END_RULE,
        }
    }

    /// The stats as CSV-ready optional values, in the column order
    /// `nodes,captures,en_passant,castles,promotions,checks,discovered_checks,
    /// double_checks,checkmates,stalemates,variant_wins`.
    pub fn values(self, s: &PerftStats) -> [Option<u64>; 11] {
        let c = |v: u64| self.check_columns.then_some(v);
        [
            Some(s.nodes),
            Some(s.captures),
            Some(s.en_passant),
            Some(s.castles),
            Some(s.promotions),
            c(s.checks),
            c(s.discovered_checks),
            c(s.double_checks),
            c(s.checkmates),
            c(s.stalemates),
            self.variant_wins.then_some(s.variant_wins),
        ]
    }
}

/// The column names in [`StatColumns::values`] order.
pub const STAT_NAMES: [&str; 11] = [
    "nodes",
    "captures",
    "en_passant",
    "castles",
    "promotions",
    "checks",
    "discovered_checks",
    "double_checks",
    "checkmates",
    "stalemates",
    "variant_wins",
];

/// Classifies one leaf move `m` played from `pos`.
pub fn leaf_stats<V: Variant>(pos: &Position<V>, m: Move) -> PerftStats {
    let child = pos.play_unchecked(m);
    let mut s = PerftStats {
        nodes: 1,
        captures: pos.is_capture(m) as u64,
        en_passant: m.is_en_passant() as u64,
        castles: m.is_castle() as u64,
        promotions: m.promotion().is_some() as u64,
        ..PerftStats::default()
    };
    let checkers = child.checkers();
    if checkers.any() {
        s.checks = 1;
        s.double_checks = checkers.more_than_one() as u64;
        let moved = if m.is_castle() {
            crate::position::CASTLES
                .iter()
                .find(|c| c.king_from == m.from() && c.king_to == m.to())
                .map(|c| c.rook_to)
                .unwrap_or(m.to())
        } else {
            m.to()
        };
        s.discovered_checks = !checkers.contains(moved) as u64;
    }
    if V::end_by_rule(&child).is_some() {
        s.variant_wins = 1;
    } else if !child.has_legal_move() {
        if !V::ROYAL {
            s.variant_wins = 1;
        } else if child.is_check() {
            s.checkmates = 1;
        } else {
            s.stalemates = 1;
        }
    }
    s
}

/// Detailed perft of `depth` plies: stats over the moves of the last ply.
pub fn perft_stats<V: Variant>(pos: &Position<V>, depth: u32) -> PerftStats {
    let mut total = PerftStats::default();
    if depth == 0 {
        total.nodes = 1;
        return total;
    }
    let moves = pos.legal_moves();
    for &m in moves.iter() {
        if depth == 1 {
            total += leaf_stats(pos, m);
        } else {
            total += perft_stats(&pos.play_unchecked(m), depth - 1);
        }
    }
    total
}
