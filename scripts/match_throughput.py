#!/usr/bin/env python3
"""Games per second of `varia match`, per variant, with varia's engine
in-process and with the runner driving `varia uci` as an external process.

    python3 scripts/match_throughput.py [--varia target/release/varia]
        [--games 400] [--nodes 1000] [--concurrency 2] [--variants chess,suicide]

Both modes play the same schedule (same openings, same node limit; varia
over UCI plays the same moves as in-process), so the difference is the cost
of the protocol path. Reported per variant: wall-clock games/s, CPU seconds
(user + system of the runner and its engine processes), games per CPU
second times the number of cores (what an otherwise idle machine would
reach), plies, and the protocol's extra cost per move in CPU and wall time.
The machine's load average is printed first: on a shared machine the wall
figures fall with the load, the CPU figures much less.
"""

import argparse
import csv
import os
import resource
import subprocess
import sys
import tempfile
import time

VARIANTS = ["chess", "suicide", "threecheck", "atomic", "losers", "knightmate"]


def run(cmd):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.monotonic()
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    wall = time.monotonic() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def plies(path):
    with open(path, newline="") as f:
        # Files of older versions had the run's identity on top as `#` lines.
        rows = csv.DictReader(line for line in f if not line.startswith("#"))
        return sum(int(r["plies"]) for r in rows)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--varia", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "target", "release", "varia"))
    ap.add_argument("--games", type=int, default=400)
    ap.add_argument("--nodes", type=int, default=1000)
    ap.add_argument("--concurrency", type=int, default=2)
    ap.add_argument("--variants", default=",".join(VARIANTS))
    args = ap.parse_args()
    varia = os.path.abspath(args.varia)
    cores = os.cpu_count() or 1
    print(f"load average {os.getloadavg()[0]:.1f} on {cores} cores; {args.games} games, "
          f"nodes={args.nodes}, concurrency {args.concurrency}")
    print(f"{'variant':<11} {'mode':<10} {'games/s':>8} {'cpu s':>7} {'idle-est':>8} "
          f"{'plies':>7} {'us/move cpu':>11} {'us/move wall':>12}")
    with tempfile.TemporaryDirectory() as tmp:
        for v in args.variants.split(","):
            base = ["match", "--variant", v, "--each", f"nodes={args.nodes}", "--games",
                    str(args.games), "--concurrency", str(args.concurrency), "--quiet"]
            modes = {
                "in-process": ["--engine", "name=a", "--engine", "name=b"],
                "uci": ["--engine", f"name=a,cmd={varia},args=uci,option.Hash=1",
                        "--engine", f"name=b,cmd={varia},args=uci,option.Hash=1"],
            }
            res = {}
            for mode, engines in modes.items():
                out = os.path.join(tmp, f"{v}-{mode}.csv")
                wall, cpu = run([varia] + base + engines + ["--out", out])
                res[mode] = (wall, cpu, plies(out))
            w0, c0, p0 = res["in-process"]
            for mode, (w, c, p) in res.items():
                extra_cpu = extra_wall = ""
                if mode != "in-process" and p:
                    extra_cpu = f"{(c / p - c0 / p0) * 1e6:.0f}"
                    extra_wall = f"{(w / p - w0 / p0) * 1e6 * args.concurrency:.0f}"
                print(f"{v:<11} {mode:<10} {args.games / w:>8.1f} {c:>7.2f} "
                      f"{args.games / c * min(cores, args.concurrency):>8.1f} {p:>7} "
                      f"{extra_cpu:>11} {extra_wall:>12}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
