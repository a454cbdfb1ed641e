//! Threats, for every game (weights 0 where a game has not shown it wants
//! them): a piece attacked by a pawn must move or be lost for less, and a
//! piece attacked and not defended at all can be taken for nothing. Both
//! are counted for the attacking side, one weight per kind of victim (a
//! table keyed by piece, as `material`):
//!
//! - `threat_by_pawn`: enemy pieces (not pawns) a pawn of the side attacks;
//! - `hanging`: enemy pieces (pawns too) the side attacks and their own side
//!   does not defend;
//! - `threat_by_minor`, `threat_by_rook`: enemy pieces a knight or bishop,
//!   or a rook, of the side attacks, defended or not (a pawn only where no
//!   enemy pawn defends it): a smaller piece attacking a larger one wins
//!   material or a tempo, the larger attacking a smaller one pins it down.
//!
//! - `restricted_piece`: squares both sides attack that the enemy does not
//!   protect strongly (by a pawn, or twice where the side attacks once), so
//!   the enemy's pieces that reach them do so under fire (Stockfish's
//!   `RestrictedPiece`); one weight.
//! - `weak_queen_protection`: enemy pieces (not a royal king) the side
//!   attacks, that the enemy does not protect strongly and that its queen
//!   defends: the queen is tied to them (Stockfish's `WeakQueenProtection`).
//! - `knight_on_queen`, `slider_on_queen`: when the enemy has one queen,
//!   the squares from which a knight, or a bishop or rook (on a square the
//!   side attacks twice), of the side would attack it, that the side can
//!   move to (empty or enemy) and the enemy does not protect strongly:
//!   threats against the queen on the next move; doubled when it is the
//!   only queen on the board (Stockfish's `KnightOnQueen`, `SliderOnQueen`).
//!
//! A royal king is never a victim (an attack on it is a check, which the
//! king danger terms measure). The attack sets are the plain attacks of each
//! piece (no pins, no x-rays), gathered by [`super::eval_terms`] while it
//! counts mobility.

use super::{group, idx, TermSink};
use movegen::attacks::{bishop_attacks_with, knight_attacks, rook_attacks_with};
use movegen::{Bitboard, Color, Position, Role, Variant};

/// Attacks of one side: by its pawns, and by all its pieces.
#[derive(Clone, Copy, Default)]
pub(super) struct Attacks {
    /// Squares its pawns attack.
    pub pawns: Bitboard,
    /// Squares its knights and bishops attack.
    pub minors: Bitboard,
    /// Squares its rooks attack.
    pub rooks: Bitboard,
    /// Squares any of its pieces attacks.
    pub all: Bitboard,
    /// Squares two or more of its pieces attack (Stockfish's
    /// `attackedBy2`): where a capture can be answered by a recapture.
    /// Gathered only for its readers: where captures are forced (the forced
    /// capture), and for the king flank attack, the restricted pieces and
    /// the threats around the queen (empty elsewhere).
    pub twice: Bitboard,
}

/// Whether `acc` weighs any threat term: the one place that lists them,
/// so a term weighed alone is never skipped.
pub(super) fn wanted<A: TermSink>(acc: &A) -> bool {
    acc.wants(group::THREAT_BY_PAWN)
        || acc.wants(group::HANGING)
        || acc.wants(group::THREAT_BY_MINOR)
        || acc.wants(group::THREAT_BY_ROOK)
        || wants_twice(acc)
}

/// Whether `acc` weighs a threat term that asks which squares a side
/// protects strongly, and so needs both sides' [`Attacks::twice`].
pub(super) fn wants_twice<A: TermSink>(acc: &A) -> bool {
    acc.wants(group::RESTRICTED_PIECE)
        || acc.wants(group::WEAK_QUEEN_PROTECTION)
        || acc.wants(group::KNIGHT_ON_QUEEN)
        || acc.wants(group::SLIDER_ON_QUEEN)
}

/// Adds the threat terms of both sides to `acc` (White's view); `attacks`
/// and `reached` (the squares each role of a side attacks) are indexed by
/// colour.
pub(super) fn terms<V: Variant, A: TermSink>(
    pos: &Position<V>,
    attacks: &[Attacks; 2],
    reached: &[[Bitboard; 7]; 2],
    acc: &mut A,
) {
    let b = pos.board();
    let by_pieces = acc.wants(group::THREAT_BY_MINOR) || acc.wants(group::THREAT_BY_ROOK);
    let restricted_wanted = acc.wants(group::RESTRICTED_PIECE);
    let weak_queen_wanted = acc.wants(group::WEAK_QUEEN_PROTECTION);
    let on_queen_wanted = acc.wants(group::KNIGHT_ON_QUEEN) || acc.wants(group::SLIDER_ON_QUEEN);
    for color in Color::ALL {
        let sign = if color.is_white() { 1 } else { -1 };
        let victim = color.other();
        let ours = &attacks[color.index()];
        let defended = attacks[victim.index()].all;
        let held = if restricted_wanted || weak_queen_wanted || on_queen_wanted {
            strongly_protected(attacks, victim)
        } else {
            Bitboard(0)
        };
        if weak_queen_wanted {
            let mut weak = b.color(victim) & ours.all & !held;
            if V::ROYAL {
                weak &= !b.pieces(victim, Role::King);
            }
            let tied = (weak & reached[victim.index()][Role::Queen.index()]).count() as i32;
            if tied != 0 {
                acc.add(idx::WEAK_QUEEN_PROTECTION, sign * tied);
            }
        }
        if on_queen_wanted {
            queen_threats(
                pos,
                color,
                held,
                &attacks[color.index()],
                &reached[color.index()],
                sign,
                acc,
            );
        }
        if restricted_wanted {
            let restricted = (ours.all & !held & defended).count() as i32;
            if restricted != 0 {
                acc.add(idx::RESTRICTED_PIECE, sign * restricted);
            }
        }
        for role in Role::ALL {
            if V::ROYAL && role == Role::King {
                continue;
            }
            let pieces = b.pieces(victim, role);
            if pieces.is_empty() {
                continue;
            }
            if role != Role::Pawn {
                let by_pawn = (pieces & ours.pawns).count() as i32;
                if by_pawn != 0 {
                    acc.add(idx::THREAT_BY_PAWN + role.index(), sign * by_pawn);
                }
            }
            let hanging = (pieces & ours.all & !defended).count() as i32;
            if hanging != 0 {
                acc.add(idx::HANGING + role.index(), sign * hanging);
            }
            if by_pieces {
                // A pawn its own pawns defend is no target for a piece.
                let targets = if role == Role::Pawn {
                    pieces & !attacks[victim.index()].pawns
                } else {
                    pieces
                };
                for (term, attackers) in [
                    (idx::THREAT_BY_MINOR, ours.minors),
                    (idx::THREAT_BY_ROOK, ours.rooks),
                ] {
                    let count = (targets & attackers).count() as i32;
                    if count != 0 {
                        acc.add(term + role.index(), sign * count);
                    }
                }
            }
        }
    }
}

/// Adds `knight_on_queen` and `slider_on_queen` for `color` (see the
/// module doc): `held` is what the enemy protects strongly, `ours` and
/// `reached` the side's attacks.
fn queen_threats<V: Variant, A: TermSink>(
    pos: &Position<V>,
    color: Color,
    held: Bitboard,
    ours: &Attacks,
    reached: &[Bitboard; 7],
    sign: i32,
    acc: &mut A,
) {
    let b = pos.board();
    let queens = b.pieces(color.other(), Role::Queen);
    let Some(queen) = queens.first() else {
        return;
    };
    if queens.more_than_one() {
        return;
    }
    let weight = if b.role(Role::Queen).more_than_one() {
        1
    } else {
        2
    };
    let safe = !b.color(color) & !held;
    let occ = b.occupied();
    let knight = (reached[Role::Knight.index()] & knight_attacks(queen) & safe).count() as i32;
    if knight != 0 {
        acc.add(idx::KNIGHT_ON_QUEEN, sign * weight * knight);
    }
    let sliders = (reached[Role::Bishop.index()] & bishop_attacks_with::<V::Lookup>(queen, occ))
        | (reached[Role::Rook.index()] & rook_attacks_with::<V::Lookup>(queen, occ));
    let slider = (sliders & safe & ours.twice).count() as i32;
    if slider != 0 {
        acc.add(idx::SLIDER_ON_QUEEN, sign * weight * slider);
    }
}

/// The squares `color` protects strongly (Stockfish's `stronglyProtected`):
/// those its pawns attack and those it attacks twice where the other side
/// does not; `attacks` is indexed by colour and needs its `twice` sets.
fn strongly_protected(attacks: &[Attacks; 2], color: Color) -> Bitboard {
    let own = &attacks[color.index()];
    own.pawns | (own.twice & !attacks[color.other().index()].twice)
}

#[cfg(test)]
mod tests {
    use super::super::{features, idx};
    use movegen::variants::Chess;
    use movegen::{Position, Role};

    #[test]
    fn threats_count_for_the_attacker_by_victim() {
        // The white pawn on d4 attacks the black knight on e5 (defended by
        // the pawn on f6) and the black rook on c5 (defended by nothing):
        // two pawn threats, one hanging rook. The black bishop on h3 attacks
        // the white pawn on g2, which the king on f1 defends; it attacks
        // nothing else.
        let pos = Position::<Chess>::from_fen("4k3/8/5p2/2r1n3/3P4/7b/6P1/5K2 w - - 0 1").unwrap();
        let f = features(&pos);
        assert_eq!(f[idx::THREAT_BY_PAWN + Role::Knight.index()], 1);
        assert_eq!(f[idx::THREAT_BY_PAWN + Role::Rook.index()], 1);
        assert_eq!(f[idx::HANGING + Role::Rook.index()], 1);
        assert_eq!(f[idx::HANGING + Role::Knight.index()], 0);
        assert_eq!(f[idx::HANGING + Role::Pawn.index()], 0);
    }

    #[test]
    fn restricted_squares_count_what_both_attack_and_the_enemy_does_not_hold_strongly() {
        // White's rook on a4 and Black's rook on b8 both attack a8 and b4,
        // neither side twice: each side restricts the other on both, a
        // count of 2 - 2.
        let pos = Position::<Chess>::from_fen("1r5k/8/8/8/R7/8/8/4K3 w - - 0 1").unwrap();
        assert_eq!(features(&pos)[idx::RESTRICTED_PIECE], 0);
        // A black pawn on a5 blocks the a-file and guards b4: the one
        // square both attack is now strongly Black's, so only Black counts
        // it.
        let pos = Position::<Chess>::from_fen("1r5k/8/8/p7/R7/8/8/4K3 w - - 0 1").unwrap();
        assert_eq!(features(&pos)[idx::RESTRICTED_PIECE], -1);
    }

    #[test]
    fn weak_queen_protection_counts_attacked_pieces_only_the_queen_holds() {
        // White's rook on d1 attacks the black knight on d5, which only the
        // queen on d8 defends: one piece tied to the queen.
        let pos = Position::<Chess>::from_fen("3q3k/8/8/3n4/8/8/8/3R2K1 w - - 0 1").unwrap();
        assert_eq!(features(&pos)[idx::WEAK_QUEEN_PROTECTION], 1);
        // A pawn on e6 protects it strongly: the queen is free.
        let pos = Position::<Chess>::from_fen("3q3k/8/4p3/3n4/8/8/8/3R2K1 w - - 0 1").unwrap();
        assert_eq!(features(&pos)[idx::WEAK_QUEEN_PROTECTION], 0);
    }

    #[test]
    fn queen_threats_count_the_safe_squares_that_would_attack_the_queen() {
        // The knight on b1 reaches c3, a knight's move from the black queen
        // on d5 (a3 and d2 are not): one square, doubled as the queen is
        // the only one on the board.
        let pos = Position::<Chess>::from_fen("7k/8/8/3q4/8/8/8/KN6 w - - 0 1").unwrap();
        assert_eq!(features(&pos)[idx::KNIGHT_ON_QUEEN], 2);
        // With a white queen on h2 too, not doubled.
        let pos = Position::<Chess>::from_fen("7k/8/8/3q4/8/6Q1/8/KN6 w - - 0 1").unwrap();
        assert_eq!(features(&pos)[idx::KNIGHT_ON_QUEEN], 1);
        // The rook on a4 reaches a5 and d4 on the queen's lines, the bishop
        // on c2 b3 and e4 on her diagonals; only e4 is attacked twice (the
        // bishop and the rook along the fourth rank): one square, doubled.
        let pos = Position::<Chess>::from_fen("7k/8/8/3q4/R7/8/2B5/6K1 w - - 0 1").unwrap();
        assert_eq!(features(&pos)[idx::SLIDER_ON_QUEEN], 2);
        // A black pawn on f5 protects e4 strongly: no threat.
        let pos = Position::<Chess>::from_fen("7k/8/8/3q1p2/R7/8/2B5/6K1 w - - 0 1").unwrap();
        assert_eq!(features(&pos)[idx::SLIDER_ON_QUEEN], 0);
    }

    #[test]
    fn piece_threats_count_for_the_attacker_by_victim() {
        // White's knight on d5 attacks the black queen on c7 and the pawn on
        // b6 (which a7 defends: no target); White's rook on e1 attacks the
        // black bishop on e6. Black's bishop on e6 attacks the knight on d5,
        // and Black's rook on a8 attacks nothing.
        let pos = Position::<Chess>::from_fen("r3k3/p1q5/1p2b3/3N4/8/8/8/4RK2 w - - 0 1").unwrap();
        let f = features(&pos);
        assert_eq!(f[idx::THREAT_BY_MINOR + Role::Queen.index()], 1);
        assert_eq!(f[idx::THREAT_BY_MINOR + Role::Pawn.index()], 0);
        assert_eq!(f[idx::THREAT_BY_MINOR + Role::Knight.index()], -1);
        assert_eq!(f[idx::THREAT_BY_ROOK + Role::Bishop.index()], 1);
        assert_eq!(f[idx::THREAT_BY_ROOK + Role::Pawn.index()], 0);
    }
}
