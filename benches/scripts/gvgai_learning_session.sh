#!/bin/bash
# One whole GVG-AI learning-track session: the Java framework's own server
# (`tracks.singleLearning.TestSingleLearning`: START, training on levels 0-2, validation on
# levels 3-4 ten times, FINISH) drives `tablero gvgai connect` over its socket on port 8080.
# usage: benches/scripts/gvgai_learning_session.sh GVGAI_DIR TABLERO_BIN GAME [CONTROLLER] [OUT_DIR]
#   GVGAI_DIR: a checkout of GAIGResearch/GVGAI (commit e58ff65) with its classes compiled into
#   GVGAI_DIR/build (see gvgai_java_traces.sh). GAME: one of the server's grid games (its list
#   in TestSingleLearning.java, e.g. aliens or sokoban). CONTROLLER: default olets.
#   OUT_DIR (default: a new temporary folder) receives server.log (the server's output, with its
#   per-level results), client.json (tablero's session summary) and client.log.
# Prints the summary's key figures and exits 1 unless tablero's summary says "finished": true.
set -euo pipefail
GVGAI=$(cd "$1" && pwd); BIN=$(realpath "$2"); GAME=$3; CTRL=${4:-olets}
OUT=${5:-$(mktemp -d)}; mkdir -p "$OUT"; OUT=$(cd "$OUT" && pwd)
GSON=$(ls "$GVGAI"/gson-*.jar | head -1)
list="$GVGAI/src/tracks/singleLearning/TestSingleLearning.java"
# The server picks its game by index in its own list.
id=$(python3 - "$list" "$GAME" <<'PY'
import re, sys
src = re.sub(r"//[^\n]*", "", open(sys.argv[1]).read())
grid = re.search(r"games\s*=\s*new String\[\]\s*\{([^}]*)\}", src).group(1)
names = re.findall(r'"([^"]+)"', grid)
print(names.index(sys.argv[2]) if sys.argv[2] in names else "")
PY
)
[ -n "$id" ] || { echo "$GAME is not in the server's game list ($list)" >&2; exit 2; }
# The server starts its client with SHDIR/runClient_nocompile.sh AGENT PORT TYPE DIR.
SHDIR="$OUT/sh"; mkdir -p "$SHDIR"
cat > "$SHDIR/runClient_nocompile.sh" <<EOF
#!/bin/bash
exec "$BIN" gvgai connect --server "127.0.0.1:\$2" --controller "$CTRL" --game "$GAME" \
  --games-dir "$GVGAI/examples/gridphysics" > "$OUT/client.json" 2> "$OUT/client.log"
EOF
chmod +x "$SHDIR/runClient_nocompile.sh"
# The framework reads sprite images and games relative to its own folder.
(cd "$GVGAI" && java -cp "$GVGAI/build:$GSON" tracks.singleLearning.TestSingleLearning \
  -gameId "$id" -shDir "$SHDIR" -gamesDir .) > "$OUT/server.log" 2>&1
# The client ends when the server sends FINISH and closes; give it a moment to write.
for _ in $(seq 50); do [ -s "$OUT/client.json" ] && break; sleep 0.1; done
echo "server log: $OUT/server.log"
tail -1 "$OUT/client.json"
grep -q '"finished":true' "$OUT/client.json"
