//! # tune
//!
//! Fitting the weights of varia's linear evaluation ([`search::EvalParams`]):
//!
//! - [`datagen`]: labelled positions (`fen,result` CSV) from self-play with
//!   varied openings, or from the match runner's per-game CSV and PGN files.
//! - [`qleaf`]: resolving a position to the leaf of its quiescence search, the
//!   position whose static evaluation the engine would trust.
//! - [`texel`]: Texel tuning — the scale `K`, then the weights, minimizing the
//!   squared error between game results and a sigmoid of the quiescence
//!   score. The evaluation being linear, each leaf is stored once as a sparse
//!   feature vector and every epoch is a pass of dot products.
//! - [`spsa`]: simultaneous perturbation stochastic approximation with the
//!   fishtest/OpenBench schedule, generic over the objective (games between
//!   `theta + c*delta` and `theta - c*delta` in practice, a toy function in tests).
//! - [`trace`] and [`plot`]: one CSV row per iteration, and an SVG of the loss
//!   and the weights over iterations.

#![warn(missing_docs)]

pub mod datagen;
pub mod plot;
pub mod positions;
pub mod qleaf;
pub mod rng;
pub mod spsa;
pub mod texel;
pub mod trace;

/// A one-line error (file and line included where there is one).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct Error(pub String);

impl From<String> for Error {
    fn from(s: String) -> Error {
        Error(s)
    }
}

impl From<&str> for Error {
    fn from(s: &str) -> Error {
        Error(s.to_string())
    }
}

/// Result with [`Error`].
pub type Result<T> = std::result::Result<T, Error>;

/// Indices of the weights in the named groups (`material`, `pst_knight`, ...)
/// or single weights (`material.queen`, `pst_knight.e4`), in layout order
/// without repeats.
pub fn select_weights(spec: &str) -> Result<Vec<usize>> {
    use search::eval::{EvalParams, GROUPS, NUM_WEIGHTS};
    let mut out = Vec::new();
    for item in spec.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        if let Some(g) = EvalParams::group(item) {
            out.extend(g.offset..g.offset + g.len);
        } else if let Some(i) = (0..NUM_WEIGHTS).find(|&i| EvalParams::weight_name(i) == item) {
            out.push(i);
        } else {
            return Err(Error(format!(
                "unknown weight or group \"{item}\" (groups: {}; single weights as e.g. material.queen, pst_knight.e4)",
                GROUPS.iter().map(|g| g.name).collect::<Vec<_>>().join(", ")
            )));
        }
    }
    if out.is_empty() {
        return Err(Error("no weights selected".into()));
    }
    out.sort_unstable();
    out.dedup();
    Ok(out)
}
