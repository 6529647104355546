#!/usr/bin/env python3
"""tablero plan against Fast Downward on IPC tasks, side by side in one run.

usage: ipc_bench.py TABLERO BENCHMARKS_DIR TIMEOUT_S PROBLEMS_PER_DOMAIN
                    [sat|opt|sat-strips|opt-strips] [DOMAIN ...]

BENCHMARKS_DIR is a checkout of aibasel/downward-benchmarks. Without DOMAIN arguments, `sat`
and `opt` run every domain whose domain file declares :action-costs, :adl or
quantified/disjunctive preconditions, each on its first PROBLEMS_PER_DOMAIN problems.
`sat-strips` and `opt-strips` run the classic STRIPS domains instead (no such requirement;
for `sat-strips` none named -opt or -mco, for `opt-strips` none named -sat, -agl or -mco),
each on PROBLEMS_PER_DOMAIN problems spread over its list in natural order (for 2: the ones
at 1/3 and 2/3), so that the harder middle of every domain is in the suite. A DOMAIN argument runs the
domain's first PROBLEMS_PER_DOMAIN problems; DOMAIN/PROBLEM.pddl runs that one problem. Each task runs tablero (`plan`, one thread; `--optimal` in opt mode) and then Fast
Downward (`--alias lama-first`, or `astar(lmcut())` falling back to `astar(blind())` in opt
mode), each in its own process with the same wall-clock limit; CPU time is the child's user +
system time. Fast Downward is found through TABLERO_FAST_DOWNWARD. Prints a Markdown table,
progress on stderr, and one JSON line with the totals.
"""
import json
import os
import re
import resource
import subprocess
import sys
import tempfile
import time

FEATURES = re.compile(r":action-costs|:adl|:disjunctive-preconditions|:existential-preconditions"
                      r"|:universal-preconditions|:quantified-preconditions", re.I)


def domain_file(folder, problem):
    prefix = problem[:-len(".pddl")].split("-")[0]
    for name in ("domain.pddl", problem.replace(".pddl", "-domain.pddl"), "domain_" + problem,
                 prefix + "-domain.pddl", "domain-" + prefix + ".pddl"):
        if os.path.exists(os.path.join(folder, name)):
            return os.path.join(folder, name)
    return None


def natural(name):
    return [int(part) if part.isdigit() else part for part in re.split(r"(\d+)", name)]


def spread(problems, count):
    """`count` problems at the quantiles k/(count+1) of the list in natural order."""
    problems = sorted(problems, key=natural)
    if len(problems) <= count:
        return problems
    picks = sorted({(k * len(problems)) // (count + 1) for k in range(1, count + 1)})
    return [problems[i] for i in picks]


def in_track(domain, track):
    """Whether a STRIPS domain folder belongs to the satisficing or the optimal track."""
    if track == "sat-strips":
        return not re.search(r"-(opt|mco)\d", domain)
    return not re.search(r"-(sat|agl|mco)\d", domain)


def tasks(root, per_domain, only, track):
    strips = track.endswith("-strips") and not only
    picked = {}
    for o in only:
        d, _, p = o.partition("/")
        picked.setdefault(d, set()).add(p)
    for d in sorted(os.listdir(root)):
        folder = os.path.join(root, d)
        if not os.path.isdir(folder) or d.startswith(".") or (only and d not in picked):
            continue
        problems = sorted(p for p in os.listdir(folder)
                          if p.endswith(".pddl") and "domain" not in p)
        named = picked.get(d, set()) - {""}
        if strips and not in_track(d, track):
            continue
        if named:
            problems = [p for p in problems if p in named]
        else:
            problems = spread(problems, per_domain) if strips else problems[:per_domain]
        for p in problems:
            dom = domain_file(folder, p)
            if dom is None:
                continue
            if not only and strips == bool(FEATURES.search(open(dom, errors="replace").read())):
                continue
            yield d, dom, os.path.join(folder, p)


def run(cmd, timeout, cwd):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.monotonic()
    try:
        out = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=timeout + 5)
        code, text = out.returncode, out.stdout + out.stderr
    except subprocess.TimeoutExpired:
        code, text = -1, ""
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return code, text, time.monotonic() - start, cpu


def plan_cost(path):
    try:
        last = open(path).read().strip().splitlines()[-1]
        return int(re.search(r"cost = (\d+)", last).group(1))
    except (OSError, IndexError, AttributeError):
        return None


def tablero(binary, dom, prob, timeout, optimal, tmp):
    plan = os.path.join(tmp, "tablero_plan")
    if os.path.exists(plan):
        os.remove(plan)
    cmd = [binary, "plan", dom, prob, "--timeout", str(timeout), "--threads", "1",
           "--plan-file", plan] + (["--optimal"] if optimal else [])
    code, _, wall, cpu = run(cmd, timeout, tmp)
    return (plan_cost(plan) if code == 0 else None), wall, cpu, code


def fast_downward(driver, dom, prob, timeout, optimal, tmp):
    searches = [["--search", "astar(lmcut())"], ["--search", "astar(blind())"]] if optimal \
        else [["--alias", "lama-first"]]
    for search in searches:
        plan = os.path.join(tmp, "fd_plan")
        if os.path.exists(plan):
            os.remove(plan)
        limit = ["--overall-time-limit", f"{timeout}s", "--plan-file", plan]
        if search[0] == "--alias":
            cmd = [sys.executable, driver] + limit + search + [dom, prob]
        else:
            cmd = [sys.executable, driver] + limit + [dom, prob] + search
        code, text, wall, cpu = run(cmd, timeout, tmp)
        if code == 0:
            return plan_cost(plan), wall, cpu, code
        if "unsupported" not in text.lower() and code not in (34,):
            return None, wall, cpu, code
    return None, wall, cpu, code


def failure(result, timeout):
    """How a planner failed: both tablero and Fast Downward exit with 22 out of memory and 23
    out of time (a search process killed at its limit is not always in the CPU count)."""
    _, wall, cpu, code = result
    if code == 23 or wall >= timeout:
        return "timeout"
    if code in (22, 24):
        return "out of memory"
    return f"failed ({cpu:.2f})"


def main():
    if len(sys.argv) < 5:
        sys.exit(__doc__)
    binary, root, timeout, per = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    track = sys.argv[5] if len(sys.argv) > 5 else "sat"
    if track not in ("sat", "opt", "sat-strips", "opt-strips"):
        sys.exit(__doc__)
    optimal = track.startswith("opt")
    only = set(sys.argv[6:])
    driver = os.environ.get("TABLERO_FAST_DOWNWARD")
    if not driver:
        sys.exit("set TABLERO_FAST_DOWNWARD=$(bash tests/fast_downward/setup.sh)")
    rows, totals = [], {"tasks": 0, "tablero_solved": 0, "fd_solved": 0}
    common = []
    with tempfile.TemporaryDirectory() as tmp:
        todo = list(tasks(root, per, only, track))
        for i, (d, dom, prob) in enumerate(todo, 1):
            t = tablero(os.path.abspath(binary), dom, prob, timeout, optimal, tmp)
            f = fast_downward(driver, dom, prob, timeout, optimal, tmp)
            totals["tasks"] += 1
            totals["tablero_solved"] += t[0] is not None
            totals["fd_solved"] += f[0] is not None
            if t[0] is not None and f[0] is not None:
                common.append((t, f))
            rows.append((d, os.path.basename(prob), t, f))
            print(f"[{i}/{len(todo)}] {d}/{os.path.basename(prob)}: tablero {t[0]} "
                  f"{t[2]:.2f}s (exit {t[3]}), FD {f[0]} {f[2]:.2f}s (exit {f[3]})",
                  file=sys.stderr, flush=True)
    print("| domain | problem | tablero cost | CPU s | FD cost | CPU s | CPU ratio tablero/FD |")
    print("|---|---|---|---|---|---|---|")
    for d, p, t, f in rows:
        ratio = f"{max(t[2], 0.01) / max(f[2], 0.01):.2f}" if t[0] is not None and f[0] is not None else "—"
        show = lambda r: ("—", failure(r, timeout)) if r[0] is None else (str(r[0]), f"{r[2]:.2f}")
        print(f"| {d} | {p} | {show(t)[0]} | {show(t)[1]} | {show(f)[0]} | {show(f)[1]} | {ratio} |")
    ratios = sorted(max(t[2], 0.01) / max(f[2], 0.01) for t, f in common)
    totals["common"] = len(common)
    totals["median_cpu_ratio"] = ratios[len(ratios) // 2] if ratios else None
    hard = sorted(max(t[2], 0.01) / f[2] for t, f in common if f[2] > 1.0)
    totals["fd_over_1s"] = len(hard)
    totals["median_cpu_ratio_fd_over_1s"] = hard[len(hard) // 2] if hard else None
    totals["cost_sum_tablero"] = sum(t[0] for t, _ in common)
    totals["cost_sum_fd"] = sum(f[0] for _, f in common)
    totals["mode"] = ("optimal" if optimal else "satisficing") + (
        " strips" if track.endswith("-strips") else "")
    print(json.dumps(totals))


if __name__ == "__main__":
    main()
