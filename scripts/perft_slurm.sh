#!/usr/bin/env bash
# Split perft as a Slurm job array: one array task per shard.
#
#   sbatch --array=1-N scripts/perft_slurm.sh VARIANT DEPTH SPLIT N [extra `varia perft` args...]
#
# Array task I runs `varia perft --variant VARIANT --depth DEPTH
# --split-depth SPLIT --shard I/N` and writes $OUT_DIR/part-I.csv (whole or
# not at all). Finished subtrees are also recorded in $OUT_DIR/ckpt-I.csv,
# so a task that is preempted, requeued or killed at its time limit resumes
# where it stopped when run again (sbatch --array=I ... with the same
# arguments). N is given explicitly (not taken from the array) so that single
# shards can be rerun with --array=I. When every task is done, merge:
#
#   varia perft-merge $OUT_DIR/part-*.csv --format csv > result.csv
#
# or let Slurm do it after the array (JOBID from the first sbatch):
#
#   sbatch --dependency=afterok:JOBID --wrap "varia perft-merge out/part-*.csv --format csv > result.csv"
#
# Environment (exported to the job by sbatch):
#   VARIA    the varia binary (default: target/release/varia of this checkout)
#   OUT_DIR  where parts and checkpoints go (default: perft-parts; a shared
#            file system)
#   FEN      the position (default: the variant's start position)
#   HASH     --hash SIZE per task (default: half the task's memory,
#            SLURM_MEM_PER_NODE, else 512M; keep below --mem)
#
# CPUs and memory: each task asks for 2 CPUs and 2G by default (the #SBATCH
# lines below), which fits small nodes. Ask for more on sbatch's command line,
# which overrides #SBATCH lines; the task then runs --threads
# $SLURM_CPUS_PER_TASK and a table of half its memory:
#   sbatch --array=1-4 --cpus-per-task=16 --mem=32G scripts/perft_slurm.sh atomic 7 2 4
#
# Example: chess perft(10) in 256 shards of the 8902 subtrees at ply 3:
#   sbatch --array=1-256 scripts/perft_slurm.sh chess 10 3 256
#
#SBATCH --job-name=varia-perft
#SBATCH --cpus-per-task=2
#SBATCH --mem=2G
#SBATCH --time=24:00:00
#SBATCH --requeue
#SBATCH --open-mode=append
#SBATCH --output=perft-%A_%a.log
set -euo pipefail

if [ $# -lt 4 ]; then
    sed -n '2,/^set -euo/p' "$0" | grep -v '^#SBATCH\|^set -euo' | sed 's/^# \{0,1\}//' >&2
    exit 2
fi
VARIANT=$1 DEPTH=$2 SPLIT=$3 SHARDS=$4
shift 4
I=${SLURM_ARRAY_TASK_ID:?run this as a job array: sbatch --array=1-$SHARDS $0 ...}

# sbatch runs a copy of this script; SLURM_SUBMIT_DIR is where it was submitted.
here=${SLURM_SUBMIT_DIR:-$(cd "$(dirname "$0")/.." && pwd)}
VARIA=${VARIA:-$here/target/release/varia}
OUT_DIR=${OUT_DIR:-perft-parts}
# SLURM_MEM_PER_NODE is the task's --mem in MB (unset with --mem-per-cpu).
if [ -z "${HASH+set}" ]; then
    if [ -n "${SLURM_MEM_PER_NODE:-}" ]; then
        HASH="$((SLURM_MEM_PER_NODE / 2))M"
    else
        HASH=512M
    fi
fi
mkdir -p "$OUT_DIR"

args=(perft --variant "$VARIANT" --depth "$DEPTH" --split-depth "$SPLIT"
    --shard "$I/$SHARDS" --threads "${SLURM_CPUS_PER_TASK:-1}" --quiet
    --checkpoint "$OUT_DIR/ckpt-$I.csv" --out "$OUT_DIR/part-$I.csv")
[ -n "${FEN:-}" ] && args+=(--fen "$FEN")
[ -n "$HASH" ] && args+=(--hash "$HASH")

echo "shard $I/$SHARDS on $(hostname): $VARIA ${args[*]} $*"
exec "$VARIA" "${args[@]}" "$@"
