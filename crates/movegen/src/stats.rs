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
//!
//! The eleven counts are declared once (the `perft_stats!` list below): the
//! struct, [`STAT_NAMES`], the sum and the array form come from that list,
//! so the files and tables written in column order cannot drift from it.

use crate::moves::Move;
use crate::position::Position;
use crate::variant::Variant;
use std::ops::AddAssign;

/// Which [`StatColumns`] flag decides whether a count means something.
#[derive(Clone, Copy)]
enum Group {
    /// Every game has it.
    Always,
    /// Only games with check ([`StatColumns::check_columns`]).
    Check,
    /// Only games with a win by their own rule ([`StatColumns::variant_wins`]).
    VariantWin,
}

/// Declares [`PerftStats`] from one list of its counts, so that the field
/// order, the column names, the sum and the array form cannot disagree.
macro_rules! perft_stats {
    ($($(#[doc = $doc:literal])* $field:ident: $group:ident,)*) => {
        /// Counts over the leaf moves of a perft.
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
        pub struct PerftStats {
            $($(#[doc = $doc])* pub $field: u64,)*
        }

        /// How many counts a [`PerftStats`] has.
        pub const STAT_COUNT: usize = [$(stringify!($field)),*].len();

        /// The column names, in field order (the order of every stats
        /// table and file).
        pub const STAT_NAMES: [&str; STAT_COUNT] = [$(stringify!($field)),*];

        /// The column group of each count, in field order.
        const STAT_GROUPS: [Group; STAT_COUNT] = [$(Group::$group),*];

        impl PerftStats {
            /// The counts in [`STAT_NAMES`] order.
            pub const fn to_array(&self) -> [u64; STAT_COUNT] {
                [$(self.$field),*]
            }

            /// Counts from an array in [`STAT_NAMES`] order.
            pub const fn from_array(counts: [u64; STAT_COUNT]) -> PerftStats {
                let [$($field),*] = counts;
                PerftStats { $($field),* }
            }
        }

        impl AddAssign for PerftStats {
            fn add_assign(&mut self, o: PerftStats) {
                $(self.$field += o.$field;)*
            }
        }
    };
}

perft_stats! {
    /// Leaf moves (the perft number).
    nodes: Always,
    /// Captures, en passant included.
    captures: Always,
    /// En-passant captures.
    en_passant: Always,
    /// Castlings.
    castles: Always,
    /// Promotions (each promotion piece counts once).
    promotions: Always,
    /// Moves that give check.
    checks: Check,
    /// Checks given by a piece that did not move.
    discovered_checks: Check,
    /// Checks by two or more pieces.
    double_checks: Check,
    /// Leaves where the side to move is checkmated.
    checkmates: Check,
    /// Leaves where the side to move is stalemated.
    stalemates: Check,
    /// Leaves where the game just ended by the variant's own rule.
    variant_wins: VariantWin,
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

    /// The stats as optional values in [`STAT_NAMES`] order: `None` for a
    /// count that means nothing in the game.
    pub fn values(self, s: &PerftStats) -> [Option<u64>; STAT_COUNT] {
        let counts = s.to_array();
        std::array::from_fn(|i| {
            let shown = match STAT_GROUPS[i] {
                Group::Always => true,
                Group::Check => self.check_columns,
                Group::VariantWin => self.variant_wins,
            };
            shown.then_some(counts[i])
        })
    }
}

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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variants::{Chess, Suicide};

    #[test]
    fn array_form_follows_the_names() {
        let counts: [u64; STAT_COUNT] = std::array::from_fn(|i| i as u64 + 1);
        let s = PerftStats::from_array(counts);
        assert_eq!((s.nodes, s.en_passant, s.variant_wins), (1, 3, 11));
        assert_eq!(s.to_array(), counts);
        assert_eq!(STAT_NAMES[2], "en_passant");
        let mut sum = s;
        sum += s;
        assert_eq!(sum.to_array(), counts.map(|c| 2 * c));
    }

    #[test]
    fn values_hide_the_columns_a_game_lacks() {
        let s = PerftStats::from_array([7; STAT_COUNT]);
        let chess = StatColumns::of::<Chess>().values(&s);
        assert_eq!(chess[..10], [Some(7); 10]);
        assert_eq!(chess[10], None);
        let suicide = StatColumns::of::<Suicide>().values(&s);
        assert_eq!(suicide[..5], [Some(7); 5]);
        assert_eq!(suicide[5..10], [None; 5]);
        assert_eq!(suicide[10], Some(7));
    }
}
