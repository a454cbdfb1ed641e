//! The bench: a fixed set of positions per game searched to a fixed depth.
//! It measures speed and, with one thread, its node counts are the search's
//! signature: any change to the search or the evaluation changes them.
//! `data/bench.txt` holds the expected counts at [`SIGNATURE_DEPTH`]
//! (written by `varia bench --signature`) and the CLI's tests check them.
//!
//! It lives in the engine rather than the CLI so that both `varia bench`
//! and the UCI loop's `bench` command (as Viridithas and Carp answer it) run
//! the same positions and print the same [`Signature`].
//!
//! Every position gets a fresh transposition table, so positions do not
//! influence each other and a one-thread run is deterministic.

use crate::{search, Evaluator, Limits, SearchParams, Shared};
use movegen::{dispatch, FenError, Move, Position, Variant, VariantKind};
use std::fmt;
use std::time::{Duration, Instant};

/// Depth searched when none is asked for (the whole bench takes some seconds
/// in a release build).
pub const DEFAULT_DEPTH: u32 = 10;
/// Depth of the signature in `data/bench.txt` (quick enough for the tests).
pub const SIGNATURE_DEPTH: u32 = 7;
/// Deepest bench accepted.
pub const MAX_DEPTH: u32 = 64;
/// Transposition table of each position, in MB (part of the signature).
pub const HASH_MB: usize = 16;

/// The positions of each game: the start position first, then middlegames
/// and endgames.
pub fn positions(kind: VariantKind) -> &'static [&'static str] {
    match kind {
        VariantKind::Chess => &[
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
            "r3k2r/2pb1ppp/2pp1q2/p7/1nP1B3/1P2P3/P2N1PPP/R2QK2R w KQkq a6 0 14",
            "4rrk1/2p1b1p1/p1p3q1/4p3/2P2n1p/1P1NR2P/PB3PP1/3R1QK1 b - - 2 24",
            "6k1/6p1/6Pp/ppp5/3pn2P/1P3K2/1PP2P2/3N4 b - - 0 1",
            "8/8/1p2k3/p3p3/P2nP3/2P3K1/8/5B2 w - - 0 40",
            "8/3k4/8/8/3PK3/8/8/8 w - - 0 1",
        ],
        VariantKind::Suicide => &[
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "rnbqkbnr/p1pppppp/8/1p6/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2",
            "rn1qkbnr/p1pppppp/8/8/8/8/PPPP1PPP/RNB1K1NR w KQkq - 0 4",
            "r1b1kb1r/p1p2ppp/2n2n2/8/8/2N5/PP3PPP/R1B1KBNR b KQkq - 1 7",
            "4k3/p1p3pp/8/3p4/8/8/PP4PP/RN2K3 w Q - 0 14",
            "8/1p6/8/8/8/8/6P1/4K3 w - - 0 30",
            "8/8/8/8/8/2k5/8/R6N w - - 0 40",
        ],
        VariantKind::ThreeCheck => &[
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 3+3 0 1",
            "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5Q2/PPPP1PPP/RNB1K1NR b KQkq - 3+3 3 3",
            "r1bqk2r/pppp1ppp/2n2n2/2b1p3/2B1P3/2N2N2/PPPP1PPP/R1BQK2R w KQkq - 2+3 4 5",
            "rnb1kbnr/pppp1ppp/8/4p3/4P2q/8/PPPPKPPP/RNBQ1BNR w kq - 3+2 2 3",
            "r3k2r/ppp2ppp/2n1bn2/3qp3/8/2NP1N2/PPP1QPPP/R1B1K2R w KQkq - 2+2 0 9",
            "8/5k2/8/8/8/8/3Q4/4K3 w - - 1+2 0 40",
            "6k1/5pp1/8/8/8/8/1R3PP1/6K1 b - - 2+3 0 35",
        ],
        VariantKind::Atomic => &[
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "rnbqkb1r/pppppppp/5n2/8/8/5N2/PPPPPPPP/RNBQKB1R w KQkq - 2 2",
            "r1bqkb1r/pppp1ppp/2n2n2/4p3/4P3/2N2N2/PPPP1PPP/R1BQKB1R w KQkq - 4 4",
            "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 2",
            "r3k2r/ppp2ppp/2n1bn2/3p4/3P4/2N1BN2/PPP2PPP/R3K2R b KQkq - 3 9",
            "8/8/3k4/8/8/2QK4/8/8 w - - 0 1",
            "8/2k5/8/3PK3/8/8/5r2/8 w - - 0 1",
        ],
        VariantKind::Losers => &[
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2",
            "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
            "r3k2r/ppp2ppp/2n5/3p4/3P4/2N5/PPP2PPP/R3K2R w KQkq - 0 12",
            "8/8/4k3/8/2p5/8/3K2P1/8 w - - 0 1",
            "4k3/8/8/8/8/8/1q6/R3K3 w Q - 0 1",
            "8/pp4k1/8/8/8/8/5PPP/6K1 b - - 0 30",
        ],
        VariantKind::Knightmate => &[
            "rmbqkbmr/pppppppp/8/8/8/8/PPPPPPPP/RMBQKBMR w KQkq - 0 1",
            "rmbqkbmr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RMBQKBMR w KQkq - 0 2",
            "r1bqkb1r/pppp1ppp/2m2m2/4p3/4P3/2M2M2/PPPP1PPP/R1BQKB1R w KQkq - 4 4",
            "r2qk2r/ppp2ppp/2mbbm2/3pp3/3PP3/2MBBM2/PPP2PPP/R2QK2R w KQkq - 2 8",
            "8/8/4k3/8/8/3MK3/8/R7 w - - 0 1",
            "8/5k2/3m4/8/8/2B5/4K3/8 b - - 0 50",
            "4k3/pp3ppp/8/8/8/8/PP3PPP/4K2R w K - 0 25",
        ],
    }
}

/// One bench position searched.
#[derive(Clone, Debug)]
pub struct PositionBench {
    /// The game.
    pub kind: VariantKind,
    /// Its number among the game's positions, from 1.
    pub number: usize,
    /// How many positions the game has.
    pub of: usize,
    /// Nodes searched.
    pub nodes: u64,
    /// Wall time of the search.
    pub time: Duration,
    /// The move found.
    pub best: Option<Move>,
    /// Its score, from the side to move's view.
    pub score: i32,
}

/// One game's bench: the sum over its positions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameBench {
    /// The game.
    pub kind: VariantKind,
    /// Nodes searched.
    pub nodes: u64,
    /// Wall time of the searches.
    pub time: Duration,
}

/// A bench position that does not parse (a mistake in [`positions`]).
#[derive(Debug, thiserror::Error)]
#[error("bench position {number} of {kind}: {fen}: {source}")]
pub struct BenchError {
    /// The game.
    pub kind: VariantKind,
    /// The position's number, from 1.
    pub number: usize,
    /// Its FEN.
    pub fen: &'static str,
    /// Why it does not parse.
    #[source]
    pub source: FenError,
}

/// How a bench searches each position: to `depth` with `threads` threads
/// and a fresh table of `hash_mb` MB.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BenchRun {
    /// Depth searched, in plies.
    pub depth: u32,
    /// Search threads.
    pub threads: usize,
    /// Table size of each position, in MB.
    pub hash_mb: usize,
}

/// Searches every bench position of the game of `evaluator` (the built-in
/// [`Evaluator::default_for`] the game for the signature) as `run` says;
/// `on_position` sees each search.
pub fn run_game(
    evaluator: &Evaluator,
    run: BenchRun,
    on_position: &mut dyn FnMut(&PositionBench),
) -> Result<GameBench, BenchError> {
    dispatch!(evaluator.variant(), V => run_variant::<V>(evaluator, run, on_position))
}

fn run_variant<V: Variant>(
    evaluator: &Evaluator,
    run: BenchRun,
    on_position: &mut dyn FnMut(&PositionBench),
) -> Result<GameBench, BenchError> {
    let BenchRun {
        depth,
        threads,
        hash_mb,
    } = run;
    let settings = SearchParams::default_for(V::KIND);
    let fens = positions(V::KIND);
    let mut total = GameBench {
        kind: V::KIND,
        nodes: 0,
        time: Duration::ZERO,
    };
    for (i, &fen) in fens.iter().enumerate() {
        let pos = Position::<V>::from_fen(fen).map_err(|source| BenchError {
            kind: V::KIND,
            number: i + 1,
            fen,
            source,
        })?;
        let shared = Shared::new(hash_mb);
        let start = Instant::now();
        let r = search(
            &pos,
            &[],
            &Limits::depth(depth),
            evaluator,
            &settings,
            &shared,
            threads,
            &mut |_| {},
        );
        let time = start.elapsed();
        total.nodes += r.nodes;
        total.time += time;
        on_position(&PositionBench {
            kind: V::KIND,
            number: i + 1,
            of: fens.len(),
            nodes: r.nodes,
            time,
            best: r.best,
            score: r.score,
        });
    }
    Ok(total)
}

/// The search's signature: node counts per game of a one-thread bench at
/// `depth` with `hash_mb` MB tables. Displayed, it is the text of
/// `data/bench.txt`: three comment lines, `depth D`, one `GAME NODES` line
/// per game and `total NODES`, each ending in a newline.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Signature {
    /// Depth searched.
    pub depth: u32,
    /// Table size of each position, in MB.
    pub hash_mb: usize,
    /// Nodes per game, in bench order.
    pub games: Vec<(VariantKind, u64)>,
}

impl Signature {
    /// Runs the one-thread bench of every game at `depth` with [`HASH_MB`]
    /// tables.
    pub fn measure(depth: u32) -> Result<Signature, BenchError> {
        let mut games = Vec::new();
        for kind in VariantKind::ALL {
            let run = BenchRun {
                depth,
                threads: 1,
                hash_mb: HASH_MB,
            };
            let g = run_game(&Evaluator::default_for(kind), run, &mut |_| {})?;
            games.push((kind, g.nodes));
        }
        Ok(Signature {
            depth,
            hash_mb: HASH_MB,
            games,
        })
    }

    /// Nodes of all games.
    pub fn total(&self) -> u64 {
        self.games.iter().map(|g| g.1).sum()
    }
}

impl fmt::Display for Signature {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let depth = self.depth;
        writeln!(
            f,
            "# varia bench signature: node counts of `varia bench --depth {depth}` (one thread, {} MB table).",
            self.hash_mb
        )?;
        writeln!(
            f,
            "# Any change to the search or evaluation changes them: regenerate with"
        )?;
        writeln!(
            f,
            "# `make bench-signature` and commit this file with the change."
        )?;
        writeln!(f, "depth {depth}")?;
        for (kind, nodes) in &self.games {
            writeln!(f, "{} {nodes}", kind.name())?;
        }
        writeln!(f, "total {}", self.total())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_bench_position_is_valid_and_playable() {
        for kind in VariantKind::ALL {
            let fens = positions(kind);
            assert!(fens.len() >= 6, "{kind}");
            dispatch!(kind, V => {
                assert_eq!(fens[0], Position::<V>::startpos().fen(), "{kind}");
                for fen in fens {
                    let pos = Position::<V>::from_fen(fen)
                        .unwrap_or_else(|e| panic!("{kind} {fen}: {e}"));
                    assert!(pos.outcome().is_none(), "{kind} {fen} is over");
                }
            });
        }
    }

    #[test]
    fn signature_text_is_the_format_of_data_bench_txt() {
        let s = Signature {
            depth: 3,
            hash_mb: 16,
            games: vec![(VariantKind::Chess, 10), (VariantKind::Atomic, 5)],
        };
        let text = s.to_string();
        let body: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
        assert_eq!(body, ["depth 3", "chess 10", "atomic 5", "total 15"]);
        assert!(text.starts_with("# varia bench signature: node counts of `varia bench --depth 3` (one thread, 16 MB table).\n"));
        assert!(text.ends_with('\n'));
    }
}
