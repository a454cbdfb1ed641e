#!/usr/bin/env bash
# Installs the Debian engines varia is measured against (they land in
# /usr/games, which is not on root's PATH; the scripts use full paths):
#   fairymax (chess, knightmate), sjeng (chess, giveaway, losers),
#   sjaakii (chess, 3check, knightmate), fairy-stockfish 11.1 (all but atomic),
# libqt6core6, which cutechess-cli 1.5.1 needs to start, and the Python
# packages of scripts/requirements.txt (pyffish, python-chess).
set -euo pipefail
if [ "$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq fairymax sjeng sjaakii fairy-stockfish libqt6core6
python3 -m pip install -q -r "$(dirname "$0")/requirements.txt"
