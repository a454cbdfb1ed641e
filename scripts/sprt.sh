#!/usr/bin/env bash
# Test a change to playing strength: the engine of the work tree ("new")
# against the engine of a base commit ("base"), both driven over UCI
# (`varia uci`) by `varia match --sprt`, one SPRT per variant, and one row
# per test appended to data/sprt/log.csv.
#
#   scripts/sprt.sh [-b BASE] [-v VARIANTS] [-c "what changed"] [-n]
#   scripts/sprt.sh -s BASE_TOML [-t NEW_TOML] [-v VARIANTS] [-c TEXT] [-n]
#   scripts/sprt.sh [-e BASE_EVAL] [-f NEW_EVAL] [-s ..] [-t ..] [-v VARIANTS] [-c TEXT] [-n]
#
#   -b BASE      base commit (default HEAD: the work tree's uncommitted change
#                against its last commit; give HEAD~1 after committing)
#   -v VARIANTS  comma-separated games (default suicide); `all` = the six
#   -c TEXT      the change, for the log (default: the subject of HEAD)
#   -n           non-regression bounds (elo0=-5 elo1=0) instead of a gain test
#   -s BASE_TOML one-binary A/B: base is the work tree's engine itself, played
#                in-process with these search settings (`search=BASE_TOML`);
#                no base commit is built (-b is ignored)
#   -t NEW_TOML  with -s: the new engine's search settings (default: none, the
#                defaults of the work tree)
#   -e BASE_EVAL one-binary A/B of evaluation weights: the base engine's
#                evaluation file (`eval=BASE_EVAL`, an EvalParams TOML of the
#                game tested; groups it does not set keep the game's defaults)
#   -f NEW_EVAL  the new engine's evaluation file (default: none, the
#                work tree's default evaluation: chess's embedded net, the
#                other games' classical weights). Either may be a net file
#                (`-f chess-128.nnue`: the net against the game's default,
#                chess's embedded net; add `-e classical` to play it
#                against the classical evaluation; `eval=` tells a net from
#                weights). -e or -f alone also selects the
#                one-binary mode; they combine with -s/-t
#
# Environment (defaults in brackets):
#   LIMITS       per-move limits for both engines [tc=2+0.02]; fixed nodes
#                (e.g. LIMITS=nodes=3000) where the change cannot alter speed
#   HASH         Hash of each engine, MB [16]
#   ELO0, ELO1   SPRT bounds [0, 5] (-n: [-5, 0])
#   MAX_GAMES    stop without a decision after this many games [20000]
#   CONCURRENCY  games at once [2]
#   OUT          where the game CSVs go [data/sprt/games]; the games of a
#                test that passes (H1) are compressed to FILE.csv.gz at its
#                end, those of the others stay plain (not to be committed)
#   LOG          the log [data/sprt/log.csv]
#   BASE_BIN, NEW_BIN  use these binaries instead of building them (the log
#                still names the commits; for trying the script out)
#   NEW_REV      the commit NEW_BIN was built from, for the log [HEAD]
#   GAMES_FILE   continue the test whose games are in this CSV (one variant
#                only). The games file is otherwise named by date and commit,
#                so running the same test again after a commit starts a new
#                test; with GAMES_FILE a test stopped at its MAX_GAMES cap
#                goes on after a commit that did not change either engine
#                (a docs or log commit). The log row then says so.
#   NEW_OPTS, BASE_OPTS  more engine settings of `varia match --engine`,
#                space-separated, for one side (e.g. NEW_OPTS=threads=2 for
#                Lazy SMP against one thread in one binary; over UCI
#                NEW_OPTS=option.Threads=2); named in the log's change column
#
# With -s both engines run in-process in one binary (the work tree's, built
# with the test profile: opt-level 3, no LTO), `hash=$HASH` each; at fixed
# nodes (LIMITS=nodes=N) such a test is independent of the machine's load,
# so it may run beside builds. The log's base column is then
# `<commit>:<BASE_TOML>` and the change column ends with ` [new: NEW_TOML]`.
# With -e/-f the base column also gets `:eval=<BASE_EVAL>` (`<commit>:eval=...`
# with no -s; `<commit>:defaults` with -f alone) and the change column ends
# with ` [new eval: NEW_EVAL]`.
#
# The base engine is built once per commit into target/sprt/<commit>/ (its
# own work tree and target directory, so the work tree's build is untouched)
# and reused by later tests. The new engine is `cargo build --release` of the
# work tree. Run it with nothing else on the machine: a match beside a build
# or another match measures the machine, not the change. A killed test
# resumes where it stopped when the same command is run again (the game CSV
# is resumed with --resume).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"

BASE=HEAD VARIANTS=suicide CHANGE="" NONREG=0 BASE_TOML="" NEW_TOML="" BASE_EVAL="" NEW_EVAL=""
while getopts "b:v:c:s:t:e:f:nh" opt; do
    case $opt in
        b) BASE=$OPTARG ;;
        v) VARIANTS=$OPTARG ;;
        c) CHANGE=$OPTARG ;;
        n) NONREG=1 ;;
        s) BASE_TOML=$OPTARG ;;
        t) NEW_TOML=$OPTARG ;;
        e) BASE_EVAL=$OPTARG ;;
        f) NEW_EVAL=$OPTARG ;;
        h) sed -n '2,/^set -euo/p' "$0" | sed '$d'; exit 0 ;;
        *) echo "sprt.sh: unknown option (see -h)" >&2; exit 2 ;;
    esac
done
[ "$VARIANTS" = all ] && VARIANTS=chess,suicide,threecheck,atomic,losers,knightmate
LIMITS=${LIMITS:-tc=2+0.02}
HASH=${HASH:-16}
if [ "$NONREG" = 1 ]; then ELO0=${ELO0:--5} ELO1=${ELO1:-0}; else ELO0=${ELO0:-0} ELO1=${ELO1:-5}; fi
MAX_GAMES=${MAX_GAMES:-20000}
CONCURRENCY=${CONCURRENCY:-2}
OUT=${OUT:-data/sprt/games}
LOG=${LOG:-data/sprt/log.csv}

if [ -n "${NEW_REV:-}" ]; then
    new_rev=$(git rev-parse --short=10 "$NEW_REV^{commit}") || { echo "sprt.sh: unknown commit NEW_REV=$NEW_REV" >&2; exit 2; }
    dirty=""
else
    new_rev=$(git rev-parse --short=10 HEAD)
    git diff --quiet HEAD -- crates && dirty="" || dirty="+dirty"
fi
[ -n "$CHANGE" ] || CHANGE=$(git log -1 --format=%s HEAD)
NEW_OPTS=${NEW_OPTS:-} BASE_OPTS=${BASE_OPTS:-}
[ -z "$NEW_OPTS" ] || CHANGE="$CHANGE [new opts: $NEW_OPTS]"
[ -z "$BASE_OPTS" ] || CHANGE="$CHANGE [base opts: $BASE_OPTS]"
# Distinct options play distinct games: they get their own game files.
opts_tag=$(tr -c 'A-Za-z0-9=.\n' _ <<< "${NEW_OPTS:+-new-$NEW_OPTS}${BASE_OPTS:+-base-$BASE_OPTS}")

if [ -n "$NEW_TOML" ] && [ -z "$BASE_TOML" ]; then
    echo "sprt.sh: -t needs -s" >&2; exit 2
fi
if [ -n "$BASE_TOML$BASE_EVAL$NEW_EVAL" ]; then
    # One binary, two in-process engines that differ only in their search
    # settings and/or evaluation weights.
    for f in $BASE_TOML $NEW_TOML; do
        [ -r "$f" ] || { echo "sprt.sh: cannot read search settings $f" >&2; exit 2; }
    done
    for f in $BASE_EVAL $NEW_EVAL; do
        # `classical` and `default` name built-in evaluations, not files.
        case $f in classical|default) continue ;; esac
        [ -r "$f" ] || { echo "sprt.sh: cannot read evaluation weights $f" >&2; exit 2; }
    done
    short="$new_rev$dirty${BASE_TOML:+:$BASE_TOML}${BASE_EVAL:+:eval=$BASE_EVAL}"
    [ -n "$BASE_TOML$BASE_EVAL" ] || short="$new_rev$dirty:defaults"
    base_name=$(basename "${BASE_TOML:-${BASE_EVAL:-defaults}}" .toml)
    [ -z "$BASE_TOML" ] || [ -z "$BASE_EVAL" ] || base_name="$base_name-$(basename "$BASE_EVAL" .toml)"
    new_name=""
    [ -z "$NEW_TOML" ] || { new_name="$(basename "$NEW_TOML" .toml)-"; CHANGE="$CHANGE [new: $NEW_TOML]"; }
    [ -z "$NEW_EVAL" ] || { new_name="$new_name$(basename "$NEW_EVAL" .toml)-"; CHANGE="$CHANGE [new eval: $NEW_EVAL]"; }
    tag="$new_rev$dirty-${new_name}vs-$base_name"
    new_bin=${NEW_BIN:-}
    if [ -z "$new_bin" ]; then
        echo "building new ($new_rev$dirty, test profile)" >&2
        cargo build -p varia --profile test >&2
        # A copy, so that a later build does not replace the running binary;
        # renamed into place, so that a test already running it keeps its
        # file (a plain cp fails with "Text file busy").
        new_bin=$ROOT/target/sprt/inproc-$new_rev$dirty-varia
        mkdir -p "$(dirname "$new_bin")"
        cp target/debug/varia "$new_bin.tmp.$$"
        mv -f "$new_bin.tmp.$$" "$new_bin"
    fi
    new_engine=(--engine name=new ${NEW_TOML:+"search=$NEW_TOML"} ${NEW_EVAL:+"eval=$NEW_EVAL"} $NEW_OPTS)
    base_engine=(--engine name=base ${BASE_TOML:+"search=$BASE_TOML"} ${BASE_EVAL:+"eval=$BASE_EVAL"} $BASE_OPTS)
    each=(--each "$LIMITS" "hash=$HASH")
else
    base_rev=$(git rev-parse --verify "$BASE^{commit}") || { echo "sprt.sh: unknown base commit $BASE" >&2; exit 2; }
    short=$(git rev-parse --short=10 "$base_rev")

    # The base engine, built once per commit.
    base_dir=$ROOT/target/sprt/$short
    base_bin=${BASE_BIN:-$base_dir/varia}
    if [ ! -x "$base_bin" ]; then
        echo "building base $short into $base_dir" >&2
        rm -rf "$base_dir/src"
        mkdir -p "$base_dir"
        git worktree add --detach --force "$base_dir/src" "$base_rev" >/dev/null
        cargo build --release -p varia --manifest-path "$base_dir/src/Cargo.toml" \
            --target-dir "$base_dir/target" >&2
        cp "$base_dir/target/release/varia" "$base_bin"
        git worktree remove --force "$base_dir/src"
    fi
    new_bin=$ROOT/target/sprt/new-varia
    if [ -n "${NEW_BIN:-}" ]; then
        new_bin=$NEW_BIN
    else
        echo "building new ($new_rev$dirty)" >&2
        cargo build --release -p varia >&2
        mkdir -p "$(dirname "$new_bin")"
        cp target/release/varia "$new_bin"
    fi
    tag="$new_rev$dirty-vs-$short"
    new_engine=(--engine name=new "cmd=$new_bin" args=uci $NEW_OPTS)
    base_engine=(--engine name=base "cmd=$base_bin" args=uci $BASE_OPTS)
    each=(--each "$LIMITS" "option.Hash=$HASH")
fi

mkdir -p "$OUT" "$(dirname "$LOG")"
if [ ! -s "$LOG" ]; then
    echo "date,commit,base,change,variant,limits,games,wins,draws,losses,elo,elo_low,elo_high,llr,llr_low,llr_high,elo0,elo1,result" > "$LOG"
fi

IFS=, read -r -a variant_list <<< "$VARIANTS"
change_note=""
for variant in "${variant_list[@]}"; do
    stem="$OUT/$(date +%Y%m%d)-$tag$opts_tag-$variant"
    if [ -n "${GAMES_FILE:-}" ]; then
        [ "${#variant_list[@]}" = 1 ] || { echo "sprt.sh: GAMES_FILE needs one variant" >&2; exit 2; }
        [ -s "$GAMES_FILE" ] || { echo "sprt.sh: no games to continue in GAMES_FILE=$GAMES_FILE" >&2; exit 2; }
        case $GAMES_FILE in
            *.gz) echo "sprt.sh: GAMES_FILE=$GAMES_FILE is compressed (a test that passed): decompress it first (gunzip -k $GAMES_FILE) and pass the .csv" >&2; exit 2 ;;
        esac
        stem=${GAMES_FILE%.csv}
        change_note=" (continues the games of $(basename "$GAMES_FILE"))"
    fi
    if [ -e "$stem.csv.gz" ]; then
        echo "sprt.sh: this test passed already; its games are in $stem.csv.gz (to continue it: gunzip -k it and pass GAMES_FILE=$stem.csv)" >&2
        exit 2
    fi
    resume=()
    [ -s "$stem.csv" ] && resume=(--resume)
    report=$("$new_bin" match --variant "$variant" \
        "${new_engine[@]}" "${base_engine[@]}" "${each[@]}" \
        --games "$MAX_GAMES" --concurrency "$CONCURRENCY" \
        --sprt "elo0=$ELO0" "elo1=$ELO1" \
        --out "$stem.csv" --summary "$stem.summary.csv" "${resume[@]}" | tee >(cat >&2))
    # The summary CSV: variant,player,opponent,games,wins,draws,losses,score,elo,elo_low,elo_high,...
    # ...,los,draw_ratio,penta_0,penta_1,penta_2,penta_3,penta_4
    IFS=, read -r _ _ _ games wins draws losses _ elo elo_low elo_high _ _ p0 p1 _ p3 p4 < <(sed -n 2p "$stem.summary.csv")
    sprt_line=$(grep '^SPRT' <<< "$report" | tail -1)
    llr=$(sed -E 's/.*LLR (-?[0-9.]+).*/\1/' <<< "$sprt_line")
    llr_low=$(sed -E 's/.*LLR -?[0-9.]+ \((-?[0-9.]+), .*/\1/' <<< "$sprt_line")
    llr_high=$(sed -E 's/.*LLR -?[0-9.]+ \(-?[0-9.]+, (-?[0-9.]+)\).*/\1/' <<< "$sprt_line")
    case $sprt_line in
        *"H1 accepted"*) result=H1 ;;
        *"H0 accepted"*) result=H0 ;;
        *) result=undecided ;;
    esac
    # Every pair split 1-1 (the change never altered a result at these
    # limits): zero variance, and the runner's decision means nothing.
    [ "${p0:-0}${p1:-0}${p3:-0}${p4:-0}" = 0000 ] && result=no-signal
    change_csv=$CHANGE$change_note
    change_csv=${change_csv//\"/\"\"}
    echo "$(date +%Y-%m-%d),$new_rev$dirty,$short,\"$change_csv\",$variant,\"$LIMITS hash=$HASH\",$games,$wins,$draws,$losses,$elo,$elo_low,$elo_high,$llr,$llr_low,$llr_high,$ELO0,$ELO1,$result" >> "$LOG"
    echo "logged: $variant $result (LLR $llr, Elo $elo [$elo_low, $elo_high], $games games)" >&2
    # The games of a test that passed are kept, compressed (varia reads
    # them so; the sidecar $stem.csv.meta stays as it is); see README.md.
    if [ "$result" = H1 ]; then
        gzip -9 -n "$stem.csv" && rm -f "$stem.csv.lock"
        echo "games kept compressed: $stem.csv.gz" >&2
    fi
done
