//! Suicide (giveaway): the side that loses every piece, or is left without a
//! move, wins; captures are forced. What wins is having few pieces and
//! leaving the opponent few choices, not the value of what is left, so these
//! terms beside the common ones (whose material already counts against its
//! owner here):
//!
//! - piece count: every piece, whatever its kind, counted against its owner,
//!   beside material (with equal material weights material itself would come
//!   to a count; this term lets the tuner weigh count and value apart);
//! - legal mobility of both sides: the number of legal moves (a forced
//!   capture leaves only the captures) of each side, the mover's and the
//!   opponent's, so a position where the opponent has one move, the forced
//!   capture, reads as near to a forced line.
//!
//! - forced mobility: the same two counts taken from the pieces' attack
//!   sets instead of two move generations (each side's captures if it has
//!   any, else its quiet moves), so that a game can have the signal at the
//!   price of one pass over the pieces. It is exact where no pawn stands
//!   to promote, no en passant or castling is possible and (in losers) no
//!   king is in check or pinned (the test below holds it to the legal count
//!   in suicide's positions of that kind); elsewhere it is an estimate.
//!
//! - offer squares: the empty squares each side can move to that the
//!   opponent attacks, each a way to force a capture on the opponent
//!   (Fairy-Stockfish's must-capture threat bonus), counted from the same
//!   attack sets.
//!
//! - forced capture: a side that attacks an enemy piece must take one on
//!   its turn, by the number of its targets (0 to 3 and more) the opponent
//!   can recapture on (Fairy-Stockfish's must-capture penalty), from the
//!   same attack sets and the squares each side attacks twice.
//!
//! Suicide's defaults are 50 per piece and 60 per legal move: 100 and 10
//! were +98 Elo over the evaluation without them, then 20 per move +46 over
//! 10, 40 +110 over 20, 50 per piece +15 over 100, each H1 (80 per move
//! undecided at +7, 200 per piece H0 at -45), and the forced capture at
//! Fairy-Stockfish's scale, 1000 / (1 + n) (+18 Elo, H1; half that scale
//! H0 at -6), and beside it the offer squares, 100 per square (+14 Elo,
//! H1; 50 without the forced capture undecided at 0), then 200 (+13 over
//! 100, H1), beside those 60 per legal move (+13 over 40, H1; 80 H0), and
//! then 300 per offer square (+13 over 200, H1), data/sprt/log.csv.
//!
//! Losers takes the forced mobility alone, 160 per move (10 was +47 Elo at
//! 2+0.02, H1, where the legal-move counts gained as much at equal nodes and
//! nothing on the clock; 20 then +72 over 10, 40 +150 over 20, 80 +97 over
//! 40, 160 +55 over 80; 320 undecided at +12, 240 at -8), and chess's piece
//! values at a quarter (half +32 Elo over whole, quarter +17 over half),
//! data/sprt/log.csv.

use super::threats::Attacks;
use super::{group, idx, TermSink};
use movegen::attacks::pawn_attacks;
use movegen::{Bitboard, Color, Position, Role, Variant};

/// Adds the suicide terms of `pos` to `acc` (White's view); `forced` holds
/// each side's forced moves (by colour) as `eval_terms` counted them on its
/// walk over the pieces, read only when the forced mobility is wanted.
pub(super) fn terms<V: Variant, A: TermSink>(
    pos: &Position<V>,
    forced: &[ForcedMoves; 2],
    acc: &mut A,
) {
    let b = pos.board();
    let pieces = |c: Color| b.color(c).count() as i32;
    let count = pieces(Color::White) - pieces(Color::Black);
    if count != 0 {
        acc.add(idx::PIECE_COUNT, -count);
    }
    if acc.wants(group::FORCED_MOBILITY) {
        let [white, black] = forced.map(ForcedMoves::count);
        if white != black {
            acc.add(idx::FORCED_MOBILITY, white - black);
        }
    }
    // Two move generations: not when the weight is 0 (losers' default).
    if !acc.wants(group::LEGAL_MOBILITY) {
        return;
    }
    // The side not to move's moves: its position after a pass (suicide has
    // no check, so a pass is refused only when the game is over; in losers
    // a side in check cannot pass and the other side's count is 0).
    let mover = pos.count_legal() as i32;
    let waiting = pos.play_null().map_or(0, |p| p.count_legal() as i32);
    let mobility = if pos.turn().is_white() {
        mover - waiting
    } else {
        waiting - mover
    };
    if mobility != 0 {
        acc.add(idx::LEGAL_MOBILITY, mobility);
    }
}

/// The moves one side would have under the forced-capture rule, counted
/// from attack sets: its captures if it has any, else its quiet moves (a
/// promotion counts once, en passant and castling not at all; in losers the
/// enemy king is no target and checks and pins are not looked at). The
/// pawns are counted at creation; each other piece's attack set is added by
/// the caller that computes it anyway (`eval_terms`' walk over the pieces),
/// so that the term costs no second pass over the attacks.
#[derive(Clone, Copy, Debug)]
pub(super) struct ForcedMoves {
    targets: Bitboard,
    empty: Bitboard,
    captures: u32,
    quiets: u32,
}

impl ForcedMoves {
    /// No moves and no targets: the placeholder where the term is not wanted.
    pub(super) const NONE: ForcedMoves = ForcedMoves {
        targets: Bitboard(0),
        empty: Bitboard(0),
        captures: 0,
        quiets: 0,
    };

    /// `color`'s pawn moves, and what its other pieces may capture.
    pub(super) fn new<V: Variant>(pos: &Position<V>, color: Color) -> Self {
        let b = pos.board();
        let empty = !b.occupied();
        let targets = capture_targets(pos, color);
        let pawns = b.pieces(color, Role::Pawn);
        let mut captures = 0;
        for sq in pawns {
            captures += (pawn_attacks(color, sq) & targets).count();
        }
        // One square per push: a double push lands where no single push can.
        let quiets = pawn_push_squares(pawns, color, empty).count();
        ForcedMoves {
            targets,
            empty,
            captures,
            quiets,
        }
    }

    /// Adds the moves of a piece other than a pawn, given its attack set.
    #[inline]
    pub(super) fn add_piece(&mut self, attacks: Bitboard) {
        self.captures += (attacks & self.targets).count();
        self.quiets += (attacks & self.empty).count();
    }

    /// The captures if there are any, else the quiet moves.
    pub(super) fn count(self) -> i32 {
        if self.captures > 0 {
            self.captures as i32
        } else {
            self.quiets as i32
        }
    }
}

/// The empty squares `color` can move to that the opponent attacks: each is
/// a move that forces the opponent to capture (Fairy-Stockfish's bonus "if
/// we threaten to force captures"). `reached` holds the attack sets of
/// `color`'s pieces by role, as `eval_terms` gathered them; a
/// pawn offers on its pushes. In losers the king cannot step into an
/// attack, so its moves are left out; in suicide it is an ordinary piece.
pub(super) fn offer_squares<V: Variant>(
    pos: &Position<V>,
    color: Color,
    reached: &[Bitboard; 7],
    their_attacks: Bitboard,
) -> i32 {
    let b = pos.board();
    let empty = !b.occupied();
    let mut to = pawn_push_squares(b.pieces(color, Role::Pawn), color, empty);
    for role in Role::ALL {
        if role != Role::Pawn && !(V::ROYAL && role == Role::King) {
            to |= reached[role.index()];
        }
    }
    (to & empty & their_attacks).count() as i32
}

/// The forced capture: each side that attacks an enemy piece must capture
/// when its turn comes, and a capture not answered by a recapture only adds
/// to its pieces, so the term is counted for that side once, in the row of
/// the number of its targets (up to 3) that the opponent defends and it
/// does not attack twice: the captures the opponent can answer in kind
/// (Fairy-Stockfish's must-capture penalty, 2000 / (1 + that number)).
/// In losers the enemy king is no target (an attack on it is a check).
pub(super) fn forced_capture<V: Variant, A: TermSink>(
    pos: &Position<V>,
    attacks: &[Attacks; 2],
    acc: &mut A,
) {
    for color in Color::ALL {
        let sign = if color.is_white() { 1 } else { -1 };
        let ours = &attacks[color.index()];
        let targets = ours.all & capture_targets(pos, color);
        if targets.is_empty() {
            continue;
        }
        let answered = targets & attacks[color.other().index()].all & !ours.twice;
        acc.add(
            idx::FORCED_CAPTURE + (answered.count() as usize).min(3),
            sign,
        );
    }
}

/// The pieces `color` may capture: every enemy piece, but the king where it
/// is royal (losers: an attack on it is a check).
fn capture_targets<V: Variant>(pos: &Position<V>, color: Color) -> Bitboard {
    let b = pos.board();
    let mut targets = b.color(color.other());
    if V::ROYAL {
        targets &= !b.pieces(color.other(), Role::King);
    }
    targets
}

/// The squares `color`'s `pawns` can push to over `empty` squares: one step,
/// and two from their starting rank.
fn pawn_push_squares(pawns: Bitboard, color: Color, empty: Bitboard) -> Bitboard {
    let white = color.is_white();
    let single = pawns.shift_up(white) & empty;
    let double_rank = Bitboard::rank(if white { 2 } else { 5 });
    single | ((single & double_rank).shift_up(white) & empty)
}

#[cfg(test)]
mod tests {
    use super::super::{features, idx};
    use movegen::variants::{Losers, Suicide};
    use movegen::{Bitboard, Color, Position, Role, SplitMix64};

    #[test]
    fn piece_count_and_both_sides_legal_moves() {
        // White: rook a1 and pawn h2; Black: knight b8. White to move has no
        // capture: rook 14 moves, pawn 2. Black after a pass: knight 3 moves.
        let pos = Position::<Suicide>::from_fen("1n6/8/8/8/8/8/7P/R7 w - - 0 1").unwrap();
        let f = features(&pos);
        assert_eq!(f[idx::PIECE_COUNT], -(2 - 1));
        assert_eq!(pos.count_legal(), 16);
        assert_eq!(f[idx::LEGAL_MOBILITY], 16 - 3);
        // Black to move: the same counts from the other side.
        let pos = Position::<Suicide>::from_fen("1n6/8/8/8/8/8/7P/R7 b - - 0 1").unwrap();
        assert_eq!(features(&pos)[idx::LEGAL_MOBILITY], 16 - 3);
        // A forced capture leaves the mover one move: rook a1 takes the
        // knight on a8.
        let pos = Position::<Suicide>::from_fen("n7/8/8/8/8/8/7P/R7 w - - 0 1").unwrap();
        assert_eq!(features(&pos)[idx::LEGAL_MOBILITY], 1 - 2);
    }

    /// The positions of 40 pseudo-random suicide games of at most 120 plies
    /// from the start (each with a move to play), the moves drawn from `seed`.
    fn playout_positions(seed: u64) -> Vec<Position<Suicide>> {
        let mut rng = SplitMix64::new(seed);
        let mut positions = Vec::new();
        for _ in 0..40 {
            let mut pos = Position::<Suicide>::default();
            for _ in 0..120 {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                let m = moves[rng.below(moves.len())];
                let next = pos.play(m).unwrap();
                positions.push(std::mem::replace(&mut pos, next));
            }
        }
        positions
    }

    /// Where no pawn stands to promote and neither en passant nor castling
    /// is possible (and suicide has no check), the counts from attack sets
    /// are the legal counts: the forced mobility equals the legal mobility
    /// (the mover's legal moves and the waiting side's after a pass) over the
    /// positions of pseudo-random games.
    #[test]
    fn forced_moves_are_the_legal_moves_where_the_shortcuts_hold() {
        let (mut checked, mut nonzero) = (0, 0);
        for pos in playout_positions(1) {
            let b = pos.board();
            let about_to_promote = (b.pieces(Color::White, Role::Pawn) & Bitboard::rank(6))
                | (b.pieces(Color::Black, Role::Pawn) & Bitboard::rank(1));
            if about_to_promote.is_empty()
                && pos.ep_square().is_none()
                && pos.castling_rights() == 0
            {
                let f = features(&pos);
                assert_eq!(
                    f[idx::FORCED_MOBILITY],
                    f[idx::LEGAL_MOBILITY],
                    "{}",
                    pos.fen()
                );
                checked += 1;
                nonzero += i32::from(f[idx::LEGAL_MOBILITY] != 0);
            }
        }
        assert!(checked > 1000, "only {checked} positions checked");
        assert!(nonzero > checked / 2, "only {nonzero} uneven positions");
    }

    /// The offer squares against a slow reference: over the positions of
    /// pseudo-random games where neither side can capture or castle (so
    /// every legal move is quiet), the destinations of each side's legal
    /// moves (the waiting side's after a pass) that an enemy piece attacks.
    #[test]
    fn offer_squares_are_the_attacked_destinations_of_quiet_moves() {
        let quiet = |p: &Position<Suicide>| p.legal_moves().iter().all(|&m| !p.is_capture(m));
        // The offer squares: the destinations an enemy piece attacks.
        let offers = |p: &Position<Suicide>| {
            let occ = p.board().occupied();
            let them = p.turn().other();
            let to = p
                .legal_moves()
                .iter()
                .fold(Bitboard(0), |to, m| to | Bitboard::from_square(m.to()));
            to.filter(|&sq| p.attackers_to(sq, them, occ).any()).count() as i32
        };
        let (mut checked, mut nonzero) = (0, 0);
        for pos in playout_positions(2) {
            let waiting = pos.play_null().expect("a pass in a game not over");
            if pos.castling_rights() == 0 && quiet(&pos) && quiet(&waiting) {
                let (white, black) = if pos.turn().is_white() {
                    (offers(&pos), offers(&waiting))
                } else {
                    (offers(&waiting), offers(&pos))
                };
                let f = features(&pos);
                assert_eq!(f[idx::OFFER_SQUARES], white - black, "{}", pos.fen());
                checked += 1;
                nonzero += i32::from(white != black);
            }
        }
        assert!(checked > 200, "only {checked} positions checked");
        assert!(
            nonzero > checked / 4,
            "only {nonzero} uneven positions of {checked}"
        );
    }

    #[test]
    fn offer_squares_leave_out_the_losers_king() {
        // Losers: White king e1, knight b1; Black king a8, pawn d7, rook h2
        // (along the second rank). The knight's a3, c3, d2: d2 is attacked;
        // the king's d2, e2, f2 are left out (it cannot step into an
        // attack). Black's: the pawn's d6 and d5 are not attacked; of the
        // rook's squares White's knight and king attack d2, e2 and f2.
        let pos = Position::<Losers>::from_fen("k7/3p4/8/8/8/8/7r/1N2K3 w - - 0 1").unwrap();
        let f = features(&pos);
        assert_eq!(f[idx::OFFER_SQUARES], 1 - 3);
    }

    #[test]
    fn forced_capture_rows_count_the_targets_the_opponent_can_retake() {
        // Square by square: the enemy pieces a side attacks, and of those
        // the ones their side defends and it attacks only once.
        let rows = |p: &Position<Suicide>| {
            let b = p.board();
            let occ = b.occupied();
            let mut rows = [0i32; 4];
            for color in Color::ALL {
                let them = color.other();
                let targets: Vec<_> = b
                    .color(them)
                    .filter(|&sq| p.attackers_to(sq, color, occ).any())
                    .collect();
                if targets.is_empty() {
                    continue;
                }
                let answered = targets
                    .into_iter()
                    .filter(|&sq| {
                        p.attackers_to(sq, them, occ).any()
                            && p.attackers_to(sq, color, occ).count() < 2
                    })
                    .count();
                rows[answered.min(3)] += if color.is_white() { 1 } else { -1 };
            }
            rows
        };
        let (mut checked, mut answered) = (0, 0);
        for pos in playout_positions(3) {
            let f = features(&pos);
            let expected = rows(&pos);
            assert_eq!(
                f[idx::FORCED_CAPTURE..idx::FORCED_CAPTURE + 4],
                expected,
                "{}",
                pos.fen()
            );
            checked += 1;
            answered += i32::from(expected[1..].iter().any(|&r| r != 0));
        }
        assert!(answered > checked / 10, "only {answered} of {checked}");
        // Losers (White king e3): White's rook on a1 attacks only the king
        // on a8 (a check, no target): no row. Black's rook on h1 attacks the
        // knight on b1, which White's rook would retake: Black's row 1.
        let pos = Position::<Losers>::from_fen("k7/8/8/8/8/4K3/8/RN5r b - - 0 1").unwrap();
        let f = features(&pos);
        assert_eq!(
            f[idx::FORCED_CAPTURE..idx::FORCED_CAPTURE + 4],
            [0, -1, 0, 0]
        );
    }

    #[test]
    fn forced_mobility_is_white_minus_black() {
        // White: rook a1, pawn h2 (no capture: 14 + 2 moves); Black: knight
        // a8 (no capture: b6, c7). With the knight on b8 instead, the rook
        // captures nothing either; on a8 the rook's file hits it: one move.
        let pos = Position::<Suicide>::from_fen("1n6/8/8/8/8/8/7P/R7 w - - 0 1").unwrap();
        assert_eq!(features(&pos)[idx::FORCED_MOBILITY], 16 - 3);
        let pos = Position::<Suicide>::from_fen("n7/8/8/8/8/8/7P/R7 w - - 0 1").unwrap();
        assert_eq!(features(&pos)[idx::FORCED_MOBILITY], 1 - 2);
    }
}
