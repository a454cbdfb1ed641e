//! Differential test against shakmaty, an independent and widely used rules
//! library: chess (`Chess`), atomic (`Atomic`), threecheck (`ThreeCheck`) and
//! suicide without castling rights (`Antichess`, which is our suicide minus
//! castling).
//!
//! Random playouts are played move for move in both libraries, from each
//! game's start position and from every position of the public perft table
//! that both accept. At every position the two must agree on the FEN
//! (board, side, castling, pseudo-legal en passant, remaining checks,
//! clocks), on the set of legal moves as UCI text (shakmaty's castling
//! converted to the king's two-square move), on check, on which moves are
//! captures, on SAN (sampled) and on whether and how the game is over by its
//! own rules (insufficient-material draws are left out: they are a `Game`
//! rule, not part of `Position::outcome`).
//!
//! Playouts follow one of several styles so that rare moves are reached:
//! uniform, capture-hungry (endgames, explosions), special-move-hungry
//! (castling, en passant, promotion), pawn-pushing (promotions) and
//! finishing (mates, third checks, exploded kings, emptied armies).
//!
//! Environment:
//! - `VARIA_DIFF_POSITIONS`: positions compared per game (default 100,000;
//!   e.g. `VARIA_DIFF_POSITIONS=10_000_000` for a long local run).
//! - `VARIA_DIFF_SEED`: the base seed (decimal or `0x` hex; `random` for a
//!   fresh one). Every failure prints the seed and position count that
//!   reproduce it, the start FEN, the moves played and the FEN reached.

mod common;

use movegen::{variants, Move, Position, Variant};
use rand::{rngs::StdRng, Rng, SeedableRng};
use rayon::prelude::*;
use shakmaty::{fen::Fen, san::San, uci::UciMove, CastlingMode, EnPassantMode, FromSetup};
use std::collections::BTreeSet;
use std::time::Instant;

const DEFAULT_POSITIONS: u64 = 100_000;
const DEFAULT_SEED: u64 = 0x5EED_7661_7269_6101;
/// Positions per independent chunk (each chunk has its own seed, so a long
/// run spreads over all cores and any failure reproduces from one chunk).
const CHUNK: u64 = 20_000;
/// Every this many positions, the SAN of every legal move is compared too
/// (the SAN of the move played is compared at every position).
const SAN_ALL_EVERY: u64 = 16;

fn env_positions() -> u64 {
    match std::env::var("VARIA_DIFF_POSITIONS") {
        Ok(v) => v
            .replace('_', "")
            .parse()
            .unwrap_or_else(|_| panic!("VARIA_DIFF_POSITIONS={v:?} is not a number")),
        Err(_) => DEFAULT_POSITIONS,
    }
}

fn env_seed() -> u64 {
    match std::env::var("VARIA_DIFF_SEED") {
        Ok(v) if v == "random" => std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos() as u64)
            .unwrap_or(DEFAULT_SEED),
        Ok(v) => {
            let t = v.replace('_', "");
            let parsed = match t.strip_prefix("0x") {
                Some(hex) => u64::from_str_radix(hex, 16),
                None => t.parse(),
            };
            parsed.unwrap_or_else(|_| panic!("VARIA_DIFF_SEED={v:?} is not a number"))
        }
        Err(_) => DEFAULT_SEED,
    }
}

fn peer_from_fen<P: FromSetup>(fen: &str) -> Result<P, String> {
    Fen::from_ascii(fen.as_bytes())
        .map_err(|e| format!("shakmaty cannot parse {fen:?}: {e}"))?
        .into_position(CastlingMode::Standard)
        .map_err(|e| format!("shakmaty rejects {fen:?}: {e}"))
}

/// Start FENs both libraries accept: the game's start position first, then
/// the table's positions (`keep` filters them, e.g. no castling rights).
fn starts<V: Variant, P: FromSetup>(start: &str, keep: impl Fn(&str) -> bool) -> Vec<String> {
    let mut out = vec![start.to_string()];
    for fen in common::table_fens(V::KIND) {
        if keep(&fen)
            && Position::<V>::from_fen(&fen).is_ok()
            && peer_from_fen::<P>(&fen).is_ok()
            && !out.contains(&fen)
        {
            out.push(fen);
        }
    }
    out
}

/// How a playout picks its moves.
#[derive(Clone, Copy, Debug)]
enum Style {
    Uniform,
    /// Captures whenever there are some (most of the time).
    Captures,
    /// Castling, en passant and promotions whenever available.
    Specials,
    /// Pawn moves first: promotions, en passant chances.
    Pawns,
    /// Moves that end the game, else checks, else captures: mates, third
    /// checks, exploded kings, emptied armies.
    Finishing,
}

/// What happened in a run, to show the playouts reached the rare cases.
#[derive(Default, Debug, Clone, Copy)]
struct Stats {
    positions: u64,
    games: u64,
    ended: u64,
    decisive: u64,
    castles: u64,
    en_passant: u64,
    promotions: u64,
    checks: u64,
    max_moves: usize,
}

impl Stats {
    fn add(mut self, o: Stats) -> Stats {
        self.positions += o.positions;
        self.games += o.games;
        self.ended += o.ended;
        self.decisive += o.decisive;
        self.castles += o.castles;
        self.en_passant += o.en_passant;
        self.promotions += o.promotions;
        self.checks += o.checks;
        self.max_moves = self.max_moves.max(o.max_moves);
        self
    }
}

/// One legal move in both libraries.
struct Both {
    uci: String,
    ours: Move,
    theirs: shakmaty::Move,
}

/// shakmaty's result by the game's own rules: variant end, then checkmate
/// or stalemate (no insufficient-material draws). `None` if not over;
/// `Some(None)` for a draw.
fn peer_outcome<P: shakmaty::Position>(
    pos: &P,
    legal_empty: bool,
) -> Option<Option<shakmaty::Color>> {
    if let Some(known) = pos.variant_outcome().known() {
        return Some(known.winner());
    }
    if legal_empty {
        // Checkmate wins for the other side; stalemate draws.
        return Some(pos.is_check().then(|| !pos.turn()));
    }
    None
}

fn to_peer_color(c: movegen::Color) -> shakmaty::Color {
    match c {
        movegen::Color::White => shakmaty::Color::White,
        movegen::Color::Black => shakmaty::Color::Black,
    }
}

fn strip_suffix(san: &str) -> &str {
    san.trim_end_matches(['+', '#'])
}

/// Compares one position. Returns the legal moves (sorted by UCI) or a
/// description of every disagreement found.
fn compare<V: Variant, P: shakmaty::Position + Clone>(
    ours: &Position<V>,
    theirs: &P,
    all_san: bool,
) -> Result<Vec<Both>, String> {
    let mut errors = Vec::new();
    let their_fen = Fen::from_position(theirs, EnPassantMode::PseudoLegal).to_string();
    let our_fen = ours.fen();
    if our_fen != their_fen {
        errors.push(format!(
            "FEN differs:\n  varia:    {our_fen}\n  shakmaty: {their_fen}"
        ));
    }
    if ours.key() != ours.compute_key() {
        errors.push("incremental key differs from compute_key()".to_string());
    }

    let our_list = ours.legal_moves();
    let their_list = theirs.legal_moves();
    let mut our_moves: Vec<(String, Move)> = our_list.iter().map(|&m| (m.uci(), m)).collect();
    let mut their_moves: Vec<(String, shakmaty::Move)> = their_list
        .iter()
        .map(|&m| (UciMove::from_standard(m).to_string(), m))
        .collect();
    our_moves.sort_by(|a, b| a.0.cmp(&b.0));
    their_moves.sort_by(|a, b| a.0.cmp(&b.0));
    let our_set: BTreeSet<&str> = our_moves.iter().map(|(s, _)| s.as_str()).collect();
    let their_set: BTreeSet<&str> = their_moves.iter().map(|(s, _)| s.as_str()).collect();
    if our_set.len() != our_moves.len() {
        errors.push(format!("varia lists a move twice: {our_moves:?}"));
    }
    if our_set != their_set {
        let extra: Vec<&&str> = our_set.difference(&their_set).collect();
        let missing: Vec<&&str> = their_set.difference(&our_set).collect();
        errors.push(format!(
            "legal moves differ: varia has {} moves, shakmaty {}\n  only varia:    {extra:?}\n  only shakmaty: {missing:?}",
            our_moves.len(),
            their_moves.len()
        ));
    }
    if ours.count_legal() != our_moves.len() as u64 {
        errors.push(format!(
            "count_legal() = {} but legal_moves() has {}",
            ours.count_legal(),
            our_moves.len()
        ));
    }
    if ours.has_legal_move() == our_moves.is_empty() {
        errors.push(format!("has_legal_move() = {}", ours.has_legal_move()));
    }
    let their_has_capture = their_list.iter().any(|m| m.is_capture());
    if ours.has_capture() != their_has_capture {
        errors.push(format!(
            "has_capture() = {}, shakmaty has captures: {their_has_capture}",
            ours.has_capture()
        ));
    }
    if ours.is_check() != theirs.is_check() {
        errors.push(format!(
            "is_check() = {}, shakmaty: {}",
            ours.is_check(),
            theirs.is_check()
        ));
    }

    let our_end = ours.outcome().map(|o| o.winner().map(to_peer_color));
    let their_end = peer_outcome(theirs, their_list.is_empty());
    if our_end != their_end {
        errors.push(format!(
            "outcome differs: varia {:?} (winner {our_end:?}), shakmaty winner {their_end:?} (variant end: {})",
            ours.outcome(),
            theirs.is_variant_end()
        ));
    }

    if !errors.is_empty() {
        return Err(errors.join("\n"));
    }
    let both: Vec<Both> = our_moves
        .into_iter()
        .zip(their_moves)
        .map(|((uci, o), (_, t))| Both {
            uci,
            ours: o,
            theirs: t,
        })
        .collect();
    for b in &both {
        if ours.is_capture(b.ours) != b.theirs.is_capture() {
            errors.push(format!(
                "is_capture({}) = {}, shakmaty: {}",
                b.uci,
                ours.is_capture(b.ours),
                b.theirs.is_capture()
            ));
        }
        if all_san {
            let our_san = ours.san(b.ours);
            let their_san = San::from_move(theirs, b.theirs).to_string();
            if strip_suffix(&our_san) != their_san {
                errors.push(format!(
                    "SAN of {}: varia {our_san}, shakmaty {their_san}",
                    b.uci
                ));
            }
        }
    }
    if errors.is_empty() {
        Ok(both)
    } else {
        Err(errors.join("\n"))
    }
}

fn pick<'a, V: Variant>(
    rng: &mut StdRng,
    style: Style,
    pos: &Position<V>,
    pos_moves: &'a [Both],
) -> &'a Both {
    let prefer = |rng: &mut StdRng, p: f64, f: &dyn Fn(usize) -> bool| -> Option<usize> {
        let idx: Vec<usize> = (0..pos_moves.len()).filter(|&i| f(i)).collect();
        (!idx.is_empty() && rng.gen_bool(p)).then(|| idx[rng.gen_range(0..idx.len())])
    };
    let chosen = match style {
        Style::Uniform => None,
        Style::Captures => prefer(rng, 0.8, &|i| pos_moves[i].theirs.is_capture()),
        Style::Specials => prefer(rng, 0.9, &|i| {
            let m = pos_moves[i].theirs;
            m.is_castle() || m.is_en_passant() || m.is_promotion()
        })
        .or_else(|| prefer(rng, 0.3, &|i| pos_moves[i].theirs.is_capture())),
        Style::Pawns => prefer(rng, 0.6, &|i| {
            pos_moves[i].theirs.role() == shakmaty::Role::Pawn
        }),
        Style::Finishing => {
            let after: Vec<Position<V>> = pos_moves
                .iter()
                .map(|b| pos.play_unchecked(b.ours))
                .collect();
            prefer(rng, 0.9, &|i| after[i].outcome().is_some())
                .or_else(|| prefer(rng, 0.5, &|i| after[i].is_check()))
                .or_else(|| prefer(rng, 0.5, &|i| pos_moves[i].theirs.is_capture()))
        }
    };
    &pos_moves[chosen.unwrap_or_else(|| rng.gen_range(0..pos_moves.len()))]
}

/// Plays random games until `positions` positions were compared.
fn run_chunk<V: Variant, P: shakmaty::Position + FromSetup + Clone>(
    name: &str,
    seed: u64,
    positions: u64,
    starts: &[String],
) -> Result<Stats, String> {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut stats = Stats::default();
    while stats.positions < positions {
        stats.games += 1;
        // Half the games from the start position, the others from the table.
        let start = if rng.gen_bool(0.5) {
            &starts[0]
        } else {
            &starts[rng.gen_range(0..starts.len())]
        };
        let style = match rng.gen_range(0..5) {
            0 => Style::Uniform,
            1 => Style::Captures,
            2 => Style::Specials,
            3 => Style::Pawns,
            _ => Style::Finishing,
        };
        let max_plies = rng.gen_range(1..=400);
        let mut ours = Position::<V>::from_fen(start).map_err(|e| format!("{start}: {e}"))?;
        let mut theirs: P = peer_from_fen(start)?;
        let mut path: Vec<String> = Vec::new();
        loop {
            stats.positions += 1;
            let all_san = stats.positions % SAN_ALL_EVERY == 0;
            let fail = |msg: String, path: &[String], ours: &Position<V>| {
                format!(
                    "{name}: varia and shakmaty disagree\n{msg}\n  position: {}\n  start:    {start}\n  moves:    {}\n  style {style:?}; reproduce with VARIA_DIFF_SEED={seed} VARIA_DIFF_POSITIONS={}",
                    ours.fen(),
                    path.join(" "),
                    stats.positions
                )
            };
            let moves = compare(&ours, &theirs, all_san).map_err(|e| fail(e, &path, &ours))?;
            if ours.is_check() {
                stats.checks += 1;
            }
            stats.max_moves = stats.max_moves.max(moves.len());
            if let Some(o) = ours.outcome() {
                stats.ended += 1;
                stats.decisive += o.winner().is_some() as u64;
                break;
            }
            if path.len() >= max_plies || stats.positions >= positions {
                break;
            }
            let m = pick(&mut rng, style, &ours, &moves);
            if !all_san {
                let our_san = ours.san(m.ours);
                let their_san = San::from_move(&theirs, m.theirs).to_string();
                if strip_suffix(&our_san) != their_san {
                    let msg = format!("SAN of {}: varia {our_san}, shakmaty {their_san}", m.uci);
                    return Err(fail(msg, &path, &ours));
                }
            }
            stats.castles += m.theirs.is_castle() as u64;
            stats.en_passant += m.theirs.is_en_passant() as u64;
            stats.promotions += m.theirs.is_promotion() as u64;
            ours = ours.play_unchecked(m.ours);
            theirs.play_unchecked(m.theirs);
            path.push(m.uci.clone());
        }
    }
    Ok(stats)
}

fn run<V: Variant, P: shakmaty::Position + FromSetup + Clone>(starts: Vec<String>) {
    let name = V::KIND.name();
    let total = env_positions();
    let seed = env_seed();
    let chunks = total.div_ceil(CHUNK).max(1);
    println!(
        "{name}: {total} positions from {} start positions, base seed {seed} (VARIA_DIFF_SEED)",
        starts.len()
    );
    let t = Instant::now();
    let results: Vec<Result<Stats, String>> = (0..chunks)
        .into_par_iter()
        .map(|i| {
            let n = CHUNK.min(total - i * CHUNK);
            run_chunk::<V, P>(name, seed.wrapping_add(i), n, &starts)
        })
        .collect();
    let mut stats = Stats::default();
    let mut failures = Vec::new();
    for r in results {
        match r {
            Ok(s) => stats = stats.add(s),
            Err(e) => failures.push(e),
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {chunks} chunks failed (base seed {seed}):\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
    println!("{name}: {stats:?} in {:.2?}", t.elapsed());
    assert!(stats.positions >= total);
    // The playouts must reach the rare moves, or the comparison proves little.
    if total >= DEFAULT_POSITIONS {
        assert!(
            stats.ended > 50,
            "{name}: too few finished games: {stats:?}"
        );
        assert!(
            stats.en_passant > 20,
            "{name}: too few en passant moves: {stats:?}"
        );
        assert!(
            stats.promotions > 100,
            "{name}: too few promotions: {stats:?}"
        );
        if name != "suicide" {
            assert!(stats.castles > 20, "{name}: too few castlings: {stats:?}");
            assert!(stats.checks > 100, "{name}: too few checks: {stats:?}");
        }
    }
}

#[test]
fn chess_matches_shakmaty() {
    let starts = starts::<variants::Chess, shakmaty::Chess>(<variants::Chess>::START_FEN, |_| true);
    run::<variants::Chess, shakmaty::Chess>(starts);
}

#[test]
fn atomic_matches_shakmaty() {
    let starts = starts::<variants::Atomic, shakmaty::variant::Atomic>(
        <variants::Atomic>::START_FEN,
        |_| true,
    );
    run::<variants::Atomic, shakmaty::variant::Atomic>(starts);
}

#[test]
fn threecheck_matches_shakmaty() {
    let starts = starts::<variants::ThreeCheck, shakmaty::variant::ThreeCheck>(
        <variants::ThreeCheck>::START_FEN,
        |_| true,
    );
    run::<variants::ThreeCheck, shakmaty::variant::ThreeCheck>(starts);
}

/// Suicide without castling rights is exactly antichess.
#[test]
fn suicide_without_castling_matches_antichess() {
    let no_castling = |fen: &str| fen.split_ascii_whitespace().nth(2) == Some("-");
    let starts = starts::<variants::Suicide, shakmaty::variant::Antichess>(
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1",
        no_castling,
    );
    run::<variants::Suicide, shakmaty::variant::Antichess>(starts);
}

/// The variant ends are reached and agree (a quick sanity check of the
/// comparison itself, with positions whose result is known).
#[test]
fn known_endings_compare_equal() {
    fn ends<V: Variant, P: shakmaty::Position + FromSetup + Clone>(fen: &str) {
        let ours = Position::<V>::from_fen(fen).unwrap();
        let theirs: P = peer_from_fen(fen).unwrap();
        let moves = compare(&ours, &theirs, true).unwrap_or_else(|e| panic!("{fen}: {e}"));
        assert!(moves.is_empty(), "{fen}");
        assert!(ours.outcome().is_some(), "{fen}");
    }
    // Fool's mate.
    ends::<variants::Chess, shakmaty::Chess>(
        "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3",
    );
    // Atomic: the black king exploded.
    ends::<variants::Atomic, shakmaty::variant::Atomic>("8/8/8/8/8/8/8/4K3 b - - 0 1");
    // Threecheck: White has given three checks.
    ends::<variants::ThreeCheck, shakmaty::variant::ThreeCheck>(
        "4k3/8/8/8/8/8/4Q3/4K3 b - - 0+3 0 1",
    );
    // Suicide: Black has no pieces left.
    ends::<variants::Suicide, shakmaty::variant::Antichess>("8/8/8/8/8/8/8/4K3 b - - 0 1");
}
