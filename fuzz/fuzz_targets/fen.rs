//! Arbitrary text as a FEN of every game. Parsing must never panic; a FEN
//! that parses must write a FEN that parses back to the same position, and
//! generating and playing every legal move must not panic.

#![no_main]

use libfuzzer_sys::fuzz_target;
use movegen::{dispatch, Position, Variant, VariantKind};

fn check<V: Variant>(text: &str) {
    let Ok(pos) = Position::<V>::from_fen(text) else {
        return;
    };
    let fen = pos.fen();
    let again = Position::<V>::from_fen(&fen)
        .unwrap_or_else(|e| panic!("{text:?} parsed but its FEN {fen:?} does not: {e}"));
    assert_eq!(again, pos, "{text:?}");
    assert_eq!(again.fen(), fen, "{text:?}");
    assert_eq!(pos.key(), pos.compute_key());
    let moves = pos.legal_moves();
    assert_eq!(pos.count_legal(), moves.len() as u64);
    assert_eq!(pos.has_legal_move(), !moves.is_empty());
    let _ = pos.outcome();
    let _ = pos.has_capture();
    if pos.halfmove_clock() == u32::MAX || pos.fullmove_number() == u32::MAX {
        // Known bug (crates/movegen/tests/parser_random.rs, `huge_clocks`):
        // playing a move then overflows the clock. Skipped so that fuzzing
        // with debug assertions (`-a`) can find anything else.
        return;
    }
    for &m in moves.iter() {
        assert_eq!(pos.parse_uci(&m.uci()), Ok(m));
        let san = pos.san(m);
        assert_eq!(pos.parse_san(&san), Ok(m), "{fen} {san}");
        let next = pos.play_unchecked(m);
        assert_eq!(next.key(), next.compute_key(), "{fen} {m}");
        let _ = next.count_legal();
        let _ = next.outcome();
    }
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    for kind in VariantKind::ALL {
        dispatch!(kind, V => check::<V>(text));
    }
});
