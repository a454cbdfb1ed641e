//! perft_ratio: single-thread perft speed of varia against shakmaty on the
//! positions that have a speed target, as a reproducible table.
//!
//! For each position both libraries first count the nodes once (untimed
//! warm-up; the counts must agree or the tool aborts), then run
//! interleaved for `--rounds` rounds (the order alternates every round) and
//! the median time of each is reported. The ratio is varia nodes/s over
//! shakmaty nodes/s; both count the last ply in bulk (move-list length)
//! without making the moves. Both run on the calling thread only.
//!
//! Time is the thread's on-CPU time (`CLOCK_THREAD_CPUTIME_ID`) unless
//! `--wall` is given or it is unavailable: on a shared, oversubscribed
//! machine the wall clock mostly measures waiting for a CPU. The wall-clock
//! ratio is printed too. Neither removes cache and memory-bandwidth
//! contention from other processes; the per-round ratio range shows the
//! noise that is left.
//!
//! ```text
//! cargo build --release -p varia-benches
//! target/release/perft_ratio            # full depths (a few minutes)
//! target/release/perft_ratio --quick    # one ply less (seconds)
//! make ratio RATIO_ARGS=--quick          # the same through make
//! ```
//!
//! Exit status: 0, or 1 on bad arguments, or 2 with `--strict` if a target
//! is missed. A node-count mismatch panics (the build's panic = "abort").

use movegen::VariantKind;
use std::process::ExitCode;
use std::time::{Duration, Instant};
use varia_benches::{
    assert_same_nodes, shakmaty_perft, varia_perft, Peer, KIWIPETE, START, START_NO_CASTLING,
    THREECHECK_START,
};

/// A comparison with a speed target.
struct Target {
    name: &'static str,
    kind: VariantKind,
    peer: Peer,
    fen: &'static str,
    depth: u32,
    quick_depth: u32,
    /// Minimum varia/shakmaty nodes-per-second ratio.
    min_ratio: f64,
}

const TARGETS: &[Target] = &[
    Target {
        name: "chess start",
        kind: VariantKind::Chess,
        peer: Peer::Chess,
        fen: START,
        depth: 6,
        quick_depth: 5,
        min_ratio: 3.5,
    },
    Target {
        name: "chess kiwipete",
        kind: VariantKind::Chess,
        peer: Peer::Chess,
        fen: KIWIPETE,
        depth: 5,
        quick_depth: 4,
        min_ratio: 7.0,
    },
    Target {
        name: "atomic start",
        kind: VariantKind::Atomic,
        peer: Peer::Atomic,
        fen: START,
        depth: 6,
        quick_depth: 5,
        min_ratio: 3.0,
    },
    Target {
        name: "suicide start (no castling) vs antichess",
        kind: VariantKind::Suicide,
        peer: Peer::Antichess,
        fen: START_NO_CASTLING,
        depth: 6,
        quick_depth: 5,
        min_ratio: 3.0,
    },
    Target {
        name: "threecheck start",
        kind: VariantKind::ThreeCheck,
        peer: Peer::ThreeCheck,
        fen: THREECHECK_START,
        depth: 6,
        quick_depth: 5,
        min_ratio: 3.0,
    },
];

struct Options {
    quick: bool,
    rounds: usize,
    strict: bool,
    wall: bool,
    only: Option<String>,
}

const USAGE: &str =
    "usage: perft_ratio [--quick] [--rounds N] [--wall] [--strict] [--only SUBSTRING]
  --quick        one ply less on every position
  --rounds N     timed rounds per library and position (default 5, median reported)
  --wall         rate by wall-clock time instead of the thread's on-CPU time
  --strict       exit with status 2 if any ratio is below its target
  --only S       only positions whose name contains S";

fn parse_args() -> Result<Options, String> {
    let mut opts = Options {
        quick: false,
        rounds: 5,
        strict: false,
        wall: false,
        only: None,
    };
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--quick" => opts.quick = true,
            "--strict" => opts.strict = true,
            "--wall" => opts.wall = true,
            "--rounds" => {
                let v = args.next().ok_or("--rounds needs a value")?;
                opts.rounds = v
                    .parse()
                    .ok()
                    .filter(|&n| n > 0)
                    .ok_or_else(|| format!("bad --rounds value {v:?}"))?;
            }
            "--only" => opts.only = Some(args.next().ok_or("--only needs a value")?),
            "-h" | "--help" => {
                println!("{USAGE}");
                std::process::exit(0);
            }
            _ => return Err(format!("unknown argument {arg:?}")),
        }
    }
    Ok(opts)
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}

/// Minimum wall time of one timed sample: a sample repeats the perft call
/// `reps` times (chosen from the warm-up) so that short (`--quick`) runs are
/// not dominated by timer and scheduler noise. Full depths take one call.
const MIN_SAMPLE: Duration = Duration::from_millis(250);

/// Time this thread has spent running on a CPU (`CLOCK_THREAD_CPUTIME_ID`,
/// nanosecond resolution). Unlike wall time it does not grow while the
/// thread waits for a CPU, which on a shared, oversubscribed machine is most
/// of the noise. `None` where not implemented (then wall time is used).
#[cfg(all(target_os = "linux", target_pointer_width = "64"))]
fn thread_cpu_time() -> Option<Duration> {
    use std::ffi::{c_int, c_long};
    #[repr(C)]
    struct Timespec {
        tv_sec: c_long,
        tv_nsec: c_long,
    }
    const CLOCK_THREAD_CPUTIME_ID: c_int = 3;
    unsafe extern "C" {
        // From the C library std already links.
        fn clock_gettime(clock: c_int, tp: *mut Timespec) -> c_int;
    }
    let mut ts = Timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid, writable `struct timespec` (two C longs on
    // 64-bit Linux); clock_gettime writes only into it.
    let rc = unsafe { clock_gettime(CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    (rc == 0).then(|| Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32))
}

#[cfg(not(all(target_os = "linux", target_pointer_width = "64")))]
fn thread_cpu_time() -> Option<Duration> {
    None
}

/// Seconds per call of one sample, by both clocks.
#[derive(Clone, Copy)]
struct Sample {
    wall: f64,
    cpu: Option<f64>,
}

impl Sample {
    fn secs(self, clock: Clock) -> f64 {
        match (clock, self.cpu) {
            (Clock::Cpu, Some(cpu)) => cpu,
            _ => self.wall,
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Clock {
    /// On-CPU time of the thread.
    Cpu,
    /// Wall-clock time.
    Wall,
}

/// Runs `reps` calls; returns the time per call and checks the count again.
fn timed(run: &dyn Fn(u32) -> u64, depth: u32, reps: u32, nodes: u64, who: &str) -> Sample {
    let cpu0 = thread_cpu_time();
    let start = Instant::now();
    for _ in 0..reps {
        let n = std::hint::black_box(run(std::hint::black_box(depth)));
        assert_eq!(n, nodes, "{who} changed its node count at depth {depth}");
    }
    let wall = start.elapsed();
    let cpu = match (cpu0, thread_cpu_time()) {
        (Some(a), Some(b)) => Some(b.saturating_sub(a)),
        _ => None,
    };
    let per_call = |d: Duration| d.as_secs_f64() / f64::from(reps);
    Sample {
        wall: per_call(wall),
        cpu: cpu.map(per_call),
    }
}

/// Warm-up call: the node count and the repetitions needed per sample.
fn warm_up(run: &dyn Fn(u32) -> u64, depth: u32) -> (u64, u32) {
    let start = Instant::now();
    let nodes = run(depth);
    let secs = start.elapsed().as_secs_f64().max(1e-6);
    let reps = (MIN_SAMPLE.as_secs_f64() / secs).ceil().clamp(1.0, 1e6) as u32;
    (nodes, reps)
}

struct Row {
    name: &'static str,
    depth: u32,
    nodes: u64,
    varia_mnps: f64,
    shakmaty_mnps: f64,
    ratio: f64,
    ratio_lo: f64,
    ratio_hi: f64,
    /// Ratio of the median wall-clock times.
    wall_ratio: f64,
    min_ratio: f64,
}

fn measure(t: &Target, depth: u32, rounds: usize, clock: Clock) -> Row {
    let varia = varia_perft(t.kind, t.fen);
    let shakmaty = shakmaty_perft(t.peer, t.fen);

    // Warm-up, and the node-count check.
    let (nodes, reps_v) = warm_up(&*varia, depth);
    let (shakmaty_nodes, reps_s) = warm_up(&*shakmaty, depth);
    assert_same_nodes(t.name, depth, nodes, shakmaty_nodes);

    let mut sv = Vec::with_capacity(rounds);
    let mut ss = Vec::with_capacity(rounds);
    for r in 0..rounds {
        let time_v = || timed(&*varia, depth, reps_v, nodes, "varia");
        let time_s = || timed(&*shakmaty, depth, reps_s, nodes, "shakmaty");
        let (v, s) = if r % 2 == 0 {
            let v = time_v();
            (v, time_s())
        } else {
            let s = time_s();
            (time_v(), s)
        };
        eprintln!(
            "  {:<42} d{depth} round {}/{rounds}: varia {:.4}s (wall {:.4}s) x{reps_v}, \
             shakmaty {:.4}s (wall {:.4}s) x{reps_s}, ratio {:.2} (wall {:.2})",
            t.name,
            r + 1,
            v.secs(clock),
            v.wall,
            s.secs(clock),
            s.wall,
            s.secs(clock) / v.secs(clock),
            s.wall / v.wall,
        );
        sv.push(v);
        ss.push(s);
    }
    let med = |v: &[Sample], f: &dyn Fn(Sample) -> f64| median(v.iter().map(|&x| f(x)).collect());
    let (v, s) = (med(&sv, &|x| x.secs(clock)), med(&ss, &|x| x.secs(clock)));
    let (vw, sw) = (med(&sv, &|x| x.wall), med(&ss, &|x| x.wall));
    let per_round: Vec<f64> = sv
        .iter()
        .zip(&ss)
        .map(|(v, s)| s.secs(clock) / v.secs(clock))
        .collect();
    let mnps = |secs: f64| nodes as f64 / secs / 1e6;
    Row {
        name: t.name,
        depth,
        nodes,
        varia_mnps: mnps(v),
        shakmaty_mnps: mnps(s),
        ratio: s / v,
        ratio_lo: per_round.iter().copied().fold(f64::INFINITY, f64::min),
        ratio_hi: per_round.iter().copied().fold(0.0, f64::max),
        wall_ratio: sw / vw,
        min_ratio: t.min_ratio,
    }
}

fn load_average() -> Option<String> {
    let s = std::fs::read_to_string("/proc/loadavg").ok()?;
    Some(s.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
}

fn main() -> ExitCode {
    let opts = match parse_args() {
        Ok(o) => o,
        Err(e) => {
            eprintln!("perft_ratio: {e}\n{USAGE}");
            return ExitCode::from(1);
        }
    };
    if cfg!(debug_assertions) {
        eprintln!("perft_ratio: WARNING: debug build, timings are meaningless (use --release)");
    }
    let clock = if opts.wall || thread_cpu_time().is_none() {
        Clock::Wall
    } else {
        Clock::Cpu
    };
    if !opts.wall && clock == Clock::Wall {
        eprintln!("perft_ratio: thread CPU clock unavailable, using wall-clock time");
    }
    let started = Instant::now();
    let load_before = load_average();

    let mut rows = Vec::new();
    for t in TARGETS {
        if opts.only.as_deref().is_some_and(|s| !t.name.contains(s)) {
            continue;
        }
        let depth = if opts.quick { t.quick_depth } else { t.depth };
        rows.push(measure(t, depth, opts.rounds, clock));
    }

    println!(
        "perft, single thread, bulk counting at the last ply; {} interleaved rounds, \
         median {} time per library{}",
        opts.rounds,
        match clock {
            Clock::Cpu => "on-CPU",
            Clock::Wall => "wall-clock",
        },
        if opts.quick { " (--quick)" } else { "" }
    );
    // varia's instructions chosen at run time (VARIA_NO_PEXT=1 measures the
    // magic lookup).
    println!("varia {}", movegen::cpu::summary());
    println!(
        "{:<42} {:>5} {:>11} {:>11} {:>14} {:>7} {:>13} {:>10} {:>7}  status",
        "position",
        "depth",
        "nodes",
        "varia Mnps",
        "shakmaty Mnps",
        "ratio",
        "round range",
        "wall ratio",
        "target"
    );
    let mut missed = 0;
    for r in &rows {
        let ok = r.ratio >= r.min_ratio;
        missed += usize::from(!ok);
        println!(
            "{:<42} {:>5} {:>11} {:>11.1} {:>14.1} {:>6.2}x {:>13} {:>9.2}x {:>6}x  {}",
            r.name,
            r.depth,
            r.nodes,
            r.varia_mnps,
            r.shakmaty_mnps,
            r.ratio,
            format!("{:.2}-{:.2}", r.ratio_lo, r.ratio_hi),
            r.wall_ratio,
            format!(">={}", r.min_ratio),
            if ok { "ok" } else { "BELOW TARGET" }
        );
    }
    println!(
        "load average before {} / after {}; {:.0?} total. On a shared machine compare the \
         round range (per-round ratios) and the wall-clock ratio.",
        load_before.as_deref().unwrap_or("?"),
        load_average().as_deref().unwrap_or("?"),
        Duration::from_secs(started.elapsed().as_secs())
    );
    if missed > 0 && opts.strict {
        eprintln!("perft_ratio: {missed} target(s) missed");
        return ExitCode::from(2);
    }
    ExitCode::SUCCESS
}
