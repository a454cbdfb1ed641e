#!/usr/bin/env python3
"""Single-thread perft speed of varia against Fairy-Stockfish's `go perft`.

For each of the six games, counts the start position at one depth with
`varia perft --threads 1` and with Fairy-Stockfish (`UCI_Variant` set, one
thread), checks that the node counts agree, and prints nodes/s of both and
their ratio. Fairy-Stockfish is the only peer for losers and knightmate
(shakmaty plays neither); `make ratio` compares with shakmaty.

    python3 scripts/perft_vs_fsf.py --engine PATH [--varia target/release/varia]
                                    [--depth 6] [--rounds 3] [--variants losers,knightmate]

The engine path may also come from $VARIA_FAIRY_STOCKFISH. Without one the
script says so and exits 0 (nothing to compare with). Each side's time is
the best of --rounds runs; Fairy-Stockfish's is measured from `go perft`
to its `Nodes searched` line, so start-up is not counted. Run it with
nothing else on the machine.

Standard library only. Exit status: 0, 1 on a node-count mismatch or a
failing engine, 2 on bad arguments.
"""

import argparse
import csv
import io
import os
import subprocess
import sys
import time

# varia's game name -> Fairy-Stockfish's UCI_Variant.
GAMES = [
    ("chess", "chess"),
    ("suicide", "giveaway"),
    ("threecheck", "3check"),
    ("atomic", "atomic"),
    ("losers", "losers"),
    ("knightmate", "knightmate"),
]


class EngineError(Exception):
    pass


def fsf_perft(engine, uci_variant, depth):
    """(nodes, seconds) of one `go perft` by the engine at `engine`."""
    p = subprocess.Popen(
        [engine],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        bufsize=1,
    )

    def send(line):
        p.stdin.write(line + "\n")
        p.stdin.flush()

    def wait_for(prefix):
        for line in p.stdout:
            if line.startswith(prefix):
                return line
        raise EngineError(f"{engine} exited before printing '{prefix}'")

    try:
        send("uci")
        wait_for("uciok")
        send("setoption name Threads value 1")
        send(f"setoption name UCI_Variant value {uci_variant}")
        send("isready")
        wait_for("readyok")
        send("position startpos")
        start = time.perf_counter()
        send(f"go perft {depth}")
        line = wait_for("Nodes searched")
        seconds = time.perf_counter() - start
        send("quit")
        return int(line.split()[-1]), seconds
    finally:
        p.kill()
        p.wait()


def varia_perft(varia, game, depth):
    """(nodes, seconds) of `varia perft` at `depth`, one thread."""
    out = subprocess.run(
        [varia, "perft", "--variant", game, "--depth", str(depth),
         "--threads", "1", "--quiet", "--format", "csv"],
        capture_output=True, text=True,
    )
    if out.returncode != 0:
        raise EngineError(f"varia perft --variant {game} failed: {out.stderr.strip()}")
    rows = list(csv.DictReader(io.StringIO(out.stdout)))
    last = rows[-1]
    return int(last["nodes"]), float(last["seconds"])


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--engine", default=os.environ.get("VARIA_FAIRY_STOCKFISH"),
                    help="Fairy-Stockfish binary (default: $VARIA_FAIRY_STOCKFISH)")
    ap.add_argument("--varia", default="target/release/varia", help="varia binary")
    ap.add_argument("--depth", type=int, default=6, help="perft depth (default 6)")
    ap.add_argument("--rounds", type=int, default=3, help="runs per side, best kept (default 3)")
    ap.add_argument("--variants", help="comma-separated varia game names (default: all six)")
    args = ap.parse_args()
    if not args.engine:
        print("no Fairy-Stockfish given (--engine or VARIA_FAIRY_STOCKFISH): nothing to compare")
        return 0
    if args.depth < 1 or args.rounds < 1:
        ap.error("--depth and --rounds must be at least 1")
    games = GAMES
    if args.variants:
        wanted = args.variants.split(",")
        unknown = [w for w in wanted if w not in dict(GAMES)]
        if unknown:
            ap.error(f"unknown variant {unknown[0]} (valid: {', '.join(g for g, _ in GAMES)})")
        games = [g for g in GAMES if g[0] in wanted]

    print(f"perft start position, depth {args.depth}, one thread, best of {args.rounds}")
    print(f"{'game':<11} {'nodes':>12} {'varia Mnps':>11} {'FSF Mnps':>9} {'ratio':>7}")
    for game, uci_variant in games:
        try:
            v = [varia_perft(args.varia, game, args.depth) for _ in range(args.rounds)]
            f = [fsf_perft(args.engine, uci_variant, args.depth) for _ in range(args.rounds)]
        except (EngineError, OSError) as e:
            print(f"error: {e}", file=sys.stderr)
            return 1
        nodes = v[0][0]
        if any(n != nodes for n, _ in v + f):
            print(f"error: {game}: node counts differ: varia {v[0][0]}, engine {f[0][0]}",
                  file=sys.stderr)
            return 1
        vt = min(t for _, t in v)
        ft = min(t for _, t in f)
        print(f"{game:<11} {nodes:>12} {nodes / vt / 1e6:>11.1f} {nodes / ft / 1e6:>9.1f} "
              f"{ft / vt:>6.1f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
