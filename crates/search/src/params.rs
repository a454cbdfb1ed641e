//! Search settings: every constant that shapes the search's tree or its use
//! of the clock lives in one [`SearchParams`] value, so variants of the search
//! can be A/B-tested in one binary (`search=FILE` in `varia match`, the UCI
//! option `SearchFile`, `--search FILE`) and tuned by SPSA without
//! recompiling.
//!
//! The fields are declared once, in the `search_params!` table below, with
//! their default, their valid range and their doc; from that table come the
//! struct, [`Default`], the enumerable [`SearchParams::fields`] list (what a
//! tuner walks), [`SearchParams::set`] by name, and TOML load and save
//! through [`crate::param_file`], the one helper and error type of the
//! evaluation's files too (an unknown key is named and the known ones
//! listed; a value outside its range says so).
//! A TOML file sets any subset of the fields; the rest keep their defaults.
//!
//! Defaults are per game, as the evaluation's are: [`Default`] holds the
//! values every game shares (chess plays them as they are), and
//! [`SearchParams::default_for`] sets on top of them the few a game's SPRT
//! rows decided otherwise, from that game's file `data/search/games/<game>.toml`
//! (built into the binary, each value under its evidence), picked by one
//! exhaustive match so a new game must bring its file. A file is
//! read for one game ([`SearchParams::from_toml`] takes the kind) and sets
//! its fields on top of that game's defaults, so `check_extension = 0` in a
//! file turns the extension off in atomic too, while a file that does not
//! name a field leaves the game's choice alone.
//!
//! Integer fields stay integers, read by the search exactly as the literals
//! they replace were, so the default settings search the very same tree
//! (the bench signature proves it). The two late-move-reduction coefficients
//! are `f64`, as in the formula they come from.
//!
//! Left out on purpose, as compile-time constants: sizes and score scales
//! that arrays and the transposition table depend on (`MAX_PLY`, `MATE`,
//! `MATE_BOUND`, `INF`, the table layout), move-ordering tiers (they are
//! ranks, not tunable margins), and the move overhead, which is a protocol
//! setting of its own (`limits::MOVE_OVERHEAD`).

use crate::param_file::ParamsError;
use movegen::VariantKind;
use std::path::Path;

/// One field of [`SearchParams`] as a tuner sees it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ParamField {
    /// Name in TOML files (the struct field's name).
    pub name: &'static str,
    /// Current value.
    pub value: f64,
    /// Smallest valid value.
    pub min: f64,
    /// Largest valid value.
    pub max: f64,
    /// `true` if only whole numbers are valid.
    pub integer: bool,
}

/// Why a value could not be set.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum FieldError {
    /// No field has this name.
    #[error("unknown search parameter \"{key}\" (known: {known})")]
    UnknownKey {
        /// The name given.
        key: String,
        /// Every valid name, comma-separated.
        known: String,
    },
    /// The value is outside the field's range.
    #[error("search parameter \"{key}\" = {value} is out of range {min}..={max}")]
    OutOfRange {
        /// Field.
        key: String,
        /// Value given.
        value: f64,
        /// Smallest valid value.
        min: f64,
        /// Largest valid value.
        max: f64,
    },
    /// A fractional value, or a non-number, for a field that needs another type.
    #[error("search parameter \"{key}\" must be {expected}, found {found}")]
    WrongType {
        /// Field.
        key: String,
        /// What the field takes ("an integer", "a number").
        expected: &'static str,
        /// What was given.
        found: String,
    },
}

/// Errors loading or saving a search settings file: the one error of
/// every parameter file ([`crate::param_file`]), under its former name.
pub type SearchParamsError = ParamsError;

/// A field type of [`SearchParams`]: converts to and from the `f64` a tuner
/// and a TOML number share.
trait ParamValue: Copy {
    /// Only whole numbers are valid.
    const INTEGER: bool;
    fn to_f64(self) -> f64;
    fn from_f64(v: f64) -> Self;
    /// TOML text of the value (round-trips exactly).
    fn to_toml(self) -> String;
}

impl ParamValue for i32 {
    const INTEGER: bool = true;
    fn to_f64(self) -> f64 {
        self as f64
    }
    fn from_f64(v: f64) -> i32 {
        v as i32
    }
    fn to_toml(self) -> String {
        self.to_string()
    }
}

impl ParamValue for f64 {
    const INTEGER: bool = false;
    fn to_f64(self) -> f64 {
        self
    }
    fn from_f64(v: f64) -> f64 {
        v
    }
    fn to_toml(self) -> String {
        // `{:?}` is the shortest text that parses back to the same f64 and
        // always has a decimal point, so TOML reads it as a float.
        format!("{self:?}")
    }
}

macro_rules! search_params {
    ($( $(#[doc = $doc:literal])+ $name:ident : $ty:ty = $default:expr, $min:literal ..= $max:literal; )+) => {
        /// Every search constant worth changing, with today's engine as the
        /// default ([`Default`]: the values every game shares;
        /// [`SearchParams::default_for`]: one game's). See the module doc for
        /// what is left out.
        #[derive(Clone, Debug, PartialEq)]
        pub struct SearchParams {
            $( $(#[doc = $doc])+ pub $name: $ty, )+
        }

        impl Default for SearchParams {
            fn default() -> SearchParams {
                SearchParams { $( $name: $default, )+ }
            }
        }

        /// Names of the fields, in declaration order.
        pub const FIELD_NAMES: &[&str] = &[$(stringify!($name)),+];

        /// Doc of each field, one line per doc line, in declaration order
        /// (the comments of a saved file).
        const FIELD_DOCS: &[&str] = &[$( concat!($($doc, "\n"),+) ),+];

        impl SearchParams {
            /// Every field with its value and range, in declaration order.
            pub fn fields(&self) -> Vec<ParamField> {
                vec![$(ParamField {
                    name: stringify!($name),
                    value: ParamValue::to_f64(self.$name),
                    min: $min as f64,
                    max: $max as f64,
                    integer: <$ty as ParamValue>::INTEGER,
                }),+]
            }

            /// Sets the field `name` to `value`, which must be in its range
            /// (and whole for an integer field).
            pub fn set(&mut self, name: &str, value: f64) -> Result<(), FieldError> {
                match name {
                    $(stringify!($name) => {
                        check(name, value, $min as f64, $max as f64, <$ty as ParamValue>::INTEGER)?;
                        self.$name = <$ty as ParamValue>::from_f64(value);
                        Ok(())
                    })+
                    _ => Err(unknown(name)),
                }
            }

            /// The values as TOML text, one `name = value` per field.
            fn values_toml(&self) -> Vec<String> {
                vec![$(ParamValue::to_toml(self.$name)),+]
            }
        }
    };
}

search_params! {
    /// Late-move reduction: constant term of `base + ln(depth) * ln(move number) / divisor`.
    lmr_base: f64 = 0.75, 0.0..=4.0;
    /// Late-move reduction: divisor of the `ln(depth) * ln(move number)` term.
    lmr_divisor: f64 = 2.25, 0.5..=10.0;
    /// Late-move reduction: least remaining depth at which moves are reduced.
    lmr_min_depth: i32 = 3, 2..=20;
    /// Late-move reduction: index (from 0) of the first move that may be reduced.
    lmr_min_move: i32 = 3, 1..=64;
    /// Late-move reduction: 1 reduces a quiet move one ply more in a node
    /// that is not improving (its static evaluation no higher than that of
    /// its side's node two plies before); 0 ignores the trend.
    lmr_improving: i32 = 0, 0..=1;
    /// Late-move reduction: plies more for a quiet move of an expected cut
    /// node (a zero-window node that its parent searched as a later move,
    /// or the first move's child of an expected all node), where the first
    /// moves usually refute and the rest matter little; 0: no difference.
    lmr_cut_node: i32 = 2, 0..=4;
    /// Reverse futility pruning: greatest remaining depth where it applies.
    rfp_max_depth: i32 = 8, 0..=20;
    /// Reverse futility pruning: margin per ply of depth, in centipawns.
    rfp_margin: i32 = 90, 0..=1000;
    /// Reverse futility pruning: 1 takes one ply off the margin's depth
    /// in an improving node (see `lmr_improving`), so a node on the rise
    /// is pruned sooner; 0 ignores the trend.
    rfp_improving: i32 = 1, 0..=1;
    /// Razoring: greatest remaining depth where a non-PV node whose static
    /// evaluation plus `razor_base + razor_margin * depth * depth` is below
    /// alpha is resolved by quiescence, returning its score when that stays
    /// below alpha too (0: never; not in check, nor where suicide or losers
    /// force a capture).
    razor_max_depth: i32 = 0, 0..=10;
    /// Razoring: margin in centipawns at any depth.
    razor_base: i32 = 250, 0..=5000;
    /// Razoring: margin in centipawns per square of the depth.
    razor_margin: i32 = 150, 0..=2000;
    /// Forced-capture games (suicide, losers): 1 turns reverse futility
    /// pruning off in a node whose side to move must capture, and late-move
    /// reductions off for a quiet move that leaves the opponent a capture it
    /// must make; 0 prunes and reduces them like any other node and move.
    forced_capture_guard: i32 = 1, 0..=1;
    /// Move-count (late-move) pruning: greatest remaining depth where quiet
    /// moves past the first `lmp_base + depth * depth` moves of a node are
    /// not searched (0: never). Not in PV nodes, in check, for a move that
    /// checks, nor where suicide or losers force or offer a capture.
    lmp_max_depth: i32 = 8, 0..=20;
    /// Move-count pruning: moves of a node always searched at depth 0 (the
    /// count grows by the square of the depth).
    lmp_base: i32 = 3, 0..=64;
    /// Move-count pruning: 1 halves the count of moves searched in a node
    /// that is not improving (Stockfish's `(3 + d * d) / (2 - improving)`);
    /// 0 ignores the trend.
    lmp_improving: i32 = 1, 0..=1;
    /// Futility pruning: greatest remaining depth where a quiet move is not
    /// searched when the static evaluation plus `futility_base +
    /// futility_margin * depth` is at most alpha (0: never); same exceptions
    /// as move-count pruning.
    futility_max_depth: i32 = 8, 0..=20;
    /// Futility pruning: margin in centipawns at any depth.
    futility_base: i32 = 50, 0..=1000;
    /// Futility pruning: margin in centipawns per ply of depth.
    futility_margin: i32 = 100, 0..=1000;
    /// Futility pruning: 1 decides it per quiet move at the depth the move
    /// would be searched to after its late-move reduction (`depth - 1 -
    /// reduction`, Stockfish's `lmrDepth`), up to `futility_max_depth` of
    /// that depth; 0 decides it once per node at the node's depth.
    futility_lmr_depth: i32 = 1, 0..=1;
    /// History pruning: greatest depth after its late-move reduction (as
    /// `futility_lmr_depth`) at which a quiet move whose ordering score
    /// (history, plus the continuation entries where kept) is below
    /// `-history_prune_margin * depth` is not searched (0: never); same
    /// exceptions as move-count pruning.
    history_prune_max_depth: i32 = 4, 0..=20;
    /// History pruning: history units per ply of the node's depth the
    /// score must fall below (the history runs to plus or minus
    /// `history_max`).
    history_prune_margin: i32 = 131072, 0..=4194301;
    /// Internal iterative reduction: a node of at least this remaining depth
    /// without a move from the transposition table is searched one ply
    /// shallower (0: never).
    iir_min_depth: i32 = 4, 0..=20;
    /// Null move pruning: least remaining depth where it is tried (121, deeper than any
    /// search, turns it off).
    nmp_min_depth: i32 = 3, 1..=121;
    /// Null move pruning: base reduction in plies.
    nmp_base_reduction: i32 = 3, 0..=10;
    /// Null move pruning: one more ply of reduction per this many plies of depth.
    nmp_depth_divisor: i32 = 3, 1..=20;
    /// Null move pruning: one more ply of reduction per this many
    /// centipawns the static evaluation stands above beta, at most
    /// `nmp_eval_max` (0: the evaluation adds none).
    nmp_eval_divisor: i32 = 200, 0..=2000;
    /// Null move pruning: most plies `nmp_eval_divisor` adds.
    nmp_eval_max: i32 = 3, 0..=10;
    /// Check extension: a side in check gets at least one ply of full search
    /// (never dropping straight into quiescence) while the ply is below this.
    check_extension_max_ply: i32 = 60, 0..=120;
    /// Check extension: plies added to the remaining depth of a node in check
    /// (while the ply is below `check_extension_max_ply`); 0 only keeps such a
    /// node at depth 1 or more.
    check_extension: i32 = 0, 0..=1;
    /// Single-reply extension (suicide, losers): 1 searches a node whose
    /// side to move has exactly one legal move one ply deeper (a forced
    /// reply costs no depth), within `reply_extension_ply_factor`.
    single_reply_extension: i32 = 0, 0..=1;
    /// Offer ordering (suicide, losers): added to the ordering score of a
    /// quiet move whose moving piece can be captured on its destination,
    /// a move that forces the opponent to capture (Fairy-Stockfish orders
    /// such moves first in its must-capture games); it ranks them above
    /// the other quiet moves of similar history, below the killers (0: no
    /// bonus).
    offer_order_bonus: i32 = 0, 0..=4194304;
    /// Budget of the single-reply and singular extensions:
    /// they apply only below this many times the iteration's depth in
    /// plies, so a long chain of extended replies cannot grow the tree
    /// without end.
    reply_extension_ply_factor: i32 = 2, 1..=8;
    /// Singular extension (not in suicide and losers): 1 searches the
    /// table's move of a node one ply deeper when every other move, searched
    /// at half the depth with a null window `se_margin * depth` below the
    /// stored score, fails low (the move is singular), within
    /// `reply_extension_ply_factor`; when that search instead holds even
    /// though its bound is at least beta, a non-PV node returns the bound
    /// (multi-cut). 0: never.
    singular_extension: i32 = 0, 0..=1;
    /// Singular extension: least remaining depth of a node tested.
    se_min_depth: i32 = 4, 2..=60;
    /// Singular extension: centipawns per ply of depth the null window lies
    /// below the stored score.
    se_margin: i32 = 2, 0..=200;
    /// Singular extension: the stored entry must be at most this many plies
    /// shallower than the node.
    se_tt_depth_slack: i32 = 3, 0..=20;
    /// ProbCut (chess, threecheck, knightmate): 1 tries, in a non-PV node
    /// not in check of at least `probcut_min_depth`, the captures and
    /// promotions whose exchange could reach `beta + probcut_margin` from
    /// the static evaluation, each in quiescence and, if that holds, at four
    /// plies less; one that holds there proves the node's fail high
    /// (stored and returned). 0: never.
    probcut: i32 = 0, 0..=1;
    /// ProbCut: centipawns above beta a capture must prove.
    probcut_margin: i32 = 100, 0..=2000;
    /// ProbCut: least remaining depth where it is tried.
    probcut_min_depth: i32 = 5, 5..=60;
    /// Static exchange evaluation in move ordering (chess, threecheck,
    /// knightmate): 1 orders the captures that lose material in the exchange
    /// on their square after the quiet moves; 0 orders every capture first.
    see_ordering: i32 = 1, 0..=1;
    /// Static exchange evaluation in quiescence (chess, threecheck,
    /// knightmate): 1 skips the captures that lose material in the exchange
    /// on their square (not in check; in threecheck not one that checks).
    see_qsearch_pruning: i32 = 1, 0..=1;
    /// Static exchange evaluation in the main search (chess, threecheck,
    /// knightmate): greatest remaining depth where a move that does not
    /// check is not searched when its exchange loses more than
    /// `see_prune_capture_margin * depth` (a capture or promotion) or
    /// `see_prune_quiet_margin * depth * depth` (a quiet move, the piece
    /// left to be taken on its square); never the first move of a node nor
    /// at the root (0: never).
    see_prune_max_depth: i32 = 6, 0..=20;
    /// SEE pruning: centipawns per ply a capture may lose and be searched.
    see_prune_capture_margin: i32 = 100, 0..=2000;
    /// SEE pruning: centipawns per square of the depth a quiet move may
    /// lose and be searched.
    see_prune_quiet_margin: i32 = 25, 0..=2000;
    /// Quiescence: plies of forced captures (suicide, losers) before the
    /// static evaluation stands in for the rest of the chain.
    max_forced_qply: i32 = 6, 0..=64;
    /// Quiescence in threecheck: quiet checks are tried at the first ply, and
    /// at every later ply by a side with at most this many checks left to
    /// give (0: at the first ply only). Above 0, a side with one check left
    /// plays the first check it finds (it wins at once) without searching
    /// the rest.
    qsearch_checks_left: i32 = 1, 0..=3;
    /// Transposition table: 1 keeps an entry of the current search against a
    /// shallower, non-exact entry of the same position; 0 always overwrites.
    tt_keep_deeper: i32 = 1, 0..=1;
    /// Killer moves and history scores: 1 carries them from one search to
    /// the next of the same game (history halved, killers moved to the new
    /// root's plies), cleared with the table at a new game; 0 starts every
    /// search without them.
    keep_heuristics: i32 = 1, 0..=1;
    /// Iterative deepening: 1 plays the best move of an iteration cut by the
    /// limit when one of its fully searched root moves beat the window; 0
    /// keeps the last completed iteration's move.
    partial_iteration: i32 = 1, 0..=1;
    /// Quiescence: 1 probes the transposition table at every quiescence
    /// node (a cutoff from a stored bound, the stored move first) and stores
    /// the node's result; 0 keeps quiescence out of the table.
    qsearch_tt: i32 = 1, 0..=1;
    /// Aspiration windows: least iteration depth that searches a window
    /// around the last score instead of the full range.
    aspiration_min_depth: i32 = 5, 1..=100;
    /// Aspiration windows: initial half-width in centipawns.
    aspiration_window: i32 = 30, 1..=1000;
    /// Aspiration windows: factor the half-width grows by after a fail.
    aspiration_growth: i32 = 2, 2..=16;
    /// History heuristic: cap of a move's history score (below the killers'
    /// ordering scores, 2^22 - 1 and 2^22, so history never outranks
    /// them); with `history_gravity` and for
    /// `capture_history`, the bound the scores converge within.
    history_max: i32 = 1 << 20, 1..=4194301;
    /// Continuation history: 1 keeps a table of quiet-move scores by the
    /// piece and destination of the move one and two plies before and of
    /// this move (Stockfish's `continuationHistory`), raised and lowered as
    /// the history is, and orders quiet moves by the history plus both
    /// entries; 0 orders them by the history alone.
    continuation_history: i32 = 1, 0..=1;
    /// History gravity: 1 updates the history and the continuation entries
    /// Stockfish's way, `h += bonus - h * |bonus| / history_max`, with
    /// `+bonus` for a quiet move that cut off and `-bonus` for every quiet
    /// move searched before it in that node (so each score stays within
    /// plus or minus `history_max` and old evidence fades as new comes in);
    /// 0 adds depth squared to the cutoff move, saturating at the cap.
    history_gravity: i32 = 1, 0..=1;
    /// History bonus of a cutoff at remaining depth `d` (with
    /// `history_gravity` and for `capture_history`): `history_bonus_quad *
    /// d * d + history_bonus_linear * d - history_bonus_offset`, at most
    /// `history_bonus_max` (and never below 0 nor above `history_max`).
    history_bonus_quad: i32 = 1024, 0..=1000000;
    /// History bonus: coefficient of the depth (see `history_bonus_quad`).
    history_bonus_linear: i32 = 8192, 0..=1000000;
    /// History bonus: constant subtracted (see `history_bonus_quad`).
    history_bonus_offset: i32 = 8192, 0..=1000000;
    /// History bonus: largest bonus (see `history_bonus_quad`).
    history_bonus_max: i32 = 102400, 0..=4194301;
    /// Capture history: 1 keeps a table of capture scores by the moving
    /// piece (with its colour), the destination and the captured piece,
    /// raised with gravity (as `history_gravity`) for a capture that cut
    /// off and lowered for the captures searched before a cutoff, and adds
    /// it, scaled to at most one victim step, to the victim-then-attacker
    /// order of the captures (the static exchange's good/bad split stays);
    /// kept between searches with the history; 0 orders captures by victim
    /// and attacker alone.
    capture_history: i32 = 0, 0..=1;
    /// Correction history: 1 keeps, per side to move and pawn structure
    /// (a hash of both sides' pawns), a running average of how far the
    /// searches of positions with that structure ended from the static
    /// evaluation, and adds it to the static evaluation the search prunes
    /// with (main search and quiescence); kept between searches with the
    /// history. 0 prunes with the evaluation as it is.
    correction_history: i32 = 0, 0..=1;
    /// Table score as evaluation: 1 lets reverse futility pruning, razoring
    /// and the null move, and quiescence's stand-pat, judge a node by its
    /// table entry's score where the entry's bound puts the node above
    /// (lower bound) or below (upper bound) its static evaluation
    /// (Stockfish's `eval = ttValue`); 0 by the static evaluation alone.
    tt_eval_refine: i32 = 1, 0..=1;
    /// Quiescence futility (delta) pruning in chess, threecheck and
    /// knightmate: a capture (not a promotion, not in check; in threecheck
    /// not a checking one) is skipped when the standing score plus the
    /// victim's exchange value plus this margin, in centipawns, is at most
    /// alpha (0: never).
    qsearch_futility_margin: i32 = 200, 0..=10000;
    /// Null move in suicide and losers: 1 tries it there too, in a node
    /// where no capture is forced (Fairy-Stockfish does, with a smaller
    /// reduction); 0 never tries it in those games, where zugzwang is the
    /// rule.
    nmp_forced_capture_games: i32 = 0, 0..=1;
    /// Late-move reduction of bad captures: 1 reduces a capture that
    /// `see_ordering` put after the quiet moves (it loses its exchange) as
    /// a late quiet move is (the formula, PV, trend and cut-node terms);
    /// 0 reduces quiet moves only.
    lmr_bad_captures: i32 = 1, 0..=1;
    /// Correction history: largest correction, in centipawns.
    correction_max: i32 = 64, 1..=1000;
    /// Correction history: weight of one search's error in the average at
    /// most, in 256ths (a node of depth `d` weighs `min(d + 1, this)`).
    correction_weight_max: i32 = 16, 1..=256;
    /// Lazy SMP: helper threads skip ahead on alternate depths beyond this depth.
    smp_skip_min_depth: i32 = 2, 0..=100;
    /// Time management: moves to go assumed when the protocol gives none.
    moves_to_go_default: i32 = 30, 1..=200;
    /// Time management: most moves to go the budget is spread over.
    moves_to_go_max: i32 = 50, 1..=200;
    /// Time management: share of the increment added to the base budget, in permille.
    increment_permille: i32 = 750, 0..=1000;
    /// Time management: soft limit (no new iteration after it) as permille of the base budget.
    soft_permille: i32 = 600, 1..=10000;
    /// Time management: hard limit (stop mid-iteration) as permille of the base budget.
    hard_permille: i32 = 3000, 1..=10000;
    /// Time management: neither limit exceeds this permille of the time left
    /// after the move overhead and the reserve (`reserve_overheads`).
    cap_permille: i32 = 400, 1..=1000;
    /// Time management: move overheads kept back from the bank, beyond the
    /// one every move pays, before `cap_permille` is taken of it. A game
    /// played down to the increment then settles with this much in hand
    /// (a bank below it plays at the 1 ms minimum and grows on the
    /// increment), not a few milliseconds that one slow reply oversteps;
    /// the cap binds only on a bank of a few increments, so healthy banks
    /// budget as without it.
    reserve_overheads: i32 = 5, 0..=100;
    /// Time management on a clock (not `movetime`): 1 scales the soft limit
    /// after each iteration by the best move's stability and the score's
    /// fall (the `tm_*` fields below; never past the hard limit); 0 keeps
    /// the soft limit as budgeted.
    tm_stability: i32 = 0, 0..=1;
    /// Soft-limit factor, in permille, when the last iteration changed the
    /// best move.
    tm_unstable_permille: i32 = 1800, 100..=10000;
    /// Soft-limit factor, in permille, once the best move held for
    /// `tm_stable_iterations` iterations (linear in between).
    tm_stable_permille: i32 = 700, 100..=10000;
    /// Iterations the best move must hold for `tm_stable_permille`.
    tm_stable_iterations: i32 = 4, 1..=20;
    /// Soft-limit factor added per centipawn the score fell, in permille:
    /// the fall is a third of twice the drop from the mean of the earlier
    /// iterations' scores plus the drop from the last one's (a rise counts
    /// negative).
    tm_score_drop_permille: i32 = 10, 0..=1000;
    /// Least soft-limit factor, in permille, for a rising score.
    tm_score_min_permille: i32 = 750, 100..=1000;
    /// Greatest soft-limit factor, in permille, for a falling score.
    tm_score_max_permille: i32 = 1600, 1000..=10000;
}

/// `value` is valid for a field of range `min..=max` (whole if `integer`).
fn check(key: &str, value: f64, min: f64, max: f64, integer: bool) -> Result<(), FieldError> {
    if integer && value.fract() != 0.0 {
        return Err(FieldError::WrongType {
            key: key.to_string(),
            expected: "an integer",
            found: value.to_string(),
        });
    }
    if !(min..=max).contains(&value) {
        return Err(FieldError::OutOfRange {
            key: key.to_string(),
            value,
            min,
            max,
        });
    }
    Ok(())
}

fn unknown(key: &str) -> FieldError {
    FieldError::UnknownKey {
        key: key.to_string(),
        known: FIELD_NAMES.join(", "),
    }
}

/// The built-in search file of a game (`data/search/games/<game>.toml`):
/// its text and its path, for messages. The match names every game, so a
/// new game does not build until it has a file.
fn game_file(kind: VariantKind) -> (&'static str, &'static str) {
    macro_rules! game {
        ($name:literal) => {
            (
                include_str!(concat!("../../../data/search/games/", $name, ".toml")),
                concat!("data/search/games/", $name, ".toml"),
            )
        };
    }
    match kind {
        VariantKind::Chess => game!("chess"),
        VariantKind::Suicide => game!("suicide"),
        VariantKind::ThreeCheck => game!("threecheck"),
        VariantKind::Atomic => game!("atomic"),
        VariantKind::Losers => game!("losers"),
        VariantKind::Knightmate => game!("knightmate"),
    }
}

impl SearchParams {
    /// One game's defaults: the shared ones ([`Default`], chess's values)
    /// with that game's built-in file on top (`data/search/games/<game>.toml`,
    /// each value there under the evidence for it).
    pub fn default_for(kind: VariantKind) -> SearchParams {
        let (text, origin) = game_file(kind);
        SearchParams::default()
            .with_toml(text, origin)
            .expect("a built-in search file loads (held by a test)")
    }

    /// These settings with the selectivity that one SPRT adopted as a set
    /// (`data/sprt/search/selectivity.toml`) back at its values from before:
    /// null move by depth / 4 alone, reverse futility to depth 6, move-count
    /// and futility pruning to depth 3 at the node's depth, no history
    /// pruning, no internal iterative reduction.
    #[cfg(test)]
    pub(crate) fn without_selectivity(self) -> SearchParams {
        SearchParams {
            nmp_depth_divisor: 4,
            nmp_eval_divisor: 0,
            rfp_max_depth: 6,
            rfp_improving: 0,
            lmp_max_depth: 3,
            lmp_improving: 0,
            futility_lmr_depth: 0,
            futility_max_depth: 3,
            history_prune_max_depth: 0,
            iir_min_depth: 0,
            ..self
        }
    }

    /// Parses TOML (`name = value` for any subset of the fields) for a game
    /// of `kind`: the fields not named keep [`SearchParams::default_for`]
    /// `kind`. `origin` names the source in errors.
    pub fn from_toml(
        kind: VariantKind,
        text: &str,
        origin: &str,
    ) -> Result<SearchParams, SearchParamsError> {
        SearchParams::default_for(kind).with_toml(text, origin)
    }

    /// These settings with the fields named in the TOML `text` set on top.
    fn with_toml(self, text: &str, origin: &str) -> Result<SearchParams, SearchParamsError> {
        let field = |source: FieldError| ParamsError::content(origin, source);
        let table = crate::param_file::parse_table(text, origin)?;
        let mut p = self;
        let integer_field =
            |key: &str| p.fields().iter().find(|f| f.name == key).map(|f| f.integer);
        let mut values = Vec::with_capacity(table.len());
        for (key, value) in table {
            let integer = integer_field(&key).ok_or_else(|| field(unknown(&key)))?;
            let v = match (&value, integer) {
                (toml::Value::Integer(i), _) => *i as f64,
                (toml::Value::Float(x), false) => *x,
                _ => {
                    return Err(field(FieldError::WrongType {
                        expected: if integer { "an integer" } else { "a number" },
                        found: value.to_string(),
                        key,
                    }))
                }
            };
            values.push((key, v));
        }
        for (key, v) in values {
            p.set(&key, v).map_err(field)?;
        }
        Ok(p)
    }

    /// Loads settings for a game of `kind` from a TOML file.
    pub fn load(kind: VariantKind, path: &Path) -> Result<SearchParams, SearchParamsError> {
        crate::param_file::load(kind, path, SearchParams::from_toml)
    }

    /// Settings for a game of `kind` from the TOML file `path`, or that
    /// game's defaults when there is no file (an engine option left empty,
    /// no `--search`).
    pub fn load_or_default(
        kind: VariantKind,
        path: Option<&Path>,
    ) -> Result<SearchParams, SearchParamsError> {
        match path {
            Some(path) => SearchParams::load(kind, path),
            None => Ok(SearchParams::default_for(kind)),
        }
    }

    /// Every field as TOML, each under a comment saying what it controls.
    pub fn to_toml(&self) -> String {
        let mut s = String::from("# varia search settings (see docs/engine.md)\n");
        for ((name, doc), value) in FIELD_NAMES.iter().zip(FIELD_DOCS).zip(self.values_toml()) {
            s.push('\n');
            for line in doc.lines() {
                s.push_str(&format!("# {}\n", line.trim()));
            }
            s.push_str(&format!("{name} = {value}\n"));
        }
        s
    }

    /// Writes the settings to a TOML file.
    pub fn save(&self, path: &Path) -> Result<(), SearchParamsError> {
        crate::param_file::save(path, &self.to_toml())
    }

    /// History bonus of a cutoff at remaining depth `depth` (`history_bonus_*`):
    /// never below 0 nor above `history_max`, so an update with gravity keeps
    /// a score within plus or minus the cap.
    #[inline]
    pub fn history_bonus(&self, depth: i32) -> i32 {
        let d = i64::from(depth.max(0));
        let b = i64::from(self.history_bonus_quad) * d * d
            + i64::from(self.history_bonus_linear) * d
            - i64::from(self.history_bonus_offset);
        let cap = self.history_bonus_max.min(self.history_max);
        b.clamp(0, i64::from(cap)) as i32
    }

    /// Late-move reduction in plies for `depth` and move number `n`.
    #[inline]
    pub fn reduction(&self, depth: i32, n: usize) -> i32 {
        let r = self.lmr_base + (depth as f64).ln() * (n as f64).ln() / self.lmr_divisor;
        r as i32
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    #[test]
    fn a_file_that_is_not_a_regular_file_is_refused_not_read_forever() {
        // D4: /dev/zero never ends; the bounded reader refuses it at once.
        let err = SearchParams::load(VariantKind::Chess, Path::new("/dev/zero")).unwrap_err();
        assert!(matches!(err, SearchParamsError::Io { .. }), "{err}");
        assert!(err.to_string().starts_with("/dev/zero: "), "{err}");
    }

    #[test]
    fn saved_defaults_load_back_equal() {
        let p = SearchParams::default();
        assert_eq!(
            SearchParams::from_toml(VariantKind::Chess, &p.to_toml(), "t").unwrap(),
            p
        );
        let mut q = p.clone();
        q.set("lmr_divisor", 1.875).unwrap();
        q.set("nmp_min_depth", 21.0).unwrap();
        let back = SearchParams::from_toml(VariantKind::Chess, &q.to_toml(), "t").unwrap();
        assert_eq!(back, q);
        assert_ne!(back, p);
    }

    #[test]
    fn a_partial_file_keeps_the_other_defaults() {
        let p =
            SearchParams::from_toml(VariantKind::Chess, "rfp_margin = 120\nlmr_base = 1\n", "t")
                .unwrap();
        assert_eq!(p.rfp_margin, 120);
        assert_eq!(p.lmr_base, 1.0);
        assert_eq!(
            SearchParams {
                rfp_margin: 90,
                lmr_base: 0.75,
                ..p
            },
            SearchParams::default()
        );
    }

    #[test]
    fn bad_files_name_what_is_wrong() {
        let err = |text: &str| {
            SearchParams::from_toml(VariantKind::Chess, text, "f.toml")
                .unwrap_err()
                .to_string()
        };
        let e = err("rfp_margn = 3");
        assert!(
            e.starts_with("f.toml: unknown search parameter \"rfp_margn\""),
            "{e}"
        );
        assert!(
            e.contains("rfp_margin") && e.contains("cap_permille"),
            "{e}"
        );
        let e = err("rfp_margin = -1");
        assert!(
            e.contains("\"rfp_margin\" = -1 is out of range 0..=1000"),
            "{e}"
        );
        let e = err("rfp_margin = 1.5");
        assert!(e.contains("\"rfp_margin\" must be an integer"), "{e}");
        let e = err("lmr_base = \"x\"");
        assert!(e.contains("\"lmr_base\" must be a number"), "{e}");
        assert!(err("rfp_margin = ").contains("f.toml: invalid TOML"));
        assert!(!err("lmr_divisor = 0.1").contains('\n'));
    }

    #[test]
    fn fields_are_enumerable_and_settable_by_name() {
        let mut p = SearchParams::default();
        let fields = p.fields();
        assert_eq!(fields.len(), FIELD_NAMES.len());
        for f in &fields {
            assert!(
                f.min <= f.value && f.value <= f.max,
                "{} default out of range",
                f.name
            );
            p.set(f.name, f.max).unwrap();
        }
        assert!(p.fields().iter().all(|f| f.value == f.max));
        assert!(matches!(
            p.set("nope", 1.0),
            Err(FieldError::UnknownKey { .. })
        ));
        assert_eq!(FIELD_DOCS.len(), FIELD_NAMES.len());
    }

    /// Each game's built-in file loads and names only what it changes:
    /// every key differs from the shared default, so the file reads as the
    /// list of the game's own decisions.
    #[test]
    fn each_game_file_sets_only_what_differs_from_the_shared_defaults() {
        let shared = SearchParams::default();
        for kind in VariantKind::ALL {
            let (text, origin) = game_file(kind);
            let table: BTreeMap<String, toml::Value> = toml::from_str(text).expect(origin);
            let game = SearchParams::default_for(kind);
            let value = |p: &SearchParams, key: &str| {
                p.fields()
                    .into_iter()
                    .find(|f| f.name == key)
                    .map(|f| f.value)
            };
            for key in table.keys() {
                assert_ne!(value(&game, key), value(&shared, key), "{origin}: {key}");
            }
            let changed = shared
                .fields()
                .iter()
                .zip(game.fields())
                .filter(|(a, b)| a.value != b.value)
                .count();
            assert_eq!(changed, table.len(), "{origin}");
        }
    }

    #[test]
    fn each_game_has_its_defaults_and_a_file_sets_fields_on_top() {
        for kind in VariantKind::ALL {
            let d = SearchParams::default_for(kind);
            let expected = i32::from(matches!(
                kind,
                VariantKind::Atomic | VariantKind::Knightmate
            ));
            assert_eq!(d.check_extension, expected, "{kind:?}");
            let forced = matches!(kind, VariantKind::Suicide | VariantKind::Losers);
            assert_eq!(d.single_reply_extension, i32::from(forced), "{kind:?}");
            assert_eq!((d.see_ordering, d.see_qsearch_pruning), (1, 1), "{kind:?}");
            let pruned = matches!(
                kind,
                VariantKind::Chess
                    | VariantKind::ThreeCheck
                    | VariantKind::Knightmate
                    | VariantKind::Atomic
            );
            let lmp = if pruned { 8 } else { 0 };
            assert_eq!(d.lmp_max_depth, lmp, "{kind:?}");
            assert_eq!(d.futility_max_depth, lmp, "{kind:?}");
            let trend = i32::from(pruned);
            assert_eq!(
                (d.rfp_improving, d.lmp_improving, d.futility_lmr_depth),
                (trend, trend, trend),
                "{kind:?}"
            );
            let (rfp, history_prune, iir, nmp_div, nmp_eval) = if pruned {
                (8, 4, 4, 3, 200)
            } else {
                (6, 0, 0, 4, 0)
            };
            assert_eq!(
                (
                    d.rfp_max_depth,
                    d.history_prune_max_depth,
                    d.iir_min_depth,
                    d.nmp_depth_divisor,
                    d.nmp_eval_divisor
                ),
                (rfp, history_prune, iir, nmp_div, nmp_eval),
                "{kind:?}"
            );
            let continuation = i32::from(matches!(
                kind,
                VariantKind::Chess
                    | VariantKind::ThreeCheck
                    | VariantKind::Knightmate
                    | VariantKind::Atomic
            ));
            assert_eq!(d.continuation_history, continuation, "{kind:?}");
            let gravity = i32::from(matches!(
                kind,
                VariantKind::Chess | VariantKind::Suicide | VariantKind::Atomic
            ));
            assert_eq!(d.history_gravity, gravity, "{kind:?}");
            let see_pruned = matches!(
                kind,
                VariantKind::Chess | VariantKind::Knightmate | VariantKind::ThreeCheck
            );
            assert_eq!(
                d.see_prune_max_depth,
                if see_pruned { 6 } else { 0 },
                "{kind:?}"
            );
            let cut = matches!(
                kind,
                VariantKind::Chess | VariantKind::Losers | VariantKind::Knightmate
            );
            assert_eq!(d.lmr_cut_node, if cut { 2 } else { 0 }, "{kind:?}");
            let offer = if forced { 1 << 20 } else { 0 };
            assert_eq!(d.offer_order_bonus, offer, "{kind:?}");
            let short = matches!(kind, VariantKind::Suicide | VariantKind::ThreeCheck);
            let to_go = if short { 15 } else { 30 };
            assert_eq!(d.moves_to_go_default, to_go, "{kind:?}");
            let divisor = if kind == VariantKind::Losers {
                1.75
            } else {
                2.25
            };
            assert_eq!(d.lmr_divisor, divisor, "{kind:?}");
            let delta = if matches!(kind, VariantKind::Chess | VariantKind::Knightmate) {
                200
            } else {
                0
            };
            assert_eq!(d.qsearch_futility_margin, delta, "{kind:?}");
            let null_move_forced = i32::from(kind == VariantKind::Losers);
            assert_eq!(d.nmp_forced_capture_games, null_move_forced, "{kind:?}");
            let refined = i32::from(matches!(
                kind,
                VariantKind::Chess
                    | VariantKind::Suicide
                    | VariantKind::ThreeCheck
                    | VariantKind::Losers
            ));
            assert_eq!(d.tt_eval_refine, refined, "{kind:?}");
            let bad_captures_reduced = i32::from(kind == VariantKind::Chess);
            assert_eq!(d.lmr_bad_captures, bad_captures_reduced, "{kind:?}");
            assert_eq!(
                SearchParams {
                    check_extension: 0,
                    single_reply_extension: 0,
                    see_ordering: 1,
                    see_qsearch_pruning: 1,
                    lmp_max_depth: 8,
                    futility_max_depth: 8,
                    rfp_improving: 1,
                    lmp_improving: 1,
                    futility_lmr_depth: 1,
                    rfp_max_depth: 8,
                    history_prune_max_depth: 4,
                    iir_min_depth: 4,
                    nmp_depth_divisor: 3,
                    nmp_eval_divisor: 200,
                    continuation_history: 1,
                    history_gravity: 1,
                    see_prune_max_depth: 6,
                    lmr_cut_node: 2,
                    offer_order_bonus: 0,
                    moves_to_go_default: 30,
                    lmr_divisor: 2.25,
                    qsearch_futility_margin: 200,
                    nmp_forced_capture_games: 0,
                    tt_eval_refine: 1,
                    lmr_bad_captures: 1,
                    ..d.clone()
                },
                SearchParams::default(),
                "{kind:?}: only the extensions, the SEE switches, the selectivity, the two histories, the cut-node reduction, the offer ordering, the moves to go, the reduction divisor, quiescence futility, the forced-capture games' null move, the table's score as evaluation and the reduction of bad captures differ"
            );
            assert_eq!(SearchParams::from_toml(kind, "", "t").unwrap(), d);
            assert_eq!(SearchParams::load_or_default(kind, None).unwrap(), d);
        }
        let atomic = |text| SearchParams::from_toml(VariantKind::Atomic, text, "t").unwrap();
        assert_eq!(atomic("check_extension = 0").check_extension, 0);
        let p = atomic("rfp_margin = 120");
        assert_eq!((p.rfp_margin, p.check_extension), (120, 1));
    }

    #[test]
    fn the_history_bonus_grows_with_depth_within_its_caps() {
        let p = SearchParams::default();
        assert_eq!(p.history_bonus(0), 0, "never negative");
        assert_eq!(p.history_bonus(1), 1024);
        assert_eq!(p.history_bonus(3), 9 * 1024 + 3 * 8192 - 8192);
        assert_eq!(p.history_bonus(100), p.history_bonus_max);
        let small_cap = SearchParams {
            history_max: 500,
            ..SearchParams::default()
        };
        assert_eq!(
            small_cap.history_bonus(100),
            500,
            "never above the history cap"
        );
    }

    #[test]
    fn the_reduction_formula_is_the_engines() {
        let p = SearchParams::default();
        assert_eq!(p.reduction(3, 3), 1);
        assert_eq!(p.reduction(10, 20), 3);
        assert_eq!(p.reduction(20, 40), 5);
    }
}
