#!/usr/bin/env python3
"""Regenerate the perft tables of the six start positions (`make perft-tables`).

For each game this writes data/perft/tables/<variant>.csv, the output of

    varia perft --variant V --stats --hash 1G --format csv --threads 2

for depths 1..D, where D is as deep as the time budget allows, followed by
deeper rows of a plain (node count only) hashed run where that is cheap
(`nodes` and `seconds` filled, the stats columns empty). Then every row is
cross-checked, and data/perft/tables/README.md renders the tables with a
"checked" column saying how each row was checked:

  published  data/perft/perft_chess_stats.csv (chess, every published column)
  public     data/perft/perft_public.csv (node count of the same start FEN)
  shakmaty   shakmaty's move generator (benches/examples/shakmaty_perft.rs),
             every stats column; "shakmaty (nodes)": the node count only;
             chess, atomic, threecheck, and suicide as antichess up to depth 6
  unhashed   a second varia run without hash table, split into 2 shards at
             split depth 2 (other code path: named subtrees, shards, merge),
             every column; for rows no other check covers in full, when the
             predicted cost fits the check budget
  rehashed   a second varia run with a 512 MiB table (other entries, other
             replacements) split into 2 shards at split depth 3
  plain run  the plain hashed run's node count equals the stats run's

Budget: the runs are stopped when the next depth is predicted to exceed the
budget, measured in CPU seconds of the varia process divided by the threads
(the time a dedicated 2-core machine would take; on a shared machine the wall
clock is longer). Rows already finished are kept.

Usage: scripts/perft_tables.py [--budget SECONDS] [--plain-budget SECONDS]
       [--check-budget SECONDS] [--variants chess,atomic,...] [--threads T]
       [--skip-generate] [--varia PATH] [--shakmaty PATH]
"""

import argparse
import csv
import hashlib
import io
import json
import os
import platform
import resource
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "data" / "perft" / "tables"
VARIANTS = ["chess", "suicide", "threecheck", "atomic", "losers", "knightmate"]
VARIANTS_START = {"chess": "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"}
STATS = [
    "nodes", "captures", "en_passant", "castles", "promotions", "checks",
    "discovered_checks", "double_checks", "checkmates", "stalemates", "variant_wins",
]
HEADER = ["variant", "fen", "depth"] + STATS + ["seconds"]
SHAKMATY = {"chess", "atomic", "threecheck", "suicide"}
# shakmaty plays suicide as antichess, the same game until castling is possible.
SHAKMATY_MAX_DEPTH = {"suicide": 6}
# shakmaty's atomic tests legality by playing every move: its leaf-by-leaf
# stats are slow there, so they stop earlier.
SHAKMATY_LEAVES = {"atomic": 10_000_000}
TICKS = os.sysconf("SC_CLK_TCK")
# The chess start position rows of the Chess Programming Wiki's "Perft
# Results" table (https://www.chessprogramming.org/Perft_Results) beyond the
# published table in data/perft: nodes, captures, e.p., castles, promotions,
# checks, discovered checks, double checks, checkmates.
CPW_START = {
    "6": [119060324, 2812008, 5248, 0, 0, 809099, 329, 46, 10828],
    "7": [3195901860, 108329926, 319617, 883453, 0, 33103848, 18026, 1628, 435767],
    "8": [84998978956, 3523740106, 7187977, 23605205, 0, 968981593, 847039, 147215,
          9852036],
}
# Where that table is known to disagree with other generators: depth 8 has
# 847,039 discovered checks there; varia counts 847,043, as does the Grand
# Chess Tree project (TalkChess, "Are the perft results wrong on the CPW?",
# https://talkchess.com/viewtopic.php?p=975833). The CPW check of that row
# covers the other columns.
CPW_KNOWN = {("8", "discovered_checks"): ("847039", "847043")}
CHECK_ORDER = ["published", "CPW", "public", "shakmaty", "shakmaty (nodes)", "unhashed",
               "rehashed", "plain run"]


def log(*a):
    print(time.strftime("%H:%M:%S"), *a, file=sys.stderr, flush=True)


def cpu_seconds(pid):
    """User + system CPU time of a running process (Linux), or None."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / TICKS
    except (OSError, IndexError, ValueError):
        return None


def stream_rows(cmd, budget_cpu, threads):
    """Runs a `varia perft --format csv` command that counts depths 1, 2, ...
    and keeps its rows while they fit in `budget_cpu` CPU seconds: after each
    row the next depth's cost is predicted from the growth of the last two,
    and the process is stopped when it would not fit (or when it passes the
    budget mid-row). Returns (rows, cpu seconds per row)."""
    log("run:", " ".join(cmd))
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True)
    header = proc.stdout.readline().strip().split(",")
    rows, costs = [], []
    last_cpu = 0.0
    stop = False
    import selectors
    sel = selectors.DefaultSelector()
    sel.register(proc.stdout, selectors.EVENT_READ)
    while not stop:
        ready = sel.select(timeout=1.0)
        if not ready:
            used = cpu_seconds(proc.pid)
            if proc.poll() is not None:
                break
            if used is not None and used > budget_cpu:
                log(f"  over budget mid-row ({used:.0f} CPU s): stopped")
                break
            continue
        line = proc.stdout.readline()
        if not line:
            break
        used = cpu_seconds(proc.pid)
        if used is None:
            used = last_cpu
        row = dict(zip(header, next(csv.reader([line]))))
        rows.append(row)
        costs.append(used - last_cpu)
        last_cpu = used
        log(f"  depth {row['depth']}: {row['nodes']} nodes, "
            f"{costs[-1] / threads:.1f} s on {threads} cores ({row['seconds']} s wall)")
        # Predict the next depth from the growth of the cost (of the node
        # count while rows are too quick to time). The first row's cost is
        # mostly setup (allocating the table), and quick rows are not worth
        # predicting.
        if len(rows) < 2 or costs[-1] < 1.0:
            continue
        if costs[-2] >= 0.25:
            growth = costs[-1] / costs[-2]
        else:
            growth = int(rows[-1]["nodes"]) / max(1, int(rows[-2]["nodes"]))
        predicted = costs[-1] * max(growth, 1.0)
        if last_cpu + predicted > budget_cpu:
            log(f"  next depth predicted {predicted / threads:.0f} s: stopping here")
            stop = True
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
    proc.wait()
    return rows, costs


def run(cmd, timeout=None):
    """stdout of `cmd`, or None if it took longer than `timeout` seconds."""
    log("run:", " ".join(str(c) for c in cmd))
    try:
        return subprocess.run(cmd, capture_output=True, text=True, check=True,
                              timeout=timeout).stdout
    except subprocess.TimeoutExpired:
        log(f"  timed out after {timeout:.0f} s: not checked")
        return None


def read_csv(text):
    return list(csv.DictReader(io.StringIO(text)))


def generate(args, variant):
    """Runs the stats and the plain perft; writes <variant>.csv."""
    base = [args.varia, "perft", "--variant", variant, "--format", "csv",
            "--threads", str(args.threads), "--quiet", "--depth", "20"]
    stats_rows, stats_costs = stream_rows(
        base + ["--stats", "--hash", args.hash], args.budget * args.threads, args.threads)
    plain_rows, plain_costs = stream_rows(
        base + ["--hash", args.plain_hash], args.plain_budget * args.threads, args.threads)
    deepest = len(stats_rows)
    rows = [[r[h] for h in HEADER] for r in stats_rows]
    for r in plain_rows:
        if int(r["depth"]) > deepest:
            rows.append([r["variant"], r["fen"], r["depth"], r["nodes"]]
                        + [""] * (len(STATS) - 1) + [r["seconds"]])
    path = OUT / f"{variant}.csv"
    with open(path, "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(HEADER)
        w.writerows(rows)
    meta = {
        "stats_cpu": [round(c, 3) for c in stats_costs],
        "plain_cpu": [round(c, 3) for c in plain_costs],
        "plain_nodes": {r["depth"]: r["nodes"] for r in plain_rows},
    }
    log(f"wrote {path.relative_to(ROOT)}: stats to depth {deepest}, "
        f"nodes to depth {len(rows)}")
    return meta


def shard_merge(args, variant, depth, split, extra):
    """`varia perft --shard i/2` twice (as two processes at once), merged."""
    with tempfile.TemporaryDirectory() as tmp:
        procs, parts = [], []
        for i in (1, 2):
            part = Path(tmp) / f"part{i}.csv"
            cmd = [args.varia, "perft", "--variant", variant, "--depth", str(depth),
                   "--split-depth", str(split), "--shard", f"{i}/2", "--threads", "1",
                   "--quiet", "--out", str(part)] + extra
            log("run:", " ".join(cmd))
            procs.append(subprocess.Popen(cmd))
            parts.append(str(part))
        for p in procs:
            p.wait()
        if any(p.returncode != 0 for p in procs):
            raise RuntimeError(f"shard run failed for {variant}")
        out = run([args.varia, "perft-merge", "--format", "csv", "--quiet"] + parts)
        return {r["depth"]: r for r in read_csv(out)}


def cpu_per_node(args, variant, extra, depth):
    """CPU seconds per counted node of an unhashed single-thread run."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    out = run([args.varia, "perft", "--variant", variant, "--depth", str(depth),
               "--threads", "1", "--format", "csv", "--quiet"] + extra)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    nodes = sum(int(r["nodes"]) for r in read_csv(out))
    return cpu / max(1, nodes)


def same(row, other, columns):
    return all((row.get(c) or "") == (other.get(c) or "") for c in columns)


def rows_sha(rows):
    """A digest of the counts of `rows` (not their times)."""
    text = "\n".join(",".join(r[c] for c in ["depth"] + STATS) for r in rows)
    return hashlib.sha256(text.encode()).hexdigest()


def crosscheck(args, variant, rows, meta, cache):
    """Returns {depth: [check names]}; raises on any disagreement."""
    checks = {r["depth"]: [] for r in rows}
    fen = rows[0]["fen"]
    stats_depth = max(int(r["depth"]) for r in rows if r["captures"] != "")

    def mark(depth, name, ok, what):
        if not ok:
            raise RuntimeError(f"{variant} depth {depth}: {name} disagrees: {what}")
        checks[str(depth)].append(name)

    by_depth = {r["depth"]: r for r in rows}
    # Checks that cost a run are kept from the last time these same rows
    # were checked.
    expensive = {"shakmaty", "shakmaty (nodes)", "unhashed", "rehashed"}
    if cache.get("rows_sha") == rows_sha(rows):
        for d, names in cache.get("checks", {}).items():
            if d in checks:
                checks[d].extend(n for n in names if n in expensive)
    # The CPW table (chess start position, depths 6-8).
    if variant == "chess" and fen == VARIANTS_START["chess"]:
        for d, want in CPW_START.items():
            if d not in by_depth or by_depth[d]["captures"] == "":
                continue
            ok = True
            for col, w in zip(STATS, want):
                got = by_depth[d][col]
                if got != str(w) and CPW_KNOWN.get((d, col)) != (str(w), got):
                    ok = False
            mark(d, "CPW", ok, want)
    # Published chess stats (nodes .. checkmates).
    with open(ROOT / "data" / "perft" / "perft_chess_stats.csv") as f:
        for p in csv.DictReader(f):
            if variant == "chess" and p["fen"] == fen and p["depth"] in by_depth:
                cols = [c for c in p if c in STATS]
                mark(p["depth"], "published", same(by_depth[p["depth"]], p, cols), p)
    # Public node counts.
    with open(ROOT / "data" / "perft" / "perft_public.csv") as f:
        for p in csv.DictReader(f):
            if p["variant"] == variant and p["fen"] == fen and p["depth"] in by_depth:
                mark(p["depth"], "public", by_depth[p["depth"]]["nodes"] == p["nodes"], p)
    # The plain run agrees with the stats run.
    for d, n in meta.get("plain_nodes", {}).items():
        if d in by_depth and int(d) <= stats_depth:
            mark(d, "plain run", by_depth[d]["nodes"] == n, n)
    # shakmaty: every column as deep as its leaf budget allows; node counts
    # (bulk-counted, much cheaper) deeper.
    if (variant in SHAKMATY and Path(args.shakmaty).exists()
            and not any(set(c) & {"shakmaty", "shakmaty (nodes)"} for c in checks.values())):
        limit = SHAKMATY_MAX_DEPTH.get(variant, 99)
        leaves = min(args.shakmaty_leaves, SHAKMATY_LEAVES.get(variant, args.shakmaty_leaves))
        d_stats = max([int(r["depth"]) for r in rows
                       if r["captures"] != "" and int(r["nodes"]) <= leaves
                       and int(r["depth"]) <= limit] or [0])
        out = None
        if d_stats:
            out = run([args.shakmaty, variant, str(d_stats), "--stats",
                       "--threads", str(args.threads)], timeout=args.check_budget * 4)
        if out is None:
            d_stats = 0
        for s in read_csv(out or ""):
            mark(s["depth"], "shakmaty", same(by_depth[s["depth"]], s, STATS), s)
        d_nodes = max([int(r["depth"]) for r in rows
                       if int(r["nodes"]) <= args.shakmaty_nodes and int(r["depth"]) <= limit]
                      or [0])
        if d_nodes > d_stats:
            out = run([args.shakmaty, variant, str(d_nodes)], timeout=args.check_budget * 4)
            for s in read_csv(out or ""):
                if int(s["depth"]) > d_stats:
                    mark(s["depth"], "shakmaty (nodes)",
                         by_depth[s["depth"]]["nodes"] == s["nodes"], s)
    # A second varia run of each row (from depth 3) that no check above
    # covers in full: without hash table when that fits the check budget
    # (predicted from the CPU time per node of a small unhashed run), else
    # with a smaller table; as 2 shards at another split depth, merged with
    # perft-merge.
    per_node = {}
    for row in rows:
        d = int(row["depth"])
        stats = d <= stats_depth
        full = {"shakmaty", "unhashed", "rehashed"} | (set() if stats else {"shakmaty (nodes)"})
        if d < 3 or full & set(checks[row["depth"]]):
            continue
        cols = STATS if stats else ["nodes"]
        extra = ["--stats"] if stats else []
        if stats not in per_node:
            per_node[stats] = cpu_per_node(args, variant, extra, 5 if stats else 6)
        predicted = int(row["nodes"]) * per_node[stats]
        log(f"  depth {d}: unhashed predicted {predicted / args.threads:.0f} s on "
            f"{args.threads} cores")
        if predicted <= args.check_budget * args.threads:
            merged, name = shard_merge(args, variant, d, 2, extra), "unhashed"
        else:
            merged = shard_merge(args, variant, d, 3, extra + ["--hash", args.rehash])
            name = "rehashed"
        mark(d, name, same(row, merged[str(d)], cols), merged[str(d)])
    return checks


def fmt(n):
    return f"{int(n):,}".replace(",", "\u2009") if n != "" else ""


def render(results):
    """data/perft/tables/README.md."""
    names = ["nodes", "captures", "e.p.", "castles", "promotions", "checks",
             "discovered checks", "double checks", "checkmates", "stalemates",
             "variant wins"]
    lines = [
        "# Perft tables of the six start positions",
        "",
        "Generated by `make perft-tables` (`scripts/perft_tables.py`); the CSV files",
        "next to this one are the output of",
        "`varia perft --variant V --stats --hash 1G --format csv --threads 2`,",
        "as deep as a budget of about five minutes per game on two cores allowed,",
        "then (rows with only `nodes` and `seconds`) deeper node counts of a plain",
        "hashed run (`--hash 2G`) where that was cheap. Do not edit them by hand.",
        "",
        "Columns are counted over the leaf moves of each depth; their definitions",
        "(what a discovered check is, when a leaf is a variant win rather than a",
        "checkmate) are in `crates/movegen/src/stats.rs`. An empty stats cell in a",
        "full row means the column does not apply to the game (suicide has no",
        "check, chess no variant win); in a node-count-only row the stats were not",
        "counted. `seconds` is the wall time of the stats or plain run (on a",
        "shared machine it includes waiting for the CPU); the `2-core s` column of",
        "the generation log below is CPU time / 2.",
        "",
        "Checked (every listed check agreed exactly):",
        "",
        "- **published**: the published chess table `data/perft/perft_chess_stats.csv`",
        "  (nodes to checkmates);",
        "- **public**: the node count in `data/perft/perft_public.csv`;",
        "- **shakmaty**: shakmaty 0.30, an independent move generator",
        "  (`benches/examples/shakmaty_perft.rs`), every column; **shakmaty (nodes)**:",
        "  its node count only; suicide as shakmaty's antichess, which is the same",
        "  game until castling becomes possible at ply 7;",
        "- **unhashed**: a second varia run of that depth without hash table, as two",
        "  `--shard` processes split at depth 2 and `varia perft-merge`, all columns",
        "  (for rows no check above covers in full, when it fits a 5-minute budget);",
        "- **rehashed**: otherwise a second varia run with a 512 MiB table (other",
        "  entries, other replacements) as two shards split at depth 3 and merged;",
        "- **plain run**: the plain hashed run's node count equals the stats run's;",
        "- **CPW**: the Chess Programming Wiki's table of the chess start position",
        "  (<https://www.chessprogramming.org/Perft_Results>, nodes to checkmates),",
        "  except its 847,039 discovered checks at depth 8: varia counts 847,043, as",
        "  does the independent Grand Chess Tree project",
        "  (<https://talkchess.com/viewtopic.php?p=975833>); every other column of",
        "  depths 6-8 agrees.",
        "",
    ]
    tables = {}
    for variant in VARIANTS:
        path = OUT / f"{variant}.csv"
        if variant in results and path.exists():
            with open(path) as f:
                tables[variant] = list(csv.DictReader(f))
    for variant, rows in tables.items():
        r = results[variant]
        lines.append(f"## {variant}")
        lines.append("")
        lines.append(f"`{rows[0]['fen']}`")
        lines.append("")
        cols = ["depth"] + names + ["seconds", "checked"]
        lines.append("| " + " | ".join(cols) + " |")
        lines.append("|" + "|".join("---:" for _ in cols[:-1]) + "|---|")
        for row in rows:
            cells = [row["depth"]] + [fmt(row[c]) for c in STATS]
            cells.append(f"{float(row['seconds']):.2f}")
            checked = sorted(r["checks"].get(row["depth"], []), key=CHECK_ORDER.index)
            cells.append(", ".join(checked) or "-")
            lines.append("| " + " | ".join(cells) + " |")
        lines.append("")
    lines.append("## Generation log")
    lines.append("")
    lines.append("| game | stats depth | node-count depth | 2-core s (stats run) | 2-core s (plain run) |")
    lines.append("|---|---:|---:|---:|---:|")
    for variant, rows in tables.items():
        r = results[variant]
        m = r.get("meta", {})
        stats_depth = max(int(x["depth"]) for x in rows if x["captures"] != "")
        threads = r.get("threads", 2)
        lines.append(
            f"| {variant} | {stats_depth} | {len(rows)} | "
            f"{sum(m.get('stats_cpu', [])) / threads:.0f} | "
            f"{sum(m.get('plain_cpu', [])) / threads:.0f} |")
    lines.append("")
    info = results.get("_machine", {})
    if info:
        lines.append(f"Machine: {info.get('cpus')} CPUs, {info.get('system')}; "
                     f"load average at the start {info.get('load')}; {info.get('date')}.")
        lines.append("")
    (OUT / "README.md").write_text("\n".join(lines))


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--varia", default=str(ROOT / "target" / "release" / "varia"))
    p.add_argument("--shakmaty",
                   default=str(ROOT / "target" / "release" / "examples" / "shakmaty_perft"))
    p.add_argument("--variants", default=",".join(VARIANTS))
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--budget", type=float, default=300,
                   help="seconds on THREADS cores for the stats run of each game")
    p.add_argument("--plain-budget", type=float, default=300,
                   help="seconds on THREADS cores for the plain run of each game")
    p.add_argument("--rehash", default="512M")
    p.add_argument("--check-budget", type=float, default=300,
                   help="seconds on THREADS cores for an unhashed second run of a row")
    p.add_argument("--hash", default="1G")
    p.add_argument("--plain-hash", default="2G")
    p.add_argument("--shakmaty-leaves", type=int, default=150_000_000,
                   help="deepest row checked column by column with shakmaty")
    p.add_argument("--shakmaty-nodes", type=int, default=4_000_000_000,
                   help="deepest row whose node count is checked with shakmaty")
    p.add_argument("--skip-generate", action="store_true",
                   help="only cross-check the existing CSV files and render")
    p.add_argument("--render-only", action="store_true",
                   help="only render README.md from the CSV files and checks.json")
    p.add_argument("--recheck", action="store_true",
                   help="redo the cross-checks that run programs, even for rows "
                        "already checked")
    args = p.parse_args()
    for tool in [args.varia]:
        if not Path(tool).exists():
            sys.exit(f"error: {tool} not found (run `make build`)")
    OUT.mkdir(parents=True, exist_ok=True)
    state_path = OUT / "checks.json"
    results = json.loads(state_path.read_text()) if state_path.exists() else {}
    if not args.render_only:
        results["_machine"] = {
            "cpus": os.cpu_count(),
            "system": f"{platform.system()} {platform.machine()}",
            "load": " ".join(f"{x:.1f}" for x in os.getloadavg()),
            "date": time.strftime("%Y-%m-%d"),
        }
    for variant in args.variants.split(","):
        meta = results.get(variant, {}).get("meta", {})
        if not args.skip_generate and not args.render_only:
            meta = generate(args, variant)
        with open(OUT / f"{variant}.csv") as f:
            rows = list(csv.DictReader(f))
        if args.render_only:
            continue
        cache = {} if args.recheck else results.get(variant, {})
        checks = crosscheck(args, variant, rows, meta, cache)
        results[variant] = {"checks": checks, "meta": meta, "threads": args.threads,
                            "rows_sha": rows_sha(rows)}
        state_path.write_text(json.dumps(results, indent=1) + "\n")
        render(results)
        log(f"{variant}: checked", checks)
    render(results)


if __name__ == "__main__":
    main()
