//! Training a network on the CPU: `(inputs -> H) x 2 -> 1` from packed
//! positions ([`crate::packed`]), the engine's own network
//! ([`search::nnue`]: its features, float layout and quantisation are the
//! ones used here, so the trainer and the engine cannot disagree on an index).
//!
//! # The loss
//!
//! For a position with the side to move's score `s` (centipawns) and the
//! game's result `r` from the side to move's view (1, 0.5, 0), the target is
//! `wdl * r + (1 - wdl) * sigmoid(s / K)` and the prediction
//! `sigmoid(eval / K)`, where `eval = output * SCALE` is what the engine
//! will read in centipawns. The loss is the mean squared difference. `K`
//! converts centipawns to an expected score; unless given, it is fitted to
//! the data first (golden-section search minimising the squared error
//! between `sigmoid(s / K)` and the results), so the scores and the results
//! the blend mixes speak the same scale.
//!
//! # One step
//!
//! A batch (16384 positions by default) is cut into fixed chunks of
//! [`CHUNK`] positions, each with its own gradient buffer, run in parallel by
//! rayon. The first layer is sparse: a position's forward pass sums only the
//! rows of its active inputs (at most 34 a perspective), and its backward
//! pass writes only those rows. The chunks' gradients are then summed in
//! chunk order and AdamW applied, both in parallel over blocks of
//! parameters; weights are clipped to ±[`CLIP`] so that they quantise into
//! `i16`. Because the partition into chunks and the order of every sum are
//! fixed, the result does not depend on the number of threads.
//!
//! # Epochs, resuming
//!
//! The positions are split once into training and validation sets (a seeded
//! shuffle), and each epoch visits the training set in its own seeded
//! order, a function of the seed and the epoch alone. After every epoch the
//! trainer writes the quantised net (`epoch-N.nnue`), a checkpoint (the
//! float weights, AdamW's moments and step, and the run's settings), a row
//! of the CSV trace (`trace.csv`) and its plot (`trace.svg`). The state at
//! an epoch's end is the whole state of the run, so `--resume` continues
//! from the checkpoint and ends with the same bytes as a run that was never
//! interrupted (a test holds it to that).

use crate::packed::{PackedPosition, PackedReader};
use crate::rng;
use crate::{Error, Result};
use arena::chart::{self, Panel, COLORS, GAP, PANEL_HEIGHT, RIGHT, TOP, WIDTH};
use movegen::{Color, Square, VariantKind};
use rayon::prelude::*;
use search::nnue::features::{for_each_active_in, has_check_inputs, MAX_ACTIVE};
use search::nnue::network::{fnv1a, param_count};
use search::nnue::{Activation, FloatNetwork, CLIP, SCALE};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Positions per gradient chunk (the unit of parallel work; fixed so that
/// the sums, and so the trained bytes, do not depend on the thread count).
pub const CHUNK: usize = 1024;
/// The largest batch (256 chunks, so 256 gradient buffers).
pub const MAX_BATCH: usize = 256 * CHUNK;
/// Parameters per block of the parallel gradient sum and AdamW update.
const BLOCK: usize = 4096;
/// AdamW's first-moment decay.
const BETA1: f32 = 0.9;
/// AdamW's second-moment decay.
const BETA2: f32 = 0.999;
/// AdamW's epsilon.
const EPSILON: f32 = 1e-8;

/// The settings of a training run.
#[derive(Clone, Debug, PartialEq)]
pub struct TrainConfig {
    /// The game (every data file must hold it).
    pub game: VariantKind,
    /// Hidden size H.
    pub hidden: usize,
    /// The hidden layer's activation.
    pub activation: Activation,
    /// Epochs to train in all (a resumed run may be given more).
    pub epochs: usize,
    /// Positions per batch (one AdamW step).
    pub batch_size: usize,
    /// The starting learning rate.
    pub lr: f32,
    /// Multiply the learning rate by `lr_gamma` every this many epochs (0:
    /// never).
    pub lr_drop_every: usize,
    /// The learning rate's factor at each drop.
    pub lr_gamma: f32,
    /// AdamW's decoupled weight decay.
    pub weight_decay: f32,
    /// The weight of the game result in the target (0: the score alone, 1:
    /// the result alone).
    pub wdl: f32,
    /// The scale K; `None` fits it to the data.
    pub k: Option<f64>,
    /// The fraction of the positions held out for the validation loss.
    pub val_fraction: f64,
    /// Seed of the initial weights, the split and the shuffles.
    pub seed: u64,
    /// Mirror each training position left to right (files a-h) with
    /// probability one half, drawn afresh each epoch: twice the positions
    /// for the same data, for games whose value does not depend on the
    /// side of the board (the inputs hold no castling rights). On by
    /// default (`varia train --no-mirror` turns it off).
    pub mirror: bool,
}

impl TrainConfig {
    /// The defaults of `varia train` for `game`.
    pub fn new(game: VariantKind) -> TrainConfig {
        TrainConfig {
            game,
            hidden: 128,
            activation: Activation::SCReLU,
            epochs: 10,
            batch_size: 16384,
            lr: 0.001,
            lr_drop_every: 4,
            lr_gamma: 0.3,
            weight_decay: 0.01,
            wdl: 0.0,
            k: None,
            val_fraction: 0.02,
            seed: 1,
            mirror: true,
        }
    }

    /// Refuses settings that cannot train, naming the setting.
    pub fn check(&self) -> Result<()> {
        let bad = |s: &str| Err(Error::TrainSetting(s.to_string()));
        if self.hidden == 0 || self.hidden > search::nnue::network::MAX_HIDDEN {
            return bad("--hidden must be 1..=4096");
        }
        if self.epochs == 0 {
            return bad("--epochs must be at least 1");
        }
        // Each chunk of a batch has a gradient buffer of every parameter.
        if self.batch_size == 0 || self.batch_size > MAX_BATCH {
            return bad("--batch must be 1..=262144");
        }
        if !(self.lr > 0.0 && self.lr.is_finite()) {
            return bad("--lr must be a positive number");
        }
        if !(self.lr_gamma > 0.0 && self.lr_gamma <= 1.0) {
            return bad("--lr-gamma must be in (0, 1]");
        }
        if !(0.0..1.0).contains(&self.weight_decay) {
            return bad("--weight-decay must be in [0, 1)");
        }
        if !(0.0..=1.0).contains(&self.wdl) {
            return bad("--wdl must be in [0, 1]");
        }
        if let Some(k) = self.k {
            if !(k > 0.0 && k.is_finite()) {
                return bad("--k must be a positive number");
            }
        }
        if !(0.0..0.5).contains(&self.val_fraction) {
            return bad("--val-fraction must be in [0, 0.5)");
        }
        Ok(())
    }

    /// The learning rate of `epoch` (1-based): step decay.
    pub fn lr_at(&self, epoch: usize) -> f32 {
        let drops = match self.lr_drop_every {
            0 => 0,
            n => (epoch - 1) / n,
        };
        self.lr * self.lr_gamma.powi(drops as i32)
    }

    /// Every setting that fixes the trained bytes, as `name=value` words
    /// (the epoch count aside, which a resumed run may raise). A checkpoint
    /// stores it and a resumed run must match it.
    fn identity(&self, k: f64, positions: usize, files: &[PathBuf]) -> String {
        let files: Vec<String> = files.iter().map(|f| f.display().to_string()).collect();
        // `mirror` is named only when set, so that checkpoints made before
        // it existed resume with `--no-mirror`.
        let mirror = if self.mirror { " mirror=1" } else { "" };
        format!(
            "game={} hidden={} activation={} batch={} lr={} lr_drop_every={} lr_gamma={} weight_decay={} wdl={} k={} val_fraction={} seed={} positions={} data={}{}",
            self.game.name(),
            self.hidden,
            self.activation,
            self.batch_size,
            self.lr,
            self.lr_drop_every,
            self.lr_gamma,
            self.weight_decay,
            self.wdl,
            k,
            self.val_fraction,
            self.seed,
            positions,
            files.join(","),
            mirror
        )
    }
}

/// Reads every record of the packed files `paths`, each of which must hold
/// `game`.
pub fn load_positions(paths: &[PathBuf], game: VariantKind) -> Result<Vec<PackedPosition>> {
    let mut out = Vec::new();
    for path in paths {
        let reader = PackedReader::open(path)?;
        let found = reader.header().game;
        if found != game {
            return Err(Error::DataGame {
                file: path.display().to_string(),
                found,
                expected: game,
            });
        }
        out.reserve(reader.len() as usize);
        for record in reader {
            out.push(record?);
        }
    }
    if out.is_empty() {
        return Err(Error::NoTrainingData);
    }
    Ok(out)
}

#[inline]
fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// A position as the trainer sees it: the active inputs from the side to
/// move's and the other side's perspective, the score (side to move, cp) and
/// the result from the side to move's view (1, 0.5, 0).
#[derive(Clone, Debug, Default)]
pub struct Sample {
    /// The side to move's active inputs.
    pub us: Vec<usize>,
    /// The other side's active inputs.
    pub them: Vec<usize>,
    /// The score in centipawns, side to move's view.
    pub score: f32,
    /// The result, side to move's view.
    pub result: f32,
}

impl Sample {
    /// An empty sample with room for a position's inputs.
    pub fn new() -> Sample {
        Sample {
            us: Vec::with_capacity(MAX_ACTIVE),
            them: Vec::with_capacity(MAX_ACTIVE),
            score: 0.0,
            result: 0.0,
        }
    }

    /// Decodes `p`, a position of `game`, into `self`.
    pub fn decode(&mut self, p: &PackedPosition, game: VariantKind) {
        self.decode_mirrored(p, game, false);
    }

    /// Decodes `p` into `self`, its board mirrored left to right (a1 <-> h1)
    /// if `mirror`: the same score and result, the files reversed.
    pub fn decode_mirrored(&mut self, p: &PackedPosition, game: VariantKind, mirror: bool) {
        let stm = p.turn();
        let checks = has_check_inputs(game).then(|| {
            [
                p.checks_remaining(Color::White),
                p.checks_remaining(Color::Black),
            ]
        });
        self.us.clear();
        self.them.clear();
        let pieces = || {
            p.pieces().map(move |(sq, piece)| {
                let sq = if mirror {
                    Square::from_coords(7 - sq.file(), sq.rank())
                } else {
                    sq
                };
                (sq, piece)
            })
        };
        for_each_active_in(stm, pieces(), checks, |f| self.us.push(f));
        for_each_active_in(stm.other(), pieces(), checks, |f| self.them.push(f));
        self.score = f32::from(p.score());
        let white = f32::from(p.result()) / 2.0;
        self.result = match stm {
            Color::White => white,
            Color::Black => 1.0 - white,
        };
    }
}

/// The K that makes `sigmoid(score / K)` predict the results best (least
/// squares, golden-section search over 10..=2000 cp on up to a million
/// evenly spaced positions).
pub fn fit_k(positions: &[PackedPosition], game: VariantKind) -> f64 {
    let step = positions.len().div_ceil(1_000_000).max(1);
    let mut sample = Sample::new();
    let pairs: Vec<(f64, f64)> = positions
        .iter()
        .step_by(step)
        .map(|p| {
            sample.decode(p, game);
            (f64::from(sample.score), f64::from(sample.result))
        })
        .collect();
    let error = |k: f64| -> f64 {
        pairs
            .par_iter()
            .map(|&(s, r)| {
                let e = 1.0 / (1.0 + (-s / k).exp()) - r;
                e * e
            })
            .sum()
    };
    let (mut lo, mut hi) = (10.0f64, 2000.0f64);
    let phi = (5f64.sqrt() - 1.0) / 2.0;
    let (mut x1, mut x2) = (hi - phi * (hi - lo), lo + phi * (hi - lo));
    let (mut f1, mut f2) = (error(x1), error(x2));
    for _ in 0..60 {
        if f1 <= f2 {
            hi = x2;
            (x2, f2) = (x1, f1);
            x1 = hi - phi * (hi - lo);
            f1 = error(x1);
        } else {
            lo = x1;
            (x1, f1) = (x2, f2);
            x2 = lo + phi * (hi - lo);
            f2 = error(x2);
        }
    }
    ((lo + hi) / 2.0 * 1000.0).round() / 1000.0
}

/// Per-chunk scratch of the forward and backward passes.
struct Scratch {
    sample: Sample,
    a_us: Vec<f32>,
    a_them: Vec<f32>,
    d_us: Vec<f32>,
    d_them: Vec<f32>,
}

impl Scratch {
    fn new(hidden: usize) -> Scratch {
        Scratch {
            sample: Sample::new(),
            a_us: vec![0.0; hidden],
            a_them: vec![0.0; hidden],
            d_us: vec![0.0; hidden],
            d_them: vec![0.0; hidden],
        }
    }
}

/// What the loss needs besides the network and the sample.
#[derive(Clone, Copy, Debug)]
pub struct LossParams {
    /// The scale K.
    pub k: f32,
    /// The weight of the result in the target.
    pub wdl: f32,
}

impl LossParams {
    /// The target of `sample`.
    pub fn target(&self, sample: &Sample) -> f32 {
        self.wdl * sample.result + (1.0 - self.wdl) * sigmoid(sample.score / self.k)
    }

    /// The loss of a network `output` (1.0 = SCALE cp) for `sample`.
    pub fn loss(&self, output: f32, sample: &Sample) -> f32 {
        let e = sigmoid(output * SCALE as f32 / self.k) - self.target(sample);
        e * e
    }
}

/// The loss of `sample` under `net`, and (if `grad` is given) its gradient
/// added into `grad`: the first layer's rows only for the active inputs.
fn forward_backward(
    net: &FloatNetwork,
    lp: LossParams,
    s: &mut Scratch,
    grad: Option<&mut [f32]>,
) -> f32 {
    let h = net.hidden;
    let (bo, oo, obo) = (net.bias_offset(), net.out_offset(), net.out_bias_offset());
    let p = &net.params;
    net.first_layer(&s.sample.us, &mut s.a_us);
    net.first_layer(&s.sample.them, &mut s.a_them);
    let w = &p[oo..oo + 2 * h];
    let act = net.activation;
    let mut out = p[obo];
    for i in 0..h {
        out += act.apply(s.a_us[i]) * w[i] + act.apply(s.a_them[i]) * w[h + i];
    }
    let scale = SCALE as f32 / lp.k;
    let pred = sigmoid(out * scale);
    let err = pred - lp.target(&s.sample);
    let Some(grad) = grad else {
        return err * err;
    };
    let g = 2.0 * err * pred * (1.0 - pred) * scale;
    grad[obo] += g;
    for i in 0..h {
        let (au, at) = (s.a_us[i], s.a_them[i]);
        grad[oo + i] += g * act.apply(au);
        grad[oo + h + i] += g * act.apply(at);
        s.d_us[i] = g * w[i] * act.derivative(au);
        s.d_them[i] = g * w[h + i] * act.derivative(at);
        grad[bo + i] += s.d_us[i] + s.d_them[i];
    }
    for (features, d) in [(&s.sample.us, &s.d_us), (&s.sample.them, &s.d_them)] {
        for &f in features {
            for (gr, d) in grad[f * h..(f + 1) * h].iter_mut().zip(d) {
                *gr += d;
            }
        }
    }
    err * err
}

/// Which positions an epoch mirrors: position `i` of the data when bit 0 of
/// `hash3(seed, MIRROR_STREAM, epoch ^ (i << 20))` is set, a function of
/// the run's seed, the epoch and the position alone (so threads and
/// resumes draw the same).
#[derive(Clone, Copy, Debug)]
struct MirrorDraw {
    seed: u64,
    epoch: u64,
}

const MIRROR_STREAM: u64 = 0x4d11_u64;

impl MirrorDraw {
    fn mirrors(self, i: u32) -> bool {
        rng::hash3(self.seed, MIRROR_STREAM, self.epoch ^ (u64::from(i) << 20)) & 1 == 1
    }
}

/// The summed loss of the positions `idx` of `data` under `net`, and their
/// summed gradient into `grad` (zeroed first) if given; positions that
/// `mirror` draws are seen mirrored.
fn chunk_loss(
    net: &FloatNetwork,
    lp: LossParams,
    data: &[PackedPosition],
    idx: &[u32],
    mirror: Option<MirrorDraw>,
    mut grad: Option<&mut [f32]>,
) -> f64 {
    let mut s = Scratch::new(net.hidden);
    if let Some(g) = grad.as_deref_mut() {
        g.fill(0.0);
    }
    let mut loss = 0.0f64;
    for &i in idx {
        let mirrored = mirror.is_some_and(|m| m.mirrors(i));
        s.sample
            .decode_mirrored(&data[i as usize], net.game, mirrored);
        loss += f64::from(forward_backward(net, lp, &mut s, grad.as_deref_mut()));
    }
    loss
}

/// The mean loss over the positions `idx` (in parallel, summed in a fixed
/// order); NaN for no positions.
pub fn mean_loss(net: &FloatNetwork, lp: LossParams, data: &[PackedPosition], idx: &[u32]) -> f64 {
    let sums: Vec<f64> = idx
        .par_chunks(CHUNK)
        .map(|c| chunk_loss(net, lp, data, c, None, None))
        .collect();
    sums.iter().sum::<f64>() / idx.len() as f64
}

/// The gradient of the mean loss of `samples` under `net` (one thread; the
/// reference the tests hold the finite differences to).
pub fn gradient(net: &FloatNetwork, lp: LossParams, samples: &[Sample]) -> (f64, Vec<f32>) {
    let mut grad = vec![0.0; net.params.len()];
    let mut s = Scratch::new(net.hidden);
    let mut loss = 0.0;
    for sample in samples {
        s.sample = sample.clone();
        loss += f64::from(forward_backward(net, lp, &mut s, Some(&mut grad)));
    }
    let n = samples.len() as f32;
    grad.iter_mut().for_each(|g| *g /= n);
    (loss / samples.len() as f64, grad)
}

/// AdamW's state: the moments and the step count.
#[derive(Clone, Debug, PartialEq)]
struct Adam {
    m: Vec<f32>,
    v: Vec<f32>,
    step: u64,
}

/// The whole state of a run at an epoch's end.
#[derive(Clone, Debug, PartialEq)]
struct State {
    net: FloatNetwork,
    adam: Adam,
    epoch: usize,
}

const CHECKPOINT_MAGIC: [u8; 8] = *b"VARIACKP";
const CHECKPOINT_VERSION: u32 = 1;

impl State {
    /// The checkpoint file's bytes: magic, version, epoch, AdamW step, the
    /// run's identity line, the parameter count, then the parameters and
    /// both moments as f32, all little-endian, and an FNV-1a of everything
    /// before it.
    fn to_bytes(&self, identity: &str) -> Vec<u8> {
        let mut b = Vec::new();
        b.extend_from_slice(&CHECKPOINT_MAGIC);
        b.extend_from_slice(&CHECKPOINT_VERSION.to_le_bytes());
        b.extend_from_slice(&(self.epoch as u32).to_le_bytes());
        b.extend_from_slice(&self.adam.step.to_le_bytes());
        b.extend_from_slice(&(identity.len() as u32).to_le_bytes());
        b.extend_from_slice(identity.as_bytes());
        b.extend_from_slice(&(self.net.params.len() as u32).to_le_bytes());
        for v in [&self.net.params, &self.adam.m, &self.adam.v] {
            for x in v.iter() {
                b.extend_from_slice(&x.to_le_bytes());
            }
        }
        let h = fnv1a(&b);
        b.extend_from_slice(&h.to_le_bytes());
        b
    }

    /// Reads a checkpoint of the run `identity` (whose network is shaped as
    /// `template`).
    fn from_bytes(b: &[u8], file: &str, identity: &str, template: &FloatNetwork) -> Result<State> {
        let bad = |message: String| Error::Checkpoint {
            file: file.to_string(),
            message,
        };
        if b.len() < 8 || b[..8] != CHECKPOINT_MAGIC {
            return Err(bad("not a varia training checkpoint".into()));
        }
        if b.len() < 36 {
            return Err(bad("truncated".into()));
        }
        let (body, tail) = b.split_at(b.len() - 8);
        if fnv1a(body) != u64::from_le_bytes(tail.try_into().expect("8 bytes")) {
            return Err(bad("corrupt (its checksum does not match)".into()));
        }
        let u32_at = |i: usize| u32::from_le_bytes(body[i..i + 4].try_into().expect("4 bytes"));
        let version = u32_at(8);
        if version != CHECKPOINT_VERSION {
            return Err(bad(format!(
                "checkpoint version {version}, this varia reads {CHECKPOINT_VERSION}"
            )));
        }
        let epoch = u32_at(12) as usize;
        let step = u64::from_le_bytes(body[16..24].try_into().expect("8 bytes"));
        let len = u32_at(24) as usize;
        let Some(text) = body.get(28..28 + len) else {
            return Err(bad("truncated".into()));
        };
        let stored = String::from_utf8_lossy(text);
        if stored != identity {
            let differs = stored
                .split(' ')
                .zip(identity.split(' '))
                .find(|(a, b)| a != b)
                .map(|(a, b)| format!("it has {a}, this run {b}"))
                .unwrap_or_else(|| "its settings differ".into());
            return Err(bad(format!("a checkpoint of another run ({differs})")));
        }
        let at = 28 + len;
        let n = template.params.len();
        if body.len() != at + 4 + 12 * n || u32_at(at) as usize != n {
            return Err(bad("its parameter count does not match".into()));
        }
        let floats = |k: usize| -> Vec<f32> {
            body[at + 4 + 4 * n * k..at + 4 + 4 * n * (k + 1)]
                .chunks_exact(4)
                .map(|c| f32::from_le_bytes(c.try_into().expect("4 bytes")))
                .collect()
        };
        let mut net = template.clone();
        net.params = floats(0);
        Ok(State {
            net,
            adam: Adam {
                m: floats(1),
                v: floats(2),
                step,
            },
            epoch,
        })
    }
}

/// One row of the trace.
#[derive(Clone, Debug, PartialEq)]
pub struct EpochRow {
    /// The epoch (1-based).
    pub epoch: usize,
    /// Mean training loss over the epoch.
    pub train_loss: f64,
    /// Validation loss at the epoch's end (NaN without validation positions).
    pub val_loss: f64,
    /// Training positions per second of wall time.
    pub positions_per_s: f64,
    /// The epoch's learning rate.
    pub lr: f32,
}

/// The trace's header line.
pub const TRACE_HEADER: &str = "epoch,train_loss,val_loss,positions_per_s,lr";

impl EpochRow {
    fn csv(&self) -> String {
        format!(
            "{},{},{},{:.0},{}",
            self.epoch, self.train_loss, self.val_loss, self.positions_per_s, self.lr
        )
    }

    fn parse(line: &str) -> Option<EpochRow> {
        let f: Vec<&str> = line.split(',').collect();
        if f.len() != 5 {
            return None;
        }
        Some(EpochRow {
            epoch: f[0].parse().ok()?,
            train_loss: f[1].parse().ok()?,
            val_loss: f[2].parse().ok()?,
            positions_per_s: f[3].parse().ok()?,
            lr: f[4].parse().ok()?,
        })
    }
}

/// The SVG plot of a trace: the training and validation losses over the
/// epochs on top, positions per second below, drawn with [`arena::chart`].
pub fn plot_svg(rows: &[EpochRow], title: &str) -> String {
    let xmax = rows.last().map_or(1.0, |r| r.epoch as f64).max(1.0);
    let h = TOP + 2.0 * PANEL_HEIGHT + GAP + 40.0;
    let mut s = String::new();
    chart::begin_page(&mut s, h, title);
    let train: Vec<(f64, f64)> = rows
        .iter()
        .map(|r| (r.epoch as f64, r.train_loss))
        .collect();
    // No validation positions: NaN losses, no line.
    let val: Vec<(f64, f64)> = rows
        .iter()
        .map(|r| (r.epoch as f64, r.val_loss))
        .filter(|p| p.1.is_finite())
        .collect();
    let top = Panel::fitting(TOP + 20.0, 0.0, xmax, train.iter().chain(&val).map(|p| p.1));
    top.frame(&mut s, "loss", "loss");
    top.line(&mut s, &train, COLORS[0]);
    let lx = WIDTH - RIGHT + 10.0;
    chart::legend_entry(&mut s, lx, top.y0 + 10.0, COLORS[0], "training");
    if !val.is_empty() {
        top.line(&mut s, &val, COLORS[1]);
        chart::legend_entry(&mut s, lx, top.y0 + 26.0, COLORS[1], "validation");
    }
    let speed: Vec<(f64, f64)> = rows
        .iter()
        .map(|r| (r.epoch as f64, r.positions_per_s))
        .collect();
    let bottom = Panel::fitting(
        top.y0 + PANEL_HEIGHT + GAP,
        0.0,
        xmax,
        speed.iter().map(|p| p.1),
    );
    bottom.frame(&mut s, "training speed", "positions/s");
    bottom.line(&mut s, &speed, COLORS[2]);
    chart::end_page(&mut s);
    s
}

/// What the trainer reports while it runs.
#[derive(Debug)]
pub enum Progress<'a> {
    /// Training starts (or resumes after `from_epoch` epochs).
    Start {
        /// Epochs already done (a resumed run).
        from_epoch: usize,
        /// Epochs in all.
        epochs: usize,
        /// Training positions per epoch.
        train: usize,
        /// Validation positions.
        validation: usize,
        /// The scale K used.
        k: f64,
    },
    /// A batch of this many positions was trained on.
    Batch(usize),
    /// An epoch ended; its files are written.
    Epoch(&'a EpochRow),
}

/// The files a run writes into its output directory.
pub struct OutFiles {
    /// The directory.
    pub dir: PathBuf,
}

impl OutFiles {
    /// The checkpoint.
    pub fn checkpoint(&self) -> PathBuf {
        self.dir.join("checkpoint.bin")
    }
    /// The trace.
    pub fn trace(&self) -> PathBuf {
        self.dir.join("trace.csv")
    }
    /// The trace's plot.
    pub fn plot(&self) -> PathBuf {
        self.dir.join("trace.svg")
    }
    /// The quantised net of `epoch`.
    pub fn net(&self, epoch: usize) -> PathBuf {
        self.dir.join(format!("epoch-{epoch}.nnue"))
    }
}

/// Writes `bytes` to `path` through a temporary file renamed into place.
fn write_atomic(path: &Path, bytes: &[u8]) -> Result<()> {
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".tmp");
    let tmp = PathBuf::from(tmp);
    std::fs::write(&tmp, bytes).map_err(Error::io(tmp.display()))?;
    std::fs::rename(&tmp, path).map_err(Error::io(path.display()))
}

/// What a finished run leaves.
#[derive(Clone, Debug)]
pub struct Summary {
    /// Every row of the trace, the resumed epochs' included.
    pub rows: Vec<EpochRow>,
    /// The scale K used.
    pub k: f64,
    /// The last epoch's net.
    pub net: PathBuf,
}

/// Trains on `data` (read from `files`, named in the checkpoint's
/// identity) into the directory `out`, continuing its checkpoint if
/// `resume` (and starting afresh if there is none). Without `resume`, an
/// existing checkpoint in `out` is an error rather than overwritten.
pub fn train(
    config: &TrainConfig,
    data: &[PackedPosition],
    files: &[PathBuf],
    out: &Path,
    resume: bool,
    progress: &mut dyn FnMut(Progress<'_>),
) -> Result<Summary> {
    config.check()?;
    if data.len() > u32::MAX as usize {
        return Err(Error::TrainSetting(format!(
            "{} positions; at most {} in one run",
            data.len(),
            u32::MAX
        )));
    }
    std::fs::create_dir_all(out).map_err(Error::io(out.display()))?;
    let files_out = OutFiles {
        dir: out.to_path_buf(),
    };
    let k = match config.k {
        Some(k) => k,
        None => fit_k(data, config.game),
    };
    let identity = config.identity(k, data.len(), files);
    let init = FloatNetwork::init(config.game, config.hidden, config.activation, config.seed);
    let ckpt = files_out.checkpoint();
    let mut state = if ckpt.exists() {
        if !resume {
            return Err(Error::TrainSetting(format!(
                "{} exists: pass --resume to continue that run, or choose another --out",
                ckpt.display()
            )));
        }
        let bytes = std::fs::read(&ckpt).map_err(Error::io(ckpt.display()))?;
        State::from_bytes(&bytes, &ckpt.display().to_string(), &identity, &init)?
    } else {
        let n = init.params.len();
        State {
            net: init,
            adam: Adam {
                m: vec![0.0; n],
                v: vec![0.0; n],
                step: 0,
            },
            epoch: 0,
        }
    };
    // The trace: the rows of the epochs the checkpoint holds.
    let mut rows: Vec<EpochRow> = Vec::new();
    if state.epoch > 0 {
        if let Ok(text) = std::fs::read_to_string(files_out.trace()) {
            rows = text
                .lines()
                .skip(1)
                .filter_map(EpochRow::parse)
                .filter(|r| r.epoch <= state.epoch)
                .collect();
        }
    }
    // The split: a seeded shuffle, the first positions held out.
    let mut order: Vec<u32> = (0..data.len() as u32).collect();
    shuffle(&mut order, config.seed, 0);
    let n_val = (data.len() as f64 * config.val_fraction).floor() as usize;
    let (val, train_idx) = order.split_at(n_val);
    if train_idx.is_empty() {
        return Err(Error::NoTrainingData);
    }
    let lp = LossParams {
        k: k as f32,
        wdl: config.wdl,
    };
    progress(Progress::Start {
        from_epoch: state.epoch,
        epochs: config.epochs,
        train: train_idx.len(),
        validation: val.len(),
        k,
    });
    let n_params = state.net.params.len();
    let chunks_per_batch = config.batch_size.min(train_idx.len()).div_ceil(CHUNK);
    let mut grads: Vec<Vec<f32>> = vec![vec![0.0; n_params]; chunks_per_batch];
    let mut epoch_order = train_idx.to_vec();
    while state.epoch < config.epochs {
        let epoch = state.epoch + 1;
        let lr = config.lr_at(epoch);
        let started = Instant::now();
        epoch_order.copy_from_slice(train_idx);
        shuffle(&mut epoch_order, config.seed, epoch as u64);
        let mut loss_sum = 0.0f64;
        for batch in epoch_order.chunks(config.batch_size) {
            let n_chunks = batch.len().div_ceil(CHUNK);
            let net = &state.net;
            let mirror = config.mirror.then_some(MirrorDraw {
                seed: config.seed,
                epoch: epoch as u64,
            });
            let losses: Vec<f64> = grads[..n_chunks]
                .par_iter_mut()
                .zip(batch.par_chunks(CHUNK))
                .map(|(g, idx)| chunk_loss(net, lp, data, idx, mirror, Some(g)))
                .collect();
            loss_sum += losses.iter().sum::<f64>();
            state.adam.step += 1;
            adamw_step(
                &mut state,
                &grads[..n_chunks],
                batch.len(),
                lr,
                config.weight_decay,
            );
            progress(Progress::Batch(batch.len()));
        }
        let seconds = started.elapsed().as_secs_f64();
        state.epoch = epoch;
        let row = EpochRow {
            epoch,
            train_loss: loss_sum / train_idx.len() as f64,
            val_loss: mean_loss(&state.net, lp, data, val),
            positions_per_s: train_idx.len() as f64 / seconds.max(1e-9),
            lr,
        };
        // The net first, the checkpoint last: a crash in between redoes the
        // epoch and rewrites the same net.
        state
            .net
            .quantise()
            .save(&files_out.net(epoch))
            .map_err(Error::Net)?;
        rows.push(row.clone());
        let mut csv = String::from(TRACE_HEADER);
        csv.push('\n');
        for r in &rows {
            let _ = writeln!(csv, "{}", r.csv());
        }
        write_atomic(&files_out.trace(), csv.as_bytes())?;
        let title = format!(
            "varia train: {} ({} x {} {})",
            config.game.name(),
            state.net.inputs(),
            config.hidden,
            config.activation
        );
        write_atomic(&files_out.plot(), plot_svg(&rows, &title).as_bytes())?;
        write_atomic(&ckpt, &state.to_bytes(&identity))?;
        progress(Progress::Epoch(&row));
    }
    Ok(Summary {
        rows,
        k,
        net: files_out.net(state.epoch),
    })
}

/// A seeded Fisher-Yates shuffle, its draws a function of `(seed, round)`.
fn shuffle(v: &mut [u32], seed: u64, round: u64) {
    let mut r = rng::stream(seed, 0x5487_u64, round);
    for i in (1..v.len()).rev() {
        let j = r.below(i + 1);
        v.swap(i, j);
    }
}

/// One AdamW step with the mean of the chunks' gradients (summed in chunk
/// order), in parallel over blocks of parameters; weights clipped to ±CLIP.
fn adamw_step(state: &mut State, grads: &[Vec<f32>], batch: usize, lr: f32, decay: f32) {
    let t = state.adam.step as i32;
    let (c1, c2) = (1.0 - BETA1.powi(t), 1.0 - BETA2.powi(t));
    let inv = 1.0 / batch as f32;
    state
        .net
        .params
        .par_chunks_mut(BLOCK)
        .zip(state.adam.m.par_chunks_mut(BLOCK))
        .zip(state.adam.v.par_chunks_mut(BLOCK))
        .enumerate()
        .for_each(|(b, ((p, m), v))| {
            let off = b * BLOCK;
            let mut g = vec![0.0f32; p.len()];
            for chunk in grads {
                for (g, c) in g.iter_mut().zip(&chunk[off..off + p.len()]) {
                    *g += c;
                }
            }
            for i in 0..p.len() {
                let gi = g[i] * inv;
                m[i] = BETA1 * m[i] + (1.0 - BETA1) * gi;
                v[i] = BETA2 * v[i] + (1.0 - BETA2) * gi * gi;
                let step = (m[i] / c1) / ((v[i] / c2).sqrt() + EPSILON);
                p[i] = (p[i] - lr * (step + decay * p[i])).clamp(-CLIP, CLIP);
            }
        });
}

/// [`param_count`] of a config (for messages).
pub fn parameters(config: &TrainConfig) -> usize {
    param_count(
        search::nnue::features::input_count(config.game),
        config.hidden,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::packed::{Header, DRAW};
    use movegen::{Position, Role, SplitMix64, Variant};
    use search::nnue::features::{for_each_active, PIECE_INPUTS};

    /// Material from the side to move's view: 100, 300, 300, 500, 900 (kings
    /// and commoners 0), the known function the synthetic tests learn.
    fn material<V: Variant>(pos: &Position<V>) -> i32 {
        const VALUE: [i32; 7] = [100, 300, 300, 500, 900, 0, 0];
        let b = pos.board();
        let side = |c: Color| -> i32 {
            Role::ALL
                .iter()
                .map(|&r| VALUE[r.index()] * b.pieces(c, r).count() as i32)
                .sum()
        };
        side(pos.turn()) - side(pos.turn().other())
    }

    /// The positions of random playouts of `V` (10 to 80 plies each, so that
    /// many games make the set) labelled with their material (and a drawn
    /// result).
    fn synthetic<V: Variant>(n: usize, seed: u64) -> Vec<PackedPosition> {
        let mut rng = SplitMix64::new(seed);
        let mut out = Vec::new();
        let mut pos = Position::<V>::startpos();
        let mut plies = 0;
        while out.len() < n {
            let moves = pos.legal_moves();
            if moves.is_empty() || pos.is_over_by_rule() || plies == 0 {
                pos = Position::<V>::startpos();
                plies = 10 + rng.below(70);
                continue;
            }
            plies -= 1;
            pos = pos.play_unchecked(moves[rng.below(moves.len())]);
            out.push(PackedPosition::from_position(
                &pos,
                material(&pos) as i16,
                DRAW,
            ));
        }
        out
    }

    fn samples(data: &[PackedPosition], game: VariantKind) -> Vec<Sample> {
        data.iter()
            .map(|p| {
                let mut s = Sample::new();
                s.decode(p, game);
                s
            })
            .collect()
    }

    /// The analytic gradient against central finite differences of the loss
    /// (computed by the float network's own forward pass, a separate code
    /// path) for a sample of every kind of parameter, both activations, a
    /// blend of score and result.
    #[test]
    fn gradients_match_finite_differences() {
        let data = synthetic::<movegen::variants::ThreeCheck>(40, 3);
        let game = VariantKind::ThreeCheck;
        let set = samples(&data[20..28], game);
        let lp = LossParams { k: 300.0, wdl: 0.4 };
        for act in [Activation::CReLU, Activation::SCReLU] {
            let mut net = FloatNetwork::init(game, 8, act, 5);
            // Biases that put most sums inside the activation's range.
            let (b, o) = (net.bias_offset(), net.out_offset());
            for (i, w) in net.params[b..o].iter_mut().enumerate() {
                *w = 0.2 + 0.05 * i as f32;
            }
            let (_, grad) = gradient(&net, lp, &set);
            let loss = |net: &FloatNetwork| -> f64 {
                set.iter()
                    .map(|s| f64::from(lp.loss(net.output(&s.us, &s.them), s)))
                    .sum::<f64>()
                    / set.len() as f64
            };
            // Active rows of the first sample, both perspectives, the check
            // inputs, biases, output weights and the output bias.
            let mut checked = Vec::new();
            for &f in set[0]
                .us
                .iter()
                .take(3)
                .chain(set[0].them.iter().rev().take(3))
            {
                checked.extend([f * 8, f * 8 + 3, f * 8 + 7]);
            }
            checked.extend(b..b + 8);
            checked.extend(o..o + 16);
            checked.push(net.out_bias_offset());
            let mut nonzero = 0;
            for &i in &checked {
                let eps = 1e-3f32;
                let mut plus = net.clone();
                plus.params[i] += eps;
                let mut minus = net.clone();
                minus.params[i] -= eps;
                let numeric = (loss(&plus) - loss(&minus)) / (2.0 * f64::from(eps));
                let analytic = f64::from(grad[i]);
                assert!(
                    (numeric - analytic).abs() <= 2e-4 + 0.03 * numeric.abs(),
                    "{act} parameter {i}: analytic {analytic}, numeric {numeric}"
                );
                if analytic.abs() > 1e-4 {
                    nonzero += 1;
                }
            }
            assert!(
                nonzero * 2 > checked.len(),
                "{act}: {nonzero} of {}",
                checked.len()
            );
            // Rows of inputs no sample has get no gradient (sparse backward).
            let mut active = vec![false; net.inputs()];
            for s in &set {
                for &f in s.us.iter().chain(&s.them) {
                    active[f] = true;
                }
            }
            for (f, _) in active.iter().enumerate().filter(|(_, a)| !**a) {
                assert!(grad[f * 8..(f + 1) * 8].iter().all(|&g| g == 0.0));
            }
        }
    }

    fn config(game: VariantKind) -> TrainConfig {
        TrainConfig {
            hidden: 16,
            epochs: 12,
            batch_size: 256,
            lr: 0.01,
            lr_drop_every: 8,
            lr_gamma: 0.3,
            wdl: 0.0,
            k: Some(400.0),
            val_fraction: 0.1,
            ..TrainConfig::new(game)
        }
    }

    /// On positions labelled with their material, the trainer learns it: the
    /// validation loss ends far below its start and below the loss of the
    /// constant prediction, and on positions of other games the quantised
    /// net's evaluations, read back from its file, are within 0.03 in
    /// expected score of the material (under a fifth of the constant
    /// prediction's error) and within the quantisation tolerance of the
    /// float network.
    #[test]
    fn the_trainer_learns_material_and_the_quantised_net_agrees() {
        let game = VariantKind::Chess;
        let data = synthetic::<movegen::variants::Chess>(20000, 11);
        let dir = tempfile::tempdir().unwrap();
        let cfg = config(game);
        let mut epochs = 0;
        let summary = train(&cfg, &data, &[], dir.path(), false, &mut |p| {
            if let Progress::Epoch(_) = p {
                epochs += 1
            }
        })
        .unwrap();
        assert_eq!(epochs, 12);
        let rows = &summary.rows;
        assert_eq!(rows.len(), 12);
        let first = rows[0].val_loss;
        let last = rows[11].val_loss;
        let lp = LossParams { k: 400.0, wdl: 0.0 };
        let constant: f64 = samples(&data, game)
            .iter()
            .map(|s| f64::from(lp.loss(0.0, s)))
            .sum::<f64>()
            / data.len() as f64;
        assert!(
            last < 0.1 * constant && last < first,
            "{rows:?} constant {constant}"
        );
        // The net file of the last epoch, read as the engine reads it.
        let net = search::nnue::Network::load(&summary.net, game).unwrap();
        let bytes = std::fs::read(dir.path().join("checkpoint.bin")).unwrap();
        let template = FloatNetwork::init(game, 16, Activation::SCReLU, 1);
        let identity = cfg.identity(400.0, data.len(), &[]);
        let state = State::from_bytes(&bytes, "c", &identity, &template).unwrap();
        assert_eq!(state.net.quantise(), net);
        let (mut err_sum, mut base_sum) = (0.0, 0.0);
        let fresh = synthetic::<movegen::variants::Chess>(300, 99);
        for p in &fresh {
            let pos: Position<movegen::variants::Chess> = p.to_position().unwrap();
            let got = net.evaluate_position(&pos);
            let (mut us, mut them) = (Vec::new(), Vec::new());
            for_each_active(&pos, pos.turn(), |f| us.push(f));
            for_each_active(&pos, pos.turn().other(), |f| them.push(f));
            let float = state.net.evaluate(&us, &them);
            assert!(
                (got as f32 - float).abs() <= 16.0 + 0.02 * float.abs(),
                "{got} vs {float}"
            );
            // The error in expected score (cp errors where the sigmoid is
            // flat, thousands of centipawns up, are not what the loss sees).
            let expected = |cp: f32| sigmoid(cp / 400.0);
            err_sum += f64::from((expected(got as f32) - expected(f32::from(p.score()))).abs());
            base_sum += f64::from((0.5 - expected(f32::from(p.score()))).abs());
        }
        let (mean_err, base) = (err_sum / fresh.len() as f64, base_sum / fresh.len() as f64);
        assert!(
            mean_err < 0.03 && mean_err < 0.2 * base,
            "mean error {mean_err} in expected score (constant: {base})"
        );
        // The trace and its plot.
        let trace = std::fs::read_to_string(dir.path().join("trace.csv")).unwrap();
        assert!(trace.starts_with("epoch,train_loss,val_loss,positions_per_s,lr\n1,"));
        assert_eq!(trace.lines().count(), 13);
        let svg = std::fs::read_to_string(dir.path().join("trace.svg")).unwrap();
        assert!(svg.starts_with("<svg") && svg.contains("validation"));
        assert!(dir.path().join("epoch-1.nnue").exists());
    }

    /// A run stopped after two epochs and resumed to five ends with the same
    /// checkpoint and net bytes as a run of five epochs, in another thread
    /// count; a resume with other settings is refused naming the setting,
    /// and an existing checkpoint is not overwritten without --resume.
    #[test]
    fn a_resumed_run_ends_with_the_same_bytes() {
        let game = VariantKind::ThreeCheck;
        let data = synthetic::<movegen::variants::ThreeCheck>(1500, 5);
        let files = [PathBuf::from("a.bin")];
        let mut cfg = config(game);
        cfg.epochs = 5;
        cfg.k = None;
        cfg.wdl = 0.5;
        cfg.lr_drop_every = 2;
        let whole = tempfile::tempdir().unwrap();
        let pool = |n| {
            rayon::ThreadPoolBuilder::new()
                .num_threads(n)
                .build()
                .unwrap()
        };
        pool(1)
            .install(|| train(&cfg, &data, &files, whole.path(), false, &mut |_| {}))
            .unwrap();
        let split = tempfile::tempdir().unwrap();
        let mut short = cfg.clone();
        short.epochs = 2;
        train(&short, &data, &files, split.path(), false, &mut |_| {}).unwrap();
        let e = train(&short, &data, &files, split.path(), false, &mut |_| {}).unwrap_err();
        assert!(e.to_string().contains("pass --resume"), "{e}");
        let mut other = cfg.clone();
        other.hidden = 12;
        let e = train(&other, &data, &files, split.path(), true, &mut |_| {}).unwrap_err();
        assert!(
            e.to_string()
                .contains("it has hidden=16, this run hidden=12"),
            "{e}"
        );
        let mut from = None;
        let summary = pool(2)
            .install(|| {
                train(&cfg, &data, &files, split.path(), true, &mut |p| {
                    if let Progress::Start { from_epoch, .. } = p {
                        from = Some(from_epoch)
                    }
                })
            })
            .unwrap();
        assert_eq!(from, Some(2));
        assert_eq!(summary.rows.len(), 5);
        for name in ["checkpoint.bin", "epoch-5.nnue", "epoch-3.nnue"] {
            let a = std::fs::read(whole.path().join(name)).unwrap();
            let b = std::fs::read(split.path().join(name)).unwrap();
            assert!(a == b, "{name} differs");
        }
        // The two runs did learn something different from the start.
        let e1 = std::fs::read(whole.path().join("epoch-1.nnue")).unwrap();
        let e5 = std::fs::read(whole.path().join("epoch-5.nnue")).unwrap();
        assert_ne!(e1, e5);
    }

    #[test]
    fn data_of_another_game_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("atomic.bin");
        let mut bytes = Header {
            game: VariantKind::Atomic,
        }
        .to_bytes()
        .to_vec();
        for p in synthetic::<movegen::variants::Atomic>(3, 1) {
            bytes.extend_from_slice(p.as_bytes());
        }
        std::fs::write(&path, &bytes).unwrap();
        let e = load_positions(std::slice::from_ref(&path), VariantKind::Chess).unwrap_err();
        assert!(
            e.to_string()
                .ends_with("atomic.bin: positions of atomic, not of chess"),
            "{e}"
        );
        assert_eq!(
            load_positions(&[path], VariantKind::Atomic).unwrap().len(),
            3
        );
        let empty = dir.path().join("empty.bin");
        std::fs::write(
            &empty,
            Header {
                game: VariantKind::Chess,
            }
            .to_bytes(),
        )
        .unwrap();
        assert!(matches!(
            load_positions(&[empty], VariantKind::Chess),
            Err(Error::NoTrainingData)
        ));
    }

    #[test]
    fn k_is_fitted_to_the_results() {
        // Scores s with results drawn as sigmoid(s / 250): the fit finds ~250.
        let mut rng = SplitMix64::new(4);
        let pos = Position::<movegen::variants::Chess>::startpos();
        let data: Vec<PackedPosition> = (0..20000)
            .map(|_| {
                let s = (rng.unit() * 1600.0 - 800.0) as i16;
                let p = 1.0 / (1.0 + (-f64::from(s) / 250.0).exp());
                let result = if rng.unit() < p { 2 } else { 0 };
                PackedPosition::from_position(&pos, s, result)
            })
            .collect();
        let k = fit_k(&data, VariantKind::Chess);
        assert!((k - 250.0).abs() < 25.0, "{k}");
    }

    /// The trainer reads a packed record into exactly the inputs the engine
    /// takes from the position itself (both perspectives, threecheck's
    /// counters included), and the result into the side to move's view, in
    /// all six games.
    #[test]
    fn a_packed_record_gives_the_engines_inputs() {
        fn check<V: Variant>(seed: u64) {
            let mut rng = SplitMix64::new(seed);
            let mut pos = Position::<V>::startpos();
            let mut sample = Sample::new();
            for i in 0..1500 {
                let moves = pos.legal_moves();
                if moves.is_empty() || pos.is_over_by_rule() {
                    pos = Position::<V>::startpos();
                    continue;
                }
                pos = pos.play_unchecked(moves[rng.below(moves.len())]);
                let result = (i % 3) as u8;
                let packed = PackedPosition::from_position(&pos, (i % 7) as i16 - 3, result);
                sample.decode(&packed, V::KIND);
                let inputs = |c: Color| {
                    let mut v = Vec::new();
                    for_each_active(&pos, c, |f| v.push(f));
                    v.sort_unstable();
                    v
                };
                let sorted = |v: &[usize]| {
                    let mut v = v.to_vec();
                    v.sort_unstable();
                    v
                };
                assert_eq!(sorted(&sample.us), inputs(pos.turn()), "{}", pos.fen());
                assert_eq!(sorted(&sample.them), inputs(pos.turn().other()));
                // Mirrored left to right: every piece input on the other
                // file (the file is the square's low three bits), the
                // check counters unchanged.
                let mirror_file = |v: Vec<usize>| {
                    let mut v: Vec<usize> = v
                        .into_iter()
                        .map(|f| if f < PIECE_INPUTS { f ^ 7 } else { f })
                        .collect();
                    v.sort_unstable();
                    v
                };
                let mut mirrored = Sample::new();
                mirrored.decode_mirrored(&packed, V::KIND, true);
                assert_eq!(sorted(&mirrored.us), mirror_file(inputs(pos.turn())));
                assert_eq!(
                    sorted(&mirrored.them),
                    mirror_file(inputs(pos.turn().other()))
                );
                assert_eq!(
                    (mirrored.score, mirrored.result),
                    (sample.score, sample.result)
                );
                assert_eq!(sample.score, f32::from((i % 7) as i16 - 3));
                let white = f32::from(result) / 2.0;
                let want = if pos.turn() == Color::White {
                    white
                } else {
                    1.0 - white
                };
                assert_eq!(sample.result, want);
            }
        }
        for (i, game) in VariantKind::ALL.into_iter().enumerate() {
            movegen::dispatch!(game, V => check::<V>(i as u64));
        }
    }

    /// The mirror draw takes about half the positions, others each epoch,
    /// and names itself in the identity only when on (old checkpoints
    /// still resume).
    #[test]
    fn the_mirror_draw_takes_half_and_changes_by_epoch() {
        let draw = |epoch| MirrorDraw { seed: 1, epoch };
        let n = 10_000u32;
        let first: Vec<bool> = (0..n).map(|i| draw(1).mirrors(i)).collect();
        let taken = first.iter().filter(|&&m| m).count();
        assert!((4_500..=5_500).contains(&taken), "{taken} of {n}");
        let same = (0..n)
            .filter(|&i| draw(2).mirrors(i) == first[i as usize])
            .count();
        assert!((4_500..=5_500).contains(&same), "{same} of {n} alike");
        let mirrored = TrainConfig::new(VariantKind::Chess);
        assert!(mirrored.identity(400.0, 1, &[]).ends_with(" mirror=1"));
        let plain = TrainConfig {
            mirror: false,
            ..mirrored
        };
        assert!(!plain.identity(400.0, 1, &[]).contains("mirror"));
    }

    #[test]
    fn the_plot_leaves_out_a_missing_validation_loss() {
        let row = |epoch, val_loss| EpochRow {
            epoch,
            train_loss: 0.1 / epoch as f64,
            val_loss,
            positions_per_s: 1000.0,
            lr: 0.001,
        };
        let svg = plot_svg(&[row(1, f64::NAN), row(2, f64::NAN)], "t");
        assert!(!svg.contains("NaN") && !svg.contains("validation"), "{svg}");
        assert_eq!(svg.matches("<polyline").count(), 2);
        let svg = plot_svg(&[row(1, 0.2), row(2, 0.1)], "t");
        assert!(svg.contains("validation"));
        assert_eq!(svg.matches("<polyline").count(), 3);
        // A trace row reads back as written, NaN included.
        let r = row(3, f64::NAN);
        let back = EpochRow::parse(&r.csv()).unwrap();
        assert_eq!(
            (back.epoch, back.train_loss, back.lr),
            (3, r.train_loss, r.lr)
        );
        assert!(back.val_loss.is_nan());
    }

    #[test]
    fn the_learning_rate_drops_in_steps() {
        let mut c = TrainConfig::new(VariantKind::Chess);
        c.lr = 1.0;
        c.lr_drop_every = 2;
        c.lr_gamma = 0.5;
        let lrs: Vec<f32> = (1..=5).map(|e| c.lr_at(e)).collect();
        assert_eq!(lrs, [1.0, 1.0, 0.5, 0.5, 0.25]);
        c.lr_drop_every = 0;
        assert_eq!(c.lr_at(9), 1.0);
    }
}
