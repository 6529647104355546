#!/usr/bin/env python3
"""Generates the 19x19 Go tactics suite (data/go/tactics/tactics-19.txt) from positions GNU Go and Pachi agree on.

Games: GNU Go self-play at --level 1, opened by a few seeded random moves. Every --every moves
from --from-move on, each string whose tactical status GNU Go reads as critical (both `attack` and
`defend` succeed outright, no ko) and each dragon `dragon_status` calls critical (both
`owl_attack` and `owl_defend` succeed) is a candidate problem for the side to move. Its accepted
answers are every empty point near the target for which GNU Go's `does_attack`/`does_defend`
(`owl_does_attack`/`owl_does_defend` for dragons) succeeds outright. Pachi (no DCNN, --nopatterns,
a fixed playout budget, 1 thread) is then asked `genmove` in the position; the position is kept
when Pachi's move is an accepted answer of one of the candidate problems.

Categories: ladder (GNU Go's `ladder_attack` captures the target string), semeai (the target
string touches an opponent string that is critical too), life-and-death (an owl-critical dragon),
capture (any other critical string).

Usage: go_tactics_gen.py --seed 1 --games 12 --pachi /tmp/tablero-peers/pachi/pachi \
           --out data/go/tactics/tactics-19.txt
Only python3's standard library and the two GTP engines are used.
"""

import argparse
import os
import random
import subprocess
import sys

SIZE = 19
LETTERS = "ABCDEFGHJKLMNOPQRST"


def vname(p):
    x, y = p
    return f"{LETTERS[x]}{y + 1}"


def vparse(s):
    s = s.strip().upper()
    return (LETTERS.index(s[0]), int(s[1:]) - 1)


class Gtp:
    def __init__(self, argv, env=None):
        self.proc = subprocess.Popen(
            argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL, text=True, env=env)

    def cmd(self, line):
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()
        lines = []
        while True:
            out = self.proc.stdout.readline()
            if out == "":
                raise RuntimeError(f"engine died on {line!r}")
            if out.strip() == "" and lines:
                break
            if out.strip() == "":
                continue
            lines.append(out.rstrip("\n"))
        text = "\n".join(lines)
        if text.startswith("?"):
            raise RuntimeError(f"{line!r}: {text}")
        return text[1:].strip()

    def close(self):
        try:
            self.cmd("quit")
        except (RuntimeError, BrokenPipeError):
            pass
        self.proc.wait(timeout=10)


def neighbours(p):
    x, y = p
    for q in ((x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1)):
        if 0 <= q[0] < SIZE and 0 <= q[1] < SIZE:
            yield q


def strings(board):
    """board: dict point -> 'b'/'w'. Returns list of (color, stones set, liberties set)."""
    seen, out = set(), []
    for p, c in board.items():
        if p in seen:
            continue
        stones, libs, stack = {p}, set(), [p]
        while stack:
            q = stack.pop()
            for n in neighbours(q):
                if n not in board:
                    libs.add(n)
                elif board[n] == c and n not in stones:
                    stones.add(n)
                    stack.append(n)
        seen |= stones
        out.append((c, stones, libs))
    return out


def read_board(gg):
    board = {}
    for color in ("black", "white"):
        for v in gg.cmd(f"list_stones {color}").split():
            board[vparse(v)] = color[0]
    return board


def ok(reply):
    """GNU Go's `1 MOVE` / `1` (outright success) as True; 0 or ko results as False."""
    return reply.split()[:1] == ["1"]


def near(board, stones, radius):
    pts = set()
    for (x, y) in stones:
        for dx in range(-radius, radius + 1):
            for dy in range(-radius, radius + 1):
                q = (x + dx, y + dy)
                if abs(dx) + abs(dy) <= radius and 0 <= q[0] < SIZE and 0 <= q[1] < SIZE \
                        and q not in board:
                    pts.add(q)
    return pts


def worm_problems(gg, board, to_move, before, now):
    """Critical strings that were not critical before the last move (keys in `before`); every
    critical string's key goes into `now`."""
    strs = strings(board)
    critical = []
    for color, stones, libs in strs:
        if len(libs) > 4:
            continue
        target = vname(min(stones))
        if ok(gg.cmd(f"attack {target}")) and ok(gg.cmd(f"defend {target}")):
            critical.append((color, stones, libs, target))
            now.add(("worm", frozenset(stones)))
    problems = []
    for color, stones, libs, target in critical:
        if ("worm", frozenset(stones)) in before:
            continue
        ladder = len(libs) == 2 and ok(gg.cmd(f"ladder_attack {target}"))
        if len(stones) < 2 and not ladder:
            continue
        adjacent = set()
        for s in stones:
            adjacent |= {n for n in neighbours(s) if board.get(n) not in (None, color)}
        semeai = any(c2 != color and (s2 & adjacent) and len(s2) >= 2
                     for c2, s2, _, _ in critical)
        category = "ladder" if ladder else "semeai" if semeai else "capture"
        verb = "does_defend" if color == to_move else "does_attack"
        cands = set(libs) | near(board, stones, 2)
        for c2, s2, l2 in strs:
            if c2 != color and s2 & adjacent:
                cands |= l2
        answers = sorted(vname(m) for m in cands
                         if ok(gg.cmd(f"{verb} {vname(m)} {target}")))
        if answers:
            problems.append((category, target, answers))
    return problems


def owl_problems(gg, board, to_move, before, now):
    """Owl-critical dragons that were not critical before the last move."""
    problems, done = [], set()
    for color, stones, _ in strings(board):
        if len(stones) < 3 or min(stones) in done:
            continue
        target = vname(min(stones))
        dragon = {vparse(v) for v in gg.cmd(f"dragon_stones {target}").split()}
        done |= dragon
        if gg.cmd(f"dragon_status {target}").split()[:1] != ["critical"]:
            continue
        if not (ok(gg.cmd(f"owl_attack {target}")) and ok(gg.cmd(f"owl_defend {target}"))):
            continue
        now.add(("owl", frozenset(dragon)))
        if ("owl", frozenset(dragon)) in before:
            continue
        verb = "owl_does_defend" if color == to_move else "owl_does_attack"
        cands = near(board, dragon, 2)
        answers = sorted(vname(m) for m in cands
                         if ok(gg.cmd(f"{verb} {vname(m)} {target}")))
        if answers and len(answers) <= len(cands) // 2:
            problems.append(("life-and-death", target, answers))
    return problems


def pachi_move(args, board, to_move, seed):
    env = dict(os.environ, DATA_DIR=os.path.dirname(args.pachi))
    pachi = Gtp([args.pachi, "--nopatterns", "-t", f"={args.pachi_playouts}", "threads=1",
                 "-s", str(seed)], env=env)
    try:
        pachi.cmd(f"boardsize {SIZE}")
        pachi.cmd("clear_board")
        pachi.cmd(f"komi {args.komi}")
        for p, c in sorted(board.items()):
            pachi.cmd(f"play {c} {vname(p)}")
        return pachi.cmd(f"genmove {to_move}").upper()
    finally:
        pachi.close()


def play_move(gg, rng, i):
    """Plays move i of the game: seeded random for the first six, GNU Go's genmove after.
    False when GNU Go passes or resigns."""
    c = "bw"[i % 2]
    if i < 6:
        while True:
            p = (rng.randrange(3, SIZE - 3), rng.randrange(3, SIZE - 3))
            try:
                gg.cmd(f"play {c} {vname(p)}")
                return True
            except RuntimeError:
                continue
    return gg.cmd(f"genmove {c}").upper() not in ("PASS", "RESIGN")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--games", type=int, default=12)
    ap.add_argument("--from-move", type=int, default=40)
    ap.add_argument("--to-move", type=int, default=200)
    ap.add_argument("--every", type=int, default=9)
    ap.add_argument("--gnugo", default="/usr/games/gnugo")
    ap.add_argument("--pachi", required=True)
    ap.add_argument("--pachi-playouts", type=int, default=20000)
    ap.add_argument("--komi", type=float, default=7.5)
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    kept = []
    for g in range(args.games):
        game_seed = rng.randrange(1 << 30)
        gg = Gtp([args.gnugo, "--mode", "gtp", "--level", "1", "--seed", str(game_seed)])
        game_rng = random.Random(game_seed)
        gg.cmd(f"boardsize {SIZE}")
        gg.cmd("clear_board")
        gg.cmd(f"komi {args.komi}")
        before = set()
        for n in range(args.to_move + 1):
            if n >= args.from_move and (n - args.from_move) % args.every == 0:
                before = examine(args, gg, g, n, game_seed, kept, before)
            if not play_move(gg, game_rng, n):
                break
        gg.close()
        write(args, kept)

    print(f"game {g} move {n}: {problems}, pachi {reply}, "
def examine(args, gg, g, n, game_seed, kept, before):
    """Looks for problems in the position before move n; keeps it if Pachi agrees."""
    to_move = "b" if n % 2 == 0 else "w"
    board = read_board(gg)
    now = set()
    problems = worm_problems(gg, board, to_move, before, now) + \
        owl_problems(gg, board, to_move, before, now)
    if not problems:
        return now
    reply = pachi_move(args, board, to_move, game_seed + n)
    hit = [p for p in problems if reply in p[2]]
    print(f"game {g} move {n}: {problems}, pachi {reply}, "
          f"{'kept ' + hit[0][0] if hit else 'dropped'}", file=sys.stderr, flush=True)
    if hit:
        category, target, answers = hit[0]
        kept.append((f"g{g}m{n}", category, to_move, target, answers, board,
                     f"gnugo-level1-seed{game_seed}-move{n}"))
    return now


def write(args, kept):
    with open(args.out, "w") as f:
        f.write("# tablero 19x19 Go tactics suite: positions GNU Go 3.8 and Pachi 12.90 agree on.\n")
        f.write(f"# Generated by benches/scripts/go_tactics_gen.py --seed {args.seed} "
                f"--games {args.games} --from-move {args.from_move} --to-move {args.to_move} "
                f"--every {args.every} --pachi-playouts {args.pachi_playouts} --komi {args.komi}\n")
        f.write("# One position a line: id category to-move target answers black white source\n")
        f.write("# (answers, black, white: comma-separated vertices; '-' for none)\n")
        for pid, cat, to_move, target, answers, board, src in kept:
            black = ",".join(vname(p) for p in sorted(board) if board[p] == "b") or "-"
            white = ",".join(vname(p) for p in sorted(board) if board[p] == "w") or "-"
            f.write(f"{pid} {cat} {to_move.upper()} {target} {','.join(answers)} "
                    f"{black} {white} {src}\n")
    print(f"{len(kept)} positions written to {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
