//! Alpha-beta search, generic over the variant.
//!
//! Iterative deepening with aspiration windows around principal variation
//! search (an iteration cut by the limit still gives its best move when a
//! root move searched to the end beat the window); a quiescence search that respects each game (in suicide and losers
//! captures are forced, so a side with a capture may not "stand pat"; in
//! check every evasion is searched; in threecheck quiet checks are tried at
//! the first quiescence ply, and at every ply by a side with one check left,
//! where any check wins; in atomic captures that explode a king end the game
//! there); a node in check never drops into quiescence; in suicide and
//! losers a forced reply (a single legal move, or with `forced_capture_extension`
//! one of few forced captures) costs no depth, within a budget of plies set by
//! the iteration's depth, so a chain of forced replies cannot explode; mate and variant-win
//! scores with their distance; repetition and 50-move draws. Moves are
//! ordered by hash move, captures by victim and attacker value, killers, and
//! history (both carried from one search of a game to the next through
//! [`Shared`], forgotten at a new game), behind a switch with the
//! continuation history of the moves one and two plies before added to it
//! (only in the main search, whose path records those moves), behind
//! another with Stockfish's gravity update of both (a bonus to the cutoff
//! move, a malus to the quiet moves searched before it, every score bounded
//! by the cap), and behind a third a capture history (by moving piece,
//! destination and captured role) that adds to the victim-and-attacker
//! order of the captures; where exchanges mean what they mean
//! in chess, a static exchange evaluation ([`see`]) may send the captures
//! that lose material after the quiet moves, out of quiescence and, near
//! the leaves, out of the main search (the quiet moves too). Pruning where it is sound for the game: null move (never in
//! check, and in suicide and losers, where zugzwang is the rule, only
//! behind a switch and where no capture is forced), reverse
//! futility, late move reductions (neither of them where suicide or losers
//! force a capture: those nodes and the quiet sacrifices that force one are
//! what decides these games), and behind switches move-count and futility
//! pruning of quiet moves near the leaves (in no PV node, in check, or where
//! suicide and losers force or offer a capture), razoring (a node far below
//! alpha near the leaves resolved by quiescence), internal iterative
//! reduction of a node without a stored move, one ply more of late-move
//! reduction where the static evaluation is not improving, less of it
//! for a quiet move with a high history, more of it at an expected cut node
//! (the later moves' zero-window searches and, alternately, the first moves
//! below them) and under a capture from the table, ProbCut (a good capture that beats
//! beta by a margin at a reduced depth cuts the node off), and the singular
//! extension (the table's move one ply deeper when every other move fails
//! low below its stored score, searched at the node's own ply with that
//! move left out; a multi-cut when they too reach beta), futility (delta)
//! pruning in quiescence, late-move reduction of captures that lose their
//! exchange, the null move in suicide and losers where no capture is
//! forced, the table's score standing in for the static evaluation where
//! its bound says the node is worth more or less, and a correction history
//! (by pawn structure) added to the static evaluation. Every margin, depth and coefficient of these
//! comes from the worker's [`SearchParams`], read where the literal used to
//! be; each fix of a search defect is a switch there too, on by default only
//! once its SPRT passed (docs/engine.md lists them).
//!
//! The quiescence search is also the tuner's: Texel tuning fits the static
//! evaluation at the end of its principal variation, so it must be exactly
//! the function the engine runs. It reports its leaves to a [`QObserver`]
//! (the engine's, [`NoObserver`], compiles away) and [`Worker::quiesce`]
//! runs it on its own from a root.

use crate::eval::{evaluate, EvalParams};
use crate::limits::{soft_limit_factor, Clock};
use crate::params::SearchParams;
use crate::see::{see, see_value};
use crate::tt::{Bound, TranspositionTable, TtEntry};
use movegen::{Color, Move, MoveList, Outcome, Position, Role, Variant};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::sync::Mutex;

/// Score of a win at the root (a win `n` plies away scores `MATE - n`).
pub const MATE: i32 = 32000;
/// Scores beyond this (in absolute value) are wins or losses.
pub const MATE_BOUND: i32 = MATE - 1000;
/// Larger than every score.
const INF: i32 = 32500;
/// Deepest ply searched.
pub const MAX_PLY: usize = 120;

/// State shared by all search threads.
pub struct Shared {
    /// The transposition table.
    pub tt: TranspositionTable,
    /// Set to stop every thread.
    pub stop: AtomicBool,
    /// Nodes searched by all threads (flushed in batches).
    pub nodes: AtomicU64,
    /// Each thread's killers and history at the end of its last search,
    /// by thread index, for the next search of the same game
    /// (`keep_heuristics`).
    heuristics: Mutex<Vec<Option<Heuristics>>>,
}

impl Shared {
    /// Shared state with a table of `hash_mb` megabytes.
    pub fn new(hash_mb: usize) -> Shared {
        Shared {
            tt: TranspositionTable::new(hash_mb),
            stop: AtomicBool::new(false),
            nodes: AtomicU64::new(0),
            heuristics: Mutex::new(Vec::new()),
        }
    }

    /// Forgets everything learnt in the searches so far (a new game): the
    /// table's entries and the threads' killers and history.
    pub fn clear(&mut self) {
        self.tt.clear();
        self.forget_heuristics();
    }

    /// A new game with a table of `hash_mb` megabytes
    /// ([`TranspositionTable::reallocate`]), killers and history forgotten.
    pub fn reallocate(&mut self, hash_mb: usize) {
        self.tt.reallocate(hash_mb);
        self.forget_heuristics();
    }

    fn forget_heuristics(&mut self) {
        self.heuristics
            .get_mut()
            .unwrap_or_else(|e| e.into_inner())
            .clear();
    }
}

/// A thread's move-ordering memory, kept from one search to the next.
struct Heuristics {
    /// Length of the game before the root of the search that left them.
    game_ply: usize,
    killers: Vec<[Option<Move>; 2]>,
    history: Vec<i32>,
    counters: Vec<Option<Move>>,
    continuation: Vec<i32>,
    capture_history: Vec<i32>,
    correction: Vec<i32>,
}

/// Progress of the search after an iteration.
#[derive(Clone, Debug)]
pub struct Info {
    /// Completed depth.
    pub depth: u32,
    /// Deepest ply reached.
    pub seldepth: u32,
    /// Score in centipawns from the side to move's view (or a mate score).
    pub score: i32,
    /// Nodes of all threads.
    pub nodes: u64,
    /// Milliseconds since the start.
    pub time_ms: u64,
    /// Principal variation.
    pub pv: Vec<Move>,
    /// Table usage in permille.
    pub hashfull: u32,
}

impl Info {
    /// Nodes per second.
    pub fn nps(&self) -> u64 {
        self.nodes * 1000 / self.time_ms.max(1)
    }

    /// Moves to mate (positive: we win) if the score is a win or loss.
    pub fn mate_in(&self) -> Option<i32> {
        mate_in(self.score)
    }
}

/// Moves to a win (positive) or loss (negative) for a mate score.
pub fn mate_in(score: i32) -> Option<i32> {
    if score > MATE_BOUND {
        Some((MATE - score + 1) / 2)
    } else if score < -MATE_BOUND {
        Some(-(MATE + score) / 2)
    } else {
        None
    }
}

/// Score of a finished game for the side to move, `ply` plies from the root.
#[inline]
fn outcome_score(o: Outcome, to_move: Color, ply: usize) -> i32 {
    match o.winner() {
        Some(w) if w == to_move => MATE - ply as i32,
        Some(_) => -(MATE - ply as i32),
        None => 0,
    }
}

fn score_to_tt(score: i32, ply: usize) -> i32 {
    if score > MATE_BOUND {
        score + ply as i32
    } else if score < -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

fn score_from_tt(score: i32, ply: usize) -> i32 {
    if score > MATE_BOUND {
        score - ply as i32
    } else if score < -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}

/// The score a stored entry proves for the window `(alpha, beta)`, if any:
/// an exact score, a lower bound at or above beta, or an upper bound at or
/// below alpha (the caller has checked the entry is deep enough).
#[inline]
fn tt_cutoff(e: &TtEntry, ply: usize, alpha: i32, beta: i32) -> Option<i32> {
    let s = score_from_tt(e.score, ply);
    match e.bound {
        Bound::Exact => Some(s),
        Bound::Lower if s >= beta => Some(s),
        Bound::Upper if s <= alpha => Some(s),
        _ => None,
    }
}

/// The score a node of `ply` with the static evaluation `eval` is judged by
/// under `tt_eval_refine`: the table entry's score where its bound puts the
/// node beyond the evaluation (above it for a lower bound, below it for an
/// upper bound; an exact score always), else the evaluation. Never a mate
/// score.
#[inline]
fn refined_eval(e: &TtEntry, ply: usize, eval: i32) -> i32 {
    let s = score_from_tt(e.score, ply);
    let beyond = match e.bound {
        Bound::Lower => s > eval,
        Bound::Upper => s < eval,
        Bound::Exact => true,
    };
    if beyond && s.abs() < MATE_BOUND {
        s
    } else {
        eval
    }
}

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
fn captured_role<V: Variant>(pos: &Position<V>, m: Move) -> Role {
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
fn tactical_order<V: Variant>(pos: &Position<V>, m: Move) -> Option<i32> {
    if pos.is_capture(m) {
        let victim = captured_role(pos, m);
        let attacker = pos.board().role_at(m.from()).unwrap_or(Role::Pawn);
        Some((1 << 24) + (order_value(victim) * 64 - order_value(attacker)) * MVV_LVA_SCALE)
    } else {
        m.promotion().map(|r| (1 << 23) + order_value(r))
    }
}

/// Moves the history score `h` towards plus or minus `limit` by `bonus`
/// with gravity, `h += bonus - h * |bonus| / limit` (Stockfish's
/// `StatsEntry::operator<<`): with `|bonus| <= limit` a score within plus or
/// minus the limit stays there, and the closer it is to the bound the less
/// it moves.
#[inline]
fn gravity(h: &mut i32, bonus: i32, limit: i32) {
    let (old, b, l) = (i64::from(*h), i64::from(bonus), i64::from(limit.max(1)));
    *h = (old + b - old * b.abs() / l).clamp(-l, l) as i32;
}

/// Depths and move numbers of the worker's table of late-move reductions.
const LMR_TABLE_SIDE: usize = 64;

/// Entries of the correction history per side to move
/// (`correction_history`), a power of two.
const CORRECTION_ENTRIES: usize = 1 << 14;

/// A correction entry is centipawns times this (so a small weight moves it).
const CORRECTION_GRAIN: i64 = 256;

/// The correction history's index of `pos`: its side to move and a hash of
/// both sides' pawns (the structure whose errors the evaluation repeats).
#[inline]
fn correction_index<V: Variant>(pos: &Position<V>) -> usize {
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

/// Entries of one side of the continuation table: a (piece of either
/// colour, destination) pair.
const PIECE_TO: usize = 2 * Role::ALL.len() * 64;

/// The continuation table's index of a move to `to` by `us`'s `role`.
#[inline]
fn piece_to(us: Color, role: Role, to: movegen::Square) -> usize {
    (us.index() * Role::ALL.len() + role.index()) * 64 + to.index()
}

/// [`piece_to`] of the move `m` by `us` in `pos` (the piece that moves, as
/// it stands before a promotion; castling is the king's move).
#[inline]
fn moved_piece_to<V: Variant>(pos: &Position<V>, us: Color, m: Move) -> usize {
    let role = pos.board().role_at(m.from()).unwrap_or(Role::Pawn);
    piece_to(us, role, m.to())
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
const fn exchanges_are_chess_like<V: Variant>() -> bool {
    !V::ATOMIC && !V::MUST_CAPTURE
}

/// Ordering score of the table's move, above every other.
const TT_MOVE_ORDER: i32 = 1 << 30;

/// Below every quiet move's ordering score (history is at least minus its
/// cap, under 2^22): where captures that lose their exchange go
/// (`see_ordering`), still by victim and attacker (and capture history)
/// among themselves.
const BAD_CAPTURE_ORDER: i32 = -(1 << 23) - (1 << 24);
/// Every ordering score below this is a capture that loses its exchange
/// (`see_ordering`): quiet moves' scores are at least minus the history cap.
const BAD_CAPTURE_BOUND: i32 = -(1 << 22);

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

/// Where a line of the quiescence search ends.
#[derive(Clone, Copy, Debug)]
pub enum QLeaf<'a, V: Variant> {
    /// The position is scored by its static evaluation (a stand pat, or a
    /// line cut short).
    Eval(&'a Position<V>),
    /// The game is over there: the score is the outcome's.
    End(Outcome),
}

/// What a quiescence search reports besides its score: enough to follow each
/// node's best line to its end, the way a triangular PV table does. At a node
/// at `ply`, [`leaf`](QObserver::leaf) says the node itself is (so far) its
/// best line's end, and [`best_child`](QObserver::best_child) that the line
/// through the child just searched, at `ply + 1`, is now its best; the root's
/// final answer is its principal variation's leaf.
pub trait QObserver<V: Variant> {
    /// The node at `ply` scores `leaf` (for now: a child may still beat a
    /// stand pat).
    fn leaf(&mut self, ply: usize, leaf: QLeaf<'_, V>);
    /// The child at `ply + 1` became the best line of the node at `ply`.
    fn best_child(&mut self, ply: usize);
    /// The observer follows the lines to their leaves, so the search may not
    /// answer a node from the transposition table (a stored score has no
    /// line behind it).
    const FOLLOWS_LINES: bool = true;
}

/// The engine's observer: sees nothing, and costs nothing once inlined.
pub struct NoObserver;

impl<V: Variant> QObserver<V> for NoObserver {
    #[inline(always)]
    fn leaf(&mut self, _ply: usize, _leaf: QLeaf<'_, V>) {}
    #[inline(always)]
    fn best_child(&mut self, _ply: usize) {}
    const FOLLOWS_LINES: bool = false;
}

/// One search thread.
pub struct Worker<'a, V: Variant> {
    shared: &'a Shared,
    params: &'a EvalParams,
    settings: &'a SearchParams,
    clock: &'a Clock,
    /// Thread index (0 = main).
    pub id: usize,
    /// Nodes searched by this thread.
    pub nodes: u64,
    unflushed: u64,
    seldepth: usize,
    killers: Vec<[Option<Move>; 2]>,
    history: Vec<i32>,
    /// The quiet move that last refuted a move, by the refuted move's side,
    /// from and to squares (`counter_moves`).
    counters: Vec<Option<Move>>,
    /// The move played at each ply of the current path (`None`: a null
    /// move), for the counter-move table.
    played: Vec<Option<Move>>,
    /// Continuation history (`continuation_history`; empty when off): for
    /// each (piece, destination) of an earlier move of the path, a score
    /// for each (piece, destination) of a quiet move played one or two
    /// plies after it, indexed by [`piece_to`] as `earlier * PIECE_TO +
    /// this`.
    continuation: Vec<i32>,
    /// Capture history (`capture_history`; empty when off): a score for
    /// each capture by its moving piece and destination ([`piece_to`]) and
    /// the role it takes, at `piece_to * Role::ALL.len() + role`.
    capture_history: Vec<i32>,
    /// Correction history (`correction_history`; empty when off): by
    /// [`correction_index`], the running average of the searches' error
    /// against the static evaluation, in centipawns times
    /// [`CORRECTION_GRAIN`].
    correction: Vec<i32>,
    /// The [`piece_to`] index of the move played at each ply of the current
    /// path (`None`: a null move, or `continuation_history` off), set with
    /// `played`.
    played_piece_to: Vec<Option<usize>>,
    /// Positions of the game before the root.
    game_ply: usize,
    /// Keys of the game so far and the current search path.
    keys: Vec<u64>,
    /// Index in `keys` of the position after the innermost null move of
    /// the current path, if any (with `repetition_null_fence`).
    null_fence: Option<usize>,
    /// Best root move of the current iteration so far and its score: a root
    /// move that was searched to the end and beat alpha.
    root_best: Option<(Move, i32)>,
    /// Depth of the current iteration (the budget of the reply and
    /// singular extensions).
    root_depth: i32,
    /// The move the search of the node at each ply leaves out (`None`: an
    /// ordinary search): the singular-extension test searches a node's
    /// other moves at the node's own ply, and that search neither takes a
    /// cutoff from the node's table entry nor stores one, prunes by null
    /// move or reverse futility, or tries ProbCut.
    excluded: Vec<Option<Move>>,
    /// Static evaluation of each main-search node of the current path by
    /// ply (`-INF` in check), for the improving test of `lmr_improving`.
    static_evals: Vec<i32>,
    /// [`SearchParams::reduction`] for depths and move numbers below
    /// [`LMR_TABLE_SIDE`], computed at the first reduction of a search
    /// (not for the tuner's quiescence-only workers) instead of two
    /// logarithms per reduced move.
    reductions: std::cell::OnceCell<Vec<i8>>,
    pv: Vec<Vec<Move>>,
    stopped: bool,
    _v: std::marker::PhantomData<V>,
}

impl<'a, V: Variant> Worker<'a, V> {
    /// A thread evaluating with `params` and searching with `settings`,
    /// sharing `shared`; `history` holds the keys of the positions before the
    /// root (for repetition draws).
    pub fn new(
        id: usize,
        shared: &'a Shared,
        params: &'a EvalParams,
        settings: &'a SearchParams,
        clock: &'a Clock,
        history: &[u64],
    ) -> Self {
        let mut w = Worker {
            shared,
            params,
            settings,
            clock,
            id,
            nodes: 0,
            unflushed: 0,
            seldepth: 0,
            killers: vec![[None; 2]; MAX_PLY + 2],
            history: vec![0; 2 * 64 * 64],
            counters: vec![None; 2 * 64 * 64],
            played: vec![None; MAX_PLY + 2],
            continuation: if settings.continuation_history != 0 {
                vec![0; PIECE_TO * PIECE_TO]
            } else {
                Vec::new()
            },
            capture_history: if settings.capture_history != 0 {
                vec![0; PIECE_TO * Role::ALL.len()]
            } else {
                Vec::new()
            },
            correction: if settings.correction_history != 0 {
                vec![0; 2 * CORRECTION_ENTRIES]
            } else {
                Vec::new()
            },
            played_piece_to: vec![None; MAX_PLY + 2],
            game_ply: history.len(),
            keys: history.to_vec(),
            null_fence: None,
            root_best: None,
            root_depth: 0,
            excluded: vec![None; MAX_PLY + 2],
            static_evals: vec![-INF; MAX_PLY + 2],
            reductions: std::cell::OnceCell::new(),
            pv: vec![Vec::new(); MAX_PLY + 2],
            stopped: false,
            _v: std::marker::PhantomData,
        };
        if settings.keep_heuristics != 0 {
            w.resume_heuristics();
        }
        w
    }

    /// Takes over the killers and history this thread left at the end of its
    /// last search of the game: history halved (older evidence counts less),
    /// killers moved to the plies they now have from the new root, and none
    /// kept if the game did not move forward.
    fn resume_heuristics(&mut self) {
        let saved = {
            let mut all = self
                .shared
                .heuristics
                .lock()
                .unwrap_or_else(|e| e.into_inner());
            all.get_mut(self.id).and_then(Option::take)
        };
        let Some(saved) = saved else { return };
        for (h, old) in self.history.iter_mut().zip(&saved.history) {
            *h = old / 2;
        }
        self.counters = saved.counters;
        for (c, old) in self.continuation.iter_mut().zip(&saved.continuation) {
            *c = old / 2;
        }
        for (c, old) in self.capture_history.iter_mut().zip(&saved.capture_history) {
            *c = old / 2;
        }
        // The corrections are averages already: kept as they are.
        for (c, old) in self.correction.iter_mut().zip(&saved.correction) {
            *c = *old;
        }
        let moved = self.game_ply.wrapping_sub(saved.game_ply);
        if (1..saved.killers.len()).contains(&moved) {
            for (k, old) in self.killers.iter_mut().zip(&saved.killers[moved..]) {
                *k = *old;
            }
        }
    }

    /// Leaves this thread's killers and history for its next search.
    fn save_heuristics(&self) {
        let mut all = self
            .shared
            .heuristics
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        if all.len() <= self.id {
            all.resize_with(self.id + 1, || None);
        }
        all[self.id] = Some(Heuristics {
            game_ply: self.game_ply,
            killers: self.killers.clone(),
            history: self.history.clone(),
            counters: self.counters.clone(),
            continuation: self.continuation.clone(),
            capture_history: self.capture_history.clone(),
            correction: self.correction.clone(),
        });
    }

    #[inline]
    fn count_node(&mut self) {
        self.nodes += 1;
        self.unflushed += 1;
        if self.unflushed >= 1024 {
            self.shared.nodes.fetch_add(self.unflushed, Relaxed);
            self.unflushed = 0;
            if self.id == 0 && self.clock.past_hard_limit() {
                self.shared.stop.store(true, Relaxed);
            }
        }
        if let Some(limit) = self.clock.node_limit {
            // With one thread this makes fixed-node searches deterministic.
            if self.nodes + self.helper_nodes() >= limit {
                self.shared.stop.store(true, Relaxed);
            }
        }
    }

    fn helper_nodes(&self) -> u64 {
        if self.clock.threads <= 1 {
            0
        } else {
            self.shared
                .nodes
                .load(Relaxed)
                .saturating_sub(self.nodes - self.unflushed)
        }
    }

    #[inline]
    fn should_stop(&mut self) -> bool {
        if !self.stopped && self.shared.stop.load(Relaxed) {
            self.stopped = true;
        }
        self.stopped
    }

    fn flush_nodes(&mut self) {
        self.shared.nodes.fetch_add(self.unflushed, Relaxed);
        self.unflushed = 0;
    }

    fn is_repetition(&self, pos: &Position<V>) -> bool {
        let key = pos.key();
        let n = self.keys.len();
        let mut window = (pos.halfmove_clock() as usize).min(n.saturating_sub(1));
        if let Some(fence) = self.null_fence {
            // keys[fence] is the position after the last null move of the path.
            window = window.min(n - 1 - fence);
        }
        // keys[n - 1] is this position; look at the same side to move before it.
        let mut i = 2;
        while i <= window {
            if self.keys[n - 1 - i] == key {
                return true;
            }
            i += 2;
        }
        false
    }

    fn history_index(color: Color, m: Move) -> usize {
        color.index() * 4096 + m.from().index() * 64 + m.to().index()
    }

    /// The offsets in `continuation` of the moves one and two plies before
    /// a node at `ply` of the main search (none for a null move, before the
    /// root, or with `continuation_history` off).
    fn continuation_offsets(&self, ply: usize) -> [Option<usize>; 2] {
        let back = |n: usize| {
            ply.checked_sub(n)
                .and_then(|p| self.played_piece_to[p])
                .map(|pt| pt * PIECE_TO)
        };
        [back(1), back(2)]
    }

    /// The index in `capture_history` of the capture `m` by `us`.
    #[inline]
    fn capture_index(pos: &Position<V>, us: Color, m: Move) -> usize {
        moved_piece_to(pos, us, m) * Role::ALL.len() + captured_role(pos, m).index()
    }

    /// The capture history's term in the ordering score of the capture `m`
    /// by `us`: its score scaled from plus or minus the cap to plus or minus
    /// [`CAPTURE_HISTORY_SPAN`] (0 with `capture_history` off).
    #[inline]
    fn capture_order(&self, pos: &Position<V>, us: Color, m: Move) -> i32 {
        if self.capture_history.is_empty() {
            return 0;
        }
        let h = i64::from(self.capture_history[Self::capture_index(pos, us, m)]);
        let scaled = h * i64::from(CAPTURE_HISTORY_SPAN) / i64::from(self.settings.history_max);
        scaled.clamp(
            -i64::from(CAPTURE_HISTORY_SPAN),
            i64::from(CAPTURE_HISTORY_SPAN),
        ) as i32
    }

    /// Learns from a quiet move `m` by `us` that cut off at `depth` after the
    /// quiet moves `tried` did not: its history and continuation entries
    /// after the moves at `cont` rise, and with `history_gravity` (or
    /// `history_malus`) those of `tried` fall.
    fn reward_quiet(
        &mut self,
        pos: &Position<V>,
        us: Color,
        m: Move,
        depth: i32,
        tried: &[Move],
        cont: [Option<usize>; 2],
    ) {
        let sp = self.settings;
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
        if sp.history_malus != 0 {
            for &q in tried {
                let h = &mut self.history[Self::history_index(us, q)];
                *h = (*h - depth * depth).max(-sp.history_max);
            }
        }
        for offset in cont.into_iter().flatten() {
            let c = &mut self.continuation[offset + cut_piece_to];
            *c = (*c + depth * depth).min(sp.history_max);
            if sp.history_malus != 0 {
                for &q in tried {
                    let i = offset + moved_piece_to(pos, us, q);
                    let c = &mut self.continuation[i];
                    *c = (*c - depth * depth).max(-sp.history_max);
                }
            }
        }
    }

    /// Learns from a cutoff at `depth` by the move `m` of `us`
    /// (`capture_history`): a capture's capture history rises with gravity,
    /// and that of each capture in `tried` (searched before it, no cutoff)
    /// falls.
    fn reward_captures(
        &mut self,
        pos: &Position<V>,
        us: Color,
        m: Move,
        depth: i32,
        tried: &[Move],
    ) {
        let sp = self.settings;
        let (bonus, limit) = (sp.history_bonus(depth), sp.history_max);
        if pos.is_capture(m) {
            gravity(
                &mut self.capture_history[Self::capture_index(pos, us, m)],
                bonus,
                limit,
            );
        }
        for &c in tried {
            gravity(
                &mut self.capture_history[Self::capture_index(pos, us, c)],
                -bonus,
                limit,
            );
        }
    }

    /// Highest ordering score of a quiet move that is not a killer or the
    /// counter move (which take the three scores above it).
    const QUIET_ORDER_MAX: i32 = (1 << 22) - 3;

    /// Ordering score of the quiet move `m` by `us`: its history, plus its
    /// continuation entries after the moves at `cont` when there are any,
    /// kept below the counter move and above the losing captures.
    #[inline]
    fn quiet_order(&self, pos: &Position<V>, us: Color, m: Move, cont: [Option<usize>; 2]) -> i32 {
        let h = self.history[Self::history_index(us, m)];
        if cont == [None, None] {
            return h;
        }
        let pt = moved_piece_to(pos, us, m);
        let c: i32 = cont
            .iter()
            .flatten()
            .map(|&o| self.continuation[o + pt])
            .sum();
        (h + c).clamp(-(1 << 22), Self::QUIET_ORDER_MAX)
    }

    /// Moves in search order: the table's move, captures (by victim and
    /// attacker, with `capture_history` plus its term) and promotions, the
    /// killers, the counter move (`counter`), then quiet moves by
    /// history and, with `cont` (from [`Self::continuation_offsets`]), the
    /// continuation history (and last, with `see_ordering`, the captures
    /// that lose their exchange).
    fn order_moves(
        &self,
        pos: &Position<V>,
        moves: &MoveList,
        tt_move: Option<Move>,
        ply: usize,
        counter: Option<Move>,
        cont: [Option<usize>; 2],
    ) -> Vec<(i32, Move)> {
        let us = pos.turn();
        let see_ordering = exchanges_are_chess_like::<V>() && self.settings.see_ordering != 0;
        let offer_bonus = if V::MUST_CAPTURE {
            self.settings.offer_order_bonus
        } else {
            0
        };
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
                } else if self.killers[ply][0] == Some(m) {
                    1 << 22
                } else if self.killers[ply][1] == Some(m) {
                    (1 << 22) - 1
                } else if counter == Some(m) {
                    (1 << 22) - 2
                } else if offer_bonus != 0 && offers_capture(pos, m) {
                    (self.quiet_order(pos, us, m, cont) + offer_bonus).min(Self::QUIET_ORDER_MAX)
                } else {
                    self.quiet_order(pos, us, m, cont)
                };
                (s, m)
            })
            .collect();
        scored.sort_unstable_by_key(|s| std::cmp::Reverse(s.0));
        scored
    }

    /// Principal variation search. `cut_node`: a zero-window node expected
    /// to fail high (the later moves of a node, and every other node below
    /// one on a line of first moves), where `lmr_cut_node` reduces more.
    #[allow(clippy::too_many_arguments)]
    pub fn search(
        &mut self,
        pos: &Position<V>,
        mut alpha: i32,
        mut beta: i32,
        mut depth: i32,
        ply: usize,
        pv_node: bool,
        cut_node: bool,
    ) -> i32 {
        self.pv[ply].clear();
        if ply > 0 {
            if let Some(o) = V::end_by_rule(pos) {
                return outcome_score(o, pos.turn(), ply);
            }
            if self.is_repetition(pos) || pos.halfmove_clock() >= 100 {
                return 0;
            }
            alpha = alpha.max(-(MATE - ply as i32));
            beta = beta.min(MATE - ply as i32 - 1);
            if alpha >= beta {
                return alpha;
            }
        }
        let in_check = pos.is_check();
        let sp = self.settings;
        if in_check && (ply as i32) < sp.check_extension_max_ply {
            depth = (depth + sp.check_extension).max(1);
        }
        if depth <= 0 {
            return self.qsearch(pos, alpha, beta, ply, 0, &mut NoObserver);
        }
        self.count_node();
        if self.should_stop() {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        if ply >= MAX_PLY {
            return evaluate(pos, self.params);
        }

        // Suicide and losers: a forced reply costs no depth (the single-reply
        // and forced-capture extensions), decided before the table is read so
        // that the depth stored and the depth probed are the same.
        let reply_extension =
            V::MUST_CAPTURE && (sp.single_reply_extension != 0 || sp.forced_capture_extension != 0);
        let early_moves = reply_extension.then(|| pos.legal_moves());
        if let Some(moves) = &early_moves {
            let n = moves.len() as i32;
            let single = sp.single_reply_extension != 0 && n == 1;
            let few_captures =
                n >= 1 && n <= sp.forced_capture_extension && pos.is_capture(moves[0]);
            if (single || few_captures)
                && (ply as i32) < sp.reply_extension_ply_factor * self.root_depth
            {
                depth += 1;
            }
        }

        let key = pos.key();
        let excluded = self.excluded[ply];
        let tt = self.shared.tt.probe(key);
        let tt_move = tt.and_then(|e| e.mv);
        if let Some(e) = tt {
            // The entry is this node's result with every move: no answer
            // for a search without one of them.
            if !pv_node && excluded.is_none() && e.depth >= depth {
                if let Some(s) = tt_cutoff(&e, ply, alpha, beta) {
                    return s;
                }
            }
        }

        let moves = early_moves.unwrap_or_else(|| pos.legal_moves());
        if moves.is_empty() {
            return outcome_score(V::end_without_moves(pos), pos.turn(), ply);
        }
        // The evaluation as the table stores it, and as the search prunes
        // with it (`correction_history`).
        let (raw_eval, static_eval) = if in_check {
            (-INF, -INF)
        } else {
            let raw = tt
                .map(|e| e.eval)
                .unwrap_or_else(|| evaluate(pos, self.params));
            (raw, self.corrected_eval(pos, raw))
        };
        // Better than two plies ago (true when that node was in check or
        // there is none).
        self.static_evals[ply] = static_eval;
        let improving = ply < 2 || static_eval > self.static_evals[ply - 2];
        // The score the node-level pruning judges by: with `tt_eval_refine`
        // the table's score where its bound says the node is worth more
        // (lower bound) or less (upper bound) than the static evaluation.
        let eval = match tt {
            Some(e) if sp.tt_eval_refine != 0 && !in_check => refined_eval(&e, ply, static_eval),
            _ => static_eval,
        };

        // Suicide and losers: every legal move is a capture when one is
        // forced, and such a node is all tactics, however good it looks.
        let capture_forced = V::MUST_CAPTURE && pos.is_capture(moves[0]);
        if !pv_node && !in_check && ply > 0 && excluded.is_none() {
            // Reverse futility: far above beta with little depth left.
            if depth <= sp.rfp_max_depth
                && !(capture_forced && sp.forced_capture_guard != 0)
                && eval - sp.rfp_margin * (depth - i32::from(sp.rfp_improving != 0 && improving))
                    >= beta
                && beta.abs() < MATE_BOUND
            {
                return eval;
            }
            // Razoring: so far below alpha that only a tactic could save
            // the node, and quiescence finds none.
            if depth <= sp.razor_max_depth
                && !(capture_forced && sp.forced_capture_guard != 0)
                && eval + sp.razor_base + sp.razor_margin * depth * depth < alpha
                && alpha.abs() < MATE_BOUND
            {
                let s = self.qsearch(pos, alpha - 1, alpha, ply, 0, &mut NoObserver);
                if self.stopped {
                    return 0;
                }
                if s < alpha {
                    return s;
                }
            }
            // Null move, where zugzwang is rare (in suicide and losers, where
            // it is common, only with `nmp_forced_capture_games` and where no
            // capture is forced).
            if (!V::MUST_CAPTURE || (sp.nmp_forced_capture_games != 0 && !capture_forced))
                && depth >= sp.nmp_min_depth
                && eval >= beta
                && beta.abs() < MATE_BOUND
            {
                let b = pos.board();
                let big = b.color(pos.turn()) & !b.role(Role::Pawn) & !b.role(Role::King);
                if big.any() {
                    if let Some(null) = pos.play_null() {
                        self.played[ply] = None;
                        self.played_piece_to[ply] = None;
                        let mut r = sp.nmp_base_reduction + depth / sp.nmp_depth_divisor;
                        if sp.nmp_eval_divisor > 0 {
                            r += ((eval - beta) / sp.nmp_eval_divisor).min(sp.nmp_eval_max);
                        }
                        self.keys.push(null.key());
                        let outer_fence = self.null_fence;
                        if sp.repetition_null_fence != 0 {
                            self.null_fence = Some(self.keys.len() - 1);
                        }
                        let s = -self.search(
                            &null,
                            -beta,
                            -beta + 1,
                            depth - 1 - r,
                            ply + 1,
                            false,
                            !cut_node,
                        );
                        self.null_fence = outer_fence;
                        self.keys.pop();
                        if self.stopped {
                            return 0;
                        }
                        if s >= beta {
                            return if s > MATE_BOUND { beta } else { s };
                        }
                    }
                }
            }
            // ProbCut: a good capture that beats beta by a margin in a
            // shallower search very likely beats beta here.
            let probcut_beta = beta + sp.probcut_margin;
            if sp.probcut != 0
                && exchanges_are_chess_like::<V>()
                && depth >= sp.probcut_min_depth
                && beta > -MATE_BOUND
                && probcut_beta < MATE_BOUND
                // Not when a deep enough entry says the node scores less.
                && !tt.is_some_and(|e| {
                    e.depth >= depth - 3
                        && e.bound != Bound::Lower
                        && score_from_tt(e.score, ply) < probcut_beta
                })
            {
                let cut = self.probcut(pos, &moves, tt_move, probcut_beta, depth, ply, static_eval);
                if self.stopped {
                    return 0;
                }
                if let Some(s) = cut {
                    return s;
                }
            }
        }

        // Internal iterative reduction: without a stored move the ordering is
        // a guess, and a shallower search here is cheaper than its errors.
        if sp.iir_min_depth > 0 && depth >= sp.iir_min_depth && tt_move.is_none() {
            depth -= 1;
        }

        let us = pos.turn();
        // The table entry of the move that led here (by its side: the
        // opponent's), for the counter-move heuristic.
        let counter_slot = match (ply, sp.counter_moves) {
            (0, _) | (_, 0) => None,
            _ => self.played[ply - 1].map(|prev| Self::history_index(us.other(), prev)),
        };
        let counter = counter_slot.and_then(|i| self.counters[i]);
        let cont = self.continuation_offsets(ply);
        let ordered = self.order_moves(pos, &moves, tt_move, ply, counter, cont);

        // Singular extension: when the table's move is the only one that
        // reaches near its stored score, it is searched a ply deeper; when
        // the others reach a bound at or above beta too, several moves cut
        // off and a non-PV node fails high without searching them again.
        let mut singular_move = None;
        if sp.singular_extension != 0
            && !V::MUST_CAPTURE
            && ply > 0
            && excluded.is_none()
            && depth >= sp.se_min_depth
        {
            if let (Some(e), Some(tm)) = (tt, tt_move) {
                let tt_score = score_from_tt(e.score, ply);
                if matches!(e.bound, Bound::Lower | Bound::Exact)
                    && e.depth >= depth - sp.se_tt_depth_slack
                    && tt_score.abs() < MATE_BOUND
                    && moves.contains(&tm)
                {
                    let singular_beta = tt_score - sp.se_margin * depth;
                    // At least one ply: quiescence knows no left-out move.
                    let singular_depth = ((depth - 1) / 2).max(1);
                    self.excluded[ply] = Some(tm);
                    let s = self.search(
                        pos,
                        singular_beta - 1,
                        singular_beta,
                        singular_depth,
                        ply,
                        false,
                        cut_node,
                    );
                    self.excluded[ply] = None;
                    if self.stopped {
                        return 0;
                    }
                    if s < singular_beta {
                        if (ply as i32) < sp.reply_extension_ply_factor * self.root_depth {
                            singular_move = Some(tm);
                        }
                    } else if !pv_node && singular_beta >= beta {
                        return singular_beta;
                    }
                }
            }
        }

        let original_alpha = alpha;
        let mut best = -INF;
        let mut best_move = None;
        // Quiet moves searched so far that did not cut off (`history_malus`,
        // `history_gravity`), and captures (`capture_history`).
        let mut quiets_tried: Vec<Move> = Vec::new();
        let mut captures_tried: Vec<Move> = Vec::new();
        let track_quiets = sp.history_malus != 0 || sp.history_gravity != 0;
        let track_captures = sp.capture_history != 0;
        // Move-count, futility and history pruning of quiet moves near the
        // leaves: never in a PV node, in check, at the root, or where
        // suicide or losers force a capture. Futility and history pruning
        // may look at the depth a move would get after its reduction, which
        // is below the node's own.
        let prune_quiets = !pv_node && !in_check && ply > 0 && !capture_forced;
        let futility_by_move = sp.futility_lmr_depth != 0;
        // Alpha is fixed in a non-PV node (a score above it cuts off), so
        // futility at the node's depth is decided once.
        let futile = !futility_by_move
            && depth <= sp.futility_max_depth
            && static_eval + sp.futility_base + sp.futility_margin * depth <= alpha;
        let move_count_limit = if depth <= sp.lmp_max_depth {
            let n = sp.lmp_base + depth * depth;
            if sp.lmp_improving != 0 && !improving {
                n / 2
            } else {
                n
            }
        } else {
            i32::MAX
        };
        // A capture stored as the best move: the quiet moves are likely worse.
        let tt_move_is_capture = tt_move.is_some_and(|m| pos.is_capture(m));
        for (i, &(order, m)) in ordered.iter().enumerate() {
            if Some(m) == excluded {
                continue;
            }
            let child = pos.play_unchecked(m);
            let quiet = !pos.is_capture(m) && m.promotion().is_none();
            self.played[ply] = Some(m);
            if sp.continuation_history != 0 {
                self.played_piece_to[ply] = Some(moved_piece_to(pos, us, m));
            }
            let gives_check = child.is_check();
            if prune_quiets
                && i > 0
                && quiet
                && !gives_check
                && best > -MATE_BOUND
                && !(V::MUST_CAPTURE && child.has_capture())
                && (futile
                    || i as i32 >= move_count_limit
                    || self.prune_by_reduced_depth(pos, us, m, depth, i, static_eval, alpha, cont))
            {
                continue;
            }
            // SEE pruning: a move that loses too much in the exchange on its
            // square, near the leaves.
            if exchanges_are_chess_like::<V>()
                && depth <= sp.see_prune_max_depth
                && ply > 0
                && i > 0
                && !gives_check
                && best > -MATE_BOUND
            {
                let margin = if quiet {
                    sp.see_prune_quiet_margin * depth * depth
                } else {
                    sp.see_prune_capture_margin * depth
                };
                if see(pos, m) < -margin {
                    continue;
                }
            }
            let new_depth = depth - 1 + i32::from(Some(m) == singular_move);
            self.keys.push(child.key());
            let score = if i == 0 {
                -self.search(
                    &child,
                    -beta,
                    -alpha,
                    new_depth,
                    ply + 1,
                    pv_node,
                    !pv_node && !cut_node,
                )
            } else {
                let mut r = 0;
                // A capture the ordering put after the quiet moves (it
                // loses its exchange) is reduced as they are, with
                // `lmr_bad_captures`.
                let bad_capture =
                    sp.lmr_bad_captures != 0 && order < BAD_CAPTURE_BOUND && pos.is_capture(m);
                if depth >= sp.lmr_min_depth
                    && i >= sp.lmr_min_move as usize
                    && (quiet || bad_capture)
                    && !in_check
                    && !gives_check
                    && !(V::MUST_CAPTURE && sp.forced_capture_guard != 0 && child.has_capture())
                {
                    r = self.reduction(depth, i) - pv_node as i32;
                    if sp.lmr_improving != 0 && !improving {
                        r += 1;
                    }
                    if quiet && sp.lmr_history_divisor != 0 {
                        // A quiet move that has often cut off is reduced
                        // less (with the malus, one that failed more).
                        r -= self.quiet_order(pos, us, m, cont) / sp.lmr_history_divisor;
                    }
                    if cut_node {
                        r += sp.lmr_cut_node;
                    }
                    if quiet && tt_move_is_capture {
                        r += sp.lmr_tt_capture;
                    }
                    r = r.clamp(0, new_depth - 1);
                }
                let mut s = -self.search(
                    &child,
                    -alpha - 1,
                    -alpha,
                    new_depth - r,
                    ply + 1,
                    false,
                    true,
                );
                if s > alpha && r > 0 {
                    s = -self.search(
                        &child,
                        -alpha - 1,
                        -alpha,
                        new_depth,
                        ply + 1,
                        false,
                        !cut_node,
                    );
                }
                if s > alpha && s < beta && pv_node {
                    s = -self.search(&child, -beta, -alpha, new_depth, ply + 1, true, false);
                }
                s
            };
            self.keys.pop();
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
                best_move = Some(m);
                if score > alpha {
                    alpha = score;
                    if ply == 0 {
                        self.root_best = Some((m, score));
                    }
                    if pv_node {
                        let (head, tail) = self.pv.split_at_mut(ply + 1);
                        head[ply].clear();
                        head[ply].push(m);
                        head[ply].extend_from_slice(&tail[0]);
                    }
                    if score >= beta {
                        if quiet {
                            let k = &mut self.killers[ply];
                            if k[0] != Some(m) {
                                k[1] = k[0];
                                k[0] = Some(m);
                            }
                            self.reward_quiet(pos, us, m, depth, &quiets_tried, cont);
                            if let Some(slot) = counter_slot {
                                self.counters[slot] = Some(m);
                            }
                        }
                        if track_captures {
                            self.reward_captures(pos, us, m, depth, &captures_tried);
                        }
                        break;
                    }
                }
            }
            if quiet && track_quiets {
                quiets_tried.push(m);
            } else if track_captures && pos.is_capture(m) {
                captures_tried.push(m);
            }
        }
        if excluded.is_some() {
            // The left-out move was the only one: the others score nothing.
            return if best == -INF { alpha } else { best };
        }
        let bound = Bound::of_result(best, beta, alpha > original_alpha);
        // The search's error against the static evaluation, where the
        // result says how large it is (a bound on the right side of the
        // evaluation) and no capture decided it.
        let tactical_best = best_move.is_some_and(|m| pos.is_capture(m) || m.promotion().is_some());
        let error_known = match bound {
            Bound::Lower => best > static_eval,
            Bound::Upper => best < static_eval,
            Bound::Exact => true,
        };
        if !self.correction.is_empty()
            && !in_check
            && best.abs() < MATE_BOUND
            && !tactical_best
            && error_known
        {
            self.update_correction(pos, depth, best - raw_eval);
        }
        let eval = if in_check { 0 } else { raw_eval };
        self.store(key, best, eval, depth, bound, best_move, ply);
        best
    }

    /// [`SearchParams::reduction`] of the worker's settings, from its table
    /// where the table reaches.
    #[inline]
    fn reduction(&self, depth: i32, n: usize) -> i32 {
        match usize::try_from(depth) {
            Ok(d) if (1..LMR_TABLE_SIDE).contains(&d) && (1..LMR_TABLE_SIDE).contains(&n) => {
                let table = self.reductions.get_or_init(|| {
                    (0..LMR_TABLE_SIDE * LMR_TABLE_SIDE)
                        .map(|k| {
                            let (d, n) = (k / LMR_TABLE_SIDE, k % LMR_TABLE_SIDE);
                            let r = self.settings.reduction(d as i32, n);
                            r.clamp(i8::MIN.into(), i8::MAX.into()) as i8
                        })
                        .collect()
                });
                i32::from(table[d * LMR_TABLE_SIDE + n])
            }
            _ => self.settings.reduction(depth, n),
        }
    }

    /// `raw`, the static evaluation of `pos`, plus the correction history's
    /// entry for it, scaled toward 0 as the fifty-move count grows
    /// (`fifty_move_damping`); `raw` itself when both are off.
    #[inline]
    fn corrected_eval(&self, pos: &Position<V>, raw: i32) -> i32 {
        let mut eval = raw;
        // Off: not even the pawn hash.
        if !self.correction.is_empty() {
            let c = i64::from(self.correction[correction_index(pos)]);
            eval = (eval + (c / CORRECTION_GRAIN) as i32).clamp(-MATE_BOUND + 1, MATE_BOUND - 1);
        }
        let span = self.settings.fifty_move_damping;
        if span > 0 {
            let left = span - (pos.halfmove_clock() as i32).min(span);
            eval = eval * left / span;
        }
        eval
    }

    /// Moves the correction entry of `pos` toward `error` (the search's
    /// score minus the static evaluation) with a weight growing with the
    /// `depth` of the search, up to `correction_weight_max` 256ths, within
    /// plus or minus `correction_max` centipawns.
    fn update_correction(&mut self, pos: &Position<V>, depth: i32, error: i32) {
        let sp = self.settings;
        let max = i64::from(sp.correction_max) * CORRECTION_GRAIN;
        let weight = i64::from((depth + 1).min(sp.correction_weight_max));
        let error = i64::from(error).clamp(-max, max) * CORRECTION_GRAIN;
        let entry = &mut self.correction[correction_index(pos)];
        let old = i64::from(*entry);
        *entry = ((old * (256 - weight) + error * weight) / 256).clamp(-max, max) as i32;
    }

    /// Futility pruning by move (`futility_lmr_depth`) and history pruning
    /// (`history_prune_max_depth`) of the quiet move `m` by `us`, the `i`th
    /// of a node of `depth` with `static_eval`: both judge the move at the
    /// depth its late-move reduction would leave it.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn prune_by_reduced_depth(
        &self,
        pos: &Position<V>,
        us: Color,
        m: Move,
        depth: i32,
        i: usize,
        static_eval: i32,
        alpha: i32,
        cont: [Option<usize>; 2],
    ) -> bool {
        let sp = self.settings;
        if sp.futility_lmr_depth == 0 && sp.history_prune_max_depth == 0 {
            return false;
        }
        let lmr_depth = (depth - 1 - self.reduction(depth, i)).max(0);
        if sp.futility_lmr_depth != 0
            && lmr_depth <= sp.futility_max_depth
            && static_eval + sp.futility_base + sp.futility_margin * lmr_depth <= alpha
        {
            return true;
        }
        lmr_depth < sp.history_prune_max_depth
            && self.quiet_order(pos, us, m, cont) < -sp.history_prune_margin * depth
    }

    /// ProbCut at a node at `ply` of `depth` whose static evaluation is
    /// `static_eval`: the captures and promotions of `moves` whose exchange
    /// wins at least `probcut_beta - static_eval` (the table's move first,
    /// then by victim and attacker), each searched in quiescence with a null
    /// window at `probcut_beta` and, if it holds there, at `depth - 4`. The
    /// first that holds at that depth proves the node's fail high: its score
    /// is stored as a lower bound of depth `depth - 3` and returned. `None`
    /// when none does (or the search stopped: the caller checks).
    #[allow(clippy::too_many_arguments)]
    fn probcut(
        &mut self,
        pos: &Position<V>,
        moves: &MoveList,
        tt_move: Option<Move>,
        probcut_beta: i32,
        depth: i32,
        ply: usize,
        static_eval: i32,
    ) -> Option<i32> {
        let threshold = probcut_beta - static_eval;
        let mut tries: Vec<(i32, Move)> = moves
            .iter()
            .filter_map(|&m| {
                let order = tactical_order(pos, m)?;
                let order = if Some(m) == tt_move {
                    TT_MOVE_ORDER
                } else {
                    order
                };
                (see(pos, m) >= threshold).then_some((order, m))
            })
            .collect();
        tries.sort_unstable_by_key(|t| std::cmp::Reverse(t.0));
        let us = pos.turn();
        for (_, m) in tries {
            let child = pos.play_unchecked(m);
            self.played[ply] = Some(m);
            if self.settings.continuation_history != 0 {
                self.played_piece_to[ply] = Some(moved_piece_to(pos, us, m));
            }
            self.keys.push(child.key());
            let window = (-probcut_beta, -probcut_beta + 1);
            let mut s = -self.qsearch(&child, window.0, window.1, ply + 1, 0, &mut NoObserver);
            if s >= probcut_beta && !self.stopped {
                // A move expected to beat beta leaves the opponent a node
                // expected to fail low: not a cut node.
                s = -self.search(&child, window.0, window.1, depth - 4, ply + 1, false, false);
            }
            self.keys.pop();
            if self.stopped {
                return None;
            }
            if s >= probcut_beta {
                self.store(
                    pos.key(),
                    s,
                    static_eval,
                    depth - 3,
                    Bound::Lower,
                    Some(m),
                    ply,
                );
                return Some(s);
            }
        }
        None
    }

    /// Quiescence search of `pos` on its own, as the root of a full window
    /// (the tuner resolves positions to their leaves with it); `obs` sees
    /// the leaves. `None` if the clock's limit stopped the search.
    pub fn quiesce<O: QObserver<V>>(&mut self, pos: &Position<V>, obs: &mut O) -> Option<i32> {
        let score = self.qsearch(pos, -INF, INF, 0, 0, obs);
        (!self.stopped).then_some(score)
    }

    /// The static evaluation of `pos`, reported to `obs` as the leaf at `ply`.
    #[inline]
    fn q_eval<O: QObserver<V>>(&self, pos: &Position<V>, ply: usize, obs: &mut O) -> i32 {
        self.q_static(pos, ply, obs).1
    }

    /// The static evaluation of the quiescence leaf `pos` at `ply`, reported
    /// to `obs`: as the table stores it and as the search uses it, with the
    /// correction history's entry (not while the tuner follows lines: it
    /// fits the evaluation itself).
    #[inline]
    fn q_static<O: QObserver<V>>(&self, pos: &Position<V>, ply: usize, obs: &mut O) -> (i32, i32) {
        obs.leaf(ply, QLeaf::Eval(pos));
        let raw = evaluate(pos, self.params);
        if O::FOLLOWS_LINES {
            (raw, raw)
        } else {
            (raw, self.corrected_eval(pos, raw))
        }
    }

    /// The score of the game ending with `o`, reported to `obs` as the leaf
    /// at `ply`.
    #[inline]
    fn q_end<O: QObserver<V>>(o: Outcome, pos: &Position<V>, ply: usize, obs: &mut O) -> i32 {
        obs.leaf(ply, QLeaf::End(o));
        outcome_score(o, pos.turn(), ply)
    }

    /// Quiescence search: captures (and what each game forces) until quiet.
    fn qsearch<O: QObserver<V>>(
        &mut self,
        pos: &Position<V>,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        qply: u32,
        obs: &mut O,
    ) -> i32 {
        self.count_node();
        if self.should_stop() {
            return 0;
        }
        if let Some(o) = V::end_by_rule(pos) {
            return Self::q_end(o, pos, ply, obs);
        }
        self.seldepth = self.seldepth.max(ply);
        if ply >= MAX_PLY {
            return self.q_eval(pos, ply, obs);
        }
        // Transposition table (`qsearch_tt`): the first ply of quiescence
        // (threecheck's quiet checks) stores depth 0, later plies -1, so an
        // entry answers only a node searching no more than it did, and the
        // main search (depth 1 and more) never takes a cutoff from one.
        let use_tt = self.settings.qsearch_tt != 0 && !O::FOLLOWS_LINES;
        let qdepth = if qply == 0 { 0 } else { -1 };
        let key = pos.key();
        let mut tt_move = None;
        let mut tt_entry = None;
        if use_tt {
            if let Some(e) = self.shared.tt.probe(key) {
                if e.depth >= qdepth {
                    if let Some(s) = tt_cutoff(&e, ply, alpha, beta) {
                        return s;
                    }
                }
                tt_move = e.mv;
                tt_entry = Some(e);
            }
        }
        let original_alpha = alpha;
        let in_check = pos.is_check();
        let mut moves;
        let mut best;
        // The static evaluation, where this node computed one (the table's
        // entries carry it for the main search).
        let mut static_eval = None;
        if V::MUST_CAPTURE {
            moves = pos.legal_captures();
            // Capture chains branch at every ply when captures are forced; past a
            // few plies the static evaluation stands in for the rest of the chain.
            if qply as i32 >= self.settings.max_forced_qply && !moves.is_empty() {
                return self.q_eval(pos, ply, obs);
            }
            if moves.is_empty() {
                // Quiet: the side may stand pat, unless it has no move at all
                // or (losers) must answer a check.
                if !pos.has_legal_move() {
                    return Self::q_end(V::end_without_moves(pos), pos, ply, obs);
                }
                if !in_check {
                    return self.q_eval(pos, ply, obs);
                }
                moves = pos.legal_moves();
            }
            best = -INF;
        } else if in_check {
            moves = pos.legal_moves();
            if moves.is_empty() {
                return Self::q_end(V::end_without_moves(pos), pos, ply, obs);
            }
            best = -INF;
        } else {
            let (raw, corrected) = self.q_static(pos, ply, obs);
            static_eval = Some(raw);
            let stand_pat = match tt_entry {
                Some(e) if self.settings.tt_eval_refine != 0 => refined_eval(&e, ply, corrected),
                _ => corrected,
            };
            if stand_pat >= beta {
                if use_tt {
                    self.store(key, stand_pat, raw, qdepth, Bound::Lower, None, ply);
                }
                return stand_pat;
            }
            alpha = alpha.max(stand_pat);
            best = stand_pat;
            if V::CHECK_COUNTING
                && (qply == 0
                    || pos.checks_remaining(pos.turn()) as i32 <= self.settings.qsearch_checks_left)
            {
                // A check is worth a lot here (with one left it wins): try
                // quiet checks too.
                moves = pos.legal_moves();
                moves.retain(|m| {
                    pos.is_capture(m) || m.promotion().is_some() || pos.play_unchecked(m).is_check()
                });
            } else {
                moves = pos.legal_captures();
            }
            if moves.is_empty() && !pos.has_legal_move() {
                return Self::q_end(V::end_without_moves(pos), pos, ply, obs);
            }
        }
        if V::CHECK_COUNTING
            && self.settings.qsearch_checks_left > 0
            && pos.checks_remaining(pos.turn()) == 1
        {
            // Any check is the last one and wins at once: nothing scores
            // more, and searching the captures first could cost millions of
            // nodes in a position full of them.
            let mut children = moves.iter().map(|&m| pos.play_unchecked(m));
            if let Some(child) = children.find(|c| c.is_check()) {
                let score = -self.qsearch(&child, -beta, -alpha, ply + 1, qply + 1, obs);
                if self.stopped {
                    return 0;
                }
                obs.best_child(ply);
                return score;
            }
        }
        // No continuation history: the moves before a quiescence node are not
        // all recorded (quiescence keeps no path of its own).
        let ordered = self.order_moves(pos, &moves, tt_move, ply, None, [None, None]);
        let see_pruning =
            exchanges_are_chess_like::<V>() && self.settings.see_qsearch_pruning != 0 && !in_check;
        // With SEE ordering, the ordering already knows which captures lose
        // their exchange (all but the table's move, which it did not test):
        // their scores are negative and every other capture's positive.
        let ordered_by_see = exchanges_are_chess_like::<V>() && self.settings.see_ordering != 0;
        // A single forced capture does not branch: with
        // `forced_qply_single_free` it costs none of the chain's plies.
        let next_qply = if V::MUST_CAPTURE
            && self.settings.forced_qply_single_free != 0
            && moves.len() == 1
            && pos.is_capture(moves[0])
        {
            qply
        } else {
            qply + 1
        };
        // Futility (delta) pruning (`qsearch_futility_margin`): where
        // exchanges mean what they mean in chess and the side stands pat, a
        // capture that cannot lift the score to alpha even with the whole
        // victim and the margin is skipped (in threecheck only if it does
        // not check), its hopeful score kept as a bound.
        let futility_base = match static_eval {
            Some(_)
                if exchanges_are_chess_like::<V>() && self.settings.qsearch_futility_margin > 0 =>
            {
                Some(best + self.settings.qsearch_futility_margin)
            }
            _ => None,
        };
        let mut best_move = None;
        for &(order, m) in &ordered {
            let futile = match futility_base {
                Some(base) if pos.is_capture(m) && m.promotion().is_none() => {
                    let hope = base + see_value(captured_role(pos, m));
                    (hope <= alpha).then_some(hope)
                }
                _ => None,
            };
            if let (Some(hope), false) = (futile, V::CHECK_COUNTING) {
                best = best.max(hope);
                continue;
            }
            // A capture that loses its exchange is skipped (in threecheck
            // only if it does not check).
            let losing = see_pruning
                && pos.is_capture(m)
                && if ordered_by_see && order != TT_MOVE_ORDER {
                    order < 0
                } else {
                    see(pos, m) < 0
                };
            if losing && !V::CHECK_COUNTING {
                continue;
            }
            let child = pos.play_unchecked(m);
            if (losing || futile.is_some()) && !child.is_check() {
                if let Some(hope) = futile {
                    best = best.max(hope);
                }
                continue;
            }
            let score = -self.qsearch(&child, -beta, -alpha, ply + 1, next_qply, obs);
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
                best_move = Some(m);
                obs.best_child(ply);
                if score > alpha {
                    alpha = score;
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        if use_tt {
            let bound = Bound::of_result(best, beta, alpha > original_alpha);
            let eval = match static_eval {
                Some(e) => e,
                // In check the main search reads no evaluation.
                None if in_check => 0,
                None => evaluate(pos, self.params),
            };
            self.store(key, best, eval, qdepth, bound, best_move, ply);
        }
        best
    }

    /// Stores the result of a node (`score` at `ply`, with the static
    /// evaluation `eval`), from the main search or quiescence, under the
    /// table's replacement rule (`tt_keep_deeper`).
    #[allow(clippy::too_many_arguments)]
    fn store(
        &self,
        key: u64,
        score: i32,
        eval: i32,
        depth: i32,
        bound: Bound,
        mv: Option<Move>,
        ply: usize,
    ) {
        self.shared.tt.store(
            key,
            TtEntry {
                mv,
                score: score_to_tt(score, ply),
                eval,
                depth,
                bound,
            },
            self.settings.tt_keep_deeper != 0,
        );
    }

    /// What the main thread reports of an iteration to `depth` that scored
    /// `score` with `pv`.
    fn info(&self, depth: u32, score: i32, pv: &[Move]) -> Info {
        Info {
            depth,
            seldepth: self.seldepth as u32,
            score,
            nodes: self.shared.nodes.load(Relaxed),
            time_ms: self.clock.elapsed().as_millis() as u64,
            pv: pv.to_vec(),
            hashfull: self.shared.tt.hashfull(),
        }
    }

    /// Iterative deepening from `root` until the clock or `max_depth` says
    /// stop. Calls `report` after each completed iteration (main thread).
    pub fn iterate(
        &mut self,
        root: &Position<V>,
        max_depth: u32,
        report: &mut dyn FnMut(&Info),
    ) -> (Option<Move>, i32, u32, Vec<Move>) {
        let moves = root.legal_moves();
        let mut best_move = moves.first().copied();
        let mut best_score: i32 = 0;
        let mut completed = 0;
        let mut best_pv: Vec<Move> = best_move.into_iter().collect();
        if moves.is_empty() {
            return (None, 0, 0, Vec::new());
        }
        if self.keys.last() != Some(&root.key()) {
            self.keys.push(root.key());
        }
        // For the soft limit's scaling (`tm_stability`, main thread): the
        // completed iterations' scores and how many in a row kept the best
        // move.
        let mut scores: Vec<i32> = Vec::new();
        let mut stable_iterations = 0u32;
        let mut depth = 1u32;
        while depth <= max_depth.min(MAX_PLY as u32 - 10) {
            // Lazy SMP: helpers skip ahead on alternate depths so threads spread out.
            let sp = self.settings;
            let d = if self.id > 0 && depth as i32 > sp.smp_skip_min_depth {
                depth + (self.id as u32 % 2)
            } else {
                depth
            };
            self.seldepth = 0;
            let mut window = sp.aspiration_window;
            let (mut alpha, mut beta) =
                if d as i32 >= sp.aspiration_min_depth && (best_score.abs() < MATE_BOUND) {
                    (best_score - window, best_score + window)
                } else {
                    (-INF, INF)
                };
            self.root_best = None;
            self.root_depth = d as i32;
            let score = loop {
                let s = self.search(root, alpha, beta, d as i32, 0, true, false);
                if self.stopped {
                    break s;
                }
                if s <= alpha {
                    alpha = alpha.saturating_sub(window).max(-INF);
                    window = window.saturating_mul(sp.aspiration_growth);
                } else if s >= beta {
                    beta = beta.saturating_add(window).min(INF);
                    window = window.saturating_mul(sp.aspiration_growth);
                } else {
                    break s;
                }
            };
            if self.stopped {
                // A root move searched to the end that beat the window is a
                // better guess than the last iteration's, when enabled.
                if sp.partial_iteration != 0 {
                    if let (Some((m, s)), Some(&first)) = (self.root_best, self.pv[0].first()) {
                        if m == first {
                            best_move = Some(m);
                            best_score = s;
                            best_pv = self.pv[0].clone();
                            // Posted like a finished iteration's, so the
                            // move played (and the reply pondered on) is
                            // always the last line the GUI saw.
                            if self.id == 0 {
                                self.flush_nodes();
                                report(&self.info(d, s, &best_pv));
                            }
                        }
                    }
                }
                break;
            }
            completed = d;
            best_score = score;
            if let Some(&m) = self.pv[0].first() {
                if completed > 1 {
                    stable_iterations = if best_move == Some(m) {
                        stable_iterations + 1
                    } else {
                        0
                    };
                }
                best_move = Some(m);
                best_pv = self.pv[0].clone();
            }
            if sp.tm_stability != 0 {
                scores.push(score);
            }
            if self.id == 0 {
                self.flush_nodes();
                report(&self.info(d, score, &best_pv));
                let factor = soft_limit_factor(sp, stable_iterations, &scores);
                if self.clock.past_scaled_soft_limit(factor) {
                    break;
                }
                if moves.len() == 1 && self.clock.has_time_limit() {
                    break;
                }
            }
            depth = d + 1;
        }
        self.flush_nodes();
        if self.settings.keep_heuristics != 0 {
            self.save_heuristics();
        }
        (best_move, best_score, completed, best_pv)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::limits::Limits;
    use movegen::variants::{Chess, Suicide, ThreeCheck};

    /// The quiescence score of `fen` with `settings`.
    fn quiesce<V: Variant>(fen: &str, settings: &SearchParams) -> i32 {
        let pos = Position::<V>::from_fen(fen).expect("valid FEN");
        let params = EvalParams::default_for(V::KIND);
        let shared = Shared::new(1);
        let clock = Clock::start(&Limits::nodes(1_000_000), pos.turn(), 1, settings);
        let mut w = Worker::<V>::new(0, &shared, &params, settings, &clock, &[]);
        w.quiesce(&pos, &mut NoObserver)
            .expect("within the node limit")
    }

    #[test]
    fn quiescence_stores_its_result_and_answers_from_it_when_enabled() {
        // White's queen takes a defended knight or not: a few captures deep.
        let fen = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5Q2/PPPP1PPP/RNB1KBNR w KQkq - 2 3";
        let pos = Position::<Chess>::from_fen(fen).expect("valid FEN");
        let params = EvalParams::default_for(Chess::KIND);
        let run = |qsearch_tt: i32| {
            // SEE pruning would skip the losing Qxf7+ and leave nothing to
            // search.
            let settings = SearchParams {
                qsearch_tt,
                see_qsearch_pruning: 0,
                ..SearchParams::default()
            };
            let shared = Shared::new(1);
            let clock = Clock::start(&Limits::nodes(1_000_000), pos.turn(), 1, &settings);
            let mut w = Worker::<Chess>::new(0, &shared, &params, &settings, &clock, &[]);
            let first = w.quiesce(&pos, &mut NoObserver).expect("within the limit");
            let first_nodes = w.nodes;
            let entry = shared.tt.probe(pos.key());
            let second = w.quiesce(&pos, &mut NoObserver).expect("within the limit");
            (first, first_nodes, entry, second, w.nodes - first_nodes)
        };
        let (score, nodes, entry, again, again_nodes) = run(1);
        let e = entry.expect("the root's result is stored");
        // A full window: the bound is exact, at quiescence's first-ply depth.
        assert_eq!((e.bound, e.depth, e.score), (Bound::Exact, 0, score));
        assert_eq!(e.eval, evaluate(&pos, &params));
        assert!(nodes > 1, "a capture to search");
        assert_eq!((again, again_nodes), (score, 1), "answered by the entry");
        // Off: the table stays empty and the score is the same here.
        let (off_score, off_nodes, off_entry, _, off_again) = run(0);
        assert_eq!(off_entry, None);
        assert_eq!(off_score, score);
        assert_eq!(off_again, off_nodes);
    }

    #[test]
    fn forced_replies_are_searched_a_ply_deeper_only_when_enabled() {
        // White's only legal move is the forced exd3; in the second position
        // White must capture and has two captures (exd3, cxd3).
        let one = "k7/8/8/8/8/3p4/4P3/7K w - - 0 1";
        let two = "k7/8/8/8/8/3p4/2P1P3/7K w - - 0 1";
        let root_depth = |fen: &str, settings: &SearchParams| {
            let pos = Position::<Suicide>::from_fen(fen).expect("valid FEN");
            let params = EvalParams::default_for(Suicide::KIND);
            let shared = Shared::new(1);
            let clock = Clock::start(&Limits::depth(3), pos.turn(), 1, settings);
            let mut w = Worker::<Suicide>::new(0, &shared, &params, settings, &clock, &[]);
            w.iterate(&pos, 3, &mut |_| {});
            shared
                .tt
                .probe(pos.key())
                .expect("the root is stored")
                .depth
        };
        let off = SearchParams::default();
        let single = SearchParams {
            single_reply_extension: 1,
            ..SearchParams::default()
        };
        let two_captures = SearchParams {
            forced_capture_extension: 2,
            ..SearchParams::default()
        };
        assert_eq!(root_depth(one, &off), 3);
        assert_eq!(root_depth(one, &single), 4);
        assert_eq!(root_depth(two, &single), 3, "two replies: no single reply");
        assert_eq!(root_depth(two, &two_captures), 4);
        assert_eq!(
            root_depth(one, &two_captures),
            4,
            "one capture is at most two"
        );
    }

    #[test]
    fn the_null_move_of_the_forced_capture_games_changes_only_their_tree() {
        fn nodes<V: Variant>(fen: &str, nmp_forced_capture_games: i32) -> u64 {
            let pos = Position::<V>::from_fen(fen).expect("valid FEN");
            let params = EvalParams::default_for(V::KIND);
            let settings = SearchParams {
                nmp_forced_capture_games,
                ..SearchParams::default_for(V::KIND)
            };
            let shared = Shared::new(1);
            let clock = Clock::start(&Limits::depth(7), pos.turn(), 1, &settings);
            let mut w = Worker::<V>::new(0, &shared, &params, &settings, &clock, &[]);
            w.iterate(&pos, 7, &mut |_| {});
            w.nodes
        }
        let opening = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        assert_ne!(nodes::<Suicide>(opening, 1), nodes::<Suicide>(opening, 0));
        assert_eq!(nodes::<Chess>(opening, 1), nodes::<Chess>(opening, 0));
    }

    #[test]
    fn captures_that_lose_their_exchange_go_last_and_leave_quiescence_when_enabled() {
        // Qxd5 loses the queen to exd5 for a knight: White's only capture.
        let fen = "6k1/8/4p3/3n4/8/8/8/3Q2K1 w - - 0 1";
        let pos = Position::<Chess>::from_fen(fen).expect("valid FEN");
        let params = EvalParams::default_for(Chess::KIND);
        let order = |see_ordering: i32| {
            let settings = SearchParams {
                see_ordering,
                ..SearchParams::default()
            };
            let shared = Shared::new(1);
            let clock = Clock::start(&Limits::depth(1), pos.turn(), 1, &settings);
            let w = Worker::<Chess>::new(0, &shared, &params, &settings, &clock, &[]);
            let ordered = w.order_moves(&pos, &pos.legal_moves(), None, 1, None, [None, None]);
            ordered
                .iter()
                .position(|&(_, m)| m.uci() == "d1d5")
                .expect("legal")
        };
        let moves = pos.legal_moves().len();
        assert_eq!(order(0), 0, "captures first");
        assert_eq!(order(1), moves - 1, "after every quiet move");
        let pruning = |see_qsearch_pruning: i32| {
            let settings = SearchParams {
                see_qsearch_pruning,
                ..SearchParams::default()
            };
            let shared = Shared::new(1);
            let clock = Clock::start(&Limits::nodes(1_000_000), pos.turn(), 1, &settings);
            let mut w = Worker::<Chess>::new(0, &shared, &params, &settings, &clock, &[]);
            let score = w.quiesce(&pos, &mut NoObserver).expect("within the limit");
            (score, w.nodes)
        };
        let (off_score, off_nodes) = pruning(0);
        let (on_score, on_nodes) = pruning(1);
        assert!(off_nodes > 1, "Qxd5 searched");
        assert_eq!(on_nodes, 1, "Qxd5 skipped");
        assert_eq!(on_score, off_score, "standing pat beats losing the queen");
        assert_eq!(on_score, evaluate(&pos, &params));
    }

    #[test]
    fn pruning_and_reduction_switches_change_the_tree_only_when_enabled() {
        // A quiet middlegame: White's best is found with or without pruning.
        let fen = "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 0 8";
        let pos = Position::<Chess>::from_fen(fen).expect("valid FEN");
        let params = EvalParams::default_for(Chess::KIND);
        let nodes = |settings: SearchParams| {
            let shared = Shared::new(16);
            let clock = Clock::start(&Limits::depth(6), pos.turn(), 1, &settings);
            let mut w = Worker::<Chess>::new(0, &shared, &params, &settings, &clock, &[]);
            let (best, _, depth, _) = w.iterate(&pos, 6, &mut |_| {});
            assert_eq!(depth, 6);
            assert!(best.is_some());
            w.nodes
        };
        // Every switch tested here off.
        let base = SearchParams {
            lmp_max_depth: 0,
            futility_max_depth: 0,
            lmr_cut_node: 0,
            see_prune_max_depth: 0,
            ..SearchParams::default().without_selectivity()
        };
        let off = nodes(base.clone());
        let lmp = nodes(SearchParams {
            lmp_max_depth: 3,
            ..base.clone()
        });
        let futility = nodes(SearchParams {
            futility_max_depth: 3,
            ..base.clone()
        });
        // One search of depth 6 with an empty table (iterating would leave a
        // stored move in every node deep enough).
        let one_search = |settings: SearchParams| {
            let shared = Shared::new(16);
            let clock = Clock::start(&Limits::depth(6), pos.turn(), 1, &settings);
            let mut w = Worker::<Chess>::new(0, &shared, &params, &settings, &clock, &[]);
            w.keys.push(pos.key());
            w.search(&pos, -INF, INF, 6, 0, true, false);
            (w.nodes, shared.tt.probe(pos.key()).expect("stored").depth)
        };
        let (off_once, off_depth) = one_search(base.clone());
        let (iir, iir_depth) = one_search(SearchParams {
            iir_min_depth: 4,
            ..base.clone()
        });
        assert!(
            iir < off_once,
            "internal iterative reduction: {iir} nodes, {off_once} without"
        );
        assert_eq!(
            (off_depth, iir_depth),
            (6, 5),
            "the root had no stored move"
        );
        let not_improving = nodes(SearchParams {
            lmr_improving: 1,
            ..base.clone()
        });
        // More reduction need not mean fewer nodes in one small search (a
        // reduced move that fails high is searched again): the switch must
        // act, not shrink this tree.
        assert_ne!(
            not_improving, off,
            "more reduction where not improving: {not_improving} nodes, {off} without"
        );
        let history_lmr = nodes(SearchParams {
            lmr_history_divisor: 1,
            ..base.clone()
        });
        assert_ne!(
            history_lmr, off,
            "less reduction for moves with history: {history_lmr} nodes, {off} without"
        );
        assert!(lmp < off, "move-count pruning: {lmp} nodes, {off} without");
        assert!(
            futility < off,
            "futility pruning: {futility} nodes, {off} without"
        );
    }

    /// Nodes of an iterative-deepening search of a quiet chess middlegame
    /// to depth 8 with `settings`.
    fn middlegame_nodes(settings: SearchParams) -> u64 {
        let fen = "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 0 8";
        let pos = Position::<Chess>::from_fen(fen).expect("valid FEN");
        let params = EvalParams::default_for(Chess::KIND);
        let shared = Shared::new(16);
        let clock = Clock::start(&Limits::depth(8), pos.turn(), 1, &settings);
        let mut w = Worker::<Chess>::new(0, &shared, &params, &settings, &clock, &[]);
        let (best, _, depth, _) = w.iterate(&pos, 8, &mut |_| {});
        assert_eq!(depth, 8);
        assert!(best.is_some());
        w.nodes
    }

    #[test]
    fn the_singular_extension_changes_the_tree_only_when_enabled() {
        let off = middlegame_nodes(SearchParams::default());
        let off_tuned = middlegame_nodes(SearchParams {
            se_min_depth: 2,
            se_margin: 0,
            se_tt_depth_slack: 20,
            ..SearchParams::default()
        });
        assert_eq!(off_tuned, off, "switched off, its settings change nothing");
        let on = middlegame_nodes(SearchParams {
            singular_extension: 1,
            se_min_depth: 4,
            ..SearchParams::default()
        });
        assert_ne!(on, off, "singular extension: {on} nodes, {off} without");
    }

    /// The trend and reduced-depth refinements of the pruning (improving
    /// in reverse futility and move-count pruning, futility and history
    /// pruning at the reduced depth, the evaluation's share of the null
    /// move's reduction): their margins change nothing while their
    /// switches are off, and each switch changes the tree.
    #[test]
    fn the_selectivity_refinements_change_the_tree_only_when_enabled() {
        let off = middlegame_nodes(SearchParams::default().without_selectivity());
        let margins_alone = middlegame_nodes(SearchParams {
            history_prune_margin: 0,
            nmp_eval_max: 0,
            ..SearchParams::default().without_selectivity()
        });
        assert_eq!(margins_alone, off, "switched off, margins change nothing");
        let switches = [
            (
                "rfp_improving",
                SearchParams {
                    rfp_improving: 1,
                    ..SearchParams::default().without_selectivity()
                },
            ),
            (
                "lmp_improving",
                SearchParams {
                    lmp_improving: 1,
                    ..SearchParams::default().without_selectivity()
                },
            ),
            (
                "futility_lmr_depth",
                SearchParams {
                    futility_lmr_depth: 1,
                    ..SearchParams::default().without_selectivity()
                },
            ),
            (
                "history_prune_max_depth",
                SearchParams {
                    history_prune_max_depth: 4,
                    // Any quiet move with a bad history, so that the switch
                    // acts in this small search whatever the evaluation.
                    history_prune_margin: 0,
                    ..SearchParams::default().without_selectivity()
                },
            ),
            (
                "nmp_eval_divisor",
                SearchParams {
                    nmp_eval_divisor: 30,
                    ..SearchParams::default().without_selectivity()
                },
            ),
        ];
        for (name, settings) in switches {
            let on = middlegame_nodes(settings);
            assert_ne!(on, off, "{name}: {on} nodes, {off} without");
        }
    }

    #[test]
    fn a_search_leaving_out_the_tables_move_takes_no_cutoff_from_its_entry_nor_stores() {
        let pos = Position::<Chess>::startpos();
        let params = EvalParams::default_for(Chess::KIND);
        let settings = SearchParams::default();
        let shared = Shared::new(16);
        let clock = Clock::start(&Limits::depth(5), pos.turn(), 1, &settings);
        let mut w = Worker::<Chess>::new(0, &shared, &params, &settings, &clock, &[]);
        w.iterate(&pos, 5, &mut |_| {});
        let e = shared.tt.probe(pos.key()).expect("the root is stored");
        let s = score_from_tt(e.score, 0);
        // A window the entry answers, whatever its bound.
        let (alpha, beta) = match e.bound {
            Bound::Upper => (s, s + 1),
            Bound::Lower | Bound::Exact => (s - 1, s),
        };
        let before = w.nodes;
        assert_eq!(w.search(&pos, alpha, beta, e.depth, 0, false, false), s);
        assert_eq!(w.nodes, before + 1, "answered by the entry");
        w.excluded[0] = e.mv;
        w.search(&pos, alpha, beta, e.depth, 0, false, false);
        assert!(w.nodes > before + 2, "the other moves are searched");
        assert_eq!(
            shared.tt.probe(pos.key()),
            Some(e),
            "the entry is left alone"
        );
    }

    /// More reduction at expected cut nodes and under a capture from the
    /// table, razoring and SEE pruning need not shrink a tree of fixed depth (a reduced
    /// move that still fails high is searched again, a razored node changes
    /// the iteration's best line), so these only change it when on.
    #[test]
    fn cut_node_and_tt_capture_reductions_razoring_see_and_futility_pruning_and_tt_eval_change_the_tree_when_on(
    ) {
        // Every switch tested here off.
        let base = SearchParams {
            lmr_cut_node: 0,
            see_prune_max_depth: 0,
            qsearch_futility_margin: 0,
            tt_eval_refine: 0,
            lmr_bad_captures: 0,
            ..SearchParams::default()
        };
        let off = middlegame_nodes(base.clone());
        let razor_margins_alone = middlegame_nodes(SearchParams {
            razor_base: 0,
            razor_margin: 0,
            ..base.clone()
        });
        assert_eq!(
            razor_margins_alone, off,
            "razoring off: its margins change nothing"
        );
        for (what, on) in [
            (
                "cut-node reduction",
                SearchParams {
                    lmr_cut_node: 2,
                    ..base.clone()
                },
            ),
            (
                "reduction under a capture from the table",
                SearchParams {
                    lmr_tt_capture: 1,
                    ..base.clone()
                },
            ),
            (
                "razoring",
                SearchParams {
                    razor_max_depth: 3,
                    ..base.clone()
                },
            ),
            (
                "SEE pruning in the main search",
                SearchParams {
                    see_prune_max_depth: 6,
                    ..base.clone()
                },
            ),
            (
                "the table's score as the pruning's evaluation",
                SearchParams {
                    tt_eval_refine: 1,
                    ..base.clone()
                },
            ),
            (
                "futility pruning in quiescence",
                SearchParams {
                    qsearch_futility_margin: 200,
                    ..base.clone()
                },
            ),
            (
                "late-move reduction of bad captures",
                SearchParams {
                    lmr_bad_captures: 1,
                    ..base.clone()
                },
            ),
        ] {
            let nodes = middlegame_nodes(on);
            assert_ne!(nodes, off, "{what}: {nodes} nodes, {off} without");
        }
    }

    #[test]
    fn probcut_changes_the_tree_only_when_enabled() {
        let off = middlegame_nodes(SearchParams::default());
        let off_tuned = middlegame_nodes(SearchParams {
            probcut_margin: 0,
            probcut_min_depth: 6,
            ..SearchParams::default()
        });
        assert_eq!(off_tuned, off, "switched off, its settings change nothing");
        let on = middlegame_nodes(SearchParams {
            probcut: 1,
            ..SearchParams::default()
        });
        assert_ne!(on, off, "ProbCut: {on} nodes, {off} without");
    }

    #[test]
    fn history_malus_and_counter_moves_learn_only_when_enabled() {
        let pos = Position::<Chess>::startpos();
        let params = EvalParams::default_for(Chess::KIND);
        let run = |on: i32| {
            // Without gravity, which lowers tried moves on its own.
            let settings = SearchParams {
                history_malus: on,
                counter_moves: on,
                history_gravity: 0,
                ..SearchParams::default()
            };
            let shared = Shared::new(1);
            let clock = Clock::start(&Limits::depth(6), pos.turn(), 1, &settings);
            let mut w = Worker::<Chess>::new(0, &shared, &params, &settings, &clock, &[]);
            w.iterate(&pos, 6, &mut |_| {});
            let lowered = w.history.iter().filter(|&&h| h < 0).count();
            let counters = w.counters.iter().flatten().count();
            let floor = w.history.iter().min().copied().unwrap_or(0);
            (lowered, counters, floor, settings.history_max)
        };
        let (lowered, counters, _, _) = run(0);
        assert_eq!((lowered, counters), (0, 0), "off: nothing lowered or kept");
        let (lowered, counters, floor, cap) = run(1);
        assert!(lowered > 0, "quiet moves before a cutoff lose history");
        assert!(counters > 0, "refutations are remembered");
        assert!(floor >= -cap, "the malus stops at minus the cap");
    }

    #[test]
    fn offer_ordering_puts_the_quiet_moves_that_leave_a_piece_capturable_first() {
        use movegen::variants::Suicide;
        // No capture for White: its quiet moves decide. The knight's moves
        // to c3 and to a3 (the b4 pawn takes on a3, the d4 pawn on c3) and
        // the e-pawn's to e3 (the d4 pawn takes) are the offers.
        let fen = "4k3/8/8/8/1p1p4/8/4P3/1N6 w - - 0 1";
        let pos = Position::<Suicide>::from_fen(fen).expect("valid FEN");
        let params = EvalParams::default_for(Suicide::KIND);
        let offers = ["b1a3", "b1c3", "e2e3"];
        let first_three = |offer_order_bonus: i32| {
            let settings = SearchParams {
                offer_order_bonus,
                ..SearchParams::default()
            };
            let shared = Shared::new(1);
            let clock = Clock::start(&Limits::depth(1), pos.turn(), 1, &settings);
            let mut w = Worker::<Suicide>::new(0, &shared, &params, &settings, &clock, &[]);
            // The quiet move that offers nothing has the best history.
            let d2 = pos
                .legal_moves()
                .iter()
                .copied()
                .find(|m| m.uci() == "b1d2");
            let d2 = d2.expect("legal");
            w.history[Worker::<Suicide>::history_index(pos.turn(), d2)] = settings.history_max / 2;
            let mut first: Vec<String> = w
                .order_moves(&pos, &pos.legal_moves(), None, 1, None, [None, None])
                .iter()
                .take(3)
                .map(|&(_, m)| m.uci())
                .collect();
            first.sort();
            first
        };
        assert!(!first_three(0).iter().all(|m| offers.contains(&m.as_str())));
        assert_eq!(first_three(1 << 20), offers);
    }

    #[test]
    fn the_counter_move_comes_after_the_killers_and_before_history() {
        let pos = Position::<Chess>::startpos();
        let params = EvalParams::default_for(Chess::KIND);
        let settings = SearchParams::default();
        let shared = Shared::new(1);
        let clock = Clock::start(&Limits::depth(1), pos.turn(), 1, &settings);
        let mut w = Worker::<Chess>::new(0, &shared, &params, &settings, &clock, &[]);
        let moves = pos.legal_moves();
        let (k0, k1, counter, by_history) = (moves[0], moves[1], moves[2], moves[3]);
        w.killers[2] = [Some(k0), Some(k1)];
        w.history[Worker::<Chess>::history_index(pos.turn(), by_history)] = settings.history_max;
        let order: Vec<Move> = w
            .order_moves(&pos, &moves, None, 2, Some(counter), [None, None])
            .into_iter()
            .map(|(_, m)| m)
            .take(4)
            .collect();
        assert_eq!(order, [k0, k1, counter, by_history]);
    }

    #[test]
    fn continuation_history_learns_and_orders_only_when_enabled() {
        let pos = Position::<Chess>::startpos();
        let params = EvalParams::default_for(Chess::KIND);
        let run = |continuation_history: i32| {
            let settings = SearchParams {
                continuation_history,
                ..SearchParams::default()
            };
            let shared = Shared::new(1);
            let clock = Clock::start(&Limits::depth(6), pos.turn(), 1, &settings);
            let mut w = Worker::<Chess>::new(0, &shared, &params, &settings, &clock, &[]);
            w.iterate(&pos, 6, &mut |_| {});
            let raised = w.continuation.iter().filter(|&&c| c > 0).count();
            let top = w.continuation.iter().max().copied().unwrap_or(0);
            (w.continuation.len(), raised, top, settings.history_max)
        };
        assert_eq!(run(0), (0, 0, 0, SearchParams::default().history_max));
        let (len, raised, top, cap) = run(1);
        assert_eq!(len, PIECE_TO * PIECE_TO);
        assert!(raised > 0, "quiet cutoffs raise their continuation entries");
        assert!(top <= cap, "capped as the history is");

        // After 1. e4 (the move at ply 0), a continuation entry for ...Nc6
        // puts it before ...a6, whose history is higher.
        let settings = SearchParams {
            continuation_history: 1,
            ..SearchParams::default()
        };
        let shared = Shared::new(1);
        let clock = Clock::start(&Limits::depth(1), pos.turn(), 1, &settings);
        let mut w = Worker::<Chess>::new(0, &shared, &params, &settings, &clock, &[]);
        let e4 = pos.parse_uci("e2e4").expect("legal");
        let after = pos.play_unchecked(e4);
        w.played_piece_to[0] = Some(moved_piece_to(&pos, Color::White, e4));
        let nc6 = after.parse_uci("b8c6").expect("legal");
        let a6 = after.parse_uci("a7a6").expect("legal");
        w.history[Worker::<Chess>::history_index(Color::Black, a6)] = 10;
        let cont = w.continuation_offsets(1);
        assert_eq!(cont[1], None, "no move two plies before");
        let offset = cont[0].expect("the move before");
        w.continuation[offset + moved_piece_to(&after, Color::Black, nc6)] = 20;
        let order = |cont| {
            let ordered = w.order_moves(&after, &after.legal_moves(), None, 1, None, cont);
            let at = |m| ordered.iter().position(|&(_, x)| x == m).expect("legal");
            at(nc6) < at(a6)
        };
        assert!(order(cont), "history 0 + continuation 20 beats history 10");
        assert!(!order([None, None]), "without it, history alone");
    }

    #[test]
    fn gravity_keeps_a_score_within_its_limit() {
        let mut h = 0;
        for _ in 0..1000 {
            gravity(&mut h, 300, 1000);
            assert!((0..=1000).contains(&h), "{h}");
        }
        assert!(h > 990, "it converges to the limit: {h}");
        let at_limit = h;
        gravity(&mut h, -300, 1000);
        assert!(
            h < at_limit - 500,
            "a malus near the bound moves it most: {h}"
        );
        let mut low = -1000;
        gravity(&mut low, -1000, 1000);
        assert_eq!(low, -1000);
    }

    #[test]
    fn history_gravity_lowers_the_tried_moves_within_the_cap_only_when_enabled() {
        let pos = Position::<Chess>::startpos();
        let params = EvalParams::default_for(Chess::KIND);
        let run = |history_gravity: i32| {
            let settings = SearchParams {
                history_gravity,
                continuation_history: 1,
                ..SearchParams::default()
            };
            let shared = Shared::new(1);
            let clock = Clock::start(&Limits::depth(6), pos.turn(), 1, &settings);
            let mut w = Worker::<Chess>::new(0, &shared, &params, &settings, &clock, &[]);
            w.iterate(&pos, 6, &mut |_| {});
            let cap = settings.history_max;
            let lowered = w.history.iter().filter(|&&h| h < 0).count();
            let continuation_lowered = w.continuation.iter().filter(|&&c| c < 0).count();
            let bounded = w
                .history
                .iter()
                .chain(&w.continuation)
                .all(|h| h.abs() <= cap);
            (lowered, continuation_lowered, bounded, w.history)
        };
        let (lowered, continuation_lowered, bounded, off) = run(0);
        assert_eq!((lowered, continuation_lowered), (0, 0), "off: only raised");
        assert!(bounded);
        let (lowered, continuation_lowered, bounded, on) = run(1);
        assert!(lowered > 0, "quiet moves before a cutoff lose history");
        assert!(continuation_lowered > 0, "and their continuation entries");
        assert!(bounded, "gravity keeps every score within the cap");
        assert_ne!(on, off);
    }

    #[test]
    fn capture_history_learns_and_orders_captures_only_when_enabled() {
        // Two undefended knights: exf5 (pawn takes knight) comes before
        // Qxb4 (queen takes knight) by victim and attacker alone.
        let fen = "6k1/8/8/5n2/1n2P3/8/3Q4/6K1 w - - 0 1";
        let pos = Position::<Chess>::from_fen(fen).expect("valid FEN");
        let params = EvalParams::default_for(Chess::KIND);
        let pxn = pos.parse_uci("e4f5").expect("legal");
        let qxn = pos.parse_uci("d2b4").expect("legal");
        let first = |capture_history: i32, favour_queen: bool| {
            let settings = SearchParams {
                capture_history,
                ..SearchParams::default()
            };
            let shared = Shared::new(1);
            let clock = Clock::start(&Limits::depth(1), pos.turn(), 1, &settings);
            let mut w = Worker::<Chess>::new(0, &shared, &params, &settings, &clock, &[]);
            if favour_queen {
                let i = Worker::<Chess>::capture_index(&pos, Color::White, qxn);
                w.capture_history[i] = settings.history_max;
            }
            let ordered = w.order_moves(&pos, &pos.legal_moves(), None, 1, None, [None, None]);
            ordered[0].1
        };
        assert_eq!(first(0, false), pxn, "victim, then the cheaper attacker");
        assert_eq!(first(1, false), pxn, "no history yet: the same order");
        assert_eq!(first(1, true), qxn, "a capture that often cut off first");

        // A search fills the table (raised and lowered, within the cap)
        // only when enabled.
        let fen = "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4";
        let pos = Position::<Chess>::from_fen(fen).expect("valid FEN");
        let run = |capture_history: i32| {
            let settings = SearchParams {
                capture_history,
                ..SearchParams::default()
            };
            let shared = Shared::new(1);
            let clock = Clock::start(&Limits::depth(6), pos.turn(), 1, &settings);
            let mut w = Worker::<Chess>::new(0, &shared, &params, &settings, &clock, &[]);
            w.iterate(&pos, 6, &mut |_| {});
            let raised = w.capture_history.iter().filter(|&&c| c > 0).count();
            let lowered = w.capture_history.iter().filter(|&&c| c < 0).count();
            let cap = settings.history_max;
            let bounded = w.capture_history.iter().all(|c| c.abs() <= cap);
            (w.capture_history.len(), raised, lowered, bounded)
        };
        assert_eq!(run(0), (0, 0, 0, true), "off: no table");
        let (len, raised, lowered, bounded) = run(1);
        assert_eq!(len, PIECE_TO * Role::ALL.len());
        assert!(raised > 0, "captures that cut off gain");
        assert!(lowered > 0, "captures searched before a cutoff lose");
        assert!(bounded);
    }

    #[test]
    fn the_reduction_table_is_the_formula() {
        let pos = Position::<Chess>::startpos();
        let params = EvalParams::default_for(Chess::KIND);
        for lmr_divisor in [1.75, 2.25, 3.0] {
            let settings = SearchParams {
                lmr_divisor,
                lmr_base: 0.5,
                ..SearchParams::default()
            };
            let shared = Shared::new(1);
            let clock = Clock::start(&Limits::depth(1), pos.turn(), 1, &settings);
            let w = Worker::<Chess>::new(0, &shared, &params, &settings, &clock, &[]);
            for depth in 1..130 {
                for n in 1..300 {
                    assert_eq!(
                        w.reduction(depth, n),
                        settings.reduction(depth, n),
                        "{depth} {n}"
                    );
                }
            }
        }
    }

    #[test]
    fn fifty_move_damping_scales_the_evaluation_by_the_plies_left() {
        let params = EvalParams::default_for(Chess::KIND);
        let eval_at = |damping: i32, halfmove: u32| {
            let fen = format!("4k3/8/8/8/8/8/8/R3K3 w - - {halfmove} 60");
            let pos = Position::<Chess>::from_fen(&fen).expect("valid FEN");
            let settings = SearchParams {
                fifty_move_damping: damping,
                ..SearchParams::default()
            };
            let shared = Shared::new(1);
            let clock = Clock::start(&Limits::depth(1), pos.turn(), 1, &settings);
            let w = Worker::<Chess>::new(0, &shared, &params, &settings, &clock, &[]);
            w.corrected_eval(&pos, 400)
        };
        assert_eq!(eval_at(0, 50), 400, "off");
        assert_eq!(eval_at(100, 0), 400);
        assert_eq!(eval_at(100, 50), 200);
        assert_eq!(eval_at(100, 99), 4);
        assert_eq!(eval_at(200, 50), 300);
        assert_eq!(eval_at(40, 50), 0, "past the span: a draw");
    }

    #[test]
    fn correction_history_moves_the_static_evaluation_only_when_enabled() {
        let pos = Position::<Chess>::startpos();
        let params = EvalParams::default_for(Chess::KIND);
        let on = SearchParams {
            correction_history: 1,
            ..SearchParams::default()
        };
        let shared = Shared::new(1);
        let clock = Clock::start(&Limits::depth(1), pos.turn(), 1, &on);
        let mut w = Worker::<Chess>::new(0, &shared, &params, &on, &clock, &[]);
        assert_eq!(w.corrected_eval(&pos, 10), 10, "nothing learnt yet");
        // One error of 100 at depth 7 weighs 8/256: 3.125 cp.
        w.update_correction(&pos, 7, 100);
        assert_eq!(w.corrected_eval(&pos, 10), 13);
        // The same error again and again: the average approaches it, capped.
        for _ in 0..1000 {
            w.update_correction(&pos, 20, 100);
        }
        assert_eq!(w.corrected_eval(&pos, 10), 10 + on.correction_max);
        for _ in 0..1000 {
            w.update_correction(&pos, 20, -30);
        }
        assert_eq!(
            w.corrected_eval(&pos, 10),
            -20 + 1,
            "within a centipawn of -30"
        );
        // The other side to move, or other pawns, have entries of their own.
        let after = pos.play_unchecked(pos.parse_uci("g1f3").expect("legal"));
        assert_eq!(w.corrected_eval(&after, 10), 10);
        let pawn_moved = pos.play_unchecked(pos.parse_uci("e2e4").expect("legal"));
        assert_ne!(correction_index(&pawn_moved), correction_index(&after));

        // A search fills the table, within its bound, only when enabled.
        let fen = "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4";
        let pos = Position::<Chess>::from_fen(fen).expect("valid FEN");
        let run = |correction_history: i32| {
            let settings = SearchParams {
                correction_history,
                ..SearchParams::default()
            };
            let shared = Shared::new(1);
            let clock = Clock::start(&Limits::depth(6), pos.turn(), 1, &settings);
            let mut w = Worker::<Chess>::new(0, &shared, &params, &settings, &clock, &[]);
            w.iterate(&pos, 6, &mut |_| {});
            let max = i64::from(settings.correction_max) * CORRECTION_GRAIN;
            let learnt = w.correction.iter().filter(|&&c| c != 0).count();
            let bounded = w.correction.iter().all(|&c| i64::from(c).abs() <= max);
            (w.correction.len(), learnt, bounded, w.nodes)
        };
        let (len, learnt, bounded, nodes_off) = run(0);
        assert_eq!((len, learnt, bounded), (0, 0, true), "off: no table");
        let (len, learnt, bounded, nodes_on) = run(1);
        assert_eq!(len, 2 * CORRECTION_ENTRIES);
        assert!(learnt > 0 && bounded);
        assert_ne!(
            nodes_on, nodes_off,
            "the corrected evaluation prunes otherwise"
        );
    }

    #[test]
    fn repetition_is_not_seen_through_a_null_move() {
        let pos = Position::<Chess>::from_fen("4k3/8/8/8/8/8/8/R3K3 w - - 10 40").expect("valid");
        let params = EvalParams::default_for(Chess::KIND);
        let settings = SearchParams::default();
        let shared = Shared::new(1);
        let clock = Clock::start(&Limits::depth(1), pos.turn(), 1, &settings);
        // The same position four plies back, the position after a null move
        // in between.
        let keys = [pos.key(), 11, 12, 13, pos.key()];
        let mut w = Worker::<Chess>::new(0, &shared, &params, &settings, &clock, &keys);
        assert!(w.is_repetition(&pos));
        w.null_fence = Some(2);
        assert!(!w.is_repetition(&pos));
        w.null_fence = Some(0);
        assert!(w.is_repetition(&pos), "the fence's own position counts");
    }

    #[test]
    fn killers_and_history_follow_the_game_when_kept() {
        let pos = Position::<Chess>::startpos();
        let params = EvalParams::default_for(Chess::KIND);
        let keep = SearchParams {
            capture_history: 1,
            ..SearchParams::default()
        };
        assert_eq!(keep.keep_heuristics, 1);
        let shared = Shared::new(1);
        let clock = Clock::start(&Limits::depth(1), pos.turn(), 1, &keep);
        let killer = pos.legal_moves()[0];
        let mut w = Worker::<Chess>::new(0, &shared, &params, &keep, &clock, &[1, 2]);
        w.killers[3][0] = Some(killer);
        w.history[7] = 100;
        w.capture_history[9] = -100;
        w.save_heuristics();
        // Two plies later the killer of ply 3 is one of ply 1.
        let w = Worker::<Chess>::new(0, &shared, &params, &keep, &clock, &[1, 2, 3, 4]);
        assert_eq!(w.killers[1][0], Some(killer));
        assert_eq!((w.history[7], w.capture_history[9]), (50, -50));
        // Taken once; a new game forgets them; off, they are never read.
        let w = Worker::<Chess>::new(0, &shared, &params, &keep, &clock, &[1, 2, 3, 4]);
        assert_eq!((w.history[7], w.capture_history[9]), (0, 0));
        let mut new_game = Shared::new(1);
        let mut w = Worker::<Chess>::new(0, &new_game, &params, &keep, &clock, &[1, 2]);
        w.killers[3][0] = Some(killer);
        w.save_heuristics();
        drop(w);
        new_game.clear();
        let w = Worker::<Chess>::new(0, &new_game, &params, &keep, &clock, &[1, 2, 3, 4]);
        assert_eq!(w.killers[1][0], None);
        let off = SearchParams {
            keep_heuristics: 0,
            ..SearchParams::default()
        };
        let mut w = Worker::<Chess>::new(0, &shared, &params, &off, &clock, &[1, 2]);
        w.history[7] = 100;
        w.save_heuristics();
        let w = Worker::<Chess>::new(0, &shared, &params, &off, &clock, &[1, 2, 3, 4]);
        assert_eq!(w.history[7], 0);
    }

    #[test]
    fn threecheck_quiescence_finds_the_last_check_past_its_first_ply() {
        // Black is in check (White's second) and must step away; then any
        // quiet check by White, at the second quiescence ply, is the third.
        let fen = "R6k/8/8/8/8/8/8/K2Q4 b - - 1+3 0 1";
        let first_ply_only = SearchParams {
            qsearch_checks_left: 0,
            ..SearchParams::default()
        };
        let score = quiesce::<ThreeCheck>(fen, &first_ply_only);
        assert!(score > -MATE_BOUND, "{score}");
        assert_eq!(
            quiesce::<ThreeCheck>(fen, &SearchParams::default()),
            -(MATE - 2)
        );
    }
}
