//! King attack by units, and safe checks: the danger to a king grows much
//! faster than the number of pieces aimed at it (one piece near a king is
//! rarely a threat, three usually are), so a linear count of attacks (the
//! common `king_danger`) cannot price it. Each enemy knight, bishop, rook or
//! queen whose attacks reach the squares around the king adds its units
//! ([`ATTACK_UNITS`]), and each safe check (a square from which an enemy
//! piece could check next move, reached by such a piece and not defended)
//! adds [`SAFE_CHECK_UNITS`] (in threecheck, once the attacker has one check
//! left, every check square it reaches counts: the check wins before any
//! recapture). The term is then one weight per unit count,
//! `king_attack` 0..=15 (the count capped at 15), taken only when at least
//! two pieces attack: a table, so the curve stays linear in its weights and
//! the tuner can shape it, as the old Stockfish SafetyTable was.
//!
//! The units are fixed small integers from common practice (a queen weighs
//! most, minor pieces least) rather than weights, because the term is read
//! through the table: their scale is the table's.
//!
//! A hand-set first shape in chess (the square of the units, half in the
//! endgame) scored -12.3 Elo [-27.0, +2.4], undecided after 1500 games at
//! 5000 nodes (data/sprt/eval/chess-king-attack.toml); the table's values in
//! the defaults are the tuner's: the Texel fits that are chess's, atomic's
//! and threecheck's default weights set it (data/tuning/), and it is 0 in
//! suicide and losers (no table in their defaults) and in knightmate.
//!
//! Knightmate: a royal knight is mated from its flight squares, a knight's
//! move away, not from the squares next to it, so there the zone is those
//! squares; the commoner (a king-stepper) adds a minor piece's units and
//! checks from next to the royal knight (`eval/knightmate.rs`).
//!
//! The safe-check count is shared with threecheck's own term
//! (`eval/threecheck.rs`), which weighs it by the checks still needed.

use movegen::attacks::piece_attacks;
use movegen::{Bitboard, Color, Position, Role, Square, Variant};

/// Units a piece adds when its attacks reach the squares around the enemy
/// king, by role index (pawn and king add none; knightmate's commoner, a
/// king-stepper that checks from next to the royal knight, as a minor).
pub(super) const ATTACK_UNITS: [i32; 7] = [0, 2, 2, 3, 5, 0, 2];

/// Units each safe check adds.
pub(super) const SAFE_CHECK_UNITS: i32 = 2;

/// Largest unit count the `king_attack` table distinguishes.
pub(super) const MAX_UNITS: i32 = 15;

/// The attack on one king, gathered while the attacker's pieces are walked.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct KingAttack {
    /// Pieces whose attacks reach the squares around the king.
    pub attackers: i32,
    /// Their units ([`ATTACK_UNITS`]).
    pub units: i32,
}

impl KingAttack {
    /// Counts a piece of `role` whose attacks are `attacks`, against a king
    /// whose surrounding squares are `zone`.
    #[inline(always)]
    pub fn add_piece(&mut self, role: Role, attacks: Bitboard, zone: Bitboard) {
        let units = ATTACK_UNITS[role.index()];
        if units != 0 && (attacks & zone).any() {
            self.attackers += 1;
            self.units += units;
        }
    }

    /// `true` if this is an attack the table prices: two or more pieces.
    pub fn is_attack(&self) -> bool {
        self.attackers >= 2
    }

    /// The row of the `king_attack` table this attack falls in, with `safe`
    /// safe checks (read only where [`KingAttack::is_attack`]).
    pub fn table_index(&self, safe: i32) -> usize {
        (self.units + SAFE_CHECK_UNITS * safe).min(MAX_UNITS) as usize
    }
}

/// The roles whose checks count as safe checks (the commoner exists in
/// knightmate alone, where it checks the royal knight from next to it).
const CHECKERS: [Role; 5] = [
    Role::Knight,
    Role::Bishop,
    Role::Rook,
    Role::Queen,
    Role::Commoner,
];

/// The check squares against one king: where an enemy piece can move and
/// give check next move, split by whether the king's side attacks them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct CheckSquares {
    /// Not attacked by the king's side (or any, where [`last_check_wins`]).
    pub safe: i32,
    /// Attacked by the king's side: a check that can be answered by a
    /// capture (in threecheck still a check given).
    pub guarded: i32,
}

/// The check squares against the king of `color` on `k`: the squares from
/// which an enemy knight, bishop, rook, queen or commoner would check it,
/// reached by such a piece of the enemy, safe where `color` does not attack
/// them (all safe where [`last_check_wins`]): one per square and role.
/// `reached` holds the squares the enemy's pieces reach, by role index, and
/// `defended` every square `color` attacks (both gathered by the
/// evaluation's walk over the pieces, with the same occupancy).
pub(super) fn check_squares<V: Variant>(
    pos: &Position<V>,
    color: Color,
    k: Square,
    reached: &[Bitboard; 7],
    defended: Bitboard,
) -> CheckSquares {
    let them = color.other();
    let defended = if last_check_wins(pos, them) {
        Bitboard(0)
    } else {
        defended
    };
    let b = pos.board();
    let occ = b.occupied();
    let mut squares = CheckSquares::default();
    for role in CHECKERS {
        if b.pieces(them, role).is_empty() {
            continue;
        }
        let checking = piece_attacks::<V>(role, k, occ) & !b.color(them) & reached[role.index()];
        squares.safe += (checking & !defended).count() as i32;
        squares.guarded += (checking & defended).count() as i32;
    }
    squares
}

/// `true` where any check by `checker` wins the game (threecheck, one check
/// left to give): a check square its opponent defends is then as safe as
/// any, since the check ends the game before the recapture.
#[inline(always)]
fn last_check_wins<V: Variant>(pos: &Position<V>, checker: Color) -> bool {
    V::CHECK_COUNTING && pos.checks_remaining(checker) <= 1
}

/// [`check_squares`] square by square, from the position alone: the slow
/// reference its tests compare with.
#[cfg(test)]
pub(super) fn check_squares_by_squares<V: Variant>(
    pos: &Position<V>,
    color: Color,
    k: Square,
) -> CheckSquares {
    let them = color.other();
    let b = pos.board();
    let occ = b.occupied();
    let any_check_wins = last_check_wins(pos, them);
    let mut squares = CheckSquares::default();
    for role in CHECKERS {
        let pieces = b.pieces(them, role);
        if pieces.is_empty() {
            continue;
        }
        let checking = piece_attacks::<V>(role, k, occ) & !b.color(them);
        let mut reached = Bitboard(0);
        for from in pieces {
            reached |= piece_attacks::<V>(role, from, occ);
        }
        for sq in checking & reached {
            if any_check_wins || pos.attackers_to(sq, color, occ).is_empty() {
                squares.safe += 1;
            } else {
                squares.guarded += 1;
            }
        }
    }
    squares
}

/// The safe checks alone, square by square (for the tests of the table).
#[cfg(test)]
pub(super) fn safe_checks_by_squares<V: Variant>(
    pos: &Position<V>,
    color: Color,
    k: Square,
) -> i32 {
    check_squares_by_squares(pos, color, k).safe
}

#[cfg(test)]
mod tests {
    use super::super::{features, idx};
    use movegen::variants::Chess;
    use movegen::Position;

    fn table(fen: &str) -> Vec<i32> {
        let pos = Position::<Chess>::from_fen(fen).unwrap();
        features(&pos)[idx::KING_ATTACK..idx::KING_ATTACK + 16].to_vec()
    }

    #[test]
    fn one_attacker_is_not_an_attack() {
        // The queen on h5 reaches f7 and g6 around the king on g8, alone.
        let t = table("6k1/5p1p/8/7Q/8/8/8/6K1 w - - 0 1");
        assert!(t.iter().all(|&c| c == 0), "{t:?}");
    }

    #[test]
    fn two_attackers_count_their_units_and_safe_checks() {
        // The queen on h5 (5 units) and the knight on g5 (2) both reach the
        // squares around the king on g8: one row of the table, from White's
        // side, at their units plus the safe checks' (counted by the test
        // below).
        let fen = "6k1/5p1p/8/6NQ/8/8/8/6K1 w - - 0 1";
        let pos = Position::<Chess>::from_fen(fen).unwrap();
        let k = pos.king(movegen::Color::Black).unwrap();
        let safe = super::safe_checks_by_squares(&pos, movegen::Color::Black, k);
        let expected = (5 + 2 + super::SAFE_CHECK_UNITS * safe).min(15) as usize;
        let t = table(fen);
        assert_eq!(t[expected], 1, "white attacks: {t:?}");
        assert_eq!(t.iter().map(|c| c.abs()).sum::<i32>(), 1, "{t:?}");
    }

    #[test]
    fn a_safe_check_is_a_reached_undefended_checking_square() {
        // The knight on e4 can check the king on e8 from d6 and f6; the rook
        // on d8 guards d6, so one is safe.
        let pos = Position::<Chess>::from_fen("3rk3/8/8/8/4N3/8/8/4K3 w - - 0 1").unwrap();
        let k = pos.king(movegen::Color::Black).unwrap();
        assert_eq!(
            super::safe_checks_by_squares(&pos, movegen::Color::Black, k),
            1
        );
        let pos = Position::<Chess>::from_fen("4k3/8/8/8/4N3/8/8/4K3 w - - 0 1").unwrap();
        let k = pos.king(movegen::Color::Black).unwrap();
        assert_eq!(
            super::safe_checks_by_squares(&pos, movegen::Color::Black, k),
            2
        );
    }
}
