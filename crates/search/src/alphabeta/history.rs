//! The history tables: what a thread learns from the cutoffs of its
//! searches, to order (and prune) the moves of the next nodes, and from the
//! errors of its static evaluation, to correct it. The butterfly history
//! (by side, from and to squares), the continuation history (by the pieces and
//! destinations of a move and of a quiet move one or two plies after it),
//! the capture history (by moving piece, destination and captured role)
//! and the correction history (by pawn structure). The killers are per ply
//! and live on the stack ([`super::stack`]).
//!
//! The tables are part of a thread's persistent state
//! ([`super::thread::ThreadData`]): aged in place between the searches of
//! a game ([`HistoryTables::age`]), cleared at a new game. A table whose
//! switch is off is empty, and the code that reads it checks for that.

use super::movepick::captured_role;
use crate::params::SearchParams;
use crate::score::MATE_BOUND;
use movegen::{Color, Move, Position, Role, Square, Variant};

/// Entries of the correction history per side to move
/// (`correction_history`), a power of two.
pub(crate) const CORRECTION_ENTRIES: usize = 1 << 14;

/// A correction entry is centipawns times this (so a small weight moves it).
pub(crate) const CORRECTION_GRAIN: i64 = 256;

/// Entries of one side of the continuation table: a (piece of either
/// colour, destination) pair.
pub(crate) const PIECE_TO: usize = 2 * Role::ALL.len() * 64;

/// A move that cut off: the node's position `pos`, its side to move `us`,
/// the move `m` and the depth it was searched to. What each table learns
/// from is the same cutoff.
#[derive(Clone, Copy)]
pub struct Cutoff<'a, V: Variant> {
    pub pos: &'a Position<V>,
    pub us: Color,
    pub m: Move,
    pub depth: i32,
}

/// Entries of the butterfly history.
const BUTTERFLY: usize = 2 * 64 * 64;

/// The correction history's index of `pos`: its side to move and a hash of
/// both sides' pawns (the structure whose errors the evaluation repeats).
#[inline]
pub(crate) fn correction_index<V: Variant>(pos: &Position<V>) -> usize {
    let b = pos.board();
    let pawns = b.role(Role::Pawn);
    let white = (pawns & b.color(Color::White)).0;
    let black = (pawns & b.color(Color::Black)).0;
    let mut h =
        white.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ black.wrapping_mul(0xC2B2_AE3D_27D4_EB4F);
    h ^= h >> 31;
    h = h.wrapping_mul(0xFF51_AFD7_ED55_8CCD);
    let slot = (h >> (64 - CORRECTION_ENTRIES.trailing_zeros())) as usize;
    slot * 2 + pos.turn().index()
}

/// The continuation table's index of a move to `to` by `us`'s `role`.
#[inline]
pub(crate) fn piece_to(us: Color, role: Role, to: Square) -> usize {
    (us.index() * Role::ALL.len() + role.index()) * 64 + to.index()
}

/// [`piece_to`] of the move `m` by `us` in `pos` (the piece that moves, as
/// it stands before a promotion; castling is the king's move).
#[inline]
pub(crate) fn moved_piece_to<V: Variant>(pos: &Position<V>, us: Color, m: Move) -> usize {
    let role = pos.board().role_at(m.from()).unwrap_or(Role::Pawn);
    piece_to(us, role, m.to())
}

/// Moves the history score `h` towards plus or minus `limit` by `bonus`
/// with gravity, `h += bonus - h * |bonus| / limit` (Stockfish's
/// `StatsEntry::operator<<`): with `|bonus| <= limit` a score within plus or
/// minus the limit stays there, and the closer it is to the bound the less
/// it moves.
#[inline]
pub(crate) fn gravity(h: &mut i32, bonus: i32, limit: i32) {
    let (old, b, l) = (i64::from(*h), i64::from(bonus), i64::from(limit.max(1)));
    *h = (old + b - old * b.abs() / l).clamp(-l, l) as i32;
}

/// A thread's history tables.
#[derive(Clone, Debug, Default)]
pub(crate) struct HistoryTables {
    /// Butterfly history, at [`HistoryTables::history_index`].
    pub history: Vec<i32>,
    /// Continuation history (`continuation_history`; empty when off): for
    /// each (piece, destination) of an earlier move of the path, a score
    /// for each (piece, destination) of a quiet move played one or two
    /// plies after it, indexed by [`piece_to`] as `earlier * PIECE_TO +
    /// this`.
    pub continuation: Vec<i32>,
    /// Capture history (`capture_history`; empty when off): a score for
    /// each capture by its moving piece and destination ([`piece_to`]) and
    /// the role it takes, at `piece_to * Role::ALL.len() + role`.
    pub capture: Vec<i32>,
    /// Correction history (`correction_history`; empty when off): by
    /// [`correction_index`], the running average of the searches' error
    /// against the static evaluation, in centipawns times
    /// [`CORRECTION_GRAIN`].
    pub correction: Vec<i32>,
}

/// Makes `table` `len` long, as a new table is (all `fill`) if it was not.
fn size_table<T: Copy>(table: &mut Vec<T>, len: usize, fill: T) {
    if table.len() != len {
        *table = vec![fill; len];
    }
}

impl HistoryTables {
    /// Sizes each table for `settings` (empty where its switch is off); a
    /// table whose size changes starts anew.
    pub fn size_for(&mut self, settings: &SearchParams) {
        let on = |switch: i32, len: usize| if switch != 0 { len } else { 0 };
        size_table(&mut self.history, BUTTERFLY, 0);
        let cont = on(settings.continuation_history, PIECE_TO * PIECE_TO);
        size_table(&mut self.continuation, cont, 0);
        let capture = on(settings.capture_history, PIECE_TO * Role::ALL.len());
        size_table(&mut self.capture, capture, 0);
        let correction = on(settings.correction_history, 2 * CORRECTION_ENTRIES);
        size_table(&mut self.correction, correction, 0);
    }

    /// Forgets everything (a new game).
    pub fn clear(&mut self) {
        self.history.fill(0);
        self.continuation.fill(0);
        self.capture.fill(0);
        self.correction.fill(0);
    }

    /// Ages the tables for the next search of the game: the histories
    /// halved (older evidence counts less), the corrections (averages
    /// already) kept as they are.
    pub fn age(&mut self) {
        for h in self
            .history
            .iter_mut()
            .chain(&mut self.continuation)
            .chain(&mut self.capture)
        {
            *h /= 2;
        }
    }

    /// The butterfly history's index of the move `m` by `color`.
    #[inline]
    pub fn history_index(color: Color, m: Move) -> usize {
        color.index() * 4096 + m.from().index() * 64 + m.to().index()
    }

    /// The index in `capture` of the capture `m` by `us`.
    #[inline]
    pub fn capture_index<V: Variant>(pos: &Position<V>, us: Color, m: Move) -> usize {
        moved_piece_to(pos, us, m) * Role::ALL.len() + captured_role(pos, m).index()
    }

    /// Learns from the quiet move of the cutoff `cut` after the quiet moves
    /// `tried` did not cut off: its history and continuation entries after
    /// the moves at `cont` rise, and with `history_gravity` those of `tried`
    /// fall (without it the cutoff move's rise by the depth squared,
    /// saturating at `history_max`).
    pub fn reward_quiet<V: Variant>(
        &mut self,
        sp: &SearchParams,
        cut: &Cutoff<'_, V>,
        tried: &[Move],
        cont: [Option<usize>; 2],
    ) {
        let Cutoff { pos, us, m, depth } = *cut;
        let cut_piece_to = moved_piece_to(pos, us, m);
        if sp.history_gravity != 0 {
            let (bonus, limit) = (sp.history_bonus(depth), sp.history_max);
            gravity(&mut self.history[Self::history_index(us, m)], bonus, limit);
            for &q in tried {
                gravity(&mut self.history[Self::history_index(us, q)], -bonus, limit);
            }
            for offset in cont.into_iter().flatten() {
                gravity(&mut self.continuation[offset + cut_piece_to], bonus, limit);
                for &q in tried {
                    let i = offset + moved_piece_to(pos, us, q);
                    gravity(&mut self.continuation[i], -bonus, limit);
                }
            }
            return;
        }
        let h = &mut self.history[Self::history_index(us, m)];
        *h = (*h + depth * depth).min(sp.history_max);
        for offset in cont.into_iter().flatten() {
            let c = &mut self.continuation[offset + cut_piece_to];
            *c = (*c + depth * depth).min(sp.history_max);
        }
    }

    /// Learns from the cutoff `cut` (`capture_history`): a capture's
    /// capture history rises with gravity, and that of each capture in
    /// `tried` (searched before it, no cutoff) falls.
    pub fn reward_captures<V: Variant>(
        &mut self,
        sp: &SearchParams,
        cut: &Cutoff<'_, V>,
        tried: &[Move],
    ) {
        let Cutoff { pos, us, m, depth } = *cut;
        let (bonus, limit) = (sp.history_bonus(depth), sp.history_max);
        if pos.is_capture(m) {
            gravity(
                &mut self.capture[Self::capture_index(pos, us, m)],
                bonus,
                limit,
            );
        }
        for &c in tried {
            gravity(
                &mut self.capture[Self::capture_index(pos, us, c)],
                -bonus,
                limit,
            );
        }
    }

    /// `raw`, the static evaluation of `pos`, plus the correction history's
    /// entry for it; `raw` itself when the table is off.
    #[inline]
    pub fn corrected_eval<V: Variant>(&self, pos: &Position<V>, raw: i32) -> i32 {
        // Off: not even the pawn hash.
        if self.correction.is_empty() {
            return raw;
        }
        let c = i64::from(self.correction[correction_index(pos)]);
        (raw + (c / CORRECTION_GRAIN) as i32).clamp(-MATE_BOUND + 1, MATE_BOUND - 1)
    }

    /// Moves the correction entry of `pos` toward `error` (the search's
    /// score minus the static evaluation) with a weight growing with the
    /// `depth` of the search, up to `correction_weight_max` 256ths, within
    /// plus or minus `correction_max` centipawns.
    pub fn update_correction<V: Variant>(
        &mut self,
        sp: &SearchParams,
        pos: &Position<V>,
        depth: i32,
        error: i32,
    ) {
        let max = i64::from(sp.correction_max) * CORRECTION_GRAIN;
        let weight = i64::from((depth + 1).min(sp.correction_weight_max));
        let error = i64::from(error).clamp(-max, max) * CORRECTION_GRAIN;
        let entry = &mut self.correction[correction_index(pos)];
        let old = i64::from(*entry);
        *entry = ((old * (256 - weight) + error * weight) / 256).clamp(-max, max) as i32;
    }
}
