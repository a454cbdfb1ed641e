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
mod pawns;
mod placement;
mod suicide;
mod threats;
mod threecheck;

use movegen::attacks::{king_attacks, knight_attacks, pawn_attacks, piece_attacks};
use movegen::{Bitboard, Color, Position, Role, Square, Variant, VariantKind};
use std::path::Path;

/// How the weights of a group are laid out: how many there are and how
/// each is named (in a file, a tuner's selection, a `varia uci --tune`
/// option). Declared with each group in the layout, so nothing reads a
/// group's kind from its length.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// One weight, named as the group.
    Scalar,
    /// One weight per role, pawn to commoner ([`MATERIAL_NAMES`]), named
    /// `group.piece` (`hanging.rook`) and written as a TOML table.
    ByPiece,
    /// One weight per square, a1 to h8, named `group.square`
    /// (`pst_knight.e4`) and written as eight rows from rank 1 up.
    BySquare,
    /// One weight per rank from the side's own first rank, named
    /// `group.0` to `group.7`.
    ByRank,
    /// A short table indexed by a count (checks given or still needed,
    /// attack units, targets; or the two kinds of a two-way term), named
    /// `group.0` on.
    Indexed(usize),
}

impl Shape {
    /// Number of weights of a group of this shape (never 0: a shape has
    /// no `is_empty`).
    #[allow(clippy::len_without_is_empty)]
    pub const fn len(self) -> usize {
        match self {
            Shape::Scalar => 1,
            Shape::ByPiece => 7,
            Shape::BySquare => 64,
            Shape::ByRank => 8,
            Shape::Indexed(n) => n,
        }
    }
}

/// One named group of weights.
#[derive(Clone, Copy, Debug)]
pub struct ParamGroup {
    /// Name in TOML files and on the command line.
    pub name: &'static str,
    /// First index in the weight vector.
    pub offset: usize,
    /// Number of weights (`shape.len()`).
    pub len: usize,
    /// How its weights are laid out and named.
    pub shape: Shape,
}

macro_rules! layout {
    ($($id:ident = $name:literal : $shape:expr),* $(,)?) => {
        /// Offsets of the weight groups.
        #[allow(missing_docs)]
        pub mod idx {
            #[allow(unused_imports)]
            use super::Shape::*;
            layout!(@offsets 0usize; $($id : $shape),*);
        }
        /// The weight groups by name, each with its offset and shape: what
        /// a term asks [`TermSink::wants`] about.
        #[allow(missing_docs)]
        pub mod group {
            #[allow(unused_imports)]
            use super::Shape::*;
            use super::{idx, ParamGroup};
            $(pub const $id: ParamGroup =
                ParamGroup { name: $name, offset: idx::$id, len: $shape.len(), shape: $shape };)*
        }
        /// Every weight group in order: each a term's weights, or their
        /// middlegame halves where a group's endgame half is set apart.
        pub const GROUPS: &[ParamGroup] = &[$(group::$id),*];
        /// The endgame halves of the groups, `<group>_eg`, in the same order
        /// from [`EG`] on.
        pub const EG_GROUPS: &[ParamGroup] = &[
            $(ParamGroup {
                name: concat!($name, "_eg"),
                offset: EG + idx::$id,
                len: group::$id.len,
                shape: group::$id.shape,
            }),*
        ];
        /// Number of terms: the length of a feature vector, and of each half
        /// of the weights.
        pub const NUM_TERMS: usize = 0 $(+ group::$id.len)*;
    };
    (@offsets $acc:expr; $id:ident : $shape:expr $(, $rid:ident : $rshape:expr)*) => {
        pub const $id: usize = $acc;
        layout!(@offsets $acc + $shape.len(); $($rid : $rshape),*);
    };
    (@offsets $acc:expr;) => {};
}

layout! {
    MATERIAL = "material": ByPiece,
    BISHOP_PAIR = "bishop_pair": Scalar,
    MOBILITY = "mobility": ByPiece,
    PST_PAWN = "pst_pawn": BySquare,
    PST_KNIGHT = "pst_knight": BySquare,
    PST_BISHOP = "pst_bishop": BySquare,
    PST_ROOK = "pst_rook": BySquare,
    PST_QUEEN = "pst_queen": BySquare,
    PST_KING = "pst_king": BySquare,
    PST_COMMONER = "pst_commoner": BySquare,
    PASSED_PAWN = "passed_pawn": ByRank,
    KING_SHELTER = "king_shelter": Scalar,
    KING_DANGER = "king_danger": Scalar,
    CHECKS_GIVEN = "checks_given": Indexed(4),
    ATOMIC_THREAT = "atomic_threat": Scalar,
    KINGS_TOUCH = "kings_touch": Scalar,
    ROYAL_KNIGHT_SAFETY = "royal_knight_safety": Scalar,
    TEMPO = "tempo": Scalar,
    KING_DANGER_CHECKS_LEFT = "king_danger_checks_left": Indexed(4),
    SAFE_CHECKS = "safe_checks": Indexed(4),
    GUARDED_CHECKS = "guarded_checks": Indexed(4),
    PIECE_COUNT = "piece_count": Scalar,
    LEGAL_MOBILITY = "legal_mobility": Scalar,
    ROYAL_KNIGHT_DANGER = "royal_knight_danger": Scalar,
    DOUBLED_PAWN = "doubled_pawn": Scalar,
    ISOLATED_PAWN = "isolated_pawn": Scalar,
    BACKWARD_PAWN = "backward_pawn": Scalar,
    CONNECTED_PAWN = "connected_pawn": ByRank,
    PASSED_BLOCKED = "passed_blocked": ByRank,
    PASSED_KING_OWN = "passed_king_own": ByRank,
    PASSED_KING_THEIRS = "passed_king_theirs": ByRank,
    THREAT_BY_PAWN = "threat_by_pawn": ByPiece,
    HANGING = "hanging": ByPiece,
    INSUFFICIENT_MATERIAL = "insufficient_material": Scalar,
    KING_ATTACK = "king_attack": Indexed(16),
    MOBILITY_AREA = "mobility_area": ByPiece,
    ROOK_FILE = "rook_file": Indexed(2),
    OUTPOST = "outpost": Indexed(2),
    THREAT_BY_MINOR = "threat_by_minor": ByPiece,
    THREAT_BY_ROOK = "threat_by_rook": ByPiece,
    MINOR_BEHIND_PAWN = "minor_behind_pawn": Indexed(2),
    KING_PROTECTOR = "king_protector": Indexed(2),
    LONG_DIAGONAL_BISHOP = "long_diagonal_bishop": Scalar,
    FORCED_MOBILITY = "forced_mobility": Scalar,
    OFFER_SQUARES = "offer_squares": Scalar,
    FORCED_CAPTURE = "forced_capture": Indexed(4),
    KING_OPEN_FILES = "king_open_files": Scalar,
    PAWN_STORM = "pawn_storm": ByRank,
    KING_FLANK_ATTACK = "king_flank_attack": Scalar,
    RESTRICTED_PIECE = "restricted_piece": Scalar,
    WEAK_QUEEN_PROTECTION = "weak_queen_protection": Scalar,
    KNIGHT_ON_QUEEN = "knight_on_queen": Scalar,
    SLIDER_ON_QUEEN = "slider_on_queen": Scalar,
}

/// Index of the endgame half of term 0: term `i` has its middlegame weight
/// at `i` and its endgame weight at `EG + i`.
pub const EG: usize = NUM_TERMS;

/// Total number of weights: the middlegame halves, then the endgame halves.
pub const NUM_WEIGHTS: usize = 2 * NUM_TERMS;

/// The phase of a position in the middlegame: the middlegame half of every
/// weight counts `phase / PHASE_MAX`, the endgame half the rest.
pub const PHASE_MAX: i32 = 24;

/// Largest magnitude of one weight a file may set (a hundred pawns).
pub const MAX_WEIGHT: i32 = 10_000;

/// Largest magnitude of a static evaluation: just below the mate range
/// ([`crate::score::MATE_BOUND`]), so it never reads as a mate and fits
/// the transposition table's `i16`.
pub const MAX_EVAL: i32 = crate::score::MATE_BOUND - 1;

/// Names of the material weights, in role order.
pub const MATERIAL_NAMES: [&str; 7] = [
    "pawn", "knight", "bishop", "rook", "queen", "king", "commoner",
];

/// All evaluation weights of one game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EvalParams {
    /// The game these weights are for.
    pub variant: VariantKind,
    /// The weights, laid out as in [`GROUPS`].
    pub weights: Vec<i32>,
}

pub use crate::param_file::ParamsError;

/// The games whose every weight is a Texel fit of `data/tuning` (the
/// fit's piece-square tables are the hand-set ones that
/// [`EvalParams::default_for`] builds for the other games, unfitted, but
/// in threecheck, whose tables were fitted in a second step): the file's
/// text and its path, for messages. One place names them, so the
/// defaults and the test that holds them read the same list.
fn tuned_weights_file(kind: VariantKind) -> Option<(&'static str, &'static str)> {
    // A file of data/tuning, built in, with its path named once.
    macro_rules! tuning_file {
        ($name:literal) => {
            Some((
                include_str!(concat!("../../../data/tuning/", $name)),
                concat!("data/tuning/", $name),
            ))
        };
    }
    match kind {
        // Every term but the piece-square tables fitted on 939,339
        // positions of the engine's own games: +144.6 Elo [107.0, 185.9],
        // H1 in 227 games at 10000 nodes, and +150.8 [110.7, 195.1], H1 in
        // 252 games at 2+0.02 over the hand-set steps that had each passed
        // an SPRT (data/tuning/README.md).
        VariantKind::Chess => tuning_file!("chess-tuned-nopst.toml"),
        // The same fit on 280,405 positions of 8000 games: +211.3 Elo
        // [164.3, 266.4], H1 in 235 games at 10000 nodes, and +172.6 [129.9, 220.8], H1 in
        // 249 games at 2+0.02 (data/tuning/README.md).
        VariantKind::Atomic => tuning_file!("atomic-tuned-nopst.toml"),
        // The same fit on 313,471 positions of 10000 games: +187.0 Elo
        // [142.7, 237.8], H1 in 241 games at 10000 nodes, and +173.9
        // [130.3, 223.1], H1 in 266 games at 2+0.02; then its piece-square
        // tables but the king's fitted from it on 617,550 positions: +23.8
        // [8.1, 39.6], H1 in 1711 games at 10000 nodes (speed-neutral;
        // data/tuning/README.md).
        VariantKind::ThreeCheck => tuning_file!("threecheck-tuned-pst.toml"),
        // The same fit on 552,507 positions of 8000 games: +53.3 Elo [28.6,
        // 78.6], H1 in 625 games at 10000 nodes, and +22.3 [7.4, 37.3], H1
        // in 1767 games at 2+0.02 (data/tuning/README.md).
        VariantKind::Knightmate => tuning_file!("knightmate-tuned-nopst.toml"),
        VariantKind::Suicide | VariantKind::Losers => None,
    }
}

fn centrality(sq: Square) -> i32 {
    let f = sq.file() as i32;
    let r = sq.rank() as i32;
    let df = (2 * f - 7).abs();
    let dr = (2 * r - 7).abs();
    // 0 in the corners .. 6 in the centre.
    (14 - df - dr) / 2
}

impl EvalParams {
    /// The default weights of game `kind`.
    pub fn default_for(kind: VariantKind) -> EvalParams {
        if let Some((text, file)) = tuned_weights_file(kind) {
            let mut tuned = EvalParams {
                variant: kind,
                weights: vec![0; NUM_WEIGHTS],
            };
            tuned
                .apply_toml(text, file)
                .expect("the built-in weights files are valid (tested)");
            return tuned;
        }
        // The hand-set weights of the other games (suicide, losers). The
        // fitted games never get here: they appear in the
        // matches below only because a match names every game. Their
        // piece-square tables, which the fits left alone (threecheck's
        // but the king's were fitted later), came from here into their
        // files; the rest of the seeds their fits started from
        // (each hand-set step with its SPRT in data/sprt/log.csv and its file
        // in data/sprt/eval/) left this code when the fits were adopted.
        let mut w = vec![0i32; NUM_WEIGHTS];
        let (material, bishop_pair): ([i32; 7], i32) = match kind {
            // SPSA from the rule page's Q 6, R 4, B 3, N 3, P 1 (king 3): 2000
            // iterations at 2000 nodes; +49.1 Elo [32, 66], H1 in 912 games at
            // 5000 nodes against the seed (data/tuning/suicide-pieces-spsa.toml).
            // With the piece count beside it, a pawn costs over twice its old
            // price: it is the piece that is hardest to give away.
            VariantKind::Suicide => ([224, 282, 266, 365, 603, 292, 0], 0),
            VariantKind::Chess
            | VariantKind::Atomic
            | VariantKind::ThreeCheck
            | VariantKind::Knightmate => ([100, 300, 330, 500, 900, 0, 330], 30),
            // Chess's values halved, now that the forced mobility carries the
            // evaluation: +32.3 Elo [13.6, 51.2], H1 in 1004 games at 10000
            // nodes (data/sprt/eval/losers-material-half.toml); then a
            // quarter, +16.9 [4.7, 29.1] over half, H1 in 2269 games
            // (losers-material-quarter.toml).
            VariantKind::Losers => ([25, 75, 82, 125, 225, 0, 0], 30),
        };
        w[idx::MATERIAL..idx::MATERIAL + 7].copy_from_slice(&material);
        w[idx::BISHOP_PAIR] = bishop_pair;
        w[idx::MOBILITY..idx::MOBILITY + 7].copy_from_slice(&[0, 4, 5, 3, 2, 0, 3]);
        for sq in Square::all() {
            let c = centrality(sq);
            let r = sq.rank() as i32;
            let i = sq.index();
            let central_file = matches!(sq.file(), 2..=5) as i32;
            w[idx::PST_PAWN + i] = if (1..7).contains(&r) {
                (r - 1) * 5 + central_file * r * 2
            } else {
                0
            };
            w[idx::PST_KNIGHT + i] = c * 6 - 15;
            w[idx::PST_BISHOP + i] = c * 3 - 6;
            w[idx::PST_ROOK + i] = if r == 6 { 15 } else { 0 };
            w[idx::PST_QUEEN + i] = c * 2 - 4;
            w[idx::PST_COMMONER + i] = c * 4 - 10;
            w[idx::PST_KING + i] = match kind {
                // A king hiding near its own back rank in the royal games.
                VariantKind::Chess | VariantKind::ThreeCheck | VariantKind::Losers => {
                    if r == 0 {
                        [10, 15, 5, -5, 0, -5, 15, 10][sq.file() as usize]
                    } else {
                        -10 * r.min(3)
                    }
                }
                VariantKind::Knightmate => c * 2 - 5,
                VariantKind::Suicide | VariantKind::Atomic => 0,
            };
        }
        let passed = [0, 5, 10, 20, 35, 60, 100, 0];
        w[idx::PASSED_PAWN..idx::PASSED_PAWN + 8].copy_from_slice(&passed);
        // A king to shelter and to keep out of danger, but in suicide,
        // where it is an ordinary piece (those weights stay 0).
        if kind != VariantKind::Suicide {
            w[idx::KING_SHELTER] = 8;
            w[idx::KING_DANGER] = 6;
        }
        if kind == VariantKind::Suicide {
            // Each piece a pawn more against its owner, and 10 per legal move
            // of difference: +98 Elo [65, 132], H1 in 281 games at 5000 nodes
            // (data/sprt/eval/suicide-count-mobility.toml); legal mobility 20
            // over 10 +46.4 [23.7, 69.5], H1 in 482 games at 10000 nodes
            // (suicide-legal-mobility-20.toml; the same term: speed-neutral);
            // 40 over 20 +109.9 [75.2, 146.9], H1 in 295 games
            // (suicide-legal-mobility-40.toml); then piece count 50 over 100
            // +15.0 [3.6, 26.4], H1 in 2067 games (suicide-piece-count-50.toml);
            // legal mobility 60 over 40, beside the forced capture and the
            // offer squares, +12.7 [2.8, 22.6], H1 in 3107 games
            // (suicide-legal-mobility-60.toml).
            w[idx::PIECE_COUNT] = 50;
            w[idx::LEGAL_MOBILITY] = 60;
            // The forced capture at Fairy-Stockfish's scale, 1000 / (1 + n):
            // +17.9 [5.0, 30.9], H1 in 1786 games at 10000 nodes
            // (suicide-forced-capture.toml; half that scale H0 at -6.4).
            w[idx::FORCED_CAPTURE..idx::FORCED_CAPTURE + 4]
                .copy_from_slice(&[-1000, -500, -333, -250]);
            // Beside it, the offer squares at 100 per square: +14.2 [3.4,
            // 24.9], H1 in 2702 games at 10000 nodes
            // (suicide-offer-squares-100.toml; 50 without the forced capture
            // undecided at 0.0); 200 over 100 +13.1 [3.0, 23.3], H1 in 2968
            // games (suicide-offer-squares-200.toml); 300 over 200 (with
            // legal mobility 60) +13.4 [3.0, 23.8], H1 in 2646 games
            // (suicide-offer-squares-300.toml).
            w[idx::OFFER_SQUARES] = 300;
        }
        if kind == VariantKind::Losers {
            // Both sides' moves under the forced-capture rule, counted from
            // attack sets: at 10 per move of difference +47.2 Elo [23.9,
            // 70.9], H1 in 578 games at 2+0.02 (+46.8 [23.8, 70.2] at 10000
            // nodes; data/sprt/eval/losers-forced-mobility.toml); 20 per move
            // over 10 +72.2 [43.8, 101.6], H1 in 367 games at 10000 nodes
            // (losers-forced-mobility-20.toml; the same term, so speed-neutral);
            // 40 over 20 +150.0 [109.6, 194.6], H1 in 269 games at 10000
            // nodes (losers-forced-mobility-40.toml); 80 over 40 +97.3 [64.4,
            // 132.0], H1 in 327 games at 10000 nodes (-80.toml); 160 over 80
            // +54.7 [29.7, 80.2], H1 in 603 games at 10000 nodes (-160.toml).
            w[idx::FORCED_MOBILITY] = 160;
        }
        w[idx::TEMPO] = 10;
        // The endgame halves: the middlegame's until a game's own differ.
        w.copy_within(0..EG, EG);
        EvalParams {
            variant: kind,
            weights: w,
        }
    }

    /// The weight group called `name`: a term's group (`material`) or the
    /// endgame half of one (`material_eg`).
    pub fn group(name: &str) -> Option<ParamGroup> {
        GROUPS
            .iter()
            .chain(EG_GROUPS)
            .copied()
            .find(|g| g.name == name)
    }

    /// Name of the weight at `index`, e.g. `material.queen`, `pst_knight.e4`,
    /// or for an endgame half `material_eg.queen`.
    pub fn weight_name(index: usize) -> String {
        let g = GROUPS
            .iter()
            .chain(EG_GROUPS)
            .find(|g| (g.offset..g.offset + g.len).contains(&index))
            .expect("index within the layout");
        let i = index - g.offset;
        match g.shape {
            Shape::Scalar => g.name.to_string(),
            Shape::ByPiece => format!("{}.{}", g.name, MATERIAL_NAMES[i]),
            Shape::BySquare => {
                format!("{}.{}", g.name, Square::new(i as u8).expect("square index"))
            }
            Shape::ByRank | Shape::Indexed(_) => format!("{}.{}", g.name, i),
        }
    }

    /// Index of the weight called `name` (as [`EvalParams::weight_name`]
    /// writes it: `material.queen`, `hanging.rook`, `pst_knight.e4`,
    /// `tempo`, `tempo_eg`). A weight of a group of several is also found
    /// by its position, `group.N` (`hanging.3`: the names by-piece groups
    /// other than `material` and `mobility` had before their shape was
    /// declared).
    pub fn weight_index(name: &str) -> Option<usize> {
        if let Some(i) = (0..NUM_WEIGHTS).find(|&i| EvalParams::weight_name(i) == name) {
            return Some(i);
        }
        let (group, position) = name.rsplit_once('.')?;
        let g = EvalParams::group(group)?;
        let i: usize = position.parse().ok()?;
        (g.shape != Shape::Scalar && i < g.len).then_some(g.offset + i)
    }

    /// Sets weight `index` to `value`: a term's index (below [`EG`]) sets
    /// both its halves, as a file naming the term's group does, and an
    /// endgame index (`EG` on) its endgame half alone. So a term named
    /// alone keeps one value for the whole game, and whoever sets both a
    /// term and its endgame half sets the term first (in index order).
    pub fn set(&mut self, index: usize, value: i32) {
        self.weights[index] = value;
        if index < EG {
            self.weights[EG + index] = value;
        }
    }

    /// Parses TOML (`group = value` or `group = [values]`; the `material`
    /// and `mobility` groups may also be tables keyed by piece name). Groups not
    /// mentioned keep the default of `kind`; a text that sets no weight at all
    /// (an empty or truncated file) is an error, not the defaults. Every weight
    /// is within ±[`MAX_WEIGHT`].
    pub fn from_toml(
        kind: VariantKind,
        text: &str,
        origin: &str,
    ) -> Result<EvalParams, ParamsError> {
        let mut p = EvalParams::default_for(kind);
        p.apply_toml(text, origin)?;
        Ok(p)
    }

    /// Sets the weights that the TOML `text` names on top of these (the
    /// reading of [`EvalParams::from_toml`]; `origin` names the text in errors).
    fn apply_toml(&mut self, text: &str, origin: &str) -> Result<(), ParamsError> {
        let kind = self.variant;
        let p = self;
        let content = |message: String| ParamsError::content(origin, message);
        let table = crate::param_file::parse_table(text, origin)?;
        let sets_weights = table.keys().any(|k| k != "variant");
        // Terms (both halves) first, then the endgame halves on top.
        let mut entries: Vec<(String, toml::Value)> = table.into_iter().collect();
        entries.sort_by_key(|(k, _)| k.ends_with("_eg"));
        for (key, value) in entries {
            if key == "variant" {
                let v = value.as_str().unwrap_or_default();
                let parsed: VariantKind = v.parse().map_err(|e| content(format!("{e}")))?;
                if parsed != kind {
                    return Err(content(format!("file is for {parsed}, not {kind}")));
                }
                continue;
            }
            let g = EvalParams::group(&key).ok_or_else(|| {
                content(format!(
                    "unknown weight group \"{key}\" (known: {}; each also as <group>_eg, its endgame half)",
                    GROUPS.iter().map(|g| g.name).collect::<Vec<_>>().join(", ")
                ))
            })?;
            // The value of weight `index`, within ±MAX_WEIGHT.
            let as_int = |v: &toml::Value, index: usize| -> Result<i32, ParamsError> {
                let i = v
                    .as_integer()
                    .ok_or_else(|| content(format!("\"{key}\" must hold integers, found {v}")))?;
                if i.abs() > i64::from(MAX_WEIGHT) {
                    return Err(content(format!(
                        "weight {} = {i} is out of range -{MAX_WEIGHT}..={MAX_WEIGHT}",
                        EvalParams::weight_name(index)
                    )));
                }
                Ok(i as i32)
            };
            match &value {
                toml::Value::Integer(_) if g.shape == Shape::Scalar => {
                    p.set(g.offset, as_int(&value, g.offset)?)
                }
                toml::Value::Array(items) if items.len() == g.len => {
                    for (i, v) in items.iter().enumerate() {
                        p.set(g.offset + i, as_int(v, g.offset + i)?);
                    }
                }
                toml::Value::Table(t) if g.shape == Shape::ByPiece => {
                    for (name, v) in t {
                        let i = MATERIAL_NAMES
                            .iter()
                            .position(|n| n == name)
                            .ok_or_else(|| {
                                content(format!("unknown piece \"{name}\" in \"{key}\""))
                            })?;
                        p.set(g.offset + i, as_int(v, g.offset + i)?);
                    }
                }
                _ => {
                    return Err(content(format!(
                        "\"{key}\" must be {}",
                        if g.shape == Shape::Scalar {
                            "an integer".to_string()
                        } else {
                            format!("an array of {} integers", g.len)
                        }
                    )))
                }
            }
        }
        if !sets_weights {
            return Err(content(
                "sets no weights (an empty file is refused rather than read as the defaults)"
                    .to_string(),
            ));
        }
        Ok(())
    }

    /// Loads weights for `kind` from a TOML file.
    pub fn load(kind: VariantKind, path: &Path) -> Result<EvalParams, ParamsError> {
        crate::param_file::load(kind, path, EvalParams::from_toml)
    }

    /// Weights for `kind` from the TOML file `path`, or the built-in ones
    /// when there is no file (an engine option left empty, no `--eval`).
    pub fn load_or_default(
        kind: VariantKind,
        path: Option<&Path>,
    ) -> Result<EvalParams, ParamsError> {
        match path {
            Some(path) => EvalParams::load(kind, path),
            None => Ok(EvalParams::default_for(kind)),
        }
    }

    /// The weights as TOML: `variant`, then every group (material and mobility
    /// as tables keyed by piece, piece-square tables as rows from rank 1 up),
    /// each with its middlegame half, which [`EvalParams::from_toml`] reads as
    /// both halves; then `<group>_eg` for each group whose endgame half
    /// differs.
    pub fn to_toml(&self) -> String {
        let mut s = format!("variant = \"{}\"\n", self.variant.name());
        let mut tables = String::new();
        let differing_eg = EG_GROUPS.iter().filter(|g| {
            self.weights[g.offset..g.offset + g.len]
                != self.weights[g.offset - EG..g.offset - EG + g.len]
        });
        for g in GROUPS.iter().chain(differing_eg) {
            let vals = &self.weights[g.offset..g.offset + g.len];
            if g.shape == Shape::Scalar {
                s.push_str(&format!("{} = {}\n", g.name, vals[0]));
            } else if g.shape == Shape::ByPiece {
                tables.push_str(&format!("\n[{}]\n", g.name));
                for (n, v) in MATERIAL_NAMES.iter().zip(vals) {
                    tables.push_str(&format!("{n} = {v}\n"));
                }
            } else if g.shape == Shape::BySquare {
                s.push_str(&format!("{} = [\n", g.name));
                for row in vals.chunks(8) {
                    let r: Vec<String> = row.iter().map(|v| format!("{v:4}")).collect();
                    s.push_str(&format!("  {},\n", r.join(",")));
                }
                s.push_str("]\n");
            } else {
                let r: Vec<String> = vals.iter().map(|v| v.to_string()).collect();
                s.push_str(&format!("{} = [{}]\n", g.name, r.join(", ")));
            }
        }
        s + &tables
    }

    /// Writes the weights to a TOML file.
    pub fn save(&self, path: &Path) -> Result<(), ParamsError> {
        crate::param_file::save(path, &self.to_toml())
    }
}

/// Receives the evaluation's terms: the engine's [`Score`] sums them
/// weighted, the tuner's [`Features`] collects them.
pub trait TermSink {
    /// The position's phase, `0..=PHASE_MAX` ([`phase`]): told once, before
    /// the first term.
    fn set_phase(&mut self, phase: i32);
    /// The game's own rule calls the position a draw by insufficient
    /// material (told before the first term, and only then): where the
    /// switch `insufficient_material` is not 0 its evaluation is 0, whatever
    /// the terms.
    fn set_drawn(&mut self);
    /// Term `index` (below [`NUM_TERMS`]) counted `count` times, from
    /// White's point of view.
    fn add(&mut self, index: usize, count: i32);
    /// `false` when the terms of group `g` cannot change what this
    /// term sink computes, so that [`eval_terms`] may skip working them
    /// out: the engine's [`Score`] says so for a group whose weights are 0 in
    /// both halves (most games leave the chess-tested terms at 0). The
    /// tuner's [`Features`] wants every term, the default.
    #[inline(always)]
    fn wants(&self, g: ParamGroup) -> bool {
        let _ = g;
        true
    }
}

/// The file of the king on `k` and the files beside it: where the open
/// files and the pawn storm are counted.
fn king_files(k: Square) -> std::ops::RangeInclusive<u8> {
    let file = k.file();
    file.saturating_sub(1)..=(file + 1).min(7)
}

/// The files of the king on `k` and beside it on which its side has no pawn
/// (`own_pawns`): open lines for the enemy's rooks and queens, counted
/// against the king's owner (`king_open_files`).
fn king_open_files(k: Square, own_pawns: Bitboard) -> i32 {
    king_files(k)
        .filter(|&f| (own_pawns & Bitboard::file(f)).is_empty())
        .count() as i32
}

/// The king's flank in its camp, the squares the king flank attack
/// (`king_flank_attack`) counts the enemy's attacks on: four files (a-d for a
/// king on the a-, b- or c-file, c-f for the d- or e-file, e-h for the f-,
/// g- or h-file) on the five ranks nearest the king's own side
/// (Stockfish's `KingFlank & Camp`).
fn king_flank(k: Square, color: Color) -> Bitboard {
    let first_file = match k.file() {
        0..=2 => 0,
        3 | 4 => 2,
        _ => 4,
    };
    let files = (first_file..first_file + 4).fold(Bitboard(0), |b, f| b | Bitboard::file(f));
    let ranks = if color.is_white() { 0..5 } else { 3..8 };
    let camp = ranks.fold(Bitboard(0), |b, r| b | Bitboard::rank(r));
    files & camp
}

/// The enemy pawns storming the king on `k` of colour `color`: on the king's
/// file and each file beside it, the enemy pawn nearest the king's side of
/// the board, unless a pawn of the king's side stands right in front of it
/// (a blocked storm opens nothing), by its rank as the king's side counts
/// them (0 its back rank): the index into `pawn_storm`, whose weights count
/// against the king's owner (Fairy-Stockfish's unblocked storm, without its
/// per-file split). Calls `storm` once per storming pawn.
fn pawn_storm(
    k: Square,
    color: Color,
    own_pawns: Bitboard,
    enemy_pawns: Bitboard,
    mut storm: impl FnMut(usize),
) {
    for f in king_files(k) {
        // The enemy pawn nearest the king's side: the lowest by the rank
        // the king's side counts.
        let nearest = (enemy_pawns & Bitboard::file(f)).min_by_key(|sq| sq.relative(color).rank());
        let Some(pawn) = nearest else { continue };
        // Blocked: a pawn of the king's side on the square the enemy pawn
        // would advance to, toward the king's side.
        let ahead = Bitboard::from_square(pawn).shift_up(!color.is_white());
        if (ahead & own_pawns).is_empty() {
            storm(pawn.relative(color).rank() as usize);
        }
    }
}

/// The phase of `pos`, from [`PHASE_MAX`] (the middlegame: the middlegame
/// half of each weight alone) down to 0 (the endgame half alone). In the
/// chess-like games the usual non-pawn material count: a minor piece (a
/// knight, a bishop, knightmate's commoner) 1, a rook 2, a queen 4, 24 for
/// the starting pieces; promotions beyond that stay at 24. In suicide and
/// losers, where a side wins by losing its pieces and the queens are no more
/// a middlegame than the rest, the number of pieces of both sides, 32 at the
/// start, scaled to 24.
pub fn phase<V: Variant>(pos: &Position<V>) -> i32 {
    let b = pos.board();
    if V::MUST_CAPTURE {
        return (b.occupied().count() as i32 * PHASE_MAX / 32).min(PHASE_MAX);
    }
    let minors = (b.role(Role::Knight) | b.role(Role::Bishop) | b.role(Role::Commoner)).count();
    let rooks = b.role(Role::Rook).count();
    let queens = b.role(Role::Queen).count();
    ((minors + 2 * rooks + 4 * queens) as i32).min(PHASE_MAX)
}

/// The tapered score: the middlegame sum `mg` and the endgame sum `eg`
/// blended by `phase` (truncated toward zero, so a position and its mirror
/// image score the negatives of each other). With equal halves it is `mg`.
#[inline]
pub fn taper(mg: i64, eg: i64, phase: i32) -> i64 {
    let phase = i64::from(phase);
    let max = i64::from(PHASE_MAX);
    (mg * phase + eg * (max - phase)) / max
}

/// Sums `count * weight` for each half: the engine's evaluation.
pub struct Score<'a> {
    /// The weights, middlegame halves then endgame halves.
    pub weights: &'a [i32],
    /// Running middlegame total (White's view), wide enough that no
    /// weights overflow it.
    pub mg: i64,
    /// Running endgame total (White's view).
    pub eg: i64,
    /// The position's phase.
    pub phase: i32,
    /// Drawn by insufficient material ([`TermSink::set_drawn`]).
    pub drawn: bool,
}

impl<'a> Score<'a> {
    /// An empty sum over `weights`.
    pub fn new(weights: &'a [i32]) -> Score<'a> {
        Score {
            weights,
            mg: 0,
            eg: 0,
            phase: PHASE_MAX,
            drawn: false,
        }
    }

    /// The two sums blended by the phase (White's view, not clamped); 0 for
    /// a drawn position where the `insufficient_material` switch is on.
    pub fn total(&self) -> i64 {
        if self.drawn && scores_drawn_as_zero(self.weights) {
            return 0;
        }
        taper(self.mg, self.eg, self.phase)
    }
}

/// `true` if `weights` score a position drawn by insufficient material as 0
/// (the `insufficient_material` switch, either half, is not 0).
pub fn scores_drawn_as_zero(weights: &[i32]) -> bool {
    weights[idx::INSUFFICIENT_MATERIAL] != 0 || weights[EG + idx::INSUFFICIENT_MATERIAL] != 0
}

impl TermSink for Score<'_> {
    #[inline(always)]
    fn set_phase(&mut self, phase: i32) {
        self.phase = phase;
    }

    fn set_drawn(&mut self) {
        self.drawn = true;
    }

    #[inline(always)]
    fn add(&mut self, index: usize, count: i32) {
        self.mg += i64::from(self.weights[index]) * i64::from(count);
        self.eg += i64::from(self.weights[EG + index]) * i64::from(count);
    }

    #[inline(always)]
    fn wants(&self, g: ParamGroup) -> bool {
        let (first, len) = (g.offset, g.len);
        let w = self.weights;
        w[first..first + len].iter().any(|&x| x != 0)
            || w[EG + first..EG + first + len].iter().any(|&x| x != 0)
    }
}

/// Collects the feature vector: `(term index, count)` pairs summed per
/// term, and the phase.
#[derive(Default)]
pub struct Features {
    /// Dense counts, one per term.
    pub counts: Vec<i32>,
    /// The position's phase.
    pub phase: i32,
    /// Drawn by insufficient material ([`TermSink::set_drawn`]).
    pub drawn: bool,
}

impl Features {
    /// White's evaluation of these features with `weights` (not clamped):
    /// [`evaluate`] from White's side, for a feature vector.
    pub fn score(&self, weights: &[i32]) -> i64 {
        let mut s = Score::new(weights);
        s.set_phase(self.phase);
        s.drawn = self.drawn;
        for (i, &c) in self.counts.iter().enumerate() {
            if c != 0 {
                s.add(i, c);
            }
        }
        s.total()
    }
}

impl TermSink for Features {
    fn set_phase(&mut self, phase: i32) {
        self.phase = phase;
    }

    fn set_drawn(&mut self) {
        self.drawn = true;
    }

    fn add(&mut self, index: usize, count: i32) {
        if self.counts.is_empty() {
            self.counts = vec![0; NUM_TERMS];
        }
        self.counts[index] += count;
    }
}

const PST: [usize; 7] = [
    idx::PST_PAWN,
    idx::PST_KNIGHT,
    idx::PST_BISHOP,
    idx::PST_ROOK,
    idx::PST_QUEEN,
    idx::PST_KING,
    idx::PST_COMMONER,
];

/// Walks every term of the evaluation of `pos` (from White's point of view,
/// tempo included for the side to move) into `acc`.
pub fn eval_terms<V: Variant, A: TermSink>(pos: &Position<V>, acc: &mut A) {
    acc.set_phase(phase(pos));
    if pos.is_insufficient_material() {
        acc.set_drawn();
    }
    let b = pos.board();
    let occ = b.occupied();
    let mut attacks = [threats::Attacks::default(); 2];
    // The squares around each king (by its colour), and the king danger:
    // the number of (piece, square) pairs of the enemy's attacks on them.
    // Counted from each piece's attack set while the pieces are walked
    // (the same sum as the attackers of each square), not square by square.
    let zones = Color::ALL.map(|color| {
        if V::ROYAL {
            pos.king(color).map_or(Bitboard(0), king_attacks)
        } else {
            Bitboard(0)
        }
    });
    let mut danger = [0i32; 2];
    // The squares two pieces of a side attack are gathered only for their
    // readers: the forced capture (suicide, losers), the king flank attack and the threats that ask which
    // squares a side protects strongly.
    let flank_wanted = V::ROYAL && !V::ROYAL_KNIGHT && acc.wants(group::KING_FLANK_ATTACK);
    let twice_wanted = V::MUST_CAPTURE || flank_wanted || threats::wants_twice(acc);
    // The squares each side's pawns attack: the threats' and the mobility
    // area's (a square an enemy pawn attacks is no square to go to).
    for color in Color::ALL {
        let their_zone = zones[color.other().index()];
        let mut set = Bitboard(0);
        let mut twice = Bitboard(0);
        for sq in b.pieces(color, Role::Pawn) {
            let a = pawn_attacks(color, sq);
            danger[color.other().index()] += (a & their_zone).count() as i32;
            if twice_wanted {
                twice |= set & a;
            }
            set |= a;
        }
        attacks[color.index()].pawns = set;
        attacks[color.index()].twice = twice;
    }
    let king_attack_wanted = acc.wants(group::KING_ATTACK);
    // Each side's attack by units on the enemy king, and the squares its
    // pieces of each role reach (for the safe checks), by attacking colour.
    let mut king_attack_by = [king_attack::KingAttack::default(); 2];
    let mut reached = [[Bitboard(0); 7]; 2];
    // Where captures are forced (suicide, losers) material is a liability.
    let material_sign = if V::MUST_CAPTURE { -1 } else { 1 };
    // Each side's moves under the forced-capture rule, from the attack sets
    // of the walk below (by colour).
    let forced_wanted = V::MUST_CAPTURE && acc.wants(group::FORCED_MOBILITY);
    let mut forced = Color::ALL.map(|color| {
        if forced_wanted {
            suicide::ForcedMoves::new(pos, color)
        } else {
            suicide::ForcedMoves::NONE
        }
    });
    for color in Color::ALL {
        let sign = if color.is_white() { 1 } else { -1 };
        let ours = b.color(color);
        let mobility_area = !ours & !attacks[color.other().index()].pawns;
        let attacked = &mut attacks[color.index()];
        // The squares around the enemy king, for the attack by units: in
        // knightmate the royal knight's own flight squares, a knight's move
        // away (`eval/knightmate.rs`), and only when the table is weighed.
        let their_zone = if V::ROYAL_KNIGHT {
            match pos.king(color.other()) {
                Some(k) if king_attack_wanted => knight_attacks(k),
                _ => Bitboard(0),
            }
        } else {
            zones[color.other().index()]
        };
        let king_attack = &mut king_attack_by[color.index()];
        let reached = &mut reached[color.index()];
        for role in Role::ALL {
            let pieces = b.pieces(color, role);
            if pieces.is_empty() {
                continue;
            }
            acc.add(
                idx::MATERIAL + role.index(),
                sign * material_sign * pieces.count() as i32,
            );
            for sq in pieces {
                let rel = sq.relative(color);
                acc.add(PST[role.index()] + rel.index(), sign);
                let moves = piece_attacks::<V>(role, sq, occ);
                let mobility = (moves & !ours).count() as i32;
                if mobility != 0 && role != Role::King {
                    acc.add(idx::MOBILITY + role.index(), sign * mobility);
                    let in_area = (moves & mobility_area).count() as i32;
                    if in_area != 0 {
                        acc.add(idx::MOBILITY_AREA + role.index(), sign * in_area);
                    }
                }
                match role {
                    Role::Knight | Role::Bishop => attacked.minors |= moves,
                    Role::Rook => attacked.rooks |= moves,
                    _ => {}
                }
                if role != Role::Pawn {
                    if forced_wanted {
                        forced[color.index()].add_piece(moves);
                    }
                    if twice_wanted {
                        attacked.twice |= attacked.all & moves;
                    }
                    attacked.all |= moves;
                    reached[role.index()] |= moves;
                    king_attack.add_piece(role, moves, their_zone);
                    danger[color.other().index()] +=
                        (moves & zones[color.other().index()]).count() as i32;
                }
            }
        }
        if twice_wanted {
            attacked.twice |= attacked.all & attacked.pawns;
        }
        attacked.all |= attacked.pawns;
        pawns::terms(pos, color, sign, attacks[color.other().index()].pawns, acc);
        placement::terms(pos, color, sign, attacks[color.index()].pawns, acc);
        let bishops = b.pieces(color, Role::Bishop);
        if (bishops & Bitboard::LIGHT).any() && (bishops & Bitboard::DARK).any() {
            acc.add(idx::BISHOP_PAIR, sign);
        }
    }
    // The check squares against each king (by its colour), counted at most
    // once: the king attack and threecheck's own terms both read them.
    let mut check_squares = [None::<king_attack::CheckSquares>; 2];
    let mut check_squares_on = |color: Color, k: Square| {
        *check_squares[color.index()].get_or_insert_with(|| {
            let them = color.other().index();
            king_attack::check_squares(pos, color, k, &reached[them], attacks[color.index()].all)
        })
    };
    // Each king's own terms, once both sides' attacks (the danger) are in.
    for color in Color::ALL {
        let sign = if color.is_white() { 1 } else { -1 };
        if V::ROYAL {
            if let Some(k) = pos.king(color) {
                let zone = zones[color.index()];
                // The attack by units on this king, counted for its attacker.
                let attack = king_attack_by[color.other().index()];
                if king_attack_wanted && attack.is_attack() {
                    let row = attack.table_index(check_squares_on(color, k).safe);
                    acc.add(idx::KING_ATTACK + row, -sign);
                }
                if !V::ROYAL_KNIGHT {
                    let front = zone
                        & Bitboard::rank(if color.is_white() {
                            (k.rank() + 1).min(7)
                        } else {
                            k.rank().saturating_sub(1)
                        });
                    let own_pawns = b.pieces(color, Role::Pawn);
                    let shelter = (front & own_pawns).count() as i32;
                    if shelter != 0 {
                        acc.add(idx::KING_SHELTER, sign * shelter);
                    }
                    if acc.wants(group::KING_OPEN_FILES) {
                        let open = king_open_files(k, own_pawns);
                        if open != 0 {
                            acc.add(idx::KING_OPEN_FILES, -sign * open);
                        }
                    }
                    if flank_wanted {
                        let flank = king_flank(k, color);
                        let them = &attacks[color.other().index()];
                        let attacked = (them.all & flank).count() + (them.twice & flank).count();
                        if attacked != 0 {
                            acc.add(idx::KING_FLANK_ATTACK, -sign * attacked as i32);
                        }
                    }
                    if acc.wants(group::PAWN_STORM) {
                        let enemy_pawns = b.pieces(color.other(), Role::Pawn);
                        pawn_storm(k, color, own_pawns, enemy_pawns, |rank| {
                            acc.add(idx::PAWN_STORM + rank, -sign)
                        });
                    }
                }
                let enemy = b.color(color.other());
                let danger = danger[color.index()];
                if danger != 0 {
                    acc.add(idx::KING_DANGER, -sign * danger);
                }
                if V::ATOMIC {
                    // Our pieces next to the enemy king that we attack: capturing one
                    // explodes the king.
                    if let Some(ek) = pos.king(color.other()) {
                        let targets = king_attacks(ek) & enemy;
                        let threats = targets
                            .filter(|&sq| pos.attackers_to(sq, color, occ).any())
                            .count() as i32;
                        if threats != 0 {
                            acc.add(idx::ATOMIC_THREAT, sign * threats);
                        }
                    }
                }
                if V::ROYAL_KNIGHT {
                    knightmate::royal_knight_terms(pos, color, k, sign, acc);
                }
                if V::CHECK_COUNTING {
                    let checks = check_squares_on(color, k);
                    let king = threecheck::KingCounts { danger, checks };
                    threecheck::king_terms(pos, color, sign, king, acc);
                }
            }
        }
        if V::CHECK_COUNTING {
            let given = 3 - pos.checks_remaining(color).min(3) as usize;
            acc.add(idx::CHECKS_GIVEN + given, sign);
        }
    }
    if V::ATOMIC {
        // Touching kings cannot be checked: count it for the side to move's safety.
        if let (Some(w), Some(bk)) = (pos.king(Color::White), pos.king(Color::Black)) {
            if king_attacks(w).contains(bk) {
                acc.add(idx::KINGS_TOUCH, if pos.turn().is_white() { 1 } else { -1 });
            }
        }
    }
    if threats::wanted(acc) {
        threats::terms(pos, &attacks, &reached, acc);
    }
    // Suicide's piece count and both sides' legal (or forced, from attack
    // sets) moves; open to losers, where captures are forced too (0 there
    // unless a file sets them: the legal-move counts cost two move
    // generations per evaluation).
    if V::MUST_CAPTURE
        && (acc.wants(group::PIECE_COUNT)
            || acc.wants(group::LEGAL_MOBILITY)
            || acc.wants(group::FORCED_MOBILITY))
    {
        suicide::terms(pos, &forced, acc);
    }
    // The squares where each side can offer a piece (suicide, losers).
    if V::MUST_CAPTURE && acc.wants(group::OFFER_SQUARES) {
        let [white, black] = Color::ALL.map(|color| {
            let (us, them) = (color.index(), color.other().index());
            suicide::offer_squares(pos, color, &reached[us], attacks[them].all)
        });
        if white != black {
            acc.add(idx::OFFER_SQUARES, white - black);
        }
    }
    // A side that can capture must (suicide, losers).
    if V::MUST_CAPTURE && acc.wants(group::FORCED_CAPTURE) {
        suicide::forced_capture(pos, &attacks, acc);
    }
    acc.add(idx::TEMPO, if pos.turn().is_white() { 1 } else { -1 });
}

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

#[cfg(test)]
mod tests {
    use super::*;
    use movegen::variants::{Atomic, Chess, Knightmate, Suicide};

    #[test]
    fn start_position_is_balanced_but_for_tempo() {
        let p = EvalParams::default_for(VariantKind::Chess);
        assert_eq!(
            evaluate(&Position::<Chess>::startpos(), &p),
            p.weights[idx::TEMPO]
        );
        let s = EvalParams::default_for(VariantKind::Suicide);
        assert_eq!(evaluate(&Position::<Suicide>::startpos(), &s), 10);
    }

    #[test]
    fn evaluation_is_the_phase_blend_of_the_dot_products_of_features_and_weights() {
        let p = EvalParams::default_for(VariantKind::Atomic);
        let mut pos = Position::<Atomic>::startpos();
        for i in 0..40 {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            pos = pos.play_unchecked(moves[(i * 7) % moves.len()]);
            // Atomic's weights have halves of their own: the evaluation is
            // the two dot products blended by the phase.
            let f = features_and_phase(&pos);
            let dot = |half: &[i32]| -> i64 {
                f.counts
                    .iter()
                    .zip(half)
                    .map(|(&a, &b)| i64::from(a) * i64::from(b))
                    .sum()
            };
            let (mg, eg) = (dot(&p.weights[..EG]), dot(&p.weights[EG..]));
            assert!(!f.drawn);
            let white = if pos.turn().is_white() { 1 } else { -1 };
            assert_eq!(
                taper(mg, eg, f.phase),
                i64::from(white * evaluate(&pos, &p))
            );
        }
    }

    /// The king danger of `color`'s king, square by square: the enemy
    /// attackers of each square around it (the slow reference of the count
    /// [`eval_terms`] gathers from the attack sets).
    fn danger_by_squares<V: Variant>(pos: &Position<V>, color: Color) -> i32 {
        let occ = pos.board().occupied();
        pos.king(color).map_or(0, |k| {
            king_attacks(k)
                .map(|sq| pos.attackers_to(sq, color.other(), occ).count() as i32)
                .sum()
        })
    }

    /// Calls `check` on each position of 400 plies of deterministic
    /// playouts of `V` (a new game from the start after each end); the
    /// term modules' tests walk the same positions.
    pub(super) fn for_playout_positions<V: Variant>(mut check: impl FnMut(&Position<V>)) {
        let mut pos = Position::<V>::startpos();
        for i in 0..400 {
            let moves = pos.legal_moves();
            if moves.is_empty() || V::end_by_rule(&pos).is_some() {
                pos = Position::<V>::startpos();
                continue;
            }
            pos = pos.play_unchecked(moves[(i * 7 + i / 5) % moves.len()]);
            check(&pos);
        }
    }

    fn king_danger_matches_the_square_by_square_count<V: Variant>() {
        let mut seen = 0;
        for_playout_positions::<V>(|pos| {
            let expected =
                danger_by_squares(pos, Color::Black) - danger_by_squares(pos, Color::White);
            seen += expected.abs();
            assert_eq!(features(pos)[idx::KING_DANGER], expected, "{}", pos.fen());
        });
        assert!(seen > 0, "no position had any king danger");
    }

    #[test]
    fn king_danger_is_the_attackers_of_the_squares_around_the_king() {
        king_danger_matches_the_square_by_square_count::<Chess>();
        king_danger_matches_the_square_by_square_count::<movegen::variants::ThreeCheck>();
        king_danger_matches_the_square_by_square_count::<Atomic>();
        king_danger_matches_the_square_by_square_count::<movegen::variants::Losers>();
        king_danger_matches_the_square_by_square_count::<Knightmate>();
    }

    #[test]
    fn check_squares_match_the_square_by_square_count() {
        // Threecheck counts every king's safe and guarded checks: the sum of
        // each group is Black's king's minus White's (each counted against
        // its owner).
        let (mut safe, mut guarded) = (0, 0);
        for_playout_positions::<movegen::variants::ThreeCheck>(|pos| {
            let slow = |c: Color| {
                pos.king(c).map_or(Default::default(), |k| {
                    king_attack::check_squares_by_squares(pos, c, k)
                })
            };
            let (w, b) = (slow(Color::White), slow(Color::Black));
            let f = features(pos);
            let sum = |first: usize| f[first..first + 4].iter().sum::<i32>();
            assert_eq!(sum(idx::SAFE_CHECKS), b.safe - w.safe, "{}", pos.fen());
            assert_eq!(
                sum(idx::GUARDED_CHECKS),
                b.guarded - w.guarded,
                "{}",
                pos.fen()
            );
            safe += b.safe + w.safe;
            guarded += b.guarded + w.guarded;
        });
        assert!(safe > 0 && guarded > 0, "safe {safe}, guarded {guarded}");
    }

    #[test]
    fn terms_with_zero_weights_are_skipped_without_changing_the_score() {
        // With the threats by pawns and the king attack at 0 the engine
        // skips them; with weights there it must not.
        let mut p = EvalParams::default_for(VariantKind::ThreeCheck);
        for group in [
            idx::THREAT_BY_PAWN..idx::THREAT_BY_PAWN + 7,
            idx::KING_ATTACK..idx::KING_ATTACK + 16,
        ] {
            p.weights[group.clone()].fill(0);
            p.weights[EG + group.start..EG + group.end].fill(0);
        }
        let score = Score::new(&p.weights);
        assert!(!score.wants(group::THREAT_BY_PAWN));
        assert!(!score.wants(group::KING_ATTACK));
        assert!(score.wants(group::MATERIAL));
        p.weights[EG + idx::KING_ATTACK + 15] = 1;
        assert!(
            Score::new(&p.weights).wants(group::KING_ATTACK),
            "an endgame half alone counts"
        );
        for i in 0..NUM_TERMS {
            p.weights[i] = (i as i32 % 13) - 6;
            p.weights[EG + i] = (i as i32 % 11) - 5;
        }
        let mut pos = Position::<movegen::variants::ThreeCheck>::startpos();
        for i in 0..60 {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            pos = pos.play_unchecked(moves[(i * 13) % moves.len()]);
            let white = if pos.turn().is_white() { 1 } else { -1 };
            let f = features_and_phase(&pos);
            let expected = f
                .score(&p.weights)
                .clamp(-i64::from(MAX_EVAL), i64::from(MAX_EVAL));
            assert_eq!(i64::from(white * evaluate(&pos, &p)), expected);
        }
    }

    #[test]
    fn king_open_files_counts_the_pawnless_files_at_and_beside_the_king() {
        // White's king on a1 behind pawns on a2 and b2: none open (the
        // a-file has no left neighbour). Black's king on e8 with pawns on d7
        // and f7: the e-file, counted against Black.
        let pos = Position::<Chess>::from_fen("4k3/3p1p2/8/8/8/8/PP6/K7 w - - 0 1").unwrap();
        assert_eq!(features(&pos)[idx::KING_OPEN_FILES], 1);
        // White's king on e1 with a pawn on a2 only: d, e and f open.
        let pos = Position::<Chess>::from_fen("4k3/3ppp2/8/8/8/8/P7/4K3 w - - 0 1").unwrap();
        assert_eq!(features(&pos)[idx::KING_OPEN_FILES], -3);
        // The h-file edge: g and h, the pawn on g2 closes one.
        let [g2, h1] = ["g2", "h1"].map(|s| Square::parse(s).unwrap());
        assert_eq!(super::king_open_files(h1, Bitboard::from_square(g2)), 1);
    }

    #[test]
    fn king_flank_attack_counts_the_enemy_attacks_on_the_kings_flank_in_its_camp() {
        // The flank squares by hand: g1's is e1-h5, e8's c4-f8, b1's a1-d5.
        let sq = |s: &str| Square::parse(s).unwrap();
        let squares = |b: Bitboard| b.count();
        assert_eq!(squares(super::king_flank(sq("g1"), Color::White)), 20);
        let flank = super::king_flank(sq("g1"), Color::White);
        assert!(flank.contains(sq("e1")) && flank.contains(sq("h5")));
        assert!(!flank.contains(sq("d1")) && !flank.contains(sq("e6")));
        let flank = super::king_flank(sq("e8"), Color::Black);
        assert!(flank.contains(sq("c4")) && flank.contains(sq("f8")));
        assert!(!flank.contains(sq("c3")) && !flank.contains(sq("g8")));
        let flank = super::king_flank(sq("b1"), Color::White);
        assert!(flank.contains(sq("a1")) && flank.contains(sq("d5")));
        assert!(!flank.contains(sq("e1")) && !flank.contains(sq("a6")));
        // Kings alone but White's, g1, under a black rook on e8 (e1-e7 but
        // e6 and e7 out of the camp: e1..e5, five squares) and a black
        // knight on h4 (f3, g2, f5, g6: f3, g2 and f5 in the flank; none twice):
        // 8 against White; Black's king on a8 has no white attacker near.
        let pos = Position::<Chess>::from_fen("k3r3/8/8/8/7n/8/8/6K1 w - - 0 1").unwrap();
        assert_eq!(features(&pos)[idx::KING_FLANK_ATTACK], -8);
        // A second black rook on f8 attacks f1-f5: the attacked flank
        // squares are now e1-e5, f1-f5 and g2 (11), and f3 and f5 are
        // attacked twice (knight and rook), counted again: 13.
        let pos = Position::<Chess>::from_fen("k3rr2/8/8/8/7n/8/8/6K1 w - - 0 1").unwrap();
        assert_eq!(features(&pos)[idx::KING_FLANK_ATTACK], -13);
    }

    #[test]
    fn pawn_storm_counts_the_unblocked_enemy_pawns_nearest_the_king_by_rank() {
        // White's king on g1. Black pawns: f4 (rank index 3 for White), g6
        // and g7 (the nearer, g6: 5), h3 blocked by White's h2 (not
        // counted), and a5 far from the king. Black's king on b8: White's
        // a5 (rank index 3 from Black's side) storms it; c2 (6) too.
        let pos = Position::<Chess>::from_fen("1k6/6p1/6p1/P7/5p2/7p/2P4P/6K1 w - - 0 1").unwrap();
        let f = features(&pos);
        let storm = &f[idx::PAWN_STORM..idx::PAWN_STORM + 8];
        // Against White: ranks 3 and 5; against Black: 3 and 6.
        assert_eq!(storm, &[0, 0, 0, -1 + 1, 0, -1, 1, 0]);
        // Each side alone, through the helper.
        let [g1, b8] = ["g1", "b8"].map(|s| Square::parse(s).unwrap());
        let b = pos.board();
        let storm_ranks = |k: Square, color: Color| {
            let mut ranks = Vec::new();
            let (own, enemy) = (
                b.pieces(color, Role::Pawn),
                b.pieces(color.other(), Role::Pawn),
            );
            super::pawn_storm(k, color, own, enemy, |r| ranks.push(r));
            ranks
        };
        assert_eq!(storm_ranks(g1, Color::White), [3, 5]);
        assert_eq!(storm_ranks(b8, Color::Black), [3, 6]);
    }

    #[test]
    fn phase_counts_non_pawn_material_or_pieces_where_captures_are_forced() {
        assert_eq!(phase(&Position::<Chess>::startpos()), PHASE_MAX);
        assert_eq!(phase(&Position::<Suicide>::startpos()), PHASE_MAX);
        assert_eq!(
            phase(&Position::<Knightmate>::startpos()),
            PHASE_MAX,
            "commoners count as minor pieces"
        );
        // A rook and a knight against a queen: 2 + 1 + 4.
        let pos = Position::<Chess>::from_fen("3qk3/8/8/8/8/8/PPP5/1N2K2R w - - 0 1").unwrap();
        assert_eq!(phase(&pos), 7);
        // Eight queens of a side are a middlegame, not more than one.
        let pos = Position::<Chess>::from_fen("k7/8/8/8/8/8/1QQQQ3/1QQQQ1K1 w - - 0 1").unwrap();
        assert_eq!(phase(&pos), PHASE_MAX);
        // Suicide: eight pieces of 32, whatever they are.
        let pos = Position::<Suicide>::from_fen("q7/pp6/8/8/8/8/8/RRNK4 w - - 0 1").unwrap();
        assert_eq!(phase(&pos), 7 * PHASE_MAX / 32);
    }

    #[test]
    fn the_halves_are_blended_by_phase() {
        assert_eq!(taper(240, 0, PHASE_MAX), 240);
        assert_eq!(taper(240, 0, 0), 0);
        assert_eq!(taper(240, 480, 12), 360);
        assert_eq!(taper(-7, -7, 5), -7);
        assert_eq!(taper(1, 0, 12), 0);
        assert_eq!(taper(-1, 0, 12), 0, "truncated toward zero, as its mirror");
        // A pawn worth 100 in the middlegame and 200 in the endgame: three
        // pawns against a knight (phase 1) count nearly the endgame value.
        let mut p = EvalParams::default_for(VariantKind::Chess);
        p.weights[EG + idx::MATERIAL] = 200;
        let pos = Position::<Chess>::from_fen("4k3/8/8/8/8/n7/PPP5/4K3 w - - 0 1").unwrap();
        let f = features_and_phase(&pos);
        assert_eq!(f.phase, 1);
        let white = if pos.turn().is_white() { 1 } else { -1 };
        assert_eq!(f.score(&p.weights), i64::from(white * evaluate(&pos, &p)));
        let mut equal = p.clone();
        equal.weights[EG + idx::MATERIAL] = 100;
        let gain = f.score(&p.weights) - f.score(&equal.weights);
        // Each score is truncated on its own: the gain within one.
        assert!((gain - taper(0, 3 * 100, 1)).abs() <= 1, "{gain}");
    }

    #[test]
    fn evaluation_is_the_tapered_sum_of_features_with_distinct_halves() {
        // Endgame halves unlike the middlegame ones in every group.
        let mut p = EvalParams::default_for(VariantKind::Chess);
        for i in 0..NUM_TERMS {
            p.weights[EG + i] = p.weights[i] * 2 - (i as i32 % 7);
        }
        let mut pos = Position::<Chess>::startpos();
        for i in 0..120 {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            pos = pos.play_unchecked(moves[(i * 11) % moves.len()]);
            let f = features_and_phase(&pos);
            assert_eq!(f.phase, phase(&pos));
            let mg: i64 = f
                .counts
                .iter()
                .zip(&p.weights)
                .map(|(&c, &w)| i64::from(c * w))
                .sum();
            let eg: i64 = f
                .counts
                .iter()
                .zip(&p.weights[EG..])
                .map(|(&c, &w)| i64::from(c * w))
                .sum();
            let white = if pos.turn().is_white() { 1 } else { -1 };
            assert_eq!(
                taper(mg, eg, f.phase),
                i64::from(white * evaluate(&pos, &p))
            );
        }
    }

    #[test]
    fn a_group_sets_both_halves_and_its_eg_key_the_endgame_half() {
        let p = EvalParams::from_toml(
            VariantKind::Chess,
            "tempo_eg = 3\ntempo = 20\n[material_eg]\npawn = 150\n[material]\npawn = 90\nknight = 310\n",
            "t",
        )
        .unwrap();
        assert_eq!((p.weights[idx::TEMPO], p.weights[EG + idx::TEMPO]), (20, 3));
        assert_eq!(p.weights[idx::MATERIAL], 90);
        assert_eq!(p.weights[EG + idx::MATERIAL], 150);
        assert_eq!(
            p.weights[EG + idx::MATERIAL + 1],
            310,
            "the group sets both halves"
        );
        assert_eq!(
            EvalParams::weight_name(EG + idx::MATERIAL),
            "material_eg.pawn"
        );
        assert_eq!(
            EvalParams::weight_index("pst_king_eg.e4"),
            Some(EG + idx::PST_KING + 28)
        );
        let text = p.to_toml();
        assert!(
            text.contains("tempo_eg = 3\n") && text.contains("[material_eg]\n"),
            "{text}"
        );
        assert!(
            !text.contains("pst_knight_eg"),
            "equal halves are written once: {text}"
        );
        assert_eq!(
            EvalParams::from_toml(VariantKind::Chess, &text, "t").unwrap(),
            p
        );
        let mut both = p.clone();
        both.set(idx::TEMPO, 7);
        assert_eq!(
            (both.weights[idx::TEMPO], both.weights[EG + idx::TEMPO]),
            (7, 7)
        );
        both.set(EG + idx::TEMPO, 8);
        assert_eq!(
            (both.weights[idx::TEMPO], both.weights[EG + idx::TEMPO]),
            (7, 8)
        );
        let err =
            EvalParams::from_toml(VariantKind::Chess, "tempo_eg = 20000", "f.toml").unwrap_err();
        assert!(err.to_string().contains("weight tempo_eg = 20000"), "{err}");
    }

    #[test]
    fn the_mobility_area_leaves_out_squares_enemy_pawns_attack() {
        // The knight on d4 reaches 8 squares; the black pawns on d7 and g6
        // attack c6, e6 and f5 of them, so 5 are in its mobility area.
        let pos = Position::<Chess>::from_fen("4k3/3p4/6p1/8/3N4/8/8/4K3 w - - 0 1").unwrap();
        let f = features(&pos);
        let knight = Role::Knight.index();
        assert_eq!(f[idx::MOBILITY + knight], 8);
        assert_eq!(f[idx::MOBILITY_AREA + knight], 5);
    }

    #[test]
    fn a_draw_by_insufficient_material_scores_0_where_the_switch_is_on() {
        // K+N v K is a draw by chess's rule, not three pawns up.
        let pos = Position::<Chess>::from_fen("4k3/8/8/8/8/8/8/3NK3 w - - 0 1").unwrap();
        let mut p = EvalParams::default_for(VariantKind::Chess);
        assert!(evaluate(&pos, &p) > 250);
        p.weights[idx::INSUFFICIENT_MATERIAL] = 1;
        assert_eq!(evaluate(&pos, &p), 0);
        let f = features_and_phase(&pos);
        assert!(f.drawn);
        assert_eq!(f.score(&p.weights), 0);
        // A pawn more can still win: not drawn by the rule.
        let pos = Position::<Chess>::from_fen("4k3/8/8/8/8/8/4P3/3NK3 w - - 0 1").unwrap();
        assert!(evaluate(&pos, &p) > 250);
        // Threecheck has no such rule for a knight: checks still win.
        let three = Position::<movegen::variants::ThreeCheck>::from_fen(
            "4k3/8/8/8/8/8/8/3NK3 w - - 3+3 0 1",
        )
        .unwrap();
        let mut t = EvalParams::default_for(VariantKind::ThreeCheck);
        t.weights[idx::INSUFFICIENT_MATERIAL] = 1;
        assert!(evaluate(&three, &t) > 250);
    }

    /// The weights of `data/sprt/eval/<name>.toml` over `kind`'s defaults.
    fn sprt_eval_file(kind: VariantKind, name: &str) -> EvalParams {
        let file = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../data/sprt/eval")
            .join(format!("{name}.toml"));
        EvalParams::load(kind, &file).unwrap()
    }

    /// Every weight is named as the TOML writes its group: by piece for a
    /// by-piece group (a table in the file), by square for a table of
    /// squares, by position otherwise; the old positional names of the
    /// by-piece groups still find their weight, and every name is unique.
    #[test]
    fn weights_are_named_by_their_groups_shape() {
        let rook = Role::Rook.index();
        assert_eq!(EvalParams::weight_name(idx::HANGING + rook), "hanging.rook");
        assert_eq!(
            EvalParams::weight_name(EG + idx::THREAT_BY_MINOR + Role::Queen.index()),
            "threat_by_minor_eg.queen"
        );
        assert_eq!(
            EvalParams::weight_name(idx::PASSED_PAWN + 5),
            "passed_pawn.5"
        );
        assert_eq!(EvalParams::weight_name(idx::TEMPO), "tempo");
        assert_eq!(
            EvalParams::weight_index("hanging.rook"),
            Some(idx::HANGING + rook)
        );
        assert_eq!(
            EvalParams::weight_index("hanging.3"),
            Some(idx::HANGING + rook)
        );
        assert_eq!(EvalParams::weight_index("hanging.7"), None);
        assert_eq!(EvalParams::weight_index("tempo.0"), None);
        let names: std::collections::BTreeSet<String> =
            (0..NUM_WEIGHTS).map(EvalParams::weight_name).collect();
        assert_eq!(names.len(), NUM_WEIGHTS);
        for g in GROUPS.iter().chain(EG_GROUPS) {
            assert_eq!(g.len, g.shape.len(), "{}", g.name);
            let text = EvalParams::default_for(VariantKind::Chess).to_toml();
            if g.shape == Shape::ByPiece {
                assert!(text.contains(&format!("[{}]\n", g.name)) || g.name.ends_with("_eg"));
            }
        }
    }

    #[test]
    fn tuned_games_defaults_are_their_texel_files() {
        // The Texel file, every weight of the game (the hand-set steps
        // before it are in its piece-square tables only, but threecheck's,
        // fitted too).
        for kind in [
            VariantKind::Chess,
            VariantKind::Atomic,
            VariantKind::ThreeCheck,
            VariantKind::Knightmate,
        ] {
            let d = EvalParams::default_for(kind);
            let (text, name) = tuned_weights_file(kind).unwrap();
            let file = Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("../..")
                .join(name);
            assert_eq!(EvalParams::load(kind, &file).unwrap(), d, "{name}");
            // The file names every weight: over all ones it gives the same
            // as over the zeros the defaults start from.
            let mut ones = EvalParams {
                variant: kind,
                weights: vec![1; NUM_WEIGHTS],
            };
            ones.apply_toml(text, name).unwrap();
            assert_eq!(ones, d, "{name}");
            // What the fits turned on that was 0: the king-attack table
            // (knightmate's fit leaves it at 0 and prices the danger on the
            // royal knight's own squares instead).
            let turned_on = match kind {
                VariantKind::Knightmate => idx::ROYAL_KNIGHT_DANGER,
                _ => idx::KING_ATTACK + 15,
            };
            assert_ne!(d.weights[turned_on], 0, "{name}");
            assert_ne!(
                d.weights[idx::MATERIAL + Role::Queen as usize],
                d.weights[EG + idx::MATERIAL + Role::Queen as usize],
                "{name}"
            );
        }
        for kind in [VariantKind::Suicide, VariantKind::Losers] {
            assert_eq!(tuned_weights_file(kind), None);
        }
    }

    #[test]
    fn suicide_and_losers_defaults_hold_the_last_files_that_passed_their_sprt() {
        // A file sets only the weights of its own step, so it holds the
        // defaults until a later step changes those weights (the first
        // suicide and losers files no longer do).
        for (kind, name) in [
            (VariantKind::Suicide, "suicide-piece-count-50"),
            (VariantKind::Suicide, "suicide-legal-mobility-60"),
            (VariantKind::Suicide, "suicide-forced-capture"),
            (VariantKind::Suicide, "suicide-offer-squares-300"),
            (VariantKind::Losers, "losers-material-quarter"),
            (VariantKind::Losers, "losers-forced-mobility-160"),
        ] {
            let d = EvalParams::default_for(kind);
            assert_eq!(sprt_eval_file(kind, name), d, "{name}");
        }
        let suicide = EvalParams::default_for(VariantKind::Suicide);
        assert_eq!(suicide.weights[idx::PIECE_COUNT], 50);
        assert_eq!(suicide.weights[idx::LEGAL_MOBILITY], 60);
        assert_eq!(suicide.weights[idx::FORCED_CAPTURE], -1000);
        assert_eq!(suicide.weights[idx::OFFER_SQUARES], 300);
    }

    #[test]
    fn weights_beyond_the_bound_are_refused_naming_the_weight() {
        let err = EvalParams::from_toml(VariantKind::Chess, "[material]\npawn = 20000\n", "w.toml")
            .unwrap_err()
            .to_string();
        assert!(err.contains("w.toml"), "{err}");
        assert!(err.contains("material.pawn = 20000"), "{err}");
        assert!(err.contains(&MAX_WEIGHT.to_string()), "{err}");
        let err = EvalParams::from_toml(VariantKind::Chess, "tempo = -10001", "w.toml")
            .unwrap_err()
            .to_string();
        assert!(err.contains("weight tempo = -10001"), "{err}");
        let ok = EvalParams::from_toml(VariantKind::Chess, "tempo = -10000", "w.toml").unwrap();
        assert_eq!(ok.weights[idx::TEMPO], -MAX_WEIGHT);
    }

    #[test]
    fn extreme_weights_keep_the_evaluation_below_the_mate_range() {
        // Weights set in memory (the tuner does) are not bounded; the
        // evaluation still is, with no overflow.
        let mut p = EvalParams::default_for(VariantKind::Chess);
        p.set(idx::MATERIAL, i32::MAX);
        let white = Position::<Chess>::from_fen("4k3/8/8/8/8/8/PPP5/4K3 w - - 0 1").unwrap();
        assert_eq!(evaluate(&white, &p), MAX_EVAL);
        let black = Position::<Chess>::from_fen("4k3/8/8/8/8/8/PPP5/4K3 b - - 0 1").unwrap();
        assert_eq!(evaluate(&black, &p), -MAX_EVAL);
        assert!(MAX_EVAL < crate::score::MATE_BOUND && MAX_EVAL <= i32::from(i16::MAX));
    }

    #[test]
    fn toml_round_trip_and_errors() {
        for kind in VariantKind::ALL {
            let mut p = EvalParams::default_for(kind);
            p.weights[idx::MATERIAL + 4] = 777;
            p.weights[idx::PST_KNIGHT + 28] = -3;
            let back = EvalParams::from_toml(kind, &p.to_toml(), "test").unwrap();
            assert_eq!(back, p);
        }
        let partial =
            EvalParams::from_toml(VariantKind::Suicide, "[material]\nqueen = 550\n", "t").unwrap();
        assert_eq!(partial.weights[idx::MATERIAL + 4], 550);
        let err = EvalParams::from_toml(VariantKind::Chess, "nonsense = 3", "f.toml").unwrap_err();
        assert!(
            err.to_string()
                .contains("unknown weight group \"nonsense\""),
            "{err}"
        );
        let err = EvalParams::from_toml(VariantKind::Chess, "tempo = [1,2]", "f.toml").unwrap_err();
        assert!(err.to_string().contains("must be an integer"), "{err}");
        let err = EvalParams::from_toml(VariantKind::Chess, "variant = \"atomic\"", "f.toml")
            .unwrap_err();
        assert!(err.to_string().contains("not chess"), "{err}");
        assert!(EvalParams::from_toml(VariantKind::Chess, "x = ", "f.toml").is_err());
        for empty in ["", "\n# nothing\n", "variant = \"chess\"\n"] {
            let err = EvalParams::from_toml(VariantKind::Chess, empty, "f.toml").unwrap_err();
            assert!(err.to_string().contains("f.toml: sets no weights"), "{err}");
        }
    }
}
