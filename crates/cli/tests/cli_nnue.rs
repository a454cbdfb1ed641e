//! A network playing through the command line: `varia bench --eval NET`,
//! `varia analyse --eval NET`, an in-process `varia match` player with
//! `eval=NET`, and bad net files refused with one line and exit 2. The nets
//! are small random ones (`FloatNetwork::init(...).quantise()`): what is
//! tested is the wiring, not the play.

use movegen::VariantKind;
use search::nnue::{Activation, FloatNetwork, Network};
use std::path::{Path, PathBuf};

mod common;
use common::*;

/// A random net for `game` saved in `dir` as `name`.
fn net_file(dir: &Path, name: &str, game: VariantKind) -> (PathBuf, Network) {
    let net = FloatNetwork::init(game, 32, Activation::SCReLU, 11).quantise();
    let path = dir.join(name);
    net.save(&path).expect("net saved");
    (path, net)
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).expect("UTF-8")
}

#[test]
fn bench_and_analyse_play_a_net_and_say_so() {
    let dir = tempfile::tempdir().unwrap();
    let (path, net) = net_file(dir.path(), "atomic.nnue", VariantKind::Atomic);
    let p = common::path(&path);
    let out = varia(&["bench", "--variant", "atomic", "--depth", "4", "--eval", p]);
    assert!(out.status.success(), "{out:?}");
    let stdout = text(&out.stdout);
    let first = stdout.lines().next().unwrap_or_default();
    assert!(
        first.contains("evaluation: network (atomic 32x2 screlu")
            && first.contains(&format!("{:016x}", net.hash())),
        "{stdout}"
    );
    let last = stdout.lines().last().unwrap_or_default();
    assert!(last.ends_with(" nps"), "{stdout}");
    let nodes: u64 = last.split(' ').next().unwrap().parse().expect("nodes");
    assert!(nodes > 0, "{stdout}");
    // The default evaluation is the classical one, and says so.
    let out = varia(&["bench", "--variant", "atomic", "--depth", "2"]);
    assert!(
        text(&out.stdout).starts_with("atomic      evaluation: classical\n"),
        "{out:?}"
    );

    let out = varia(&[
        "analyse",
        "--variant",
        "atomic",
        "--depth",
        "4",
        "--eval",
        p,
    ]);
    assert!(out.status.success(), "{out:?}");
    assert!(text(&out.stdout).contains("bestmove"), "{out:?}");
}

#[test]
fn bad_nets_are_one_line_errors_naming_the_file_with_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    let (good, net) = net_file(dir.path(), "chess.nnue", VariantKind::Chess);
    let bytes = net.to_bytes();
    let short = dir.path().join("short.nnue");
    std::fs::write(&short, &bytes[..bytes.len() - 100]).unwrap();
    let junk = dir.path().join("junk.bin");
    std::fs::write(&junk, [0xc3u8, 0x28, 0xa0, 0xa1]).unwrap();
    let cases: [(&Path, &str, &str); 3] = [
        (&short, "chess", "truncated net file"),
        (&good, "atomic", "a net for chess, not for atomic"),
        (&junk, "chess", "neither a varia net file"),
    ];
    for (file, variant, what) in cases {
        let f = path(file);
        for args in [
            vec!["bench", "--variant", variant, "--depth", "2", "--eval", f],
            vec!["analyse", "--variant", variant, "--depth", "2", "--eval", f],
        ] {
            let out = varia(&args);
            assert_eq!(out.status.code(), Some(2), "{args:?}: {out:?}");
            let err = text(&out.stderr);
            assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
            assert!(err.contains(f) && err.contains(what), "{args:?}: {err}");
        }
    }
    // A net needs its game named.
    let out = varia(&["bench", "--eval", path(&good)]);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert!(text(&out.stderr).contains("needs --variant"), "{out:?}");
}

#[test]
fn datagen_plays_its_games_with_a_net_and_names_it_in_its_settings() {
    let dir = tempfile::tempdir().unwrap();
    let (good, net) = net_file(dir.path(), "suicide.nnue", VariantKind::Suicide);
    let out = dir.path().join("pos.csv");
    let o = varia(&datagen_args(
        "suicide",
        "100",
        &[
            "--games",
            "2",
            "--out",
            path(&out),
            "--quiet",
            "--eval",
            path(&good),
        ],
    ));
    assert!(o.status.success(), "{o:?}");
    // The run's settings and progress are beside the CSV.
    let meta = std::fs::read_to_string(dir.path().join("pos.csv.progress.meta")).unwrap();
    assert!(
        meta.contains(&format!("network {:016x}", net.hash())),
        "{meta}"
    );
    let progress = std::fs::read_to_string(dir.path().join("pos.csv.progress")).unwrap();
    let last = progress.lines().last().unwrap();
    assert!(last.starts_with("2,2,"), "two games written: {progress}");
}

/// `varia match` of two games of `variant` between the player `net_engine`
/// and the classical evaluation at 200 nodes a move, then `rest`.
fn net_match_args<'a>(variant: &'a str, net_engine: &'a str, rest: &[&'a str]) -> Vec<&'a str> {
    let mut args = vec![
        "match",
        "--variant",
        variant,
        "--engine",
        net_engine,
        "--engine",
        "name=classical,eval=classical",
        "--each",
        "nodes=200",
        "--games",
        "2",
    ];
    args.extend_from_slice(rest);
    args
}

#[test]
fn a_match_player_plays_a_net_against_the_classical_evaluation() {
    let dir = tempfile::tempdir().unwrap();
    let (good, _) = net_file(dir.path(), "losers.nnue", VariantKind::Losers);
    let csv = dir.path().join("games.csv");
    let net_engine = format!("name=net,eval={}", good.display());
    let out = varia(&net_match_args(
        "losers",
        &net_engine,
        &["--quiet", "--out", path(&csv)],
    ));
    assert!(out.status.success(), "{out:?}");
    let stdout = text(&out.stdout);
    assert!(stdout.contains("net vs classical: 2 games"), "{stdout}");
    assert_eq!(arena::results::read_games(&csv).unwrap().len(), 2);

    // A net of another game stops the match before its first game.
    let out = varia(&net_match_args("chess", &net_engine, &[]));
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    let err = text(&out.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("a net for losers, not for chess"), "{err}");
}
