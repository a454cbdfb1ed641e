//! Knightmate: the royal piece moves as a knight and the king-step piece is
//! an ordinary commoner. A royal knight is not smothered by pieces on the
//! squares next to it but on the squares a knight's move away, so its
//! safety is measured there:
//!
//! - escape squares: knight-move squares the royal knight could go to that
//!   the opponent does not attack (`royal_knight_safety`);
//! - danger: the opponent's attacks on those knight-move squares
//!   (`royal_knight_danger`), where the common king danger counts the
//!   king-step ring, which says little about a knight. Hand-set in place
//!   of the king-ring danger it lost its SPRT (-26 Elo, H0,
//!   data/sprt/log.csv); the Texel fit that is knightmate's default
//!   weights keeps both (the king-ring danger at 12 an attack, this one
//!   at 4, in the middlegame).
//!
//! The commoner's material value is the common `material.commoner` weight,
//! measured by the same fit (457 in the middlegame, 215 in the endgame).

use super::{idx, TermSink};
use movegen::attacks::knight_attacks;
use movegen::{Color, Position, Square, Variant};

/// Adds the terms of `color`'s royal knight on `k` to `acc` (White's view:
/// `sign` is +1 for White, -1 for Black).
pub(super) fn royal_knight_terms<V: Variant, A: TermSink>(
    pos: &Position<V>,
    color: Color,
    k: Square,
    sign: i32,
    acc: &mut A,
) {
    let b = pos.board();
    let occ = b.occupied();
    let them = color.other();
    let ring = knight_attacks(k);
    let mut safe = 0i32;
    let mut danger = 0i32;
    for sq in ring {
        let attackers = pos.attackers_to(sq, them, occ).count() as i32;
        danger += attackers;
        if attackers == 0 && !b.color(color).contains(sq) {
            safe += 1;
        }
    }
    acc.add(idx::ROYAL_KNIGHT_SAFETY, sign * safe);
    if danger != 0 {
        acc.add(idx::ROYAL_KNIGHT_DANGER, -sign * danger);
    }
}

#[cfg(test)]
mod tests {
    use super::super::king_attack::{safe_checks_by_squares, SAFE_CHECK_UNITS};
    use super::super::{features, idx};
    use movegen::variants::Knightmate;
    use movegen::Position;

    #[test]
    fn royal_knight_danger_is_counted_on_its_knight_move_squares() {
        // White's royal knight on a1 (knight squares b3, c2); a black rook on
        // b8 attacks b3, a black queen on h2 attacks c2: two attacks, no
        // escape square. Black's royal knight on h8 (f7, g6) is not attacked.
        let pos = Position::<Knightmate>::from_fen("1r5k/8/8/8/8/8/7q/K7 w - - 0 1").unwrap();
        let f = features(&pos);
        assert_eq!(f[idx::ROYAL_KNIGHT_DANGER], -2);
        assert_eq!(f[idx::ROYAL_KNIGHT_SAFETY], -2);
    }

    #[test]
    fn the_king_attack_is_counted_on_the_royal_knights_flight_squares() {
        // White's royal knight on a1 flies to b3 and c2: the black queen on
        // h3 reaches b3 (5 units), the rook on c8 c2 (3); the commoner on e4
        // reaches no flight square and adds nothing. One row of the table,
        // at 8 units plus the safe checks'.
        let fen = "2r4k/8/8/8/4m3/7q/8/K7 w - - 0 1";
        let pos = Position::<Knightmate>::from_fen(fen).unwrap();
        let k = pos.king(movegen::Color::White).unwrap();
        let safe = safe_checks_by_squares(&pos, movegen::Color::White, k);
        let row = (8 + SAFE_CHECK_UNITS * safe).min(15) as usize;
        let f = features(&pos);
        let table = &f[idx::KING_ATTACK..idx::KING_ATTACK + 16];
        assert_eq!(table[row], -1, "{table:?}");
        assert_eq!(table.iter().map(|c| c.abs()).sum::<i32>(), 1, "{table:?}");
        // A commoner next to a flight square adds its units: on d1 it
        // reaches c2 (2 more).
        let fen = "2r4k/8/8/8/8/7q/8/K2m4 w - - 0 1";
        let pos = Position::<Knightmate>::from_fen(fen).unwrap();
        let safe = safe_checks_by_squares(&pos, movegen::Color::White, k);
        let row = (10 + SAFE_CHECK_UNITS * safe).min(15) as usize;
        let f = features(&pos);
        assert_eq!(f[idx::KING_ATTACK + row], -1);
    }
}
