use movegen::{variants::*, Position, Variant};
use search::{search, EvalParams, Limits, Shared};

fn best<V: Variant>(fen: &str, depth: u32) -> (String, i32, u64) {
    let pos = Position::<V>::from_fen(fen).unwrap();
    let shared = Shared::new(16);
    let params = EvalParams::default_for(V::KIND);
    let r = search(
        &pos,
        &[],
        &Limits::depth(depth),
        &params,
        &shared,
        1,
        &mut |_| {},
    );
    (
        r.best.map(|m| m.uci()).unwrap_or_default(),
        r.score,
        r.nodes,
    )
}

#[test]
fn smoke() {
    // Back-rank mate in one.
    let (m, s, _) = best::<Chess>("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", 4);
    assert_eq!(m, "a1a8");
    assert!(s > search::MATE_BOUND);
    let t = std::time::Instant::now();
    let (m, s, n) = best::<Chess>(Chess::START_FEN, 10);
    eprintln!("chess start d9: {m} {s} {n} nodes {:?}", t.elapsed());
    for kind in ["suicide", "atomic", "threecheck", "losers", "knightmate"] {
        let t = std::time::Instant::now();
        let k: movegen::VariantKind = kind.parse().unwrap();
        let (m, s, n) = movegen::dispatch!(k, V => best::<V>(V::START_FEN, 9));
        eprintln!("{kind} d8: {m} {s} {n} {:?}", t.elapsed());
    }
}
