//! The walk over a position that reports every term ([`eval_terms`]): the
//! common terms counted here on one pass over the pieces (material,
//! mobility, piece-square tables, the king's shelter, open files, storm and
//! flank), the attack sets it gathers handed to the modules of the other
//! terms and of each game.

use super::layout::{group, idx};
use super::sink::{phase, TermSink};
use super::{king_attack, knightmate, pawns, placement, suicide, threats, threecheck};
use movegen::attacks::{king_attacks, knight_attacks, pawn_attacks, piece_attacks};
use movegen::{Bitboard, Color, Position, Role, Square, Variant};

/// The file of the king on `k` and the files beside it: where the open
/// files and the pawn storm are counted.
pub(super) fn king_files(k: Square) -> std::ops::RangeInclusive<u8> {
    let file = k.file();
    file.saturating_sub(1)..=(file + 1).min(7)
}

/// The files of the king on `k` and beside it on which its side has no pawn
/// (`own_pawns`): open lines for the enemy's rooks and queens, counted
/// against the king's owner (`king_open_files`).
pub(super) fn king_open_files(k: Square, own_pawns: Bitboard) -> i32 {
    king_files(k)
        .filter(|&f| (own_pawns & Bitboard::file(f)).is_empty())
        .count() as i32
}

/// The king's flank in its camp, the squares the king flank attack
/// (`king_flank_attack`) counts the enemy's attacks on: four files (a-d for a
/// king on the a-, b- or c-file, c-f for the d- or e-file, e-h for the f-,
/// g- or h-file) on the five ranks nearest the king's own side
/// (Stockfish's `KingFlank & Camp`).
pub(super) fn king_flank(k: Square, color: Color) -> Bitboard {
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
pub(super) fn pawn_storm(
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

pub(super) const PST: [usize; 7] = [
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
    let zones = Color::ALL.map(|color| match pos.king(color) {
        Some(k) if V::ROYAL => king_attacks(k),
        _ => Bitboard(0),
    });
    let mut danger = [0i32; 2];
    // The squares two pieces of a side attack are gathered only for their
    // readers: the forced capture (suicide, losers), the king flank attack and the threats that ask which
    // squares a side protects strongly.
    let flank_wanted = V::ROYAL && !V::ROYAL_KNIGHT && acc.wants(group::KING_FLANK_ATTACK);
    let twice_wanted = V::MUST_CAPTURE || flank_wanted || threats::wants_twice(acc);
    // The squares each side's pawns attack: the threats' and the mobility
    // area's (a square an enemy pawn attacks is no square to go to).
    pawn_attack_sets(pos, &zones, twice_wanted, &mut attacks, &mut danger);
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
        let their_zone = attack_zone(pos, color.other(), &zones, king_attack_wanted);
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
                if role != Role::King {
                    mobility_terms(role, moves & !ours, mobility_area, sign, acc);
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
                    let them = &attacks[color.other().index()];
                    let flank_attacks = flank_wanted.then_some(them);
                    king_cover_terms(pos, color, k, zone, flank_attacks, acc);
                }
                let danger = danger[color.index()];
                if danger != 0 {
                    acc.add(idx::KING_DANGER, -sign * danger);
                }
                if V::ATOMIC {
                    atomic_threat_term(pos, color, acc);
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
        kings_touch_term(pos, acc);
    }
    if threats::wanted(acc) {
        threats::terms(pos, &attacks, &reached, acc);
    }
    if V::MUST_CAPTURE {
        must_capture_terms(pos, &forced, &attacks, &reached, acc);
    }
    acc.add(idx::TEMPO, if pos.turn().is_white() { 1 } else { -1 });
}

/// The squares each side's pawns attack (`attacks[c].pawns`), those two of
/// them attack when `twice_wanted` (`attacks[c].twice`), and the king
/// danger their attacks on the enemy king's `zones` add (`danger`, by the
/// king's colour).
#[inline]
fn pawn_attack_sets<V: Variant>(
    pos: &Position<V>,
    zones: &[Bitboard; 2],
    twice_wanted: bool,
    attacks: &mut [threats::Attacks; 2],
    danger: &mut [i32; 2],
) {
    for color in Color::ALL {
        let their_zone = zones[color.other().index()];
        let mut set = Bitboard(0);
        let mut twice = Bitboard(0);
        for sq in pos.board().pieces(color, Role::Pawn) {
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
}

/// How well the king of `color` on `k` (whose surrounding squares are
/// `zone`) is covered: its pawn shelter in front, the open files by it,
/// the enemy's attacks on its flank (given the enemy's `flank_attacks`
/// when `king_flank_attack` is weighed) and the enemy pawns storming it.
#[inline]
fn king_cover_terms<V: Variant, A: TermSink>(
    pos: &Position<V>,
    color: Color,
    k: Square,
    zone: Bitboard,
    flank_attacks: Option<&threats::Attacks>,
    acc: &mut A,
) {
    let b = pos.board();
    let sign = if color.is_white() { 1 } else { -1 };
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
    if let Some(them) = flank_attacks {
        let flank = king_flank(k, color);
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

/// Atomic: the enemy pieces next to the enemy king that `color` attacks
/// (capturing one explodes the king), counted for `color`.
#[inline]
fn atomic_threat_term<V: Variant, A: TermSink>(pos: &Position<V>, color: Color, acc: &mut A) {
    let sign = if color.is_white() { 1 } else { -1 };
    let b = pos.board();
    if let Some(ek) = pos.king(color.other()) {
        let targets = king_attacks(ek) & b.color(color.other());
        let threats = targets
            .filter(|&sq| pos.attackers_to(sq, color, b.occupied()).any())
            .count() as i32;
        if threats != 0 {
            acc.add(idx::ATOMIC_THREAT, sign * threats);
        }
    }
}

/// The terms of the games where captures are forced (suicide, losers),
/// from both sides' `forced` moves, `attacks` and squares `reached` by
/// role.
#[inline]
fn must_capture_terms<V: Variant, A: TermSink>(
    pos: &Position<V>,
    forced: &[suicide::ForcedMoves; 2],
    attacks: &[threats::Attacks; 2],
    reached: &[[Bitboard; 7]; 2],
    acc: &mut A,
) {
    // Suicide's piece count and both sides' legal (or forced, from attack
    // sets) moves; open to losers, where captures are forced too (0 there
    // unless a file sets them: the legal-move counts cost two move
    // generations per evaluation).
    if acc.wants(group::PIECE_COUNT)
        || acc.wants(group::LEGAL_MOBILITY)
        || acc.wants(group::FORCED_MOBILITY)
    {
        suicide::terms(pos, forced, acc);
    }
    // The squares where each side can offer a piece.
    if acc.wants(group::OFFER_SQUARES) {
        let [white, black] = Color::ALL.map(|color| {
            let (us, them) = (color.index(), color.other().index());
            suicide::offer_squares(pos, color, &reached[us], attacks[them].all)
        });
        if white != black {
            acc.add(idx::OFFER_SQUARES, white - black);
        }
    }
    // A side that can capture must.
    if acc.wants(group::FORCED_CAPTURE) {
        suicide::forced_capture(pos, attacks, acc);
    }
}

/// The squares around the king of `color` for the attack by units on it:
/// its `zones` entry, or in knightmate the royal knight's own flight
/// squares, a knight's move away (`eval/knightmate.rs`), and those only
/// when the table is weighed (`wanted`).
#[inline]
fn attack_zone<V: Variant>(
    pos: &Position<V>,
    color: Color,
    zones: &[Bitboard; 2],
    wanted: bool,
) -> Bitboard {
    if !V::ROYAL_KNIGHT {
        return zones[color.index()];
    }
    match pos.king(color) {
        Some(k) if wanted => knight_attacks(k),
        _ => Bitboard(0),
    }
}

/// The mobility of a piece of `role` (not a king) that can go to `moves`
/// (its attacks off its own pieces), and of those in its side's
/// `mobility_area`, counted `sign`.
#[inline]
fn mobility_terms<A: TermSink>(
    role: Role,
    moves: Bitboard,
    mobility_area: Bitboard,
    sign: i32,
    acc: &mut A,
) {
    let mobility = moves.count() as i32;
    if mobility != 0 {
        acc.add(idx::MOBILITY + role.index(), sign * mobility);
        let in_area = (moves & mobility_area).count() as i32;
        if in_area != 0 {
            acc.add(idx::MOBILITY_AREA + role.index(), sign * in_area);
        }
    }
}

/// Atomic: touching kings cannot be checked, counted for the side to
/// move's safety.
#[inline]
fn kings_touch_term<V: Variant, A: TermSink>(pos: &Position<V>, acc: &mut A) {
    if let (Some(w), Some(bk)) = (pos.king(Color::White), pos.king(Color::Black)) {
        if king_attacks(w).contains(bk) {
            acc.add(idx::KINGS_TOUCH, if pos.turn().is_white() { 1 } else { -1 });
        }
    }
}
