#!/usr/bin/env bash
# varia against Fairy-Stockfish through cutechess-cli: the second client of
# the issue-12 gauntlet (scripts/gauntlet.sh plays the same pairings through
# `varia match`). Both engines over UCI, one thread each, HASH MB each, the
# project's opening books (data/openings, rewritten as the positions their
# lines reach by `varia openings --from`, since cutechess-cli's epd books are
# positions), each opening played twice with colours swapped, in book order.
#
#   CUTECHESS=PATH FAIRY_STOCKFISH=PATH scripts/cutechess_gauntlet.sh [OUT_DIR]
#
# Environment (defaults in brackets):
#   VARIA            the binary under test [target/release/varia]
#   CUTECHESS        cutechess-cli (1.5 needs Qt 6: scripts/setup_engines.sh)
#   FAIRY_STOCKFISH  the opponent
#   TC               time control of both engines [5+0.05]
#   GAMES            games per game, even [100]
#   VARIANTS         varia's names of the games, comma-separated [all six]
#   CONCURRENCY      games at once [2: one per core]
#   HASH             MB per engine [64]
#   MARGIN           cutechess's timemargin in ms [200]
#
# OUT_DIR (default cutechess-gauntlet) gets openings-<game>.epd, <game>.pgn,
# <game>.log (cutechess's output), <game>.summary.csv and <game>.score.txt
# (`varia pgn-score` of the PGN) and summary.csv: game, games, W/D/L from
# varia's side, score, Elo with its 95% interval (from the pairs of each
# opening, as `varia match` reports it), games lost on time by varia, other
# abnormal ends.
# A game whose PGN already holds GAMES results is not played again, so after
# an interruption the same command finishes the rest (an unfinished game's
# match is replayed whole: cutechess-cli cannot resume one).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
VARIA=${VARIA:-$ROOT/target/release/varia}
OUT=${1:-cutechess-gauntlet}
TC=${TC:-5+0.05}
GAMES=${GAMES:-100}
VARIANTS=${VARIANTS:-chess,suicide,threecheck,atomic,losers,knightmate}
CONCURRENCY=${CONCURRENCY:-2}
HASH=${HASH:-64}
MARGIN=${MARGIN:-200}
die() { echo "cutechess_gauntlet.sh: $*" >&2; exit 2; }
[ -x "$VARIA" ] || die "no varia binary at $VARIA (make build, or set VARIA)"
[ -n "${CUTECHESS:-}" ] || die "set CUTECHESS to a cutechess-cli binary"
[ -n "${FAIRY_STOCKFISH:-}" ] || die "set FAIRY_STOCKFISH to a Fairy-Stockfish binary"
. "$ROOT/scripts/lib/cutechess.sh"
require_cutechess "$CUTECHESS" cutechess_gauntlet.sh
[ -x "$FAIRY_STOCKFISH" ] || die "no Fairy-Stockfish at $FAIRY_STOCKFISH"
[ $((GAMES % 2)) = 0 ] || die "GAMES must be even (openings are played twice)"
mkdir -p "$OUT"

echo "variant,games,wins,draws,losses,score,elo,elo_low,elo_high,time_losses,other_abnormal,tc,client" > "$OUT/summary.csv"
IFS=, read -r -a variant_list <<< "$VARIANTS"
for v in "${variant_list[@]}"; do
    book="$OUT/openings-$v.epd"
    # cutechess-cli reads every line as a FEN: no comment line.
    "$VARIA" openings --variant "$v" --from "$ROOT/data/openings/$v.epd" --format fen \
        --quiet | grep -v '^#' > "$book"
    pgn="$OUT/$v.pgn"
    played=0
    [ -s "$pgn" ] && played=$(grep -c '^\[Result ' "$pgn" || true)
    if [ "$played" != "$GAMES" ]; then
        rm -f "$pgn"
        echo "$(date +%T) $v: $GAMES games" >&2
        "$CUTECHESS" -variant "$(cutechess_name "$v")" \
            -engine name=varia "cmd=$VARIA" arg=uci proto=uci \
            -engine name=fairy-stockfish "cmd=$FAIRY_STOCKFISH" proto=uci option.Threads=1 \
            -each "tc=$TC" "timemargin=$MARGIN" "option.Hash=$HASH" \
            -openings "file=$book" format=epd order=sequential \
            -games 2 -rounds $((GAMES / 2)) -repeat -concurrency "$CONCURRENCY" \
            -recover -pgnout "$pgn" > "$OUT/$v.log" 2>&1 || true
    fi
    # A book cutechess-cli rejects is a warning, after which it plays from
    # the start position: not the gauntlet asked for.
    if grep -q '^Warning' "$OUT/$v.log"; then
        die "$v: cutechess-cli warned: $(grep -m1 '^Warning' "$OUT/$v.log")"
    fi
    # The score through varia's own match statistics (which also replays
    # every move under varia's rules): W/D/L, Elo and its 95% interval from
    # the pairs of each opening (pentanomial), as `varia match` reports.
    "$VARIA" pgn-score --variant "$v" --player varia --summary "$OUT/$v.summary.csv" "$pgn" \
        > "$OUT/$v.score.txt"
    # variant,player,opponent,games,wins,draws,losses,score,elo,elo_low,elo_high,...
    IFS=, read -r _ _ _ n w d l score elo low high _ < <(sed -n 2p "$OUT/$v.summary.csv")
    time_losses=$(sed -n 's/.*losses not ended by the rules:.*time \([0-9]*\).*/\1/p' "$OUT/$v.score.txt")
    time_losses=${time_losses:-0}
    other=$(abnormal_ends "$pgn")
    echo "$v,$n,$w,$d,$l,$score,$elo,$low,$high,$time_losses,$other,$TC,cutechess-cli" >> "$OUT/summary.csv"
    echo "$(date +%T) $v: +$w =$d -$l, $time_losses lost on time by varia, $other other abnormal ends" >&2
done
column -s, -t "$OUT/summary.csv"
