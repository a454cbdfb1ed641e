#!/usr/bin/env bash
# Checks the cluster scripts on this machine, end to end, with real daemons:
#
#   scripts/slurm_local.sh [VARIA_BIN]
#
# 1. Slurm: starts munged, slurmctld and slurmd (Debian's munge and slurm-wlm)
#    as a one-node cluster whose configuration, key, sockets, state and logs
#    all live in a temporary directory (nothing system-wide is read or
#    written: SLURM_CONF and AuthInfo=socket=... point at the temporary ones),
#    then submits scripts/perft_slurm.sh, scripts/match_slurm.sh and
#    scripts/datagen_slurm.sh with `sbatch --array=1-N` as docs/perft.md,
#    docs/match.md and docs/datagen.md show, merges the parts with `varia
#    perft-merge` / `varia match-merge` (datagen: the parts' records) and
#    compares them with single unsharded runs (the same node counts; the
#    same games, game for game, at fixed nodes; the same positions).
# 2. ssh: starts sshd on 127.0.0.1 on a free port with a temporary host key
#    and user key, and runs scripts/perft_parallel.sh through GNU parallel
#    with an sshlogin that holds options (SSHLOGIN="1/ssh -p PORT -i KEY ...
#    root@127.0.0.1,1/:", the form that once broke the joblog parsing),
#    comparing the merge with a single run.
#
# Prints one "PASS <check>" or "FAIL <check>" line per check and exits 1 if
# any failed. A part whose tools are missing (sbatch, slurmctld, slurmd,
# munged; sshd, ssh, ssh-keygen, GNU parallel) prints "skipped: <what is
# missing>" and does not count as a failure; scripts/setup_cluster_tools.sh
# installs them. Every daemon started here is stopped and the temporary
# directory removed on exit, also after a failure or Ctrl-C.
#
# Environment:
#   VARIA_BIN     the varia binary (default: target/release/varia of this
#                 checkout; the first argument wins)
#   KEEP_TMP      if set, keep the temporary directory (logs) and print it
#   SLURM_TIMEOUT seconds to wait for the node, for each job array and for
#                 the ssh run (60)
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
VARIA_BIN=${1:-${VARIA_BIN:-$here/target/release/varia}}
SLURM_TIMEOUT=${SLURM_TIMEOUT:-60}
case $VARIA_BIN in /*) ;; *) VARIA_BIN=$PWD/$VARIA_BIN ;; esac
if [ ! -x "$VARIA_BIN" ]; then
    echo "error: no varia binary at $VARIA_BIN (make build, or give its path)" >&2
    exit 2
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/varia-cluster.XXXXXX")
chmod 700 "$tmp"
# Daemons started here, stopped in this order's reverse. Each runs in a
# session of its own (setsid), so that Ctrl-C reaches only this script and
# the commands it waits for; cleanup then cancels the jobs before it stops
# the daemons in order.
pids=()
made_run_sshd=   # /run/sshd created here (sshd's privilege separation dir)
ctld_pid=        # our slurmctld, once started
running=         # the command bounded() is waiting for
failures=0

cleanup() {
    local status=$?
    trap - EXIT INT TERM
    # Jobs still queued or running go first, while our controller is up.
    if [ -n "$ctld_pid" ] && kill -0 "$ctld_pid" 2>/dev/null; then
        timeout 5 scancel --quiet --user "$(id -un)" >/dev/null 2>&1 || true
        local n=0
        while [ -n "$(timeout 2 squeue -h 2>/dev/null)" ] && [ $n -lt 25 ]; do
            sleep 0.2
            n=$((n + 1))
        done
    fi
    [ -n "$running" ] && kill "$running" 2>/dev/null
    local i
    for ((i = ${#pids[@]} - 1; i >= 0; i--)); do
        kill "${pids[i]}" 2>/dev/null || true
    done
    for ((i = ${#pids[@]} - 1; i >= 0; i--)); do
        # Give each daemon up to 5 s, then kill it.
        local n=0
        while kill -0 "${pids[i]}" 2>/dev/null && [ $n -lt 50 ]; do
            sleep 0.1
            n=$((n + 1))
        done
        kill -9 "${pids[i]}" 2>/dev/null || true
        wait "${pids[i]}" 2>/dev/null || true
    done
    # A job step whose slurmd is gone lingers; ours carry our SLURM_CONF.
    if [ -n "${SLURM_CONF:-}" ]; then
        local p
        for p in $(pgrep -x slurmstepd 2>/dev/null); do
            if tr '\0' '\n' <"/proc/$p/environ" 2>/dev/null | grep -qxF "SLURM_CONF=$SLURM_CONF"; then
                kill -9 "$p" 2>/dev/null || true
            fi
        done
    fi
    [ -n "$made_run_sshd" ] && rmdir /run/sshd 2>/dev/null
    if [ -n "${KEEP_TMP:-}" ]; then
        echo "kept $tmp" >&2
    else
        rm -rf "$tmp"
    fi
    exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

pass() { echo "PASS $*"; }
fail() {
    echo "FAIL $*"
    failures=$((failures + 1))
}

# The first of the commands named that is missing, or nothing.
missing() {
    local c
    for c in "$@"; do
        command -v "$c" >/dev/null || { echo "$c"; return; }
    done
}

# A TCP port on 127.0.0.1 that nothing listens on.
free_port() {
    local p n
    for n in $(seq 1 100); do
        p=$((20000 + (RANDOM * 32768 + RANDOM) % 40000))
        if ! (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; then
            echo "$p"
            return
        fi
    done
    echo "error: no free port found" >&2
    return 1
}

# Waits up to $1 seconds for the command after it to succeed.
wait_for() {
    local limit=$1 n=0
    shift
    until "$@" >/dev/null 2>&1; do
        n=$((n + 1))
        [ $n -ge $((limit * 5)) ] && return 1
        sleep 0.2
    done
}

# Runs the command after $1 with a limit of $1 seconds (then it is killed)
# and returns its status. It runs in the background while this shell waits
# in short sleeps: a command that handles Ctrl-C itself and exits normally
# (timeout, GNU parallel) would make bash skip the INT trap if it ran in the
# foreground, and the script would carry on.
bounded() {
    local limit=$1 n=0 status=0
    shift
    "$@" &
    running=$!
    while kill -0 "$running" 2>/dev/null; do
        [ $n -ge $((limit * 5)) ] && kill "$running" 2>/dev/null
        sleep 0.2
        n=$((n + 1))
    done
    wait "$running" || status=$?
    running=
    return "$status"
}

# `sbatch ARGS...` of a job array, then waits (up to SLURM_TIMEOUT seconds)
# until none of its tasks is queued or running and succeeds if every task
# completed with exit code 0. It polls squeue itself: `sbatch --wait` sleeps
# up to half a minute between its checks. The variables exported to sbatch
# reach the tasks (sbatch's default --export=ALL).
run_array() {
    local out id n=0 bad
    out=$(sbatch --parsable "$@") || return 1
    id=${out%%;*}
    echo "Submitted batch job $id"
    while [ -n "$(squeue -h -j "$id" 2>/dev/null)" ]; do
        if [ $n -ge $((SLURM_TIMEOUT * 5)) ]; then
            echo "job $id not done after $SLURM_TIMEOUT s"
            scancel "$id"
            return 1
        fi
        sleep 0.2
        n=$((n + 1))
    done
    # One line per array task; each must be COMPLETED with ExitCode=0:0.
    bad=$(scontrol -o show job "$id" | grep -v 'JobState=COMPLETED .* ExitCode=0:0' || true)
    if [ -n "$bad" ]; then
        echo "$bad" | grep -o 'JobId=[0-9]* ArrayJobId=[0-9]* ArrayTaskId=[0-9]*\|JobState=[A-Z_]*\|ExitCode=[0-9:]*' | tr '\n' ' '
        return 1
    fi
}

# The depth-N row of a perft CSV without its timing columns.
perft_total() { tail -1 "$1" | cut -d, -f1-4; }

# The games of a per-game match CSV without the timing column and checksum.
match_games() { grep -v '^#' "$1" | tail -n +2 | cut -d, -f1-10,12; }

# The records of packed datagen files (headers skipped), one hex line each, sorted.
packed_records() {
    local f
    for f in "$@"; do tail -c +33 "$f" | od -An -v -tx1 -w32; done | sort
}

# The pairing lines of `varia match` / `varia match-merge` output.
pairing_lines() { grep ' vs ' "$1"; }

# Debian puts the daemons in /usr/sbin, which a user's PATH may lack.
PATH=$PATH:/usr/sbin:/sbin

# ---------------------------------------------------------------- Slurm ----
slurm_part() {
    local gone
    gone=$(missing sbatch squeue sinfo scancel slurmctld slurmd munged)
    if [ -n "$gone" ]; then
        echo "skipped: Slurm checks ($gone is not installed; scripts/setup_cluster_tools.sh installs it)"
        return
    fi
    if [ "$(id -u)" != 0 ]; then
        echo "skipped: Slurm checks (slurmd must run as root to start jobs)"
        return
    fi
    local s=$tmp/slurm
    mkdir -p "$s/state" "$s/spool" "$s/log" "$s/munge" "$s/work"
    chmod 700 "$s/munge"

    # munge: its own key, socket, pid, seed and log, nothing under /etc or /run.
    dd if=/dev/urandom of="$s/munge/munge.key" bs=1024 count=1 status=none
    chmod 400 "$s/munge/munge.key"
    local socket=$s/munge/munge.socket
    setsid munged --foreground --force --key-file="$s/munge/munge.key" --socket="$socket" \
        --pid-file="$s/munge/munged.pid" --seed-file="$s/munge/munged.seed" \
        --log-file="$s/log/munged.log" >/dev/null 2>&1 &
    pids+=($!)
    if ! wait_for 10 test -S "$socket"; then
        fail "slurm: munged did not start (KEEP_TMP=1 keeps its log)"
        return
    fi

    local cpus mem ctld_port slurmd_port
    cpus=$(nproc)
    mem=$(awk '/^MemTotal:/ { print int($2 / 1024) }' /proc/meminfo)
    ctld_port=$(free_port)
    slurmd_port=$(free_port)
    while [ "$slurmd_port" = "$ctld_port" ]; do slurmd_port=$(free_port); done
    export SLURM_CONF=$s/slurm.conf
    cat >"$SLURM_CONF" <<EOF
ClusterName=varia-local
SlurmctldHost=localhost
SlurmUser=root
SlurmdUser=root
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$socket
StateSaveLocation=$s/state
SlurmdSpoolDir=$s/spool
SlurmctldPidFile=$s/slurmctld.pid
SlurmdPidFile=$s/slurmd.pid
SlurmctldLogFile=$s/log/slurmctld.log
SlurmdLogFile=$s/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
MpiDefault=none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
SchedulerType=sched/backfill
ReturnToService=2
MinJobAge=600
MailProg=/bin/true
NodeName=localhost CPUs=$cpus RealMemory=$mem State=UNKNOWN
PartitionName=debug Nodes=localhost Default=YES MaxTime=INFINITE State=UP
EOF
    setsid slurmctld -D -i -f "$SLURM_CONF" >"$s/log/slurmctld.out" 2>&1 &
    ctld_pid=$!
    pids+=("$ctld_pid")
    setsid slurmd -D -N localhost -f "$SLURM_CONF" >"$s/log/slurmd.out" 2>&1 &
    pids+=($!)
    node_idle() { sinfo -h -N -o '%T' | grep -qx 'idle'; }
    if ! wait_for "$SLURM_TIMEOUT" node_idle; then
        fail "slurm: the node did not come up idle (KEEP_TMP=1 keeps the logs)"
        return
    fi
    echo "slurm: one node, $cpus CPUs, ${mem}M, controller on port $ctld_port"

    # Tasks ask for 2 CPUs by default (the scripts' #SBATCH lines); on a
    # one-core node ask for one, through sbatch's own options (E1).
    local size=()
    [ "$cpus" -lt 2 ] && size=(--cpus-per-task=1)

    # Perft: atomic perft(4) split at ply 2 in 4 shards (docs/perft.md).
    cd "$s/work"
    local perft_log=$s/work/perft-sbatch.txt
    if VARIA=$VARIA_BIN OUT_DIR=perft-parts \
        run_array --array=1-4 "${size[@]}" "$here/scripts/perft_slurm.sh" atomic 4 2 4 \
        >"$perft_log" 2>&1 &&
        "$VARIA_BIN" perft-merge perft-parts/part-*.csv --format csv --quiet >perft-merged.csv &&
        "$VARIA_BIN" perft --variant atomic --depth 4 --format csv --quiet >perft-single.csv &&
        [ "$(perft_total perft-merged.csv)" = "$(perft_total perft-single.csv)" ]; then
        pass "slurm perft: sbatch --array=1-4 scripts/perft_slurm.sh atomic 4 2 4, merged $(perft_total perft-merged.csv | cut -d, -f3-4 | tr , =) as a single run"
    else
        fail "slurm perft (sbatch: $(tr '\n' ' ' <"$perft_log"); KEEP_TMP=1 keeps the logs)"
    fi

    # Match: 12 games in 3 shards, each task asking for 1 CPU and 512M on
    # sbatch's command line (E1: the #SBATCH defaults are overridden).
    local match=(--variant atomic --engine name=a,nodes=300 --engine name=b
        --each nodes=200 --games 12 --seed 1)
    local match_log=$s/work/match-sbatch.txt
    if VARIA=$VARIA_BIN OUT_DIR=match-parts \
        run_array --array=1-3 --cpus-per-task=1 --mem=512M \
        "$here/scripts/match_slurm.sh" 3 "${match[@]}" >"$match_log" 2>&1 &&
        "$VARIA_BIN" match-merge match-parts/part-*.csv --games 12 --summary match-summary.csv \
            --out match-merged.csv >match-merged.txt &&
        "$VARIA_BIN" match "${match[@]}" --concurrency 1 --quiet --out match-single.csv \
            >match-single.txt &&
        [ "$(pairing_lines match-merged.txt)" = "$(pairing_lines match-single.txt)" ] &&
        [ "$(match_games match-merged.csv)" = "$(match_games match-single.csv)" ]; then
        pass "slurm match: sbatch --array=1-3 scripts/match_slurm.sh 3 ..., merged the same 12 games as a single run: $(pairing_lines match-merged.txt)"
    else
        fail "slurm match (sbatch: $(tr '\n' ' ' <"$match_log"); KEEP_TMP=1 keeps the logs)"
    fi

    # Datagen: 6 chess games in 3 shards of packed positions; together the
    # parts hold the records of a single run.
    local datagen=(--variant chess --format bin --nodes 200 --games 6 --max-plies 160 --seed 1)
    local datagen_log=$s/work/datagen-sbatch.txt
    if VARIA=$VARIA_BIN OUT_DIR=datagen-parts \
        run_array --array=1-3 "${size[@]}" "$here/scripts/datagen_slurm.sh" 3 "${datagen[@]}" \
        >"$datagen_log" 2>&1 &&
        "$VARIA_BIN" datagen "${datagen[@]}" --threads 1 --quiet --out datagen-single.bin \
            >datagen-single.txt &&
        [ -n "$(packed_records datagen-single.bin)" ] &&
        [ "$(packed_records datagen-parts/part-*.bin)" = "$(packed_records datagen-single.bin)" ]; then
        pass "slurm datagen: sbatch --array=1-3 scripts/datagen_slurm.sh 3 ..., the parts hold the $(packed_records datagen-single.bin | wc -l) positions of a single run"
    else
        fail "slurm datagen (sbatch: $(tr '\n' ' ' <"$datagen_log"); KEEP_TMP=1 keeps the logs)"
    fi
    cd "$here"
}

# ------------------------------------------------------------------ ssh ----
ssh_part() {
    local gone
    gone=$(missing sshd ssh ssh-keygen parallel)
    if [ -z "$gone" ] && ! parallel --version 2>/dev/null | grep -q 'GNU parallel'; then
        gone="GNU parallel"
    fi
    if [ -n "$gone" ]; then
        echo "skipped: ssh check ($gone is not installed; scripts/setup_cluster_tools.sh installs it)"
        return
    fi
    local d=$tmp/ssh user port
    mkdir -p "$d/work"
    user=$(id -un)
    port=$(free_port)
    ssh-keygen -q -t ed25519 -N '' -f "$d/host_key"
    ssh-keygen -q -t ed25519 -N '' -f "$d/user_key"
    cp "$d/user_key.pub" "$d/authorized_keys"
    cat >"$d/sshd_config" <<EOF
ListenAddress 127.0.0.1
Port $port
HostKey $d/host_key
PidFile $d/sshd.pid
AuthorizedKeysFile $d/authorized_keys
StrictModes no
PermitRootLogin prohibit-password
PasswordAuthentication no
KbdInteractiveAuthentication no
UsePAM no
X11Forwarding no
PrintMotd no
EOF
    if [ ! -d /run/sshd ] && [ "$(id -u)" = 0 ]; then
        mkdir -p /run/sshd
        made_run_sshd=1
    fi
    setsid "$(command -v sshd)" -D -e -f "$d/sshd_config" >"$d/sshd.log" 2>&1 &
    pids+=($!)
    local ssh_cmd="ssh -p $port -i $d/user_key -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null -o BatchMode=yes -o LogLevel=ERROR"
    # shellcheck disable=SC2086
    if ! wait_for 10 $ssh_cmd "$user@127.0.0.1" true; then
        fail "ssh: cannot log in to sshd on 127.0.0.1:$port (KEEP_TMP=1 keeps its log)"
        return
    fi
    echo "ssh: sshd on 127.0.0.1:$port"
    cd "$d/work"
    # Both shards over ssh first in the list, then this machine (":"), one
    # job each: shards go to both; the joblog's Host column holds spaces.
    if bounded "$SLURM_TIMEOUT" env SSHLOGIN="1/$ssh_cmd $user@127.0.0.1,1/:" \
        VARIA="$VARIA_BIN" OUT_DIR=parts THREADS=1 HASH=16M \
        "$here/scripts/perft_parallel.sh" atomic 4 2 4 \
        >merged.csv 2>parallel.err &&
        "$VARIA_BIN" perft --variant atomic --depth 4 --format csv --quiet >single.csv &&
        [ "$(perft_total merged.csv)" = "$(perft_total single.csv)" ] &&
        awk -F '\t' 'NR > 1 && $2 ~ /^ssh -p/ { ssh = 1 } END { exit !ssh }' parts/joblog; then
        pass "ssh perft: SSHLOGIN=\"1/ssh -p $port -i KEY ... $user@127.0.0.1,1/:\" scripts/perft_parallel.sh atomic 4 2 4, merged $(perft_total merged.csv | cut -d, -f3-4 | tr , =) as a single run"
    else
        fail "ssh perft ($(tr '\n' ' ' <parallel.err); joblog: $(tr '\t\n' ' ;' <parts/joblog 2>/dev/null))"
    fi
    cd "$here"
}

slurm_part
ssh_part
if [ "$failures" -gt 0 ]; then
    echo "$failures check(s) failed"
    exit 1
fi
