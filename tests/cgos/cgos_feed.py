"""Plays a short game between two `tablero gtp` processes, each driven exactly as the CGOS
Python client (zakki/cgos, client-python/src/gtpengine.py) drives its engine, and reads every
move's analysis as that client and the CGOS server read it.

    python3 cgos_feed.py <tablero binary> [engine args...]

What the client does, and what is checked:
- It reads `list_commands` and picks its genmove form: `cgos-genmove_analyze` if listed
  (the engine then answers JSON), else `kata-genmove_analyze`, else `lz-genmove_analyze`.
  tablero must be driven in the `kata` form.
- Game setup: `boardsize`, `komi`, `time_settings <total s> 0 0`, `clear_board`; before each
  move `time_left <colour> <s> 0`, then `kata-genmove_analyze <colour> ownership true`,
  without an interval. The response is read up to the empty line; the move is the last word
  of the first line that starts with `play `, the analysis is the last line before it.
- The client turns that line into JSON: per `info` block the keys move, visits, winrate,
  scoreLead (as score), prior and pv (the moves after the first), numbers as int if they
  parse as one, else float; `ownership` values follow the last block. The CGOS server
  rejects an analysis that is not JSON, and the viewer shows win rates in [0, 1].

Prints one JSON line with the figures and exits 1 on the first failed check.
"""

import json
import subprocess
import sys
import time

SIZE = 9
GAME_SECONDS = 30
MOVES = 12


def fail(message):
    print(f"FAIL: {message}", file=sys.stderr)
    sys.exit(1)


def check(condition, message):
    if not condition:
        fail(message)


class Engine:
    """One engine process and the client's way of reading its responses."""

    def __init__(self, argv):
        self.proc = subprocess.Popen(
            argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
        )

    def send(self, command):
        """The response's lines, stripped, without the empty ones; as the client reads."""
        self.proc.stdin.write(command + "\n")
        self.proc.stdin.flush()
        lines, error = [], None
        while True:
            line = self.proc.stdout.readline()
            check(line != "", f"engine closed its output after {command!r}")
            if not line.strip():
                break
            if line[0] == "=":
                line = line[1:]
            elif line[0] == "?":
                error = line[1:].strip()
            line = line.strip()
            if line:
                lines.append(line)
        check(error is None, f"{command!r} rejected: {error}")
        return lines

    def quit(self):
        self.send("quit")
        self.proc.wait(timeout=10)


def number(token):
    try:
        return int(token)
    except ValueError:
        return float(token)


def client_json(line):
    """The client's conversion of a kata analysis line to the JSON it sends to CGOS."""
    tokens = line.split(" ")
    moves, ownership, i = [], None, 0
    while i < len(tokens):
        token = tokens[i]
        i += 1
        if token == "ownership":
            ownership = [number(t) for t in tokens[i:]]
            break
        check(token == "info", f"unexpected token {token!r} in {line}")
        block = {}
        while i < len(tokens) and tokens[i] not in ("info", "ownership"):
            key = tokens[i]
            i += 1
            if key == "pv":
                pv = []
                while i < len(tokens) and tokens[i] not in ("info", "ownership"):
                    pv.append(tokens[i])
                    i += 1
                block["pv"] = " ".join(pv[1:])
                break
            check(i < len(tokens), f"key {key} without a value in {line}")
            value = tokens[i]
            i += 1
            if key == "move":
                block["move"] = value
            elif key in ("visits", "winrate", "prior"):
                block[key] = number(value)
            elif key == "scoreLead":
                block["score"] = number(value)
        moves.append(block)
    visits = sum(m.get("visits", 0) for m in moves)
    info = {"moves": moves}
    if ownership is not None:
        info["ownership"] = ownership
    if visits > 0:
        info["visits"] = visits
        info["winrate"] = sum(m["winrate"] * m["visits"] / visits for m in moves)
    return info


def check_analysis(line, colour):
    info = client_json(line)
    # What the server stores: the analysis must survive its json.loads.
    stored = json.loads(json.dumps(info, indent=None, separators=(",", ":")))
    check(stored["moves"], f"{colour}: no move in the analysis {line}")
    for m in stored["moves"]:
        check("move" in m and "visits" in m and "winrate" in m, f"{colour}: block {m}")
        check(isinstance(m["visits"], int) and m["visits"] >= 0, f"{colour}: visits {m}")
        check(0.0 <= m["winrate"] <= 1.0, f"{colour}: win rate {m['winrate']} not in [0, 1]")
    own = stored.get("ownership")
    check(own is not None, f"{colour}: ownership asked for but missing: {line}")
    check(len(own) == SIZE * SIZE, f"{colour}: {len(own)} ownership values")
    check(all(-1.0 <= v <= 1.0 for v in own), f"{colour}: ownership out of [-1, 1]")
    check(0.0 <= stored.get("winrate", 0.5) <= 1.0, f"{colour}: root win rate")
    return stored


def main():
    argv = sys.argv[1:]
    check(argv, "usage: cgos_feed.py <tablero binary> [engine args...]")
    engines = {"b": Engine(argv), "w": Engine(argv)}
    for colour, engine in engines.items():
        listed = engine.send("list_commands")
        mode = next(
            (m for c, m in [("cgos-genmove_analyze", "cgos"), ("kata-genmove_analyze", "kata"),
                            ("lz-genmove_analyze", "lz")] if c in listed),
            None,
        )
        check(mode == "kata", f"the client would use the {mode} form")
        check("time_left" in listed and "time_settings" in listed, "no time control")
        for command in (f"boardsize {SIZE}", "komi 7", f"time_settings {GAME_SECONDS} 0 0",
                        "clear_board"):
            engine.send(command)
    left = {"b": GAME_SECONDS, "w": GAME_SECONDS}
    colour, other = "b", "w"
    record = []
    for _ in range(MOVES):
        engine = engines[colour]
        engine.send(f"time_left {colour} {int(left[colour])} 0")
        start = time.monotonic()
        lines = engine.send(f"kata-genmove_analyze {colour} ownership true")
        left[colour] -= time.monotonic() - start
        check(left[colour] > 0, f"{colour} lost on time")
        move, analysis = None, None
        for line in lines:
            if line.startswith("play "):
                move = line.split(" ")[-1]
                break
            analysis = line
        check(move is not None, f"{colour}: no play line in {lines}")
        check(analysis is not None, f"{colour}: no analysis before the play line: {lines}")
        stored = check_analysis(analysis, colour)
        record.append({"move": move, "moves": len(stored["moves"]),
                       "winrate": round(stored.get("winrate", 0.5), 4)})
        if move.lower() == "resign":
            break
        engines[other].send(f"play {colour} {move.lower()}")
        colour, other = other, colour
    for engine in engines.values():
        engine.quit()
    print(json.dumps({"cgos_feed": "ok", "moves": record,
                      "time_left": {c: round(t, 2) for c, t in left.items()}}))


if __name__ == "__main__":
    main()
