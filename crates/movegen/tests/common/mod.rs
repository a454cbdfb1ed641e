//! Helpers shared by the integration tests: the rows of the public perft
//! table, and its positions for use as start positions of random playouts.

#![allow(dead_code)]

use movegen::{dispatch, perft, Position, VariantKind};
use rayon::prelude::*;

/// Every distinct FEN of the public perft table for `kind`, sorted.
pub fn table_fens(kind: VariantKind) -> Vec<String> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../data/perft/perft_public.csv"
    );
    let mut reader = csv::Reader::from_path(path).expect("reference table is in the repository");
    let mut fens: Vec<String> = reader
        .records()
        .map(|r| r.expect("well-formed CSV"))
        .filter(|r| r[0].parse::<VariantKind>().ok() == Some(kind))
        .map(|r| r[1].to_string())
        .collect();
    fens.sort();
    fens.dedup();
    fens
}

/// The start position, then every table FEN, for `kind`.
pub fn start_fens(kind: VariantKind) -> Vec<String> {
    let mut v = vec![kind.start_fen().to_string()];
    v.extend(
        table_fens(kind)
            .into_iter()
            .filter(|f| f != kind.start_fen()),
    );
    v
}

/// One row of the public perft table.
pub struct Row {
    /// Its line in the file (the header is line 1).
    pub line: usize,
    pub variant: VariantKind,
    pub fen: String,
    pub depth: u32,
    /// The expected count.
    pub nodes: u64,
}

/// Every row of the public perft table.
pub fn public_rows() -> Vec<Row> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../data/perft/perft_public.csv"
    );
    let mut reader = csv::Reader::from_path(path).expect("reference table is in the repository");
    reader
        .records()
        .enumerate()
        .map(|(i, rec)| {
            let rec = rec.expect("well-formed CSV");
            Row {
                line: i + 2,
                variant: rec[0].parse().expect("known variant"),
                fen: rec[1].to_string(),
                depth: rec[2].parse().expect("depth"),
                nodes: rec[3].parse().expect("nodes"),
            }
        })
        .collect()
}

/// The rows of at most a million nodes: quick, and most of the table.
pub fn small_public_rows() -> Vec<Row> {
    let rows: Vec<Row> = public_rows()
        .into_iter()
        .filter(|r| r.nodes <= 1_000_000)
        .collect();
    assert!(rows.len() > 1000);
    rows
}

/// Perft of every row of `rows` (in parallel); fails listing the mismatches.
pub fn check_public_rows(rows: &[Row]) {
    let failures: Vec<String> = rows
        .par_iter()
        .filter_map(|row| {
            let got = dispatch!(row.variant, V => {
                match Position::<V>::from_fen(&row.fen) {
                    Ok(pos) => perft(&pos, row.depth),
                    Err(e) => return Some(format!("line {}: {} {}: {e}", row.line, row.variant, row.fen)),
                }
            });
            (got != row.nodes).then(|| {
                format!(
                    "line {}: {} \"{}\" depth {}: got {got}, expected {}",
                    row.line, row.variant, row.fen, row.depth, row.nodes
                )
            })
        })
        .collect();
    assert!(
        failures.is_empty(),
        "{} mismatches:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
