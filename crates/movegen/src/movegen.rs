//! Legal move generation, generic over the variant.
//!
//! Generators hand a [`Sink`] one batch per piece: the piece's origin and the
//! bitboard of its legal destinations. Counting the leaves of a perft is then
//! a popcount per batch, "is there any capture?" stops at the first batch, and
//! building a [`MoveList`] expands the batches. Three generators cover the six
//! games, chosen by constants so the choice compiles away:
//!
//! - `royal`: chess, threecheck, losers, knightmate. Check and pin masks make
//!   every emitted move legal without trying it (the royal knight of
//!   knightmate only changes which table its own moves and attacks use).
//!   The king's destinations and the squares of the open castlings are
//!   tested for attacks in one pass (`Position::attacked_among`): one map
//!   of the squares attacked by the enemy pieces that stand where an
//!   attacker of the king's area can stand (`DangerReach`, a table per king
//!   square; in Kiwipete two of eight pieces). Castling then costs no test
//!   of its own.
//! - `pseudo` without a filter: suicide, where every pseudo-legal move is legal.
//! - `pseudo` through the atomic filter: a quiet move of a piece other than
//!   the king, from a square that opens no line to the king, while the king
//!   is not in check, is legal as it stands (set-wise, a whole batch at
//!   once); every other destination is tested by computing the explosion on
//!   bitboards (no copy of the position).
//!
//! Each generator is compiled once per side to move (`const WHITE`), and
//! `royal` also once for "in check" and once for not (`const IN_CHECK`):
//! the colour's table rows, shifts and castling squares and the check mask
//! are then constants (callgrind: about 4% of perft instructions each).
//! Pieces are visited with one call per role, not a loop over an array of
//! roles, whose index bookkeeping cost about 8%. The batches come out in
//! one fixed order whatever the sink, so move lists (and the search that
//! reads them) never depend on these choices.
//!
//! Forced capture (suicide, losers) runs the generator over capture targets
//! first and over quiet targets only if no capture was found.

use crate::attacks::{
    between, bishop_rays, king_attacks, knight_attacks, line, pawn_attacks, piece_attacks,
    rook_rays,
};
use crate::bitboard::Bitboard;
use crate::moves::{Move, MoveKind, MoveList};
use crate::position::{castles_of, CastleSide, Position, CASTLES};
use crate::types::{Color, Role, Square};
use crate::variant::Variant;

/// The square a pawn of a set-wise batch ([`Sink::pawns`]) moved from to
/// reach `to`: `delta` squares behind it.
#[inline(always)]
fn pawn_origin(to: Square, delta: i8) -> Square {
    Square::from_index_unchecked((to.raw() as i8 - delta) as u8)
}

/// Receives batches of legal moves. Returning `true` stops generation.
pub(crate) trait Sink {
    /// `true` if the batch methods also accept an empty `to` (a counter,
    /// for which adding nothing costs less than testing for it first).
    const TAKES_EMPTY: bool = false;
    /// `role` may move from `from` to every square of `to` (never empty).
    /// Pawn batches include promotions (destinations on the last rank) and en
    /// passant (the destination equal to the en-passant square).
    fn moves(&mut self, role: Role, from: Square, to: Bitboard) -> bool;
    /// The castling `side` is legal.
    fn castle(&mut self, side: &CastleSide) -> bool;
    /// Pawns move to every square of `to` (never empty) from the square
    /// `delta` behind it (the set-wise form of pawn pushes and captures; never
    /// en passant).
    #[inline(always)]
    fn pawns(&mut self, to: Bitboard, delta: i8) -> bool {
        for sq in to {
            let from = pawn_origin(sq, delta);
            if self.moves(Role::Pawn, from, Bitboard::from_square(sq)) {
                return true;
            }
        }
        false
    }
    /// [`Sink::pawns`] for a batch known to hold no last-rank square (no
    /// pawn stood one step from promotion), so no promotion to expand.
    #[inline(always)]
    fn pawns_not_promoting(&mut self, to: Bitboard, delta: i8) -> bool {
        self.pawns(to, delta)
    }
}

/// Counts moves: a popcount per batch, promotions once per promotion role.
pub(crate) struct Counter<V> {
    pub(crate) n: u64,
    _v: std::marker::PhantomData<V>,
}

impl<V: Variant> Counter<V> {
    pub(crate) fn new() -> Self {
        Counter {
            n: 0,
            _v: std::marker::PhantomData,
        }
    }
}

impl<V: Variant> Sink for Counter<V> {
    const TAKES_EMPTY: bool = true;
    #[inline(always)]
    fn moves(&mut self, role: Role, _from: Square, to: Bitboard) -> bool {
        self.n += to.count() as u64;
        if role == Role::Pawn {
            self.n += (to & Bitboard::BACK_RANKS).count() as u64 * (V::PROMOTIONS.len() as u64 - 1);
        }
        false
    }
    #[inline(always)]
    fn castle(&mut self, _side: &CastleSide) -> bool {
        self.n += 1;
        false
    }
    #[inline(always)]
    fn pawns(&mut self, to: Bitboard, _delta: i8) -> bool {
        self.moves(Role::Pawn, Square::A1, to)
    }
    #[inline(always)]
    fn pawns_not_promoting(&mut self, to: Bitboard, _delta: i8) -> bool {
        self.n += to.count() as u64;
        false
    }
}

/// Stops at the first move.
pub(crate) struct AnyMove(pub(crate) bool);

impl Sink for AnyMove {
    #[inline(always)]
    fn moves(&mut self, _role: Role, _from: Square, _to: Bitboard) -> bool {
        self.0 = true;
        true
    }
    #[inline(always)]
    fn castle(&mut self, _side: &CastleSide) -> bool {
        self.0 = true;
        true
    }
    #[inline(always)]
    fn pawns(&mut self, _to: Bitboard, _delta: i8) -> bool {
        self.0 = true;
        true
    }
}

/// Expands batches into single moves and hands each to a closure, with the
/// role of the moving piece (the king for castling): the one place that
/// turns a pawn batch into promotions and en passant.
pub(crate) struct EachMove<V, F> {
    ep: Option<Square>,
    f: F,
    _v: std::marker::PhantomData<V>,
}

impl<V: Variant, F: FnMut(Move, Role)> EachMove<V, F> {
    #[inline(always)]
    pub(crate) fn new(ep: Option<Square>, f: F) -> Self {
        EachMove {
            ep,
            f,
            _v: std::marker::PhantomData,
        }
    }
}

impl<V: Variant, F: FnMut(Move, Role)> Sink for EachMove<V, F> {
    #[inline(always)]
    fn moves(&mut self, role: Role, from: Square, to: Bitboard) -> bool {
        for sq in to {
            if role == Role::Pawn {
                if Bitboard::BACK_RANKS.contains(sq) {
                    for &r in V::PROMOTIONS {
                        (self.f)(Move::new(from, sq, MoveKind::Promotion(r)), role);
                    }
                    continue;
                }
                if Some(sq) == self.ep {
                    (self.f)(Move::new(from, sq, MoveKind::EnPassant), role);
                    continue;
                }
            }
            (self.f)(Move::normal(from, sq), role);
        }
        false
    }
    #[inline(always)]
    fn castle(&mut self, side: &CastleSide) -> bool {
        (self.f)(
            Move::new(side.king_from, side.king_to, MoveKind::Castle),
            Role::King,
        );
        false
    }
}

/// Remembers whether anything passed through.
struct Tracker<'a, S> {
    inner: &'a mut S,
    seen: bool,
}

impl<S: Sink> Sink for Tracker<'_, S> {
    #[inline(always)]
    fn moves(&mut self, role: Role, from: Square, to: Bitboard) -> bool {
        self.seen = true;
        self.inner.moves(role, from, to)
    }
    #[inline(always)]
    fn castle(&mut self, side: &CastleSide) -> bool {
        self.seen = true;
        self.inner.castle(side)
    }
    #[inline(always)]
    fn pawns(&mut self, to: Bitboard, delta: i8) -> bool {
        self.seen = true;
        self.inner.pawns(to, delta)
    }
}

/// Keeps only the destinations whose explosion leaves the mover's king safe.
struct AtomicFilter<'a, V: Variant, S> {
    pos: &'a Position<V>,
    inner: &'a mut S,
    /// Destinations that are legal for any quiet move of a piece other than
    /// the king from a square outside `opening`: the empty squares (not the
    /// en-passant square) when the king is not in check, else none. Such a
    /// move explodes nothing and opens no line to the king, so the king
    /// stays as safe as it was.
    quiet_safe: Bitboard,
    /// Pieces whose leaving could open a line from an enemy slider to the
    /// mover's king ([`Position::lone_blockers`]).
    opening: Bitboard,
}

impl<'a, V: Variant, S: Sink> AtomicFilter<'a, V, S> {
    #[inline(always)]
    fn new(pos: &'a Position<V>, inner: &'a mut S) -> Self {
        let us = pos.turn;
        let (quiet_safe, opening) = match pos.king(us) {
            Some(ksq) if !pos.is_check() => {
                let mut empty = !pos.board.occupied();
                if let Some(ep) = pos.ep {
                    empty = empty.without(ep);
                }
                (empty, pos.lone_blockers(ksq, pos.board.color(us.other())))
            }
            _ => (Bitboard::EMPTY, Bitboard::EMPTY),
        };
        AtomicFilter {
            pos,
            inner,
            quiet_safe,
            opening,
        }
    }
}

impl<V: Variant, S: Sink> Sink for AtomicFilter<'_, V, S> {
    #[inline(always)]
    fn moves(&mut self, role: Role, from: Square, to: Bitboard) -> bool {
        let mut legal = Bitboard::EMPTY;
        if role != Role::King && !self.opening.contains(from) {
            legal = to & self.quiet_safe;
        }
        for sq in to & !legal {
            if atomic_move_is_legal(self.pos, role, from, sq) {
                legal = legal.with(sq);
            }
        }
        legal.any() && self.inner.moves(role, from, legal)
    }
    #[inline(always)]
    fn castle(&mut self, side: &CastleSide) -> bool {
        self.inner.castle(side)
    }
    #[inline(always)]
    fn pawns(&mut self, to: Bitboard, delta: i8) -> bool {
        // The destinations of the pawns standing on `opening`.
        let opened = if delta > 0 {
            Bitboard(self.opening.0 << delta)
        } else {
            Bitboard(self.opening.0 >> -delta)
        };
        let mut legal = to & self.quiet_safe & !opened;
        for sq in to & !legal {
            let from = pawn_origin(sq, delta);
            if atomic_move_is_legal(self.pos, Role::Pawn, from, sq) {
                legal = legal.with(sq);
            }
        }
        legal.any() && self.inner.pawns(legal, delta)
    }
}

/// Which destinations a generator pass may produce.
#[derive(Clone, Copy)]
pub(crate) struct Targets {
    /// Allowed destination squares (captures: enemy pieces; quiets: empty squares).
    squares: Bitboard,
    /// Whether en-passant captures are included.
    en_passant: bool,
    /// Whether castling is included.
    castling: bool,
}

impl Targets {
    fn all<V: Variant>(pos: &Position<V>) -> Targets {
        Targets {
            squares: !pos.board.color(pos.turn),
            en_passant: true,
            castling: true,
        }
    }
    pub(crate) fn captures<V: Variant>(pos: &Position<V>) -> Targets {
        Targets {
            squares: pos.board.color(pos.turn.other()),
            en_passant: true,
            castling: false,
        }
    }
    fn quiets<V: Variant>(pos: &Position<V>) -> Targets {
        Targets {
            squares: !pos.board.occupied(),
            en_passant: false,
            castling: true,
        }
    }
}

/// Generates every legal move of `pos` into `sink`. Returns `true` if the
/// sink stopped generation.
#[inline(always)]
pub(crate) fn generate<V: Variant, S: Sink>(pos: &Position<V>, sink: &mut S) -> bool {
    if pos.is_over_by_rule() {
        return false;
    }
    if V::MUST_CAPTURE {
        let mut tracker = Tracker {
            inner: sink,
            seen: false,
        };
        if generate_targets(pos, &mut tracker, Targets::captures(pos)) {
            return true;
        }
        if tracker.seen {
            return false;
        }
        generate_targets(pos, sink, Targets::quiets(pos))
    } else {
        generate_targets(pos, sink, Targets::all(pos))
    }
}

/// Generates the legal moves of `pos` restricted to `targets`, ignoring the
/// forced-capture rule.
#[inline(always)]
pub(crate) fn generate_targets<V: Variant, S: Sink>(
    pos: &Position<V>,
    sink: &mut S,
    targets: Targets,
) -> bool {
    // Each generator is compiled once per side to move, so that every
    // colour-dependent table row, shift and castling square is a constant.
    let white = pos.turn.is_white();
    if V::ATOMIC {
        let mut filter = AtomicFilter::new(pos, sink);
        if white {
            pseudo::<V, _, true>(pos, &mut filter, targets)
        } else {
            pseudo::<V, _, false>(pos, &mut filter, targets)
        }
    } else if V::ROYAL {
        // And once for "in check" (evasions only) and once for not.
        match (white, pos.is_check()) {
            (true, false) => royal::<V, S, true, false>(pos, sink, targets),
            (true, true) => royal::<V, S, true, true>(pos, sink, targets),
            (false, false) => royal::<V, S, false, false>(pos, sink, targets),
            (false, true) => royal::<V, S, false, true>(pos, sink, targets),
        }
    } else if white {
        pseudo::<V, S, true>(pos, sink, targets)
    } else {
        pseudo::<V, S, false>(pos, sink, targets)
    }
}

/// The square one step ahead of a `color` pawn on `sq`.
#[inline(always)]
fn pawn_push(sq: Square, color: Color) -> Square {
    Square::from_index_unchecked(if color.is_white() {
        sq.raw() + 8
    } else {
        sq.raw().wrapping_sub(8)
    })
}

/// Destinations of the pawn on `from` (pushes onto empty squares, captures of
/// enemy pieces), without en passant, before any legality mask.
#[inline(always)]
fn pawn_targets<V: Variant>(
    pos: &Position<V>,
    us: Color,
    from: Square,
    targets: Bitboard,
) -> Bitboard {
    let occ = pos.board.occupied();
    let mut t = pawn_attacks(us, from) & pos.board.color(us.other());
    // A pawn on the last rank cannot exist, so the push square is on the board.
    let one = pawn_push(from, us);
    if !occ.contains(one) {
        t |= Bitboard::from_square(one);
        if from.rank() == us.pawn_rank() {
            let two = pawn_push(one, us);
            if !occ.contains(two) {
                t |= Bitboard::from_square(two);
            }
        }
    }
    t & targets
}

/// Set-wise pushes and captures of `pawns` onto `allowed` squares, emitted
/// as four batches (single push, double push, two capture directions).
#[inline(always)]
fn pawn_sets<V: Variant, S: Sink>(
    pos: &Position<V>,
    us: Color,
    sink: &mut S,
    pawns: Bitboard,
    allowed: Bitboard,
) -> bool {
    let empty = !pos.board.occupied();
    let their = pos.board.color(us.other());
    let white = us.is_white();
    let up: i8 = if white { 8 } else { -8 };
    let double_rank = Bitboard::rank(if white { 2 } else { 5 });
    let single = pawns.shift_up(white) & empty;
    let double = (single & double_rank).shift_up(white) & empty;
    let west = (pawns & !Bitboard::FILE_A).shift_up(white);
    let west = Bitboard(west.0 >> 1) & their;
    let east = (pawns & !Bitboard::FILE_H).shift_up(white);
    let east = Bitboard(east.0 << 1) & their;
    let batches = [
        (west, up - 1),
        (east, up + 1),
        (single, up),
        (double, 2 * up),
    ];
    // Without a pawn one step from promotion no batch holds a promotion: a
    // bare counter then adds popcounts (for other sinks the second loop
    // measured no cheaper).
    let last_step = Bitboard::rank(if white { 6 } else { 1 });
    if S::TAKES_EMPTY && (pawns & last_step).is_empty() {
        for (to, delta) in batches {
            let to = to & allowed;
            if (S::TAKES_EMPTY || to.any()) && sink.pawns_not_promoting(to, delta) {
                return true;
            }
        }
    } else {
        for (to, delta) in batches {
            let to = to & allowed;
            if (S::TAKES_EMPTY || to.any()) && sink.pawns(to, delta) {
                return true;
            }
        }
    }
    false
}

/// Legal moves in the games with a royal king and ordinary check (chess,
/// threecheck, losers, knightmate).
#[inline(always)]
fn royal<V: Variant, S: Sink, const WHITE: bool, const IN_CHECK: bool>(
    pos: &Position<V>,
    sink: &mut S,
    targets: Targets,
) -> bool {
    let us = Color::of_white(WHITE);
    let b = &pos.board;
    let our = b.color(us);
    let occ = b.occupied();
    let Some(ksq) = pos.king(us) else {
        return false;
    };
    let allowed = targets.squares & !our;

    // The castlings whose rights are held and whose squares between king
    // and rook are empty: their squares join the king's safety test.
    let [king_side, queen_side] = castles_of(us);
    let open = |side: &CastleSide| {
        pos.castling & side.right != 0 && (between(side.king_from, side.rook_from) & occ).is_empty()
    };
    let castling = !IN_CHECK && targets.castling && pos.castling != 0;
    let open_sides = [castling && open(king_side), castling && open(queen_side)];
    let castle_squares = |side: &CastleSide| {
        Bitboard::from_square(castle_pass_square(side)) | Bitboard::from_square(side.king_to)
    };

    // The royal piece: every destination not attacked once it has left,
    // tested in one pass with the squares castling passes and lands on.
    // Out of check no slider aims at the king, so its leaving opens no line
    // and the occupancy as it stands serves (also for castling: the rook
    // leaves a corner and lands on the square the king passes, neither of
    // which changes what attacks the squares tested).
    let step = piece_attacks::<V>(Role::King, ksq, occ) & allowed;
    let mut probe = step;
    if open_sides[0] {
        probe |= castle_squares(king_side);
    }
    if open_sides[1] {
        probe |= castle_squares(queen_side);
    }
    let attacked = if probe.any() {
        let occ_seen = if IN_CHECK { occ.without(ksq) } else { occ };
        pos.attacked_among(probe, us.other(), occ_seen, danger_reach::<V>(ksq))
    } else {
        Bitboard::EMPTY
    };
    let legal = step & !attacked;
    if (S::TAKES_EMPTY || legal.any()) && sink.moves(Role::King, ksq, legal) {
        return true;
    }

    let checkers = pos.checkers;
    let check_mask = if IN_CHECK {
        match checkers.first() {
            Some(c) if !checkers.more_than_one() => between(ksq, c).with(c),
            _ => return false,
        }
    } else {
        Bitboard::FULL
    };
    let mask = allowed & check_mask;
    let pinned = pos.pinned;

    // Knights (a pinned knight can never move).
    if !V::ROYAL_KNIGHT {
        for from in b.pieces(us, Role::Knight) & !pinned {
            let to = knight_attacks(from) & mask;
            if (S::TAKES_EMPTY || to.any()) && sink.moves(Role::Knight, from, to) {
                return true;
            }
        }
    }
    // Sliders and commoners: a pinned piece stays on its pin line.
    // (One call per role rather than a loop over an array of roles: the
    // loop's index bookkeeping showed in the profile.)
    let mut line_movers = |role: Role| {
        for from in b.pieces(us, role) {
            let mut to = piece_attacks::<V>(role, from, occ) & mask;
            if pinned.contains(from) {
                to &= line(ksq, from);
            }
            if (S::TAKES_EMPTY || to.any()) && sink.moves(role, from, to) {
                return true;
            }
        }
        false
    };
    if line_movers(Role::Bishop)
        || line_movers(Role::Rook)
        || line_movers(Role::Queen)
        || (V::ROYAL_KNIGHT && line_movers(Role::Commoner))
    {
        return true;
    }
    // Pawns.
    let ep_capturers = match pos.ep {
        Some(ep) if targets.en_passant => pawn_attacks(us.other(), ep),
        _ => Bitboard::EMPTY,
    };
    let pawns = b.pieces(us, Role::Pawn);
    if pawn_sets(pos, us, sink, pawns & !pinned, targets.squares & check_mask) {
        return true;
    }
    for from in pawns & (pinned | ep_capturers) {
        let mut to = Bitboard::EMPTY;
        if pinned.contains(from) {
            to = pawn_targets(pos, us, from, targets.squares) & check_mask & line(ksq, from);
        }
        if ep_capturers.contains(from) {
            if let Some(ep) = pos.ep {
                if en_passant_is_safe(pos, ksq, from, ep) {
                    to = to.with(ep);
                }
            }
        }
        if to.any() && sink.moves(Role::Pawn, from, to) {
            return true;
        }
    }
    // Castling (its squares were tested with the king's).
    for (side, is_open) in [(king_side, open_sides[0]), (queen_side, open_sides[1])] {
        if is_open && (castle_squares(side) & attacked).is_empty() && sink.castle(side) {
            return true;
        }
    }
    false
}

/// Where an enemy piece must stand to attack some square that the royal
/// piece on a given square has tested before it moves: its steps, and on
/// its start square the squares its castlings pass and land on. Built
/// once per kind of royal mover (king steps, or knightmate's knight
/// steps). [`Position::attacked_among`] leaves every other piece out of
/// its test: in Kiwipete most enemy pieces cannot reach the king's corner
/// (of eight the map looked at, two are left), and a piece never looked
/// at costs nothing.
#[derive(Clone, Copy)]
pub(crate) struct DangerReach {
    /// Squares from which a bishop or queen could attack the area.
    pub(crate) diag: Bitboard,
    /// Squares from which a rook or queen could attack the area.
    pub(crate) orth: Bitboard,
    /// Squares from which a knight-mover could attack the area.
    pub(crate) knight: Bitboard,
    /// Squares from which a king-mover could attack the area.
    pub(crate) king: Bitboard,
    /// Per colour of the pawn, squares from which it could attack the area.
    pub(crate) pawn: [Bitboard; 2],
}

/// [`DangerReach`] of every square, for a royal piece stepping like a
/// knight (`knight_steps`) or like a king.
const fn danger_reach_table(knight_steps: bool) -> [DangerReach; 64] {
    let mut table = [DangerReach {
        diag: Bitboard::EMPTY,
        orth: Bitboard::EMPTY,
        knight: Bitboard::EMPTY,
        king: Bitboard::EMPTY,
        pawn: [Bitboard::EMPTY; 2],
    }; 64];
    let mut i = 0;
    while i < 64 {
        let sq = Square::from_index_unchecked(i as u8);
        let mut area = if knight_steps {
            knight_attacks(sq).0
        } else {
            king_attacks(sq).0
        };
        let mut c = 0;
        while c < CASTLES.len() {
            let side = &CASTLES[c];
            if side.king_from.index() == i {
                area |= Bitboard::from_square(castle_pass_square(side)).0
                    | Bitboard::from_square(side.king_to).0;
            }
            c += 1;
        }
        let mut r = DangerReach {
            diag: Bitboard::EMPTY,
            orth: Bitboard::EMPTY,
            knight: Bitboard::EMPTY,
            king: Bitboard::EMPTY,
            pawn: [Bitboard::EMPTY; 2],
        };
        while area != 0 {
            let s = Square::from_index_unchecked(area.trailing_zeros() as u8);
            area &= area - 1;
            r.diag.0 |= bishop_rays(s).0;
            r.orth.0 |= rook_rays(s).0;
            r.knight.0 |= knight_attacks(s).0;
            r.king.0 |= king_attacks(s).0;
            // A white pawn attacks `s` from where a black pawn on `s` would.
            r.pawn[Color::White.index()].0 |= pawn_attacks(Color::Black, s).0;
            r.pawn[Color::Black.index()].0 |= pawn_attacks(Color::White, s).0;
        }
        table[i] = r;
        i += 1;
    }
    table
}

/// [`DangerReach`] per square of a king-stepping royal piece.
static KING_DANGER_REACH: [DangerReach; 64] = danger_reach_table(false);
/// [`DangerReach`] per square of knightmate's knight-stepping royal piece.
static KNIGHT_DANGER_REACH: [DangerReach; 64] = danger_reach_table(true);

/// The [`DangerReach`] of `V`'s royal piece on `ksq`.
#[inline(always)]
fn danger_reach<V: Variant>(ksq: Square) -> &'static DangerReach {
    if V::ROYAL_KNIGHT {
        &KNIGHT_DANGER_REACH[ksq.index()]
    } else {
        &KING_DANGER_REACH[ksq.index()]
    }
}

/// The square the castling king passes over.
#[inline(always)]
const fn castle_pass_square(side: &CastleSide) -> Square {
    Square::from_coords(
        (side.king_from.file() + side.king_to.file()) / 2,
        side.king_from.rank(),
    )
}

/// `true` if no enemy piece attacks the square the king passes and the square
/// it lands on (the king is known not to be in check).
#[inline]
fn castle_path_safe<V: Variant>(pos: &Position<V>, side: &CastleSide) -> bool {
    let their = pos.board.color(pos.turn.other());
    let occ_after = pos
        .board
        .occupied()
        .without(side.king_from)
        .without(side.rook_from)
        | Bitboard::from_square(side.king_to)
        | Bitboard::from_square(side.rook_to);
    let pass = castle_pass_square(side);
    let their_king = pos.board.pieces(pos.turn.other(), Role::King);
    [pass, side.king_to].into_iter().all(|sq| {
        (V::ATOMIC && (king_attacks(sq) & their_king).any())
            || pos.attackers_within(sq, occ_after, their).is_empty()
    })
}

/// En passant can uncover the king along the rank (both pawns leave it) or
/// fail to answer a check, so it is tested on the resulting occupancy.
#[inline]
fn en_passant_is_safe<V: Variant>(
    pos: &Position<V>,
    ksq: Square,
    from: Square,
    ep: Square,
) -> bool {
    let captured = Square::from_coords(ep.file(), from.rank());
    let occ = pos
        .board
        .occupied()
        .without(from)
        .without(captured)
        .with(ep);
    let their = pos.board.color(pos.turn.other()).without(captured);
    pos.attackers_within(ksq, occ, their).is_empty()
}

/// Pseudo-legal moves: every move of suicide (no royal piece), and atomic's
/// candidates before the explosion test. Kings never capture in atomic.
#[inline(always)]
fn pseudo<V: Variant, S: Sink, const WHITE: bool>(
    pos: &Position<V>,
    sink: &mut S,
    targets: Targets,
) -> bool {
    let us = Color::of_white(WHITE);
    let b = &pos.board;
    let occ = b.occupied();
    let allowed = targets.squares & !b.color(us);

    // One call per role, as in `royal`.
    let mut pieces = |role: Role, role_allowed: Bitboard| {
        for from in b.pieces(us, role) {
            let to = piece_attacks::<V>(role, from, occ) & role_allowed;
            if (S::TAKES_EMPTY || to.any()) && sink.moves(role, from, to) {
                return true;
            }
        }
        false
    };
    let king_allowed = if V::ATOMIC {
        allowed & !b.color(us.other())
    } else {
        allowed
    };
    if pieces(Role::Knight, allowed)
        || pieces(Role::Bishop, allowed)
        || pieces(Role::Rook, allowed)
        || pieces(Role::Queen, allowed)
        || pieces(Role::King, king_allowed)
    {
        return true;
    }
    let ep_capturers = match pos.ep {
        Some(ep) if targets.en_passant => pawn_attacks(us.other(), ep),
        _ => Bitboard::EMPTY,
    };
    let pawns = b.pieces(us, Role::Pawn);
    if pawn_sets(pos, us, sink, pawns, targets.squares) {
        return true;
    }
    if let Some(ep) = pos.ep {
        for from in pawns & ep_capturers {
            if sink.moves(Role::Pawn, from, Bitboard::EMPTY.with(ep)) {
                return true;
            }
        }
    }
    if targets.castling && pos.castling != 0 {
        for side in castles_of(us).iter() {
            if pos.castling & side.right == 0
                || (between(side.king_from, side.rook_from) & occ).any()
            {
                continue;
            }
            if V::ATOMIC && (pos.is_check() || !castle_path_safe(pos, side)) {
                continue;
            }
            if sink.castle(side) {
                return true;
            }
        }
    }
    false
}

/// Atomic legality of a pseudo-legal move, decided on bitboards: the mover's
/// king must survive, and afterwards either the enemy king is gone, the kings
/// touch, or no remaining enemy piece attacks the mover's king.
#[inline]
pub(crate) fn atomic_move_is_legal<V: Variant>(
    pos: &Position<V>,
    role: Role,
    from: Square,
    to: Square,
) -> bool {
    let us = pos.turn;
    let b = &pos.board;
    let occ = b.occupied();
    let their = b.color(us.other());
    let Some(ksq) = pos.king(us) else {
        return false;
    };
    let their_king = b.pieces(us.other(), Role::King);
    let is_ep = role == Role::Pawn && Some(to) == pos.ep;
    if their.contains(to) || is_ep {
        let captured = if is_ep {
            Square::from_coords(to.file(), from.rank())
        } else {
            to
        };
        let blast = (king_attacks(to) & occ & !b.role(Role::Pawn))
            .with(to)
            .with(captured)
            .with(from);
        if blast.contains(ksq) {
            return false;
        }
        if (blast & their_king).any() {
            return true;
        }
        if (king_attacks(ksq) & their_king).any() {
            return true;
        }
        pos.attackers_within(ksq, occ & !blast, their & !blast)
            .is_empty()
    } else {
        let king = if role == Role::King { to } else { ksq };
        if (king_attacks(king) & their_king).any() {
            return true;
        }
        let occ_after = occ.without(from).with(to);
        pos.attackers_within(king, occ_after, their).is_empty()
    }
}

impl<V: Variant> Position<V> {
    /// Every legal move.
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.legal_moves_into(&mut list);
        list
    }

    /// Appends every legal move to `list` (cleared first).
    pub fn legal_moves_into(&self, list: &mut MoveList) {
        list.clear();
        generate(
            self,
            &mut EachMove::<V, _>::new(self.ep, |m, _| list.push(m)),
        );
    }

    /// The number of legal moves, without building a list.
    #[inline]
    pub fn count_legal(&self) -> u64 {
        let mut c = Counter::<V>::new();
        generate(self, &mut c);
        c.n
    }

    /// `true` if the side to move has a legal move.
    #[inline]
    pub fn has_legal_move(&self) -> bool {
        let mut any = AnyMove(false);
        generate(self, &mut any);
        any.0
    }

    /// `true` if a legal capture is available (en passant included; in atomic
    /// a capture is any move that explodes). Ignores the forced-capture rule,
    /// which only restricts non-captures.
    #[inline]
    pub fn has_capture(&self) -> bool {
        if self.is_over_by_rule() {
            return false;
        }
        let mut any = AnyMove(false);
        generate_targets(self, &mut any, Targets::captures(self));
        any.0
    }

    /// Legal captures only (en passant included).
    pub fn legal_captures(&self) -> MoveList {
        let mut list = MoveList::new();
        if !self.is_over_by_rule() {
            let mut sink = EachMove::<V, _>::new(self.ep, |m, _| list.push(m));
            generate_targets(self, &mut sink, Targets::captures(self));
        }
        list
    }

    /// `true` if `m` is a legal move here.
    pub fn is_legal(&self, m: Move) -> bool {
        self.legal_moves().contains(&m)
    }

    /// `true` if `m` captures something (en passant included).
    #[inline]
    pub fn is_capture(&self, m: Move) -> bool {
        m.is_en_passant()
            || (!m.is_castle() && self.board.color(self.turn.other()).contains(m.to()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variants::{Chess, Knightmate};

    /// The squares of the royal piece's danger area (steps and, on its
    /// start square, the castling squares), each attacked-tested one by one
    /// with every enemy piece: `attacked_among`, which looks only at the
    /// pieces in the [`DangerReach`], must find the same set.
    /// Returns how many attacked squares it found (so the test can see it
    /// was not vacuous).
    fn assert_reach_misses_no_attacker<V: Variant>(fen: &str) -> u32 {
        let pos = Position::<V>::from_fen(fen).expect("test FEN");
        let mut attacked = 0;
        for color in Color::ALL {
            let Some(ksq) = pos.king(color) else { continue };
            let mut area = piece_attacks::<V>(Role::King, ksq, Bitboard::EMPTY);
            for side in castles_of(color) {
                if side.king_from == ksq {
                    area |= Bitboard::from_square(castle_pass_square(side)).with(side.king_to);
                }
            }
            let occ = pos.board.occupied();
            let by = color.other();
            let expected = area
                .filter(|&sq| pos.attackers_to(sq, by, occ).any())
                .fold(Bitboard::EMPTY, Bitboard::with);
            let found = pos.attacked_among(area, by, occ, danger_reach::<V>(ksq));
            assert_eq!(found, expected, "{fen}, {color:?} king on {ksq}");
            attacked += found.count();
        }
        attacked
    }

    #[test]
    fn danger_reach_keeps_every_attacker_of_the_royal_area() {
        let mut attacked = 0;
        for fen in [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1",
            "4k3/8/8/8/8/8/2n1p1b1/R3K2R w KQ - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP2BPPP/R2QKB1R w KQ - 0 8",
            "4k3/8/8/3q4/8/5n2/8/4K3 w - - 0 1",
        ] {
            attacked += assert_reach_misses_no_attacker::<Chess>(fen);
        }
        for fen in [
            "rmbqkb1r/pppppppp/8/8/3m4/5M2/PPPPPPPP/RMBQKB1R w KQkq - 0 1",
            "4k3/8/8/8/8/2m1r3/6b1/4K3 w - - 0 1",
        ] {
            attacked += assert_reach_misses_no_attacker::<Knightmate>(fen);
        }
        assert!(
            attacked >= 10,
            "too few attacked squares to test: {attacked}"
        );
    }
}
