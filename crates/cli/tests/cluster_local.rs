//! The cluster scripts against real daemons: `scripts/slurm_local.sh` starts
//! a one-node Slurm (munged, slurmctld, slurmd) and an sshd on 127.0.0.1,
//! all in a temporary directory, runs `scripts/perft_slurm.sh`,
//! `scripts/match_slurm.sh` and `scripts/datagen_slurm.sh` through `sbatch --array` and
//! `scripts/perft_parallel.sh` through an sshlogin with options, and
//! compares every merge with a single run. This test runs it with the test
//! profile's binary and checks each part's verdict: PASS lines where the
//! tools are installed (`scripts/setup_cluster_tools.sh`), a "skipped:" line
//! where they are not. The script stops every daemon it started; if it
//! hangs, the test stops it (SIGTERM to its process group runs its
//! cleanup) instead of waiting.

use std::os::unix::process::CommandExt as _;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Whether every one of `commands` is on PATH (or in /usr/sbin, /sbin,
/// where Debian puts the daemons).
fn installed(commands: &[&str]) -> bool {
    commands.iter().all(|c| {
        Command::new("sh")
            .arg("-c")
            .arg(format!("PATH=$PATH:/usr/sbin:/sbin command -v {c}"))
            .stdout(Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
    })
}

fn is_root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).trim() == "0")
}

fn gnu_parallel() -> bool {
    Command::new("parallel")
        .arg("--version")
        .output()
        .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).contains("GNU parallel"))
}

#[test]
fn cluster_scripts_under_local_slurm_and_sshd() {
    let slurm = installed(&["sbatch", "squeue", "sinfo", "slurmctld", "slurmd", "munged"]);
    let slurm = slurm && is_root();
    let ssh = installed(&["sshd", "ssh", "ssh-keygen"]) && gnu_parallel();
    if !slurm && !ssh {
        eprintln!(
            "skipped: Slurm (sbatch, slurmctld, slurmd, munged, as root) and sshd + GNU parallel \
             are not installed (scripts/setup_cluster_tools.sh)"
        );
        return;
    }
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../scripts/slurm_local.sh");
    // Output to a file, not a pipe: nothing reads it while the script runs.
    let logs = tempfile::tempdir().expect("temp dir");
    let out_path = logs.path().join("slurm_local.txt");
    let out_file = std::fs::File::create(&out_path).expect("output file");
    // In a process group of its own, so a timeout can stop it and whatever
    // it waits for at once.
    let mut child = Command::new("bash")
        .process_group(0)
        .arg(&script)
        .arg(env!("CARGO_BIN_EXE_varia"))
        .env_remove("KEEP_TMP")
        .stdout(Stdio::from(out_file.try_clone().expect("stdout file")))
        .stderr(Stdio::from(out_file))
        .spawn()
        .expect("bash runs");
    let deadline = Instant::now() + Duration::from_secs(240);
    while child.try_wait().expect("wait").is_none() {
        if Instant::now() > deadline {
            // SIGTERM to the group: the script's trap stops its daemons
            // (they run in sessions of their own) and removes its files.
            let _ = Command::new("kill")
                .args(["-TERM", "--", &format!("-{}", child.id())])
                .status();
            let _ = child.wait();
            panic!("scripts/slurm_local.sh took over 240 s");
        }
        std::thread::sleep(Duration::from_millis(200));
    }
    let status = child.wait().expect("status");
    let stdout = std::fs::read_to_string(&out_path).expect("script output");
    eprintln!("{stdout}");
    assert!(status.success(), "slurm_local.sh failed:\n{stdout}");
    assert!(!stdout.contains("FAIL"), "{stdout}");
    let has = |prefix: &str| stdout.lines().any(|l| l.starts_with(prefix));
    if slurm {
        assert!(has("PASS slurm perft:"), "{stdout}");
        assert!(has("PASS slurm match:"), "{stdout}");
        assert!(has("PASS slurm datagen:"), "{stdout}");
    } else {
        assert!(has("skipped: Slurm checks"), "{stdout}");
    }
    if ssh {
        assert!(has("PASS ssh perft:"), "{stdout}");
    } else {
        assert!(has("skipped: ssh check"), "{stdout}");
    }
}
