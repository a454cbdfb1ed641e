//! Fake move generators for the tests of `varia perft-compare`: divides
//! computed with varia's own movegen, with one fault planted at a chosen
//! node, so a test knows exactly which move the comparison must find.
//!
//! Modes:
//! - `fake-engine perft-uci [FAULT]`: a UCI engine offering every game in
//!   `UCI_Variant`, answering `go perft D` Stockfish-style (`move: count`,
//!   a blank line, `Nodes searched: N`);
//! - `fake-engine perftree [FAULT] [--variant V] DEPTH FEN [MOVES]`:
//!   perftree's script protocol (`move count`, a blank line, the total).
//!
//! FAULT (moves in UCI, comma-separated, from the position given to the
//! engine):
//! - `--drop-move M1,...,Mk,X`: after M1..Mk the move X is not generated;
//! - `--add-move M1,...,Mk,X`: after M1..Mk an extra move X is generated,
//!   counted as one node at every depth (a single forced line below it);
//! - `--garbage`: answer every perft with a line that is not a count.
//!
//! Subtrees that cannot contain the fault are counted with `movegen::perft`,
//! so deep divides stay fast.

use crate::{out, Args};
use movegen::{with_game, VariantGame, VariantKind};

/// The planted fault.
#[derive(Default)]
struct Fault {
    /// The moves leading to the faulty node.
    path: Vec<String>,
    /// The move dropped there.
    drop: Option<String>,
    /// The move added there.
    add: Option<String>,
    /// Print a line that is not a count.
    garbage: bool,
}

impl Fault {
    fn parse(args: &Args) -> Result<Fault, String> {
        let mut fault = Fault {
            garbage: args.has("--garbage"),
            ..Fault::default()
        };
        for flag in ["--drop-move", "--add-move"] {
            if !args.has(flag) {
                continue;
            }
            let mut moves: Vec<String> = args
                .after(flag, 1)
                .ok_or(format!("{flag} needs moves"))?
                .split(',')
                .map(str::to_string)
                .collect();
            let last = moves.pop().filter(|m| !m.is_empty());
            fault.path = moves;
            match flag {
                "--drop-move" => fault.drop = last,
                _ => fault.add = last,
            }
        }
        Ok(fault)
    }

    /// The faulty divide at `depth` of `game`, reached by `path`.
    fn divide(
        &self,
        game: &mut VariantGame,
        path: &mut Vec<String>,
        depth: u32,
    ) -> Vec<(String, u64)> {
        let mut out = Vec::new();
        if depth == 0 {
            return out;
        }
        let at_fault = *path == self.path;
        for m in game.legal_moves().iter() {
            let uci = m.uci();
            if at_fault && self.drop.as_deref() == Some(uci.as_str()) {
                continue;
            }
            game.play(*m).expect("a legal move plays");
            path.push(uci.clone());
            let n = self.count(game, path, depth - 1);
            path.pop();
            game.undo();
            out.push((uci, n));
        }
        if at_fault {
            if let Some(extra) = &self.add {
                out.push((extra.clone(), 1));
            }
        }
        out
    }

    /// The faulty perft at `depth` of `game`, reached by `path`.
    fn count(&self, game: &mut VariantGame, path: &mut Vec<String>, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let below = path.len() <= self.path.len() && self.path.starts_with(path);
        if !below {
            return with_game!(&*game, V, g => movegen::perft(g.position(), depth));
        }
        self.divide(game, path, depth).iter().map(|(_, n)| n).sum()
    }

    /// The divide of `kind` at `fen` after `moves`.
    fn answer(
        &self,
        kind: VariantKind,
        fen: &str,
        moves: &[String],
        depth: u32,
    ) -> Result<Vec<(String, u64)>, String> {
        let mut game = VariantGame::from_uci_moves(kind, Some(fen), moves)
            .map_err(|e| format!("bad position: {e}"))?;
        let mut path = moves.to_vec();
        Ok(self.divide(&mut game, &mut path, depth))
    }
}

/// Runs the UCI perft engine until `quit` or the end of stdin.
pub fn run_uci(args: &Args) -> Result<(), String> {
    let fault = Fault::parse(args)?;
    let mut kind = VariantKind::Chess;
    let mut position: Option<(String, Vec<String>)> = None;
    for line in crate::input_lines() {
        let toks: Vec<&str> = line.split_whitespace().collect();
        match toks.as_slice() {
            ["uci"] => {
                out("id name FakePerft");
                let vars: Vec<String> = VariantKind::protocol_names()
                    .iter()
                    .map(|n| format!("var {n}"))
                    .collect();
                out(&format!(
                    "option name UCI_Variant type combo default chess {}",
                    vars.join(" ")
                ));
                out("uciok");
            }
            ["isready"] => out("readyok"),
            ["setoption", "name", "UCI_Variant", "value", v] => {
                kind = VariantKind::from_protocol_name(v).ok_or(format!("unknown variant {v}"))?;
            }
            ["position", "fen", rest @ ..] => {
                let split = rest
                    .iter()
                    .position(|t| *t == "moves")
                    .unwrap_or(rest.len());
                let fen = rest[..split].join(" ");
                let moves = rest[(split + 1).min(rest.len())..]
                    .iter()
                    .map(|m| m.to_string())
                    .collect();
                position = Some((fen, moves));
            }
            ["go", "perft", d] => {
                let depth: u32 = d.parse().map_err(|_| format!("bad depth {d}"))?;
                let (fen, moves) = position.as_ref().ok_or("go perft without a position")?;
                if fault.garbage {
                    out("e2e4: many");
                    out("Nodes searched: 1");
                    continue;
                }
                let divide = fault.answer(kind, fen, moves, depth)?;
                for (m, n) in &divide {
                    out(&format!("{m}: {n}"));
                }
                out("");
                out(&format!(
                    "Nodes searched: {}",
                    divide.iter().map(|(_, n)| n).sum::<u64>()
                ));
            }
            ["quit"] => return Ok(()),
            _ => {}
        }
    }
    Ok(())
}

/// Answers one perftree query from the arguments.
pub fn run_perftree(args: &Args) -> Result<(), String> {
    let fault = Fault::parse(args)?;
    let kind = match args.after("--variant", 1) {
        Some(v) => VariantKind::from_protocol_name(v).ok_or(format!("unknown variant {v}"))?,
        None => VariantKind::Chess,
    };
    let mut positional = Vec::new();
    let mut words = args.0.iter();
    while let Some(w) = words.next() {
        match w.as_str() {
            "--drop-move" | "--add-move" | "--variant" => {
                words.next();
            }
            "--garbage" => {}
            _ => positional.push(w.clone()),
        }
    }
    let [depth, fen, rest @ ..] = positional.as_slice() else {
        return Err("usage: fake-engine perftree [FAULT] [--variant V] DEPTH FEN [MOVES]".into());
    };
    let depth: u32 = depth.parse().map_err(|_| format!("bad depth {depth}"))?;
    let moves: Vec<String> = rest
        .iter()
        .flat_map(|m| m.split_whitespace())
        .map(str::to_string)
        .collect();
    if fault.garbage {
        out("this is not a divide");
        return Ok(());
    }
    let divide = fault.answer(kind, fen, &moves, depth)?;
    for (m, n) in &divide {
        out(&format!("{m} {n}"));
    }
    out("");
    out(&divide.iter().map(|(_, n)| n).sum::<u64>().to_string());
    Ok(())
}
