//! Counter-based randomness: every random choice is a function of a seed and
//! the indices of what it is for (game, iteration, weight), never of a
//! running generator, so interrupted and resumed runs draw the same numbers.

/// SplitMix64 step (the same generator the match schedule uses).
pub fn splitmix(state: &mut u64) -> u64 {
    arena::schedule::splitmix(state)
}

/// A well-mixed 64-bit value for `(seed, a, b)`.
pub fn hash3(seed: u64, a: u64, b: u64) -> u64 {
    let mut s = seed ^ 0x005E_ED0F_7A11_u64;
    let x = splitmix(&mut s);
    let mut s = x ^ a.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    let y = splitmix(&mut s);
    let mut s = y ^ b.wrapping_mul(0xC2B2_AE3D_27D4_EB4F);
    splitmix(&mut s)
}

/// A small generator seeded from [`hash3`], for sequences inside one unit
/// of work (the random plies of one game's opening).
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator for `(seed, a, b)`.
    pub fn new(seed: u64, a: u64, b: u64) -> Rng {
        Rng(hash3(seed, a, b))
    }

    /// Next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        splitmix(&mut self.0)
    }

    /// Uniform in `0..n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        (((self.next_u64() >> 11) as u128 * n as u128) >> 53) as usize
    }

    /// Uniform in `[0, 1)`.
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }
}
