//! Every row of the public reference perft table (`data/perft/perft_public.csv`,
//! an independent implementation's counts for all six games) must match.

use movegen::{dispatch, perft, Position, VariantKind};
use rayon::prelude::*;

struct Row {
    line: usize,
    variant: VariantKind,
    fen: String,
    depth: u32,
    nodes: u64,
}

fn rows() -> Vec<Row> {
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

fn check(rows: &[Row]) {
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

/// Rows up to a million nodes: quick, and most of the table.
#[test]
fn public_perft_small_rows() {
    let rows: Vec<Row> = rows()
        .into_iter()
        .filter(|r| r.nodes <= 1_000_000)
        .collect();
    assert!(rows.len() > 1000);
    check(&rows);
}

/// The deep rows (the bulk of the 757M nodes).
#[test]
fn public_perft_deep_rows() {
    let rows: Vec<Row> = rows().into_iter().filter(|r| r.nodes > 1_000_000).collect();
    check(&rows);
}

#[test]
fn table_has_every_row() {
    assert_eq!(rows().len(), 1285);
}
