//! Per-game CSVs kept gzip-compressed (as the repository keeps the games of
//! its SPRT tests, `data/sprt/games/*.csv.gz`): `varia match-merge` reads
//! them, in today's layout (the sidecar `FILE.meta` left beside `FILE.gz`
//! by `gzip FILE`) and in the older one (identity on top), and its summary,
//! merged games and plot are the plain file's; a truncated stream is one
//! line of error; a resume of a compressed file is refused with one line,
//! leaving it as it was.

use std::path::{Path, PathBuf};

mod common;
use common::*;

/// `varia match` of chess between `a` and a stronger `b` at tiny nodes,
/// writing its games to `out`.
fn play(out: &Path, resume: bool) -> std::process::Output {
    let mut rest = vec!["--out", path(out)];
    if resume {
        rest.push("--resume");
    }
    varia(&chess_match_args(
        "name=b,nodes=300",
        "nodes=120",
        "8",
        "5",
        &rest,
    ))
}

fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    std::io::Write::write_all(&mut enc, bytes).expect("compress");
    enc.finish().expect("compress")
}

/// What `varia match-merge FILE --summary --out --plot` gives, with the
/// outputs in `dir`: its stdout (the file's name replaced by `FILE`), the
/// summary, the merged CSV and its sidecar, and the plot.
fn merge(file: &Path, dir: &Path) -> Vec<String> {
    std::fs::create_dir_all(dir).expect("output dir");
    let (summary, out, plot) = (
        dir.join("summary.csv"),
        dir.join("merged.csv"),
        dir.join("plot.svg"),
    );
    let text = ok_stdout(&varia(&[
        "match-merge",
        path(file),
        "--summary",
        path(&summary),
        "--out",
        path(&out),
        "--plot",
        path(&plot),
    ]));
    let read = |p: PathBuf| std::fs::read_to_string(&p).expect("merge output");
    vec![
        text.replace(path(file), "FILE"),
        read(summary),
        read(out.clone()),
        read(PathBuf::from(format!("{}.meta", out.display()))),
        read(plot),
    ]
}

#[test]
fn compressed_games_merge_summarise_and_plot_as_the_plain_file() {
    let dir = tempfile::tempdir().expect("temp dir");
    let plain = dir.path().join("games.csv");
    ok_stdout(&play(&plain, false));
    let want = merge(&plain, &dir.path().join("plain"));
    assert!(want[0].contains("8 games from 1 file(s)"), "{}", want[0]);

    // Today's layout: `gzip games.csv` leaves games.csv.meta beside it.
    let gz_dir = dir.path().join("gz");
    std::fs::create_dir(&gz_dir).expect("dir");
    let gz = gz_dir.join("games.csv.gz");
    std::fs::write(&gz, gzip(&std::fs::read(&plain).expect("csv"))).expect("write");
    std::fs::copy(
        format!("{}.meta", plain.display()),
        gz_dir.join("games.csv.meta"),
    )
    .expect("sidecar");
    assert_eq!(merge(&gz, &gz_dir.join("out")), want);
    // ... or games.csv.gz.meta.
    std::fs::rename(
        gz_dir.join("games.csv.meta"),
        gz_dir.join("games.csv.gz.meta"),
    )
    .expect("rename");
    assert_eq!(merge(&gz, &gz_dir.join("out2")), want);

    // The older layout (identity on top), as data/sprt/games keeps it, needs
    // no sidecar; the content decides, not the name.
    let legacy = dir.path().join("legacy.csv.gz");
    std::fs::write(&legacy, gzip(legacy_text(&plain).as_bytes())).expect("write");
    assert_eq!(merge(&legacy, &dir.path().join("legacy")), want);
    let renamed = dir.path().join("renamed.csv");
    std::fs::copy(&legacy, &renamed).expect("copy");
    assert_eq!(merge(&renamed, &dir.path().join("renamed")), want);

    // A sidecar missing: the error names both places it is looked for.
    std::fs::remove_file(gz_dir.join("games.csv.gz.meta")).expect("remove");
    assert_one_line_error(
        &varia(&["match-merge", path(&gz)]),
        &["games.csv.gz.meta", "games.csv.meta", "is missing"],
    );
}

#[test]
fn a_truncated_gzip_is_one_line_of_error() {
    let dir = tempfile::tempdir().expect("temp dir");
    let plain = dir.path().join("games.csv");
    ok_stdout(&play(&plain, false));
    let whole = gzip(legacy_text(&plain).as_bytes());
    let cut = dir.path().join("cut.csv.gz");
    for len in [whole.len() / 2, whole.len() - 3, 10] {
        std::fs::write(&cut, &whole[..len]).expect("write");
        assert_one_line_error(
            &varia(&["match-merge", path(&cut)]),
            &[path(&cut), "truncated or corrupt gzip data"],
        );
    }
}

#[test]
fn a_compressed_file_is_not_resumed_or_written() {
    let dir = tempfile::tempdir().expect("temp dir");
    let plain = dir.path().join("games.csv");
    ok_stdout(&play(&plain, false));
    let gz = dir.path().join("games.csv.gz");
    let bytes = gzip(legacy_text(&plain).as_bytes());
    std::fs::write(&gz, &bytes).expect("write");
    let e = assert_one_line_error(&play(&gz, true), &[path(&gz), "is gzip", "gunzip -k"]);
    assert!(e.contains("writes and resumes only plain"), "{e}");
    // Gzip content under a plain name is refused the same way.
    let renamed = dir.path().join("renamed.csv");
    std::fs::write(&renamed, &bytes).expect("write");
    assert_one_line_error(&play(&renamed, true), &[path(&renamed), "is gzip"]);
    // Left as they were, and no lock file beside them.
    assert_eq!(std::fs::read(&gz).expect("gz"), bytes);
    assert_eq!(std::fs::read(&renamed).expect("renamed"), bytes);
    assert!(!dir.path().join("games.csv.gz.lock").exists());
    // A new output named .gz would be plain text under a gzip name.
    let new = dir.path().join("new.csv.gz");
    assert_one_line_error(&play(&new, false), &[path(&new), "is gzip"]);
    assert!(!new.exists());
    let merged = dir.path().join("merged.csv.gz");
    assert_one_line_error(
        &varia(&["match-merge", path(&plain), "--out", path(&merged)]),
        &[path(&merged), "is gzip"],
    );
}
