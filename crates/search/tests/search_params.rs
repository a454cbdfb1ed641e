//! The search really reads its [`SearchParams`]: changing a pruning or
//! reduction constant changes the tree a fixed-depth search walks, while the
//! defaults walk the same tree as the built-in settings always did (the bench
//! signature checks that part).

use movegen::{variants::Chess, Position, Variant, VariantKind};
use search::{search, Evaluator, Limits, SearchParams, Shared};

/// Nodes of a one-thread depth-7 search of a middlegame with `settings`.
fn nodes_with(settings: &SearchParams) -> u64 {
    let pos = Position::<Chess>::from_fen(
        "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
    )
    .expect("valid FEN");
    let evaluator = Evaluator::default_for(<Chess>::KIND);
    let shared = Shared::new(8);
    let r = search(
        &pos,
        &[],
        &Limits::depth(7),
        &evaluator,
        settings,
        &shared,
        1,
        &mut |_| {},
    );
    r.nodes
}

#[test]
fn non_default_settings_change_the_tree() {
    let base = nodes_with(&SearchParams::default());
    assert_eq!(base, nodes_with(&SearchParams::default()), "deterministic");
    let no_null_move = SearchParams {
        nmp_min_depth: 121,
        ..SearchParams::default()
    };
    let other_lmr = SearchParams {
        lmr_divisor: 1.5,
        ..SearchParams::default()
    };
    let no_futility = SearchParams {
        rfp_max_depth: 0,
        ..SearchParams::default()
    };
    for (what, settings) in [
        ("no null move", no_null_move),
        ("lmr_divisor 1.5", other_lmr),
        ("no reverse futility", no_futility),
    ] {
        assert_ne!(nodes_with(&settings), base, "{what}");
    }
}

#[test]
fn settings_loaded_from_toml_are_the_ones_searched() {
    let loaded = SearchParams::from_toml(VariantKind::Chess, "lmr_divisor = 1.5\n", "inline")
        .expect("valid");
    let built = SearchParams {
        lmr_divisor: 1.5,
        ..SearchParams::default()
    };
    assert_eq!(nodes_with(&loaded), nodes_with(&built));
}

/// `data/search/default.toml` is [`SearchParams::save`] of the defaults, so
/// the shipped example documents every key with its current value.
#[test]
fn the_shipped_default_file_is_the_defaults() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../data/search/default.toml"
    );
    if std::env::var_os("VARIA_WRITE_SEARCH_DEFAULTS").is_some() {
        SearchParams::default()
            .save(std::path::Path::new(path))
            .expect("writable data/search");
    }
    let text = std::fs::read_to_string(path).expect("data/search/default.toml exists");
    assert_eq!(
        text,
        SearchParams::default().to_toml(),
        "regenerate with VARIA_WRITE_SEARCH_DEFAULTS=1 cargo test -p search --test search_params"
    );
    let loaded = SearchParams::load(VariantKind::Chess, std::path::Path::new(path)).expect("loads");
    assert_eq!(loaded, SearchParams::default());
}
