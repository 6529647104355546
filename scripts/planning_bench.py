#!/usr/bin/env python3
"""Planning benchmark for README: the 15 puzzle levels (sokoban, realsokoban, zenpuzzle 0-4)
with tablero's embedded planner (satisficing portfolio and --optimal, one thread) and Fast
Downward (lama-first and astar(lmcut())) on the same generated PDDL, every plan replayed in
tablero's engine. Prints a Markdown table on stdout, progress on stderr.

Usage: TABLERO_FAST_DOWNWARD=$(bash tests/fast_downward/setup.sh) \
       python3 scripts/planning_bench.py [path/to/tablero] [sat_timeout] [opt_timeout]
"""
import json
import subprocess
import sys

BIN = sys.argv[1] if len(sys.argv) > 1 else "target/release/tablero"
SAT = float(sys.argv[2]) if len(sys.argv) > 2 else 20.0
OPT = float(sys.argv[3]) if len(sys.argv) > 3 else 60.0


def plan(game, level, extra, timeout):
    cmd = [BIN, "gvgai", "plan", "--game", game, "--level", str(level), "--threads", "1",
           "--timeout", str(timeout)] + extra
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout + 60)
    line = p.stdout.strip().splitlines()[-1] if p.stdout.strip() else ""
    if p.returncode != 0 or not line:
        return None
    return json.loads(line)


def cell(r):
    if r is None:
        return "—", "timeout", ""
    return str(r["moves"]), f'{r["seconds"]:.3f}', "win" if r["win_on_replay"] else "LOSS"


def ratio(a, b):
    if a is None or b is None:
        return "—"
    return f'{b["seconds"] / max(a["seconds"], 1e-4):.1f}'


rows = []
for game in ["sokoban", "realsokoban", "zenpuzzle"]:
    for level in range(5):
        print(f"{game} {level}", file=sys.stderr, flush=True)
        sat = plan(game, level, [], SAT)
        opt = plan(game, level, ["--optimal"], OPT)
        fdl = plan(game, level, ["--planner", "fast-downward", "--set", "planning.fd_alias=lama-first"], SAT)
        fdo = plan(game, level, ["--planner", "fast-downward", "--set", "planning.fd_search=astar(lmcut())"], OPT)
        rows.append((game, level, sat, opt, fdl, fdo))

print(f"Satisficing: portfolio, first plan, timeout {SAT:g} s; optimal: A*/LM-cut, timeout {OPT:g} s;")
print("one planner thread; seconds are wall time of the whole call (translation, grounding, search;")
print("for Fast Downward also its process start and translator). Ratio = Fast Downward time / tablero time.")
print()
print("| level | sat. moves | sat. s | replay | opt. moves | opt. s | replay | FD lama-first moves | s | ratio | FD astar(lmcut) moves | s | ratio |")
print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
for game, level, sat, opt, fdl, fdo in rows:
    s, o, l, m = cell(sat), cell(opt), cell(fdl), cell(fdo)
    print(f"| {game} {level} | {s[0]} | {s[1]} | {s[2]} | {o[0]} | {o[1]} | {o[2]} | {l[0]} | {l[1]} | {ratio(sat, fdl)} | {m[0]} | {m[1]} | {ratio(opt, fdo)} |")
