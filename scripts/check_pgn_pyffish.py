#!/usr/bin/env python3
"""Checks varia's PGN reader against pyffish (Fairy-Stockfish), for all six games.

    python3 scripts/check_pgn_pyffish.py games.pgn [more.pgn ...] [--variant V]
    python3 scripts/check_pgn_pyffish.py --run [--games 10] [--nodes 300] [--variant V ...]

Needs pyffish (pip install -r scripts/requirements.txt) and a release build of
varia (target/release/varia, or --varia PATH). Unlike check_match_pgn.py
(python-chess: chess, giveaway, three-check, atomic) this knows losers and
knightmate too.

For every PGN file:

1. The movetext of each game is read here, independently of varia: every SAN
   token is matched against pyffish.get_san() of the pyffish.legal_moves()
   of the position (from the [FEN] tag or the variant's start position);
   exactly one legal move must have that SAN (check marks `+`/`#` and
   annotations `!?` aside), so an illegal or ambiguous move is a failure.
   This gives pyffish's list of the game's positions.
2. The result is checked against how the game ended, where pyffish can
   judge it (by the `[Termination]` tag varia writes):
   - checkmate, stalemate, third_check, king_exploded, no_moves, bare_king:
     pyffish must have no legal moves in the final position (game_result /
     is_immediate_game_end) and score it as the `[Result]` tag says;
   - fifty_moves, repetition: is_optional_game_end over the whole game must
     say drawn; insufficient_material: has_insufficient_material for both;
   - time, adjudication, max_length, crash, illegal_move, `*` and others
     cannot be checked: counted as skipped-end (but if pyffish says the final
     position was already over by the rules, that is a failure);
   - no `[Termination]` tag (PGN from elsewhere): checked only when pyffish
     says the final position is over, otherwise skipped-end.
   The result token at the end of the movetext must equal the `[Result]` tag.
3. varia reads the same file (a snapshot of it) with
   `varia datagen --variant V --from FILE.pgn --skip-plies 0 --out OUT.csv`,
   which replays each game with varia's PGN reader and writes the quiet
   positions (side to move not in check, next move neither a capture nor a
   promotion) as `fen,result` rows followed by `# game N` (N counts every game
   of the file; games with result `*` get no block). Every position varia
   wrote for game N must be a position of pyffish's list for that game, in
   order (board, side to move, castling rights, three-check counters, and the
   en-passant square when both FENs give one), its result column must be
   White's score from the PGN result (1, 0.5, 0), and the positions must be
   exactly the quiet ones by pyffish's judgement (is the side to move in
   check: gives_check; capture: pyffish's SAN has `x`; promotion: 5-letter
   UCI). A start position from a [FEN] tag may be in or out either way.

FEN dialects: varia and pyffish write the same FENs for these games (as
scripts/crosscheck.py notes: knightmate's royal knight K/k and commoner M/m,
three-check's remaining-checks field `W+B` before the clocks). A [FEN] tag
for three-check without that field means 3+3 to varia (pyffish would assume
1+1), so it is added before pyffish sees it; Lichess's trailing `+W+B`
(checks given) is turned into the remaining-checks form.

A file still being written (a match in progress) may end in a cut-off game
(varia writes each game at once, ending in its result and a blank line): if
the last game has no result token and the file does not end in a blank line,
or the game has tags but no movetext yet, it is counted as truncated and left
out (of both readers: varia reads a snapshot without it). Anything else that
is wrong (a game without a result token elsewhere) is a failure.

--jobs N spreads the pyffish work over N processes (about 10 ms a move in
one: pyffish re-initialises its tables on every call).

With --run, first plays a short `varia match` per variant (in-process engines
at --nodes nodes per move, one game at a time, under `nice`) into a temporary
directory and checks those PGNs.

Prints a line per file and a table per variant (games, moves, positions
compared, ends checked/skipped, failures), then the failures, each naming the
file, the game number and its Round tag. Exit status: 0 if all agree, 1 on
any failure, 2 on a usage error (missing file, unknown variant, no varia).
"""

from __future__ import annotations

import argparse
import multiprocessing
import multiprocessing.pool
import os
import re
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field

from varia_pyffish import ALIASES, PYFFISH_NAME, REPO

try:
    import pyffish as sf
except ImportError:
    sys.stderr.write("check_pgn_pyffish.py needs pyffish: pip install -r scripts/requirements.txt\n")
    sys.exit(2)

# [Variant] tag (lower case) -> varia name. varia writes Giveaway, Three-check,
# Atomic, Losers, Knightmate and no tag for chess (crates/arena/src/pgn.rs).
# "Suicide" is deliberately absent: in PGN it means the FICS game, not ours.
PGN_VARIANTS = {
    "": "chess",
    "standard": "chess",
    "chess": "chess",
    "normal": "chess",
    "giveaway": "suicide",
    "three-check": "threecheck",
    "threecheck": "threecheck",
    "3check": "threecheck",
    "atomic": "atomic",
    "losers": "losers",
    "knightmate": "knightmate",
}
RESULTS = ("1-0", "0-1", "1/2-1/2", "*")
WHITE_SCORE = {"1-0": "1", "0-1": "0", "1/2-1/2": "0.5"}
# Endings decided by the final position alone.
POSITION_ENDINGS = {"checkmate", "stalemate", "third_check", "king_exploded", "no_moves", "bare_king"}
HISTORY_ENDINGS = {"fifty_moves", "repetition"}

SQUARE = re.compile(r"[a-h][1-8]")
PROMOTION_NO_EQUALS = re.compile(r"^([a-h](?:x[a-h])?[18])([QRBNKM])$")
TAG = re.compile(r'^\[\s*([A-Za-z0-9_]+)\s+"((?:[^"\\]|\\.)*)"\s*\]\s*$')
MOVE_NUMBER = re.compile(r"^\d+\.*")


class UsageError(Exception):
    """Exit status 2: a one-line message."""


# --------------------------------------------------------------------------
# PGN reading (independent of varia's reader, but splitting games the same
# way: a tag line after movetext starts the next game)


@dataclass
class PgnGame:
    number: int  # 1-based, as varia datagen's `# game N`
    line: int  # first line of the game
    tags: dict[str, str]
    sans: list[tuple[int, str]] = field(default_factory=list)  # (line, token)
    result_token: str | None = None  # game termination marker in the movetext
    errors: list[str] = field(default_factory=list)

    @property
    def result(self) -> str:
        """The result varia's reader uses: the movetext's, else the tag's."""
        return self.result_token or self.tags.get("Result", "*")

    def label(self, path: str) -> str:
        return f"{path}: game {self.number} (Round {self.tags.get('Round', '?')}, line {self.line})"


def unescape(value: str) -> str:
    return re.sub(r"\\(.)", r"\1", value)


def tokenize(game: PgnGame, movetext: list[tuple[int, str]]) -> None:
    """SAN tokens and the result token of a game's movetext lines."""
    depth = 0  # ( ) variation nesting
    in_comment = False
    for line_no, text in movetext:
        if text.startswith("%"):
            continue
        i = 0
        while i < len(text):
            c = text[i]
            if in_comment:
                j = text.find("}", i)
                if j < 0:
                    break
                in_comment = False
                i = j + 1
                continue
            if c.isspace():
                i += 1
            elif c == "{":
                in_comment = True
                i += 1
            elif c == ";":
                break
            elif c == "(":
                depth += 1
                i += 1
            elif c == ")":
                depth -= 1
                i += 1
            else:
                j = i
                while j < len(text) and not text[j].isspace() and text[j] not in "{}();":
                    j += 1
                token = text[i:j]
                i = j
                if depth > 0 or token.startswith("$"):
                    continue
                if token in RESULTS:
                    if game.result_token is not None:
                        game.errors.append(f"line {line_no}: second result token {token}")
                    game.result_token = token
                    continue
                san = MOVE_NUMBER.sub("", token)
                if not san:
                    continue
                if game.result_token is not None:
                    game.errors.append(f"line {line_no}: move {san} after the result token")
                game.sans.append((line_no, san))
    if in_comment:
        game.errors.append("comment not closed")
    if depth != 0:
        game.errors.append("unbalanced parentheses")


def read_pgn(text: str) -> list[PgnGame]:
    games: list[PgnGame] = []
    tags: dict[str, str] = {}
    movetext: list[tuple[int, str]] = []
    start = 0
    bad_tags: list[str] = []

    def flush() -> None:
        if not tags and not movetext:
            return
        g = PgnGame(len(games) + 1, start, dict(tags))
        g.errors += bad_tags
        tokenize(g, movetext)
        games.append(g)

    in_movetext = False
    for n, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if line.startswith("["):
            if in_movetext:
                flush()
                tags, movetext, bad_tags, in_movetext = {}, [], [], False
            if not tags:
                start = n
            m = TAG.match(line)
            if m:
                tags[m.group(1)] = unescape(m.group(2))
            else:
                bad_tags.append(f"line {n}: malformed tag {line}")
        elif line:
            if not tags and not movetext:
                start = n
            in_movetext = True
            movetext.append((n, line))
    flush()
    return games


def variant_of_tag(tags: dict[str, str]) -> str:
    name = tags.get("Variant", "")
    v = PGN_VARIANTS.get(name.strip().lower())
    if v is None:
        hint = " (PGN \"Suicide\" is the FICS game; varia's suicide is \"Giveaway\")" if name.lower() == "suicide" else ""
        raise UsageError(f"unknown [Variant \"{name}\"]{hint}; known: "
                         "none (chess), Giveaway, Three-check, Atomic, Losers, Knightmate")
    return v


# --------------------------------------------------------------------------
# FENs


@dataclass(frozen=True)
class FenKey:
    board: str
    turn: str
    castling: str
    checks: str  # three-check remaining checks, "" elsewhere
    ep: str

    def same_position(self, other: FenKey) -> bool:
        if (self.board, self.turn, self.castling, self.checks) != (
            other.board, other.turn, other.castling, other.checks
        ):
            return False
        # En passant only where both give a square (varia and Fairy-Stockfish
        # may differ on when to write one).
        return self.ep == "-" or other.ep == "-" or self.ep == other.ep


def fen_key(fen: str) -> FenKey:
    f = fen.split()
    checks = ""
    if len(f) >= 7 and re.fullmatch(r"\d\+\d", f[4]):
        checks = f[4]
    castling = "".join(sorted(f[2])) if len(f) > 2 else "-"
    return FenKey(f[0], f[1] if len(f) > 1 else "w", castling, checks, f[3] if len(f) > 3 else "-")


def to_pyffish_fen(variant: str, fen: str) -> str:
    """A FEN as varia reads it, in the form pyffish reads the same way."""
    f = fen.split()
    if variant == "threecheck":
        if len(f) >= 7 and re.fullmatch(r"\+\d\+\d", f[-1]):
            # Lichess: checks already given, trailing.
            given_w, given_b = (int(x) for x in f[-1][1:].split("+"))
            f = f[:4] + [f"{3 - given_w}+{3 - given_b}"] + f[4:-1]
        elif not (len(f) >= 5 and re.fullmatch(r"\d\+\d", f[4])):
            f = f[:4] + ["3+3"] + f[4:]
    return " ".join(f)


# --------------------------------------------------------------------------
# Replaying a game with pyffish


def norm_san(san: str) -> str:
    s = san.rstrip("+#!?")
    s = s.replace("0-0-0", "O-O-O").replace("0-0", "O-O")
    m = PROMOTION_NO_EQUALS.match(s)
    if m:
        s = f"{m.group(1)}={m.group(2)}"
    return s


@dataclass
class Replay:
    variant: str
    fens: list[str]  # pyffish FEN before each move, then the final one
    moves: list[str]  # UCI
    sans: list[str]  # pyffish's SAN of each move
    start_fen: str
    from_tag: bool = False  # the start position came from a [FEN] tag
    error: str | None = None  # the first move that did not resolve
    end: tuple[str, str | None] = ("skipped", None)  # check_end()
    quiet_flags: list[bool | None] = field(default_factory=list)  # quiet()

    def quiet(self) -> list[bool | None]:
        """Per ply: would varia datagen keep the position before it? None:
        can't tell (only asked for the start position when it came from a
        [FEN] tag)."""
        pfv = PYFFISH_NAME[self.variant]
        out: list[bool | None] = []
        for i, (fen, move, san) in enumerate(zip(self.fens, self.moves, self.sans)):
            if "x" in san or len(move) == 5:
                out.append(False)
            else:
                # (Not the + of the SAN of the move before: in atomic, pyffish's
                # get_san misses some checks that gives_check sees.)
                out.append(not sf.gives_check(pfv, fen, []))
        return out


def replay(variant: str, game: PgnGame) -> Replay:
    pfv = PYFFISH_NAME[variant]
    start = to_pyffish_fen(variant, game.tags["FEN"]) if "FEN" in game.tags else sf.start_fen(pfv)
    r = Replay(variant, [start], [], [], start)
    if "FEN" in game.tags and sf.validate_fen(start, pfv) != sf.FEN_OK:
        r.error = f"pyffish rejects the [FEN] tag {game.tags['FEN']!r}"
        return r
    fen = start
    for ply, (line, token) in enumerate(game.sans):
        where = f"ply {ply + 1} ({move_number(fen)}{token}, line {line})"
        want = norm_san(token)
        legal = sf.legal_moves(pfv, fen, [])
        if not legal:
            verdict = result_of(sf.game_result(pfv, fen, []), fen)
            r.error = f"{where}: pyffish has no legal moves, the game is over ({verdict}) in {fen}"
            return r
        squares = SQUARE.findall(want)
        first = [m for m in legal if squares and m[2:4] == squares[-1]]
        rest = [m for m in legal if m not in first]
        sans = {m: sf.get_san(pfv, fen, m) for m in first}
        hits = [m for m in first if norm_san(sans[m]) == want]
        if not hits:
            sans.update({m: sf.get_san(pfv, fen, m) for m in rest})
            hits = [m for m in rest if norm_san(sans[m]) == want]
        if len(hits) != 1:
            # Without the disambiguating file/rank, which moves would fit?
            loose = [m for m in sans if re.sub(r"^([A-Z])[a-h]?[1-8]?(?=x?[a-h][1-8])", r"\1",
                                                norm_san(sans[m])) == want]
            if hits:
                what = f"ambiguous: {', '.join(hits)} all have SAN {want}"
            elif len(loose) > 1:
                what = f"ambiguous: {', '.join(sans[m] for m in loose)} all fit"
            else:
                near = sorted(sans[m] for m in first) or sorted(sans.values())[:40]
                what = f"not a legal move (pyffish's SANs{' to ' + squares[-1] if first else ''}: {' '.join(near)})"
            r.error = f"{where}: {what} in {fen}"
            return r
        m = hits[0]
        r.moves.append(m)
        r.sans.append(sans[m])
        fen = sf.get_fen(pfv, fen, [m])
        r.fens.append(fen)
    return r


def analyse(task: tuple[str, PgnGame]) -> Replay:
    """All the pyffish work for one game (run in worker processes with --jobs)."""
    variant, game = task
    r = replay(variant, game)
    r.from_tag = "FEN" in game.tags
    if not r.error:
        r.end = check_end(r, game)
        r.quiet_flags = r.quiet()
        if r.quiet_flags and r.from_tag:
            r.quiet_flags[0] = None
    return r


def move_number(fen: str) -> str:
    f = fen.split()
    return f"{f[-1]}{'.' if f[1] == 'w' else '...'} "


def result_of(value: int, fen: str) -> str:
    """pyffish's score for the side to move of `fen` as a result."""
    if value == 0:
        return "1/2-1/2"
    white_to_move = fen.split()[1] == "w"
    return "1-0" if (value > 0) == white_to_move else "0-1"


def check_end(r: Replay, game: PgnGame) -> tuple[str, str | None]:
    """('checked' | 'skipped', failure or None): does the result tag fit the
    way the game ended?"""
    pfv = PYFFISH_NAME[r.variant]
    fen = r.fens[-1]
    tag = game.tags.get("Result", "*")
    why = game.tags.get("Termination")
    over = not sf.legal_moves(pfv, fen, [])
    ended, value = sf.is_immediate_game_end(pfv, fen, [])
    if over and not ended:
        value = sf.game_result(pfv, fen, [])
    verdict = result_of(value, fen) if over or ended else None
    if why in POSITION_ENDINGS or (why is None and verdict is not None):
        if verdict is None:
            return "checked", f"ended by {why or 'the rules'} ({tag}), but pyffish plays on in {fen}"
        if verdict != tag:
            return "checked", f"{why or 'final position'}: result {tag}, pyffish says {verdict} in {fen}"
        return "checked", None
    if verdict is not None:
        return "checked", f"ended by {why} ({tag}), but pyffish says the game was already over ({verdict}) in {fen}"
    if why in HISTORY_ENDINGS:
        optional, value = sf.is_optional_game_end(pfv, r.start_fen, r.moves)
        if not optional:
            return "checked", f"ended by {why}, but pyffish sees no {why} draw in {fen}"
        if tag != "1/2-1/2" or value != 0:
            return "checked", f"{why}: result {tag}, pyffish says {result_of(value, fen)}"
        return "checked", None
    if why == "insufficient_material":
        white, black = sf.has_insufficient_material(pfv, fen, [])
        if not (white and black):
            return "checked", f"ended by insufficient material, pyffish disagrees in {fen}"
        if tag != "1/2-1/2":
            return "checked", f"insufficient material scored {tag}"
        return "checked", None
    return "skipped", None


# --------------------------------------------------------------------------
# varia datagen


def run_datagen(varia: str, variant: str, pgn: str, out: str) -> tuple[dict[int, list[tuple[int, str, str]]], str | None, str]:
    """varia's positions per game number: (csv line, fen, result); an error
    message if datagen failed; its summary line."""
    cmd = ["nice", "-n", "10", varia, "datagen", "--variant", variant, "--from", pgn,
           "--skip-plies", "0", "--out", out]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        msg = (proc.stderr.strip() or proc.stdout.strip() or f"exit {proc.returncode}").splitlines()[-1]
        return {}, f"varia datagen failed: {msg}", ""
    games: dict[int, list[tuple[int, str, str]]] = {}
    pending: list[tuple[int, str, str]] = []
    with open(out, encoding="utf-8") as f:
        lines = f.read().splitlines()
    if len(lines) < 2 or not lines[0].startswith("# varia datagen") or lines[1] != "fen,result":
        return {}, f"varia datagen wrote an unexpected header: {lines[:2]}", ""
    for n, line in enumerate(lines[2:], 3):
        m = re.fullmatch(r"# game (\d+)", line)
        if m:
            games[int(m.group(1))] = pending
            pending = []
        elif line.startswith("#"):
            return {}, f"{out}:{n}: unexpected comment {line!r}", ""
        else:
            fen, _, result = line.rpartition(",")
            pending.append((n, fen, result))
    if pending:
        return {}, f"{out}: {len(pending)} positions after the last '# game' line", ""
    return games, None, proc.stdout.strip()


def compare_positions(r: Replay, varia_rows: list[tuple[int, str, str]], pgn_result: str) -> list[str]:
    """Compares varia's positions of one game with pyffish's; returns the
    problems found (at most one of each kind)."""
    problems: list[str] = []
    want = WHITE_SCORE[pgn_result]
    for n, fen, result in varia_rows:
        if result != want:
            problems.append(f"csv line {n}: result column {result}, but the PGN result {pgn_result} means {want}")
            break
    keys = [fen_key(f) for f in r.fens[:-1]]  # the positions a move was played from
    quiet = list(r.quiet_flags)
    # In order: each varia position at a ply after the previous one's,
    # preferring a quiet ply when a position occurs more than once.
    matched: list[int] = []
    j = 0
    for n, fen, _ in varia_rows:
        k = fen_key(fen)
        same = [i for i in range(j, len(keys)) if keys[i].same_position(k)]
        if not same:
            anywhere = [i for i in range(len(keys)) if keys[i].same_position(k)]
            if anywhere:
                problems.append(f"csv line {n}: varia's position {fen} is out of order (pyffish: ply {anywhere[0] + 1})")
            else:
                after = f" after ply {matched[-1] + 1} ({r.sans[matched[-1]]})" if matched else ""
                problems.append(f"csv line {n}: varia's position {fen}{after} is not a position of the game")
            return problems
        at = next((i for i in same if quiet[i] is not False), same[0])
        matched.append(at)
        j = at + 1
    # Exactly the quiet positions.
    got = set(matched)
    for i, q in enumerate(quiet):
        if q is True and i not in got:
            problems.append(f"ply {i + 1} ({r.sans[i]}) from {r.fens[i]}: quiet by pyffish, "
                            "but not among varia's positions")
            break
        if q is False and i in got:
            problems.append(f"ply {i + 1} ({r.sans[i]}) from {r.fens[i]}: among varia's positions, "
                            "but not quiet by pyffish")
            break
    return problems


# --------------------------------------------------------------------------
# Files and report


@dataclass
class Tally:
    files: int = 0
    games: int = 0
    truncated: int = 0
    moves: int = 0
    positions: int = 0
    ends_checked: int = 0
    ends_skipped: int = 0
    truncated_at: str = ""
    failures: list[str] = field(default_factory=list)

    def add(self, other: Tally) -> None:
        for k in ("files", "games", "truncated", "moves", "positions", "ends_checked", "ends_skipped"):
            setattr(self, k, getattr(self, k) + getattr(other, k))
        self.failures += other.failures


def truncated_tail(text: str, games: list[PgnGame]) -> bool:
    """Is the last game clearly cut off (a file still being written)? varia
    writes a game in one piece ending in its result and a blank line, so: the
    last game has no result token, and the file stops inside the game (no
    blank line at the end) or right after its tags (no movetext yet)."""
    if not games:
        return False
    last = games[-1]
    return last.result_token is None and (not text.endswith("\n\n") or not last.sans)


def load(path: str, forced: str | None) -> tuple[str, list[PgnGame], str]:
    """The file's text, games and variant (UsageError if it can't be checked)."""
    if not os.path.isfile(path):
        raise UsageError(f"{path}: no such file")
    with open(path, encoding="utf-8", errors="replace") as f:
        text = f.read()
    games = read_pgn(text)
    variant = forced
    for g in games:
        try:
            v = variant_of_tag(g.tags)
        except UsageError as e:
            raise UsageError(f"{path}: game {g.number} (line {g.line}): {e}") from None
        if variant is None:
            variant = v
    return text, games, variant or "chess"


def check_file(path: str, text: str, games: list[PgnGame], variant: str, varia: str, tmp: str,
               pool: multiprocessing.pool.Pool | None) -> Tally:
    t = Tally(files=1)
    cut = truncated_tail(text, games)
    if cut:
        last = games.pop()
        t.truncated = 1
        t.truncated_at = f"game {last.number}, line {last.line}"
        # The snapshot varia reads ends where the cut-off game starts.
        text = "\n".join(text.splitlines()[: last.line - 1]) + "\n"
    base = os.path.join(tmp, f"f{abs(hash(path))}_{len(os.listdir(tmp))}")
    snapshot, out = base + ".pgn", base + ".csv"
    with open(snapshot, "w", encoding="utf-8") as f:
        f.write(text)
    varia_games, datagen_error, datagen_line = run_datagen(varia, variant, snapshot, out)
    if datagen_error:
        t.failures.append(f"{path}: {datagen_error.replace(snapshot, path)}")
    else:
        m = re.search(r"from (\d+) games .*\((\d+) skipped\)", datagen_line)
        if not m or int(m.group(1)) + int(m.group(2)) != len(games):
            t.failures.append(f"{path}: varia read {m and int(m.group(1)) + int(m.group(2))} games, "
                              f"this script {len(games)} ({datagen_line!r})")
        extra = sorted(set(varia_games) - {g.number for g in games})
        if extra:
            t.failures.append(f"{path}: varia wrote positions for games {extra} that are not in the file")
    tasks = [(variant, g) for g in games]
    analysed = pool.imap(analyse, tasks) if pool else map(analyse, tasks)
    for g in games:
        t.games += 1
        label = g.label(path)
        fails: list[str] = []
        gv = variant_of_tag(g.tags)
        if gv != variant:
            fails.append(f"[Variant] says {gv}, the file is read as {variant}")
        fails += g.errors
        tag = g.tags.get("Result")
        if tag not in RESULTS:
            fails.append(f"[Result \"{tag}\"] missing or not a result")
        if g.result_token is None:
            fails.append("no result token at the end of the movetext")
        elif tag is not None and g.result_token != tag:
            fails.append(f"movetext ends {g.result_token}, but [Result \"{tag}\"]")
        r = next(analysed)
        t.moves += len(r.moves)
        if r.error:
            fails.append(r.error)
        else:
            kind, problem = r.end
            if kind == "checked":
                t.ends_checked += 1
            else:
                t.ends_skipped += 1
            if problem:
                fails.append(problem)
            if not datagen_error:
                rows = varia_games.get(g.number)
                want = WHITE_SCORE.get(g.result)
                if want is None:
                    if rows is not None:
                        fails.append(f"result {g.result}: varia should skip the game, but wrote {len(rows)} positions")
                elif rows is None:
                    fails.append("varia wrote no '# game' block for it")
                else:
                    t.positions += len(rows)
                    fails += compare_positions(r, rows, g.result)
        t.failures += [f"{label}: {f}" for f in fails]
    return t


def run_matches(varia: str, variants: list[str], games: int, nodes: int, directory: str) -> list[tuple[str, str]]:
    out = []
    for v in variants:
        pgn = os.path.join(directory, f"match-{v}.pgn")
        cmd = ["nice", "-n", "10", varia, "match", "--variant", v, "--engine", "name=a",
               "--engine", "name=b", "--each", f"nodes={nodes}", "--games", str(games),
               "--concurrency", "1", "--quiet", "--pgn", pgn]
        print(f"playing: {' '.join(cmd[3:])}", file=sys.stderr, flush=True)
        proc = subprocess.run(cmd, cwd=REPO, capture_output=True, text=True)
        if proc.returncode != 0:
            raise UsageError(f"varia match --variant {v} failed: {(proc.stderr.strip() or '?').splitlines()[-1]}")
        out.append((pgn, v))
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("files", nargs="*", help="PGN files")
    ap.add_argument("--variant", action="append",
                    help="with files: read them as this game (default: from the [Variant] tags); "
                    "with --run: play only this game (repeatable)")
    ap.add_argument("--run", action="store_true", help="play a short varia match per variant first and check its PGN")
    ap.add_argument("--games", type=int, default=10, help="--run: games per variant (default 10)")
    ap.add_argument("--nodes", type=int, default=300, help="--run: nodes per move (default 300)")
    ap.add_argument("--varia", default=os.path.join(REPO, "target", "release", "varia"),
                    help="varia binary (default target/release/varia)")
    ap.add_argument("--jobs", type=int, default=1,
                    help="processes replaying games with pyffish (default 1; pyffish costs "
                    "milliseconds per call, about 10 ms a move)")
    ap.add_argument("--max-report", type=int, default=30, help="failures listed (default 30; 0: all)")
    args = ap.parse_args()
    try:
        variants = []
        for name in args.variant or []:
            v = ALIASES.get(name.lower(), name.lower())
            if v not in PYFFISH_NAME:
                raise UsageError(f"unknown variant {name!r} (valid: {', '.join(PYFFISH_NAME)})")
            variants.append(v)
        if not args.files and not args.run:
            raise UsageError("give PGN files or --run")
        if args.files and len(variants) > 1:
            raise UsageError("with files, give at most one --variant")
        if not (os.path.isfile(args.varia) and os.access(args.varia, os.X_OK)):
            raise UsageError(f"no varia binary at {args.varia} (pass --varia)")
        forced = variants[0] if args.files and variants else None
        loaded = [(p, *load(p, forced)) for p in args.files]
    except UsageError as e:
        print(f"check_pgn_pyffish: {e}", file=sys.stderr)
        return 2

    t0 = time.time()
    per_variant: dict[str, Tally] = {}
    total = Tally()
    with tempfile.TemporaryDirectory(prefix="check_pgn_pyffish.") as tmp:
        if args.run:
            try:
                played = run_matches(args.varia, variants or list(PYFFISH_NAME), args.games, args.nodes, tmp)
            except UsageError as e:
                print(f"check_pgn_pyffish: {e}", file=sys.stderr)
                return 2
            for pgn, v in played:
                loaded.append((pgn, *load(pgn, v)))
        pool = multiprocessing.Pool(args.jobs) if args.jobs > 1 else None
        for path, text, games, variant in loaded:
            t = check_file(path, text, games, variant, args.varia, tmp, pool)
            per_variant.setdefault(variant, Tally()).add(t)
            total.add(t)
            trunc = f", truncated final game left out ({t.truncated_at})" if t.truncated else ""
            print(f"{path} [{variant}]: {t.games} games, {t.moves} moves, {t.positions} positions compared, "
                  f"{t.ends_checked} ends checked, {t.ends_skipped} skipped-end{trunc}, "
                  f"{len(t.failures)} failures", flush=True)
        print()
        print(f"{'variant':<11} {'files':>5} {'games':>6} {'moves':>7} {'positions':>9} "
              f"{'ends':>5} {'skip-end':>8} {'trunc':>5} {'failures':>8}")
        for v in PYFFISH_NAME:
            if v in per_variant:
                t = per_variant[v]
                print(f"{v:<11} {t.files:>5} {t.games:>6} {t.moves:>7} {t.positions:>9} "
                      f"{t.ends_checked:>5} {t.ends_skipped:>8} {t.truncated:>5} {len(t.failures):>8}")
        shown = total.failures if args.max_report <= 0 else total.failures[: args.max_report]
        if shown:
            print()
        for f in shown:
            print("FAIL", f)
        if len(shown) < len(total.failures):
            print(f"... {len(total.failures) - len(shown)} more (--max-report 0 shows all)")
        print(f"\n{'FAIL' if total.failures else 'OK'}: {total.games} games, {total.moves} moves, "
              f"{total.positions} positions compared, {len(total.failures)} failures "
              f"({time.time() - t0:.0f}s, pyffish {'.'.join(map(str, sf.version()))})")
    if pool:
        pool.close()
        pool.join()
    return 1 if total.failures else 0


if __name__ == "__main__":
    sys.exit(main())
