//! Detailed perft counts equal the published chess tables
//! (`data/perft/perft_chess_stats.csv`: start position depth 1-5, Kiwipete
//! depth 1-4), column by column.

use movegen::{perft_stats, variants::Chess, Position};

#[test]
fn published_chess_tables() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../data/perft/perft_chess_stats.csv"
    );
    let mut reader = csv::Reader::from_path(path).expect("table is in the repository");
    let mut rows = 0;
    for rec in reader.records() {
        let rec = rec.expect("well-formed CSV");
        let pos = Position::<Chess>::from_fen(&rec[1]).expect("valid FEN");
        let depth: u32 = rec[2].parse().unwrap();
        let want: Vec<u64> = (3..12).map(|i| rec[i].parse().unwrap()).collect();
        let s = perft_stats(&pos, depth);
        let got = vec![
            s.nodes,
            s.captures,
            s.en_passant,
            s.castles,
            s.promotions,
            s.checks,
            s.discovered_checks,
            s.double_checks,
            s.checkmates,
        ];
        assert_eq!(got, want, "{} depth {depth}", &rec[0]);
        rows += 1;
    }
    assert_eq!(rows, 9);
}
