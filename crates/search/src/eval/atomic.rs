//! Atomic: a capture explodes every piece but pawns on the squares next to
//! it, so a king is lost to any capture next to it, and a king cannot be
//! defended by recapturing. What decides a position is how near each side
//! is to such a blast, which material and mobility see late:
//!
//! - blast danger (`atomic_blast`): Fairy-Stockfish's explosion threats.
//!   For the side that attacks, `20 * zone / (evasions + 1) + 40 * blasts`,
//!   where `zone` counts the squares of the enemy king and around it that
//!   the side attacks, `evasions` the enemy king's square and the squares
//!   around it free of the enemy's own pieces that the side does not
//!   attack, and `blasts` the enemy
//!   pieces the side can capture with a piece other than its king (a king
//!   cannot capture in atomic) whose blast takes the enemy king and spares
//!   its own. The term is that danger `d` raised as Fairy-Stockfish raises
//!   it, `d * (100 + d) / 100`, so that the weight stays linear for the
//!   tuner while a threat with no escape weighs far more than a first
//!   attack. 0 by default: at Fairy-Stockfish's scale (80 here) it lost
//!   its SPRT by -173 Elo, at 30 by -129 and at 8 by -43 (data/sprt/log.csv):
//!   on this engine's scale it swamps the rest of the evaluation.
//!
//! Atomic's older terms (`atomic_threat`, the enemy pieces next to the
//! enemy king that the side attacks, and `kings_touch`) are counted in the
//! walk of `eval_terms`, where the attack sets are at hand.

use super::threats::Attacks;
use movegen::attacks::king_attacks;
use movegen::{Bitboard, Color, Position, Role, Variant};

/// The blast danger `color` puts on the enemy king (0 without both kings),
/// raised as the module doc says. `ours` holds `color`'s attacks and
/// `reached` its pieces' attack sets by role, as `eval_terms` gathered them.
pub(super) fn blast_danger<V: Variant>(
    pos: &Position<V>,
    color: Color,
    ours: &Attacks,
    reached: &[Bitboard; 7],
) -> i32 {
    let (Some(own_king), Some(their_king)) = (pos.king(color), pos.king(color.other())) else {
        return 0;
    };
    let b = pos.board();
    let theirs = b.color(color.other());
    let ring = king_attacks(their_king);
    let king_and_ring = ring | Bitboard::from_square(their_king);
    let zone = (king_and_ring & ours.all).count() as i32;
    let evasions =
        (((ring & !theirs) | Bitboard::from_square(their_king)) & !ours.all).count() as i32;
    // Captures by a piece other than the king, the only ones atomic allows.
    let by_pieces = Role::ALL
        .into_iter()
        .filter(|&role| role != Role::Pawn && role != Role::King)
        .fold(ours.pawns, |set, role| set | reached[role.index()]);
    let blasts = (theirs & by_pieces & king_and_ring)
        .filter(|&sq| !king_attacks(sq).contains(own_king))
        .count() as i32;
    let danger = 20 * zone / (evasions + 1) + 40 * blasts;
    danger * (100 + danger) / 100
}

#[cfg(test)]
mod tests {
    use super::super::tests::for_playout_positions;
    use super::super::{features, idx};
    use movegen::attacks::king_attacks;
    use movegen::variants::Atomic;
    use movegen::{Bitboard, Color, Position, Role};

    /// The blast danger of `color`, square by square from the attackers of
    /// each (the slow reference of [`super::blast_danger`]).
    fn blast_danger_by_squares(pos: &Position<Atomic>, color: Color) -> i32 {
        let (Some(own_king), Some(their_king)) = (pos.king(color), pos.king(color.other())) else {
            return 0;
        };
        let b = pos.board();
        let occ = b.occupied();
        let king_and_ring = king_attacks(their_king) | Bitboard::from_square(their_king);
        let attacked = |sq| pos.attackers_to(sq, color, occ).any();
        let zone = king_and_ring.filter(|&sq| attacked(sq)).count() as i32;
        let evasions = king_and_ring
            .filter(|&sq| sq == their_king || !b.color(color.other()).contains(sq))
            .filter(|&sq| !attacked(sq))
            .count() as i32;
        let not_king = !b.pieces(color, Role::King);
        let blasts = (king_and_ring & b.color(color.other()))
            .filter(|&sq| (pos.attackers_to(sq, color, occ) & not_king).any())
            .filter(|&sq| !king_attacks(sq).contains(own_king))
            .count() as i32;
        let danger = 20 * zone / (evasions + 1) + 40 * blasts;
        danger * (100 + danger) / 100
    }

    #[test]
    fn blast_danger_counts_the_zone_the_evasions_and_the_blasts_that_spare_the_own_king() {
        // White queen g7 next to the black king h8 attacks g8, h7 and h8
        // (zone 3); of the king's square and its squares not held by Black
        // only g7 is not attacked (1 evasion: 20 * 3 / 2 = 30); the king
        // itself is a piece White attacks with a piece other than its king,
        // away from White's king (1 blast, 40): danger 70.
        let pos = Position::<Atomic>::from_fen("7k/6Q1/8/8/8/8/8/K7 b - - 0 1").unwrap();
        assert_eq!(features(&pos)[idx::ATOMIC_BLAST], 70 * 170 / 100);
        // A black knight on g8, attacked by the queen, is one blast more.
        let pos = Position::<Atomic>::from_fen("6nk/6Q1/8/8/8/8/8/K7 b - - 0 1").unwrap();
        assert_eq!(features(&pos)[idx::ATOMIC_BLAST], 110 * 210 / 100);
        // A blast that would take the attacker's own king is none: the
        // knight on e7 attacks the rook on g8, next to the black king, but
        // g8's blast reaches White's king on f7. White: zone g8, g7 (2),
        // evasions h7, h8 (2): 20 * 2 / 3 = 13, no blast; Black (rook g8,
        // king h8) on f7: zone e8, f8, g8, g7, g6 (5), evasions e6, f6, f7
        // (3): 20 * 5 / 4 = 25, no blast (nothing attacks e7 or f7).
        let pos = Position::<Atomic>::from_fen("6rk/4NK2/8/8/8/8/8/8 w - - 0 1").unwrap();
        assert_eq!(
            features(&pos)[idx::ATOMIC_BLAST],
            13 * 113 / 100 - 25 * 125 / 100
        );
    }

    #[test]
    fn blast_danger_matches_the_square_by_square_count() {
        let mut seen = 0;
        for_playout_positions::<Atomic>(|pos| {
            let (w, b) = (
                blast_danger_by_squares(pos, Color::White),
                blast_danger_by_squares(pos, Color::Black),
            );
            assert_eq!(features(pos)[idx::ATOMIC_BLAST], w - b, "{}", pos.fen());
            seen += i32::from(w != 0 || b != 0);
        });
        assert!(seen > 0, "no position had a blast danger");
    }
}
