//! `varia bench` as the search's signature: its node counts at the depth of
//! `data/bench.txt` must be exactly the ones recorded there.

use std::collections::BTreeMap;
use std::io::Write as _;
use std::path::PathBuf;
use std::process::{Command, Stdio};

mod common;
use common::spawn_varia;

fn signature_file() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../data/bench.txt")
}

/// `depth`, the per-game counts and the total recorded in data/bench.txt.
fn expected() -> (u32, BTreeMap<String, u64>, u64) {
    let path = signature_file();
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let (mut depth, mut total) = (None, None);
    let mut per_game = BTreeMap::new();
    for line in text.lines().map(str::trim) {
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (key, value) = line
            .split_once(' ')
            .unwrap_or_else(|| panic!("bad line in data/bench.txt: {line:?}"));
        let value = value.trim();
        match key {
            "depth" => depth = Some(value.parse().expect("depth is a number")),
            "total" => total = Some(value.parse().expect("total is a number")),
            game => {
                per_game.insert(game.to_string(), value.parse().expect("nodes are a number"));
            }
        }
    }
    (
        depth.expect("data/bench.txt has a depth line"),
        per_game,
        total.expect("data/bench.txt has a total line"),
    )
}

#[test]
fn bench_node_counts_match_the_recorded_signature() {
    let (depth, want, want_total) = expected();
    assert_eq!(want.len(), 6, "one line per game in data/bench.txt");
    assert_eq!(
        want.values().sum::<u64>(),
        want_total,
        "data/bench.txt total"
    );
    let out = Command::new(env!("CARGO_BIN_EXE_varia"))
        .args(["bench", "--depth", &depth.to_string()])
        .output()
        .expect("varia runs");
    assert!(out.status.success(), "{out:?}");
    let text = String::from_utf8(out.stdout).expect("UTF-8");
    let mut got = BTreeMap::new();
    let mut positions = 0;
    for line in text.lines() {
        let words: Vec<&str> = line.split_whitespace().collect();
        if words.get(1) == Some(&"total") {
            let nodes: u64 = words[3].parse().expect("nodes");
            got.insert(words[0].to_string(), nodes);
        } else if words.get(2) == Some(&"depth") {
            positions += 1;
        }
    }
    assert!(positions >= 36, "6+ positions per game:\n{text}");
    let last = text.lines().last().unwrap_or_default();
    let total: u64 = last
        .strip_suffix(" nps")
        .and_then(|l| l.split(" nodes ").next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("last line is not `N nodes M nps`: {last:?}"));
    if got != want || total != want_total {
        let mut diff = String::new();
        for (game, &w) in &want {
            let g = got.get(game).copied().unwrap_or(0);
            diff.push_str(&format!(
                "  {game:<10} expected {w:>10}  got {g:>10}{}\n",
                if g == w { "" } else { "  <--" }
            ));
        }
        diff.push_str(&format!(
            "  total      expected {want_total:>10}  got {total:>10}\n"
        ));
        panic!(
            "the bench signature changed (varia bench --depth {depth}):\n{diff}\
             If the search or evaluation change is intended, run `make bench-signature` \
             and commit the new data/bench.txt in the same commit as the change."
        );
    }
}

#[test]
fn bench_rejects_bad_arguments() {
    for args in [
        &["bench", "--depth", "0"][..],
        &["bench", "--variant", "crazyhouse"],
        &["bench", "--threads", "0"],
        &["bench", "--hash", "0"],
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_varia"))
            .args(args)
            .output()
            .expect("varia runs");
        assert_eq!(out.status.code(), Some(2), "{args:?}: {out:?}");
    }
}

#[test]
fn uci_bench_prints_the_same_signature_as_varia_bench() {
    let bench = Command::new(env!("CARGO_BIN_EXE_varia"))
        .args(["bench", "--signature", "--depth", "3"])
        .output()
        .expect("varia runs");
    assert!(bench.status.success(), "{bench:?}");
    let mut uci = spawn_varia(&["uci"], Stdio::piped(), Stdio::piped(), Stdio::inherit());
    uci.stdin
        .take()
        .expect("stdin")
        .write_all(b"bench 3\nquit\n")
        .expect("write to varia uci");
    let out = uci.wait_with_output().expect("varia uci ends");
    assert!(out.status.success(), "{out:?}");
    let want = String::from_utf8(bench.stdout).expect("UTF-8");
    assert!(want.contains("\ndepth 3\n"), "{want}");
    assert_eq!(String::from_utf8(out.stdout).expect("UTF-8"), want);
}

/// `varia bench`'s line before the total names the instructions chosen at
/// run time, and the environment turns them off: with `VARIA_NO_PEXT=1` and
/// `VARIA_NO_AVX2=1` the slider lookup is the magic one and the vector code
/// the baseline's, and the search, with the classical evaluation and with a
/// net, visits exactly the same nodes as with the CPU's choices.
#[test]
fn bench_names_the_cpu_choices_and_the_environment_turns_them_off() {
    use search::nnue::{Activation, FloatNetwork};
    let dir = tempfile::tempdir().unwrap();
    let net = dir.path().join("atomic.nnue");
    FloatNetwork::init(movegen::VariantKind::Atomic, 32, Activation::SCReLU, 5)
        .quantise()
        .save(&net)
        .expect("net saved");
    let run = |eval: &str, off: bool| -> (String, String) {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_varia"));
        cmd.args([
            "bench",
            "--variant",
            "atomic",
            "--depth",
            "5",
            "--eval",
            eval,
        ]);
        for var in ["VARIA_NO_PEXT", "VARIA_NO_AVX2"] {
            if off {
                cmd.env(var, "1");
            } else {
                cmd.env_remove(var);
            }
        }
        let out = cmd.output().expect("varia runs");
        assert!(out.status.success(), "{out:?}");
        let text = String::from_utf8(out.stdout).expect("UTF-8");
        let lines: Vec<&str> = text.lines().collect();
        assert!(lines.len() >= 3, "{text}");
        let cpu = lines[lines.len() - 2].to_string();
        assert!(
            cpu.starts_with("cpu ") && cpu.contains("slider lookup: ") && !cpu.contains('\t'),
            "{text}"
        );
        let nodes = lines[lines.len() - 1]
            .split(' ')
            .next()
            .unwrap()
            .to_string();
        (cpu, nodes)
    };
    for eval in ["classical", net.to_str().unwrap()] {
        let (cpu, nodes) = run(eval, false);
        let (cpu_off, nodes_off) = run(eval, true);
        assert!(
            cpu_off.contains("slider lookup: magic (") && cpu_off.contains("vector code: sse ("),
            "{cpu_off}"
        );
        if movegen::cpu::has_bmi2() {
            assert!(cpu_off.contains("(VARIA_NO_PEXT is set)"), "{cpu_off}");
        }
        if movegen::cpu::has_avx2() {
            assert!(cpu.contains("vector code: avx2 (AVX2)"), "{cpu}");
            assert!(cpu_off.contains("(VARIA_NO_AVX2 is set)"), "{cpu_off}");
        }
        assert_eq!(nodes, nodes_off, "{eval}: {cpu} / {cpu_off}");
    }
}
