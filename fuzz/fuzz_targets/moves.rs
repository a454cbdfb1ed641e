//! Arbitrary text as a move in one of a fixed list of positions: the first
//! byte picks the position, the rest is parsed as UCI and as SAN. A move that
//! parses must be legal and must play.

#![no_main]

use libfuzzer_sys::fuzz_target;
use movegen::{dispatch, Position, Variant, VariantKind};

/// Positions with castling, en passant, promotions, ambiguity, pins and the
/// variant pieces.
const POSITIONS: &[(VariantKind, &str)] = &[
    (
        VariantKind::Chess,
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    ),
    (
        VariantKind::Chess,
        "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
    ),
    (VariantKind::Chess, "6k1/8/8/8/4Q2Q/8/8/K6Q w - - 0 1"),
    (VariantKind::Chess, "3r4/4P3/8/8/8/8/8/K6k w - - 0 1"),
    (VariantKind::Suicide, "8/P7/8/8/8/8/8/7k w - - 0 1"),
    (VariantKind::Suicide, "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"),
    (
        VariantKind::ThreeCheck,
        "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 1+1 0 1",
    ),
    (VariantKind::Atomic, "8/8/8/3kK3/3q4/8/8/3R4 w - - 0 1"),
    (
        VariantKind::Atomic,
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    ),
    (VariantKind::Losers, "4k3/8/8/8/8/8/p7/R3K3 w Q - 0 1"),
    (
        VariantKind::Knightmate,
        "rmbqkbmr/pppppppp/8/8/8/8/PPPPPPPP/RMBQK2R w KQkq - 0 1",
    ),
    (VariantKind::Knightmate, "4k3/1P6/8/8/8/8/8/1M2K3 w - - 0 1"),
];

fn check<V: Variant>(fen: &str, text: &str) {
    let pos = Position::<V>::from_fen(fen).expect("fixed positions are valid");
    let legal = pos.legal_moves();
    if let Ok(m) = pos.parse_uci(text) {
        assert!(
            legal.contains(&m),
            "parse_uci({text:?}) = {m}, not legal in {fen}"
        );
        assert_eq!(pos.parse_uci(&m.uci()), Ok(m));
        let _ = pos.play_unchecked(m);
    }
    if let Ok(m) = pos.parse_san(text) {
        assert!(
            legal.contains(&m),
            "parse_san({text:?}) = {m}, not legal in {fen}"
        );
        assert_eq!(pos.parse_san(&pos.san(m)), Ok(m));
        let _ = pos.play_unchecked(m);
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&first, rest)) = data.split_first() else {
        return;
    };
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    let (kind, fen) = POSITIONS[first as usize % POSITIONS.len()];
    dispatch!(kind, V => check::<V>(fen, text));
});
