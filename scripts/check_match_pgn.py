#!/usr/bin/env python3
"""Reads the PGN of a `varia match` with python-chess and checks every game.

    python3 scripts/check_match_pgn.py games.pgn [more.pgn ...]
    python3 scripts/check_match_pgn.py --run [--varia target/release/varia]

python-chess (`pip install chess`, see scripts/requirements.txt) knows
standard chess, giveaway (our suicide: `[Variant "Giveaway"]`, Lichess
antichess rules plus castling, which python-chess's GiveawayBoard allows),
three-check and atomic; games of other variants are skipped. For each game:
the movetext parses with no errors, every move is legal in python-chess from
the `[FEN]` (or start) position, and a game that ended by the rules of the
game (checkmate, stalemate, third check, exploded king, no moves left,
insufficient material) ends in a position python-chess also calls over,
with the same result.

With --run, plays a short match per variant with the varia binary first and
checks its PGN (what `make check-pgn`-style scripts would do). Exits 1 if any
game fails, 0 otherwise.
"""

import argparse
import os
import subprocess
import sys
import tempfile

import chess
import chess.pgn
import chess.variant

BOARDS = {
    None: chess.Board,
    "Giveaway": chess.variant.GiveawayBoard,
    "Three-check": chess.variant.ThreeCheckBoard,
    "Atomic": chess.variant.AtomicBoard,
}
# Terminations decided by the rules of the game alone (no history, no
# adjudication): python-chess must agree the final position is over.
RULE_ENDINGS = {"checkmate", "stalemate", "third_check", "king_exploded", "no_moves",
                "insufficient_material"}


def check_file(path):
    """Returns (checked, skipped, failures)."""
    checked = skipped = 0
    failures = []
    with open(path, encoding="utf-8") as f:
        while True:
            game = chess.pgn.read_game(f)
            if game is None:
                break
            h = game.headers
            label = f"{path}: round {h.get('Round', '?')}"
            variant = h.get("Variant")
            if variant not in BOARDS:
                skipped += 1
                continue
            checked += 1
            if game.errors:
                failures.append(f"{label}: {game.errors[0]}")
                continue
            cls = BOARDS[variant]
            board = cls(h["FEN"]) if "FEN" in h else cls()
            ok = True
            for move in game.mainline_moves():
                if move not in board.legal_moves:
                    failures.append(f"{label}: illegal move {move.uci()} in {board.fen()}")
                    ok = False
                    break
                board.push(move)
            if not ok:
                continue
            why = h.get("Termination", "")
            if why in RULE_ENDINGS:
                outcome = board.outcome(claim_draw=False)
                if outcome is None:
                    failures.append(f"{label}: ended by {why}, but python-chess plays on in {board.fen()}")
                elif outcome.result() != h.get("Result"):
                    failures.append(f"{label}: {why}: result {h.get('Result')}, python-chess says {outcome.result()}")
    return checked, skipped, failures


def run_matches(varia, directory):
    paths = []
    for variant in ["chess", "suicide", "threecheck", "atomic"]:
        pgn = os.path.join(directory, f"{variant}.pgn")
        subprocess.run([varia, "match", "--variant", variant, "--engine", "name=a",
                        "--engine", "name=b,nodes=400", "--each", "nodes=300",
                        "--games", "100", "--quiet", "--pgn", pgn],
                       check=True, stdout=subprocess.DEVNULL)
        paths.append(pgn)
    return paths


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("files", nargs="*")
    ap.add_argument("--run", action="store_true", help="play short matches first and check their PGN")
    ap.add_argument("--varia", default=os.path.join(os.path.dirname(__file__), "..", "target", "release", "varia"))
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        files = list(args.files)
        if args.run:
            files += run_matches(args.varia, tmp)
        if not files:
            ap.error("give PGN files or --run")
        total_checked = total_skipped = 0
        all_failures = []
        for p in files:
            c, s, fails = check_file(p)
            total_checked += c
            total_skipped += s
            all_failures += fails
            print(f"{p}: {c} games checked, {s} skipped, {len(fails)} failed")
    for f in all_failures[:20]:
        print("FAIL", f)
    print(f"{total_checked - len(all_failures)} passed, {len(all_failures)} failed")
    return 1 if all_failures else 0


if __name__ == "__main__":
    sys.exit(main())
