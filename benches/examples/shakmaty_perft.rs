//! shakmaty_perft: perft of a start position computed with shakmaty, an
//! independent move generator, to cross-check varia's perft tables
//! (`scripts/perft_tables.py` runs it).
//!
//! ```text
//! cargo run --release -p varia-benches --example shakmaty_perft -- VARIANT DEPTH [--stats] [--threads T]
//! ```
//!
//! VARIANT is `chess`, `atomic`, `threecheck` or `suicide`. shakmaty has no
//! suicide; its antichess differs only in forbidding castling, and from the
//! start position no castling is possible before ply 7 (the knight, a pawn
//! and the bishop must move first), so `suicide` is counted as antichess up
//! to depth 6 and refused deeper.
//!
//! Prints CSV rows `variant,depth,nodes` for depths 1..=DEPTH, or with
//! `--stats` the columns of `varia perft --stats` (captures, en passant,
//! castles, promotions, checks, discovered checks, double checks,
//! checkmates, stalemates, variant wins), computed over the leaf moves with
//! the definitions of `movegen::PerftStats` restated on shakmaty's API:
//! - check: the side to move after the leaf move has checkers (shakmaty's
//!   atomic has none while the kings touch);
//! - discovered check: the moved piece (the rook when castling) is not
//!   among the checkers; double check: two or more checkers;
//! - variant win: `is_variant_end()` after the move, or (antichess) no legal
//!   moves; else checkmate or stalemate when there are no legal moves.
//!
//! Columns that do not apply are printed empty, as varia does: chess has no
//! variant wins; suicide has no check columns.

use shakmaty::variant::{Antichess, Atomic, ThreeCheck};
use shakmaty::{Chess, Move, Position};
use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// Counts over leaf moves, in the order of varia's stats columns.
#[derive(Clone, Copy, Default)]
struct Stats([u64; 11]);

impl std::ops::AddAssign for Stats {
    fn add_assign(&mut self, o: Stats) {
        for (a, b) in self.0.iter_mut().zip(o.0) {
            *a += b;
        }
    }
}

/// Classifies the leaf move `m` played from `pos`.
fn leaf<P: Position + Clone>(pos: &P, m: &Move, losing: bool) -> Stats {
    let mut s = [0u64; 11];
    s[0] = 1;
    s[1] = m.is_capture() as u64;
    s[2] = m.is_en_passant() as u64;
    s[3] = m.is_castle() as u64;
    s[4] = m.is_promotion() as u64;
    let mover = pos.turn();
    let mut child = pos.clone();
    child.play_unchecked(*m);
    if !losing {
        let checkers = child.checkers();
        if checkers.any() {
            s[5] = 1;
            s[7] = (checkers.count() >= 2) as u64;
            let moved = match m.castling_side() {
                Some(side) => side.rook_to(mover),
                None => m.to(),
            };
            s[6] = !checkers.contains(moved) as u64;
        }
    }
    if child.is_variant_end() {
        s[10] = 1;
    } else if child.legal_moves().is_empty() {
        if losing {
            s[10] = 1;
        } else if child.is_check() {
            s[8] = 1;
        } else {
            s[9] = 1;
        }
    }
    Stats(s)
}

fn stats<P: Position + Clone>(pos: &P, depth: u32, losing: bool) -> Stats {
    let mut total = Stats::default();
    for m in pos.legal_moves() {
        if depth == 1 {
            total += leaf(pos, &m, losing);
        } else {
            let mut child = pos.clone();
            child.play_unchecked(m);
            total += stats(&child, depth - 1, losing);
        }
    }
    total
}

/// Stats at `depth` (at least 3), the positions two plies down shared out
/// to `threads` threads.
fn stats_threaded<P: Position + Clone + Send + Sync>(
    pos: &P,
    depth: u32,
    losing: bool,
    threads: usize,
) -> Stats {
    if depth < 3 || threads <= 1 {
        return stats(pos, depth, losing);
    }
    let mut work = Vec::new();
    for m in pos.legal_moves() {
        let mut a = pos.clone();
        a.play_unchecked(m);
        for n in a.legal_moves() {
            let mut b = a.clone();
            b.play_unchecked(n);
            work.push(b);
        }
    }
    let next = AtomicUsize::new(0);
    let total = Mutex::new(Stats::default());
    std::thread::scope(|s| {
        for _ in 0..threads {
            s.spawn(|| {
                let mut mine = Stats::default();
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(p) = work.get(i) else { break };
                    mine += stats(p, depth - 2, losing);
                }
                *total.lock().unwrap() += mine;
            });
        }
    });
    total.into_inner().unwrap()
}

fn print<P: Position + Clone + Send + Sync>(
    name: &str,
    pos: P,
    depth: u32,
    with_stats: bool,
    threads: usize,
) {
    let losing = name == "suicide";
    if with_stats {
        println!(
            "variant,depth,nodes,captures,en_passant,castles,promotions,checks,\
             discovered_checks,double_checks,checkmates,stalemates,variant_wins"
        );
    } else {
        println!("variant,depth,nodes");
    }
    for d in 1..=depth {
        if !with_stats {
            println!("{name},{d},{}", shakmaty::perft(&pos, d));
            continue;
        }
        let s = stats_threaded(&pos, d, losing, threads).0;
        let fields: Vec<String> = s
            .iter()
            .enumerate()
            .map(|(i, v)| {
                let applies = match i {
                    5..=9 => !losing,
                    10 => name != "chess",
                    _ => true,
                };
                if applies {
                    v.to_string()
                } else {
                    String::new()
                }
            })
            .collect();
        println!("{name},{d},{}", fields.join(","));
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage =
        "usage: shakmaty_perft chess|atomic|threecheck|suicide DEPTH [--stats] [--threads T]";
    let (Some(name), Some(depth)) = (
        args.first(),
        args.get(1).and_then(|d| d.parse::<u32>().ok()),
    ) else {
        eprintln!("{usage}");
        return ExitCode::from(2);
    };
    let with_stats = args.iter().any(|a| a == "--stats");
    let threads = args
        .iter()
        .position(|a| a == "--threads")
        .and_then(|i| args.get(i + 1))
        .and_then(|t| t.parse().ok())
        .unwrap_or(1usize);
    match name.as_str() {
        "chess" => print(name, Chess::default(), depth, with_stats, threads),
        "atomic" => print(name, Atomic::default(), depth, with_stats, threads),
        "threecheck" => print(name, ThreeCheck::new(), depth, with_stats, threads),
        "suicide" if depth <= 6 => print(name, Antichess::default(), depth, with_stats, threads),
        "suicide" => {
            eprintln!("suicide equals antichess only up to depth 6 (castling)");
            return ExitCode::from(2);
        }
        _ => {
            eprintln!("{usage}");
            return ExitCode::from(2);
        }
    }
    ExitCode::SUCCESS
}
