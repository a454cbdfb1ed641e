# What the scripts that drive cutechess-cli share; sourced, not run:
#   . "$ROOT/scripts/lib/cutechess.sh"

# cutechess-cli's name of one of varia's games.
cutechess_name() {
    case $1 in
        chess) echo standard ;; suicide) echo giveaway ;; threecheck) echo 3check ;;
        *) echo "$1" ;;
    esac
}

# Exits 2 with a line naming the cause unless cutechess-cli $1 starts
# (1.5 needs Qt 6, which it does not say clearly when missing). $2 names
# the calling script in the message.
require_cutechess() {
    "$1" --version >/dev/null 2>&1 || {
        echo "$2: $1 does not start (cutechess-cli 1.5 needs Qt 6: scripts/setup_engines.sh installs it)" >&2
        exit 2
    }
}

# Games in a cutechess PGN ended other than by the rules or a clock:
# stalls, disconnects, illegal moves, unfinished games.
abnormal_ends() {
    grep -cE '^\[Termination "(stalled connection|abandoned|illegal move|unterminated)"\]' "$1" || true
}
