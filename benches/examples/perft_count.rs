//! perft_count: one perft of one position by one library, for instruction
//! counting under callgrind (wall time is meaningless on a shared machine,
//! instruction counts are stable).
//!
//! ```text
//! RUSTFLAGS="-C target-cpu=x86-64-v3" CARGO_TARGET_DIR=target/cg \
//!     cargo build --profile bench -p varia-benches --example perft_count
//! valgrind --tool=callgrind --callgrind-out-file=/tmp/cg.out \
//!     target/cg/release/examples/perft_count varia chess startpos 5
//! ```
//!
//! (The x86-64-v3 level keeps the figures comparable with those measured
//! when the workspace built for `target-cpu=native`, which on a CPU with
//! AVX-512 and GFNI emits instructions valgrind 3.19 cannot decode. The
//! default x86-64-v2 build decodes too; both choose PEXT at run time.)
//! The suicide start position has castling rights, which shakmaty's
//! antichess refuses: give it as a FEN without them.
//!
//! LIBRARY is `varia` or `shakmaty`; VARIANT a varia game name (`shakmaty`
//! takes chess, atomic, threecheck, and suicide as antichess); POSITION is
//! `startpos`, `kiwipete` or a FEN. Prints the node count; Ir divided by it
//! is the instructions per node that the speed work compares.

use movegen::VariantKind;
use std::process::ExitCode;
use varia_benches::{shakmaty_perft, varia_perft, Peer, KIWIPETE};

const USAGE: &str = "usage: perft_count varia|shakmaty VARIANT startpos|kiwipete|FEN DEPTH";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [library, variant, position, depth] = args.as_slice() else {
        eprintln!("{USAGE}");
        return ExitCode::from(2);
    };
    let kind: VariantKind = match variant.parse() {
        Ok(k) => k,
        Err(e) => {
            eprintln!("perft_count: {e}");
            return ExitCode::from(2);
        }
    };
    let Ok(depth) = depth.parse::<u32>() else {
        eprintln!("perft_count: bad depth {depth:?}");
        return ExitCode::from(2);
    };
    let fen: &'static str = match position.as_str() {
        "startpos" => kind.start_fen(),
        "kiwipete" => KIWIPETE,
        fen => Box::leak(fen.to_string().into_boxed_str()),
    };
    let run = match library.as_str() {
        "varia" => varia_perft(kind, fen),
        "shakmaty" => {
            let peer = match kind {
                VariantKind::Chess => Peer::Chess,
                VariantKind::Atomic => Peer::Atomic,
                VariantKind::ThreeCheck => Peer::ThreeCheck,
                VariantKind::Suicide => Peer::Antichess,
                other => {
                    eprintln!("perft_count: shakmaty has no {other}");
                    return ExitCode::from(2);
                }
            };
            shakmaty_perft(peer, fen)
        }
        other => {
            eprintln!("perft_count: unknown library {other:?} (valid: varia, shakmaty)");
            return ExitCode::from(2);
        }
    };
    println!("{}", run(depth));
    ExitCode::SUCCESS
}
