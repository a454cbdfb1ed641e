//! The weights of one game, [`EvalParams`]: the per-game defaults (the Texel
//! files of `data/tuning` built in, the hand-set steps of suicide and
//! losers), naming and setting a weight, and the TOML text of a weights
//! file (the file side is [`crate::param_file`]).

use super::layout::{
    idx, ParamGroup, Shape, EG, EG_GROUPS, GROUPS, MATERIAL_NAMES, MAX_WEIGHT, NUM_WEIGHTS,
};
use movegen::{Square, VariantKind};
use std::path::Path;

/// All evaluation weights of one game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EvalParams {
    /// The game these weights are for.
    pub variant: VariantKind,
    /// The weights, laid out as in [`GROUPS`].
    pub weights: Vec<i32>,
}

pub use crate::param_file::ParamsError;

/// The games whose every weight is a Texel fit of `data/tuning` (the
/// fit's piece-square tables are the hand-set ones that
/// [`EvalParams::default_for`] builds for the other games, unfitted, but
/// in threecheck, whose tables were fitted in a second step): the file's
/// text and its path, for messages. One place names them, so the
/// defaults and the test that holds them read the same list.
pub(super) fn tuned_weights_file(kind: VariantKind) -> Option<(&'static str, &'static str)> {
    // A file of data/tuning, built in, with its path named once.
    macro_rules! tuning_file {
        ($name:literal) => {
            Some((
                include_str!(concat!("../../../../data/tuning/", $name)),
                concat!("data/tuning/", $name),
            ))
        };
    }
    match kind {
        // Every term but the piece-square tables fitted on 939,339
        // positions of the engine's own games: +144.6 Elo [107.0, 185.9],
        // H1 in 227 games at 10000 nodes, and +150.8 [110.7, 195.1], H1 in
        // 252 games at 2+0.02 over the hand-set steps that had each passed
        // an SPRT (data/tuning/README.md).
        VariantKind::Chess => tuning_file!("chess-tuned-nopst.toml"),
        // The same fit on 280,405 positions of 8000 games: +211.3 Elo
        // [164.3, 266.4], H1 in 235 games at 10000 nodes, and +172.6 [129.9, 220.8], H1 in
        // 249 games at 2+0.02 (data/tuning/README.md).
        VariantKind::Atomic => tuning_file!("atomic-tuned-nopst.toml"),
        // The same fit on 313,471 positions of 10000 games: +187.0 Elo
        // [142.7, 237.8], H1 in 241 games at 10000 nodes, and +173.9
        // [130.3, 223.1], H1 in 266 games at 2+0.02; then its piece-square
        // tables but the king's fitted from it on 617,550 positions: +23.8
        // [8.1, 39.6], H1 in 1711 games at 10000 nodes (speed-neutral;
        // data/tuning/README.md).
        VariantKind::ThreeCheck => tuning_file!("threecheck-tuned-pst.toml"),
        // The same fit on 552,507 positions of 8000 games: +53.3 Elo [28.6,
        // 78.6], H1 in 625 games at 10000 nodes, and +22.3 [7.4, 37.3], H1
        // in 1767 games at 2+0.02 (data/tuning/README.md).
        VariantKind::Knightmate => tuning_file!("knightmate-tuned-nopst.toml"),
        VariantKind::Suicide | VariantKind::Losers => None,
    }
}

fn centrality(sq: Square) -> i32 {
    let f = sq.file() as i32;
    let r = sq.rank() as i32;
    let df = (2 * f - 7).abs();
    let dr = (2 * r - 7).abs();
    // 0 in the corners .. 6 in the centre.
    (14 - df - dr) / 2
}

impl EvalParams {
    /// The default weights of game `kind`.
    pub fn default_for(kind: VariantKind) -> EvalParams {
        if let Some((text, file)) = tuned_weights_file(kind) {
            let mut tuned = EvalParams {
                variant: kind,
                weights: vec![0; NUM_WEIGHTS],
            };
            tuned
                .apply_toml(text, file)
                .expect("the built-in weights files are valid (tested)");
            return tuned;
        }
        // The hand-set weights of the other games (suicide, losers). The
        // fitted games never get here: they appear in the
        // matches below only because a match names every game. Their
        // piece-square tables, which the fits left alone (threecheck's
        // but the king's were fitted later), came from here into their
        // files; the rest of the seeds their fits started from
        // (each hand-set step with its SPRT in data/sprt/log.csv and its file
        // in data/sprt/eval/) left this code when the fits were adopted.
        let mut w = vec![0i32; NUM_WEIGHTS];
        let (material, bishop_pair): ([i32; 7], i32) = match kind {
            // SPSA from the rule page's Q 6, R 4, B 3, N 3, P 1 (king 3): 2000
            // iterations at 2000 nodes; +49.1 Elo [32, 66], H1 in 912 games at
            // 5000 nodes against the seed (data/tuning/suicide-pieces-spsa.toml).
            // With the piece count beside it, a pawn costs over twice its old
            // price: it is the piece that is hardest to give away.
            VariantKind::Suicide => ([224, 282, 266, 365, 603, 292, 0], 0),
            VariantKind::Chess
            | VariantKind::Atomic
            | VariantKind::ThreeCheck
            | VariantKind::Knightmate => ([100, 300, 330, 500, 900, 0, 330], 30),
            // Chess's values halved, now that the forced mobility carries the
            // evaluation: +32.3 Elo [13.6, 51.2], H1 in 1004 games at 10000
            // nodes (data/sprt/eval/losers-material-half.toml); then a
            // quarter, +16.9 [4.7, 29.1] over half, H1 in 2269 games
            // (losers-material-quarter.toml).
            VariantKind::Losers => ([25, 75, 82, 125, 225, 0, 0], 30),
        };
        w[idx::MATERIAL..idx::MATERIAL + 7].copy_from_slice(&material);
        w[idx::BISHOP_PAIR] = bishop_pair;
        w[idx::MOBILITY..idx::MOBILITY + 7].copy_from_slice(&[0, 4, 5, 3, 2, 0, 3]);
        for sq in Square::all() {
            let c = centrality(sq);
            let r = sq.rank() as i32;
            let i = sq.index();
            let central_file = matches!(sq.file(), 2..=5) as i32;
            w[idx::PST_PAWN + i] = if (1..7).contains(&r) {
                (r - 1) * 5 + central_file * r * 2
            } else {
                0
            };
            w[idx::PST_KNIGHT + i] = c * 6 - 15;
            w[idx::PST_BISHOP + i] = c * 3 - 6;
            w[idx::PST_ROOK + i] = if r == 6 { 15 } else { 0 };
            w[idx::PST_QUEEN + i] = c * 2 - 4;
            w[idx::PST_COMMONER + i] = c * 4 - 10;
            w[idx::PST_KING + i] = match kind {
                // A king hiding near its own back rank in the royal games.
                VariantKind::Chess | VariantKind::ThreeCheck | VariantKind::Losers => {
                    if r == 0 {
                        [10, 15, 5, -5, 0, -5, 15, 10][sq.file() as usize]
                    } else {
                        -10 * r.min(3)
                    }
                }
                VariantKind::Knightmate => c * 2 - 5,
                VariantKind::Suicide | VariantKind::Atomic => 0,
            };
        }
        let passed = [0, 5, 10, 20, 35, 60, 100, 0];
        w[idx::PASSED_PAWN..idx::PASSED_PAWN + 8].copy_from_slice(&passed);
        // A king to shelter and to keep out of danger, but in suicide,
        // where it is an ordinary piece (those weights stay 0).
        if kind != VariantKind::Suicide {
            w[idx::KING_SHELTER] = 8;
            w[idx::KING_DANGER] = 6;
        }
        if kind == VariantKind::Suicide {
            // Each piece a pawn more against its owner, and 10 per legal move
            // of difference: +98 Elo [65, 132], H1 in 281 games at 5000 nodes
            // (data/sprt/eval/suicide-count-mobility.toml); legal mobility 20
            // over 10 +46.4 [23.7, 69.5], H1 in 482 games at 10000 nodes
            // (suicide-legal-mobility-20.toml; the same term: speed-neutral);
            // 40 over 20 +109.9 [75.2, 146.9], H1 in 295 games
            // (suicide-legal-mobility-40.toml); then piece count 50 over 100
            // +15.0 [3.6, 26.4], H1 in 2067 games (suicide-piece-count-50.toml);
            // legal mobility 60 over 40, beside the forced capture and the
            // offer squares, +12.7 [2.8, 22.6], H1 in 3107 games
            // (suicide-legal-mobility-60.toml).
            w[idx::PIECE_COUNT] = 50;
            w[idx::LEGAL_MOBILITY] = 60;
            // The forced capture at Fairy-Stockfish's scale, 1000 / (1 + n):
            // +17.9 [5.0, 30.9], H1 in 1786 games at 10000 nodes
            // (suicide-forced-capture.toml; half that scale H0 at -6.4).
            w[idx::FORCED_CAPTURE..idx::FORCED_CAPTURE + 4]
                .copy_from_slice(&[-1000, -500, -333, -250]);
            // Beside it, the offer squares at 100 per square: +14.2 [3.4,
            // 24.9], H1 in 2702 games at 10000 nodes
            // (suicide-offer-squares-100.toml; 50 without the forced capture
            // undecided at 0.0); 200 over 100 +13.1 [3.0, 23.3], H1 in 2968
            // games (suicide-offer-squares-200.toml); 300 over 200 (with
            // legal mobility 60) +13.4 [3.0, 23.8], H1 in 2646 games
            // (suicide-offer-squares-300.toml).
            w[idx::OFFER_SQUARES] = 300;
        }
        if kind == VariantKind::Losers {
            // Both sides' moves under the forced-capture rule, counted from
            // attack sets: at 10 per move of difference +47.2 Elo [23.9,
            // 70.9], H1 in 578 games at 2+0.02 (+46.8 [23.8, 70.2] at 10000
            // nodes; data/sprt/eval/losers-forced-mobility.toml); 20 per move
            // over 10 +72.2 [43.8, 101.6], H1 in 367 games at 10000 nodes
            // (losers-forced-mobility-20.toml; the same term, so speed-neutral);
            // 40 over 20 +150.0 [109.6, 194.6], H1 in 269 games at 10000
            // nodes (losers-forced-mobility-40.toml); 80 over 40 +97.3 [64.4,
            // 132.0], H1 in 327 games at 10000 nodes (-80.toml); 160 over 80
            // +54.7 [29.7, 80.2], H1 in 603 games at 10000 nodes (-160.toml).
            w[idx::FORCED_MOBILITY] = 160;
        }
        w[idx::TEMPO] = 10;
        // The endgame halves: the middlegame's until a game's own differ.
        w.copy_within(0..EG, EG);
        EvalParams {
            variant: kind,
            weights: w,
        }
    }

    /// The weight group called `name`: a term's group (`material`) or the
    /// endgame half of one (`material_eg`).
    pub fn group(name: &str) -> Option<ParamGroup> {
        GROUPS
            .iter()
            .chain(EG_GROUPS)
            .copied()
            .find(|g| g.name == name)
    }

    /// Name of the weight at `index`, e.g. `material.queen`, `pst_knight.e4`,
    /// or for an endgame half `material_eg.queen`.
    pub fn weight_name(index: usize) -> String {
        let g = GROUPS
            .iter()
            .chain(EG_GROUPS)
            .find(|g| (g.offset..g.offset + g.len).contains(&index))
            .expect("index within the layout");
        let i = index - g.offset;
        match g.shape {
            Shape::Scalar => g.name.to_string(),
            Shape::ByPiece => format!("{}.{}", g.name, MATERIAL_NAMES[i]),
            Shape::BySquare => {
                format!("{}.{}", g.name, Square::new(i as u8).expect("square index"))
            }
            Shape::ByRank | Shape::Indexed(_) => format!("{}.{}", g.name, i),
        }
    }

    /// Index of the weight called `name` (as [`EvalParams::weight_name`]
    /// writes it: `material.queen`, `hanging.rook`, `pst_knight.e4`,
    /// `tempo`, `tempo_eg`). A weight of a group of several is also found
    /// by its position, `group.N` (`hanging.3`: the names by-piece groups
    /// other than `material` and `mobility` had before their shape was
    /// declared).
    pub fn weight_index(name: &str) -> Option<usize> {
        if let Some(i) = (0..NUM_WEIGHTS).find(|&i| EvalParams::weight_name(i) == name) {
            return Some(i);
        }
        let (group, position) = name.rsplit_once('.')?;
        let g = EvalParams::group(group)?;
        let i: usize = position.parse().ok()?;
        (g.shape != Shape::Scalar && i < g.len).then_some(g.offset + i)
    }

    /// Sets weight `index` to `value`: a term's index (below [`EG`]) sets
    /// both its halves, as a file naming the term's group does, and an
    /// endgame index (`EG` on) its endgame half alone. So a term named
    /// alone keeps one value for the whole game, and whoever sets both a
    /// term and its endgame half sets the term first (in index order).
    pub fn set(&mut self, index: usize, value: i32) {
        self.weights[index] = value;
        if index < EG {
            self.weights[EG + index] = value;
        }
    }

    /// Parses TOML (`group = value` or `group = [values]`; the `material`
    /// and `mobility` groups may also be tables keyed by piece name). Groups not
    /// mentioned keep the default of `kind`; a text that sets no weight at all
    /// (an empty or truncated file) is an error, not the defaults. Every weight
    /// is within ±[`MAX_WEIGHT`].
    pub fn from_toml(
        kind: VariantKind,
        text: &str,
        origin: &str,
    ) -> Result<EvalParams, ParamsError> {
        let mut p = EvalParams::default_for(kind);
        p.apply_toml(text, origin)?;
        Ok(p)
    }

    /// Sets the weights that the TOML `text` names on top of these (the
    /// reading of [`EvalParams::from_toml`]; `origin` names the text in errors).
    pub(super) fn apply_toml(&mut self, text: &str, origin: &str) -> Result<(), ParamsError> {
        let kind = self.variant;
        let p = self;
        let content = |message: String| ParamsError::content(origin, message);
        let table = crate::param_file::parse_table(text, origin)?;
        let sets_weights = table.keys().any(|k| k != "variant");
        // Terms (both halves) first, then the endgame halves on top.
        let mut entries: Vec<(String, toml::Value)> = table.into_iter().collect();
        entries.sort_by_key(|(k, _)| k.ends_with("_eg"));
        for (key, value) in entries {
            if key == "variant" {
                let v = value.as_str().unwrap_or_default();
                let parsed: VariantKind = v.parse().map_err(|e| content(format!("{e}")))?;
                if parsed != kind {
                    return Err(content(format!("file is for {parsed}, not {kind}")));
                }
                continue;
            }
            let g = EvalParams::group(&key).ok_or_else(|| {
                content(format!(
                    "unknown weight group \"{key}\" (known: {}; each also as <group>_eg, its endgame half)",
                    GROUPS.iter().map(|g| g.name).collect::<Vec<_>>().join(", ")
                ))
            })?;
            // The value of weight `index`, within ±MAX_WEIGHT.
            let as_int = |v: &toml::Value, index: usize| -> Result<i32, ParamsError> {
                let i = v
                    .as_integer()
                    .ok_or_else(|| content(format!("\"{key}\" must hold integers, found {v}")))?;
                if i.abs() > i64::from(MAX_WEIGHT) {
                    return Err(content(format!(
                        "weight {} = {i} is out of range -{MAX_WEIGHT}..={MAX_WEIGHT}",
                        EvalParams::weight_name(index)
                    )));
                }
                Ok(i as i32)
            };
            match &value {
                toml::Value::Integer(_) if g.shape == Shape::Scalar => {
                    p.set(g.offset, as_int(&value, g.offset)?)
                }
                toml::Value::Array(items) if items.len() == g.len => {
                    for (i, v) in items.iter().enumerate() {
                        p.set(g.offset + i, as_int(v, g.offset + i)?);
                    }
                }
                toml::Value::Table(t) if g.shape == Shape::ByPiece => {
                    for (name, v) in t {
                        let i = MATERIAL_NAMES
                            .iter()
                            .position(|n| n == name)
                            .ok_or_else(|| {
                                content(format!("unknown piece \"{name}\" in \"{key}\""))
                            })?;
                        p.set(g.offset + i, as_int(v, g.offset + i)?);
                    }
                }
                _ => {
                    return Err(content(format!(
                        "\"{key}\" must be {}",
                        if g.shape == Shape::Scalar {
                            "an integer".to_string()
                        } else {
                            format!("an array of {} integers", g.len)
                        }
                    )))
                }
            }
        }
        if !sets_weights {
            return Err(content(
                "sets no weights (an empty file is refused rather than read as the defaults)"
                    .to_string(),
            ));
        }
        Ok(())
    }

    /// Loads weights for `kind` from a TOML file.
    pub fn load(kind: VariantKind, path: &Path) -> Result<EvalParams, ParamsError> {
        crate::param_file::load(kind, path, EvalParams::from_toml)
    }

    /// Weights for `kind` from the TOML file `path`, or the built-in ones
    /// when there is no file (an engine option left empty, no `--eval`).
    pub fn load_or_default(
        kind: VariantKind,
        path: Option<&Path>,
    ) -> Result<EvalParams, ParamsError> {
        match path {
            Some(path) => EvalParams::load(kind, path),
            None => Ok(EvalParams::default_for(kind)),
        }
    }

    /// The weights as TOML: `variant`, then every group (material and mobility
    /// as tables keyed by piece, piece-square tables as rows from rank 1 up),
    /// each with its middlegame half, which [`EvalParams::from_toml`] reads as
    /// both halves; then `<group>_eg` for each group whose endgame half
    /// differs.
    pub fn to_toml(&self) -> String {
        let mut s = format!("variant = \"{}\"\n", self.variant.name());
        let mut tables = String::new();
        let differing_eg = EG_GROUPS.iter().filter(|g| {
            self.weights[g.offset..g.offset + g.len]
                != self.weights[g.offset - EG..g.offset - EG + g.len]
        });
        for g in GROUPS.iter().chain(differing_eg) {
            let vals = &self.weights[g.offset..g.offset + g.len];
            if g.shape == Shape::Scalar {
                s.push_str(&format!("{} = {}\n", g.name, vals[0]));
            } else if g.shape == Shape::ByPiece {
                tables.push_str(&format!("\n[{}]\n", g.name));
                for (n, v) in MATERIAL_NAMES.iter().zip(vals) {
                    tables.push_str(&format!("{n} = {v}\n"));
                }
            } else if g.shape == Shape::BySquare {
                s.push_str(&format!("{} = [\n", g.name));
                for row in vals.chunks(8) {
                    let r: Vec<String> = row.iter().map(|v| format!("{v:4}")).collect();
                    s.push_str(&format!("  {},\n", r.join(",")));
                }
                s.push_str("]\n");
            } else {
                let r: Vec<String> = vals.iter().map(|v| v.to_string()).collect();
                s.push_str(&format!("{} = [{}]\n", g.name, r.join(", ")));
            }
        }
        s + &tables
    }

    /// Writes the weights to a TOML file.
    pub fn save(&self, path: &Path) -> Result<(), ParamsError> {
        crate::param_file::save(path, &self.to_toml())
    }
}
