#!/usr/bin/env bash
# A big `varia match` as a Slurm job array: one array task per shard.
#
#   sbatch --array=1-N scripts/match_slurm.sh N [varia match args...]
#
# Array task I runs `varia match ARGS --shard I/N --out $OUT_DIR/part-I.csv
# --resume` with one game per CPU of the task (--concurrency
# $SLURM_CPUS_PER_TASK). The schedule depends only on the arguments and the
# seed, and shards take whole game pairs, so the shards together play exactly
# the games of the unsharded match. A task that is preempted, requeued or
# killed at its time limit continues from its CSV when run again (sbatch
# --array=I ... with the same arguments): finished games are not replayed.
# N is given explicitly (not taken from the array) so that single shards can
# be rerun with --array=I. When every task is done, merge:
#
#   varia match-merge $OUT_DIR/part-*.csv --summary summary.csv
#
# or let Slurm do it after the array (JOBID from the first sbatch):
#
#   sbatch --dependency=afterok:JOBID --wrap "varia match-merge out/part-*.csv --summary summary.csv"
#
# Environment (exported to the job by sbatch):
#   VARIA    the varia binary (default: target/release/varia of this checkout)
#   OUT_DIR  where the per-shard CSVs go (default: match-parts; a shared
#            file system)
#   PGN      if set (to anything), also write $OUT_DIR/part-I.pgn
#
# CPUs and memory: each task asks for 2 CPUs and 1G by default (the #SBATCH
# lines below), which fits small nodes. Ask for more on sbatch's command line,
# which overrides #SBATCH lines; the task then plays $SLURM_CPUS_PER_TASK
# games at once:
#   sbatch --array=1-50 --cpus-per-task=16 --mem=4G scripts/match_slurm.sh 50 ...
#
# Example: 100,000 suicide games at 1,000 nodes per move in 50 shards:
#   sbatch --array=1-50 scripts/match_slurm.sh 50 --variant suicide \
#       --engine name=base --engine name=tuned,eval=suicide-tuned.toml \
#       --each nodes=1000 --games 100000 --seed 1
#
#SBATCH --job-name=varia-match
#SBATCH --cpus-per-task=2
#SBATCH --mem=1G
#SBATCH --time=24:00:00
#SBATCH --requeue
#SBATCH --open-mode=append
#SBATCH --output=match-%A_%a.log
set -euo pipefail

if [ $# -lt 2 ]; then
    sed -n '2,/^set -euo/p' "$0" | grep -v '^#SBATCH\|^set -euo' | sed 's/^# \{0,1\}//' >&2
    exit 2
fi
SHARDS=$1
shift
I=${SLURM_ARRAY_TASK_ID:?run this as a job array: sbatch --array=1-$SHARDS $0 ...}

# sbatch runs a copy of this script; SLURM_SUBMIT_DIR is where it was submitted.
here=${SLURM_SUBMIT_DIR:-$(cd "$(dirname "$0")/.." && pwd)}
VARIA=${VARIA:-$here/target/release/varia}
OUT_DIR=${OUT_DIR:-match-parts}
mkdir -p "$OUT_DIR"

args=(match "$@" --shard "$I/$SHARDS" --concurrency "${SLURM_CPUS_PER_TASK:-1}"
    --quiet --resume --out "$OUT_DIR/part-$I.csv")
[ -n "${PGN:-}" ] && args+=(--pgn "$OUT_DIR/part-$I.pgn")

echo "shard $I/$SHARDS on $(hostname): $VARIA ${args[*]}"
exec "$VARIA" "${args[@]}"
