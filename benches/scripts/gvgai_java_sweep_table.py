#!/usr/bin/env python3
"""Tables of gvgai_java_sweep.sh's output: a per-game table (result per controller), a
per-family summary and totals with 95 % Wilson intervals, in Markdown.
usage: gvgai_java_sweep_table.py OUT_TABLERO OUT_JAVA FAMILIES
  FAMILIES: game=family,game=family,... (every game of the runs), or vgdl:DIR to classify
  every game by its VGDL description in DIR (see `family`)."""
import json
import math
import os
import sys

# Sprite classes whose moves draw on the game's random generator (random steps, random
# tie-breaks between equally good moves, random missile or bomb directions).
RANDOM_CLASSES = {"RandomNPC", "Chaser", "Fleeing", "AlternateChaser", "RandomAltChaser",
                  "PathAltChaser", "RandomPathAltChaser", "PathChaser", "LOSChaser",
                  "RandomMissile", "RandomBomber", "RandomInertial", "BomberRandomMissile",
                  "ErraticMissile", "WalkerJumper", "Walker"}
# Classes that are random only with a probability parameter below 1.
PROB_CLASSES = {"SpawnPoint", "Bomber", "SpawnPointMultiSprite", "Spreader"}
RANDOM_EFFECTS = {"transformToRandomChild", "teleportToExit", "attractGaze", "windGust",
                  "slipForward"}
# Classes that keep still unless something acts on them.
STILL_CLASSES = {"Immovable", "Passive", "Resource", "Door", "Flicker", "OrientedFlicker",
                 "Portal", "MovingAvatar", "OrientedAvatar", "HorizontalAvatar"}
SHOOTING_AVATARS = {"ShootAvatar", "FlakAvatar", "OngoingShootAvatar"}


def vgdl_sections(text):
    out, cur = {}, None
    for raw in text.splitlines():
        line = raw.split("#")[0].rstrip()
        if not line.strip():
            continue
        word = line.split()[0]
        if word in ("SpriteSet", "InteractionSet", "TerminationSet", "LevelMapping"):
            cur = out.setdefault(word, [])
        elif cur is not None:
            cur.append(line)
    return out


def sprite_classes(lines):
    """(class, parameters) of every sprite type, a class inherited from the enclosing type."""
    stack = []
    for line in lines:
        indent = len(line) - len(line.lstrip())
        while stack and stack[-1][0] >= indent:
            stack.pop()
        rhs = line.split(">", 1)[1].split() if ">" in line else []
        cls = rhs[0] if rhs and "=" not in rhs[0] else (stack[-1][1] if stack else None)
        stack.append((indent, cls))
        yield cls, dict(kv.split("=", 1) for kv in rhs if "=" in kv)


def family(path):
    """shooter: the avatar shoots (a USE action that spawns a sprite); puzzle: nothing moves
    but the avatar, one step per action, and nothing is random; arcade: the rest."""
    s = vgdl_sections(open(path).read())
    classes = list(sprite_classes(s.get("SpriteSet", [])))
    if any(c in SHOOTING_AVATARS for c, _ in classes):
        return "shooter"
    random = any(c in RANDOM_CLASSES for c, _ in classes) or any(
        c in PROB_CLASSES and float(p.get(k, 1)) < 1 for c, p in classes for k in ("prob", "spreadprob"))
    for line in s.get("InteractionSet", []):
        rhs = line.split(">", 1)[1].split() if ">" in line else []
        random |= bool(rhs) and rhs[0] in RANDOM_EFFECTS
        random |= any(kv.startswith("prob=") and float(kv[5:]) < 1 for kv in rhs)
    still = all(c is None or c in STILL_CLASSES for c, _ in classes)
    return "puzzle" if still and not random else "arcade"


def families(spec, games):
    if spec.startswith("vgdl:"):
        d = spec[5:]
        return {g: family(os.path.join(d, g + ".txt")) for g in games}
    return dict(kv.split("=") for kv in spec.split(","))


def wilson(k, n, z=1.96):
    if n == 0:
        return (0.0, 0.0)
    p = k / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return (max(0.0, c - h), min(1.0, c + h))


def load(path, tablero):
    runs = []
    for line in open(path):
        line = line.strip()
        if not line:
            continue
        j = json.loads(line)
        r = j["run"]["record"] if tablero else j["run"]
        runs.append(dict(r, load_before=j["load_before"], load_after=j["load_after"]))
    return runs


def main():
    t = load(sys.argv[1], True)
    j = load(sys.argv[2], False)
    fam = families(sys.argv[3], {r["game"] for r in t})
    res = {}
    ctrls = []
    for r in t + j:
        c = ("tablero " + r["controller"]) if r in t else r["controller"]
        if c not in ctrls:
            ctrls.append(c)
        res[(r["game"], r["level"], c)] = r
    games = []
    for r in t:
        if all((r["game"], r["level"], c) in res for c in ctrls) and (r["game"], r["level"]) not in games:
            games.append((r["game"], r["level"]))
    print("| Game | Level | Family | " + " | ".join(ctrls) + " | load (1 min) |")
    print("|---" * (len(ctrls) + 4) + "|")
    for g, lv in games:
        cells = []
        loads = []
        for c in ctrls:
            r = res[(g, lv, c)]
            s = ("**win** " if r["win"] else "loss ") + "%g @%d" % (r["score"], r["ticks"])
            extra = []
            if r.get("overspent"):
                extra.append("%d over 40 ms" % r["overspent"])
            if r.get("too_long"):
                extra.append("%d over 50 ms" % r["too_long"])
            if r.get("disqualified"):
                extra.append("DISQUALIFIED")
            if r.get("error"):
                extra.append("error: " + r["error"])
            cells.append(s + (" (" + ", ".join(extra) + ")" if extra else ""))
            loads += [float(r["load_before"].split()[0]), float(r["load_after"].split()[0])]
        print("| %s | %d | %s | %s | %.1f–%.1f |" % (g, lv, fam[g], " | ".join(cells), min(loads), max(loads)))
    print()
    fams = sorted(set(fam[g] for g, _ in games))
    print("| Controller | " + " | ".join(fams) + " | total wins (95 % Wilson) | mean score |")
    print("|---" * (len(fams) + 3) + "|")
    for c in ctrls:
        row = []
        for f in fams:
            cell = [res[(g, lv, c)] for g, lv in games if fam[g] == f]
            row.append("%d/%d" % (sum(r["win"] for r in cell), len(cell)))
        allr = [res[(g, lv, c)] for g, lv in games]
        k, n = sum(r["win"] for r in allr), len(allr)
        lo, hi = wilson(k, n)
        mean = sum(r["score"] for r in allr) / n if n else 0
        print("| %s | %s | %d/%d (%.0f–%.0f %%) | %.1f |" % (c, " | ".join(row), k, n, 100 * lo, 100 * hi, mean))


main()
