//! Shared code for the varia-vs-shakmaty perft comparisons: the position
//! table used by both the criterion benches (`benches/perft.rs`) and the
//! `perft_ratio` tool (`src/bin/perft_ratio.rs`), and closures that run one
//! library's perft on an already-parsed position.
//!
//! shakmaty is a dependency of this package only (publish = false); the
//! `movegen` and `cli` crates never see it.

use movegen::{Position, VariantKind};
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, FromSetup};

/// The shakmaty game a varia position is compared against.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Peer {
    /// `shakmaty::Chess`.
    Chess,
    /// `shakmaty::variant::Antichess` (giveaway without castling).
    Antichess,
    /// `shakmaty::variant::ThreeCheck`.
    ThreeCheck,
    /// `shakmaty::variant::Atomic`.
    Atomic,
}

impl Peer {
    /// shakmaty's name of the game.
    pub const fn name(self) -> &'static str {
        match self {
            Peer::Chess => "Chess",
            Peer::Antichess => "Antichess",
            Peer::ThreeCheck => "ThreeCheck",
            Peer::Atomic => "Atomic",
        }
    }
}

/// One benchmark position.
#[derive(Clone, Copy, Debug)]
pub struct Case {
    /// Short identifier, used as the criterion group name.
    pub id: &'static str,
    /// The varia game.
    pub kind: VariantKind,
    /// FEN, read by both libraries.
    pub fen: &'static str,
    /// The shakmaty game playing the same rules from this FEN, if any.
    pub peer: Option<Peer>,
    /// Depth used by the criterion bench.
    pub bench_depth: u32,
}

/// Standard start position.
pub const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
/// Kiwipete (chessprogramming perft position 2).
pub const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
/// chessprogramming perft position 3 (rook endgame, en passant pins).
pub const CPW3: &str = "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1";
/// chessprogramming perft position 4 (promotions, castling under attack).
pub const CPW4: &str = "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1";
/// chessprogramming perft position 5.
pub const CPW5: &str = "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8";
/// Start position without castling rights: suicide played as lichess
/// antichess (no castling), so it can be compared with shakmaty.
pub const START_NO_CASTLING: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1";
/// Three-check start position, with the check counters.
pub const THREECHECK_START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 3+3 0 1";
/// Knightmate start position.
pub const KNIGHTMATE_START: &str = "rmbqkbmr/pppppppp/8/8/8/8/PPPPPPPP/RMBQKBMR w KQkq - 0 1";

/// The positions the criterion bench measures, in report order.
pub const BENCH_CASES: &[Case] = &[
    Case {
        id: "chess-start",
        kind: VariantKind::Chess,
        fen: START,
        peer: Some(Peer::Chess),
        bench_depth: 5,
    },
    Case {
        id: "chess-kiwipete",
        kind: VariantKind::Chess,
        fen: KIWIPETE,
        peer: Some(Peer::Chess),
        bench_depth: 4,
    },
    Case {
        id: "chess-cpw3",
        kind: VariantKind::Chess,
        fen: CPW3,
        peer: Some(Peer::Chess),
        bench_depth: 5,
    },
    Case {
        id: "chess-cpw4",
        kind: VariantKind::Chess,
        fen: CPW4,
        peer: Some(Peer::Chess),
        bench_depth: 4,
    },
    Case {
        id: "chess-cpw5",
        kind: VariantKind::Chess,
        fen: CPW5,
        peer: Some(Peer::Chess),
        bench_depth: 4,
    },
    Case {
        id: "atomic-start",
        kind: VariantKind::Atomic,
        fen: START,
        peer: Some(Peer::Atomic),
        bench_depth: 5,
    },
    Case {
        id: "suicide-start-nocastle",
        kind: VariantKind::Suicide,
        fen: START_NO_CASTLING,
        peer: Some(Peer::Antichess),
        bench_depth: 5,
    },
    Case {
        id: "suicide-start",
        kind: VariantKind::Suicide,
        fen: START,
        peer: None,
        bench_depth: 5,
    },
    Case {
        id: "threecheck-start",
        kind: VariantKind::ThreeCheck,
        fen: THREECHECK_START,
        peer: Some(Peer::ThreeCheck),
        bench_depth: 5,
    },
    Case {
        id: "losers-start",
        kind: VariantKind::Losers,
        fen: START,
        peer: None,
        bench_depth: 5,
    },
    Case {
        id: "knightmate-start",
        kind: VariantKind::Knightmate,
        fen: KNIGHTMATE_START,
        peer: None,
        bench_depth: 5,
    },
];

/// A perft function bound to one parsed position: `run(depth)` returns the
/// node count. The position is parsed once, outside any timing; the boxed
/// call costs one indirect call per perft, the recursion itself is the
/// library's own monomorphised code.
pub type PerftFn = Box<dyn Fn(u32) -> u64>;

/// varia perft on `fen` played as `kind`, with the slider lookup
/// [`movegen::dispatch!`] picks.
///
/// # Panics
/// If varia rejects the FEN.
pub fn varia_perft(kind: VariantKind, fen: &'static str) -> PerftFn {
    fn bind<V: movegen::Variant>(fen: &str) -> PerftFn {
        let pos = Position::<V>::from_fen(fen)
            .unwrap_or_else(|e| panic!("varia rejects {fen:?} as {:?}: {e}", V::KIND));
        Box::new(move |depth| movegen::perft(&pos, depth))
    }
    // The slider lookup this process chose, as the engine's edges pick it.
    movegen::dispatch!(kind, V => bind::<V>(fen))
}

/// shakmaty perft on `fen` played as `peer`.
///
/// # Panics
/// If shakmaty rejects the FEN.
pub fn shakmaty_perft(peer: Peer, fen: &'static str) -> PerftFn {
    fn bind<P: FromSetup + shakmaty::Position + Clone + 'static>(fen: &str, name: &str) -> PerftFn {
        let parsed: Fen = fen
            .parse()
            .unwrap_or_else(|e| panic!("shakmaty cannot parse {fen:?}: {e}"));
        let pos: P = parsed
            .into_position(CastlingMode::Standard)
            .unwrap_or_else(|e| panic!("shakmaty rejects {fen:?} as {name}: {e}"));
        Box::new(move |depth| shakmaty::perft(&pos, depth))
    }
    match peer {
        Peer::Chess => bind::<shakmaty::Chess>(fen, peer.name()),
        Peer::Antichess => bind::<shakmaty::variant::Antichess>(fen, peer.name()),
        Peer::ThreeCheck => bind::<shakmaty::variant::ThreeCheck>(fen, peer.name()),
        Peer::Atomic => bind::<shakmaty::variant::Atomic>(fen, peer.name()),
    }
}

/// Checks that both libraries count the same nodes; panics loudly otherwise.
pub fn assert_same_nodes(what: &str, depth: u32, varia: u64, shakmaty: u64) {
    assert!(
        varia == shakmaty,
        "NODE COUNT MISMATCH on {what} depth {depth}: varia {varia}, shakmaty {shakmaty} \
         (the two libraries do not play the same game from this position; timings would be meaningless)"
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every bench position parses in varia and, where there is a peer, in
    /// shakmaty, and both count the same nodes at a shallow depth.
    #[test]
    fn bench_cases_parse_and_agree() {
        for case in BENCH_CASES {
            let nodes = varia_perft(case.kind, case.fen)(3);
            assert!(nodes > 0, "{}", case.id);
            if let Some(peer) = case.peer {
                assert_same_nodes(case.id, 3, nodes, shakmaty_perft(peer, case.fen)(3));
            }
        }
    }

    /// Published counts for the standard-chess positions.
    #[test]
    fn published_counts() {
        let known = [(START, 3, 8_902), (KIWIPETE, 3, 97_862), (CPW3, 4, 43_238)];
        for (fen, depth, nodes) in known {
            assert_eq!(varia_perft(VariantKind::Chess, fen)(depth), nodes, "{fen}");
        }
        assert_eq!(varia_perft(VariantKind::Chess, CPW4)(3), 9_467);
        assert_eq!(varia_perft(VariantKind::Chess, CPW5)(3), 62_379);
    }
}
