#!/usr/bin/env python3
"""tablero's VGDL forward model against GVG-AI's Java one, side by side in one run.

For each game, alternating rounds run `tablero gvgai bench` and the Java framework's
`ForwardSpeed` (benches/tools/gvgai-java/ForwardSpeed.java) for the same seconds on the same
level: copy the first state, advance it by 100 uniformly random actions, start over from a new
copy when the game ends. Each round gives the ratio of the two programs' steps per CPU second
(of the measuring thread); a game's figure is the median of its rounds with the quartiles.
Progress goes to stderr; stdout gets a Markdown table and one JSON line.

usage: gvgai_forward_speed.py TABLERO GVGAI_DIR TOOL_DIR GAMES_DIR [--seconds S] [--rounds R]
                              [--level L] GAME...

GVGAI_DIR is a built GAIGResearch/GVGAI checkout (`build/` holding its classes and
`gson-2.6.2.jar`), TOOL_DIR the folder ForwardSpeed.class was compiled into, GAMES_DIR a folder
of `<game>.txt` and `<game>_lvl<L>.txt` (e.g. data/gvgai/corpus/gridphysics).
"""
import argparse
import json
import os
import statistics
import subprocess
import sys


def tablero(args, game):
    cmd = [args.tablero, "gvgai", "bench", "--games-dir", args.games_dir, "--game", game,
           "--level", str(args.level), "--seconds", str(args.seconds)]
    out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
    return json.loads(out.strip().splitlines()[-1])["steps_per_cpu_sec"]


def java(args, game):
    cp = os.pathsep.join([os.path.join(args.gvgai_dir, "build"),
                          os.path.join(args.gvgai_dir, "gson-2.6.2.jar"), args.tool_dir])
    cmd = ["java", "-cp", cp, "ForwardSpeed", args.games_dir, game, str(args.level),
           str(args.seconds)]
    out = subprocess.run(cmd, capture_output=True, text=True, check=True,
                         cwd=args.gvgai_dir).stdout
    return json.loads(out.strip().splitlines()[-1])["steps_per_cpu_sec"]


def quartiles(xs):
    if len(xs) < 2:
        return xs[0], xs[0], xs[0]
    q = statistics.quantiles(xs, n=4, method="inclusive")
    return q[0], statistics.median(xs), q[2]


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("tablero")
    p.add_argument("gvgai_dir")
    p.add_argument("tool_dir")
    p.add_argument("games_dir")
    p.add_argument("games", nargs="+")
    p.add_argument("--seconds", type=float, default=1.0)
    p.add_argument("--rounds", type=int, default=5)
    p.add_argument("--level", type=int, default=0)
    args = p.parse_args()
    for k in ("tablero", "gvgai_dir", "tool_dir", "games_dir"):
        setattr(args, k, os.path.abspath(getattr(args, k)))
    rows = []
    for game in args.games:
        ratios, t_rates, j_rates = [], [], []
        for r in range(args.rounds):
            t = tablero(args, game)
            j = java(args, game)
            t_rates.append(t)
            j_rates.append(j)
            ratios.append(t / j)
            print(f"{game} round {r + 1}/{args.rounds}: tablero {t:,.0f}, java {j:,.0f} "
                  f"steps per CPU s, {t / j:.1f}x", file=sys.stderr, flush=True)
        lo, med, hi = quartiles(ratios)
        rows.append({"game": game, "tablero": statistics.median(t_rates),
                     "java": statistics.median(j_rates), "ratio": med, "q1": lo, "q3": hi})
    print("| game | tablero steps/CPU s | Java steps/CPU s | ratio (median) | quartiles |")
    print("|---|---|---|---|---|")
    for r in rows:
        print(f"| {r['game']} | {r['tablero']:,.0f} | {r['java']:,.0f} | {r['ratio']:.1f}x "
              f"| {r['q1']:.1f}–{r['q3']:.1f} |")
    ratios = [r["ratio"] for r in rows]
    print(json.dumps({"games": len(rows), "level": args.level, "rounds": args.rounds,
                      "seconds": args.seconds, "median_ratio": round(statistics.median(ratios), 2),
                      "min_ratio": round(min(ratios), 2), "rows": rows}))


if __name__ == "__main__":
    main()
