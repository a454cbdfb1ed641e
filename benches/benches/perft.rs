//! Perft, varia against shakmaty on the same positions in the same run.
//!
//! One criterion group per position (`perft/<position>-d<depth>`), with a
//! `varia` and, where shakmaty plays the same game, a `shakmaty` function.
//! Throughput is the node count, so criterion reports nodes/s (elem/s).
//! Before timing, both libraries count the nodes once and must agree.
//!
//! Run: `cargo bench -p varia-benches` (or `make bench`); one position:
//! `cargo bench -p varia-benches -- kiwipete`.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use std::hint::black_box;
use std::time::Duration;
use varia_benches::{assert_same_nodes, shakmaty_perft, varia_perft, BENCH_CASES};

fn perft(c: &mut Criterion) {
    for case in BENCH_CASES {
        let depth = case.bench_depth;
        let varia = varia_perft(case.kind, case.fen);
        let shakmaty = case.peer.map(|peer| shakmaty_perft(peer, case.fen));

        let nodes = varia(depth);
        if let Some(shakmaty) = &shakmaty {
            assert_same_nodes(case.id, depth, nodes, shakmaty(depth));
        }

        let mut group = c.benchmark_group(format!("perft/{}-d{depth}", case.id));
        group.throughput(Throughput::Elements(nodes));
        group.bench_with_input(BenchmarkId::new("varia", depth), &depth, |b, &d| {
            b.iter(|| varia(black_box(d)));
        });
        if let Some(shakmaty) = &shakmaty {
            group.bench_with_input(BenchmarkId::new("shakmaty", depth), &depth, |b, &d| {
                b.iter(|| shakmaty(black_box(d)));
            });
        }
        group.finish();
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(4));
    targets = perft
}
criterion_main!(benches);
