#!/usr/bin/env python3
"""Where two engines' judgements of one game part: both search every position.

Replays game GAME of a `varia match` per-game CSV (its opening line, then its
moves) and has varia and another UCI engine search each position reached
after the book to a fixed depth (one thread, Hash 64, a fresh game for
neither: both keep their table along the game, as in play). Prints CSV, one
row per position: the ply, the move played there, and each engine's score
(centipawns from the side to move, or `mate N`) and best move.

    scripts/score_trace.py VARIA OTHER GAMES.csv GAME [DEPTH] > trace.csv

OTHER is any engine speaking UCI with `UCI_Variant` (Fairy-Stockfish); the
match's variant names it (suicide is `giveaway`, threecheck `3check`). A
fixed depth makes the scores independent of the machine's load. A long run
of plies where the two scores differ by hundreds of centipawns, with the
game's result siding with one of them, shows a blind spot of the other's
evaluation: the positions there are the ones to look at.
"""
import csv
import re
import subprocess
import sys

# varia's game names as Fairy-Stockfish knows them, also its UCI_Variant names.
from varia_pyffish import PYFFISH_NAME


class Engine:
    """One UCI engine process, set to a variant."""

    def __init__(self, cmd, variant):
        self.proc = subprocess.Popen(
            cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
        )
        self.send("uci")
        self.wait_for("uciok")
        self.send(f"setoption name UCI_Variant value {variant}")
        self.send("setoption name Hash value 64")
        self.send("isready")
        self.wait_for("readyok")

    def send(self, line):
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def wait_for(self, prefix):
        for line in self.proc.stdout:
            if line.startswith(prefix):
                return line
        sys.exit(f"error: the engine exited before answering {prefix!r}")

    def search(self, fen, moves, depth):
        """(score, best move) of a search of `fen` after `moves`."""
        position = f"position fen {fen}" + (f" moves {' '.join(moves)}" if moves else "")
        self.send(position)
        self.send(f"go depth {depth}")
        score = ""
        for line in self.proc.stdout:
            found = re.search(r" score (cp|mate) (-?\d+)", line)
            if found:
                kind, value = found.groups()
                score = value if kind == "cp" else f"mate {value}"
            if line.startswith("bestmove"):
                return score, line.split()[1]
        sys.exit("error: the engine exited during a search")

    def quit(self):
        self.send("quit")
        self.proc.wait()


def read_game(path, number):
    """(variant, start FEN, book moves, game moves) of game `number`."""
    with open(path) as f:
        lines = [line for line in f if not line.startswith("#")]
    for row in csv.DictReader(lines):
        if row["game"] == str(number):
            fen, _, book = row["opening"].partition(" moves ")
            return row["variant"], fen, book.split(), row["moves"].split()
    sys.exit(f"error: {path} has no game {number}")


def main():
    if len(sys.argv) < 5:
        sys.exit(__doc__.strip())
    varia, other, path, number = sys.argv[1:5]
    depth = int(sys.argv[5]) if len(sys.argv) > 5 else 10
    variant, fen, book, played = read_game(path, number)
    if variant not in PYFFISH_NAME:
        sys.exit(f"error: unknown variant {variant!r} in {path}")
    uci_name = PYFFISH_NAME[variant]
    engines = [Engine([varia, "uci"], uci_name), Engine([other], uci_name)]
    moves = book + played
    out = csv.writer(sys.stdout)
    out.writerow(["ply", "move", "varia_score", "varia_best", "other_score", "other_best"])
    for ply in range(len(book), len(moves)):
        row = [ply, moves[ply]]
        for engine in engines:
            row.extend(engine.search(fen, moves[:ply], depth))
        out.writerow(row)
        sys.stdout.flush()
    for engine in engines:
        engine.quit()


if __name__ == "__main__":
    main()
