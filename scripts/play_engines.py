#!/usr/bin/env python3
"""Play varia against other engines (or itself) over UCI and CECP.

A smoke test of varia's protocol front ends against real opponents: every
move of either side is checked with varia's own rules, games are adjudicated
by those rules, and the result is printed as W/D/L with an Elo estimate and
its 95% interval.

Referee: a persistent `varia uci` process. For every ply it is sent
`position startpos moves ...` and `d`, which prints the legal moves and the
outcome judged with the whole game's history (the variant's rules, threefold
repetition, the 50-move rule, insufficient material). A move that is not in
the legal list is illegal: the side that played it loses.

Engines (ENGINE below):
  varia-uci, varia-xboard     varia through `varia uci` / `varia xboard`
  fairy-stockfish             /usr/games/fairy-stockfish (UCI)
  fairymax, sjeng, sjaakii    /usr/games/<name> (CECP)
  uci:CMD, xboard:CMD         any other engine command

Examples:
  scripts/play_engines.py --variant giveaway --engine1 varia-xboard --engine2 sjeng --games 10
  scripts/play_engines.py --variant 3check --engine1 varia-uci --engine2 fairy-stockfish \
      --opt2 "Skill Level=0" --games 6 --tc 2+0.02
  scripts/play_engines.py --variant atomic --engine1 varia-uci --engine2 varia-xboard

Variants use varia's names or aliases (chess, suicide/giveaway, threecheck/3check,
atomic, losers, knightmate); each protocol gets its own name for the game
(UCI_Variant `giveaway`, CECP `variant giveaway`, never `suicide`).

Standard library only. Exit code 1 if any protocol error, illegal move or
false result claim was seen (by either engine), 2 if an engine cannot play
the variant at all.
"""

import argparse
import atexit
import math
import os
import queue
import random
import shlex
import signal
import subprocess
import sys
import threading
import time

VARIANT_ALIASES = {
    "chess": "chess", "standard": "chess", "normal": "chess",
    "suicide": "suicide", "giveaway": "suicide",
    "threecheck": "threecheck", "3check": "threecheck", "three-check": "threecheck",
    "atomic": "atomic", "losers": "losers", "knightmate": "knightmate",
}
# Protocol names (RULES.md): UCI_Variant and CECP `variant`.
UCI_NAME = {"chess": "chess", "suicide": "giveaway", "threecheck": "3check",
            "atomic": "atomic", "losers": "losers", "knightmate": "knightmate"}
CECP_NAME = {"chess": "normal", "suicide": "giveaway", "threecheck": "3check",
             "atomic": "atomic", "losers": "losers", "knightmate": "knightmate"}

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


class ProtocolError(Exception):
    """The engine broke the protocol (or died, or sent an illegal move)."""


CHILDREN = []


def kill_children():
    """No engine outlives the script (an engine stuck in a search ignores quit)."""
    for proc in CHILDREN:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


atexit.register(kill_children)
signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))


class Process:
    """A child process with a line queue for its stdout."""

    def __init__(self, cmd, name, log):
        self.name = name
        self.log = log
        self.proc = subprocess.Popen(
            cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL, text=True, bufsize=1, errors="replace")
        CHILDREN.append(self.proc)
        self.lines = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.proc.stdout:
            self.lines.put(line.rstrip("\r\n"))
        self.lines.put(None)

    def send(self, line):
        self.log(f"{self.name} < {line}")
        try:
            self.proc.stdin.write(line + "\n")
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError) as e:
            raise ProtocolError(f"{self.name}: cannot write ({e})")

    def read(self, deadline):
        """The next line, or None at the deadline."""
        left = deadline - time.monotonic()
        if left <= 0:
            return None
        try:
            line = self.lines.get(timeout=left)
        except queue.Empty:
            return None
        if line is None:
            raise ProtocolError(f"{self.name}: process ended")
        self.log(f"{self.name} > {line}")
        return line

    def wait_for(self, pred, timeout, what):
        deadline = time.monotonic() + timeout
        seen = []
        while True:
            line = self.read(deadline)
            if line is None:
                raise ProtocolError(f"{self.name}: no {what} within {timeout}s (last lines: {seen[-5:]})")
            seen.append(line)
            if pred(line):
                return line, seen

    def close(self):
        try:
            self.proc.stdin.close()
        except OSError:
            pass
        try:
            self.proc.wait(timeout=3)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


class Referee:
    """varia's rules through `varia uci`: legal moves and outcome with history."""

    def __init__(self, varia, variant, log):
        self.p = Process([varia, "uci"], "referee", lambda s: None)
        self.p.send(f"setoption name UCI_Variant value {UCI_NAME[variant]}")

    def state(self, moves):
        """(fen, legal moves, outcome or None, error text or None) after `moves`."""
        self.p.send("position startpos" + (" moves " + " ".join(moves) if moves else ""))
        self.p.send("d")
        error = None
        fen = legal = None
        while True:
            line, _ = self.p.wait_for(lambda l: True, 30, "reply to d")
            if line.startswith("info string error"):
                error = line
            elif line.startswith("Fen: "):
                fen = line[5:]
            elif line.startswith("Legal moves:"):
                legal = line[len("Legal moves:"):].split()
            elif line.startswith("Outcome: "):
                o = line[len("Outcome: "):]
                return fen, legal, (None if o == "-" else o), error

    def close(self):
        self.p.close()


def normalize_move(text, legal, white_to_move):
    """Engine move text to UCI as varia writes it, or None."""
    t = text.strip().rstrip("+#!?")
    if t in ("O-O", "0-0", "O-O-O", "0-0-0"):
        rank = "1" if white_to_move else "8"
        target = ("g" if len(t) == 3 else "c") + rank
        for m in legal:
            if m[:2] == "e" + rank and m[2:4] == target:
                return m
        return None
    t = t.replace("=", "").replace("-", "").replace("x", "")
    if len(t) == 5:
        t = t[:4] + t[4].lower()
    if t in legal:
        return t
    # Castling written as the king taking its own rook (e1h1).
    for m in legal:
        if len(t) == 4 and m[:2] == t[:2] and t[2:] in ("h1", "a1", "h8", "a8") \
                and m[2:4] in ("g1", "c1", "g8", "c8") and m[2] == ("g" if t[2] == "h" else "c"):
            return m
    return None


class UciEngine:
    def __init__(self, name, cmd, variant, options, log):
        self.name = name
        self.p = Process(cmd, name, log)
        self.p.send("uci")
        _, lines = self.p.wait_for(lambda l: l == "uciok", 15, "uciok")
        combos = [l for l in lines if l.startswith("option name UCI_Variant")]
        want = UCI_NAME[variant]
        if variant != "chess":
            if not combos or f" var {want}" not in combos[0] + " ":
                raise ProtocolError(f"{name}: UCI_Variant does not offer {want}")
        if combos:
            self.p.send(f"setoption name UCI_Variant value {want}")
        for opt in options:
            k, _, v = opt.partition("=")
            self.p.send(f"setoption name {k.strip()} value {v.strip()}")
        self.sync()

    def sync(self):
        self.p.send("isready")
        self.p.wait_for(lambda l: l == "readyok", 30, "readyok")

    def new_game(self):
        self.p.send("ucinewgame")
        self.sync()

    def think(self, moves, wtime, btime, inc, timeout):
        pos = "position startpos" + (" moves " + " ".join(moves) if moves else "")
        self.p.send(pos)
        self.p.send(f"go wtime {max(1, int(wtime * 1000))} btime {max(1, int(btime * 1000))}"
                    f" winc {int(inc * 1000)} binc {int(inc * 1000)}")
        line, seen = self.p.wait_for(lambda l: l.startswith("bestmove"), timeout, "bestmove")
        errors = [l for l in seen if "error" in l.lower()]
        parts = line.split()
        return (parts[1] if len(parts) > 1 else "0000"), errors

    def opponent_moved(self, move):
        pass

    def close(self):
        try:
            self.p.send("quit")
        except ProtocolError:
            pass
        self.p.close()


class XboardEngine:
    def __init__(self, name, cmd, variant, options, log):
        self.name = name
        self.variant = variant
        self.p = Process(cmd, name, log)
        self.p.send("xboard")
        self.p.send("protover 2")
        self.features = {}
        deadline = time.monotonic() + 5
        # Collect features until done=1 (or a quiet 2 s for old engines).
        while True:
            line = self.p.read(min(deadline, time.monotonic() + 2))
            if line is None:
                break
            if line.startswith("feature "):
                for k, v in parse_features(line[8:]):
                    self.features[k] = v
                    if k not in ("done",):
                        self.p.send(f"accepted {k}")
                if self.features.get("done") == "1":
                    break
        variants = self.features.get("variants", "normal").split(",")
        self.usermove = self.features.get("usermove") == "1"
        self.ping = self.features.get("ping") == "1"
        if CECP_NAME[variant] not in variants and variant != "chess":
            raise ProtocolError(f"{name}: variants={','.join(variants)} has no {CECP_NAME[variant]}")
        for opt in options:
            k, _, v = opt.partition("=")
            self.p.send(f"option {k.strip()}={v.strip()}")
        self.sent = 0
        self.moves = []
        self.n_ping = 0

    def sync(self):
        if self.ping:
            self.n_ping += 1
            self.p.send(f"ping {self.n_ping}")
            self.p.wait_for(lambda l: l == f"pong {self.n_ping}", 30, "pong")

    def new_game(self, base=None, inc=None):
        self.p.send("new")
        if self.variant != "chess":
            self.p.send(f"variant {CECP_NAME[self.variant]}")
        self.p.send("easy")
        self.p.send("post")
        self.p.send("force")
        self.sent = 0
        self.moves = []
        self.sync()

    def set_level(self, base, inc):
        m, s = divmod(int(round(base)), 60)
        inc_text = str(int(inc)) if inc == int(inc) else f"{inc:g}"
        self.p.send(f"level 0 {m}:{s:02d} {inc_text}")

    def _send_move(self, m):
        self.p.send(("usermove " if self.usermove else "") + m)

    def think(self, moves, wtime, btime, inc, timeout):
        white = len(moves) % 2 == 0
        self.p.send("force")
        for m in moves[self.sent:]:
            self._send_move(m)
        self.sent = len(moves)
        ours, theirs = (wtime, btime) if white else (btime, wtime)
        self.p.send(f"time {max(1, int(ours * 100))}")
        self.p.send(f"otim {max(1, int(theirs * 100))}")
        self.p.send("go")
        errors = []
        deadline = time.monotonic() + timeout
        while True:
            line = self.p.read(deadline)
            if line is None:
                raise ProtocolError(f"{self.name}: no move within {timeout}s")
            if line.startswith("move "):
                self.sent += 1  # the engine has its own move on its board
                return line.split()[1], errors
            if line.startswith("Illegal move") or line.startswith("Error"):
                errors.append(line)
            if line.startswith("tellusererror"):
                errors.append(line)
            if line == "resign":
                return "resign", errors
            if line.split(" ", 1)[0] in ("1-0", "0-1", "1/2-1/2"):
                # A result claim instead of a move: the referee says the game
                # goes on (it is only asked for a move then), so it is false.
                return "claim", errors + [f"claims {line!r} but by varia's rules the game goes on"]

    def close(self):
        try:
            self.p.send("quit")
        except ProtocolError:
            pass
        self.p.close()


def parse_features(text):
    out = []
    i = 0
    while i < len(text):
        while i < len(text) and text[i] == " ":
            i += 1
        j = text.find("=", i)
        if j < 0:
            break
        key = text[i:j]
        if j + 1 < len(text) and text[j + 1] == '"':
            k = text.find('"', j + 2)
            k = len(text) if k < 0 else k
            out.append((key, text[j + 2:k]))
            i = k + 1
        else:
            k = text.find(" ", j)
            k = len(text) if k < 0 else k
            out.append((key, text[j + 1:k]))
            i = k
    return out


def engine_spec(spec, varia):
    if spec == "varia-uci":
        return "uci", [varia, "uci"]
    if spec == "varia-xboard":
        return "xboard", [varia, "xboard"]
    if spec == "fairy-stockfish":
        return "uci", ["/usr/games/fairy-stockfish"]
    if spec in ("fairymax", "sjeng", "sjaakii"):
        return "xboard", [f"/usr/games/{spec}"]
    if spec.startswith("uci:"):
        return "uci", shlex.split(spec[4:])
    if spec.startswith("xboard:"):
        return "xboard", shlex.split(spec[7:])
    sys.exit(f"unknown engine {spec!r}")


def start_engine(spec, label, varia, variant, options, log):
    kind, cmd = engine_spec(spec, varia)
    cls = UciEngine if kind == "uci" else XboardEngine
    return cls(label, cmd, variant, options, log)


def elo(w, d, l):
    n = w + d + l
    if n == 0:
        return None
    p = (w + d / 2) / n

    def to_elo(x):
        if x <= 0:
            return -math.inf
        if x >= 1:
            return math.inf
        return -400 * math.log10(1 / x - 1)

    var = (w * (1 - p) ** 2 + d * (0.5 - p) ** 2 + l * p ** 2) / n
    se = math.sqrt(var / n)
    return to_elo(p), to_elo(p - 1.96 * se), to_elo(p + 1.96 * se)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--variant", required=True)
    ap.add_argument("--engine1", default="varia-uci")
    ap.add_argument("--engine2", default="varia-xboard")
    ap.add_argument("--opt1", action="append", default=[], help="NAME=VALUE option for engine 1")
    ap.add_argument("--opt2", action="append", default=[], help="NAME=VALUE option for engine 2")
    ap.add_argument("--games", type=int, default=4)
    ap.add_argument("--tc", default="2+0.02", help="BASE+INC in seconds (default 2+0.02)")
    ap.add_argument("--random-plies", type=int, default=2,
                    help="random opening plies, shared by each pair of games (default 2)")
    ap.add_argument("--max-plies", type=int, default=400, help="adjudicate a draw after this many plies")
    ap.add_argument("--time-margin", type=float, default=1.0,
                    help="seconds a side may overrun its clock before losing on time (shared machine)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--varia", default=os.path.join(REPO, "target", "release", "varia"))
    ap.add_argument("--verbose", "-v", action="store_true", help="log every protocol line")
    ap.add_argument("--pgn", help="append the games to this PGN file")
    args = ap.parse_args()

    variant = VARIANT_ALIASES.get(args.variant.lower())
    if variant is None:
        sys.exit(f"unknown variant {args.variant!r}")
    base, _, inc = args.tc.partition("+")
    base, inc = float(base), float(inc or 0)
    log = (lambda s: print("   ", s, flush=True)) if args.verbose else (lambda s: None)
    rng = random.Random(args.seed)

    referee = Referee(args.varia, variant, log)
    label1, label2 = args.engine1, args.engine2
    if label1 == label2:
        label1, label2 = label1 + "#1", label2 + "#2"
    try:
        engines = [start_engine(args.engine1, label1, args.varia, variant, args.opt1, log),
                   start_engine(args.engine2, label2, args.varia, variant, args.opt2, log)]
    except ProtocolError as e:
        referee.close()
        print(f"error: cannot play {variant}: {e}", file=sys.stderr)
        sys.exit(2)
    wdl = [0, 0, 0]  # engine 1's wins, draws, losses
    problems = []
    opening = []
    print(f"{variant}: {label1} vs {label2}, {args.games} games, tc {base:g}+{inc:g}", flush=True)
    for g in range(args.games):
        if g % 2 == 0:
            # A fresh random opening for each pair of games.
            opening = []
            for _ in range(args.random_plies):
                _, legal, outcome, _ = referee.state(opening)
                if outcome or not legal:
                    break
                opening.append(rng.choice(sorted(legal)))
        white_idx = g % 2
        players = [engines[white_idx], engines[1 - white_idx]]
        for e in players:
            e.new_game()
            if isinstance(e, XboardEngine):
                e.set_level(base, inc)
        moves = list(opening)
        clock = [base, base]
        result = reason = None
        while result is None:
            fen, legal, outcome, err = referee.state(moves)
            if err:
                problems.append(f"game {g + 1}: referee: {err}")
            if outcome:
                result, reason = outcome.split(" ", 1)
                break
            if len(moves) >= args.max_plies:
                result, reason = "1/2-1/2", "max_plies"
                break
            side = len(moves) % 2
            e = players[side]
            t0 = time.monotonic()
            try:
                text, errors = e.think(moves, clock[0], clock[1], inc,
                                       timeout=clock[side] + args.time_margin + 30)
            except ProtocolError as ex:
                problems.append(f"game {g + 1}: {ex}")
                result, reason = ("0-1" if side == 0 else "1-0"), "protocol_error"
                break
            spent = time.monotonic() - t0
            for er in errors:
                problems.append(f"game {g + 1} ply {len(moves) + 1}: {e.name}: {er}")
            if text == "resign":
                result, reason = ("0-1" if side == 0 else "1-0"), "resignation"
                break
            if text == "claim":
                result, reason = ("0-1" if side == 0 else "1-0"), "false_claim"
                break
            clock[side] -= spent
            if clock[side] < -args.time_margin:
                result, reason = ("0-1" if side == 0 else "1-0"), "time_forfeit"
                break
            clock[side] += inc
            m = normalize_move(text, legal, side == 0)
            if m is None:
                problems.append(f"game {g + 1} ply {len(moves) + 1}: {e.name} played illegal {text!r} in {fen}")
                result, reason = ("0-1" if side == 0 else "1-0"), "illegal_move"
                break
            moves.append(m)
        white, black = players[0].name, players[1].name
        score1 = {"1-0": 1.0, "0-1": 0.0}.get(result, 0.5)
        if white_idx == 1:
            score1 = 1 - score1
        wdl[0 if score1 == 1 else 1 if score1 == 0.5 else 2] += 1
        print(f"game {g + 1}: {white} - {black}  {result} {reason}  ({len(moves)} plies)", flush=True)
        if args.pgn:
            with open(args.pgn, "a") as f:
                f.write(f'[White "{white}"]\n[Black "{black}"]\n[Result "{result}"]\n')
                f.write(f'[Variant "{variant}"]\n[Termination "{reason}"]\n\n')
                f.write(" ".join(moves) + f" {result}\n\n")
    for e in engines:
        e.close()
    referee.close()
    w, d, l = wdl
    print(f"{label1} vs {label2} ({variant}): +{w} ={d} -{l}  (W/D/L {w}/{d}/{l})")
    est = elo(w, d, l)
    if est:
        e, lo, hi = est
        print(f"Elo difference {e + 0.0:+.0f}, 95% interval [{lo:+.0f}, {hi:+.0f}]")
    if problems:
        print(f"{len(problems)} protocol problems:")
        for p in problems:
            print("  " + p)
        sys.exit(1)
    print("no protocol errors, no illegal moves")


if __name__ == "__main__":
    main()
