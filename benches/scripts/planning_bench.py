#!/usr/bin/env python3
"""Planning benchmark of docs/results/planning.md: the 15 puzzle levels (sokoban, realsokoban, zenpuzzle 0-4)
with tablero's embedded planner (satisficing portfolio and --optimal, one thread) and Fast
Downward (lama-first and astar(lmcut())) on the same generated PDDL, every plan replayed in
tablero's engine. Prints a Markdown table on stdout, progress on stderr.

Usage: TABLERO_FAST_DOWNWARD=$(bash tests/fast_downward/setup.sh) \
       python3 benches/scripts/planning_bench.py [path/to/tablero] [sat_timeout] [opt_timeout]
"""
import json
import os
import resource
import subprocess
import sys

BIN = sys.argv[1] if len(sys.argv) > 1 else "target/release/tablero"
SAT = float(sys.argv[2]) if len(sys.argv) > 2 else 20.0
OPT = float(sys.argv[3]) if len(sys.argv) > 3 else 60.0


def plan(game, level, extra, timeout):
    cmd = [BIN, "gvgai", "plan", "--game", game, "--level", str(level), "--threads", "1",
           "--timeout", str(timeout)] + extra
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout + 60)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    line = p.stdout.strip().splitlines()[-1] if p.stdout.strip() else ""
    if p.returncode != 0 or not line:
        return None
    r = json.loads(line)
    # CPU seconds of the call and its descendants (Fast Downward's translator and search).
    r["cpu"] = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return r


def cell(r):
    if r is None:
        return "—", "timeout", ""
    return (str(r["moves"]), f'{r["seconds"]:.3f} / {r["cpu"]:.2f}',
            "win" if r["win_on_replay"] else "LOSS")


def ratio(a, b):
    if a is None or b is None:
        return "—"
    return f'{b["cpu"] / max(a["cpu"], 1e-2):.1f}'


rows = []
load_start = os.getloadavg()
for game in ["sokoban", "realsokoban", "zenpuzzle"]:
    for level in range(5):
        print(f"{game} {level}", file=sys.stderr, flush=True)
        sat = plan(game, level, [], SAT)
        opt = plan(game, level, ["--optimal"], OPT)
        fdl = plan(game, level, ["--planner", "fast-downward", "--set", "planning.fd_alias=lama-first"], SAT)
        fdo = plan(game, level, ["--planner", "fast-downward", "--set", "planning.fd_search=astar(lmcut())"], OPT)
        rows.append((game, level, sat, opt, fdl, fdo))

load_end = os.getloadavg()
print(f"Satisficing: portfolio, first plan, timeout {SAT:g} s; optimal: A*/LM-cut with the structural")
print(f"bound and walk compression, timeout {OPT:g} s (\"opt. exp.\": its expanded nodes);")
print("one planner thread; times are wall seconds / CPU seconds of the whole call (translation,")
print("grounding, search; for Fast Downward also its process start and Python translator).")
print("Ratio = Fast Downward CPU time / tablero CPU time (CPU times under 0.01 s count as 0.01 s).")
print(f"Load average (1 min) {load_start[0]:.1f} at the start, {load_end[0]:.1f} at the end.")
print()
print("| level | sat. moves | sat. s wall / CPU | replay | opt. moves | opt. exp. | opt. s wall / CPU | replay | FD lama-first moves | s wall / CPU | ratio | FD astar(lmcut) moves | s wall / CPU | ratio |")
print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
for game, level, sat, opt, fdl, fdo in rows:
    s, o, l, m = cell(sat), cell(opt), cell(fdl), cell(fdo)
    print(f"| {game} {level} | {s[0]} | {s[1]} | {s[2]} | {o[0]} | {opt['expanded'] if opt else '—'} | {o[1]} | {o[2]} | {l[0]} | {l[1]} | {ratio(sat, fdl)} | {m[0]} | {m[1]} | {ratio(opt, fdo)} |")
