#!/usr/bin/env bash
# Training data from self-play (`varia datagen`) as a Slurm job array: one
# array task per shard.
#
#   sbatch --array=1-N scripts/datagen_slurm.sh N [varia datagen args...]
#
# Array task I runs `varia datagen ARGS --shard I/N --threads
# $SLURM_CPUS_PER_TASK --quiet --out $OUT_DIR/part-I.EXT` (EXT from
# --format: bin, txt or csv). Shard I plays the games g of 1..--games with
# (g - 1) mod N = I - 1, each game a function of the seed and its number, so
# the shards together hold exactly the positions of the unsharded run, and
# each part is the same bytes at any number of CPUs. A task that is
# preempted, requeued or killed at its time limit continues from its part
# when run again with the same arguments (sbatch --array=I ...): the games
# already written are kept (bin and text keep their progress in
# part-I.EXT.progress), a record cut short is cut off. N is given explicitly
# (not taken from the array) so that single shards can be rerun with
# --array=I. docs/datagen.md describes the formats and how to join parts.
#
# Environment (exported to the job by sbatch):
#   VARIA    the varia binary (default: target/release/varia of this checkout)
#   OUT_DIR  where the parts go (default: nnue-data/parts; a shared file
#            system, outside git: /nnue-data/ is ignored)
#
# CPUs and memory: each task asks for 2 CPUs and 1G by default (the #SBATCH
# lines below); two 8 MB tables per game thread. Ask for more on sbatch's
# command line, which overrides #SBATCH lines; the task then plays
# $SLURM_CPUS_PER_TASK games at once:
#   sbatch --array=1-50 --cpus-per-task=16 --mem=2G scripts/datagen_slurm.sh 50 ...
#
# Example: 10 million chess games' worth of positions at 5,000 nodes per move
# in 100 shards:
#   sbatch --array=1-100 scripts/datagen_slurm.sh 100 --variant chess \
#       --format bin --nodes 5000 --games 10000000 --seed 1
#
#SBATCH --job-name=varia-datagen
#SBATCH --cpus-per-task=2
#SBATCH --mem=1G
#SBATCH --time=24:00:00
#SBATCH --requeue
#SBATCH --open-mode=append
#SBATCH --output=datagen-%A_%a.log
set -euo pipefail

if [ $# -lt 2 ]; then
    sed -n '2,/^set -euo/p' "$0" | grep -v '^#SBATCH\|^set -euo' | sed 's/^# \{0,1\}//' >&2
    exit 2
fi
SHARDS=$1
shift
I=${SLURM_ARRAY_TASK_ID:?run this as a job array: sbatch --array=1-$SHARDS $0 ...}

# The part's extension from --format (varia refuses a bad one itself).
ext=csv
prev=
for a in "$@"; do
    case $prev in --format) ext=$a ;; esac
    case $a in --format=*) ext=${a#--format=} ;; esac
    prev=$a
done
case $ext in text | txt) ext=txt ;; bin | binary) ext=bin ;; esac

# sbatch runs a copy of this script; SLURM_SUBMIT_DIR is where it was submitted.
here=${SLURM_SUBMIT_DIR:-$(cd "$(dirname "$0")/.." && pwd)}
VARIA=${VARIA:-$here/target/release/varia}
OUT_DIR=${OUT_DIR:-nnue-data/parts}
mkdir -p "$OUT_DIR"

args=(datagen "$@" --shard "$I/$SHARDS" --threads "${SLURM_CPUS_PER_TASK:-1}"
    --quiet --out "$OUT_DIR/part-$I.$ext")

echo "shard $I/$SHARDS on $(hostname): $VARIA ${args[*]}"
exec "$VARIA" "${args[@]}"
