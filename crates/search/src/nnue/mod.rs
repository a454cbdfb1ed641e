//! The neural evaluation (NNUE): the ONE home of the network for the engine
//! and the trainer (`tune::train`), so that a feature index, a weight layout
//! or a quantisation constant cannot differ between the two. The field's
//! costliest net bugs were exactly such differences (sign and layout errors
//! worth -117 to -504 Elo), hence one module, and tests that pin the
//! incremental accumulator to a fresh one and the quantised output to the
//! float network.
//!
//! The architecture is a perspective network `(inputs -> H) x 2 -> 1`:
//!
//! - [`features`]: the inputs. For each perspective colour, own/enemy x 7
//!   roles x 64 squares with the board mirrored vertically for Black (896),
//!   plus, in threecheck only, the remaining checks of each side one-hot (8).
//! - [`network`]: the float network ([`FloatNetwork`], what the trainer
//!   optimises), its quantisation into the engine's [`Network`], and the net
//!   file format (a 32-byte header with magic, version, game, architecture,
//!   quantisation constants and an FNV-1a hash of the weights, then
//!   little-endian `i16` weights), read with typed one-line errors
//!   ([`NetError`]).
//! - [`accumulator`]: quantised inference. An [`Accumulator`] holds the first
//!   layer's `i16` sums for both perspectives; it is refreshed from a position
//!   or updated from its parent's by diffing the two boards (so captures,
//!   promotions, castling, en passant, atomic explosions and suicide's king
//!   captures are one code path), and [`Network::evaluate`] turns it into
//!   centipawns for the side to move.
//!
//! - [`embedded`]: the nets built into the binary, each game's default
//!   evaluation once its net has passed an SPRT against the classical one.
//!
//! The search plays a net through the evaluation seam
//! ([`crate::evaluator`]: `Evaluator::Network`, one accumulator a ply on each
//! thread's stack). `docs/nnue.md` describes the format byte by
//! byte and how to train a net.

pub mod accumulator;
pub mod embedded;
pub mod features;
pub mod network;

pub use accumulator::Accumulator;
pub use network::{Activation, FloatNetwork, NetError, Network};

/// Quantisation of the first layer (weights, biases and so the accumulator):
/// a float `w` is stored as `round(w * QA)`, and the clipped activation's 1.0
/// is `QA`.
pub const QA: i32 = 255;
/// Quantisation of the output weights: `round(w * QB)`; the output bias is
/// `round(b * QA * QB)`.
pub const QB: i32 = 64;
/// The evaluation scale: the network's output 1.0 is `SCALE` centipawns.
pub const SCALE: i32 = 400;
/// The largest magnitude a float weight may take (the trainer clips to it), so
/// that every quantised weight, the output bias (`1.98 * QA * QB = 32314`)
/// included, fits an `i16`.
pub const CLIP: f32 = 1.98;
