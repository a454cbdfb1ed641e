"""A tiny chess board for the fake test engines (standard library only).

It applies any move a GUI sends (castling, en passant, promotion) and
generates a subset of the legal moves (no castling, no en passant, promotion
to a queen only), which is enough for an engine that must only ever play
*some* legal move.
"""

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
FILES = "abcdefgh"

KNIGHT = [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)]
KING = [(1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1)]
ROOK = [(1, 0), (-1, 0), (0, 1), (0, -1)]
BISHOP = [(1, 1), (1, -1), (-1, 1), (-1, -1)]


def sq(name):
    return FILES.index(name[0]) + 8 * (int(name[1]) - 1)


def name(s):
    return FILES[s % 8] + str(s // 8 + 1)


class Board:
    def __init__(self, fen=START):
        parts = fen.split()
        self.b = ["."] * 64
        for r, row in enumerate(parts[0].split("/")):
            f = 0
            for c in row:
                if c.isdigit():
                    f += int(c)
                else:
                    self.b[8 * (7 - r) + f] = c
                    f += 1
        self.white = len(parts) < 2 or parts[1] == "w"
        self.ep = None
        if len(parts) > 3 and parts[3] != "-":
            self.ep = sq(parts[3])
        self.plies = 0

    def mine(self, p, white):
        return p != "." and p.isupper() == white

    def play(self, uci):
        """Applies a move in UCI (also king-takes-rook castling)."""
        f, t = sq(uci[0:2]), sq(uci[2:4])
        p = self.b[f]
        promo = uci[4:5]
        if p.upper() == "K" and self.b[t] != "." and self.mine(self.b[t], p.isupper()):
            # King takes own rook: castling in that notation.
            rook = t
            t = f + 2 if rook > f else f - 2
            self.b[rook] = "."
            self.b[(f + t) // 2] = "R" if p.isupper() else "r"
            self.b[f], self.b[t] = ".", p
        elif p.upper() == "K" and abs(t - f) == 2:
            rook_from = f + 3 if t > f else f - 4
            self.b[(f + t) // 2] = self.b[rook_from]
            self.b[rook_from] = "."
            self.b[f], self.b[t] = ".", p
        else:
            if p.upper() == "P" and t == self.ep and self.b[t] == "." and (t - f) % 8 != 0:
                self.b[t - 8 if p.isupper() else t + 8] = "."
            self.b[f], self.b[t] = ".", p
            if promo:
                self.b[t] = promo.upper() if p.isupper() else promo.lower()
        self.ep = (f + t) // 2 if p.upper() == "P" and abs(t - f) == 16 else None
        self.white = not self.white
        self.plies += 1

    def attacked(self, s, by_white):
        f0, r0 = s % 8, s // 8

        def at(df, dr):
            f, r = f0 + df, r0 + dr
            return self.b[8 * r + f] if 0 <= f < 8 and 0 <= r < 8 else None

        for df, dr in KNIGHT:
            if at(df, dr) == ("N" if by_white else "n"):
                return True
        for df, dr in KING:
            if at(df, dr) == ("K" if by_white else "k"):
                return True
        dr = -1 if by_white else 1
        for df in (-1, 1):
            if at(df, dr) == ("P" if by_white else "p"):
                return True
        for dirs, kinds in ((ROOK, "RQ"), (BISHOP, "BQ")):
            for df, dr in dirs:
                k = 1
                while True:
                    p = at(df * k, dr * k)
                    if p is None:
                        break
                    if p != ".":
                        if p.isupper() == by_white and p.upper() in kinds:
                            return True
                        break
                    k += 1
        return False

    def pseudo(self):
        w = self.white
        out = []
        for s in range(64):
            p = self.b[s]
            if not self.mine(p, w):
                continue
            f0, r0 = s % 8, s // 8
            kind = p.upper()

            def target(df, dr):
                f, r = f0 + df, r0 + dr
                return 8 * r + f if 0 <= f < 8 and 0 <= r < 8 else None

            if kind == "P":
                d = 1 if w else -1
                last = 7 if w else 0
                t = target(0, d)
                if t is not None and self.b[t] == ".":
                    out.append((s, t, "q" if t // 8 == last else ""))
                    t2 = target(0, 2 * d)
                    if r0 == (1 if w else 6) and self.b[t2] == ".":
                        out.append((s, t2, ""))
                for df in (-1, 1):
                    t = target(df, d)
                    if t is not None and self.b[t] != "." and not self.mine(self.b[t], w):
                        out.append((s, t, "q" if t // 8 == last else ""))
            elif kind in "NK":
                for df, dr in KNIGHT if kind == "N" else KING:
                    t = target(df, dr)
                    if t is not None and not self.mine(self.b[t], w):
                        out.append((s, t, ""))
            else:
                dirs = {"R": ROOK, "B": BISHOP, "Q": ROOK + BISHOP}[kind]
                for df, dr in dirs:
                    k = 1
                    while True:
                        t = target(df * k, dr * k)
                        if t is None or self.mine(self.b[t], w):
                            break
                        out.append((s, t, ""))
                        if self.b[t] != ".":
                            break
                        k += 1
        return out

    def legal(self):
        """Legal moves (subset) as UCI strings, sorted."""
        out = []
        for f, t, promo in self.pseudo():
            saved = (list(self.b), self.white, self.ep, self.plies)
            uci = name(f) + name(t) + promo
            self.play(uci)
            king = "K" if not self.white else "k"
            ks = self.b.index(king) if king in self.b else None
            ok = ks is None or not self.attacked(ks, self.white)
            self.b, self.white, self.ep, self.plies = saved
            if ok:
                out.append(uci)
        return sorted(out)

    def choose(self):
        """A legal move, varied by the move number; None if there is none."""
        moves = self.legal()
        if not moves:
            return None
        return moves[(self.plies * 7) % len(moves)]

    def san(self, uci):
        """Long-ish SAN: `Ng1f3`, `Qd1xd7`, `e4`, `exd5`, `e8=Q`."""
        f, t = sq(uci[0:2]), sq(uci[2:4])
        p = self.b[f].upper()
        capture = self.b[t] != "."
        promo = "=" + uci[4].upper() if len(uci) > 4 else ""
        if p == "P":
            if capture:
                return uci[0] + "x" + uci[2:4] + promo
            return uci[2:4] + promo
        return p + uci[0:2] + ("x" if capture else "") + uci[2:4]


def once(path):
    """True the first time it is called for `path` (across processes)."""
    if not path:
        return True
    try:
        fd = open(path, "x")
        fd.close()
        return True
    except FileExistsError:
        return False
