"""What the pyffish cross-checks (crosscheck.py, check_pgn_pyffish.py) share:
the repository root, varia's variant names as pyffish knows them (which are
Fairy-Stockfish's UCI_Variant names too, read by score_trace.py) and the
command-line aliases. One table each, so that a variant added to varia is
added to every script at once.
"""

from __future__ import annotations

import os

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# varia name -> pyffish name (varia's suicide is Fairy-Stockfish's giveaway).
PYFFISH_NAME = {
    "chess": "chess",
    "suicide": "giveaway",
    "threecheck": "3check",
    "atomic": "atomic",
    "losers": "losers",
    "knightmate": "knightmate",
}

# Command-line names and aliases (as in RULES.md) -> varia name.
ALIASES = {
    "standard": "chess",
    "normal": "chess",
    "giveaway": "suicide",
    "3check": "threecheck",
    "three-check": "threecheck",
}
