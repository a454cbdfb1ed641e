#!/usr/bin/env bash
# Does varia lose on time at a fast time control? varia plays itself over
# UCI in every game, GAMES games per game (openings of `varia openings`,
# each played twice with colours swapped), at TC, through cutechess-cli and
# through `varia match`, and every game's end is counted: the script exits
# 1 when any game was lost on time, stalled or crashed, 0 otherwise.
#
#   scripts/time_forfeits.sh [OUT_DIR]          (default: timecontrol)
#
# Environment (defaults in brackets):
#   VARIA        the binary under test [target/release/varia]
#   CUTECHESS    cutechess-cli; the cutechess half is skipped (with a line
#                saying so) when it is not set
#   TC           time control of both engines [1+0.01]
#   GAMES        games per game and client, even [168: 1,008 for six games]
#   VARIANTS     games, comma-separated [all six]
#   CONCURRENCY  games at once per client [1]
#   HASH         MB per engine [16]
#   MARGIN       cutechess's timemargin, ms [0: any overstep loses]
#
# OUT_DIR gets openings-<game>.epd (FENs), cutechess-<game>.pgn and
# match-<game>.csv (the runner's CSV, resumable: run the command again after
# an interruption and it continues), and summary.csv: client, game, games,
# time losses, other abnormal ends (cutechess: stalls, disconnects, illegal
# moves; the runner: crashes and illegal moves).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
VARIA=${VARIA:-$ROOT/target/release/varia}
OUT=${1:-timecontrol}
TC=${TC:-1+0.01}
GAMES=${GAMES:-168}
VARIANTS=${VARIANTS:-chess,suicide,threecheck,atomic,losers,knightmate}
CONCURRENCY=${CONCURRENCY:-1}
HASH=${HASH:-16}
MARGIN=${MARGIN:-0}
[ -x "$VARIA" ] || { echo "time_forfeits.sh: no varia binary at $VARIA (make build, or set VARIA)" >&2; exit 2; }
[ $((GAMES % 2)) = 0 ] || { echo "time_forfeits.sh: GAMES must be even (openings are played twice)" >&2; exit 2; }
. "$ROOT/scripts/lib/cutechess.sh"
[ -z "${CUTECHESS:-}" ] || require_cutechess "$CUTECHESS" time_forfeits.sh
mkdir -p "$OUT"

echo "client,variant,games,time_losses,other_abnormal" > "$OUT/summary.csv"
status=0
IFS=, read -r -a variant_list <<< "$VARIANTS"
for v in "${variant_list[@]}"; do
    book="$OUT/openings-$v.epd"
    [ -s "$book" ] || "$VARIA" openings --variant "$v" --plies 8 --count $((GAMES / 2)) --seed 1 \
        --format fen --out "$book" >/dev/null 2>&1
    if [ -n "${CUTECHESS:-}" ]; then
        pgn="$OUT/cutechess-$v.pgn"
        rm -f "$pgn"
        "$CUTECHESS" -variant "$(cutechess_name "$v")" \
            -engine name=varia-a "cmd=$VARIA" arg=uci proto=uci \
            -engine name=varia-b "cmd=$VARIA" arg=uci proto=uci \
            -each "tc=$TC" "timemargin=$MARGIN" "option.Hash=$HASH" \
            -openings "file=$book" format=epd order=sequential \
            -games 2 -rounds $((GAMES / 2)) -repeat -concurrency "$CONCURRENCY" \
            -recover -pgnout "$pgn" > "$OUT/cutechess-$v.log" 2>&1 || true
        played=$(grep -c '^\[Result ' "$pgn" || true)
        time_losses=$(grep -c '^\[Termination "time forfeit"\]' "$pgn" || true)
        other=$(abnormal_ends "$pgn")
        echo "cutechess,$v,$played,$time_losses,$other" >> "$OUT/summary.csv"
        echo "cutechess $v: $played games, $time_losses lost on time, $other other abnormal ends" >&2
        if [ "$time_losses" != 0 ] || [ "$other" != 0 ] || [ "$played" != "$GAMES" ]; then status=1; fi
    else
        echo "cutechess $v: skipped (CUTECHESS not set)" >&2
    fi
    csv="$OUT/match-$v.csv"
    resume=()
    [ -s "$csv" ] && resume=(--resume)
    "$VARIA" match --variant "$v" \
        --engine name=varia-a "cmd=$VARIA" args=uci "option.Hash=$HASH" \
        --engine name=varia-b "cmd=$VARIA" args=uci "option.Hash=$HASH" \
        --each "tc=$TC" --openings "$book" --games "$GAMES" --concurrency "$CONCURRENCY" \
        --out "$csv" "${resume[@]}" --quiet > "$OUT/match-$v.log" 2>&1 || true
    # The runner's CSV: `#` settings lines, then the header
    # game,round,pair,variant,opening,white,black,result,termination,...
    rows() { grep -v '^#' "$csv" | tail -n +2; }
    played=$(rows | wc -l)
    time_losses=$(rows | awk -F, '$9 == "time"' | wc -l)
    other=$(rows | awk -F, '$9 == "crash" || $9 == "illegal_move"' | wc -l)
    echo "varia-match,$v,$played,$time_losses,$other" >> "$OUT/summary.csv"
    echo "varia match $v: $played games, $time_losses lost on time, $other other abnormal ends" >&2
    if [ "$time_losses" != 0 ] || [ "$other" != 0 ] || [ "$played" != "$GAMES" ]; then status=1; fi
done
column -s, -t < "$OUT/summary.csv"
exit $status
