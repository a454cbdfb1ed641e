#!/usr/bin/env bash
# Seeds the cargo-fuzz corpora (fuzz/corpus/<target>/, ignored by git) from
# the repository's own data, so each target starts past its format's first
# hurdle:
#   fen    the FENs of data/perft/perft_public.csv
#   moves  a first byte choosing a position, then a UCI or SAN move
#   pgn    a first byte choosing the game, then the PGN of a short game of
#          that game played by `varia match` in-process (4 games a game)
#   uci    UCI sessions: the handshake, options, every variant, positions
#          from the opening books with moves, searches stopped and ended
#   cecp   the same sessions in CECP
# Usage: scripts/fuzz_corpus.sh [VARIA_BIN]   (default: target/release/varia,
# built if missing). Writes only under fuzz/corpus/.
set -euo pipefail
cd "$(dirname "$0")/.."

VARIA=${1:-target/release/varia}
if [[ ! -x $VARIA ]]; then
    cargo build --release -p varia
fi
CORPUS=fuzz/corpus
mkdir -p "$CORPUS"/{fen,moves,pgn,uci,cecp}

# fen: one FEN a file.
n=0
tail -n +2 data/perft/perft_public.csv | cut -d, -f2 | sort -u | head -300 | while IFS= read -r fen; do
    n=$((n + 1))
    printf '%s' "$fen" > "$CORPUS/fen/perft-$n"
done

# moves: position byte 0..11, then a move text.
i=0
for text in e1g1 e5f6 a7a8q e2e4 Nf3 O-O exf6 a8=Q Qxh7 d7d8n Kd2 b7b8m; do
    printf "\\x$(printf %02x $i)%s" "$text" > "$CORPUS/moves/seed-$i"
    i=$((i + 1))
done

# pgn: the first byte is the game's index in VariantKind::ALL.
variants=(chess suicide threecheck atomic losers knightmate)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for idx in "${!variants[@]}"; do
    v=${variants[$idx]}
    "$VARIA" match --variant "$v" --engine name=a,nodes=200 --engine name=b,nodes=200 \
        --games 4 --seed 1 --quiet --out "$tmp/$v.csv" --pgn "$tmp/$v.pgn" >/dev/null
    { printf "\\x$(printf %02x "$idx")"; cat "$tmp/$v.pgn"; } > "$CORPUS/pgn/$v"
done

# uci and cecp: sessions over every game, from the books' first lines.
protocol_name() {
    case $1 in
        suicide) echo giveaway ;;
        threecheck) echo 3check ;;
        *) echo "$1" ;;
    esac
}
for v in "${variants[@]}"; do
    p=$(protocol_name "$v")
    fen=$(grep -v '^#' "data/openings/$v.epd" | head -1 | sed 's/ moves .*//')
    printf 'uci\nsetoption name UCI_Variant value %s\nisready\nucinewgame\nposition startpos moves e2e4\ngo nodes 500\nposition fen %s\ngo depth 3\nstop\ngo infinite\nstop\nquit\n' \
        "$p" "$fen" > "$CORPUS/uci/$v"
    printf 'xboard\nprotover 2\nnew\nvariant %s\nforce\nsetboard %s\nsd 3\ngo\n?\nundo\nremove\nlevel 40 5 0\ntime 3000\notim 3000\nusermove e2e4\nping 1\nquit\n' \
        "$p" "$fen" > "$CORPUS/cecp/$v"
done
echo "seeded: $(for t in fen moves pgn uci cecp; do printf '%s %s  ' "$t" "$(ls "$CORPUS/$t" | wc -l)"; done)"
