#!/usr/bin/env bash
# A big `varia match` split into shards run by GNU parallel, on this machine
# or on several hosts over ssh.
#
#   scripts/match_parallel.sh SHARDS [varia match args...]
#
# Runs `varia match ARGS --shard I/SHARDS --resume --out $OUT_DIR/part-I.csv`
# for I = 1..SHARDS through GNU parallel, then combines the parts with
# `varia match-merge` (summary on stdout, and in $OUT_DIR/summary.csv). Each
# shard continues from its CSV if it has one, so after a failure or an
# interruption just run the same command again: finished games are not
# replayed. With ssh hosts, OUT_DIR must be on a file system every host sees
# at the same path.
#
# Environment:
#   VARIA        the varia binary, at the same path on every host
#                (default: target/release/varia of this checkout)
#   OUT_DIR      where the part files go (default: match-parts)
#   SSHLOGIN     GNU parallel --sshlogin list, e.g. "1/host1,1/host2,1/:"
#                (N/host = N shards at once on host; ":" is this machine).
#                Default: this machine only, no ssh.
#   JOBS         shards at once per host (default 1: each shard uses every core)
#   CONCURRENCY  --concurrency of each shard (default: all cores of its host)
#   PGN          if set (to anything), also write $OUT_DIR/part-I.pgn
#
# Examples:
#   scripts/match_parallel.sh 4 --variant atomic --engine name=a \
#       --engine name=b,eval=atomic-tuned.toml --each nodes=1000 --games 20000
#   SSHLOGIN="1/alpha,1/beta,1/:" VARIA=/opt/varia/bin/varia OUT_DIR=/shared/m1 \
#       scripts/match_parallel.sh 30 --variant chess --engine name=a \
#       --engine name=b --each tc=10+0.1 --games 30000
set -euo pipefail

if [ $# -lt 2 ]; then
    sed -n '2,/^set -euo/p' "$0" | sed 's/^# \{0,1\}//' | grep -v '^set -euo' >&2
    exit 2
fi
SHARDS=$1
shift

here=$(cd "$(dirname "$0")/.." && pwd)
VARIA=${VARIA:-$here/target/release/varia}
OUT_DIR=${OUT_DIR:-match-parts}
JOBS=${JOBS:-1}

command -v parallel >/dev/null || { echo "error: GNU parallel is not installed" >&2; exit 2; }
[ -x "$VARIA" ] || { echo "error: no varia binary at $VARIA (make build, or set VARIA)" >&2; exit 2; }
mkdir -p "$OUT_DIR"
OUT_DIR=$(cd "$OUT_DIR" && pwd)

args=(match "$@" --quiet --resume)
[ -n "${CONCURRENCY:-}" ] && args+=(--concurrency "$CONCURRENCY")
extra=()
[ -n "${PGN:-}" ] && extra=(--pgn "$OUT_DIR/part-{}.pgn")

remote=()
[ -n "${SSHLOGIN:-}" ] && remote=(--sshlogin "$SSHLOGIN")
# -q quotes the command (settings may hold spaces); each job's output goes to
# $OUT_DIR/part-I.log.
status=0
parallel --will-cite -q --jobs "$JOBS" "${remote[@]}" --joblog "$OUT_DIR/joblog" \
    --results "$OUT_DIR/part-{}.log" \
    "$VARIA" "${args[@]}" --shard "{}/$SHARDS" --out "$OUT_DIR/part-{}.csv" "${extra[@]}" \
    ::: $(seq 1 "$SHARDS") >/dev/null || status=$?
if [ "$status" -ne 0 ]; then
    echo "error: some shards failed (see $OUT_DIR/part-*.log.err); run again to finish them" >&2
    exit 1
fi

parts=()
for i in $(seq 1 "$SHARDS"); do parts+=("$OUT_DIR/part-$i.csv"); done
"$VARIA" match-merge "${parts[@]}" --summary "$OUT_DIR/summary.csv"
