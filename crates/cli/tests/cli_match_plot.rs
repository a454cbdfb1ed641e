//! `varia match --plot` and `varia match-merge --plot`: the SVG of each
//! pairing's Elo with its interval (and with --sprt the LLR against its
//! bounds) over the games in game order. In-process engines at tiny node
//! limits; the plot's last labels must be the summary's numbers, a resumed
//! match must plot all its games, and the merge of two shards must draw the
//! very plot of the unsharded match.

use std::path::Path;

mod common;
use common::*;

/// `varia match` of chess between `a` and a stronger `b` at tiny nodes.
fn match_args<'a>(games: &'a str, rest: &[&'a str]) -> Vec<&'a str> {
    chess_match_args("name=b,nodes=400", "nodes=150", games, "3", rest)
}

/// The `Elo E +/- X` of the summary's pairing line.
fn summary_elo(text: &str) -> String {
    let line = text
        .lines()
        .find(|l| l.contains(" vs "))
        .unwrap_or_else(|| panic!("no pairing line in {text}"));
    let from = line.find("Elo ").expect("Elo in the pairing line");
    let to = line[from..].find(", LOS").expect("LOS after Elo") + from;
    line[from..to].to_string()
}

/// The SVG at `p`, checked to be one well-formed-looking document: one
/// `<svg>` element closed at the end, one element per line, every `<text>`
/// closed.
fn read_svg(p: &Path) -> String {
    let svg = std::fs::read_to_string(p).expect("plot written");
    assert!(
        svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""),
        "{svg}"
    );
    assert!(svg.ends_with("</svg>\n"), "{svg}");
    assert_eq!(svg.matches("<svg").count(), 1);
    assert_eq!(svg.matches("<text").count(), svg.matches("</text>").count());
    for line in svg.lines() {
        assert!(line.starts_with('<') && line.ends_with('>'), "{line}");
    }
    svg
}

#[test]
fn the_plot_ends_at_the_summary() {
    let dir = tempfile::tempdir().expect("temp dir");
    let plot = dir.path().join("elo.svg");
    let text = ok_stdout(&varia(&match_args("24", &["--plot", path(&plot)])));
    let svg = read_svg(&plot);
    let elo = summary_elo(&text);
    assert!(
        svg.contains(&format!(">{elo}</text>")),
        "{elo} not in\n{svg}"
    );
    assert!(svg.contains(">a vs b</text>"), "{svg}");
    assert!(
        svg.contains(">games played (in game order): 24</text>"),
        "{svg}"
    );
    // The Elo, its two interval lines and the zero line; no SPRT panel.
    assert_eq!(svg.matches("<polyline").count(), 4, "{svg}");
    assert!(!svg.contains("LLR"), "{svg}");
    // One point per game on the Elo line.
    let elo_line = svg
        .lines()
        .find(|l| l.starts_with("<polyline") && !l.contains("dasharray"))
        .expect("the Elo line");
    assert_eq!(elo_line.matches(',').count(), 24, "{elo_line}");
}

#[test]
fn with_sprt_the_plot_has_the_llr_and_its_bounds() {
    let dir = tempfile::tempdir().expect("temp dir");
    let eval = dir.path().join("noqueen.toml");
    std::fs::write(&eval, "[material]\nqueen = 0\n").expect("write eval file");
    let plot = dir.path().join("sprt.svg");
    let weak = format!("name=noqueen,eval={}", path(&eval));
    let text = ok_stdout(&varia(&[
        "match",
        "--variant",
        "chess",
        "--engine",
        "name=full",
        "--engine",
        &weak,
        "--each",
        "nodes=300",
        "--games",
        "2000",
        "--concurrency",
        "2",
        "--quiet",
        "--sprt",
        "elo0=0",
        "elo1=20",
        "--plot",
        path(&plot),
    ]));
    assert!(text.contains("H1 accepted"), "{text}");
    let sprt_line = text.lines().find(|l| l.starts_with("SPRT")).expect("SPRT");
    let from = sprt_line.find("LLR ").expect("LLR");
    let to = sprt_line[from..].find("):").expect("bounds") + from + 1;
    let llr = &sprt_line[from..to];
    let svg = read_svg(&plot);
    assert!(
        svg.contains(&format!(">{llr}</text>")),
        "{llr} not in\n{svg}"
    );
    assert!(svg.contains(">H1 accepted at 2.94</text>"), "{svg}");
    assert!(svg.contains(">H0 accepted at -2.94</text>"), "{svg}");
    assert!(
        svg.contains(&format!(">{}</text>", summary_elo(&text))),
        "{svg}"
    );
    // Elo panel: 4 lines; SPRT panel: the LLR and the two bounds.
    assert_eq!(svg.matches("<polyline").count(), 7, "{svg}");
}

#[test]
fn a_resumed_match_plots_every_game() {
    let dir = tempfile::tempdir().expect("temp dir");
    let out = dir.path().join("games.csv");
    let plot = dir.path().join("elo.svg");
    let first = ok_stdout(&varia(&match_args("12", &["--out", path(&out)])));
    let again = ok_stdout(&varia(&match_args(
        "12",
        &["--out", path(&out), "--resume", "--plot", path(&plot)],
    )));
    assert_eq!(summary_elo(&first), summary_elo(&again));
    let svg = read_svg(&plot);
    assert!(
        svg.contains(">games played (in game order): 12</text>"),
        "{svg}"
    );
    assert!(
        svg.contains(&format!(">{}</text>", summary_elo(&first))),
        "{svg}"
    );
}

#[test]
fn merged_shards_plot_like_the_whole_match() {
    let dir = tempfile::tempdir().expect("temp dir");
    let whole = dir.path().join("whole.svg");
    ok_stdout(&varia(&match_args("16", &["--plot", path(&whole)])));
    let mut parts = Vec::new();
    for shard in ["1/2", "2/2"] {
        let out = dir.path().join(format!("part{}.csv", &shard[..1]));
        ok_stdout(&varia(&match_args(
            "16",
            &["--shard", shard, "--out", path(&out)],
        )));
        parts.push(out);
    }
    let merged = dir.path().join("merged.svg");
    let text = ok_stdout(&varia(&[
        "match-merge",
        path(&parts[0]),
        path(&parts[1]),
        "--plot",
        path(&merged),
    ]));
    let svg = read_svg(&merged);
    assert!(
        svg.contains(">chess: 16 games from 2 file(s)</text>"),
        "{svg}"
    );
    assert!(
        svg.contains(&format!(">{}</text>", summary_elo(&text))),
        "{svg}"
    );
    // Only the title differs from the unsharded match's plot.
    let body = |s: &str| -> Vec<String> {
        s.lines()
            .filter(|l| !l.contains(r#"font-size="16""#))
            .map(str::to_string)
            .collect()
    };
    assert_eq!(body(&svg), body(&read_svg(&whole)));
}

#[test]
fn an_unwritable_plot_fails_before_the_match_and_devices_are_written_through() {
    let dir = tempfile::tempdir().expect("temp dir");
    let bad = dir.path().join("no-such-dir").join("elo.svg");
    let o = varia(&match_args("2", &["--plot", path(&bad)]));
    assert!(!o.status.success());
    let err = stderr(&o);
    assert!(err.contains("cannot write output file"), "{err}");
    assert!(err.contains("elo.svg"), "{err}");
    assert!(
        stdout(&o).is_empty(),
        "no games were played: {}",
        stdout(&o)
    );
    // A device is written through, not replaced by a rename.
    ok_stdout(&varia(&match_args("2", &["--plot", "/dev/null"])));
    use std::os::unix::fs::FileTypeExt as _;
    let meta = std::fs::metadata("/dev/null").expect("/dev/null");
    assert!(meta.file_type().is_char_device());
}
