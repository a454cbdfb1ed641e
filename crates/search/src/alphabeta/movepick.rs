//! Move ordering: the table's move, captures by victim and attacker (with
//! the capture history's term) and promotions, the killers, then quiet
//! moves by history and continuation history (in suicide
//! and losers, with `offer_order_bonus`, the quiet moves that leave a piece
//! capturable first among them), and last, with `see_ordering`, the
//! captures that lose their exchange. The whole list is scored and sorted
//! at once: the bands of the scores are laid out here and checked at
//! compile time.

use super::history::{moved_piece_to, HistoryTables};
use super::thread::Worker;
use crate::see::see;
use movegen::{Color, Move, MoveList, Position, Role, Variant};

/// Ordering value of a piece (victim or attacker).
const fn order_value(role: Role) -> i32 {
    match role {
        Role::Pawn => 1,
        Role::Knight | Role::Bishop => 3,
        Role::Commoner => 4,
        Role::Rook => 5,
        Role::Queen => 9,
        Role::King => 10,
    }
}

/// The role the capture `m` takes (a pawn for en passant).
#[inline]
pub(crate) fn captured_role<V: Variant>(pos: &Position<V>, m: Move) -> Role {
    if m.is_en_passant() {
        Role::Pawn
    } else {
        pos.board().role_at(m.to()).unwrap_or(Role::Pawn)
    }
}

/// Factor of the victim-and-attacker order of a capture, so that the
/// capture history's term ([`CAPTURE_HISTORY_SPAN`]) fits between its steps.
const MVV_LVA_SCALE: i32 = 1024;

/// Largest magnitude of a capture's history term in its ordering score
/// (`capture_history`): one victim step of the victim-and-attacker order.
const CAPTURE_HISTORY_SPAN: i32 = 64 * MVV_LVA_SCALE;

/// Ordering score of a capture (most valuable victim, then least valuable
/// attacker, above 2^24, in steps of [`MVV_LVA_SCALE`]) or a promotion (by
/// the piece, above 2^23); `None` for a quiet move.
pub(crate) fn tactical_order<V: Variant>(pos: &Position<V>, m: Move) -> Option<i32> {
    if pos.is_capture(m) {
        let victim = captured_role(pos, m);
        let attacker = pos.board().role_at(m.from()).unwrap_or(Role::Pawn);
        Some((1 << 24) + (order_value(victim) * 64 - order_value(attacker)) * MVV_LVA_SCALE)
    } else {
        m.promotion().map(|r| (1 << 23) + order_value(r))
    }
}

/// `true` if the quiet move `m` leaves its piece where the opponent can
/// capture it (counted with the moving piece off its square, so a slider
/// behind it sees through): in suicide and losers, a move that forces the
/// opponent's reply to be a capture.
#[inline]
fn offers_capture<V: Variant>(pos: &Position<V>, m: Move) -> bool {
    let occupied = pos.board().occupied().without(m.from()).with(m.to());
    pos.attackers_to(m.to(), pos.turn().other(), occupied).any()
}

/// The game's captures mean what they mean in chess, so a static exchange
/// evaluation says what one wins: not in atomic (a capture explodes the
/// square) nor in suicide and losers (captures are forced).
pub(crate) const fn exchanges_are_chess_like<V: Variant>() -> bool {
    !V::ATOMIC && !V::MUST_CAPTURE
}

/// Ordering score of the table's move, above every other.
pub(crate) const TT_MOVE_ORDER: i32 = 1 << 30;

/// Below every quiet move's ordering score (history is at least minus its
/// cap, under 2^22): where captures that lose their exchange go
/// (`see_ordering`), still by victim and attacker (and capture history)
/// among themselves.
const BAD_CAPTURE_ORDER: i32 = -(1 << 23) - (1 << 24);
/// Every ordering score below this is a capture that loses its exchange
/// (`see_ordering`): quiet moves' scores are at least minus the history cap.
pub(crate) const BAD_CAPTURE_BOUND: i32 = -(1 << 22);

/// Highest ordering score of a quiet move that is not a killer (the two
/// killers take scores above it).
const QUIET_ORDER_MAX: i32 = (1 << 22) - 3;

// Quiescence reads a capture's SEE from its sign after ordering: a losing
// capture's score (even a king taking a queen's, with the largest capture
// history) stays negative, and below every quiet move's.
const _: () = assert!(
    (1 << 24)
        + order_value(Role::King) * 64 * MVV_LVA_SCALE
        + CAPTURE_HISTORY_SPAN
        + BAD_CAPTURE_ORDER
        < BAD_CAPTURE_BOUND
);
// A winning capture (a king taking a pawn, with the lowest capture history)
// stays above the promotions and the killers.
const _: () = assert!(
    (1 << 24) + (order_value(Role::Pawn) * 64 - order_value(Role::King)) * MVV_LVA_SCALE
        - CAPTURE_HISTORY_SPAN
        > (1 << 23) + order_value(Role::Queen)
);

impl<V: Variant> Worker<'_, V> {
    /// The offsets in the continuation table of the moves one and two plies
    /// before a node at `ply` of the main search (none for a null move,
    /// before the root, or with `continuation_history` off).
    pub(crate) fn continuation_offsets(&self, ply: usize) -> [Option<usize>; 2] {
        let back = |n: usize| {
            ply.checked_sub(n)
                .and_then(|p| self.td.stack[p].played_piece_to)
                .map(|pt| pt * super::history::PIECE_TO)
        };
        [back(1), back(2)]
    }

    /// The capture history's term in the ordering score of the capture `m`
    /// by `us`: its score scaled from plus or minus the cap to plus or minus
    /// [`CAPTURE_HISTORY_SPAN`] (0 with `capture_history` off).
    #[inline]
    fn capture_order(&self, pos: &Position<V>, us: Color, m: Move) -> i32 {
        let table = &self.td.hist.capture;
        if table.is_empty() {
            return 0;
        }
        let h = i64::from(table[HistoryTables::capture_index(pos, us, m)]);
        let scaled = h * i64::from(CAPTURE_HISTORY_SPAN) / i64::from(self.settings.history_max);
        scaled.clamp(
            -i64::from(CAPTURE_HISTORY_SPAN),
            i64::from(CAPTURE_HISTORY_SPAN),
        ) as i32
    }

    /// Ordering score of the quiet move `m` by `us`: its history, plus its
    /// continuation entries after the moves at `cont` when there are any,
    /// kept below the killers and above the losing captures.
    #[inline]
    pub(crate) fn quiet_order(
        &self,
        pos: &Position<V>,
        us: Color,
        m: Move,
        cont: [Option<usize>; 2],
    ) -> i32 {
        let hist = &self.td.hist;
        let h = hist.history[HistoryTables::history_index(us, m)];
        if cont == [None, None] {
            return h;
        }
        let pt = moved_piece_to(pos, us, m);
        let c: i32 = cont
            .iter()
            .flatten()
            .map(|&o| hist.continuation[o + pt])
            .sum();
        (h + c).clamp(-(1 << 22), QUIET_ORDER_MAX)
    }

    /// Moves in search order: the table's move, captures (by victim and
    /// attacker, with `capture_history` plus its term) and promotions, the
    /// killers of `ply`, then quiet moves by
    /// history and, with `cont` (from [`Self::continuation_offsets`]), the
    /// continuation history (and last, with `see_ordering`, the captures
    /// that lose their exchange).
    pub(crate) fn order_moves(
        &self,
        pos: &Position<V>,
        moves: &MoveList,
        tt_move: Option<Move>,
        ply: usize,
        cont: [Option<usize>; 2],
    ) -> Vec<(i32, Move)> {
        let us = pos.turn();
        let see_ordering = exchanges_are_chess_like::<V>() && self.settings.see_ordering != 0;
        let offer_bonus = if V::MUST_CAPTURE {
            self.settings.offer_order_bonus
        } else {
            0
        };
        let killers = self.td.stack[ply].killers;
        let mut scored: Vec<(i32, Move)> = moves
            .iter()
            .map(|&m| {
                let s = if Some(m) == tt_move {
                    TT_MOVE_ORDER
                } else if let Some(s) = tactical_order(pos, m) {
                    let s = if pos.is_capture(m) {
                        s + self.capture_order(pos, us, m)
                    } else {
                        s
                    };
                    if see_ordering && pos.is_capture(m) && see(pos, m) < 0 {
                        s + BAD_CAPTURE_ORDER
                    } else {
                        s
                    }
                } else if killers[0] == Some(m) {
                    1 << 22
                } else if killers[1] == Some(m) {
                    (1 << 22) - 1
                } else if offer_bonus != 0 && offers_capture(pos, m) {
                    (self.quiet_order(pos, us, m, cont) + offer_bonus).min(QUIET_ORDER_MAX)
                } else {
                    self.quiet_order(pos, us, m, cont)
                };
                (s, m)
            })
            .collect();
        scored.sort_unstable_by_key(|s| std::cmp::Reverse(s.0));
        scored
    }
}
