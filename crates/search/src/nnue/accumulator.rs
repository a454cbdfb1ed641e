//! Quantised inference: the first layer's sums for both perspectives, kept
//! up to date along a line of play, and the output layer.
//!
//! An update does not look at the move: it diffs the parent's and the
//! child's boards role by role (14 bitboard XORs) and the check counters, then
//! subtracts the rows of the inputs that went away and adds those that
//! appeared. Captures, promotions, castling, en passant, atomic explosions
//! (several pieces at once), suicide's king captures and king promotions and
//! null moves (no change at all) are therefore one code path, which a test
//! pins to a fresh [`Accumulator::refresh`] after every move of random
//! playouts of all six games. Sums are `i16` with wrapping arithmetic: the
//! order of the additions cannot matter, and the final sums fit (at most 34
//! active inputs of at most `1.98 * QA` plus a bias).
//!
//! # Vector code chosen at run time
//!
//! The loops over the `H` sums are plain Rust that the compiler vectorises.
//! Release builds target x86-64-v2 (SSE4.2) so that one binary runs on every
//! node; where the CPU has AVX2, [`movegen::cpu::avx2`] says so, and
//! [`Accumulator::refresh`], [`Accumulator::update`] and
//! [`Network::evaluate`] run a second copy of the same code compiled with
//! AVX2 enabled (`#[target_feature]` functions whose bodies are the portable
//! ones, inlined). The choice is one branch per call, outside the loops, on a
//! value fixed at the first use; both copies compute the same integers (a
//! test runs both on random nets and positions).

use super::features::{check_feature, for_each_active, has_check_inputs, piece_feature};
use super::network::{Activation, Network};
use super::{QA, QB, SCALE};
use movegen::{Color, Piece, Position, Variant};

/// The first layer's sums of one position for both perspectives: `H` values
/// from White's view, then `H` from Black's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Accumulator {
    values: Box<[i16]>,
}

impl Accumulator {
    /// The accumulator of `pos` for `net`, computed from scratch.
    pub fn new<V: Variant>(net: &Network, pos: &Position<V>) -> Accumulator {
        let mut acc = Accumulator {
            values: vec![0; 2 * net.hidden].into_boxed_slice(),
        };
        acc.refresh(net, pos);
        acc
    }

    /// Recomputes the sums of `pos` from scratch (the bias plus every active
    /// input's row).
    pub fn refresh<V: Variant>(&mut self, net: &Network, pos: &Position<V>) {
        #[cfg(target_arch = "x86_64")]
        if movegen::cpu::avx2() {
            // SAFETY: `cpu::avx2` is true only on a CPU with AVX2.
            return unsafe { self.refresh_avx2(net, pos) };
        }
        self.refresh_portable(net, pos);
    }

    /// [`Accumulator::refresh`] compiled with AVX2.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    fn refresh_avx2<V: Variant>(&mut self, net: &Network, pos: &Position<V>) {
        self.refresh_portable(net, pos);
    }

    #[inline(always)]
    fn refresh_portable<V: Variant>(&mut self, net: &Network, pos: &Position<V>) {
        let h = net.hidden;
        debug_assert_eq!(self.values.len(), 2 * h);
        for c in Color::ALL {
            // The inputs first, the rows added here: a row added inside the
            // closure would be compiled where the closure is, without AVX2
            // when it is not inlined. A board holds at most 64 pieces, and
            // threecheck adds two counters.
            let mut active = [0u16; 64 + 2];
            let mut n = 0;
            for_each_active(pos, c, |f| {
                active[n] = f as u16;
                n += 1;
            });
            let out = self.perspective_mut(c);
            out.copy_from_slice(&net.ft_bias);
            for &f in &active[..n] {
                add(out, net.feature_row(usize::from(f)));
            }
        }
    }

    /// Turns the sums of `parent` (which `self` holds) into those of
    /// `child`, any position reached from it (a move, a null move, or
    /// several moves).
    pub fn update<V: Variant>(&mut self, net: &Network, parent: &Position<V>, child: &Position<V>) {
        #[cfg(target_arch = "x86_64")]
        if movegen::cpu::avx2() {
            // SAFETY: `cpu::avx2` is true only on a CPU with AVX2.
            return unsafe { self.update_avx2(net, parent, child) };
        }
        self.update_portable(net, parent, child);
    }

    /// [`Accumulator::update`] compiled with AVX2.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    fn update_avx2<V: Variant>(
        &mut self,
        net: &Network,
        parent: &Position<V>,
        child: &Position<V>,
    ) {
        self.update_portable(net, parent, child);
    }

    #[inline(always)]
    fn update_portable<V: Variant>(
        &mut self,
        net: &Network,
        parent: &Position<V>,
        child: &Position<V>,
    ) {
        let (before, after) = (parent.board(), child.board());
        for color in Color::ALL {
            for &role in V::ROLES {
                let (b, a) = (before.pieces(color, role), after.pieces(color, role));
                let piece = Piece { color, role };
                for sq in b & !a {
                    for p in Color::ALL {
                        sub(
                            self.perspective_mut(p),
                            net.feature_row(piece_feature(p, piece, sq)),
                        );
                    }
                }
                for sq in a & !b {
                    for p in Color::ALL {
                        add(
                            self.perspective_mut(p),
                            net.feature_row(piece_feature(p, piece, sq)),
                        );
                    }
                }
            }
        }
        if has_check_inputs(V::KIND) {
            for color in Color::ALL {
                let (b, a) = (
                    parent.checks_remaining(color),
                    child.checks_remaining(color),
                );
                if a != b {
                    for p in Color::ALL {
                        let acc = self.perspective_mut(p);
                        sub(acc, net.feature_row(check_feature(p, color, b)));
                        add(acc, net.feature_row(check_feature(p, color, a)));
                    }
                }
            }
        }
    }

    /// Sets `self` to the sums of `child` from `parent_acc`, the sums of
    /// `parent` (a search stack's push: no allocation).
    pub fn update_from<V: Variant>(
        &mut self,
        net: &Network,
        parent_acc: &Accumulator,
        parent: &Position<V>,
        child: &Position<V>,
    ) {
        self.values.copy_from_slice(&parent_acc.values);
        self.update(net, parent, child);
    }

    /// The hidden size `H` this accumulator holds sums for.
    pub fn hidden(&self) -> usize {
        self.values.len() / 2
    }

    /// The `H` sums seen from `perspective`.
    pub fn perspective(&self, perspective: Color) -> &[i16] {
        let h = self.values.len() / 2;
        &self.values[perspective.index() * h..(perspective.index() + 1) * h]
    }

    /// The sums of one perspective, to change.
    #[inline]
    fn perspective_mut(&mut self, perspective: Color) -> &mut [i16] {
        let h = self.values.len() / 2;
        &mut self.values[perspective.index() * h..(perspective.index() + 1) * h]
    }
}

#[inline(always)]
fn add(acc: &mut [i16], row: &[i16]) {
    for (a, w) in acc.iter_mut().zip(row) {
        *a = a.wrapping_add(*w);
    }
}

#[inline(always)]
fn sub(acc: &mut [i16], row: &[i16]) {
    for (a, w) in acc.iter_mut().zip(row) {
        *a = a.wrapping_sub(*w);
    }
}

impl Network {
    /// The evaluation in centipawns from `side_to_move`'s view of the
    /// position whose sums `acc` holds.
    ///
    /// CReLU: `sum(clamp(a, 0, QA) * w)` is in units of `QA * QB`. SCReLU:
    /// `sum(clamp(a, 0, QA)^2 * w)` is in units of `QA^2 * QB`, divided by
    /// `QA` first. Then the output bias (in `QA * QB`) is added and the
    /// result scaled by `SCALE / (QA * QB)`. Sums are `i64`: with H up to
    /// 4096 an SCReLU sum can pass `i32`.
    pub fn evaluate(&self, acc: &Accumulator, side_to_move: Color) -> i32 {
        #[cfg(target_arch = "x86_64")]
        if movegen::cpu::avx2() {
            // SAFETY: `cpu::avx2` is true only on a CPU with AVX2.
            return unsafe { self.evaluate_avx2(acc, side_to_move) };
        }
        self.evaluate_portable(acc, side_to_move)
    }

    /// [`Network::evaluate`] compiled with AVX2.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    fn evaluate_avx2(&self, acc: &Accumulator, side_to_move: Color) -> i32 {
        self.evaluate_portable(acc, side_to_move)
    }

    #[inline(always)]
    fn evaluate_portable(&self, acc: &Accumulator, side_to_move: Color) -> i32 {
        let h = self.hidden;
        let us = acc.perspective(side_to_move);
        let them = acc.perspective(side_to_move.other());
        let (wu, wt) = self.out_weights.split_at(h);
        let sum = match self.activation {
            Activation::CReLU => crelu_dot(us, wu) + crelu_dot(them, wt),
            Activation::SCReLU => (screlu_dot(us, wu) + screlu_dot(them, wt)) / i64::from(QA),
        };
        let out = sum + i64::from(self.out_bias);
        (out * i64::from(SCALE) / i64::from(QA * QB)) as i32
    }

    /// [`Network::evaluate`] of `pos` from a fresh accumulator (slow: for
    /// tests and one-off evaluations, not for the search).
    pub fn evaluate_position<V: Variant>(&self, pos: &Position<V>) -> i32 {
        self.evaluate(&Accumulator::new(self, pos), pos.turn())
    }
}

#[inline(always)]
fn crelu_dot(acc: &[i16], w: &[i16]) -> i64 {
    let mut sum = 0i32;
    for (&a, &w) in acc.iter().zip(w) {
        sum += i32::from(a.clamp(0, QA as i16)) * i32::from(w);
    }
    i64::from(sum)
}

#[inline(always)]
fn screlu_dot(acc: &[i16], w: &[i16]) -> i64 {
    let mut sum = 0i64;
    for (&a, &w) in acc.iter().zip(w) {
        let c = i32::from(a.clamp(0, QA as i16));
        sum += i64::from(c * i32::from(w) * c);
    }
    sum
}

#[cfg(test)]
mod tests {
    use super::super::features::for_each_active;
    use super::super::network::FloatNetwork;
    use super::*;
    use movegen::{dispatch, SplitMix64, VariantKind};

    /// A test net whose first layer is strong enough that most sums sit
    /// inside the activation's range and differ between positions.
    fn test_net(game: VariantKind, activation: Activation, seed: u64) -> FloatNetwork {
        let mut net = FloatNetwork::init(game, 32, activation, seed);
        let mut rng = SplitMix64::new(seed ^ 0xabc);
        let (b, o) = (net.bias_offset(), net.out_offset());
        for w in &mut net.params[b..o] {
            *w = rng.unit() as f32 * 0.5;
        }
        let ob = net.out_bias_offset();
        net.params[ob] = 0.3;
        net
    }

    /// Plays `plies` random moves a game from the start (a new game whenever
    /// one ends), and after every move checks the incremental accumulator
    /// against a fresh one, and the same after a null move where one is
    /// legal. Returns the number of positions checked.
    fn playouts<V: Variant>(net: &Network, plies: usize, seed: u64) -> usize {
        let mut rng = SplitMix64::new(seed);
        let mut pos = Position::<V>::startpos();
        let mut acc = Accumulator::new(net, &pos);
        let mut child_acc = acc.clone();
        let mut checked = 0;
        while checked < plies {
            let moves = pos.legal_moves();
            if moves.is_empty() || pos.is_over_by_rule() || pos.halfmove_clock() > 100 {
                pos = Position::<V>::startpos();
                acc.refresh(net, &pos);
                continue;
            }
            if let Some(null) = pos.play_null() {
                child_acc.update_from(net, &acc, &pos, &null);
                assert_eq!(
                    child_acc,
                    Accumulator::new(net, &null),
                    "null move at {}",
                    pos.fen()
                );
                assert_eq!(
                    net.evaluate(&child_acc, null.turn()),
                    net.evaluate_position(&null)
                );
            }
            let m = moves[rng.below(moves.len())];
            let next = pos.play_unchecked(m);
            acc.update(net, &pos, &next);
            assert_eq!(
                acc,
                Accumulator::new(net, &next),
                "{} after {m:?}",
                pos.fen()
            );
            pos = next;
            checked += 1;
        }
        checked
    }

    fn incremental_equals_fresh(plies: usize) {
        for (i, game) in VariantKind::ALL.into_iter().enumerate() {
            let net = test_net(game, Activation::SCReLU, i as u64).quantise();
            let n = dispatch!(game, V => playouts::<V>(&net, plies, 7 + i as u64));
            assert_eq!(n, plies);
        }
    }

    /// 2,000 moves a game (and the null moves between them).
    #[test]
    fn incremental_equals_fresh_after_every_move_and_null_move() {
        incremental_equals_fresh(2_000);
    }

    /// The long form, 100,000 moves a game: `cargo test -p search --lib
    /// nnue::accumulator -- --ignored`.
    #[test]
    #[ignore]
    fn incremental_equals_fresh_100k_moves_a_game() {
        incremental_equals_fresh(100_000);
    }

    /// Random positions (random playouts) of every game, both activations:
    /// the engine's quantised evaluation is within 1 cp (truncation, and f32 noise) of the float
    /// evaluation of its own (dequantised) weights, so the integer
    /// arithmetic is right, and within 16 cp + 2% of the float network it
    /// was quantised from (the rounding of the output weights to 1/64 is
    /// most of that; the test nets' output weights are small, which makes it
    /// large relative to a trained net's).
    #[test]
    fn quantised_output_is_close_to_the_float_network() {
        fn check<V: Variant>(float: &FloatNetwork, seed: u64) {
            let net = float.quantise();
            let exact = net.dequantise();
            let mut rng = SplitMix64::new(seed);
            let mut pos = Position::<V>::startpos();
            let mut spread = 0.0f32;
            for _ in 0..400 {
                let moves = pos.legal_moves();
                if moves.is_empty() || pos.is_over_by_rule() {
                    pos = Position::<V>::startpos();
                    continue;
                }
                pos = pos.play_unchecked(moves[rng.below(moves.len())]);
                let (mut us, mut them) = (Vec::new(), Vec::new());
                for_each_active(&pos, pos.turn(), |f| us.push(f));
                for_each_active(&pos, pos.turn().other(), |f| them.push(f));
                let got = net.evaluate_position(&pos) as f32;
                let own = exact.evaluate(&us, &them);
                assert!((got - own).abs() < 1.05, "{}: {got} vs {own}", pos.fen());
                let want = float.evaluate(&us, &them);
                let err = (got - want).abs();
                assert!(
                    err <= 16.0 + 0.02 * want.abs(),
                    "{}: {got} vs {want}",
                    pos.fen()
                );
                spread = spread.max(want.abs());
            }
            // The positions differ enough for the test to mean something.
            assert!(spread > 50.0, "{spread}");
        }
        for (i, game) in VariantKind::ALL.into_iter().enumerate() {
            for act in [Activation::CReLU, Activation::SCReLU] {
                let float = test_net(game, act, 100 + i as u64);
                dispatch!(game, V => check::<V>(&float, i as u64));
            }
        }
    }

    /// A net of `hidden` neurons with every weight drawn uniformly from the
    /// range a trained net's weights can take (±CLIP in each quantisation),
    /// so that sums land below 0, inside the activation's range and above
    /// `QA`.
    fn random_net(game: VariantKind, hidden: usize, activation: Activation, seed: u64) -> Network {
        let mut rng = SplitMix64::new(seed);
        let mut draw = |n: usize, scale: i32| -> Vec<i16> {
            let r = (super::super::CLIP * scale as f32) as i64;
            (0..n)
                .map(|_| (rng.below(2 * r as usize + 1) as i64 - r) as i16)
                .collect()
        };
        let inputs = super::super::features::input_count(game);
        Network {
            game,
            activation,
            hidden,
            ft_weights: draw(inputs * hidden, QA),
            ft_bias: draw(hidden, QA),
            out_weights: draw(2 * hidden, QB),
            out_bias: draw(1, QA * QB)[0],
        }
    }

    /// The AVX2 copies of refresh, update and evaluate against the portable
    /// code, on random nets (both activations, hidden sizes that are and are
    /// not multiples of the vector width) along random playouts of every
    /// game: the same sums and the same evaluations, exactly. Skipped, saying
    /// so, on a CPU without AVX2.
    #[test]
    fn avx2_code_gives_the_portable_codes_results() {
        #[cfg(target_arch = "x86_64")]
        if movegen::cpu::has_avx2() {
            fn check<V: Variant>(net: &Network, seed: u64) {
                let mut rng = SplitMix64::new(seed);
                let mut pos = Position::<V>::startpos();
                let mut portable = Accumulator::new(net, &pos);
                let mut avx2 = portable.clone();
                let mut evals = std::collections::BTreeSet::new();
                for ply in 0..300 {
                    let moves = pos.legal_moves();
                    let next = if moves.is_empty() || pos.is_over_by_rule() {
                        Position::<V>::startpos()
                    } else {
                        pos.play_unchecked(moves[rng.below(moves.len())])
                    };
                    if ply % 25 == 0 {
                        portable.refresh_portable(net, &next);
                        // SAFETY: the CPU has AVX2 (checked above).
                        unsafe { avx2.refresh_avx2(net, &next) };
                    } else {
                        portable.update_portable(net, &pos, &next);
                        // SAFETY: as above.
                        unsafe { avx2.update_avx2(net, &pos, &next) };
                    }
                    assert_eq!(portable, avx2, "{} after ply {ply}", next.fen());
                    assert_eq!(portable, Accumulator::new(net, &next));
                    for side in Color::ALL {
                        let want = net.evaluate_portable(&portable, side);
                        // SAFETY: as above.
                        let got = unsafe { net.evaluate_avx2(&avx2, side) };
                        assert_eq!(got, want, "{} {side:?}", next.fen());
                        evals.insert(want);
                    }
                    pos = next;
                }
                // The nets give varied evaluations, not a clipped constant.
                assert!(evals.len() > 30, "{}", evals.len());
            }
            for (i, game) in VariantKind::ALL.into_iter().enumerate() {
                for (j, hidden) in [1, 15, 32, 100, 256].into_iter().enumerate() {
                    for act in [Activation::CReLU, Activation::SCReLU] {
                        let seed = (i * 10 + j) as u64;
                        let net = random_net(game, hidden, act, seed);
                        dispatch!(game, V => check::<V>(&net, seed));
                    }
                }
            }
            return;
        }
        eprintln!("no AVX2 on this CPU: only the portable code runs, nothing to compare");
    }

    /// The evaluation is the side to move's: it reads the side to move's
    /// perspective through the first half of the output weights.
    #[test]
    fn evaluation_is_from_the_side_to_moves_view() {
        use movegen::variants::Chess;
        let float = test_net(VariantKind::Chess, Activation::CReLU, 3);
        let net = float.quantise();
        let pos = Position::<Chess>::from_fen("4k3/8/8/8/8/8/8/QQQQK3 b - - 0 1").unwrap();
        let acc = Accumulator::new(&net, &pos);
        let (mut black, mut white) = (Vec::new(), Vec::new());
        for_each_active(&pos, Color::Black, |f| black.push(f));
        for_each_active(&pos, Color::White, |f| white.push(f));
        let as_black = float.evaluate(&black, &white);
        let as_white = float.evaluate(&white, &black);
        assert!((as_black - as_white).abs() > 20.0, "{as_black} {as_white}");
        assert!(
            (net.evaluate(&acc, Color::Black) as f32 - as_black).abs()
                < 8.0 + 0.01 * as_black.abs()
        );
        assert!(
            (net.evaluate(&acc, Color::White) as f32 - as_white).abs()
                < 8.0 + 0.01 * as_white.abs()
        );
    }
}
