//! The network's inference: the accumulator update from a parent position
//! to a child (a quiet move, a capture, an atomic explosion), a refresh from
//! scratch, and the output layer, at the trainer's default H = 128 for both
//! activations.
//!
//! There is no trained net in the repository yet, so the benches run a net
//! with the trainer's starting weights (`FloatNetwork::init`): the cost of
//! inference does not depend on the weights' values.
//!
//! Run: `cargo bench -p varia-benches --bench nnue`.

use criterion::{criterion_group, criterion_main, Criterion};
use movegen::variants::{Atomic, Chess};
use movegen::{Position, Variant, VariantKind};
use search::nnue::{Accumulator, Activation, FloatNetwork, Network};
use std::hint::black_box;

/// The position after `uci` from `fen`.
fn child<V: Variant>(fen: &str, uci: &str) -> (Position<V>, Position<V>) {
    let parent = Position::<V>::from_fen(fen).expect("bench FEN");
    let m = parent.parse_uci(uci).expect("bench move");
    let child = parent.play(m).expect("legal bench move");
    (parent, child)
}

fn bench_update<V: Variant>(c: &mut Criterion, name: &str, net: &Network, fen: &str, uci: &str) {
    let (parent, child) = child::<V>(fen, uci);
    let parent_acc = Accumulator::new(net, &parent);
    let mut acc = parent_acc.clone();
    c.bench_function(&format!("nnue/update/{name}"), |b| {
        b.iter(|| {
            acc.update_from(
                net,
                black_box(&parent_acc),
                black_box(&parent),
                black_box(&child),
            );
            black_box(&acc);
        })
    });
}

fn nnue(c: &mut Criterion) {
    const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    let chess = FloatNetwork::init(VariantKind::Chess, 128, Activation::SCReLU, 1).quantise();
    let atomic = FloatNetwork::init(VariantKind::Atomic, 128, Activation::SCReLU, 1).quantise();
    bench_update::<Chess>(c, "chess-quiet", &chess, KIWIPETE, "a2a3");
    bench_update::<Chess>(c, "chess-capture", &chess, KIWIPETE, "e5f7");
    bench_update::<Chess>(c, "chess-castle", &chess, KIWIPETE, "e1g1");
    bench_update::<Atomic>(c, "atomic-explosion", &atomic, KIWIPETE, "e5f7");

    let pos = Position::<Chess>::from_fen(KIWIPETE).expect("bench FEN");
    let mut acc = Accumulator::new(&chess, &pos);
    c.bench_function("nnue/refresh/chess", |b| {
        b.iter(|| {
            acc.refresh(&chess, black_box(&pos));
            black_box(&acc);
        })
    });
    for act in [Activation::CReLU, Activation::SCReLU] {
        let net = FloatNetwork::init(VariantKind::Chess, 128, act, 1).quantise();
        let acc = Accumulator::new(&net, &pos);
        c.bench_function(&format!("nnue/evaluate/{act}"), |b| {
            b.iter(|| black_box(net.evaluate(black_box(&acc), pos.turn())))
        });
    }
}

criterion_group!(benches, nnue);
criterion_main!(benches);
