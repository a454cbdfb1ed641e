#!/usr/bin/env python3
"""A minimal CECP (XBoard protocol 2) engine for tests: plays a legal chess
move at once.

Options (argv):
  --san           reply in SAN-like notation (`Ng1f3`, `exd5`) instead of coordinates
  --my-move-is    reply `My move is: X` instead of `move X`
  --no-usermove   announce usermove=0 (moves arrive bare)
  --slow-features S  send the features in two parts with done=0 first, S seconds apart
  --resign-at N   resign on the N-th `go` of this process
  --reject-at N   answer the N-th move received with `Illegal move: X`
  --claim-at N RESULT  on the N-th `go`, claim RESULT (`1-0`, `0-1`, `1/2-1/2`) instead of moving
  --once FILE     do --resign-at/--reject-at only in the first process that gets there
"""
import sys
import time

sys.dont_write_bytecode = True
import chesslite  # noqa: E402


def main():
    args = sys.argv[1:]

    def opt(flag, default=None):
        return args[args.index(flag) + 1] if flag in args else default

    san = "--san" in args
    my_move_is = "--my-move-is" in args
    usermove = "--no-usermove" not in args
    slow = float(opt("--slow-features", 0))
    resign_at = int(opt("--resign-at", 0))
    reject_at = int(opt("--reject-at", 0))
    marker = opt("--once")
    claim_at = int(opt("--claim-at", 0))
    claim = args[args.index("--claim-at") + 2] if claim_at else None

    board = chesslite.Board()
    force = False
    gos = 0
    received = 0

    def out(s):
        sys.stdout.write(s + "\n")
        sys.stdout.flush()

    def think():
        nonlocal gos
        gos += 1
        if gos == resign_at and chesslite.once(marker):
            out("resign")
            return
        if gos == claim_at and chesslite.once(marker):
            out(claim + " {claimed}")
            return
        m = board.choose()
        if m is None:
            out("1/2-1/2 {no moves}")
            return
        out("1 %d 0 1 %s" % (gos % 5 - 2, m))
        text = board.san(m) if san else m
        out(("My move is: " if my_move_is else "move ") + text)
        board.play(m)

    for line in sys.stdin:
        toks = line.split()
        if not toks:
            continue
        cmd = toks[0]
        if cmd == "xboard":
            pass
        elif cmd == "protover":
            if slow:
                out("feature done=0")
                time.sleep(slow)
            out('feature myname="FakeCECP" ping=1 setboard=1 usermove=%d' % usermove)
            out('feature variants="normal" option="Style -combo Solid /// Wild" memory=1 done=1')
        elif cmd in ("accepted", "rejected", "post", "nopost", "easy", "hard", "computer",
                     "random", "level", "st", "sd", "time", "otim"):
            pass
        elif cmd == "new":
            board = chesslite.Board()
            force = False
        elif cmd == "variant":
            if toks[1:] != ["normal"]:
                out("Error (unsupported variant): " + " ".join(toks[1:]))
        elif cmd == "force":
            force = True
        elif cmd == "setboard":
            board = chesslite.Board(" ".join(toks[1:]))
        elif cmd == "ping":
            out("pong " + toks[1])
        elif cmd == "go":
            force = False
            think()
        elif cmd == "quit":
            return
        elif cmd == "memory" or cmd == "option":
            pass
        else:
            m = toks[1] if cmd == "usermove" and len(toks) > 1 else cmd
            if (cmd == "usermove") != usermove or len(m) < 4 or m[0] not in "abcdefgh":
                out("Error (unknown command): " + line.strip())
                continue
            received += 1
            if received == reject_at and chesslite.once(marker):
                out("Illegal move: " + m)
                continue
            board.play(m)
            if not force:
                think()


main()
