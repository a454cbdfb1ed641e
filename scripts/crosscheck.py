#!/usr/bin/env python3
"""Cross-check varia's move generator against Fairy-Stockfish (pyffish).

For each of the six games:

1. Random playouts from the start position, played by pyffish, give at least
   --positions distinct positions (uniform, capture-biased and "special-move"
   biased playouts, so that endgames, promotions, castling and en passant all
   turn up; finished games are kept too, to check the game-over verdicts).
2. All of them go through ONE `varia moves --variant V --depth D` process;
   for every position the legal-move sets and the game-over verdict of varia
   and pyffish are compared.
3. For --perft-positions of them (positions with at most --perft-max-moves
   legal moves, half of them chosen among positions where castling, en
   passant or a promotion is available), perft(D) is computed in Python with
   pyffish (which has no perft) and compared with varia's perft column. A
   perft mismatch is walked down to the first position whose move lists
   differ.

Exit status: 0 if everything agrees, 1 on any mismatch, 2 on a usage or setup
error. Run `cargo build --release -p varia` first (or pass --varia).

Names and dialects
------------------
- varia's suicide is pyffish's "giveaway" (pyffish's "suicide" is the FICS
  game: no castling, stalemate decided by piece count, which is not ours);
  threecheck is "3check"; the other four have the same names.
- pyffish writes and reads threecheck FENs with the X-FEN remaining-checks
  field `W+B` between the en-passant field and the halfmove clock, as varia
  does. Without the field pyffish assumes 1+1 (varia 3+3), so every FEN here
  carries it: they all come from pyffish's own get_fen, starting from its
  start FEN, which includes `3+3`; to_varia_fen() insists on it.
- Knightmate: both write the royal knight as K/k and the commoner as M/m, and
  promotions to a commoner as `m`.
- Castling moves: pyffish (outside Chess960 mode) writes e1g1/e1c1 like varia;
  normalize_pyffish_move() would turn a king-takes-rook form into that, should
  a future pyffish use it. Castling fields in Shredder/X-FEN file-letter form
  are skipped with a count (none arise from the standard start position).

Known, documented rule differences (skipped explicitly, with a count)
----------------------------------------------------------------------
- Threecheck FENs in which the side to move has 0 checks left: RULES.md
  treats them as over (no moves, perft 0); Fairy-Stockfish keeps generating
  moves there. They cannot arise in play (only the side that just moved can
  reach 0, and the game ends at once), so playouts never produce them; any
  that turns up is counted as "skipped" rather than compared.

Not compared (neither side's answer includes them)
--------------------------------------------------
- Draws by insufficient material, the 50-move rule and repetition: `varia
  moves` reports only what the position decides by itself, and pyffish's
  legal_moves/game_result ignore them too (is_optional_game_end is not used).

pyffish speed
-------------
pyffish re-initialises its piece tables on every call (UCI::init_variant in
buildPosition), so each call costs milliseconds. Playouts therefore ask for
the legal moves only of positions not seen before, the Python perft counts
the last ply by the length of the move list, and perft roots are limited to
positions with few moves (--perft-max-moves); the work is spread over --jobs
processes.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import random
import re
import subprocess
import sys
import time
from dataclasses import dataclass, field

from varia_pyffish import ALIASES, PYFFISH_NAME, REPO

try:
    import pyffish as sf
except ImportError:
    sys.stderr.write(
        "crosscheck.py needs pyffish (Fairy-Stockfish's Python binding):\n"
        "    pip install -r scripts/requirements.txt\n"
    )
    sys.exit(2)


CASTLING_FIELD = re.compile(r"^(-|K?Q?k?q?)$")
CHECKS_FIELD = re.compile(r"^[0-3]\+[0-3]$")


class Skip(Exception):
    """A position deliberately left out of the comparison (reason in args[0])."""


# --------------------------------------------------------------------------
# FEN helpers


def board_of(fen: str) -> dict[str, str]:
    """The piece letters of a FEN's board field, by square name."""
    board = {}
    for i, rank_text in enumerate(fen.split(" ", 1)[0].split("/")):
        rank = str(8 - i)
        file = 0
        for c in rank_text:
            if c.isdigit():
                file += int(c)
            else:
                board["abcdefgh"[file] + rank] = c
                file += 1
    return board


def position_key(fen: str) -> str:
    """The FEN without its move counters: what makes a position distinct."""
    fields = fen.split()
    counters = 2 if len(fields) >= 6 else 0
    return " ".join(fields[: len(fields) - counters])


def to_varia_fen(variant: str, fen: str) -> str:
    """pyffish's FEN in varia's dialect (raises Skip for the documented cases)."""
    fields = fen.split()
    if not CASTLING_FIELD.match(fields[2]):
        raise Skip("castling field in Shredder/X-FEN form")
    if variant == "threecheck":
        if len(fields) != 7 or not CHECKS_FIELD.match(fields[4]):
            raise ValueError(f"pyffish threecheck FEN without a W+B field: {fen}")
        white, black = (int(x) for x in fields[4].split("+"))
        if (white if fields[1] == "w" else black) == 0:
            raise Skip("threecheck: side to move has 0 checks left (FSF plays on)")
    elif len(fields) != 6:
        raise ValueError(f"unexpected pyffish FEN: {fen}")
    # Same dialect otherwise (board letters, KQkq castling, W+B checks field).
    return " ".join(fields)


def normalize_pyffish_move(board: dict[str, str], move: str) -> str:
    """pyffish's UCI move in varia's notation (castling as king two squares)."""
    frm, to = move[:2], move[2:4]
    piece, target = board.get(frm), board.get(to)
    if (
        piece in ("K", "k")
        and target is not None
        and target == ("R" if piece == "K" else "r")
        and frm[1] == to[1]
    ):
        # King takes own rook: 960-style castling.
        return frm + ("g" if to[0] > frm[0] else "c") + frm[1]
    return move


def move_tags(board: dict[str, str], stm: str, move: str) -> set[str]:
    """What a move is: capture, ep, promotion, castle, pawn."""
    frm, to = move[:2], move[2:4]
    piece = board.get(frm, "")
    target = board.get(to)
    tags = set()
    if target is not None and target.isupper() != (stm == "w"):
        tags.add("capture")
    if piece in ("P", "p"):
        tags.add("pawn")
        if frm[0] != to[0] and target is None:
            tags.update(("ep", "capture"))
    if len(move) == 5:
        tags.add("promotion")
    if piece in ("K", "k") and frm[0] == "e" and to[0] in "cg" and frm[1] == to[1] in "18":
        tags.add("castle")
    return tags


def result_string(value: int, stm: str) -> str:
    """pyffish's side-to-move score as a game result."""
    if value == 0:
        return "1/2-1/2"
    stm_wins = value > 0
    return "1-0" if stm_wins == (stm == "w") else "0-1"


# --------------------------------------------------------------------------
# Position generation (pyffish random playouts)


@dataclass
class Record:
    fen: str  # pyffish's FEN
    moves: list[str]  # pyffish's legal moves (normalised)
    result: str | None  # None while the game goes on
    special: bool  # castling, en passant or a promotion is legal


STYLES = ("uniform", "captures", "special", "pawns")


def choose(rng: random.Random, style: str, fen: str, moves: list[str]) -> str:
    if style == "uniform":
        return rng.choice(moves)
    board = board_of(fen)
    stm = fen.split()[1]
    tagged = [(m, move_tags(board, stm, m)) for m in moves]

    def pick(tag: str, p: float) -> str | None:
        hits = [m for m, t in tagged if tag in t]
        return rng.choice(hits) if hits and rng.random() < p else None

    if style == "captures":
        return pick("capture", 0.8) or rng.choice(moves)
    if style == "special":
        return (
            pick("castle", 1.0)
            or pick("ep", 1.0)
            or pick("promotion", 1.0)
            or pick("pawn", 0.4)
            or pick("capture", 0.5)
            or rng.choice(moves)
        )
    # pawns: push toward promotions, trade off pieces now and then
    return pick("promotion", 1.0) or pick("pawn", 0.6) or pick("capture", 0.3) or rng.choice(moves)


def describe(pfv: str, fen: str) -> Record:
    """pyffish's view of a position (one call, two if the game is over)."""
    board = board_of(fen)
    stm = fen.split()[1]
    moves = [normalize_pyffish_move(board, m) for m in sf.legal_moves(pfv, fen, [])]
    # pyffish's legal generation returns nothing once the variant's own rule
    # has ended the game; game_result then tells how (or mate/stalemate).
    result = None if moves else result_string(sf.game_result(pfv, fen, []), stm)
    special = any(move_tags(board, stm, m) & {"castle", "ep", "promotion"} for m in moves)
    return Record(fen, moves, result, special)


def generate(task: tuple[str, int, str]) -> tuple[str, list[Record], int]:
    """At least `count` distinct positions of `variant` from random playouts."""
    variant, count, seed = task
    pfv = PYFFISH_NAME[variant]
    rng = random.Random(f"{seed}:{variant}")
    start = sf.start_fen(pfv)
    seen: dict[str, Record] = {}
    playouts = 0
    while len(seen) < count:
        playouts += 1
        style = rng.choice(STYLES)
        length = rng.choice((rng.randint(1, 30), rng.randint(20, 120), rng.randint(60, 250)))
        fen = start
        for _ in range(length + 1):
            key = position_key(fen)
            rec = seen.get(key)
            if rec is None:
                rec = seen[key] = describe(pfv, fen)
                if len(seen) >= count:
                    break
            if not rec.moves:
                break
            fen = sf.get_fen(pfv, fen, [choose(rng, style, fen, rec.moves)])
    return variant, list(seen.values()), playouts


# --------------------------------------------------------------------------
# Perft in Python over pyffish


def pyffish_perft(pfv: str, fen: str, depth: int, prefix: list[str] | None = None) -> int:
    """Legal move sequences of `depth` plies after `prefix`, counting the last
    ply by the length of the move list (games that ended have none)."""
    prefix = prefix or []
    if depth == 0:
        return 1
    moves = sf.legal_moves(pfv, fen, prefix)
    if depth == 1:
        return len(moves)
    return sum(pyffish_perft(pfv, fen, depth - 1, prefix + [m]) for m in moves)


def perft_task(task: tuple[str, str, int]) -> tuple[str, str, int]:
    variant, fen, depth = task
    return variant, fen, pyffish_perft(PYFFISH_NAME[variant], fen, depth)


# --------------------------------------------------------------------------
# varia


def run_varia(varia: str, variant: str, fens: list[str], depth: int) -> list[list[str]]:
    """One `varia moves` process over all FENs; its tab-separated columns."""
    cmd = [varia, "moves", "--variant", variant]
    if depth > 0:
        cmd += ["--depth", str(depth)]
    proc = subprocess.run(
        cmd, input="".join(f + "\n" for f in fens), capture_output=True, text=True
    )
    if proc.returncode not in (0, 1):
        raise SystemExit(f"{' '.join(cmd)} failed ({proc.returncode}): {proc.stderr.strip()}")
    lines = proc.stdout.splitlines()
    if len(lines) != len(fens):
        raise SystemExit(f"varia printed {len(lines)} lines for {len(fens)} FENs")
    rows = [line.split("\t") for line in lines]
    for fen, row in zip(fens, rows):
        if row[0] != fen:
            raise SystemExit(f"varia answered {row[0]!r} for {fen!r}")
    return rows


def localize(varia: str, variant: str, fen: str, depth: int) -> list[str]:
    """Walks a perft mismatch down to the first position whose move lists
    differ; returns report lines."""
    pfv = PYFFISH_NAME[variant]
    path: list[str] = []
    while depth > 0:
        vfen = to_varia_fen(variant, fen)
        row = run_varia(varia, variant, [vfen], 0)[0]
        rec = describe(pfv, fen)
        if len(row) < 3:
            return [f"    after {' '.join(path) or '(root)'}: varia rejects {vfen}: {row[1]}"]
        vmoves = set(row[1].split())
        if vmoves != set(rec.moves):
            return [
                f"    first difference after {' '.join(path) or '(root)'}: {vfen}",
                f"      only in varia:   {' '.join(sorted(vmoves - set(rec.moves))) or '-'}",
                f"      only in pyffish: {' '.join(sorted(set(rec.moves) - vmoves)) or '-'}",
            ]
        if depth == 1:
            break
        children = [sf.get_fen(pfv, fen, [m]) for m in rec.moves]
        vrows = run_varia(varia, variant, [to_varia_fen(variant, c) for c in children], depth - 1)
        for m, child, vrow in zip(rec.moves, children, vrows):
            if len(vrow) < 4 or int(vrow[3]) != pyffish_perft(pfv, child, depth - 1):
                path.append(m)
                fen = child
                break
        else:
            return [f"    children agree after {' '.join(path) or '(root)'}; FEN round trip?"]
        depth -= 1
    return [f"    could not localise below {' '.join(path) or '(root)'}"]


# --------------------------------------------------------------------------
# Comparison and report


@dataclass
class Report:
    variant: str
    generated: int = 0
    playouts: int = 0
    over: int = 0
    special: int = 0
    compared: int = 0
    skipped: dict[str, int] = field(default_factory=dict)
    move_mismatches: list[str] = field(default_factory=list)
    outcome_mismatches: list[str] = field(default_factory=list)
    varia_errors: list[str] = field(default_factory=list)
    perft_compared: int = 0
    perft_nodes: int = 0
    perft_mismatches: list[str] = field(default_factory=list)

    def failures(self) -> int:
        return (
            len(self.move_mismatches)
            + len(self.outcome_mismatches)
            + len(self.varia_errors)
            + len(self.perft_mismatches)
        )


def compare(report: Report, records: list[Record], rows: list[list[str]]) -> dict[str, int]:
    """Compares moves and outcomes; returns varia's perft by pyffish FEN."""
    perfts = {}
    for rec, row in zip(records, rows):
        vfen = row[0]
        if len(row) == 2:
            report.varia_errors.append(f"  {vfen}\n    varia: {row[1]}")
            continue
        report.compared += 1
        vmoves = set(row[1].split())
        pmoves = set(rec.moves)
        if vmoves != pmoves:
            report.move_mismatches.append(
                f"  {vfen}\n"
                f"    only in varia:   {' '.join(sorted(vmoves - pmoves)) or '-'}\n"
                f"    only in pyffish: {' '.join(sorted(pmoves - vmoves)) or '-'}"
            )
        voutcome = row[2]
        vresult = None if voutcome == "-" else voutcome.split()[0]
        if vresult != rec.result:
            report.outcome_mismatches.append(
                f"  {vfen}\n    varia: {voutcome}   pyffish: {rec.result or '-'}"
            )
        if len(row) > 3:
            perfts[rec.fen] = int(row[3])
    return perfts


def pick_perft_roots(rng: random.Random, records: list[Record], n: int, max_moves: int) -> list[str]:
    """Up to n roots with at most max_moves moves, half with special moves."""
    cands = [r for r in records if 0 < len(r.moves) <= max_moves]
    rng.shuffle(cands)
    special = [r for r in cands if r.special][: n // 2]
    chosen = {r.fen for r in special}
    rest = [r for r in cands if r.fen not in chosen][: n - len(special)]
    return [r.fen for r in special + rest]


def print_list(title: str, items: list[str], limit: int) -> None:
    if not items:
        return
    print(f" {title}: {len(items)}")
    shown = items if limit <= 0 else items[:limit]
    for item in shown:
        print(item)
    if len(shown) < len(items):
        print(f"  ... {len(items) - len(shown)} more (use --max-report 0 to show all)")


def parse_args() -> argparse.Namespace:
    ap = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        epilog="Needs pyffish (pip install -r scripts/requirements.txt) and a release "
        "build of varia (cargo build --release -p varia).",
    )
    ap.add_argument("--positions", type=int, default=10000,
                    help="distinct positions per variant (default 10000)")
    ap.add_argument("--perft-positions", type=int, default=100,
                    help="perft roots per variant (default 100)")
    ap.add_argument("--perft-depth", type=int, default=3, help="perft depth (default 3)")
    ap.add_argument("--perft-max-moves", type=int, default=20,
                    help="perft roots have at most this many legal moves "
                    "(default 20: pyffish costs milliseconds per call)")
    ap.add_argument("--seed", default="1", help="random seed (default 1)")
    ap.add_argument("--variant", action="append",
                    help="check only this variant (repeatable; varia names or aliases)")
    ap.add_argument("--varia", default=os.path.join(REPO, "target", "release", "varia"),
                    help="varia binary (default target/release/varia)")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1,
                    help="worker processes (default: one per core)")
    ap.add_argument("--max-report", type=int, default=25,
                    help="mismatches listed per kind and variant (default 25; 0: all)")
    args = ap.parse_args()

    variants = []
    for name in args.variant or list(PYFFISH_NAME):
        v = ALIASES.get(name.lower(), name.lower())
        if v not in PYFFISH_NAME:
            ap.error(f"unknown variant {name!r} (valid: {', '.join(PYFFISH_NAME)})")
        if v not in variants:
            variants.append(v)
    args.variant = variants
    if not (os.path.isfile(args.varia) and os.access(args.varia, os.X_OK)):
        ap.error(f"no varia binary at {args.varia}: "
                 "run `cargo build --release -p varia` or pass --varia")
    return args


def main() -> int:
    args = parse_args()
    variants, depth = args.variant, args.perft_depth
    pyffish_version = ".".join(map(str, sf.version()))
    t0 = time.time()
    phases: list[str] = []

    def log(msg: str) -> None:
        print(f"[{time.time() - t0:7.1f}s] {msg}", file=sys.stderr, flush=True)

    pool = multiprocessing.Pool(max(1, args.jobs))
    log(f"pyffish {pyffish_version}: {args.positions} positions x {len(variants)} variants")
    reports = {v: Report(v) for v in variants}
    records: dict[str, list[Record]] = {}
    tasks = [(v, args.positions, args.seed) for v in variants]
    for variant, recs, playouts in pool.imap_unordered(generate, tasks):
        records[variant] = recs
        reports[variant].playouts = playouts
        log(f"{variant}: {len(recs)} positions from {playouts} playouts")
    phases.append(f"playouts {time.time() - t0:.0f}s")

    t = time.time()
    perft_tasks = []
    varia_perft: dict[str, dict[str, int]] = {}
    for variant in variants:
        report = reports[variant]
        report.generated = len(records[variant])
        kept, fens = [], []
        for rec in records[variant]:
            report.over += rec.result is not None
            report.special += rec.special
            try:
                fens.append(to_varia_fen(variant, rec.fen))
                kept.append(rec)
            except Skip as s:
                report.skipped[s.args[0]] = report.skipped.get(s.args[0], 0) + 1
        rows = run_varia(args.varia, variant, fens, depth)
        varia_perft[variant] = compare(report, kept, rows)
        rng = random.Random(f"{args.seed}:{variant}:perft")
        roots = pick_perft_roots(rng, kept, args.perft_positions, args.perft_max_moves)
        # (a FEN varia rejected has no perft column: it is reported already)
        perft_tasks += [(variant, fen, depth) for fen in roots if fen in varia_perft[variant]]
    phases.append(f"varia {time.time() - t:.0f}s")
    log(f"varia moves --depth {depth} done; perft({depth}) on {len(perft_tasks)} roots with pyffish")

    t = time.time()
    for done, (variant, fen, count) in enumerate(
        pool.imap_unordered(perft_task, perft_tasks, chunksize=1), 1
    ):
        report = reports[variant]
        report.perft_compared += 1
        report.perft_nodes += count
        vcount = varia_perft[variant][fen]
        if vcount != count:
            lines = [f"  {to_varia_fen(variant, fen)}",
                     f"    perft({depth}): varia {vcount}, pyffish {count}"]
            lines += localize(args.varia, variant, fen, depth)
            report.perft_mismatches.append("\n".join(lines))
        if done % 100 == 0:
            log(f"perft: {done}/{len(perft_tasks)}")
    pool.close()
    pool.join()
    phases.append(f"pyffish perft {time.time() - t:.0f}s")

    print(f"crosscheck: varia ({args.varia}) vs pyffish {pyffish_version}, seed {args.seed}")
    print(f"{'variant':<11} {'positions':>9} {'over':>5} {'special':>7} {'compared':>8}"
          f" {'skipped':>7} {'moves!=':>7} {'result!=':>8} {'rejected':>8}"
          f" {'perft':>5} {'perft!=':>7}  nodes(d{depth})")
    for v in variants:
        r = reports[v]
        print(f"{v:<11} {r.generated:>9} {r.over:>5} {r.special:>7} {r.compared:>8}"
              f" {sum(r.skipped.values()):>7} {len(r.move_mismatches):>7}"
              f" {len(r.outcome_mismatches):>8} {len(r.varia_errors):>8}"
              f" {r.perft_compared:>5} {len(r.perft_mismatches):>7}  {r.perft_nodes}")
    print("(over: games already finished; special: castling, en passant or a promotion is legal;"
          " perft: roots compared at depth"
          f" {depth} with at most {args.perft_max_moves} moves)")
    for v in variants:
        r = reports[v]
        if not (r.failures() or r.skipped):
            continue
        print(f"\n{v}:")
        for reason, n in sorted(r.skipped.items()):
            print(f" skipped ({reason}): {n}")
        print_list("legal-move mismatches", r.move_mismatches, args.max_report)
        print_list("game-over mismatches", r.outcome_mismatches, args.max_report)
        print_list("FENs varia rejected", r.varia_errors, args.max_report)
        print_list("perft mismatches", r.perft_mismatches, args.max_report)
    failures = sum(r.failures() for r in reports.values())
    print(f"\n{'FAIL' if failures else 'OK'}: {failures} mismatches;"
          f" {time.time() - t0:.0f}s ({', '.join(phases)}) with {args.jobs} jobs")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
