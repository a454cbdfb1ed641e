//! Counter-based randomness: every random choice is a function of a seed and
//! the indices of what it is for (game, iteration, weight), never of a
//! running generator, so interrupted and resumed runs draw the same numbers.
//! The generator itself is movegen's [`SplitMix64`], the workspace's one.

use movegen::SplitMix64;

/// A well-mixed 64-bit value for `(seed, a, b)`.
pub fn hash3(seed: u64, a: u64, b: u64) -> u64 {
    let x = SplitMix64::new(seed ^ 0x005E_ED0F_7A11_u64).next_u64();
    let y = SplitMix64::new(x ^ a.wrapping_mul(0x9E37_79B9_7F4A_7C15)).next_u64();
    SplitMix64::new(y ^ b.wrapping_mul(0xC2B2_AE3D_27D4_EB4F)).next_u64()
}

/// A generator for the sequence of draws inside one unit of work `(seed, a,
/// b)` (the random plies of one game's opening), seeded from [`hash3`].
pub fn stream(seed: u64, a: u64, b: u64) -> SplitMix64 {
    SplitMix64::new(hash3(seed, a, b))
}
