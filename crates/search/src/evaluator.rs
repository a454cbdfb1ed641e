//! The seam between the search and the evaluation.
//!
//! The search evaluates positions it makes by copy-make, one ply at a time,
//! along the path it searches. An [`Evaluator`] is what evaluates (today
//! one kind: the classical linear evaluation with its weights,
//! [`EvalParams`]); an [`EvalStack`] is one search thread's evaluation state
//! along its path, kept in the thread's persistent state and told each
//! step of the path: [`EvalStack::root`] at the root of a search,
//! [`EvalStack::push`] (a move or a null move made, with the positions
//! before and after it) before a child is searched,
//! [`EvalStack::pop`] after, and [`EvalStack::evaluate`] for the position
//! at the top. The classical kind needs none of the steps (it evaluates a
//! position from scratch) and only counts them; the network keeps one
//! [`Accumulator`] a ply, refreshed at the root and updated from the
//! parent's by the move's changed pieces at each push, so the search's node
//! function is the same for both kinds. The accumulators are allocated the
//! first time a thread searches with a network (for every ply the search
//! can reach) and reused by every later search; the classical arms touch
//! none of it, so the classical evaluation costs what it did.
//!
//! What a user names as an evaluation is an [`EvalChoice`]: the game's
//! default (its embedded net where it has one, [`crate::nnue::embedded`],
//! else the classical evaluation), `classical`, or a file. One loader,
//! [`Evaluator::load`], reads files: one starting with the net magic is a
//! network (checked for the game and the architecture), anything else
//! classical weights in TOML; each failure is one line naming the file
//! ([`EvalError`]). [`Evaluator::choose`] turns a choice into an evaluator
//! for every front end, so `eval=classical`, `--eval classical` and
//! `EvalFile classical` mean the same everywhere.
//!
//! Every front end (the protocol sessions, the match runner's in-process
//! player, analysis, bench, the opening and data generators) holds an
//! `Evaluator`; what tunes the classical weights (Texel, SPSA, the
//! quiescence leaves) works on [`EvalParams`] and wraps them in one to
//! search ([`Evaluator::from`]).

use crate::alphabeta::MAX_PLY;
use crate::eval::{evaluate, EvalParams, ParamsError};
use crate::nnue::network::MAGIC;
use crate::nnue::{Accumulator, NetError, Network};
use movegen::{Position, Variant, VariantKind};
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::Arc;

/// Why an evaluation file cannot be used: one line naming the file.
#[derive(Debug, thiserror::Error)]
pub enum EvalError {
    /// Classical weights that cannot be read (unreadable, unknown keys).
    #[error(transparent)]
    Weights(#[from] ParamsError),
    /// A net file that cannot be used (truncated, another game or
    /// architecture, corrupt).
    #[error(transparent)]
    Net(#[from] NetError),
    /// Neither a net (no magic) nor TOML.
    #[error("{file}: neither a varia net file (no \"VARIANET\" magic) nor weights TOML ({why})")]
    Neither {
        /// The file.
        file: String,
        /// Why it is not TOML.
        why: String,
    },
}

/// Which evaluation to play, as a user names it on a command line
/// (`--eval`), in an engine spec (`eval=`) or an engine option
/// (`EvalFile`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum EvalChoice {
    /// The game's default: its embedded net if it has one, else the
    /// classical evaluation (`default`, or nothing named).
    #[default]
    Default,
    /// The built-in classical evaluation with its default weights
    /// (`classical`).
    Classical,
    /// A file: a net or classical weights in TOML (any other name; write
    /// `./default` for a file called `default`).
    File(PathBuf),
}

impl EvalChoice {
    /// The choice `spec` names: empty or `default`, `classical`, or a file.
    pub fn parse(spec: &str) -> EvalChoice {
        match spec {
            "" | "default" => EvalChoice::Default,
            "classical" => EvalChoice::Classical,
            file => EvalChoice::File(PathBuf::from(file)),
        }
    }
}

/// `default`, `classical` or the file's path: what [`EvalChoice::parse`]
/// reads back.
impl fmt::Display for EvalChoice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EvalChoice::Default => write!(f, "default"),
            EvalChoice::Classical => write!(f, "classical"),
            EvalChoice::File(path) => write!(f, "{}", path.display()),
        }
    }
}

/// What evaluates positions for the search.
#[derive(Clone, Debug)]
pub enum Evaluator {
    /// The classical evaluation: a linear function of the position's terms
    /// with these weights.
    Classical(EvalParams),
    /// A neural network (shared by every thread and player using it).
    Network(Arc<Network>),
}

impl Evaluator {
    /// The default evaluation of `kind`: its embedded net if it has one
    /// ([`crate::nnue::embedded`]), else its classical evaluation.
    pub fn default_for(kind: VariantKind) -> Evaluator {
        match crate::nnue::embedded::net_for(kind) {
            Some(net) => Evaluator::Network(net),
            None => Evaluator::classical_for(kind),
        }
    }

    /// The classical evaluation of `kind` with its built-in weights.
    pub fn classical_for(kind: VariantKind) -> Evaluator {
        Evaluator::Classical(EvalParams::default_for(kind))
    }

    /// The evaluation `choice` names for `kind`.
    pub fn choose(kind: VariantKind, choice: &EvalChoice) -> Result<Evaluator, EvalError> {
        match choice {
            EvalChoice::Default => Ok(Evaluator::default_for(kind)),
            EvalChoice::Classical => Ok(Evaluator::classical_for(kind)),
            EvalChoice::File(path) => Evaluator::load(kind, path),
        }
    }

    /// The evaluation in the file `path` for `kind`: a network if the file
    /// starts with the net magic (or is a prefix of it: a truncated net),
    /// else classical weights in TOML.
    pub fn load(kind: VariantKind, path: &Path) -> Result<Evaluator, EvalError> {
        let file = path.display().to_string();
        let bytes = crate::input::read(path).map_err(|source| NetError::Io {
            file: file.clone(),
            source,
        })?;
        let n = bytes.len().min(MAGIC.len());
        if n > 0 && bytes[..n] == MAGIC[..n] {
            return Ok(Evaluator::Network(Arc::new(Network::from_bytes(
                &bytes, &file, kind,
            )?)));
        }
        let text = String::from_utf8(bytes).map_err(|_| EvalError::Neither {
            file: file.clone(),
            why: "not UTF-8 text".to_string(),
        })?;
        match EvalParams::from_toml(kind, &text, &file) {
            Ok(p) => Ok(Evaluator::Classical(p)),
            Err(ParamsError::Toml { message, .. }) => Err(EvalError::Neither {
                file,
                why: format!("invalid TOML: {message}"),
            }),
            Err(e) => Err(e.into()),
        }
    }

    /// The evaluation named by `spec` ([`EvalChoice::parse`]) for `kind`.
    pub fn from_spec(kind: VariantKind, spec: &str) -> Result<Evaluator, EvalError> {
        Evaluator::choose(kind, &EvalChoice::parse(spec))
    }

    /// `true` if this is `kind`'s default evaluation ([`Evaluator::default_for`]):
    /// the same embedded net, or the built-in classical weights for a game
    /// without one.
    pub fn is_default_for(&self, kind: VariantKind) -> bool {
        match (self, crate::nnue::embedded::net_for(kind)) {
            (Evaluator::Network(a), Some(b)) => Arc::ptr_eq(a, &b) || **a == *b,
            (Evaluator::Classical(p), None) => *p == EvalParams::default_for(kind),
            _ => false,
        }
    }

    /// The game this evaluation is for.
    pub fn variant(&self) -> VariantKind {
        match self {
            Evaluator::Classical(p) => p.variant,
            Evaluator::Network(net) => net.game(),
        }
    }

    /// The classical weights, if this is the classical evaluation (what the
    /// tuners and the protocols' weight options work on).
    pub fn classical(&self) -> Option<&EvalParams> {
        match self {
            Evaluator::Classical(p) => Some(p),
            Evaluator::Network(_) => None,
        }
    }

    /// The classical weights to change, if this is the classical
    /// evaluation.
    pub fn classical_mut(&mut self) -> Option<&mut EvalParams> {
        match self {
            Evaluator::Classical(p) => Some(p),
            Evaluator::Network(_) => None,
        }
    }

    /// The static evaluation of `pos` on its own, without a search path
    /// (from scratch whatever the kind), in centipawns from the side to
    /// move's view.
    pub fn evaluate<V: Variant>(&self, pos: &Position<V>) -> i32 {
        match self {
            Evaluator::Classical(p) => evaluate(pos, p),
            Evaluator::Network(net) => net.evaluate_position(pos),
        }
    }
}

/// What plays, for logs and the protocols' info lines: `classical`, or
/// `network` with the net's game, size, activation and weight hash (and
/// its name if it is the game's embedded net).
impl fmt::Display for Evaluator {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Evaluator::Classical(_) => write!(f, "classical"),
            Evaluator::Network(net) => {
                write!(f, "network ")?;
                if self.is_default_for(net.game()) {
                    if let Some(name) = crate::nnue::embedded::name_for(net.game()) {
                        write!(f, "{name} ")?;
                    }
                }
                write!(
                    f,
                    "({} {}x2 {}, hash {:016x})",
                    net.game(),
                    net.hidden(),
                    net.activation(),
                    net.hash()
                )
            }
        }
    }
}

impl From<EvalParams> for Evaluator {
    fn from(params: EvalParams) -> Evaluator {
        Evaluator::Classical(params)
    }
}

/// One search thread's evaluation state along its current path: one entry
/// a ply, the root's at the bottom. Allocated once per thread and kept
/// from one search to the next (the thread's persistent state); every
/// method takes the [`Evaluator`] the search runs with.
#[derive(Clone, Debug, Default)]
pub struct EvalStack {
    /// Entries on the stack: the ply of the top position plus one.
    height: usize,
    /// The network's accumulators, one a ply (entry `height - 1` is the
    /// top's); empty until the first search with a network.
    accs: Vec<Accumulator>,
}

/// Whether [`EvalStack::evaluate`] checks the network's top accumulator
/// against a fresh one of the position (see [`check_accumulators`]).
static CHECK_ACCUMULATORS: AtomicBool = AtomicBool::new(false);

/// Turns on (or off) a check, for tests, that at every evaluation by a
/// network the top accumulator of the stack equals one computed from
/// scratch for the position, so a search tests every incremental update it
/// makes; a mismatch panics naming the ply and the position. It is a
/// process-wide switch read at each evaluation rather than a debug
/// assertion so that the test-profile binary (debug assertions on), which
/// `scripts/sprt.sh` plays its one-binary tests with, times a net without
/// it.
pub fn check_accumulators(on: bool) {
    CHECK_ACCUMULATORS.store(on, Relaxed);
}

/// Accumulators a stack holds: every ply a search reaches (a node at
/// [`MAX_PLY`] evaluates, its quiescence one more) with a margin.
const ACC_ENTRIES: usize = MAX_PLY + 8;

impl EvalStack {
    /// A stack for any evaluator, empty.
    pub fn new() -> EvalStack {
        EvalStack::default()
    }

    /// Starts a path at `root`: the stack holds its entry alone.
    #[inline]
    pub fn root<V: Variant>(&mut self, evaluator: &Evaluator, root: &Position<V>) {
        match evaluator {
            Evaluator::Classical(_) => {}
            Evaluator::Network(net) => {
                if self.accs.len() != ACC_ENTRIES || self.accs[0].hidden() != net.hidden() {
                    self.accs = vec![Accumulator::new(net, root); ACC_ENTRIES];
                } else {
                    self.accs[0].refresh(net, root);
                }
            }
        }
        self.height = 1;
    }

    /// The path goes on from `parent` (the top position) by a move, or a
    /// null move, to `child`, which the search is about to search. Neither
    /// kind needs the move: the network updates its accumulator from the
    /// two boards.
    #[inline]
    pub fn push<V: Variant>(
        &mut self,
        evaluator: &Evaluator,
        parent: &Position<V>,
        child: &Position<V>,
    ) {
        match evaluator {
            Evaluator::Classical(_) => {}
            Evaluator::Network(net) => self.update_top(net, parent, child),
        }
        self.height += 1;
    }

    /// The search of the top position is over: its parent is the top again.
    #[inline]
    pub fn pop(&mut self) {
        debug_assert!(self.height > 1, "pop below the root");
        self.height -= 1;
    }

    /// The static evaluation of `pos`, the top position of the path, in
    /// centipawns from the side to move's view.
    #[inline]
    pub fn evaluate<V: Variant>(&mut self, evaluator: &Evaluator, pos: &Position<V>) -> i32 {
        match evaluator {
            Evaluator::Classical(p) => evaluate(pos, p),
            Evaluator::Network(net) => {
                let acc = &self.accs[self.height - 1];
                if CHECK_ACCUMULATORS.load(Relaxed) {
                    assert!(
                        *acc == Accumulator::new(net, pos),
                        "the accumulator of ply {} is not that of its position {}",
                        self.height - 1,
                        pos.fen()
                    );
                }
                net.evaluate(acc, pos.turn())
            }
        }
    }

    /// Sets the entry above the top to the sums of `child` from the top's
    /// (those of `parent`).
    #[inline]
    fn update_top<V: Variant>(&mut self, net: &Network, parent: &Position<V>, child: &Position<V>) {
        let (below, above) = self.accs.split_at_mut(self.height);
        above[0].update_from(net, &below[self.height - 1], parent, child);
    }

    /// Entries on the stack: the ply of the top position plus one (0
    /// before the first [`EvalStack::root`]).
    #[inline]
    pub fn height(&self) -> usize {
        self.height
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use movegen::variants::Chess;

    #[test]
    fn the_classical_evaluator_is_the_evaluation_of_its_weights_along_a_path() {
        let ev = Evaluator::classical_for(VariantKind::Chess);
        let params = ev.classical().expect("classical").clone();
        let root = Position::<Chess>::startpos();
        let mut stack = EvalStack::new();
        stack.root(&ev, &root);
        assert_eq!(stack.height(), 1);
        assert_eq!(stack.evaluate(&ev, &root), evaluate(&root, &params));
        let m = root.parse_uci("e2e4").expect("legal");
        let child = root.play_unchecked(m);
        stack.push(&ev, &root, &child);
        assert_eq!(stack.height(), 2);
        assert_eq!(stack.evaluate(&ev, &child), evaluate(&child, &params));
        assert_eq!(ev.evaluate(&child), evaluate(&child, &params));
        let null = child.play_null().expect("not in check");
        stack.push(&ev, &child, &null);
        assert_eq!(stack.evaluate(&ev, &null), evaluate(&null, &params));
        stack.pop();
        stack.pop();
        assert_eq!(stack.height(), 1);
        assert_eq!(Evaluator::from(params).variant(), VariantKind::Chess);
    }

    #[test]
    fn a_choice_names_the_default_the_classical_evaluation_or_a_file() {
        for spec in ["", "default", "classical", "a.nnue", "./default"] {
            let choice = EvalChoice::parse(spec);
            let shown = choice.to_string();
            assert_eq!(EvalChoice::parse(&shown), choice, "{spec}");
        }
        assert_eq!(EvalChoice::parse(""), EvalChoice::Default);
        assert_eq!(
            EvalChoice::parse("./default"),
            EvalChoice::File(PathBuf::from("./default"))
        );
        for kind in VariantKind::ALL {
            let default = Evaluator::from_spec(kind, "default").unwrap();
            let classical = Evaluator::from_spec(kind, "classical").unwrap();
            assert_eq!(classical.classical(), Some(&EvalParams::default_for(kind)));
            assert!(default.is_default_for(kind), "{kind}");
            assert_eq!(default.variant(), kind);
            match crate::nnue::embedded::name_for(kind) {
                // A game with a net plays it by default and names it.
                Some(name) => {
                    assert!(default.classical().is_none(), "{kind}");
                    assert!(!classical.is_default_for(kind), "{kind}");
                    assert!(default.to_string().contains(name), "{default}");
                }
                None => {
                    assert_eq!(default.classical(), classical.classical());
                    assert!(classical.is_default_for(kind), "{kind}");
                }
            }
        }
        assert!(
            crate::nnue::embedded::name_for(VariantKind::Chess).is_some(),
            "chess plays its net by default"
        );
    }

    #[test]
    fn the_loader_tells_a_net_from_weights_and_names_the_file_in_each_error() {
        use crate::nnue::{Activation, FloatNetwork};
        let dir = tempfile::tempdir().unwrap();
        let net = FloatNetwork::init(VariantKind::Atomic, 16, Activation::CReLU, 3).quantise();
        let bytes = net.to_bytes();
        let at = |name: &str, contents: &[u8]| {
            let p = dir.path().join(name);
            std::fs::write(&p, contents).unwrap();
            p
        };
        let good = at("a.nnue", &bytes);
        let ev = Evaluator::load(VariantKind::Atomic, &good).expect("a net");
        match &ev {
            Evaluator::Network(loaded) => assert_eq!(**loaded, net),
            Evaluator::Classical(_) => panic!("read as weights"),
        }
        assert!(ev.classical().is_none());
        assert_eq!(ev.variant(), VariantKind::Atomic);
        assert!(
            ev.to_string().contains(&format!("{:016x}", net.hash())),
            "{ev}"
        );
        // The stack's evaluation is the net's of a fresh accumulator.
        let root = Position::<movegen::variants::Atomic>::startpos();
        let mut stack = EvalStack::new();
        stack.root(&ev, &root);
        let m = root.parse_uci("e2e4").expect("legal");
        let child = root.play_unchecked(m);
        stack.push(&ev, &root, &child);
        assert_eq!(stack.evaluate(&ev, &child), net.evaluate_position(&child));
        assert_eq!(ev.evaluate(&child), net.evaluate_position(&child));

        let error = |path: &Path, kind: VariantKind| {
            let e = Evaluator::load(kind, path)
                .expect_err("refused")
                .to_string();
            assert!(e.starts_with(&path.display().to_string()), "{e}");
            assert_eq!(e.lines().count(), 1, "{e}");
            e
        };
        let e = error(
            &at("short.nnue", &bytes[..bytes.len() - 7]),
            VariantKind::Atomic,
        );
        assert!(e.contains("truncated"), "{e}");
        let e = error(&at("head.nnue", &bytes[..5]), VariantKind::Atomic);
        assert!(e.contains("truncated"), "{e}");
        let e = error(&good, VariantKind::Chess);
        assert!(e.contains("a net for atomic, not for chess"), "{e}");
        let e = error(&at("bin", &[0xff, 0xfe, 0, 1, 2]), VariantKind::Atomic);
        assert!(
            e.contains("neither a varia net file") && e.contains("UTF-8"),
            "{e}"
        );
        let e = error(
            &at("junk.txt", b"this is = = not toml"),
            VariantKind::Atomic,
        );
        assert!(
            e.contains("neither a varia net file") && e.contains("invalid TOML"),
            "{e}"
        );
        let e = error(
            &at("keys.toml", b"no_such_weight = 3\n"),
            VariantKind::Atomic,
        );
        assert!(!e.contains("neither"), "{e}");
        error(&dir.path().join("missing"), VariantKind::Atomic);

        let weights = EvalParams::default_for(VariantKind::Atomic);
        let toml = at("w.toml", weights.to_toml().as_bytes());
        let ev = Evaluator::load(VariantKind::Atomic, &toml).expect("weights");
        assert_eq!(ev.classical(), Some(&weights));
        assert_eq!(ev.to_string(), "classical");
        let spec = toml.to_str().unwrap();
        let ev = Evaluator::from_spec(VariantKind::Atomic, spec).unwrap();
        assert_eq!(ev.classical(), Some(&weights));
        assert_eq!(
            Evaluator::from_spec(VariantKind::Chess, "classical")
                .unwrap()
                .classical(),
            Some(&EvalParams::default_for(VariantKind::Chess))
        );
    }

    #[test]
    #[should_panic(expected = "the accumulator of ply 1 is not that of its position")]
    fn the_accumulator_check_catches_a_stack_that_left_its_path() {
        use crate::nnue::{Activation, FloatNetwork};
        use movegen::variants::Chess;
        check_accumulators(true);
        let net = FloatNetwork::init(VariantKind::Chess, 8, Activation::CReLU, 1).quantise();
        let ev = Evaluator::Network(Arc::new(net));
        let root = Position::<Chess>::startpos();
        let mut stack = EvalStack::new();
        stack.root(&ev, &root);
        let m = root.parse_uci("e2e4").expect("legal");
        let child = root.play_unchecked(m);
        stack.push(&ev, &root, &child);
        stack.evaluate(&ev, &child);
        // Another position than the one pushed: the check must see it.
        let other = root.play_unchecked(root.parse_uci("d2d4").expect("legal"));
        stack.evaluate(&ev, &other);
    }
}
