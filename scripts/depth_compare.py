#!/usr/bin/env python3
"""Depth and nodes that varia and another UCI engine reach in the same time.

For each game, the first N positions of its opening book (data/openings) are
searched by both engines for MS milliseconds (Hash 64, one thread), and the
last `info depth ... nodes ...` line of each is printed as CSV:

    scripts/depth_compare.py VARIA OTHER [N] [MS] > data/gauntlet/depth-1s.csv

OTHER is any engine speaking UCI with `UCI_Variant` (Fairy-Stockfish). Run it
alone on the machine: it is a measurement of speed.
"""
import re
import subprocess
import sys

# (varia's name, the UCI_Variant name, the book)
GAMES = [
    ("chess", "chess", "chess"),
    ("suicide", "giveaway", "suicide"),
    ("threecheck", "3check", "threecheck"),
    ("atomic", "atomic", "atomic"),
    ("losers", "losers", "losers"),
    ("knightmate", "knightmate", "knightmate"),
]


def search(cmd, variant, position, ms):
    """(depth, nodes) of the last depth report of `cmd` searching `position`."""
    p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    p.stdin.write(
        f"uci\nsetoption name UCI_Variant value {variant}\n"
        f"setoption name Hash value 64\nisready\n"
        f"position fen {position}\ngo movetime {ms}\n"
    )
    p.stdin.flush()
    depth = nodes = 0
    for line in p.stdout:
        if line.startswith("info") and " depth " in line and " nodes " in line:
            d = re.search(r" depth (\d+)", line)
            n = re.search(r" nodes (\d+)", line)
            if d and n:
                depth, nodes = int(d.group(1)), int(n.group(1))
        if line.startswith("bestmove"):
            break
    p.stdin.write("quit\n")
    p.stdin.flush()
    p.wait()
    return depth, nodes


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__.strip())
    varia, other = sys.argv[1], sys.argv[2]
    count = int(sys.argv[3]) if len(sys.argv) > 3 else 3
    ms = int(sys.argv[4]) if len(sys.argv) > 4 else 1000
    print("game,position,varia_depth,varia_nodes,other_depth,other_nodes")
    for ours, uci, book in GAMES:
        with open(f"data/openings/{book}.epd") as f:
            lines = [l.strip() for l in f if l.strip() and not l.startswith("#")]
        for i, position in enumerate(lines[:count]):
            vd, vn = search([varia, "uci"], uci, position, ms)
            od, on = search([other], uci, position, ms)
            print(f"{ours},{i},{vd},{vn},{od},{on}", flush=True)


if __name__ == "__main__":
    main()
