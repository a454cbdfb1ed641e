//! Static exchange evaluation: what a capture wins or loses once every piece
//! that bears on its square has taken part in the exchange, each side
//! capturing with its least valuable piece and free to stop when going on
//! would lose more.
//!
//! It is meant for the games where an exchange means what it means in chess
//! (chess, threecheck, knightmate): in atomic a capture explodes the square
//! and in suicide and losers captures are forced, so the search never asks
//! there. The exchange is played on bitboards alone, in the swap-list form:
//! sliders behind a piece that has taken part join in (the occupancy shrinks),
//! pins and checks are ignored, and a pawn that recaptures on the last rank
//! stays a pawn; only the first move's own promotion counts. A royal piece is
//! worth more than anything it could win, so capturing with it when the other
//! side still has an attacker is never chosen.

use movegen::{Bitboard, Color, Move, Position, Role, Square, Variant};

/// Worth of a royal piece in an exchange: more than every other piece
/// together, so giving it up never pays.
const ROYAL_VALUE: i32 = 20_000;

/// A piece's worth in an exchange, in centipawns.
pub fn see_value(role: Role) -> i32 {
    match role {
        Role::Pawn => 100,
        Role::Knight | Role::Bishop => 300,
        Role::Commoner => 300,
        Role::Rook => 500,
        Role::Queen => 900,
        Role::King => ROYAL_VALUE,
    }
}

/// The least valuable of `attackers` (a non-empty set) and its role.
fn least_valuable<V: Variant>(pos: &Position<V>, attackers: Bitboard) -> Option<(Square, Role)> {
    const CHEAPEST_FIRST: [Role; 7] = [
        Role::Pawn,
        Role::Knight,
        Role::Bishop,
        Role::Commoner,
        Role::Rook,
        Role::Queen,
        Role::King,
    ];
    let b = pos.board();
    CHEAPEST_FIRST
        .iter()
        .find_map(|&role| (attackers & b.role(role)).first().map(|sq| (sq, role)))
}

/// The material the side to move wins (negative: loses) by playing the
/// capture or promotion `m` and the best exchange on its square after it.
/// A quiet move wins nothing (its promotion's gain if it promotes) and
/// loses what the exchange on its destination takes from it: 0 on a safe
/// square.
pub fn see<V: Variant>(pos: &Position<V>, m: Move) -> i32 {
    let b = pos.board();
    let (from, to) = (m.from(), m.to());
    let mut occupied = b.occupied().without(from);
    let victim = if m.is_en_passant() {
        occupied = occupied.without(Square::from_coords(to.file(), from.rank()));
        see_value(Role::Pawn)
    } else {
        b.role_at(to).map_or(0, see_value)
    };
    let mover = b.role_at(from).unwrap_or(Role::Pawn);
    let promotion_gain = m
        .promotion()
        .map_or(0, |r| see_value(r) - see_value(Role::Pawn));
    // gain[d]: what the side making the d-th capture has won if the
    // exchange stops right after it.
    // At most one capture per piece on the board: 32 after the first.
    let mut gain = [0i32; 33];
    gain[0] = victim + promotion_gain;
    let mut len = 1;
    let mut on_square = see_value(m.promotion().unwrap_or(mover));
    let mut side: Color = pos.turn().other();
    while len < gain.len() {
        let Some((sq, role)) = least_valuable(pos, pos.attackers_to(to, side, occupied) & occupied)
        else {
            break;
        };
        gain[len] = on_square - gain[len - 1];
        len += 1;
        on_square = see_value(role);
        occupied = occupied.without(sq);
        side = side.other();
    }
    // Each side may decline its capture: back up the choices.
    for d in (1..len).rev() {
        gain[d - 1] = -(-gain[d - 1]).max(gain[d]);
    }
    gain[0]
}

#[cfg(test)]
mod tests {
    use super::*;
    use movegen::variants::{Chess, Knightmate};

    /// The exchange of the move `uci` in `fen`: a legal move, or else the
    /// plain move between its squares (a king taking a defended piece).
    fn see_of<V: Variant>(fen: &str, uci: &str) -> i32 {
        let pos = Position::<V>::from_fen(fen).expect("valid FEN");
        let legal = pos.legal_moves().iter().find(|m| m.uci() == uci).copied();
        let m = legal.unwrap_or_else(|| {
            let square = |s: &str| Square::parse(s).expect("a square");
            Move::normal(square(&uci[..2]), square(&uci[2..4]))
        });
        see(&pos, m)
    }

    /// The exchange on `to` by recursion instead of a swap list: what `side`
    /// wins by going on when the piece on the square is worth `on_square`
    /// (0 if it stops).
    fn exchange<V: Variant>(
        pos: &Position<V>,
        to: Square,
        side: Color,
        occupied: Bitboard,
        on_square: i32,
    ) -> i32 {
        match least_valuable(pos, pos.attackers_to(to, side, occupied) & occupied) {
            None => 0,
            Some((sq, role)) => {
                let rest = exchange(pos, to, side.other(), occupied.without(sq), see_value(role));
                (on_square - rest).max(0)
            }
        }
    }

    /// The slow reference for `see`: the first capture is made, the rest
    /// of the exchange recursed.
    fn slow_see<V: Variant>(pos: &Position<V>, m: Move) -> i32 {
        let b = pos.board();
        let mut occupied = b.occupied().without(m.from());
        let victim = if m.is_en_passant() {
            occupied = occupied.without(Square::from_coords(m.to().file(), m.from().rank()));
            see_value(Role::Pawn)
        } else {
            b.role_at(m.to()).map_or(0, see_value)
        };
        let promotion_gain = m
            .promotion()
            .map_or(0, |r| see_value(r) - see_value(Role::Pawn));
        let mover = m.promotion().or(b.role_at(m.from())).unwrap_or(Role::Pawn);
        victim + promotion_gain
            - exchange(pos, m.to(), pos.turn().other(), occupied, see_value(mover))
    }

    #[test]
    fn the_swap_list_agrees_with_the_recursive_exchange_along_random_games() {
        let mut rng = movegen::SplitMix64::new(1);
        let mut captures = 0;
        for _game in 0..40 {
            let mut pos = Position::<Chess>::startpos();
            for _ply in 0..80 {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                for &m in moves.iter().filter(|&&m| pos.is_capture(m)) {
                    assert_eq!(
                        see(&pos, m),
                        slow_see(&pos, m),
                        "{} in {}",
                        m.uci(),
                        pos.fen()
                    );
                    captures += 1;
                }
                pos = pos.play_unchecked(moves[rng.below(moves.len())]);
            }
        }
        assert!(captures > 1000, "{captures} captures compared");
    }

    #[test]
    fn an_undefended_piece_is_won_whole() {
        assert_eq!(
            see_of::<Chess>("1k1r4/1pp4p/p7/4p3/8/P5P1/1PP4P/2K1R3 w - - 0 1", "e1e5"),
            100
        );
    }

    #[test]
    fn a_defended_pawn_taken_by_a_knight_loses_the_knight_for_it() {
        // Nxe5: the pawn is defended by the knight on d7 and the queen
        // behind; White's queen on e2 backs the knight: N for P, then the
        // exchange stops.
        assert_eq!(
            see_of::<Chess>(
                "1k1r3q/1ppn3p/p4b2/4p3/8/P2N2P1/1PP1R1BP/2K1Q3 w - - 0 1",
                "d3e5"
            ),
            100 - 300
        );
    }

    #[test]
    fn x_rays_join_the_exchange() {
        // Rxe5 with the queen behind the rook on the same file: the pawn on
        // e5 is defended once by the rook on e8; R takes P, R takes R, Q
        // takes R: White is a pawn up.
        assert_eq!(
            see_of::<Chess>("4r1k1/8/8/4p3/8/8/4R3/4Q1K1 w - - 0 1", "e2e5"),
            100
        );
        // Without the queen the rook is lost for the pawn.
        assert_eq!(
            see_of::<Chess>("4r1k1/8/8/4p3/8/8/4R3/6K1 w - - 0 1", "e2e5"),
            100 - 500
        );
    }

    #[test]
    fn a_side_stops_when_recapturing_would_lose_more() {
        // Qxd5 (defended by the pawn on e6): the queen is lost for a knight;
        // Black's pawn takes, and White does not go on.
        assert_eq!(
            see_of::<Chess>("6k1/8/4p3/3n4/8/8/8/3Q2K1 w - - 0 1", "d1d5"),
            300 - 900
        );
        // A pawn taking the knight wins it whatever follows.
        assert_eq!(
            see_of::<Chess>("6k1/8/4p3/3n4/4P3/8/8/3Q2K1 w - - 0 1", "e4d5"),
            300
        );
    }

    #[test]
    fn the_king_takes_only_what_is_not_defended() {
        // Kxe2 with a rook defending the pawn would leave the king taken:
        // the royal capture counts as losing everything.
        assert!(see_of::<Chess>("4r1k1/8/8/8/8/8/4p3/4K3 w - - 0 1", "e1e2") <= 100 - ROYAL_VALUE);
        assert_eq!(
            see_of::<Chess>("6k1/8/8/8/8/8/4p3/4K3 w - - 0 1", "e1e2"),
            100
        );
    }

    #[test]
    fn en_passant_and_promotions_count_what_they_win() {
        // exd6 e.p.: the pawn is defended by the c7 pawn: P for P.
        assert_eq!(
            see_of::<Chess>("6k1/2p5/8/3pP3/8/8/8/6K1 w - d6 0 1", "e5d6"),
            0
        );
        // a8=Q with nothing defending the square: the promotion's gain.
        assert_eq!(
            see_of::<Chess>("6k1/P7/8/8/8/8/8/6K1 w - - 0 1", "a7a8q"),
            800
        );
        // a8=Q next to a rook on b8 that takes it back.
        assert_eq!(
            see_of::<Chess>("1r4k1/P7/8/8/8/8/8/6K1 w - - 0 1", "a7a8q"),
            800 - 900
        );
        // A quiet move wins nothing.
        assert_eq!(see_of::<Chess>("6k1/8/8/8/8/8/8/R5K1 w - - 0 1", "a1a5"), 0);
    }

    #[test]
    fn knightmate_pieces_attack_as_they_move() {
        // Knightmate: a commoner (M, moving like a king) on d4 takes a
        // pawn on e5 that a bishop on g7 defends: M for P.
        assert_eq!(
            see_of::<Knightmate>("6k1/6b1/8/4p3/3M4/8/8/K7 w - - 0 1", "d4e5"),
            100 - 300
        );
    }
}
