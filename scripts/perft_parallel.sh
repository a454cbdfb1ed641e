#!/usr/bin/env bash
# Split perft with GNU parallel, on this machine or on several hosts over ssh.
#
#   scripts/perft_parallel.sh VARIANT DEPTH SPLIT SHARDS [extra `varia perft` args...]
#
# Runs `varia perft --variant VARIANT --depth DEPTH --split-depth SPLIT
# --shard I/SHARDS` for I = 1..SHARDS through GNU parallel, keeps each shard's
# part file (stdout of the job) as $OUT_DIR/part-I.csv, then merges them with
# `varia perft-merge` (the merged CSV on stdout; per-shard stderr in
# $OUT_DIR/part-I.csv.err). Shards that already have a complete part file are
# not run again, so after a failure just run the same command again.
#
# Environment:
#   VARIA     the varia binary, at the same path on every host
#             (default: target/release/varia of this checkout)
#   OUT_DIR   where part files go (default: perft-parts)
#   SSHLOGIN  GNU parallel --sshlogin list, e.g. "1/host1,1/host2,1/:"
#             (N/host = N jobs at once on host; ":" is this machine).
#             Default: this machine only, no ssh.
#   JOBS      shards at once per host (default 1: each shard uses every core)
#   THREADS   --threads of each shard (default: all cores of its host)
#   FEN       the position (default: the variant's start position)
#   HASH      --hash SIZE of each shard (default 1G; empty for none)
#   MERGE_FORMAT  format of the merged result (default csv)
#
# Examples:
#   scripts/perft_parallel.sh chess 7 2 8
#   SSHLOGIN="1/alpha,1/beta,1/:" VARIA=/opt/varia/bin/varia \
#       scripts/perft_parallel.sh atomic 8 3 64 --stats
set -euo pipefail

if [ $# -lt 4 ]; then
    sed -n '2,/^set -euo/p' "$0" | sed 's/^# \{0,1\}//' | grep -v '^set -euo' >&2
    exit 2
fi
VARIANT=$1 DEPTH=$2 SPLIT=$3 SHARDS=$4
shift 4

here=$(cd "$(dirname "$0")/.." && pwd)
VARIA=${VARIA:-$here/target/release/varia}
OUT_DIR=${OUT_DIR:-perft-parts}
JOBS=${JOBS:-1}
HASH=${HASH-1G}
MERGE_FORMAT=${MERGE_FORMAT:-csv}

command -v parallel >/dev/null || { echo "error: GNU parallel is not installed" >&2; exit 2; }
[ -x "$VARIA" ] || { echo "error: no varia binary at $VARIA (make build, or set VARIA)" >&2; exit 2; }
mkdir -p "$OUT_DIR"

args=(perft --variant "$VARIANT" --depth "$DEPTH" --split-depth "$SPLIT" --quiet)
[ -n "${FEN:-}" ] && args+=(--fen "$FEN")
[ -n "$HASH" ] && args+=(--hash "$HASH")
[ -n "${THREADS:-}" ] && args+=(--threads "$THREADS")
args+=("$@")

# Shards without a complete part file (a part is written whole or not at
# all; see `varia perft --out`), so a rerun only does what is missing.
todo=()
for i in $(seq 1 "$SHARDS"); do
    f="$OUT_DIR/part-$i.csv"
    if [ -s "$f" ] && head -1 "$f" | grep -q '^# varia perft part'; then
        continue
    fi
    todo+=("$i")
done

# Whether the joblog records a failed run of shard $1. The joblog is tab
# separated (Seq Host Starttime JobRuntime Send Receive Exitval Signal
# Command), and the Host column may hold spaces ("ssh -p 2222 host"): split
# on tabs only, and find the shard by the last word of the command.
shard_failed() {
    awk -F '\t' -v shard="$1/$SHARDS" '
        NR > 1 { n = split($9, word, " "); if (word[n] == shard && $7 != 0) bad = 1 }
        END { exit !bad }' "$OUT_DIR/joblog"
}

if [ ${#todo[@]} -gt 0 ]; then
    remote=()
    [ -n "${SSHLOGIN:-}" ] && remote=(--sshlogin "$SSHLOGIN")
    # -q quotes the command (the FEN has spaces). --results NAME keeps each
    # job's stdout in the local file NAME (stderr in NAME.err), also for jobs
    # run over ssh; NAME must not end in .csv (that asks parallel for a CSV
    # summary), so finished parts are renamed to part-I.csv afterwards.
    status=0
    parallel --will-cite -q --jobs "$JOBS" "${remote[@]}" \
        --results "$OUT_DIR/part-{}.out" --joblog "$OUT_DIR/joblog" \
        "$VARIA" "${args[@]}" --shard "{}/$SHARDS" ::: "${todo[@]}" >/dev/null || status=$?
    for i in "${todo[@]}"; do
        f="$OUT_DIR/part-$i.out"
        if [ -s "$f" ] && head -1 "$f" | grep -q '^# varia perft part' &&
            ! shard_failed "$i"; then
            mv "$f" "$OUT_DIR/part-$i.csv"
        fi
    done
    if [ "$status" -ne 0 ]; then
        echo "error: some shards failed (see $OUT_DIR/part-*.out.err); run again to retry them" >&2
        exit 1
    fi
fi

parts=()
for i in $(seq 1 "$SHARDS"); do parts+=("$OUT_DIR/part-$i.csv"); done
"$VARIA" perft-merge --format "$MERGE_FORMAT" --quiet "${parts[@]}"
