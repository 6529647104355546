#!/usr/bin/env python3
"""Checks tablero's plans with VAL, the IPC's plan validator, on IPC tasks.

usage: val_check.py TABLERO VALIDATE BENCHMARKS_DIR TIMEOUT_S PROBLEMS_PER_DOMAIN
                    [sat|opt|sat-strips|opt-strips] [DOMAIN ...]

VALIDATE is VAL's `Validate` binary (KCL-Planning/VAL, built with cmake and g++). The tasks are
chosen as `ipc_bench.py` chooses them (same arguments). Each task is planned by `tablero plan`
(one thread; `--optimal` in opt mode) and the plan written is given to `Validate`, which replays
it on the original PDDL (not tablero's grounding) and reports it valid or not, with the cost
it computes (a task VAL's own parser cannot read is reported "unchecked"). Prints a Markdown
table (plans not valid first, then unchecked ones), progress on stderr, and one JSON line with
the counts; the exit status is 1 if any plan is not valid.
"""
import json
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ipc_bench import tablero, tasks  # noqa: E402


REJECTED = re.compile(r"Plan failed|Goal not satisfied|Plan invalid|Bad plan|Failed plans", re.I)


def validate(val, dom, prob, plan):
    """(verdict, VAL's cost or None, VAL's first line of complaint). The verdict is "valid",
    "NOT VALID", or "unchecked" when VAL cannot read the task itself (its PDDL parser lacks
    some of what the IPC domains use)."""
    try:
        out = subprocess.run([val, dom, prob, plan], capture_output=True, text=True,
                             timeout=300)
        text = out.stdout + out.stderr
    except subprocess.TimeoutExpired:
        return "unchecked", None, "Validate timed out"
    cost = re.search(r"Final value: ([0-9.]+)", text)
    cost = float(cost.group(1)) if cost else None
    if "Plan valid" in text:
        return "valid", cost, ""
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    why = next((ln for ln in lines if REJECTED.search(ln)), None)
    if why is not None:
        return "NOT VALID", cost, why
    return "unchecked", cost, lines[0] if lines else "no output"


def main():
    if len(sys.argv) < 6:
        sys.exit(__doc__)
    binary, val, root = os.path.abspath(sys.argv[1]), sys.argv[2], sys.argv[3]
    timeout, per = int(sys.argv[4]), int(sys.argv[5])
    track = sys.argv[6] if len(sys.argv) > 6 else "sat"
    if track not in ("sat", "opt", "sat-strips", "opt-strips"):
        sys.exit(f"unknown track {track!r}: sat, opt, sat-strips or opt-strips")
    optimal = track.startswith("opt")
    only = set(sys.argv[7:])
    rows = []
    counts = {"tasks": 0, "solved": 0, "valid": 0, "invalid": 0, "unchecked": 0,
              "cost_mismatch": 0}
    with tempfile.TemporaryDirectory() as tmp:
        todo = list(tasks(root, per, only, track))
        for i, (d, dom, prob) in enumerate(todo, 1):
            cost, _, cpu, _ = tablero(binary, dom, prob, timeout, optimal, tmp)
            counts["tasks"] += 1
            row = [d, os.path.basename(prob), cost, "—", None, ""]
            if cost is not None:
                counts["solved"] += 1
                verdict, val_cost, why = validate(val, dom, prob,
                                                  os.path.join(tmp, "tablero_plan"))
                counts[{"valid": "valid", "NOT VALID": "invalid"}.get(verdict, "unchecked")] += 1
                # VAL reports the metric when the task has one, else the plan length.
                if verdict == "valid" and val_cost is not None and abs(val_cost - cost) > 1e-6:
                    counts["cost_mismatch"] += 1
                    why = f"tablero says cost {cost}, VAL {val_cost:g}"
                row[3:] = [verdict, val_cost, why]
            rows.append(row)
            print(f"[{i}/{len(todo)}] {d}/{row[1]}: cost {cost} ({cpu:.2f}s CPU) {row[3]} {row[5]}",
                  file=sys.stderr, flush=True)
    rows.sort(key=lambda r: (r[3] != "NOT VALID", r[3] != "unchecked", not r[5], r[0]))
    print("| domain | problem | tablero cost | VAL | VAL cost | note |")
    print("|---|---|---|---|---|---|")
    for d, p, cost, verdict, val_cost, why in rows:
        shown = "—" if val_cost is None else f"{val_cost:g}"
        print(f"| {d} | {p} | {'—' if cost is None else cost} | {verdict} | {shown} | {why} |")
    counts["mode"] = track
    print(json.dumps(counts))
    sys.exit(1 if counts["invalid"] else 0)


if __name__ == "__main__":
    main()
