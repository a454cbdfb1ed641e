//! Notation (UCI, SAN), game outcomes, `Game` draws and FEN errors.
//!
//! - UCI and SAN round trips for every legal move along random playouts in
//!   all six games, and SAN uniqueness within a position.
//! - Specific SAN cases: disambiguation by file, rank and square, promotions,
//!   castling, check and mate suffixes, the knightmate commoner `M` and
//!   promotion `=M`, suicide's promotion to a king `=K`; lenient parsing.
//! - `outcome()` for every way each game can end, and `Game`'s repetition,
//!   fifty-move and insufficient-material draws.
//! - FEN errors name the field and the text; impossible positions are
//!   rejected with a reason; finished games load and have no moves.

mod common;

use movegen::{
    dispatch, perft, variants::*, Color, EndReason, FenError, Game, MoveError, Outcome, Position,
    Variant, VariantKind,
};
use rand::{rngs::StdRng, Rng, SeedableRng};
use std::collections::HashSet;

// ---------------------------------------------------------------------------
// Round trips along playouts.
// ---------------------------------------------------------------------------

/// Plays `games` random games of up to `plies` plies from the start position
/// and the table positions, calling `f` at every position.
fn playouts<V: Variant>(seed: u64, games: usize, plies: usize, mut f: impl FnMut(&Position<V>)) {
    let starts = common::start_fens(V::KIND);
    let mut rng = StdRng::seed_from_u64(seed);
    for g in 0..games {
        let fen = if g % 2 == 0 {
            &starts[0]
        } else {
            &starts[rng.gen_range(0..starts.len())]
        };
        let mut pos = Position::<V>::from_fen(fen).unwrap();
        let greedy = rng.gen_bool(0.5);
        for _ in 0..plies {
            f(&pos);
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            let captures: Vec<_> = moves
                .iter()
                .copied()
                .filter(|&m| pos.is_capture(m))
                .collect();
            let m = if greedy && !captures.is_empty() {
                captures[rng.gen_range(0..captures.len())]
            } else {
                moves[rng.gen_range(0..moves.len())]
            };
            pos = pos.play_unchecked(m);
        }
    }
}

fn uci_and_san_round_trip<V: Variant>() {
    let mut checked = 0usize;
    playouts::<V>(0xC0FFEE ^ V::KIND as u64, 60, 150, |pos| {
        let mut sans = HashSet::new();
        for &m in pos.legal_moves().iter() {
            let uci = m.uci();
            assert_eq!(pos.parse_uci(&uci), Ok(m), "{} {uci}", pos.fen());
            assert_eq!(m.to_string(), uci);
            let san = pos.san(m);
            assert_eq!(pos.parse_san(&san), Ok(m), "{} {uci} -> {san}", pos.fen());
            // Without the check suffix too.
            let bare = san.trim_end_matches(['+', '#']);
            assert_eq!(pos.parse_san(bare), Ok(m), "{} {bare}", pos.fen());
            assert!(
                sans.insert(san.clone()),
                "{}: two moves with SAN {san}",
                pos.fen()
            );
            // The suffix says what the move does.
            let after = pos.play_unchecked(m);
            let mate = after
                .outcome()
                .is_some_and(|o| o.reason() == EndReason::Checkmate);
            assert_eq!(san.ends_with('#'), mate, "{} {san}", pos.fen());
            assert_eq!(
                san.ends_with('+'),
                !mate && after.is_check(),
                "{} {san}",
                pos.fen()
            );
            checked += 1;
        }
    });
    assert!(checked > 10_000, "{checked}");
}

#[test]
fn round_trips_in_every_game() {
    for kind in VariantKind::ALL {
        dispatch!(kind, V => uci_and_san_round_trip::<V>());
    }
}

// ---------------------------------------------------------------------------
// Specific SAN.
// ---------------------------------------------------------------------------

fn pos<V: Variant>(fen: &str) -> Position<V> {
    Position::<V>::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

/// The SAN of the UCI move `uci`, checking it parses back.
fn san<V: Variant>(fen: &str, uci: &str) -> String {
    let p = pos::<V>(fen);
    let m = p
        .parse_uci(uci)
        .unwrap_or_else(|e| panic!("{fen}: {uci}: {e}"));
    let s = p.san(m);
    assert_eq!(p.parse_san(&s), Ok(m), "{fen}: {s}");
    s
}

#[test]
fn san_disambiguation() {
    let knights = "4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1";
    assert_eq!(san::<Chess>(knights, "b1d2"), "Nbd2");
    assert_eq!(san::<Chess>(knights, "f3d2"), "Nfd2");
    assert_eq!(san::<Chess>(knights, "f3e5"), "Ne5");
    let rooks = "4k3/8/8/R7/8/8/8/R3K3 w - - 0 1";
    assert_eq!(san::<Chess>(rooks, "a1a3"), "R1a3");
    assert_eq!(san::<Chess>(rooks, "a5a3"), "R5a3");
    assert_eq!(san::<Chess>(rooks, "a1b1"), "Rb1");
    let queens = "6k1/8/8/8/4Q2Q/8/8/K6Q w - - 0 1";
    assert_eq!(san::<Chess>(queens, "h4e1"), "Qh4e1");
    assert_eq!(san::<Chess>(queens, "e4e1"), "Qee1");
    assert_eq!(san::<Chess>(queens, "h1e1"), "Q1e1");
    // A pinned piece does not count for disambiguation.
    let pinned = "4k3/8/8/6N1/1b6/8/3N4/4K3 w - - 0 1";
    assert_eq!(san::<Chess>(pinned, "g5e4"), "Ne4");
    let free = "4k3/8/8/6N1/8/8/3N4/4K3 w - - 0 1";
    assert_eq!(san::<Chess>(free, "g5e4"), "Nge4");
}

#[test]
fn san_pawns_promotions_castling_and_suffixes() {
    assert_eq!(san::<Chess>(<Chess>::START_FEN, "e2e4"), "e4");
    assert_eq!(san::<Chess>(<Chess>::START_FEN, "g1f3"), "Nf3");
    let promo = "3r4/4P3/8/8/8/8/8/K6k w - - 0 1";
    assert_eq!(san::<Chess>(promo, "e7e8q"), "e8=Q");
    assert_eq!(san::<Chess>(promo, "e7e8n"), "e8=N");
    assert_eq!(san::<Chess>(promo, "e7d8r"), "exd8=R");
    let ep = "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2";
    assert_eq!(san::<Chess>(ep, "e5d6"), "exd6");
    let castle = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
    assert_eq!(san::<Chess>(castle, "e1g1"), "O-O");
    assert_eq!(san::<Chess>(castle, "e1c1"), "O-O-O");
    let castle_black = "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1";
    assert_eq!(san::<Chess>(castle_black, "e8g8"), "O-O");
    assert_eq!(san::<Chess>(castle_black, "e8c8"), "O-O-O");
    assert_eq!(
        san::<Chess>("4k3/8/8/8/8/8/8/R3K3 w - - 0 1", "a1a8"),
        "Ra8+"
    );
    assert_eq!(
        san::<Chess>("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", "a1a8"),
        "Ra8#"
    );
    assert_eq!(
        san::<Chess>("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "b7b8q"),
        "b8=Q+"
    );
    // Captures are marked with x.
    assert_eq!(
        san::<Chess>("4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1", "e4d5"),
        "exd5"
    );
    assert_eq!(
        san::<Chess>("4k3/8/8/3p4/8/8/8/3QK3 w - - 0 1", "d1d5"),
        "Qxd5"
    );
}

#[test]
fn san_variant_letters() {
    // Knightmate: the commoner is M, the royal knight K.
    assert_eq!(
        san::<Knightmate>("4k3/8/8/8/8/8/8/1M2K3 w - - 0 1", "b1c2"),
        "Mc2"
    );
    assert_eq!(san::<Knightmate>(<Knightmate>::START_FEN, "e1f3"), "Kf3");
    assert_eq!(
        san::<Knightmate>("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "b7b8m"),
        "b8=M"
    );
    assert_eq!(
        san::<Knightmate>("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "b7b8q"),
        "b8=Q+"
    );
    // Knightmate castling.
    assert_eq!(
        san::<Knightmate>("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1g1"),
        "O-O"
    );
    // Suicide: promotion to a king; kings are ordinary pieces.
    let p = pos::<Suicide>("8/P7/8/8/8/8/8/7k w - - 0 1");
    let sans: Vec<String> = p.legal_moves().iter().map(|&m| p.san(m)).collect();
    assert_eq!(sans, ["a8=Q", "a8=R", "a8=B", "a8=N", "a8=K"]);
    assert_eq!(p.parse_san("a8=K"), p.parse_uci("a7a8k"));
    assert_eq!(p.parse_uci("a7a8k").unwrap().uci(), "a7a8k");
    // Suicide: no check suffix (there is no check).
    assert_eq!(
        san::<Suicide>("4k3/8/8/8/8/8/8/R3K3 w - - 0 1", "a1a8"),
        "Ra8"
    );
    // Threecheck: the third check is a check, not a mate.
    assert_eq!(
        san::<ThreeCheck>("4k3/8/8/8/8/8/8/R3K3 w - - 1+3 0 1", "a1a8"),
        "Ra8+"
    );
    // Atomic: exploding the king is not called mate.
    let s = san::<Atomic>("4k3/4q3/8/8/8/8/4R3/4K3 w - - 0 1", "e2e7");
    assert_eq!(s, "Rxe7");
}

#[test]
fn san_parsing_is_lenient_but_exact() {
    let p = pos::<Chess>("4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1");
    let nbd2 = p.parse_uci("b1d2").unwrap();
    assert_eq!(p.parse_san("Nd2"), Err(MoveError::Ambiguous("Nd2".into())));
    assert_eq!(p.parse_san("Nbd2"), Ok(nbd2));
    assert_eq!(p.parse_san("N1d2"), Ok(nbd2));
    assert_eq!(p.parse_san("Nb1d2"), Ok(nbd2));
    assert_eq!(p.parse_san("Nbd2+"), Ok(nbd2));
    assert_eq!(p.parse_san("Nbd2!?"), Ok(nbd2));
    assert_eq!(p.parse_san("Nbxd2"), Ok(nbd2));
    assert_eq!(p.parse_san("Nbd3"), Err(MoveError::Illegal("Nbd3".into())));
    assert_eq!(p.parse_san("Ke3"), Err(MoveError::Illegal("Ke3".into())));
    assert!(matches!(p.parse_san("Zz9"), Err(MoveError::Syntax(_))));
    assert!(matches!(p.parse_san(""), Err(MoveError::Syntax(_))));
    assert!(matches!(p.parse_san("Nb"), Err(MoveError::Syntax(_))));
    let c = pos::<Chess>("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    assert_eq!(c.parse_san("0-0"), c.parse_uci("e1g1"));
    assert_eq!(c.parse_san("O-O-O+"), c.parse_uci("e1c1"));
    let pr = pos::<Chess>("3r4/4P3/8/8/8/8/8/K6k w - - 0 1");
    assert_eq!(pr.parse_san("e8Q"), pr.parse_uci("e7e8q"));
    assert_eq!(pr.parse_san("e8=q"), pr.parse_uci("e7e8q"));
    assert_eq!(pr.parse_san("exd8=N"), pr.parse_uci("e7d8n"));
    assert_eq!(pr.parse_san("e8"), Err(MoveError::Illegal("e8".into())));
    // No king promotion outside suicide, no commoner outside knightmate.
    assert!(pr.parse_san("e8=K").is_err());
    assert!(pr.parse_san("e8=M").is_err());
    // UCI: castling also as king takes own rook; wrong case and junk rejected.
    assert_eq!(c.parse_uci("e1h1"), c.parse_uci("e1g1"));
    assert_eq!(c.parse_uci("e1a1"), c.parse_uci("e1c1"));
    assert!(matches!(pr.parse_uci("e7e8Q"), Err(MoveError::Syntax(_))));
    assert!(matches!(pr.parse_uci("e7e8p"), Err(MoveError::Syntax(_))));
    assert!(matches!(pr.parse_uci("e7e9q"), Err(MoveError::Syntax(_))));
    assert!(matches!(pr.parse_uci("é7e8"), Err(MoveError::Syntax(_))));
    assert_eq!(pr.parse_uci("e7e8"), Err(MoveError::Illegal("e7e8".into())));
    assert_eq!(
        MoveError::Illegal("e7e8".into()).to_string(),
        "illegal move \"e7e8\""
    );
}

// ---------------------------------------------------------------------------
// Outcomes.
// ---------------------------------------------------------------------------

fn win(winner: Color, reason: EndReason) -> Option<Outcome> {
    Some(Outcome::Decisive { winner, reason })
}

fn draw(reason: EndReason) -> Option<Outcome> {
    Some(Outcome::Draw { reason })
}

/// The outcome of `fen`, checking that a finished position has no moves.
fn outcome<V: Variant>(fen: &str) -> Option<Outcome> {
    let p = pos::<V>(fen);
    let o = p.outcome();
    if o.is_some() {
        assert!(p.legal_moves().is_empty(), "{fen}: finished but has moves");
        assert_eq!(p.count_legal(), 0, "{fen}");
        assert!(!p.has_legal_move(), "{fen}");
        assert_eq!(perft(&p, 2), 0, "{fen}");
    }
    o
}

/// The outcome after playing the UCI moves from `fen`.
fn outcome_after<V: Variant>(fen: &str, moves: &[&str]) -> Option<Outcome> {
    let mut p = pos::<V>(fen);
    for m in moves {
        let mv = p.parse_uci(m).unwrap_or_else(|e| panic!("{fen}: {m}: {e}"));
        assert_eq!(p.outcome(), None, "{fen}: over before {m}");
        p = p.play_unchecked(mv);
    }
    p.outcome()
}

const FOOLS_MATE: &str = "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3";
const STALEMATE: &str = "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1";

#[test]
fn outcomes_chess() {
    use Color::*;
    assert_eq!(outcome::<Chess>(<Chess>::START_FEN), None);
    assert_eq!(
        outcome::<Chess>(FOOLS_MATE),
        win(Black, EndReason::Checkmate)
    );
    assert_eq!(outcome::<Chess>(STALEMATE), draw(EndReason::Stalemate));
    assert_eq!(
        outcome_after::<Chess>(<Chess>::START_FEN, &["f2f3", "e7e5", "g2g4", "d8h4"]),
        win(Black, EndReason::Checkmate)
    );
    // Insufficient material is no outcome of the position (Game decides it).
    assert_eq!(outcome::<Chess>("8/8/8/4k3/8/8/8/4K3 w - - 0 1"), None);
}

#[test]
fn outcomes_threecheck() {
    use Color::*;
    assert_eq!(outcome::<ThreeCheck>(<ThreeCheck>::START_FEN), None);
    // The third check wins at once, even with moves left.
    assert_eq!(
        outcome::<ThreeCheck>("4k3/8/8/8/8/8/4Q3/4K3 b - - 0+3 0 1"),
        win(White, EndReason::ThirdCheck)
    );
    assert_eq!(
        outcome_after::<ThreeCheck>("4k3/8/8/8/8/8/8/R3K3 w - - 1+3 0 1", &["a1a8"]),
        win(White, EndReason::ThirdCheck)
    );
    assert_eq!(
        outcome_after::<ThreeCheck>("4k3/8/8/8/8/8/8/R3K3 w - - 2+3 0 1", &["a1a8"]),
        None
    );
    // A side to move with 0 left (only from a FEN) is over too.
    assert_eq!(
        outcome::<ThreeCheck>("4k3/8/8/8/8/8/8/4K3 w - - 0+2 0 1"),
        win(White, EndReason::ThirdCheck)
    );
    assert_eq!(
        outcome::<ThreeCheck>("4k3/8/8/8/8/8/8/4K3 w - - 2+0 0 1"),
        win(Black, EndReason::ThirdCheck)
    );
    // Lichess form: checks given.
    assert_eq!(
        outcome::<ThreeCheck>("4k3/8/8/8/8/8/8/4K3 w - - 0 1 +1+3"),
        win(Black, EndReason::ThirdCheck)
    );
    // Checkmate with checks left; stalemate draws.
    assert_eq!(
        outcome::<ThreeCheck>("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 3+2 1 3"),
        win(Black, EndReason::Checkmate)
    );
    assert_eq!(outcome::<ThreeCheck>(STALEMATE), draw(EndReason::Stalemate));
    // The counters count down and appear in the FEN.
    let before = pos::<ThreeCheck>("4k3/8/8/8/8/8/8/R3K3 w - - 0 1");
    let p = before.play_unchecked(before.parse_uci("a1a8").unwrap());
    assert_eq!(p.checks_remaining(White), 2);
    assert_eq!(p.checks_remaining(Black), 3);
    assert_eq!(p.fen(), "R3k3/8/8/8/8/8/8/4K3 b - - 2+3 1 1");
}

#[test]
fn outcomes_atomic() {
    use Color::*;
    assert_eq!(outcome::<Atomic>(<Atomic>::START_FEN), None);
    // Capturing next to the king explodes it.
    assert_eq!(
        outcome_after::<Atomic>("4k3/4q3/8/8/8/8/4R3/4K3 w - - 0 1", &["e2e7"]),
        win(White, EndReason::KingExploded)
    );
    assert_eq!(
        outcome::<Atomic>("8/8/8/8/8/8/8/4K3 b - - 0 1"),
        win(White, EndReason::KingExploded)
    );
    assert_eq!(
        outcome::<Atomic>("4k3/8/8/8/8/8/8/8 w - - 0 1"),
        win(Black, EndReason::KingExploded)
    );
    // A king cannot capture, so a queen next to it mates.
    assert_eq!(
        outcome::<Atomic>("k7/1Q6/8/8/8/8/8/7K b - - 0 1"),
        win(White, EndReason::Checkmate)
    );
    assert_eq!(
        outcome::<Atomic>("k7/8/1Q6/8/8/8/8/7K b - - 0 1"),
        draw(EndReason::Stalemate)
    );
    // Adjacent kings: no check, so the lone rook does not mate.
    assert_eq!(outcome::<Atomic>("8/8/8/3kK3/8/8/8/r7 w - - 0 1"), None);
    // A move that explodes both kings is illegal.
    let p = pos::<Atomic>("8/8/8/3kK3/3q4/8/8/3R4 w - - 0 1");
    assert!(p.parse_uci("d1d4").is_err());
}

#[test]
fn outcomes_suicide() {
    use Color::*;
    assert_eq!(outcome::<Suicide>(<Suicide>::START_FEN), None);
    // The side to move without pieces wins.
    assert_eq!(
        outcome::<Suicide>("8/8/8/8/8/8/8/4K3 b - - 0 1"),
        win(Black, EndReason::NoMoves)
    );
    // The side not to move without pieces has won.
    assert_eq!(
        outcome::<Suicide>("8/8/8/8/8/8/8/4K3 w - - 0 1"),
        win(Black, EndReason::NoMoves)
    );
    // Blocked: pieces but no moves also wins.
    assert_eq!(
        outcome::<Suicide>("8/8/8/8/8/p7/P7/8 w - - 0 1"),
        win(White, EndReason::NoMoves)
    );
    // Giving away the last piece.
    assert_eq!(
        outcome_after::<Suicide>("8/8/8/8/8/8/p7/1R6 w - - 0 1", &["b1b2"]),
        None
    );
    assert_eq!(
        outcome_after::<Suicide>("8/8/8/8/8/8/p7/1R6 b - - 0 1", &["a2b1q"]),
        win(White, EndReason::NoMoves)
    );
    // Captures are forced, even for the king; there is no check.
    let p = pos::<Suicide>("8/8/8/8/8/8/3q4/4K3 w - - 0 1");
    let moves: Vec<String> = p.legal_moves().iter().map(|m| m.uci()).collect();
    assert_eq!(moves, ["e1d2"]);
    assert!(!p.is_check());
}

#[test]
fn outcomes_losers() {
    use Color::*;
    assert_eq!(outcome::<Losers>(<Losers>::START_FEN), None);
    // Being checkmated or stalemated wins.
    assert_eq!(
        outcome::<Losers>(FOOLS_MATE),
        win(White, EndReason::Checkmate)
    );
    assert_eq!(
        outcome::<Losers>("7k/5Q1p/7P/8/8/8/8/K7 b - - 0 1"),
        win(Black, EndReason::Stalemate)
    );
    // A bare king wins, for either side; both bare: the side not to move.
    assert_eq!(
        outcome::<Losers>("8/8/8/4k3/8/8/8/R3K3 w Q - 0 1"),
        win(Black, EndReason::BareKing)
    );
    assert_eq!(
        outcome::<Losers>("8/8/8/4k3/8/8/8/R3K3 b Q - 0 1"),
        win(Black, EndReason::BareKing)
    );
    assert_eq!(
        outcome::<Losers>("4k3/8/8/8/8/8/8/4K3 w - - 0 1"),
        win(Black, EndReason::BareKing)
    );
    assert_eq!(
        outcome::<Losers>("4k3/8/8/8/8/8/8/4K3 b - - 0 1"),
        win(White, EndReason::BareKing)
    );
    // Capturing the last piece gives the opponent the win.
    assert_eq!(
        outcome_after::<Losers>("4k3/8/8/8/8/8/p7/R3K3 w Q - 0 1", &["a1a2"]),
        win(Black, EndReason::BareKing)
    );
    // The capture is forced (here it is the only legal move).
    let p = pos::<Losers>("4k3/8/8/8/8/8/p7/R3K3 w Q - 0 1");
    assert_eq!(
        p.legal_moves().iter().map(|m| m.uci()).collect::<Vec<_>>(),
        ["a1a2"]
    );
    // A capture that would leave the king in check does not oblige.
    let p = pos::<Losers>("4k3/4r3/8/8/8/3p4/4B3/4K3 w - - 0 1");
    assert!(!p.legal_moves().is_empty());
    assert!(p.legal_moves().iter().all(|&m| !p.is_capture(m)));
    assert!(!p.has_capture());
    assert!(p.parse_uci("e2d3").is_err());
}

#[test]
fn outcomes_knightmate() {
    use Color::*;
    assert_eq!(outcome::<Knightmate>(<Knightmate>::START_FEN), None);
    assert_eq!(
        outcome::<Knightmate>("4k3/8/8/8/8/1P6/2P5/K6q w - - 0 1"),
        win(Black, EndReason::Checkmate)
    );
    assert_eq!(
        outcome::<Knightmate>("4k3/8/8/8/1p6/1Pp5/2P5/K7 w - - 0 1"),
        draw(EndReason::Stalemate)
    );
    // The royal knight moves as a knight; commoners as kings.
    let p = pos::<Knightmate>("4k3/8/8/8/8/8/8/1M2K3 w - - 0 1");
    let mut moves: Vec<String> = p.legal_moves().iter().map(|m| m.uci()).collect();
    moves.sort();
    assert_eq!(
        moves,
        ["b1a1", "b1a2", "b1b2", "b1c1", "b1c2", "e1c2", "e1d3", "e1f3", "e1g2"]
    );
}

#[test]
fn outcome_display_and_scores() {
    let o = win(Color::White, EndReason::ThirdCheck).unwrap();
    assert_eq!(o.to_string(), "1-0 (third_check)");
    assert_eq!(o.white_score(), 1.0);
    let d = draw(EndReason::Repetition).unwrap();
    assert_eq!(d.result_str(), "1/2-1/2");
    assert_eq!(d.winner(), None);
}

// ---------------------------------------------------------------------------
// Game: repetition, fifty moves, insufficient material.
// ---------------------------------------------------------------------------

#[test]
fn game_threefold_repetition() {
    let mut g = Game::new(Position::<Chess>::startpos());
    let shuffle = ["g1f3", "g8f6", "f3g1", "f6g8"];
    for (i, m) in shuffle.iter().chain(shuffle.iter()).enumerate() {
        assert_eq!(g.outcome(), None, "before ply {i}");
        g.play_uci(m).unwrap();
    }
    assert_eq!(g.repetitions(), 3);
    assert_eq!(g.outcome(), draw(EndReason::Repetition));
    assert_eq!(g.moves().len(), 8);
    assert_eq!(g.position().key(), g.start().key());
    assert_eq!(g.position().halfmove_clock(), 8);
    // Twice is not enough.
    let mut g = Game::new(Position::<Chess>::startpos());
    for m in shuffle {
        g.play_uci(m).unwrap();
    }
    assert_eq!(g.repetitions(), 2);
    assert_eq!(g.outcome(), None);
}

#[test]
fn game_repetition_is_cut_by_irreversible_moves() {
    let mut g = Game::new(Position::<Chess>::startpos());
    for m in ["g1f3", "g8f6", "f3g1", "f6g8", "e2e4", "e7e5"] {
        g.play_uci(m).unwrap();
    }
    for m in ["g1f3", "g8f6", "f3g1", "f6g8"] {
        g.play_uci(m).unwrap();
    }
    assert_eq!(g.repetitions(), 2);
    assert_eq!(g.outcome(), None);
}

#[test]
fn game_fifty_moves() {
    let mut g = Game::new(pos::<Chess>("4k3/8/8/8/8/8/8/R3K3 w - - 99 80"));
    assert_eq!(g.outcome(), None);
    g.play_uci("a1a2").unwrap();
    assert_eq!(g.outcome(), draw(EndReason::FiftyMoves));
    // A checkmate on the hundredth ply still wins.
    let mut g = Game::new(pos::<Chess>("6k1/5ppp/8/8/8/8/8/R5K1 w - - 99 80"));
    g.play_uci("a1a8").unwrap();
    assert_eq!(g.outcome(), win(Color::White, EndReason::Checkmate));
    // A capture resets the clock.
    let mut g = Game::new(pos::<Chess>("4k3/8/8/8/8/8/p7/R3K3 w - - 99 80"));
    g.play_uci("a1a2").unwrap();
    assert_eq!(g.position().halfmove_clock(), 0);
    assert_eq!(g.outcome(), None);
}

#[test]
fn game_insufficient_material() {
    use VariantKind as K;
    let insufficient = draw(EndReason::InsufficientMaterial);
    // (game, FEN, whether the Game calls it a draw by insufficient material)
    let cases = [
        (K::Chess, "8/8/8/4k3/8/8/8/4K3 w - - 0 1", true),
        (K::Chess, "8/8/8/4k3/8/8/8/4KB2 w - - 0 1", true),
        (K::Chess, "8/8/8/4k3/8/8/8/4KN2 w - - 0 1", true),
        (K::Chess, "8/8/8/4k3/8/8/8/2B1KB2 w - - 0 1", false),
        // Bishops on one colour (c1 and f8 are both dark), and on both colours.
        (K::Chess, "5b2/8/8/4k3/8/8/8/2B1K3 w - - 0 1", true),
        (K::Chess, "2b5/8/8/4k3/8/8/8/2B1K3 w - - 0 1", false),
        (K::Chess, "8/8/8/4k3/8/8/8/4KNN1 w - - 0 1", false),
        (K::Chess, "8/8/8/4k3/8/8/8/4K2R w - - 0 1", false),
        (K::Chess, "8/8/8/4k3/8/8/P7/4K3 w - - 0 1", false),
        // Threecheck: only bare kings; a knight can still give checks.
        (K::ThreeCheck, "8/8/8/4k3/8/8/8/4K3 w - - 0 1", true),
        (K::ThreeCheck, "8/8/8/4k3/8/8/8/4KN2 w - - 0 1", false),
        // Atomic and knightmate: only bare royal pieces (kings never capture
        // in atomic; K is knightmate's royal knight). Any other piece plays on.
        (K::Atomic, "8/8/8/4k3/8/8/8/4K3 w - - 0 1", true),
        (K::Atomic, "8/8/8/8/8/8/3k4/4K3 b - - 0 1", true),
        (K::Atomic, "8/8/8/4k3/8/8/8/4KN2 w - - 0 1", false),
        (K::Atomic, "8/8/8/4k3/8/8/7p/4K3 w - - 0 1", false),
        (K::Knightmate, "8/8/8/4k3/8/8/8/4K3 w - - 0 1", true),
        (K::Knightmate, "8/8/8/4k3/8/8/8/4KB2 w - - 0 1", false),
        (K::Knightmate, "8/8/8/4k3/8/8/8/4KM2 w - - 0 1", false),
        // No such rule in the other games.
        (K::Suicide, "8/8/8/4k3/8/8/8/4KB2 w - - 0 1", false),
        (K::Losers, "8/8/8/4k3/8/8/8/4KB1b w - - 0 1", false),
    ];
    for (kind, fen, drawn) in cases {
        let expected = if drawn { insufficient } else { None };
        assert_eq!(game_outcome(kind, fen), expected, "{kind} {fen}");
    }
    // A position by itself has no such draw (perft plays on): only the Game says so.
    let bare = "8/8/8/4k3/8/8/8/4K3 w - - 0 1";
    assert_eq!(pos::<Atomic>(bare).outcome(), None);
    assert_eq!(pos::<Knightmate>(bare).outcome(), None);
    assert_eq!(perft(&pos::<Atomic>(bare), 1), 5);
    assert_eq!(perft(&pos::<Knightmate>(bare), 1), 2);
    // An exploded king is a win, not a draw, even with nothing else left.
    assert_eq!(
        game_outcome(K::Atomic, "8/8/8/8/8/8/8/4K3 b - - 0 1"),
        win(Color::White, EndReason::KingExploded)
    );
}

/// The outcome the `Game` of `kind` reports for `fen` before any move.
fn game_outcome(kind: VariantKind, fen: &str) -> Option<Outcome> {
    dispatch!(kind, V => Game::new(pos::<V>(fen)).outcome())
}

#[test]
fn game_rejects_illegal_moves_and_reports_rule_ends_first() {
    let mut g = Game::new(Position::<Chess>::startpos());
    assert!(g.play_uci("e2e5").is_err());
    let e4 = g.position().parse_uci("e2e4").unwrap();
    g.play(e4).unwrap();
    assert!(g.play(e4).is_err());
    assert_eq!(g.moves(), [e4]);
    // Checkmate is reported before any draw rule.
    let g = Game::new(pos::<Chess>("6k1/5ppp/8/8/8/8/8/R5K1 w - - 120 80"));
    assert_eq!(g.outcome(), draw(EndReason::FiftyMoves));
    let g = Game::new(pos::<Chess>("R5k1/5ppp/8/8/8/8/8/6K1 b - - 120 80"));
    assert_eq!(g.outcome(), win(Color::White, EndReason::Checkmate));
}

// ---------------------------------------------------------------------------
// FEN errors and special positions.
// ---------------------------------------------------------------------------

fn fen_error<V: Variant>(fen: &str) -> FenError {
    match Position::<V>::from_fen(fen) {
        Ok(p) => panic!("{} accepted {fen:?} as {}", V::KIND.name(), p.fen()),
        Err(e) => e,
    }
}

fn error_text(kind: VariantKind, fen: &str) -> String {
    dispatch!(kind, V => fen_error::<V>(fen).to_string())
}

#[test]
fn fen_errors_name_the_field() {
    let s = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR";
    assert_eq!(fen_error::<Chess>(""), FenError::Empty);
    assert_eq!(fen_error::<Chess>("   "), FenError::Empty);
    assert_eq!(
        error_text(VariantKind::Chess, &format!("{s} w KQxq - 0 1")),
        "invalid castling field \"KQxq\""
    );
    assert_eq!(
        error_text(VariantKind::Chess, &format!("{s} w KQkqK - 0 1")),
        "invalid castling field \"KQkqK\""
    );
    assert_eq!(
        error_text(VariantKind::Chess, &format!("{s} x KQkq - 0 1")),
        "invalid side to move \"x\" (expected w or b)"
    );
    assert_eq!(
        error_text(VariantKind::Chess, &format!("{s} w KQkq e9 0 1")),
        "invalid en passant field \"e9\""
    );
    assert_eq!(
        fen_error::<Chess>(&format!("{s} w KQkq e3 0 1")),
        FenError::EnPassant("e3".into())
    );
    assert!(matches!(
        fen_error::<Chess>(&format!("{s} b KQkq e3 0 1")),
        FenError::EnPassant(_)
    ));
    assert_eq!(
        error_text(VariantKind::Chess, &format!("{s} w KQkq - x 1")),
        "invalid halfmove clock \"x\""
    );
    assert_eq!(
        error_text(VariantKind::Chess, &format!("{s} w KQkq - 0 0")),
        "invalid fullmove number \"0\""
    );
    assert_eq!(
        error_text(VariantKind::Chess, &format!("{s} w KQkq - 0 1 extra")),
        "unexpected FEN field \"extra\""
    );
    // The checks field exists only in threecheck.
    assert_eq!(
        fen_error::<Chess>(&format!("{s} w KQkq - 3+3 0 1")),
        FenError::Extra("3+3".into())
    );
    assert_eq!(
        error_text(VariantKind::ThreeCheck, &format!("{s} w KQkq - 4+3 0 1")),
        "invalid remaining checks field \"4+3\""
    );
    assert!(matches!(
        fen_error::<ThreeCheck>(&format!("{s} w KQkq - 0 1 +4+0")),
        FenError::Checks(_)
    ));
    // Board errors say what is wrong.
    let board = error_text(
        VariantKind::Chess,
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w - - 0 1",
    );
    assert!(board.starts_with("invalid board field \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP\""));
    assert!(board.contains("7 ranks"), "{board}");
    let board = error_text(
        VariantKind::Chess,
        "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1",
    );
    assert!(board.contains("'9'"), "{board}");
    let board = error_text(
        VariantKind::Chess,
        "rnbqkbnr/ppppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1",
    );
    assert!(board.contains("more than 8"), "{board}");
    let board = error_text(
        VariantKind::Chess,
        "rnbqkbnr/ppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1",
    );
    assert!(board.contains("7 squares"), "{board}");
    // Variant letters: no commoners in chess, no knights in knightmate.
    let board = error_text(VariantKind::Chess, <Knightmate>::START_FEN);
    assert!(board.contains("'m' is not a piece of chess"), "{board}");
    let board = error_text(VariantKind::Knightmate, <Chess>::START_FEN);
    assert!(
        board.contains("'n' is not a piece of knightmate"),
        "{board}"
    );
    let board = error_text(
        VariantKind::Chess,
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w - - 0 1",
    );
    assert!(board.contains("'X'"), "{board}");
}

#[test]
fn impossible_positions_are_rejected_with_a_reason() {
    let cases: &[(VariantKind, &str, &str)] = &[
        (
            VariantKind::Chess,
            "4k3/8/8/8/8/8/8/3KK3 w - - 0 1",
            "white has 2 kings",
        ),
        (
            VariantKind::Chess,
            "4k3/8/8/8/8/8/8/8 w - - 0 1",
            "white has no king",
        ),
        (
            VariantKind::Losers,
            "8/8/8/8/8/8/8/4K3 w - - 0 1",
            "black has no king",
        ),
        (
            VariantKind::Knightmate,
            "4k3/8/8/8/8/8/8/3KK3 w - - 0 1",
            "white has 2 royal knights",
        ),
        (
            VariantKind::Chess,
            "P3k3/8/8/8/8/8/8/4K3 w - - 0 1",
            "pawn on the first or last rank",
        ),
        (
            VariantKind::Suicide,
            "8/8/8/8/8/8/8/p3K3 w - - 0 1",
            "pawn on the first or last rank",
        ),
        (VariantKind::Chess, "4k3/8/8/8/8/8/8/4K2R b - - 0 1", ""),
        (VariantKind::Chess, "4k3/8/8/8/8/8/8/R3K3 w - - 0 1", ""),
        (
            VariantKind::Chess,
            "4k3/8/8/8/8/8/8/4R1K1 w - - 0 1",
            "the side not to move is in check",
        ),
        (
            VariantKind::ThreeCheck,
            "4k3/8/8/8/8/8/8/4R1K1 w - - 3+3 0 1",
            "the side not to move is in check",
        ),
        (
            VariantKind::Knightmate,
            "4k3/8/3K4/8/8/8/8/8 w - - 0 1",
            "the side not to move is in check",
        ),
        (
            VariantKind::Atomic,
            "4k3/8/8/8/8/8/8/4R1K1 w - - 0 1",
            "the side not to move is in check",
        ),
        (
            VariantKind::Atomic,
            "8/8/8/8/8/8/8/8 w - - 0 1",
            "both kings are missing",
        ),
        (
            VariantKind::Chess,
            "4k3/8/8/8/8/8/8/4K3 w K - 0 1",
            "castling right K without a king on e1 and a rook on h1",
        ),
        (
            VariantKind::Chess,
            "QQQQk3/QQQQ4/QQ6/8/8/8/8/4K3 b - - 0 1",
            "white has more pieces than promotions allow",
        ),
    ];
    for &(kind, fen, reason) in cases {
        if reason.is_empty() {
            // Valid: a check on the side to move, a rook without rights.
            dispatch!(kind, V => {
                let _ = pos::<V>(fen);
            });
            continue;
        }
        let text = error_text(kind, fen);
        assert_eq!(
            text,
            format!("impossible position: {reason}"),
            "{kind:?} {fen}"
        );
    }
    // Atomic: kings side by side are no check, so this loads.
    pos::<Atomic>("8/8/8/8/8/8/8/3Kk2R w - - 0 1");
    // Suicide: any number of kings, or none; no check.
    pos::<Suicide>("8/8/8/8/8/8/8/K2KK2R w - - 0 1");
    pos::<Suicide>("8/8/8/8/8/8/8/R6r w - - 0 1");
    pos::<Suicide>("4k3/8/8/8/8/8/8/4R1K1 w - - 0 1");
}

#[test]
fn finished_games_load_and_have_no_moves() {
    let finished: &[(VariantKind, &str)] = &[
        (
            VariantKind::Atomic,
            "rnbq1bnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQ - 0 1",
        ),
        (VariantKind::Atomic, "8/8/8/8/8/8/8/4K3 w - - 0 1"),
        (VariantKind::Losers, "8/8/8/4k3/8/8/8/R3K3 w Q - 0 1"),
        (VariantKind::Losers, "4k3/8/8/8/8/8/8/4K3 b - - 0 1"),
        (
            VariantKind::ThreeCheck,
            "4k3/8/8/8/8/8/4Q3/4K3 b - - 0+3 0 1",
        ),
        (
            VariantKind::ThreeCheck,
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 3+0 0 1",
        ),
        (
            VariantKind::ThreeCheck,
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 +3+0",
        ),
        (VariantKind::Suicide, "8/8/8/8/8/8/8/4K3 w - - 0 1"),
    ];
    for &(kind, fen) in finished {
        dispatch!(kind, V => {
            let p = pos::<V>(fen);
            assert!(p.legal_moves().is_empty(), "{kind:?} {fen}");
            assert_eq!(p.count_legal(), 0, "{kind:?} {fen}");
            assert!(!p.has_capture(), "{kind:?} {fen}");
            assert!(p.legal_captures().is_empty(), "{kind:?} {fen}");
            assert!(p.is_over_by_rule(), "{kind:?} {fen}");
            assert!(p.outcome().is_some(), "{kind:?} {fen}");
            assert_eq!(perft(&p, 1), 0);
            // And round-trips.
            assert_eq!(Position::<V>::from_fen(&p.fen()), Ok(p));
        });
    }
    // A threecheck counter of 0 on a side that has not won: over by rule, and
    // the checks field appears in the FEN.
    let p = pos::<ThreeCheck>("4k3/8/8/8/8/8/8/4K3 w - - 0 1 +3+0");
    assert_eq!(p.fen(), "4k3/8/8/8/8/8/8/4K3 w - - 0+3 0 1");
}

#[test]
fn fen_defaults_and_normalisation() {
    // Missing trailing fields default to "w - - 0 1".
    let p = pos::<Chess>("4k3/8/8/8/8/8/8/4K3");
    assert_eq!(p.fen(), "4k3/8/8/8/8/8/8/4K3 w - - 0 1");
    // Threecheck without a checks field means 3+3.
    let p = pos::<ThreeCheck>(<Chess>::START_FEN);
    assert_eq!(p.fen(), <ThreeCheck>::START_FEN);
    assert_eq!(p, Position::<ThreeCheck>::startpos());
    // An en-passant square no pawn can use is dropped.
    let p = pos::<Chess>("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1");
    assert_eq!(p.ep_square(), None);
    assert_eq!(
        p.fen(),
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
    );
    // ...and kept when one can.
    let fen = "rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1";
    assert_eq!(pos::<Chess>(fen).fen(), fen);
    // Knightmate writes K and M.
    assert_eq!(
        Position::<Knightmate>::startpos().fen(),
        <Knightmate>::START_FEN
    );
    // Variant names and aliases.
    assert_eq!("giveaway".parse::<VariantKind>(), Ok(VariantKind::Suicide));
    assert_eq!("3check".parse::<VariantKind>(), Ok(VariantKind::ThreeCheck));
    assert_eq!("Standard".parse::<VariantKind>(), Ok(VariantKind::Chess));
    assert!("antichess".parse::<VariantKind>().is_err());
}
