#!/usr/bin/env python3
"""A minimal UCI engine for tests: plays a legal chess move at once.

Options (argv):
  --crash-at N    exit abruptly on the N-th `go` of this process
  --hang-at N     stop answering on the N-th `go` (sleeps, then exits)
  --illegal-at N  answer the N-th `go` with an illegal move
  --once FILE     do the above only in the first process that gets there
                  (FILE is created as the marker)
  --slow-start S  sleep S seconds before answering `uci`
"""
import sys
import time

sys.dont_write_bytecode = True
import chesslite  # noqa: E402


def main():
    args = sys.argv[1:]

    def opt(flag, default=None):
        return args[args.index(flag) + 1] if flag in args else default

    crash_at = int(opt("--crash-at", 0))
    hang_at = int(opt("--hang-at", 0))
    illegal_at = int(opt("--illegal-at", 0))
    marker = opt("--once")
    slow = float(opt("--slow-start", 0))
    board = chesslite.Board()
    gos = 0

    def out(s):
        sys.stdout.write(s + "\n")
        sys.stdout.flush()

    for line in sys.stdin:
        toks = line.split()
        if not toks:
            continue
        cmd = toks[0]
        if cmd == "uci":
            time.sleep(slow)
            out("id name FakeUCI")
            out("option name Hash type spin default 16 min 1 max 1024")
            out("option name UCI_Variant type combo default chess var chess")
            out("uciok")
        elif cmd == "isready":
            out("readyok")
        elif cmd == "position":
            if toks[1] == "startpos":
                board = chesslite.Board()
                rest = toks[2:]
            else:
                i = toks.index("moves") if "moves" in toks else len(toks)
                board = chesslite.Board(" ".join(toks[2:i]))
                rest = toks[i:]
            if rest and rest[0] == "moves":
                for m in rest[1:]:
                    board.play(m)
        elif cmd == "go":
            gos += 1
            if gos == crash_at and chesslite.once(marker):
                sys.stdout.write("info string crashing\n")
                sys.stdout.flush()
                sys.exit(3)
            if gos == hang_at and chesslite.once(marker):
                time.sleep(60)
                sys.exit(0)
            if gos == illegal_at and chesslite.once(marker):
                out("bestmove a1a1")
                continue
            m = board.choose()
            out("info depth 1 score cp %d nodes 1 pv %s" % (gos % 7 - 3, m or "0000"))
            out("bestmove " + (m or "0000"))
        elif cmd == "quit":
            return


main()
