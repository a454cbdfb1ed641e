//! Evaluation: every weight lives in one [`EvalParams`] value per variant, a
//! flat vector of named integer weights that loads from and saves to TOML, so
//! the match runner and the tuner can change any weight without recompiling.
//!
//! The evaluation is linear in the weights: [`eval_terms`] walks the position
//! once and reports each term as `(weight index, count)` to a term sink.
//! The engine's term sink multiplies by the weights as it goes; the tuner's
//! records the counts (the position's feature vector). One code path serves
//! both, so what the tuner fits is exactly what the engine evaluates.
//!
//! Terms: material (piece values in centipawns), bishop pair, mobility per
//! piece (every square not its own side's, and again over the mobility area:
//! those not attacked by an enemy pawn either), piece-square tables, king shelter, the open files at and beside the king
//! (no own pawn on them; in threecheck 40 in the middlegame, +14.0 Elo [3.3,
//! 24.7], H1 at 10000 nodes; 0 elsewhere), the pawn storm (the nearest
//! unblocked enemy pawn on those files, by its rank; in chess 60 / 40 / 20 on
//! the third / fourth / fifth rank in the middlegame, +15.6 Elo [3.9, 27.3],
//! H1 at 10000 nodes; 0 elsewhere) and the king flank
//! attack (the enemy's attacks on the king's flank in its camp, twice-attacked
//! squares again; in threecheck 8 in the middlegame, +16.4 Elo [4.2, 28.6],
//! H1 at 10000 nodes; 0 elsewhere; both tested in docs/engine.md) and king danger, pawn structure
//! and passed pawns (`eval/pawns.rs`), rooks on open files and minor-piece
//! outposts (`eval/placement.rs`), threats by pawns and hanging pieces and
//! the restricted squares (`eval/threats.rs`; the last in chess 4 in both
//! halves, +14.1 Elo [3.3, 24.9], H1 at 10000 nodes; 0 elsewhere), king attack by units with safe checks
//! (`eval/king_attack.rs`), the switch that scores a draw by the game's
//! insufficient-material rule as 0, and per game: threecheck's checks
//! already given, atomic's threats next to each king and the safety of
//! touching kings.
//! A game whose own terms need more than a line or two has them in a module
//! of its own below this one (`eval/threecheck.rs`: king danger by the checks
//! still needed and safe checks; `eval/suicide.rs`: piece count and both sides'
//! legal moves; `eval/knightmate.rs`: the royal knight's escape squares and the
//! danger on them), each saying what its game rewards; they report to the
//! same term sink, so [`eval_terms`] stays the one path. Every weight of
//! every game is in the one layout (a game leaves the others' at 0), so a
//! TOML file or the tuner reaches any of them by name; a new term enters
//! with weight 0 in [`EvalParams::default_for`] and gets a value there only
//! after an SPRT with the value set from a file (`data/sprt/eval/`) passes. In suicide and losers material counts
//! against the side that has it (you want to give things away), so its sign
//! is flipped by the game, not by the weights: the piece values stay the rule
//! pages' positive numbers. Mobility is not flipped: having moves to choose
//! from is what keeps a side out of forced captures, and self-play agrees
//! (counting mobility against its owner lost about 40 Elo in suicide and 20
//! in losers, 1,000 games each at 1,000 nodes per move).
//!
//! The evaluation is tapered: every term has a middlegame and an endgame
//! weight (the endgame halves follow the middlegame ones in the weight
//! vector, from [`EG`] on, named `<group>_eg`), and the position's [`phase`]
//! (0..=[`PHASE_MAX`]: the non-pawn material of the chess-like games, the
//! number of pieces in suicide and losers) blends the two sums once, in
//! [`taper`]. The terms do not know about it: [`eval_terms`] still reports
//! `(term, count)`, after telling the term sink the phase; the engine's
//! [`Score`] keeps the two sums, the tuner gives the two halves of a term
//! the count times their shares of the phase. A file or tuner naming a
//! group (`material`) sets both halves, as before the halves existed;
//! `material_eg` sets the endgame half alone, after it ([`EvalParams::set`]).
//! In the defaults a half differs only where an SPRT said so.
//!
//! Weights from files are bounded by [`MAX_WEIGHT`] and the evaluation is
//! clamped to [`MAX_EVAL`], below the mate scores: a static evaluation in the
//! mate range would make the search's aspiration windows widen forever and the
//! transposition table's 16-bit scores wrap. Sane weights are far inside both
//! bounds, so neither changes a real evaluation.

mod king_attack;
mod knightmate;
mod layout;
mod pawns;
mod placement;
mod sink;
mod suicide;
mod terms;
#[cfg(test)]
mod tests;
mod threats;
mod threecheck;
mod weights;

pub use layout::*;
pub use sink::*;
pub use terms::*;
pub use weights::*;

use movegen::{Position, Variant};

/// Static evaluation of `pos` in centipawns from the side to move's view,
/// within ±[`MAX_EVAL`].
#[inline]
pub fn evaluate<V: Variant>(pos: &Position<V>, params: &EvalParams) -> i32 {
    let mut s = Score::new(&params.weights);
    eval_terms(pos, &mut s);
    let total = s.total().clamp(-i64::from(MAX_EVAL), i64::from(MAX_EVAL)) as i32;
    if pos.turn().is_white() {
        total
    } else {
        -total
    }
}

/// The term counts of `pos` (White's view), one per term. Where a game's
/// weights have equal halves, `evaluate` from White's side is the dot
/// product of these with the (middlegame) weights; in general it is
/// [`Features::score`] of [`features_and_phase`].
pub fn features<V: Variant>(pos: &Position<V>) -> Vec<i32> {
    features_and_phase(pos).counts
}

/// The term counts and the phase of `pos` (White's view).
pub fn features_and_phase<V: Variant>(pos: &Position<V>) -> Features {
    let mut f = Features {
        counts: vec![0; NUM_TERMS],
        phase: PHASE_MAX,
        drawn: false,
    };
    eval_terms(pos, &mut f);
    f
}
