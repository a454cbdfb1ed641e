//! UCI's `SearchFile` option: it is announced, a file of search settings
//! changes the search, an empty value restores the defaults, and a bad file
//! is answered with one `info string error` line naming what is wrong.

mod protocol_session;

use protocol_session::Session;

/// Nodes of the last `info` line of a `go depth 6` from the start position.
fn nodes_of_depth_6(s: &mut Session) -> u64 {
    s.send("ucinewgame");
    s.send("position startpos");
    s.send("go depth 6");
    let lines = s.until("bestmove", |l| l.starts_with("bestmove"));
    let last_info = lines
        .iter()
        .rev()
        .find(|l| l.starts_with("info depth"))
        .unwrap_or_else(|| panic!("no info line in {lines:?}"));
    let words: Vec<&str> = last_info.split_whitespace().collect();
    let at = words.iter().position(|&w| w == "nodes").expect("nodes");
    words[at + 1].parse().expect("a node count")
}

#[test]
fn search_file_is_announced_loaded_and_checked() {
    let dir = tempfile::tempdir().unwrap();
    let no_null_move = dir.path().join("no-null-move.toml");
    std::fs::write(&no_null_move, "nmp_min_depth = 121\n").unwrap();
    let bad = dir.path().join("bad.toml");
    std::fs::write(&bad, "rfp_margn = 90\n").unwrap();

    let mut s = Session::uci();
    s.send("uci");
    let lines = s.until("uciok", |l| l == "uciok");
    assert!(
        lines.contains(&"option name SearchFile type string default <empty>".to_string()),
        "{lines:?}"
    );
    let base = nodes_of_depth_6(&mut s);
    s.send(&format!(
        "setoption name SearchFile value {}",
        no_null_move.display()
    ));
    let changed = nodes_of_depth_6(&mut s);
    assert_ne!(changed, base, "the settings file changes the search");

    s.send(&format!(
        "setoption name SearchFile value {}",
        bad.display()
    ));
    let err = s.expect("info string error");
    assert!(
        err.contains("SearchFile") && err.contains("\"rfp_margn\""),
        "{err}"
    );
    assert_eq!(
        nodes_of_depth_6(&mut s),
        base,
        "a bad file leaves the defaults"
    );

    s.send(&format!(
        "setoption name SearchFile value {}",
        no_null_move.display()
    ));
    s.send("setoption name SearchFile value <empty>");
    assert_eq!(
        nodes_of_depth_6(&mut s),
        base,
        "<empty> restores the defaults"
    );
    s.send("quit");
}
