//! Every row of the public reference perft table (`data/perft/perft_public.csv`,
//! an independent implementation's counts for all six games) must match.

mod common;
use common::{check_public_rows, public_rows, small_public_rows, Row};

/// Rows up to a million nodes: quick, and most of the table.
#[test]
fn public_perft_small_rows() {
    check_public_rows(&small_public_rows());
}

/// The deep rows (the bulk of the 757M nodes).
#[test]
fn public_perft_deep_rows() {
    let rows: Vec<Row> = public_rows()
        .into_iter()
        .filter(|r| r.nodes > 1_000_000)
        .collect();
    check_public_rows(&rows);
}

#[test]
fn table_has_every_row() {
    assert_eq!(public_rows().len(), 1285);
}
