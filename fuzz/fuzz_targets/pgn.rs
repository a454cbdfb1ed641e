//! Arbitrary text as a PGN file of one of the six games: the first byte
//! picks the game, the rest is read by `arena::pgn::read_games`. Reading may
//! refuse the text, never panic; every game it accepts must replay from its
//! start FEN, move by move, under the same game's rules.

#![no_main]

use arena::pgn::read_games;
use libfuzzer_sys::fuzz_target;
use movegen::{VariantGame, VariantKind};

fuzz_target!(|data: &[u8]| {
    let Some((&first, rest)) = data.split_first() else {
        return;
    };
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    let kind = VariantKind::ALL[first as usize % VariantKind::ALL.len()];
    let Ok(games) = read_games(text, kind) else {
        return;
    };
    for game in games {
        let mut board = VariantGame::from_fen(kind, &game.start_fen)
            .expect("an accepted game has a valid start");
        for m in &game.moves {
            board
                .play_uci(m)
                .unwrap_or_else(|e| panic!("accepted move {m} does not replay: {e}"));
        }
    }
});
