#!/usr/bin/env python3
"""Light playouts from the empty board: tablero against Pachi, side by side in one run.

usage: go_playout_speed.py TABLERO PACHI [--sizes 9,19] [--rounds 5] [--seconds 3]
                           [--pachi-cap equal|400]

Both engines play uniform random playouts that do not fill their own eyes (tablero's `light`
policy through `tablero bench playouts`, Pachi's single-threaded `montecarlo` engine with its
`light` playout policy) from the empty board, one process at a time, alternating within each
round. tablero reports its own rate; Pachi's is N playouts (a `genmove` with `-t =N`, N sized
to take about --seconds) over the user CPU time of that process minus the user CPU time of the
same process with `-t =500`, the smallest Pachi takes (start-up: the pattern and book files;
the least of five runs per size). Short alternating rounds and the median of the per-round
ratios keep a busy host's slow phases from landing on one engine only. PACHI is the binary built by
`../shared/peers/build-pachi.sh`; its DATA_DIR is the binary's folder. Prints a Markdown table
per size (each round's ratio, the median) and one JSON line with the medians.

Both play each playout to the end (two passes) under the same move cap, tablero's 3·N²+20:
Pachi's montecarlo engine otherwise stops a playout after 400 moves (its `gamelen`), which
cuts about half of the 19×19 playouts short (tablero's average 19×19 light playout is 455
moves) and is no playout to the end. `--pachi-cap 400` measures Pachi with its own default.
"""
import json
import os
import resource
import statistics
import subprocess
import sys


def child_cpu(cmd, stdin, env):
    """Runs cmd to completion; returns (stdout, user CPU seconds of that child)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime
    out = subprocess.run(cmd, input=stdin, capture_output=True, text=True, env=env, check=True)
    return out.stdout, resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime - before


def tablero_rate(tablero, size, seconds):
    out, _ = child_cpu([tablero, "bench", "playouts", "--size", str(size), "--seconds",
                        str(seconds), "--policy", "light", "--threads", "1"], None, None)
    line = [l for l in out.splitlines() if l.startswith("{")][-1]
    return json.loads(line)["playouts_per_second"]


PACHI_MIN = 500  # Pachi's smallest -t =N


def pachi_cpu(pachi, size, playouts, cap):
    env = dict(os.environ, DATA_DIR=os.path.dirname(os.path.abspath(pachi)))
    gtp = f"boardsize {size}\nclear_board\ngenmove b\nquit\n"
    engine = "playout=light" + (f",gamelen={cap}" if cap else "")
    cmd = [pachi, "--nopatterns", "-e", "montecarlo", engine, "-t", f"={playouts}"]
    out, cpu = child_cpu(cmd, gtp, env)
    if "= " not in out:
        sys.exit(f"pachi gave no move: {out!r}")
    return cpu


def pachi_rate(pachi, size, seconds, guess, cap, startup):
    n = max(10 * PACHI_MIN, int(guess * seconds))
    cpu = pachi_cpu(pachi, size, n, cap) - startup
    return (n - PACHI_MIN) / cpu


def main():
    args = sys.argv[1:]
    if len(args) < 2:
        sys.exit(__doc__)
    tablero, pachi = args[0], args[1]
    opts = {"--sizes": "9,19", "--rounds": "21", "--seconds": "1", "--pachi-cap": "equal"}
    rest = args[2:]
    while rest:
        if rest[0] not in opts or len(rest) < 2:
            sys.exit(f"unknown option {rest[0]}\n{__doc__}")
        opts[rest[0]] = rest[1]
        rest = rest[2:]
    sizes = [int(s) for s in opts["--sizes"].split(",")]
    rounds, seconds = int(opts["--rounds"]), float(opts["--seconds"])
    summary = {}
    for size in sizes:
        rows, guess = [], 1000.0 * 5000 / (size * size)
        cap = 3 * size * size + 20 if opts["--pachi-cap"] == "equal" else None
        startup = min(pachi_cpu(pachi, size, PACHI_MIN, cap) for _ in range(5))
        for r in range(rounds):
            t = tablero_rate(tablero, size, seconds)
            p = pachi_rate(pachi, size, seconds, guess, cap, startup)
            guess = p
            rows.append((t, p, t / p))
            print(f"size {size} round {r + 1}/{rounds}: tablero {t:,.0f}/s, Pachi {p:,.0f}/s, "
                  f"ratio {t / p:.2f}", file=sys.stderr)
        print(f"\n{size}×{size}, light playouts per second, one thread, Pachi's move cap "
              f"{opts['--pachi-cap']}\n")
        print("| round | tablero | Pachi | ratio |")
        print("|---|---|---|---|")
        for i, (t, p, q) in enumerate(rows):
            print(f"| {i + 1} | {t:,.0f} | {p:,.0f} | {q:.2f} |")
        ratios = [q for _, _, q in rows]
        med = statistics.median(ratios)
        quart = statistics.quantiles(ratios, n=4) if len(ratios) > 1 else [med, med, med]
        print(f"| median | {statistics.median(t for t, _, _ in rows):,.0f} | "
              f"{statistics.median(p for _, p, _ in rows):,.0f} | **{med:.2f}** |")
        print(f"| quartiles of the ratio | | | {quart[0]:.2f}–{quart[2]:.2f} |")
        summary[f"ratio_{size}"] = round(med, 3)
        summary[f"quartiles_{size}"] = [round(quart[0], 3), round(quart[2], 3)]
        summary[f"ratios_{size}"] = [round(q, 3) for _, _, q in rows]
    summary["pachi_cap"] = opts["--pachi-cap"]
    print(json.dumps(summary))


if __name__ == "__main__":
    main()
