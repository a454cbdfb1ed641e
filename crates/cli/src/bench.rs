//! `varia bench`: a fixed set of positions per variant searched to a fixed
//! depth. It measures speed (`N nodes M nps` at the end) and, with one
//! thread, its node counts are the search's signature: any change to the
//! search or the evaluation changes them. `data/bench.txt` holds the expected
//! counts at [`SIGNATURE_DEPTH`] (written by `make bench-signature`, i.e.
//! `varia bench --signature`), and `crates/cli/tests/cli_bench.rs` checks
//! them.
//!
//! Every position gets a fresh transposition table, so positions do not
//! influence each other and a one-thread run is deterministic.

use anyhow::{bail, Context as _};
use movegen::{dispatch, Position, Variant, VariantKind};
use search::{search, EvalParams, Limits, Shared};
use std::io::Write as _;
use std::process::ExitCode;
use std::time::{Duration, Instant};

/// Depth searched when `--depth` is not given (the whole bench takes some
/// seconds in a release build).
pub const DEFAULT_DEPTH: u32 = 10;
/// Depth of the signature in `data/bench.txt` (quick enough for the tests).
pub const SIGNATURE_DEPTH: u32 = 7;
/// Deepest `--depth` accepted.
pub const MAX_DEPTH: u32 = 64;

/// Arguments of `varia bench`.
#[derive(clap::Args, Debug)]
#[command(after_help = "\
Examples:
  varia bench                          all six games, default depth, one thread
  varia bench --variant atomic --depth 10
  varia bench --signature > data/bench.txt   (what `make bench-signature` does)")]
pub struct Args {
    /// Only this game (chess, suicide, threecheck, atomic, losers,
    /// knightmate, or an alias). Without it, all six.
    #[arg(long)]
    variant: Option<VariantKind>,
    /// Search depth in plies (default 10; with --signature, 7).
    #[arg(long)]
    depth: Option<u32>,
    /// Search threads (node counts are reproducible only with 1).
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Transposition table size in MB (part of the signature).
    #[arg(long, default_value_t = search::settings::DEFAULT_HASH_MB)]
    hash: usize,
    /// Print only the node counts per game and the total, in the format of
    /// data/bench.txt.
    #[arg(long)]
    signature: bool,
}

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

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let mut stdout = std::io::stdout();
    let depth = args.depth.unwrap_or(if args.signature {
        SIGNATURE_DEPTH
    } else {
        DEFAULT_DEPTH
    });
    if !(1..=MAX_DEPTH).contains(&depth) {
        bail!("--depth must be between 1 and {MAX_DEPTH}, got {depth}");
    }
    crate::resources::threads("--threads", Some(args.threads))?;
    crate::resources::hash_mb("--hash", args.hash)?;
    let kinds: Vec<VariantKind> = match args.variant {
        Some(k) => vec![k],
        None => VariantKind::ALL.to_vec(),
    };
    if args.signature {
        writeln!(stdout, "# varia bench signature: node counts of `varia bench --depth {depth}` (one thread, {} MB table).", args.hash)?;
        writeln!(
            stdout,
            "# Any change to the search or evaluation changes them: regenerate with"
        )?;
        writeln!(
            stdout,
            "# `make bench-signature` and commit this file with the change."
        )?;
        writeln!(stdout, "depth {depth}")?;
    }
    let mut total_nodes = 0u64;
    let mut total_time = Duration::ZERO;
    for kind in kinds {
        let (nodes, time) = dispatch!(kind, V => bench_variant::<V>(depth, &args))?;
        total_nodes += nodes;
        total_time += time;
        if args.signature {
            writeln!(stdout, "{} {nodes}", kind.name())?;
        } else {
            writeln!(
                stdout,
                "{:<10}  total  nodes {nodes}  time {} ms",
                kind.name(),
                time.as_millis()
            )?;
        }
    }
    if args.signature {
        writeln!(stdout, "total {total_nodes}")?;
    } else {
        let nps = (total_nodes as f64 / total_time.as_secs_f64().max(1e-6)) as u64;
        writeln!(stdout, "{total_nodes} nodes {nps} nps")?;
    }
    Ok(ExitCode::SUCCESS)
}

/// Searches every position of `V`; returns the nodes and the time.
fn bench_variant<V: Variant>(depth: u32, args: &Args) -> anyhow::Result<(u64, Duration)> {
    let mut stdout = std::io::stdout();
    let params = EvalParams::default_for(V::KIND);
    let fens = positions(V::KIND);
    let mut nodes = 0u64;
    let mut time = Duration::ZERO;
    for (i, fen) in fens.iter().enumerate() {
        let pos = Position::<V>::from_fen(fen)
            .with_context(|| format!("bench position {} of {}: {fen}", i + 1, V::KIND))?;
        let shared = Shared::new(args.hash);
        let start = Instant::now();
        let r = search(
            &pos,
            &[],
            &Limits::depth(depth),
            &params,
            &shared,
            args.threads,
            &mut |_| {},
        );
        let elapsed = start.elapsed();
        nodes += r.nodes;
        time += elapsed;
        if !args.signature {
            let score = match search::alphabeta::mate_in(r.score) {
                Some(n) => format!("mate {n}"),
                None => format!("cp {}", r.score),
            };
            writeln!(stdout,
                "{:<10}  {}/{}  depth {depth}  nodes {:>10}  time {:>6} ms  nps {:>9}  best {:<6} score {score}",
                V::KIND.name(),
                i + 1,
                fens.len(),
                r.nodes,
                elapsed.as_millis(),
                (r.nodes as f64 / elapsed.as_secs_f64().max(1e-6)) as u64,
                r.best.map_or("0000".to_string(), |m| m.uci()),
            )?;
        }
    }
    Ok((nodes, time))
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
}
