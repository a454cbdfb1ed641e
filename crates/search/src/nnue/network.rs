//! The network's weights: the float form the trainer optimises
//! ([`FloatNetwork`]), the quantised form the engine runs ([`Network`]), the
//! quantisation between them, and the net file format.
//!
//! # Layout
//!
//! Both forms store, in this order: the first layer's weights, feature-major
//! (input `f`'s `H` weights are contiguous, so an accumulator update adds one
//! row), the first layer's `H` biases, the `2H` output weights (the first `H`
//! apply to the side to move's accumulator, the next `H` to the other
//! side's), and the output bias.
//!
//! # Net file (all integers little-endian)
//!
//! ```text
//!  0..8   magic b"VARIANET"
//!  8..10  format version, u16 = 1
//! 10      game: u8, the index of movegen::VariantKind in VariantKind::ALL
//! 11      activation: u8, 0 = CReLU, 1 = SCReLU
//! 12..14  inputs, u16 (896, or 904 for threecheck: features::input_count)
//! 14..16  hidden size H, u16 (1..=4096)
//! 16..18  QA, u16 = 255
//! 18..20  QB, u16 = 64
//! 20..22  evaluation scale, u16 = 400 (the output 1.0 in centipawns)
//! 22..24  zero
//! 24..32  FNV-1a (64-bit) of every byte from offset 32 to the end
//! 32..    inputs * H  i16  first-layer weights, round(w * QA), feature-major
//!         H           i16  first-layer biases, round(b * QA)
//!         2H          i16  output weights, round(w * QB), side to move first
//!         1           i16  output bias, round(b * QA * QB)
//! ```
//!
//! A file is exactly `32 + 2 * (inputs * H + 3H + 1)` bytes. Reading checks,
//! in order: the magic, the version, the game, the architecture, the length,
//! the hash; each failure is a [`NetError`] naming the file and what is wrong.

use super::features::{input_count, MAX_INPUTS};
use super::{CLIP, QA, QB, SCALE};
use movegen::{SplitMix64, VariantKind};
use std::fmt;
use std::path::Path;

/// The magic at the start of every net file.
pub const MAGIC: [u8; 8] = *b"VARIANET";
/// The net file format version this build reads and writes.
pub const FORMAT_VERSION: u16 = 1;
/// The size of the header.
pub const HEADER_LEN: usize = 32;
/// The largest hidden size a net file may declare.
pub const MAX_HIDDEN: usize = 4096;

/// The hidden layer's activation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Activation {
    /// Clipped ReLU: `clamp(x, 0, 1)`.
    CReLU,
    /// Squared clipped ReLU: `clamp(x, 0, 1)^2`.
    SCReLU,
}

impl Activation {
    /// The code stored in a net file's byte 11.
    pub const fn code(self) -> u8 {
        match self {
            Activation::CReLU => 0,
            Activation::SCReLU => 1,
        }
    }

    /// The activation of a file's code.
    pub const fn from_code(code: u8) -> Option<Activation> {
        match code {
            0 => Some(Activation::CReLU),
            1 => Some(Activation::SCReLU),
            _ => None,
        }
    }

    /// Its name on the command line (`crelu`, `screlu`).
    pub const fn name(self) -> &'static str {
        match self {
            Activation::CReLU => "crelu",
            Activation::SCReLU => "screlu",
        }
    }

    /// The float activation of a first-layer sum.
    #[inline]
    pub fn apply(self, x: f32) -> f32 {
        let c = x.clamp(0.0, 1.0);
        match self {
            Activation::CReLU => c,
            Activation::SCReLU => c * c,
        }
    }

    /// Its derivative at `x` (0 where clipped).
    #[inline]
    pub fn derivative(self, x: f32) -> f32 {
        if x <= 0.0 || x >= 1.0 {
            0.0
        } else {
            match self {
                Activation::CReLU => 1.0,
                Activation::SCReLU => 2.0 * x,
            }
        }
    }
}

impl fmt::Display for Activation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Activation {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s.to_ascii_lowercase().as_str() {
            "crelu" => Ok(Activation::CReLU),
            "screlu" => Ok(Activation::SCReLU),
            _ => Err(format!("unknown activation \"{s}\" (valid: crelu, screlu)")),
        }
    }
}

/// Why a net file cannot be used; each message is one line naming the file.
#[derive(Debug, thiserror::Error)]
pub enum NetError {
    /// The file cannot be read or written.
    #[error("{file}: {source}")]
    Io {
        /// The file.
        file: String,
        /// The cause.
        source: std::io::Error,
    },
    /// The file does not start with the magic.
    #[error("{file}: not a varia net file (it does not start with \"VARIANET\")")]
    NotANet {
        /// The file.
        file: String,
    },
    /// A format version this build does not read.
    #[error("{file}: net format version {found}, this build reads version {FORMAT_VERSION}")]
    Version {
        /// The file.
        file: String,
        /// The version in the file.
        found: u16,
    },
    /// A net of another game (or of an unknown game index).
    #[error("{file}: a net for {found}, not for {expected}")]
    WrongGame {
        /// The file.
        file: String,
        /// The game the file is for (its name, or its unknown index).
        found: String,
        /// The game asked for.
        expected: VariantKind,
    },
    /// An architecture this engine does not run.
    #[error("{file}: unsupported architecture: {what}")]
    Architecture {
        /// The file.
        file: String,
        /// What differs.
        what: String,
    },
    /// The file is shorter than its header says.
    #[error("{file}: truncated net file ({len} bytes, its header needs {expected})")]
    Truncated {
        /// The file.
        file: String,
        /// Its length.
        len: usize,
        /// The length its header implies.
        expected: usize,
    },
    /// The file is longer than its header says.
    #[error("{file}: {extra} bytes after the weights (is it two files joined?)")]
    TrailingBytes {
        /// The file.
        file: String,
        /// How many bytes too many.
        extra: usize,
    },
    /// The weights do not match the header's hash.
    #[error(
        "{file}: corrupt net file (weight hash {computed:016x}, the header says {stored:016x})"
    )]
    Hash {
        /// The file.
        file: String,
        /// The hash in the header.
        stored: u64,
        /// The hash of the weights.
        computed: u64,
    },
}

/// 64-bit FNV-1a of `bytes` (the net file's weight hash).
pub fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// The index of `game` in [`VariantKind::ALL`] (the file's game byte).
pub fn game_index(game: VariantKind) -> u8 {
    VariantKind::ALL
        .iter()
        .position(|&k| k == game)
        .expect("every game is in VariantKind::ALL") as u8
}

/// The number of parameters of a network with `inputs` inputs and `hidden`
/// neurons: `inputs * H + H + 2H + 1`.
pub const fn param_count(inputs: usize, hidden: usize) -> usize {
    inputs * hidden + 3 * hidden + 1
}

/// The float network the trainer optimises: all parameters in one flat
/// vector in the layout of the module documentation, so that gradients and
/// optimiser moments are vectors of the same shape.
#[derive(Clone, Debug, PartialEq)]
pub struct FloatNetwork {
    /// The game it evaluates (fixes the input count).
    pub game: VariantKind,
    /// The hidden layer's activation.
    pub activation: Activation,
    /// Hidden size H.
    pub hidden: usize,
    /// Every parameter, [`param_count`] of them.
    pub params: Vec<f32>,
}

impl FloatNetwork {
    /// A network of `hidden` neurons with the starting weights of training,
    /// drawn from `seed`: first-layer weights uniform in ±0.1, output weights
    /// uniform in ±1/sqrt(2H), biases zero. The first layer's scale keeps the
    /// sums of ~32 active inputs inside the activation's unclipped range.
    pub fn init(game: VariantKind, hidden: usize, activation: Activation, seed: u64) -> Self {
        let inputs = input_count(game);
        let mut rng = SplitMix64::new(seed);
        let mut params = vec![0.0f32; param_count(inputs, hidden)];
        let mut uniform = |r: f32| ((rng.unit() * 2.0 - 1.0) as f32) * r;
        for w in &mut params[..inputs * hidden] {
            *w = uniform(0.1);
        }
        let r = 1.0 / ((2 * hidden) as f32).sqrt();
        let out = inputs * hidden + hidden;
        for w in &mut params[out..out + 2 * hidden] {
            *w = uniform(r);
        }
        FloatNetwork {
            game,
            activation,
            hidden,
            params,
        }
    }

    /// The number of inputs.
    pub fn inputs(&self) -> usize {
        input_count(self.game)
    }

    /// The first-layer weights of input `f` (`H` values).
    #[inline]
    pub fn feature_row(&self, f: usize) -> &[f32] {
        &self.params[f * self.hidden..(f + 1) * self.hidden]
    }

    /// Offset of the first-layer biases in [`FloatNetwork::params`].
    pub fn bias_offset(&self) -> usize {
        self.inputs() * self.hidden
    }

    /// Offset of the output weights.
    pub fn out_offset(&self) -> usize {
        self.bias_offset() + self.hidden
    }

    /// Offset of the output bias (the last parameter).
    pub fn out_bias_offset(&self) -> usize {
        self.out_offset() + 2 * self.hidden
    }

    /// The first layer's sums (before the activation) for the active inputs
    /// `active`, written to `out` (`H` values).
    pub fn first_layer(&self, active: &[usize], out: &mut [f32]) {
        let h = self.hidden;
        out.copy_from_slice(&self.params[self.bias_offset()..self.bias_offset() + h]);
        for &f in active {
            for (o, w) in out.iter_mut().zip(self.feature_row(f)) {
                *o += w;
            }
        }
    }

    /// The raw output (1.0 = [`SCALE`] centipawns) for the side to move's
    /// active inputs `us` and the other side's `them`.
    pub fn output(&self, us: &[usize], them: &[usize]) -> f32 {
        let h = self.hidden;
        let (mut a, mut b) = (vec![0.0; h], vec![0.0; h]);
        self.first_layer(us, &mut a);
        self.first_layer(them, &mut b);
        let w = &self.params[self.out_offset()..self.out_offset() + 2 * h];
        let mut sum = self.params[self.out_bias_offset()];
        for i in 0..h {
            sum += self.activation.apply(a[i]) * w[i] + self.activation.apply(b[i]) * w[h + i];
        }
        sum
    }

    /// The evaluation in centipawns (float) for the side to move.
    pub fn evaluate(&self, us: &[usize], them: &[usize]) -> f32 {
        self.output(us, them) * SCALE as f32
    }

    /// The quantised network: first layer `round(w * QA)`, output weights
    /// `round(w * QB)`, output bias `round(b * QA * QB)`. Values beyond
    /// [`CLIP`] (which the trainer never produces) saturate at ±CLIP.
    pub fn quantise(&self) -> Network {
        let q =
            |w: f32, scale: i32| -> i16 { (w.clamp(-CLIP, CLIP) * scale as f32).round() as i16 };
        let (b, o, ob) = (
            self.bias_offset(),
            self.out_offset(),
            self.out_bias_offset(),
        );
        Network::from_parts(
            self.game,
            self.activation,
            self.hidden,
            self.params[..b].iter().map(|&w| q(w, QA)).collect(),
            self.params[b..o].iter().map(|&w| q(w, QA)).collect(),
            self.params[o..ob].iter().map(|&w| q(w, QB)).collect(),
            q(self.params[ob], QA * QB),
        )
    }
}

/// The quantised network the engine evaluates with (see [`super::Accumulator`]
/// and [`Network::evaluate`]); read from a net file with [`Network::load`].
#[derive(Clone, PartialEq, Eq)]
pub struct Network {
    pub(super) game: VariantKind,
    pub(super) activation: Activation,
    pub(super) hidden: usize,
    /// `inputs * H`, feature-major.
    pub(super) ft_weights: Vec<i16>,
    /// `H`.
    pub(super) ft_bias: Vec<i16>,
    /// `2H`, side to move first.
    pub(super) out_weights: Vec<i16>,
    pub(super) out_bias: i16,
}

/// The net's shape and weight hash, not its 100k weights (an `Evaluator`
/// in a logged or asserted value would otherwise print them all).
impl fmt::Debug for Network {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Network")
            .field("game", &self.game)
            .field("activation", &self.activation)
            .field("hidden", &self.hidden)
            .field("hash", &format_args!("{:016x}", self.hash()))
            .finish()
    }
}

impl Network {
    fn from_parts(
        game: VariantKind,
        activation: Activation,
        hidden: usize,
        ft_weights: Vec<i16>,
        ft_bias: Vec<i16>,
        out_weights: Vec<i16>,
        out_bias: i16,
    ) -> Network {
        debug_assert_eq!(ft_weights.len(), input_count(game) * hidden);
        debug_assert_eq!(ft_bias.len(), hidden);
        debug_assert_eq!(out_weights.len(), 2 * hidden);
        Network {
            game,
            activation,
            hidden,
            ft_weights,
            ft_bias,
            out_weights,
            out_bias,
        }
    }

    /// The game this net evaluates.
    pub fn game(&self) -> VariantKind {
        self.game
    }

    /// The hidden layer's activation.
    pub fn activation(&self) -> Activation {
        self.activation
    }

    /// Hidden size H.
    pub fn hidden(&self) -> usize {
        self.hidden
    }

    /// The number of inputs.
    pub fn inputs(&self) -> usize {
        input_count(self.game)
    }

    /// The first-layer weights of input `f` (`H` values).
    #[inline]
    pub(super) fn feature_row(&self, f: usize) -> &[i16] {
        &self.ft_weights[f * self.hidden..(f + 1) * self.hidden]
    }

    /// The float network this one computes: every weight divided by its
    /// quantisation factor. [`Network::evaluate`] equals its evaluation up to
    /// the rounding of the integer divisions (a test holds it to 1 cp), which
    /// separates the error of the arithmetic from that of the rounding of the
    /// weights.
    pub fn dequantise(&self) -> FloatNetwork {
        let (qa, qb) = (QA as f32, QB as f32);
        let mut params = Vec::with_capacity(param_count(self.inputs(), self.hidden));
        params.extend(self.ft_weights.iter().map(|&w| f32::from(w) / qa));
        params.extend(self.ft_bias.iter().map(|&w| f32::from(w) / qa));
        params.extend(self.out_weights.iter().map(|&w| f32::from(w) / qb));
        params.push(f32::from(self.out_bias) / (qa * qb));
        FloatNetwork {
            game: self.game,
            activation: self.activation,
            hidden: self.hidden,
            params,
        }
    }

    /// The bytes after the header: every weight as little-endian `i16`.
    fn weight_bytes(&self) -> Vec<u8> {
        let all = self
            .ft_weights
            .iter()
            .chain(&self.ft_bias)
            .chain(&self.out_weights)
            .chain(std::iter::once(&self.out_bias));
        let mut out = Vec::with_capacity(2 * param_count(self.inputs(), self.hidden));
        for w in all {
            out.extend_from_slice(&w.to_le_bytes());
        }
        out
    }

    /// The FNV-1a hash of the weights (the header's bytes 24..32), which
    /// also names a net in logs.
    pub fn hash(&self) -> u64 {
        fnv1a(&self.weight_bytes())
    }

    /// The net file's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let weights = self.weight_bytes();
        let mut out = Vec::with_capacity(HEADER_LEN + weights.len());
        out.extend_from_slice(&MAGIC);
        out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
        out.push(game_index(self.game));
        out.push(self.activation.code());
        out.extend_from_slice(&(self.inputs() as u16).to_le_bytes());
        out.extend_from_slice(&(self.hidden as u16).to_le_bytes());
        out.extend_from_slice(&(QA as u16).to_le_bytes());
        out.extend_from_slice(&(QB as u16).to_le_bytes());
        out.extend_from_slice(&(SCALE as u16).to_le_bytes());
        out.extend_from_slice(&[0, 0]);
        out.extend_from_slice(&fnv1a(&weights).to_le_bytes());
        debug_assert_eq!(out.len(), HEADER_LEN);
        out.extend_from_slice(&weights);
        out
    }

    /// Writes the net file `path` (through a temporary file renamed into
    /// place, so a reader never sees half a net).
    pub fn save(&self, path: &Path) -> Result<(), NetError> {
        let file = path.display().to_string();
        let io = |source| NetError::Io {
            file: file.clone(),
            source,
        };
        let mut tmp = path.as_os_str().to_owned();
        tmp.push(".tmp");
        let tmp = std::path::PathBuf::from(tmp);
        std::fs::write(&tmp, self.to_bytes()).map_err(io)?;
        std::fs::rename(&tmp, path).map_err(io)
    }

    /// Reads the net file `path`, which must be a net for `game`.
    pub fn load(path: &Path, game: VariantKind) -> Result<Network, NetError> {
        let file = path.display().to_string();
        let bytes = std::fs::read(path).map_err(|source| NetError::Io {
            file: file.clone(),
            source,
        })?;
        Network::from_bytes(&bytes, &file, game)
    }

    /// Reads a net file's `bytes` (named `file` in errors), which must be a
    /// net for `game`.
    pub fn from_bytes(bytes: &[u8], file: &str, game: VariantKind) -> Result<Network, NetError> {
        let file = file.to_string();
        let u16_at = |i: usize| u16::from_le_bytes([bytes[i], bytes[i + 1]]);
        if bytes.len() < HEADER_LEN {
            // A prefix of a header: truncated if what is there is right so far.
            let n = bytes.len().min(MAGIC.len());
            return Err(if bytes[..n] == MAGIC[..n] {
                NetError::Truncated {
                    file,
                    len: bytes.len(),
                    expected: HEADER_LEN,
                }
            } else {
                NetError::NotANet { file }
            });
        }
        if bytes[..8] != MAGIC {
            return Err(NetError::NotANet { file });
        }
        let version = u16_at(8);
        if version != FORMAT_VERSION {
            return Err(NetError::Version {
                file,
                found: version,
            });
        }
        let found = VariantKind::ALL.get(usize::from(bytes[10])).copied();
        if found != Some(game) {
            let found = match found {
                Some(k) => k.to_string(),
                None => format!("unknown game index {}", bytes[10]),
            };
            return Err(NetError::WrongGame {
                file,
                found,
                expected: game,
            });
        }
        let arch = |what: String| NetError::Architecture {
            file: file.clone(),
            what,
        };
        let Some(activation) = Activation::from_code(bytes[11]) else {
            return Err(arch(format!(
                "activation code {} (known: 0 crelu, 1 screlu)",
                bytes[11]
            )));
        };
        let (inputs, hidden) = (usize::from(u16_at(12)), usize::from(u16_at(14)));
        if inputs != input_count(game) {
            return Err(arch(format!(
                "{inputs} inputs, {game} nets have {}",
                input_count(game)
            )));
        }
        debug_assert!(inputs <= MAX_INPUTS);
        if hidden == 0 || hidden > MAX_HIDDEN {
            return Err(arch(format!("hidden size {hidden} (1..={MAX_HIDDEN})")));
        }
        for (name, at, want) in [("QA", 16, QA), ("QB", 18, QB), ("scale", 20, SCALE)] {
            let v = u16_at(at);
            if i32::from(v) != want {
                return Err(arch(format!("{name} {v}, this engine uses {want}")));
            }
        }
        let expected = HEADER_LEN + 2 * param_count(inputs, hidden);
        if bytes.len() < expected {
            return Err(NetError::Truncated {
                file,
                len: bytes.len(),
                expected,
            });
        }
        if bytes.len() > expected {
            return Err(NetError::TrailingBytes {
                file,
                extra: bytes.len() - expected,
            });
        }
        let stored = u64::from_le_bytes(bytes[24..32].try_into().expect("8 bytes"));
        let computed = fnv1a(&bytes[HEADER_LEN..]);
        if stored != computed {
            return Err(NetError::Hash {
                file,
                stored,
                computed,
            });
        }
        let mut w = bytes[HEADER_LEN..]
            .chunks_exact(2)
            .map(|c| i16::from_le_bytes([c[0], c[1]]));
        let mut take = |n: usize| -> Vec<i16> { w.by_ref().take(n).collect() };
        // The arguments are evaluated in order: the blocks in file order.
        let net = Network::from_parts(
            game,
            activation,
            hidden,
            take(inputs * hidden),
            take(hidden),
            take(2 * hidden),
            take(1)[0],
        );
        if let Some(bound) = net.crelu_sum_bound().filter(|&b| b > i64::from(i32::MAX)) {
            return Err(arch(format!(
                "CReLU output weights too large: a perspective's sum can reach {bound}, \
                 beyond the 32-bit sums of inference"
            )));
        }
        Ok(net)
    }

    /// With CReLU, the largest magnitude one perspective's output sum can
    /// take (`QA × Σ|w|` over its half of the output weights): inference
    /// sums it in `i32`, so a file beyond that is refused. `None` for
    /// SCReLU, whose sums are `i64`. Trained nets stay far below the
    /// bound (weights clipped to ±1.98 give at most 255 × 127 × H).
    fn crelu_sum_bound(&self) -> Option<i64> {
        if self.activation != Activation::CReLU {
            return None;
        }
        self.out_weights
            .chunks(self.hidden)
            .map(|half| {
                half.iter()
                    .map(|&w| i64::from(w).abs() * i64::from(QA))
                    .sum::<i64>()
            })
            .max()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn net(game: VariantKind) -> Network {
        FloatNetwork::init(game, 8, Activation::SCReLU, 1).quantise()
    }

    #[test]
    fn crelu_output_weights_whose_sums_overflow_are_refused() {
        let game = VariantKind::Chess;
        let mut n = FloatNetwork::init(game, 300, Activation::CReLU, 1).quantise();
        // 300 weights of the largest magnitude: 255 × 32767 × 300 > i32::MAX.
        n.out_weights[..300].fill(i16::MIN + 1);
        let err = refused(&n.to_bytes(), game);
        assert!(err.contains("CReLU output weights too large"), "{err}");
        // The same weights under SCReLU (i64 sums) load.
        n.activation = Activation::SCReLU;
        Network::from_bytes(&n.to_bytes(), "x.nnue", game).expect("SCReLU sums are i64");
    }

    fn refused(bytes: &[u8], game: VariantKind) -> String {
        Network::from_bytes(bytes, "x.nnue", game)
            .expect_err("refused")
            .to_string()
    }

    #[test]
    fn a_net_round_trips_through_its_bytes_and_a_file() {
        for game in VariantKind::ALL {
            let n = net(game);
            let bytes = n.to_bytes();
            assert_eq!(bytes.len(), 32 + 2 * param_count(input_count(game), 8));
            assert_eq!(Network::from_bytes(&bytes, "x", game).unwrap(), n);
        }
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("n.nnue");
        let n = net(VariantKind::Atomic);
        n.save(&path).unwrap();
        assert_eq!(Network::load(&path, VariantKind::Atomic).unwrap(), n);
        let e = Network::load(&dir.path().join("none.nnue"), VariantKind::Atomic).unwrap_err();
        assert!(e.to_string().contains("none.nnue"), "{e}");
    }

    #[test]
    fn the_header_is_laid_out_as_documented() {
        let n = net(VariantKind::ThreeCheck);
        let b = n.to_bytes();
        assert_eq!(&b[..8], b"VARIANET");
        assert_eq!(u16::from_le_bytes([b[8], b[9]]), 1);
        assert_eq!(b[10], 2); // ThreeCheck is third in VariantKind::ALL
        assert_eq!(b[11], 1); // SCReLU
        assert_eq!(u16::from_le_bytes([b[12], b[13]]), 904);
        assert_eq!(u16::from_le_bytes([b[14], b[15]]), 8);
        assert_eq!(u16::from_le_bytes([b[16], b[17]]), 255);
        assert_eq!(u16::from_le_bytes([b[18], b[19]]), 64);
        assert_eq!(u16::from_le_bytes([b[20], b[21]]), 400);
        assert_eq!(&b[22..24], &[0, 0]);
        assert_eq!(
            u64::from_le_bytes(b[24..32].try_into().unwrap()),
            fnv1a(&b[32..])
        );
        // Input 1's first weight follows input 0's H weights.
        assert_eq!(
            i16::from_le_bytes([b[32 + 16], b[33 + 16]]),
            n.feature_row(1)[0]
        );
    }

    #[test]
    fn bad_net_files_are_refused_with_a_message_naming_the_file_and_the_fault() {
        let game = VariantKind::Chess;
        let good = net(game).to_bytes();
        let e = refused(&good[..good.len() - 1], game);
        assert!(e.starts_with("x.nnue: truncated net file"), "{e}");
        let e = refused(&good[..20], game);
        assert!(e.starts_with("x.nnue: truncated net file"), "{e}");
        let e = refused(b"[engine]\nname = 1\n", game);
        assert!(e.starts_with("x.nnue: not a varia net file"), "{e}");
        let e = refused(b"", game);
        assert!(e.contains("truncated"), "{e}");
        let mut long = good.clone();
        long.push(0);
        assert!(refused(&long, game).contains("1 bytes after the weights"));
        let e = refused(&good, VariantKind::Atomic);
        assert_eq!(e, "x.nnue: a net for chess, not for atomic");
        // One header field at a time made wrong: (offset, bytes, message).
        let faults: [(usize, &[u8], &str); 7] = [
            (10, &[9], "unknown game index 9"),
            (8, &[2], "net format version 2"),
            (11, &[5], "unsupported architecture: activation code 5"),
            (12, &768u16.to_le_bytes(), "768 inputs, chess nets have 896"),
            (14, &0u16.to_le_bytes(), "hidden size 0"),
            (14, &16u16.to_le_bytes(), "truncated"),
            (16, &181u16.to_le_bytes(), "QA 181, this engine uses 255"),
        ];
        for (offset, bytes, message) in faults {
            let mut b = good.clone();
            b[offset..offset + bytes.len()].copy_from_slice(bytes);
            let e = refused(&b, game);
            assert!(e.contains(message), "{e}, expected {message}");
        }
        let mut b = good.clone();
        let last = b.len() - 1;
        b[last] ^= 1;
        assert!(refused(&b, game).starts_with("x.nnue: corrupt net file (weight hash"));
        // None of the messages spans lines.
        for bytes in [&good[..3], &b[..]] {
            assert!(!refused(bytes, game).contains('\n'));
        }
    }

    #[test]
    fn fnv1a_matches_its_published_values() {
        assert_eq!(fnv1a(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a(b"a"), 0xaf63_dc4c_8601_ec8c);
    }
}
