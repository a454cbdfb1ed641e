//! # tune
//!
//! Fitting the weights of varia's linear evaluation ([`search::EvalParams`]):
//!
//! - [`datagen`]: labelled positions (`fen,result` CSV) from self-play with
//!   varied openings, or from the match runner's per-game CSV and PGN files.
//! - [`label`]: positions labelled with an engine's expected score (its
//!   search score through a logistic) instead of a game's result.
//! - [`qleaf`]: resolving a position to the leaf of its quiescence search, the
//!   position whose static evaluation the engine would trust.
//! - [`texel`]: Texel tuning — the scale `K`, then the weights, minimizing the
//!   squared error between game results and a sigmoid of the quiescence
//!   score. The evaluation being linear, each leaf is stored once as a sparse
//!   feature vector and every epoch is a pass of dot products.
//! - [`spsa`]: simultaneous perturbation stochastic approximation with the
//!   fishtest/OpenBench schedule, generic over the objective (games between
//!   `theta + c*delta` and `theta - c*delta` in practice, a toy function in tests).
//! - [`spsa_uci`]: the same SPSA over an external UCI engine's spin options.
//! - [`train`]: training the engine's neural network ([`search::nnue`]) on
//!   packed positions ([`packed`]) on the CPU, with AdamW, checkpoints and an
//!   exact resume.
//! - [`trace`] and [`plot`]: one CSV row per iteration, and an SVG of the loss
//!   and the weights over iterations.

#![warn(missing_docs)]

pub mod datagen;
pub mod label;
pub mod packed;
pub mod plot;
pub mod positions;
pub mod qleaf;
pub mod rng;
pub mod spsa;
pub mod spsa_uci;
pub mod texel;
pub mod trace;
pub mod train;
mod workers;

/// A one-line error of the tuner (file and line included where there is one).
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// Reading or writing a file failed.
    #[error("{file}: {source}")]
    Io {
        /// The file.
        file: String,
        /// The cause.
        source: std::io::Error,
    },
    /// A record file (trace, datagen output): identity, checksum, columns.
    #[error(transparent)]
    Record(#[from] arena::RecordError),
    /// A match's per-game CSV.
    #[error(transparent)]
    Games(#[from] arena::ResultsError),
    /// A match played for an objective.
    #[error(transparent)]
    Match(#[from] arena::MatchError),
    /// A malformed line of an input file.
    #[error("{file}:{line}: {message}")]
    Line {
        /// The file.
        file: String,
        /// 1-based line.
        line: usize,
        /// What is wrong.
        message: String,
    },
    /// A game of a games file that cannot be used.
    #[error("{file}: game {game}: {message}")]
    Game {
        /// The file.
        file: String,
        /// Game number.
        game: usize,
        /// What is wrong.
        message: String,
    },
    /// An opening of the book that cannot be set up.
    #[error("book: {0}")]
    Book(String),
    /// A self-play game ended by a failure of the engine, not by the game.
    #[error("game {game}: the engine failed ({end})")]
    SelfPlay {
        /// The game's number.
        game: usize,
        /// How it ended (`crash`, `time`, `illegal_move`).
        end: &'static str,
    },
    /// Every random opening of a unit ended the game.
    #[error("no opening for ({0}, {1}) that does not end the game")]
    NoOpening(u64, u64),
    /// `--params` names no such weight or group.
    #[error("unknown weight or group \"{name}\" (groups: {groups}; single weights as e.g. material.queen, pst_knight.e4)")]
    UnknownWeight {
        /// The name given.
        name: String,
        /// The group names.
        groups: String,
    },
    /// `--params` selects nothing.
    #[error("no weights selected")]
    NoWeights,
    /// Texel got no weights to tune.
    #[error("no weights to tune")]
    NoWeightsToTune,
    /// Texel got more weights than its sparse features index.
    #[error("too many weights")]
    TooManyWeights,
    /// Texel kept no position.
    #[error("no usable positions (every one ends the game within the quiescence search?)")]
    NoUsablePositions,
    /// SPSA got a starting point of another length than its parameters.
    #[error("{params} weights but {values} values")]
    Lengths {
        /// Parameters.
        params: usize,
        /// Values.
        values: usize,
    },
    /// A `--param` that does not parse.
    #[error("bad --param \"{text}\": {message}")]
    BadParam {
        /// The text given.
        text: String,
        /// What is wrong.
        message: String,
    },
    /// A `--param` naming an option the engine does not declare.
    #[error("the engine has no option \"{name}\" (its spin options: {offered})")]
    UnknownOption {
        /// The name given.
        name: String,
        /// The engine's spin options.
        offered: String,
    },
    /// A `--param` naming an option that is not a spin option.
    #[error("--param {name}: a {kind} option cannot be tuned (only spin options can)")]
    NotSpin {
        /// The option.
        name: String,
        /// Its type.
        kind: String,
    },
    /// A `--param` range outside the option's declared min/max.
    #[error("--param {name}: {min}..{max} is outside the engine's range {declared}")]
    OutOfRange {
        /// The option.
        name: String,
        /// MIN given.
        min: f64,
        /// MAX given.
        max: f64,
        /// The declared `min..max`.
        declared: String,
    },
    /// One option given twice.
    #[error("--param {0} is given twice")]
    DuplicateParam(String),
    /// The engine could not be started or queried.
    #[error("engine: {0}")]
    Engine(#[from] arena::PlayerError),
    /// A match objective ended without games.
    #[error("no games were played")]
    NoGames,
    /// A packed training-position file that cannot be read.
    #[error(transparent)]
    Packed(#[from] packed::PackedError),
    /// A net file that cannot be read or written.
    #[error(transparent)]
    Net(#[from] search::nnue::NetError),
    /// A training data file of another game.
    #[error("{file}: positions of {found}, not of {expected}")]
    DataGame {
        /// The file.
        file: String,
        /// The game it holds.
        found: movegen::VariantKind,
        /// The game being trained.
        expected: movegen::VariantKind,
    },
    /// No training positions.
    #[error("no training positions (the data files are empty, or all held out for validation)")]
    NoTrainingData,
    /// A training setting that cannot be used.
    #[error("{0}")]
    TrainSetting(String),
    /// A training checkpoint that cannot be resumed.
    #[error("{file}: {message}")]
    Checkpoint {
        /// The file.
        file: String,
        /// What is wrong.
        message: String,
    },
    /// The failure of a caller's callback (an objective, an observer).
    #[error("{0}")]
    Callback(Box<dyn std::error::Error + Send + Sync>),
}

impl Error {
    /// An I/O error of `file`.
    pub fn io(file: impl std::fmt::Display) -> impl FnOnce(std::io::Error) -> Error {
        let file = file.to_string();
        move |source| Error::Io { file, source }
    }
}

/// Result with [`Error`].
pub type Result<T> = std::result::Result<T, Error>;

/// Indices of the weights in the named groups (`material`, `pst_knight`, ...)
/// or single weights (`material.queen`, `pst_knight.e4`), in layout order
/// without repeats.
pub fn select_weights(spec: &str) -> Result<Vec<usize>> {
    use search::eval::{EvalParams, GROUPS};
    let mut out = Vec::new();
    for item in spec.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        if let Some(g) = EvalParams::group(item) {
            out.extend(g.offset..g.offset + g.len);
        } else if let Some(i) = EvalParams::weight_index(item) {
            out.push(i);
        } else {
            return Err(Error::UnknownWeight {
                name: item.to_string(),
                groups: GROUPS.iter().map(|g| g.name).collect::<Vec<_>>().join(", "),
            });
        }
    }
    if out.is_empty() {
        return Err(Error::NoWeights);
    }
    out.sort_unstable();
    out.dedup();
    Ok(out)
}
