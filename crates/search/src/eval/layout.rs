//! The weight layout: every group of weights, its name, its place in the
//! weight vector and its shape, declared once in the `layout!` table, from
//! which come the offsets ([`idx`]), the groups ([`group`], [`GROUPS`],
//! [`EG_GROUPS`]) and the sizes. A group's shape, not its length, says how
//! its weights are named and written.

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
        /// a term asks [`TermSink::wants`](super::TermSink::wants) about.
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
