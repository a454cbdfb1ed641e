//! SplitMix64, the one pseudo-random generator of the workspace (only the
//! build script's magic-number search keeps its own xorshift, since it runs
//! before this crate exists).
//!
//! It lives in `movegen` because the Zobrist keys are drawn from it at
//! compile time (hence the `const fn`s), and every other crate (the match
//! schedule, random openings, the tuner) already depends on `movegen`.
//! Its output is part of committed data: Zobrist keys (perft hash tables,
//! checkpoints), match schedules and opening books, so the sequence for a
//! seed must never change.

/// SplitMix64 (Steele, Lea and Flood 2014): a 64-bit state advanced by a
/// constant, each output a mix of the state. Small, fast, and the same on
/// every platform and version.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    /// A generator whose first output is a mix of `seed + γ`.
    pub const fn new(seed: u64) -> SplitMix64 {
        SplitMix64 { state: seed }
    }

    /// The next 64 random bits.
    #[inline]
    pub const fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (`n > 0`), by scaling the top 53 bits (no modulo
    /// bias worth the name for any `n` a game or a data set has).
    #[inline]
    pub fn below(&mut self, n: usize) -> usize {
        (((self.next_u64() >> 11) as u128 * n as u128) >> 53) as usize
    }

    /// Uniform in `[0, 1)`.
    #[inline]
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }
}

#[cfg(test)]
mod tests {
    use super::SplitMix64;

    #[test]
    fn matches_the_reference_sequence() {
        // The reference implementation's outputs for seed 1234567
        // (https://prng.di.unimi.it/splitmix64.c).
        let mut r = SplitMix64::new(1234567);
        let want = [
            6457827717110365317,
            3203168211198807973,
            9817491932198370423,
            4593380528125082431,
            16408922859458223821,
        ];
        for w in want {
            assert_eq!(r.next_u64(), w);
        }
    }

    #[test]
    fn below_and_unit_stay_in_range() {
        let mut r = SplitMix64::new(7);
        for n in 1..200 {
            assert!(r.below(n) < n);
            let u = r.unit();
            assert!((0.0..1.0).contains(&u));
        }
    }
}
