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
# <game>.log (cutechess's output) and summary.csv: game, games, W/D/L from
# varia's side, score, Elo with its 95% interval (trinomial, the interval
# `varia match` reports), games lost on time by varia, other abnormal ends.
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
"$CUTECHESS" --version >/dev/null 2>&1 || die "$CUTECHESS does not start (cutechess-cli 1.5 needs Qt 6: scripts/setup_engines.sh installs it)"
[ -x "$FAIRY_STOCKFISH" ] || die "no Fairy-Stockfish at $FAIRY_STOCKFISH"
[ $((GAMES % 2)) = 0 ] || die "GAMES must be even (openings are played twice)"
mkdir -p "$OUT"

# cutechess-cli's names of the games.
cutechess_name() {
    case $1 in
        chess) echo standard ;; suicide) echo giveaway ;; threecheck) echo 3check ;;
        *) echo "$1" ;;
    esac
}

# W D L from varia's side in a cutechess PGN.
count_results() {
    awk '/^\[White "/ { white = $2 } /^\[Result "/ { r = $2;
            v = (white == "\"varia\"]") ? 1 : 0;
            if (r == "\"1/2-1/2\"]") d++;
            else if ((r == "\"1-0\"]") == v) w++; else l++ }
         END { printf "%d %d %d\n", w, d, l }' "$1"
}

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
    read -r w d l <<< "$(count_results "$pgn")"
    time_losses=$(awk '/^\[White "/ { white = $2 } /^\[Result "/ { r = $2 }
        /^\[Termination "time forfeit"\]/ { v = (white == "\"varia\"]");
            if ((v && r == "\"0-1\"]") || (!v && r == "\"1-0\"]")) n++ }
        END { print n + 0 }' "$pgn")
    other=$(grep -cE '^\[Termination "(stalled connection|abandoned|illegal move|unterminated)"\]' "$pgn" || true)
    # Score and its 95% interval from the per-game variance, as Elo.
    awk -v w="$w" -v d="$d" -v l="$l" -v v="$v" -v tl="$time_losses" -v o="$other" -v tc="$TC" '
        function elo(s) { if (s <= 0) s = 0.0005; if (s >= 1) s = 0.9995; return -400 * log(1 / s - 1) / log(10) }
        BEGIN { n = w + d + l; s = (w + d / 2) / n;
            var = (w * (1 - s) ^ 2 + d * (0.5 - s) ^ 2 + l * s ^ 2) / n;
            e = 1.959964 * sqrt(var / n);
            printf "%s,%d,%d,%d,%d,%.4f,%.1f,%.1f,%.1f,%d,%d,%s,cutechess-cli\n",
                v, n, w, d, l, s, elo(s), elo(s - e), elo(s + e), tl, o, tc }' >> "$OUT/summary.csv"
    echo "$(date +%T) $v: +$w =$d -$l, $time_losses lost on time by varia, $other other abnormal ends" >&2
done
column -s, -t "$OUT/summary.csv"
