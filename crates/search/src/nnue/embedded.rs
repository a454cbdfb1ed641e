//! The nets built into the binary: each game's default evaluation once a
//! net of it has beaten the classical evaluation by SPRT at a time control
//! (issue 53's rule), else none and the game plays classical.
//!
//! A net is embedded as its file's bytes (`include_bytes!` of the net kept
//! with its manifest under `data/nnue/`, so the binary plays exactly the
//! file whose training and SPRT the manifest records) and parsed once per
//! process, the first time a front end asks for it; every player and thread
//! then shares the one [`Network`]. The parse cannot fail for a good build:
//! a test reads every embedded net.

use super::Network;
use movegen::VariantKind;
use std::sync::{Arc, OnceLock};

/// An embedded net: its game, its name (the manifest's directory under
/// `data/nnue/`) and its file's bytes.
pub struct EmbeddedNet {
    /// The game it evaluates.
    pub game: VariantKind,
    /// Its name, as in `data/nnue/NAME/NAME.nnue`.
    pub name: &'static str,
    /// The net file.
    pub bytes: &'static [u8],
}

/// Every embedded net, one a game at most. chess-net8m: H = 128 SCReLU on
/// 1.44M positions of chess-s1, H1 against the classical evaluation at
/// 5+0.05 (+122 [55, 200], data/sprt/log.csv).
pub const EMBEDDED: &[EmbeddedNet] = &[EmbeddedNet {
    game: VariantKind::Chess,
    name: "chess-net8m",
    bytes: include_bytes!("../../../../data/nnue/chess-net8m/chess-net8m.nnue"),
}];

/// The embedded net of `game`, parsed on first use, or `None` if the game
/// has none.
pub fn net_for(game: VariantKind) -> Option<Arc<Network>> {
    static PARSED: [OnceLock<Option<Arc<Network>>>; VariantKind::ALL.len()] =
        [const { OnceLock::new() }; VariantKind::ALL.len()];
    let slot = VariantKind::ALL.iter().position(|&k| k == game)?;
    PARSED[slot]
        .get_or_init(|| {
            let net = EMBEDDED.iter().find(|n| n.game == game)?;
            let parsed = Network::from_bytes(net.bytes, net.name, game)
                .unwrap_or_else(|e| panic!("the embedded net {} does not parse: {e}", net.name));
            Some(Arc::new(parsed))
        })
        .clone()
}

/// The name of `game`'s embedded net, if it has one.
pub fn name_for(game: VariantKind) -> Option<&'static str> {
    EMBEDDED.iter().find(|n| n.game == game).map(|n| n.name)
}

#[cfg(test)]
mod tests {
    use super::*;
    use movegen::variants::Chess;
    use movegen::Position;

    #[test]
    fn every_embedded_net_parses_for_its_game_and_is_one_a_game() {
        for (i, net) in EMBEDDED.iter().enumerate() {
            let parsed = net_for(net.game).expect("embedded");
            assert_eq!(parsed.game(), net.game);
            assert_eq!(parsed.to_bytes(), net.bytes, "{}", net.name);
            assert_eq!(name_for(net.game), Some(net.name));
            assert!(
                EMBEDDED[..i].iter().all(|n| n.game != net.game),
                "two nets for {}",
                net.game
            );
        }
        let without = VariantKind::ALL
            .into_iter()
            .filter(|&k| EMBEDDED.iter().all(|n| n.game != k));
        for kind in without {
            assert!(net_for(kind).is_none() && name_for(kind).is_none());
        }
    }

    #[test]
    fn the_chess_net_sees_the_start_as_level_and_a_queen_up_as_won() {
        let net = net_for(VariantKind::Chess).expect("chess has a net");
        let start = Position::<Chess>::startpos();
        let level = net.evaluate_position(&start);
        assert!(level.abs() < 100, "start position: {level}");
        // Black's queen removed: White, to move, is a queen up.
        let up =
            Position::<Chess>::from_fen("rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
                .expect("legal");
        let won = net.evaluate_position(&up);
        assert!(won > 400, "a queen up: {won}");
    }
}
