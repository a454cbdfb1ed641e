//! Helpers shared by the integration tests: the positions of the public
//! perft table, for use as start positions of random playouts.

#![allow(dead_code)]

use movegen::VariantKind;

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
