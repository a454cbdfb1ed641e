//! `Position<V>`: a board plus everything else that decides the legal moves
//! (side to move, castling rights, en-passant square, clocks, remaining checks),
//! its Zobrist key, and cached check information. Generic over the variant so
//! that every rule test is a constant.
//!
//! Positions are small `Copy` values and moves are made by copy-make
//! ([`Position::play_unchecked`]): search and perft never undo a move.
//! After an ordinary move or promotion in the royal games without
//! explosions, the checkers are derived from the move (the piece on the
//! destination, and sliders seen through the origin) rather than searched
//! for; castling, en passant, atomic and null moves refresh them in full.
//! Perft, which makes every move of a position, first takes the position's
//! [`ChildCheckContext`] (the enemy king's check squares, discoverers and
//! pin lines) so that each child's checkers and pins are set tests.
//! Making a move is compiled once per side to move.

use crate::attacks::{
    between, bishop_attacks_with, bishop_rays, king_attacks, knight_attacks, line, pawn_attacks,
    piece_attacks, rook_attacks_with, rook_rays,
};
use crate::bitboard::Bitboard;
use crate::board::Board;
use crate::cpu::Lookup;
use crate::movegen::DangerReach;
use crate::moves::{Move, MoveKind};
use crate::outcome::Outcome;
use crate::types::{Color, Piece, Role, Square};
use crate::variant::Variant;
use crate::zobrist;
use std::marker::PhantomData;

/// Castling right bits.
pub mod castle {
    /// White king side (rook on h1).
    pub const WHITE_KING: u8 = 1;
    /// White queen side (rook on a1).
    pub const WHITE_QUEEN: u8 = 2;
    /// Black king side (rook on h8).
    pub const BLACK_KING: u8 = 4;
    /// Black queen side (rook on a8).
    pub const BLACK_QUEEN: u8 = 8;
    /// All four.
    pub const ALL: u8 = 15;
}

/// Rights kept when something moves from, to (or explodes on) a square.
const fn castle_masks() -> [u8; 64] {
    let mut m = [castle::ALL; 64];
    m[0] = castle::ALL & !castle::WHITE_QUEEN;
    m[4] = castle::ALL & !(castle::WHITE_KING | castle::WHITE_QUEEN);
    m[7] = castle::ALL & !castle::WHITE_KING;
    m[56] = castle::ALL & !castle::BLACK_QUEEN;
    m[60] = castle::ALL & !(castle::BLACK_KING | castle::BLACK_QUEEN);
    m[63] = castle::ALL & !castle::BLACK_KING;
    m
}
static CASTLE_MASK: [u8; 64] = castle_masks();

/// The squares whose [`CASTLE_MASK`] takes a right away (the kings' and
/// rooks' start squares), derived from the masks.
const CASTLE_SQUARES: Bitboard = {
    let masks = castle_masks();
    let mut squares = 0u64;
    let mut sq = 0;
    while sq < 64 {
        if masks[sq] != castle::ALL {
            squares |= 1 << sq;
        }
        sq += 1;
    }
    Bitboard(squares)
};

/// One castling move's geometry.
#[derive(Clone, Copy, Debug)]
pub(crate) struct CastleSide {
    pub(crate) right: u8,
    pub(crate) king_from: Square,
    pub(crate) king_to: Square,
    pub(crate) rook_from: Square,
    pub(crate) rook_to: Square,
}

/// The four castlings: white king side, white queen side, black king side, black queen side.
pub(crate) const CASTLES: [CastleSide; 4] = [
    CastleSide {
        right: castle::WHITE_KING,
        king_from: Square::E1,
        king_to: Square::G1,
        rook_from: Square::H1,
        rook_to: Square::F1,
    },
    CastleSide {
        right: castle::WHITE_QUEEN,
        king_from: Square::E1,
        king_to: Square::C1,
        rook_from: Square::A1,
        rook_to: Square::D1,
    },
    CastleSide {
        right: castle::BLACK_KING,
        king_from: Square::E8,
        king_to: Square::G8,
        rook_from: Square::H8,
        rook_to: Square::F8,
    },
    CastleSide {
        right: castle::BLACK_QUEEN,
        king_from: Square::E8,
        king_to: Square::C8,
        rook_from: Square::A8,
        rook_to: Square::D8,
    },
];

/// The castlings available to `color` (a slice of two).
#[inline]
pub(crate) fn castles_of(color: Color) -> &'static [CastleSide; 2] {
    match color {
        Color::White => &[CASTLES[0], CASTLES[1]],
        Color::Black => &[CASTLES[2], CASTLES[3]],
    }
}

/// What making the moves of one position needs to know about the enemy
/// king, computed once for all of its children (royal games without
/// explosions; [`Position::child_check_context`]). A child's checkers and
/// pins are then a few set tests instead of attack lookups: a direct check
/// comes from a piece landing on a check square, a discovered one from a
/// piece leaving the line it alone blocked, and the pins change only when
/// the move touches a pin line or brings a slider onto the king's rays.
#[derive(Clone, Copy)]
pub(crate) struct ChildCheckContext {
    /// The enemy king (the children's side to move).
    ksq: Square,
    /// Per role of the mover, the squares from which such a piece attacks
    /// the enemy king (with the occupancy before the move: the square a
    /// move leaves can open no line to its own destination, except for a
    /// promotion, which takes the full update).
    check_squares: [Bitboard; 7],
    /// Mover pieces standing alone between the enemy king and a mover
    /// slider: moving one off that line gives a discovered check.
    discoverers: Bitboard,
    /// The squares between the enemy king and every mover slider on its
    /// rays, the sliders included: a move touching none of them leaves the
    /// pins as they are (unless it brings a slider onto a ray).
    pin_zone: Bitboard,
    /// Per role of the mover, the squares where such a piece would aim at
    /// the enemy king along an empty-board ray (a new pinner possible).
    sniper_squares: [Bitboard; 7],
    /// Enemy pieces pinned before the move.
    pinned: Bitboard,
}

/// A position of game `V`.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Position<V: Variant> {
    pub(crate) board: Board,
    pub(crate) turn: Color,
    pub(crate) castling: u8,
    /// Set only when a pawn of the side to move could capture there.
    pub(crate) ep: Option<Square>,
    pub(crate) halfmove: u32,
    pub(crate) fullmove: u32,
    /// Checks each side still has to give (threecheck; 3 elsewhere).
    pub(crate) checks_left: [u8; 2],
    pub(crate) key: u64,
    /// Pieces giving check to the side to move (royal variants).
    pub(crate) checkers: Bitboard,
    /// Side-to-move pieces pinned to their king (royal, non-atomic variants).
    pub(crate) pinned: Bitboard,
    pub(crate) _variant: PhantomData<V>,
}

impl<V: Variant> std::fmt::Debug for Position<V> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Position<{}>({})", V::KIND.name(), self.fen())
    }
}

impl<V: Variant> std::fmt::Display for Position<V> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.fen())
    }
}

impl<V: Variant> Default for Position<V> {
    fn default() -> Self {
        Self::startpos()
    }
}

impl<V: Variant> Position<V> {
    /// The same position, of the same game compiled with the slider lookup
    /// `L` (the two give the same moves; see [`crate::with_lookup!`]).
    #[inline]
    pub fn with_lookup<L: Lookup>(&self) -> Position<V::WithLookup<L>> {
        let Position {
            board,
            turn,
            castling,
            ep,
            halfmove,
            fullmove,
            checks_left,
            key,
            checkers,
            pinned,
            _variant,
        } = *self;
        Position {
            board,
            turn,
            castling,
            ep,
            halfmove,
            fullmove,
            checks_left,
            key,
            checkers,
            pinned,
            _variant: PhantomData,
        }
    }

    /// The start position of the game.
    pub fn startpos() -> Self {
        Self::from_fen(V::START_FEN).expect("start FEN is valid")
    }

    /// The pieces.
    #[inline]
    pub const fn board(&self) -> &Board {
        &self.board
    }

    /// Side to move.
    #[inline]
    pub const fn turn(&self) -> Color {
        self.turn
    }

    /// Castling rights as bits of [`castle`].
    #[inline]
    pub const fn castling_rights(&self) -> u8 {
        self.castling
    }

    /// En-passant square, present only when a capture there is pseudo-legal.
    #[inline]
    pub const fn ep_square(&self) -> Option<Square> {
        self.ep
    }

    /// Plies since the last capture or pawn move.
    #[inline]
    pub const fn halfmove_clock(&self) -> u32 {
        self.halfmove
    }

    /// Move number, starting at 1 and incremented after Black moves.
    #[inline]
    pub const fn fullmove_number(&self) -> u32 {
        self.fullmove
    }

    /// Checks `color` still has to give to win (threecheck; always 3 elsewhere).
    #[inline]
    pub const fn checks_remaining(&self, color: Color) -> u8 {
        self.checks_left[color as usize]
    }

    /// The Zobrist key, maintained incrementally.
    #[inline]
    pub const fn key(&self) -> u64 {
        self.key
    }

    /// Pieces giving check to the side to move (always empty in suicide, and
    /// in atomic while the kings touch).
    #[inline]
    pub const fn checkers(&self) -> Bitboard {
        self.checkers
    }

    /// `true` if the side to move is in check.
    #[inline]
    pub const fn is_check(&self) -> bool {
        self.checkers.any()
    }

    /// Square of `color`'s royal piece (the first king in suicide, where kings
    /// are not royal and there may be several or none).
    #[inline]
    pub fn king(&self, color: Color) -> Option<Square> {
        self.board.pieces(color, Role::King).first()
    }

    /// Pieces that move like a knight (ordinary knights, and the royal knight
    /// in knightmate).
    #[inline]
    pub(crate) fn knight_movers(&self) -> Bitboard {
        if V::ROYAL_KNIGHT {
            self.board.role(Role::Knight) | self.board.role(Role::King)
        } else {
            self.board.role(Role::Knight)
        }
    }

    /// Pieces that move like a king (kings, and commoners in knightmate).
    #[inline]
    pub(crate) fn king_movers(&self) -> Bitboard {
        if V::ROYAL_KNIGHT {
            self.board.role(Role::Commoner)
        } else {
            self.board.role(Role::King)
        }
    }

    /// Pieces among `attackers` that attack `sq` when `occupied` are the
    /// occupied squares. Pawn attacks are taken from the colour of each pawn.
    #[inline(always)]
    pub(crate) fn attackers_within(
        &self,
        sq: Square,
        occupied: Bitboard,
        attackers: Bitboard,
    ) -> Bitboard {
        let b = &self.board;
        let diag = b.role(Role::Bishop) | b.role(Role::Queen);
        let orth = b.role(Role::Rook) | b.role(Role::Queen);
        let pawns = (pawn_attacks(Color::White, sq) & b.pieces(Color::Black, Role::Pawn))
            | (pawn_attacks(Color::Black, sq) & b.pieces(Color::White, Role::Pawn));
        attackers
            & (pawns
                | (knight_attacks(sq) & self.knight_movers())
                | (king_attacks(sq) & self.king_movers())
                | (bishop_attacks_with::<V::Lookup>(sq, occupied) & diag)
                | (rook_attacks_with::<V::Lookup>(sq, occupied) & orth))
    }

    /// Every square a pawn of `by` attacks (set-wise, both capture directions).
    #[inline(always)]
    pub(crate) fn pawn_attack_span(&self, by: Color) -> Bitboard {
        let pawns = self.board.pieces(by, Role::Pawn).shift_up(by.is_white());
        Bitboard((pawns & !Bitboard::FILE_A).0 >> 1) | Bitboard((pawns & !Bitboard::FILE_H).0 << 1)
    }

    /// The squares of `squares` that some piece of `by` attacks when
    /// `occupied` are the occupied squares: the king's destinations and the
    /// castling squares are tested in one pass, through one map of the
    /// squares attacked by the pieces standing in `reach` (where an attacker
    /// of `squares` can stand). Filtered so, the map costs less than even
    /// one square tested against every piece type (callgrind, chess start
    /// d5: 19.03 Ir/node with single tests for one or two squares, 18.46
    /// with the map always).
    #[inline(always)]
    pub(crate) fn attacked_among(
        &self,
        squares: Bitboard,
        by: Color,
        occupied: Bitboard,
        reach: &DangerReach,
    ) -> Bitboard {
        let b = &self.board;
        let theirs = b.color(by);
        let queens = b.role(Role::Queen);
        let mut attacked = if (b.pieces(by, Role::Pawn) & reach.pawn[by.index()]).any() {
            self.pawn_attack_span(by)
        } else {
            Bitboard::EMPTY
        };
        for sq in self.knight_movers() & theirs & reach.knight {
            attacked |= knight_attacks(sq);
        }
        for sq in self.king_movers() & theirs & reach.king {
            attacked |= king_attacks(sq);
        }
        for sq in (b.role(Role::Bishop) | queens) & theirs & reach.diag {
            attacked |= bishop_attacks_with::<V::Lookup>(sq, occupied);
        }
        for sq in (b.role(Role::Rook) | queens) & theirs & reach.orth {
            attacked |= rook_attacks_with::<V::Lookup>(sq, occupied);
        }
        attacked & squares
    }

    /// Pieces of `by` attacking `sq` with the given occupancy.
    #[inline]
    pub fn attackers_to(&self, sq: Square, by: Color, occupied: Bitboard) -> Bitboard {
        self.attackers_within(sq, occupied, self.board.color(by))
    }

    /// `true` if the kings of both sides stand next to each other (atomic:
    /// then neither can be in check).
    #[inline]
    pub(crate) fn kings_touch(&self) -> bool {
        let kings = self.board.role(Role::King);
        match self.king(Color::White) {
            Some(w) => (king_attacks(w) & kings & self.board.color(Color::Black)).any(),
            None => false,
        }
    }

    /// Recomputes `checkers` and `pinned` for the side to move.
    #[inline]
    pub(crate) fn update_check_info(&mut self) {
        if !V::ROYAL {
            return;
        }
        let us = self.turn;
        let Some(ksq) = self.king(us) else {
            self.checkers = Bitboard::EMPTY;
            self.pinned = Bitboard::EMPTY;
            return;
        };
        let occ = self.board.occupied();
        let them = self.board.color(us.other());
        self.checkers = self.attackers_within(ksq, occ, them);
        if V::ATOMIC {
            if self.checkers.any() && self.kings_touch() {
                self.checkers = Bitboard::EMPTY;
            }
            return;
        }
        self.pinned = self.lone_blockers(ksq, them) & self.board.color(us);
    }

    /// [`Position::update_check_info`] after an ordinary move or promotion
    /// that left `role` on `to` (royal games without explosions): the
    /// checkers are derived from the move instead of searched for. In a legal
    /// position the side that just moved gave no check before, so a check now
    /// comes from the piece on `to` or from a slider whose line to the king
    /// ran through `from` (a capture on `to` opens nothing: the square stays
    /// occupied).
    #[inline(always)]
    fn update_check_info_after(&mut self, from: Square, to: Square, role: Role) {
        let us = self.turn;
        let Some(ksq) = self.king(us) else {
            self.checkers = Bitboard::EMPTY;
            self.pinned = Bitboard::EMPTY;
            return;
        };
        let b = &self.board;
        let mover = us.other();
        let occ = b.occupied();
        let attacks = match role {
            Role::Pawn => pawn_attacks(mover, to),
            _ => piece_attacks::<V>(role, to, occ),
        };
        let mut checkers = if attacks.contains(ksq) {
            Bitboard::from_square(to)
        } else {
            Bitboard::EMPTY
        };
        let ours = b.color(mover);
        let queens = b.role(Role::Queen);
        if rook_rays(ksq).contains(from) {
            checkers |=
                rook_attacks_with::<V::Lookup>(ksq, occ) & ours & (b.role(Role::Rook) | queens);
        } else if bishop_rays(ksq).contains(from) {
            checkers |=
                bishop_attacks_with::<V::Lookup>(ksq, occ) & ours & (b.role(Role::Bishop) | queens);
        }
        self.checkers = checkers;
        self.pinned = self.lone_blockers(ksq, self.board.color(mover)) & self.board.color(us);
    }

    /// The [`ChildCheckContext`] of this position's moves, `None` where
    /// children refresh their check information in full (no enemy king,
    /// suicide, atomic).
    #[inline(always)]
    pub(crate) fn child_check_context(&self) -> Option<ChildCheckContext> {
        if !V::ROYAL || V::ATOMIC {
            return None;
        }
        let us = self.turn;
        let ksq = self.king(us.other())?;
        let b = &self.board;
        let occ = b.occupied();
        let ours = b.color(us);
        let theirs = b.color(us.other());
        let mut check_squares = [Bitboard::EMPTY; 7];
        check_squares[Role::Pawn.index()] = pawn_attacks(us.other(), ksq);
        for &role in V::ROLES {
            if role != Role::Pawn {
                check_squares[role.index()] = piece_attacks::<V>(role, ksq, occ);
            }
        }
        let queens = b.role(Role::Queen);
        let orth_rays = rook_rays(ksq);
        let diag_rays = bishop_rays(ksq);
        let snipers = ours
            & ((orth_rays & (b.role(Role::Rook) | queens))
                | (diag_rays & (b.role(Role::Bishop) | queens)));
        let mut blockers = Bitboard::EMPTY;
        let mut pin_zone = Bitboard::EMPTY;
        for s in snipers {
            let between = between(ksq, s);
            pin_zone |= between.with(s);
            let inside = between & occ;
            if !inside.more_than_one() {
                blockers |= inside;
            }
        }
        let mut sniper_squares = [Bitboard::EMPTY; 7];
        sniper_squares[Role::Bishop.index()] = diag_rays;
        sniper_squares[Role::Rook.index()] = orth_rays;
        sniper_squares[Role::Queen.index()] = diag_rays | orth_rays;
        Some(ChildCheckContext {
            ksq,
            check_squares,
            discoverers: blockers & ours,
            pin_zone,
            sniper_squares,
            pinned: blockers & theirs,
        })
    }

    /// [`Position::update_check_info_after`] through the parent's
    /// [`ChildCheckContext`], after an ordinary move (not a promotion) of
    /// `role` from `from` to `to`.
    #[inline(always)]
    fn update_check_info_with(
        &mut self,
        ctx: &ChildCheckContext,
        from: Square,
        to: Square,
        role: Role,
    ) {
        let ksq = ctx.ksq;
        let mut checkers = if ctx.check_squares[role.index()].contains(to) {
            Bitboard::from_square(to)
        } else {
            Bitboard::EMPTY
        };
        let b = &self.board;
        let mover = self.turn.other();
        if ctx.discoverers.contains(from) && !line(ksq, from).contains(to) {
            let occ = b.occupied();
            let queens = b.role(Role::Queen);
            checkers |= b.color(mover)
                & ((rook_attacks_with::<V::Lookup>(ksq, occ) & (b.role(Role::Rook) | queens))
                    | (bishop_attacks_with::<V::Lookup>(ksq, occ)
                        & (b.role(Role::Bishop) | queens)));
        }
        self.checkers = checkers;
        let touched = Bitboard::from_square(from).with(to);
        self.pinned = if (touched & ctx.pin_zone).is_empty()
            && !ctx.sniper_squares[role.index()].contains(to)
        {
            ctx.pinned
        } else {
            self.lone_blockers(ksq, b.color(mover)) & b.color(self.turn)
        };
    }

    /// Pieces (of either colour) standing alone between `ksq` and a slider
    /// of `sliders` that aims at it along a line: the pieces whose leaving
    /// would open that line. Ours are the pinned pieces of chess; atomic's
    /// move filter uses the same set to skip its test for quiet moves.
    #[inline(always)]
    pub(crate) fn lone_blockers(&self, ksq: Square, sliders: Bitboard) -> Bitboard {
        let b = &self.board;
        let occ = b.occupied();
        let snipers = sliders
            & ((rook_rays(ksq) & (b.role(Role::Rook) | b.role(Role::Queen)))
                | (bishop_rays(ksq) & (b.role(Role::Bishop) | b.role(Role::Queen))));
        let mut blockers = Bitboard::EMPTY;
        for s in snipers {
            let between = between(ksq, s) & occ;
            if !between.more_than_one() {
                blockers |= between;
            }
        }
        blockers
    }

    /// The key computed from scratch (tests compare it with [`Position::key`]).
    pub fn compute_key(&self) -> u64 {
        let mut k = 0;
        for (sq, p) in self.board.iter() {
            k ^= zobrist::piece(p.color, p.role, sq);
        }
        k ^= zobrist::castling(self.castling);
        if let Some(ep) = self.ep {
            k ^= zobrist::en_passant(ep.file());
        }
        if self.turn == Color::Black {
            k ^= zobrist::side();
        }
        if V::CHECK_COUNTING {
            for c in Color::ALL {
                k ^= zobrist::checks(c, self.checks_left[c.index()]);
            }
        }
        k
    }

    /// Sets the en-passant square after a double push to `to` by the side
    /// that just moved, if the side now to move could capture there.
    #[inline]
    fn set_ep_after_double_push<const H: bool>(&mut self, mover: Color, to: Square) {
        let ep = Square::from_index_unchecked(if mover.is_white() {
            to.raw() - 8
        } else {
            to.raw() + 8
        });
        if (pawn_attacks(mover, ep) & self.board.pieces(mover.other(), Role::Pawn)).any() {
            self.ep = Some(ep);
            self.toggle::<H>(zobrist::en_passant(ep.file()));
        }
    }

    #[inline]
    fn put<const H: bool>(&mut self, sq: Square, p: Piece) {
        self.board.put(sq, p);
        self.toggle::<H>(zobrist::piece(p.color, p.role, sq));
    }

    #[inline]
    fn remove<const H: bool>(&mut self, sq: Square, p: Piece) {
        self.board.remove(sq, p);
        self.toggle::<H>(zobrist::piece(p.color, p.role, sq));
    }

    #[inline]
    fn shift<const H: bool>(&mut self, from: Square, to: Square, p: Piece) {
        self.board.shift(from, to, p);
        self.toggle::<H>(
            zobrist::piece(p.color, p.role, from) ^ zobrist::piece(p.color, p.role, to),
        );
    }

    /// The position after `m` if it is legal here, else
    /// [`MoveError::Illegal`](crate::MoveError::Illegal).
    pub fn play(&self, m: Move) -> Result<Self, crate::MoveError> {
        if self.is_legal(m) {
            Ok(self.play_unchecked(m))
        } else {
            Err(crate::MoveError::Illegal(m.uci()))
        }
    }

    /// The position after `m`, which must be legal here (as generated by
    /// [`Position::legal_moves`] or accepted by [`Position::is_legal`]): the
    /// move is not checked, and an illegal one leaves a corrupt position.
    /// [`Position::play`] is the checked form.
    #[inline]
    pub fn play_unchecked(&self, m: Move) -> Self {
        let mut next = *self;
        next.play_unchecked_mut(m);
        next
    }

    /// Makes the legal move `m` in place, unchecked (see
    /// [`Position::play_unchecked`]).
    #[inline]
    pub fn play_unchecked_mut(&mut self, m: Move) {
        let Some(mover) = self.board.piece_at(m.from()) else {
            debug_assert!(false, "no piece on {} for {m}", m.from());
            return;
        };
        self.play_impl::<true>(m, mover.role, None);
    }

    /// Makes `m`, by a piece of `role`, without updating
    /// the Zobrist key or the move clocks (the result's key, halfmove clock
    /// and fullmove number are stale): perft, which never reads them (no
    /// game's rule of perft depends on a clock) and gets the role from the
    /// generator's batch, saves the key, the clocks and the lookup of the
    /// moving piece. `ctx`, this position's
    /// [`Position::child_check_context`], gives the child's check
    /// information through set tests.
    /// Made in place: perft copies the parent into the child's own slot
    /// and plays there (returning the child by value cost a second copy of
    /// the position, about 20 instructions a child).
    #[inline]
    pub(crate) fn play_unhashed_mut(
        &mut self,
        ctx: Option<&ChildCheckContext>,
        m: Move,
        role: Role,
    ) {
        self.play_impl::<false>(m, role, ctx);
    }

    #[inline(always)]
    fn toggle<const H: bool>(&mut self, k: u64) {
        if H {
            self.key ^= k;
        }
    }

    /// Makes `m`, compiled once per side to move so that the colour's
    /// squares and table rows are constants. `H`: the full make (Zobrist
    /// key and move clocks kept); without it, perft's make.
    #[inline(always)]
    fn play_impl<const H: bool>(&mut self, m: Move, role: Role, ctx: Option<&ChildCheckContext>) {
        if self.turn.is_white() {
            self.play_side::<H, true>(m, role, ctx);
        } else {
            self.play_side::<H, false>(m, role, ctx);
        }
    }

    #[inline(always)]
    fn play_side<const H: bool, const WHITE: bool>(
        &mut self,
        m: Move,
        role: Role,
        ctx: Option<&ChildCheckContext>,
    ) {
        let us = Color::of_white(WHITE);
        let them = us.other();
        let from = m.from();
        let to = m.to();
        debug_assert_eq!(self.board.role_at(from), Some(role), "{m}");
        let mover = Piece { color: us, role };

        if let Some(ep) = self.ep.take() {
            self.toggle::<H>(zobrist::en_passant(ep.file()));
        }
        let old_castling = self.castling;
        if H && us == Color::Black {
            self.fullmove = self.fullmove.saturating_add(1);
        }

        let mut captured = false;
        match m.kind() {
            MoveKind::Castle => {
                let Some(side) = CASTLES
                    .iter()
                    .find(|c| c.king_from == from && c.king_to == to)
                else {
                    debug_assert!(false, "bad castle {m}");
                    return;
                };
                let rook = Piece {
                    color: us,
                    role: Role::Rook,
                };
                self.remove::<H>(from, mover);
                self.remove::<H>(side.rook_from, rook);
                self.put::<H>(side.king_to, mover);
                self.put::<H>(side.rook_to, rook);
            }
            MoveKind::EnPassant => {
                let cap_sq = Square::from_coords(to.file(), from.rank());
                self.remove::<H>(
                    cap_sq,
                    Piece {
                        color: them,
                        role: Role::Pawn,
                    },
                );
                self.shift::<H>(from, to, mover);
                captured = true;
            }
            MoveKind::Normal | MoveKind::Promotion(_) => {
                if let Some(victim) = self.board.piece_at(to) {
                    self.remove::<H>(to, victim);
                    captured = true;
                }
                match m.promotion() {
                    Some(role) => {
                        self.remove::<H>(from, mover);
                        self.put::<H>(to, Piece { color: us, role });
                    }
                    None => self.shift::<H>(from, to, mover),
                }
                if mover.role == Role::Pawn && from.raw().abs_diff(to.raw()) == 16 {
                    self.set_ep_after_double_push::<H>(us, to);
                }
            }
        }

        // Most moves touch no king or rook start square: one set test
        // instead of two table lookups (callgrind, Kiwipete d5: 8 of
        // about 460 instructions per child).
        if (Bitboard::from_square(from).with(to) & CASTLE_SQUARES).any() {
            self.castling &= CASTLE_MASK[from.index()] & CASTLE_MASK[to.index()];
        }
        if H {
            self.halfmove = if captured || mover.role == Role::Pawn {
                0
            } else {
                self.halfmove.saturating_add(1)
            };
        }

        if V::ATOMIC && captured {
            // The capturer and every non-pawn piece around the capture square explode.
            if let Some(p) = self.board.piece_at(to) {
                self.remove::<H>(to, p);
            }
            let blast = king_attacks(to) & self.board.occupied() & !self.board.role(Role::Pawn);
            for sq in blast {
                if let Some(p) = self.board.piece_at(sq) {
                    self.remove::<H>(sq, p);
                }
                self.castling &= CASTLE_MASK[sq.index()];
            }
        }

        if self.castling != old_castling {
            self.toggle::<H>(zobrist::castling(old_castling ^ self.castling));
        }
        self.turn = them;
        self.toggle::<H>(zobrist::side());
        match m.kind() {
            MoveKind::Normal if V::ROYAL && !V::ATOMIC => match ctx {
                Some(ctx) => self.update_check_info_with(ctx, from, to, mover.role),
                None => self.update_check_info_after(from, to, mover.role),
            },
            MoveKind::Promotion(role) if V::ROYAL && !V::ATOMIC => {
                self.update_check_info_after(from, to, role);
            }
            _ => self.update_check_info(),
        }

        if V::CHECK_COUNTING && self.checkers.any() {
            let left = self.checks_left[us.index()];
            let now = left.saturating_sub(1);
            self.checks_left[us.index()] = now;
            self.toggle::<H>(zobrist::checks(us, left) ^ zobrist::checks(us, now));
        }
    }

    /// The position after passing the move (a null move, for search pruning):
    /// the other side to move, no en passant. `None` when passing would be
    /// meaningless or illegal: in check, or with a game that is already over.
    pub fn play_null(&self) -> Option<Self> {
        if self.is_check() || self.is_over_by_rule() {
            return None;
        }
        let mut next = *self;
        if let Some(ep) = next.ep.take() {
            next.key ^= zobrist::en_passant(ep.file());
        }
        next.turn = self.turn.other();
        next.key ^= zobrist::side();
        next.halfmove = next.halfmove.saturating_add(1);
        next.update_check_info();
        // The side that passed cannot have left the other in check (it was the
        // one to move and not in check), unless a royal piece is attacked now,
        // which would make the null position invalid.
        if next.is_check() {
            return None;
        }
        Some(next)
    }

    /// The game's result if it is over by its own rules or because the side to
    /// move has no legal move. Does not know the move history: see
    /// [`crate::Game`] for the 50-move rule, repetition and insufficient material.
    pub fn outcome(&self) -> Option<Outcome> {
        if let Some(o) = V::end_by_rule(self) {
            return Some(o);
        }
        if self.has_legal_move() {
            None
        } else {
            Some(V::end_without_moves(self))
        }
    }

    /// `true` if the game is over by its own rule before any move is
    /// considered (perft counts 0 moves there).
    #[inline]
    pub fn is_over_by_rule(&self) -> bool {
        V::HAS_END_RULE && V::end_by_rule(self).is_some()
    }

    /// `true` if neither side can win by material (the variant's rule).
    pub fn is_insufficient_material(&self) -> bool {
        V::insufficient_material(self)
    }
}
