#!/usr/bin/env bash
# varia against the Debian engines, every variant each of them plays, with
# varia itself driven over UCI or CECP (`varia uci` / `varia xboard`, both
# protocols in every variant), through `varia match`.
#
#   scripts/gauntlet.sh [OUT_DIR]          (default: gauntlet)
#
# Each pairing is its own match: GAMES games (openings of data/openings,
# each played twice with colours swapped) at TC, concurrency 1, written to
# OUT_DIR/<variant>-<opponent>.csv/.pgn/.summary.csv. QUEUES pairings run at
# once (each is one game at a time, one engine thinking at a time: about one
# core each). Every pairing resumes from its CSV, so after an interruption
# run the same command again. At the end OUT_DIR/table.md tabulates the
# summaries (W/D/L from varia's side). Atomic, which no packaged engine plays, is varia over UCI
# against varia over CECP; check its PGN with scripts/check_pgn_pyffish.py.
#
# Environment: VARIA (default target/release/varia), GAMES (100), TC (2+0.02),
# QUEUES (2), ENGINES (/usr/games), ONLY (a regex: pairings to play), HASH
# (MB per engine, 16), FAIRY_STOCKFISH (the fairy-stockfish binary, default
# $ENGINES/fairy-stockfish), PAIRINGS (the list below, one pairing a line).
# Install the Debian engines with scripts/setup_engines.sh.
#
# The issue-11/12 gauntlet against a current Fairy-Stockfish (all six games,
# both engines over UCI, one thread, 64 MB, 5+0.05, 200 games a game), and
# the same for another varia build (e.g. an older commit's) into its own
# directory so the two can be compared:
#
#   FAIRY_STOCKFISH=PATH HASH=64 TC=5+0.05 GAMES=200 PAIRINGS="$(scripts/gauntlet.sh --fsf-pairings)" \
#       scripts/gauntlet.sh data/gauntlet/fsf-5s
#   VARIA=target/sprt/a675658/varia FAIRY_STOCKFISH=PATH ... scripts/gauntlet.sh data/gauntlet/fsf-5s-a675658
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
FSF_PAIRINGS="chess fairy-stockfish uci uci
giveaway fairy-stockfish uci uci
3check fairy-stockfish uci uci
atomic fairy-stockfish uci uci
losers fairy-stockfish uci uci
knightmate fairy-stockfish uci uci"
if [ "${1:-}" = --fsf-pairings ]; then
    echo "$FSF_PAIRINGS"
    exit 0
fi
VARIA=${VARIA:-$ROOT/target/release/varia}
OUT=${1:-gauntlet}
GAMES=${GAMES:-100}
TC=${TC:-2+0.02}
QUEUES=${QUEUES:-2}
ENGINES=${ENGINES:-/usr/games}
ONLY=${ONLY:-.}
HASH=${HASH:-16}
FAIRY_STOCKFISH=${FAIRY_STOCKFISH:-$ENGINES/fairy-stockfish}
mkdir -p "$OUT"

# variant opponent opponent-protocol varia-protocol
DEBIAN_PAIRINGS="chess fairymax xboard xboard
knightmate fairymax xboard uci
chess sjeng xboard uci
giveaway sjeng xboard xboard
losers sjeng xboard uci
chess sjaakii xboard xboard
knightmate sjaakii xboard xboard
3check sjaakii xboard xboard
chess fairy-stockfish uci uci
knightmate fairy-stockfish uci uci
giveaway fairy-stockfish uci uci
losers fairy-stockfish uci xboard
3check fairy-stockfish uci uci
atomic varia-xboard xboard uci"
PAIRINGS=${PAIRINGS:-$DEBIAN_PAIRINGS}

play() {
    local variant=$1 opp=$2 oproto=$3 vproto=$4
    local base="$OUT/$variant-$opp"
    local oppcmd="$ENGINES/$opp" oppname=$opp
    if [ "$opp" = varia-xboard ]; then oppcmd=$VARIA; fi
    if [ "$opp" = fairy-stockfish ]; then oppcmd=$FAIRY_STOCKFISH; fi
    local oppargs=()
    case $opp in
        varia-*) oppargs=(args=xboard "option.Hash=$HASH") ;;
        fairy-stockfish) oppargs=("option.Hash=$HASH" option.Threads=1) ;;
        *) oppargs=("option.Hash=$HASH") ;;
    esac
    local vname=varia-$vproto
    local resume=()
    [ -s "$base.csv" ] && resume=(--resume)
    "$VARIA" match --variant "$variant" \
        --engine "name=$vname" "cmd=$VARIA" "args=$vproto" "proto=$vproto" "option.Hash=$HASH" \
        --engine "name=$oppname" "cmd=$oppcmd" "proto=$oproto" "${oppargs[@]}" \
        --each "tc=$TC" --games "$GAMES" --concurrency 1 --seed 1 \
        --out "$base.csv" --pgn "$base.pgn" --summary "$base.summary.csv" \
        "${resume[@]}" --quiet > "$base.log" 2>&1 || echo "$variant vs $opp: exit $?" >&2
    echo "$(date +%T) done $variant vs $opp: $(grep -m1 ' games, ' "$base.log" || tail -1 "$base.log")"
}
export -f play
export VARIA OUT GAMES TC ENGINES HASH FAIRY_STOCKFISH

echo "$PAIRINGS" | grep -E -- "$ONLY" | \
    xargs -P "$QUEUES" -L 1 bash -c 'play "$@"' _

{
    echo "| variant | varia over | opponent | games | W | D | L | score | Elo [95% interval] |"
    echo "| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | --- |"
    for f in "$OUT"/*.summary.csv; do
        tail -n +2 "$f" | awk -F, '{ split($2, p, "-");
            printf "| %s | %s | %s | %d | %d | %d | %d | %.1f%% | %+.0f [%+.0f, %+.0f] |\n",
                $1, p[2], $3, $4, $5, $6, $7, 100 * $8, $9, $10, $11 }'
    done
} > "$OUT/table.md"
cat "$OUT/table.md"
