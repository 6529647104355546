#!/bin/bash
# Regenerates data/gvgai/java_corpus_traces.txt, the GVG-AI Java framework's canonical state
# traces of every game of data/gvgai/corpus (read by tests/gvgai_corpus.rs); with --long,
# data/gvgai/java_long_traces.txt instead: 1100-cycle runs of the games whose ends only long
# runs reach (2player mimic and unbalanced) and of the test games counters, gamespace
# and inertia of tests/gvgai_games (written under the category `tests`).
# usage: benches/scripts/gvgai_java_traces.sh [--long] GVGAI_DIR [ACTS]
#   GVGAI_DIR: a checkout of GAIGResearch/GVGAI (commit e58ff65) with gson-2.6.2.jar; its
#   classes are taken from GVGAI_DIR/build if compiled there, else compiled from GVGAI_DIR/src.
#   ACTS: cycles per run (default 300, 1100 with --long; tests/gvgai_corpus.rs must use the
#   same number).
# Needs a JDK (javac, java; 17 works). Runs one game at a time, progress on stderr.
set -euo pipefail
LONG=0
if [ "${1:-}" = "--long" ]; then
  LONG=1
  shift
fi
GVGAI=$(cd "$1" && pwd)
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
GSON=$(ls "$GVGAI"/gson-*.jar | head -1)
CLASSES="$GVGAI/build"
if [ ! -f "$CLASSES/core/game/Game.class" ]; then
  CLASSES="$WORK/gvgai"
  mkdir -p "$CLASSES"
  find "$GVGAI/src" -name '*.java' > "$WORK/sources.txt"
  javac -nowarn -encoding UTF-8 -d "$CLASSES" -cp "$GSON" @"$WORK/sources.txt" 2>/dev/null
fi
mkdir -p "$WORK/tool"
javac -nowarn -d "$WORK/tool" -cp "$CLASSES:$GSON" "$ROOT/benches/tools/gvgai-java/TraceCorpus.java"
# The framework reads sprite images relative to its own folder.
cd "$GVGAI"
if [ "$LONG" = 0 ]; then
  java -cp "$CLASSES:$GSON:$WORK/tool" TraceCorpus "$ROOT/data/gvgai/corpus" \
    "$ROOT/data/gvgai/java_corpus_traces.txt" "${2:-300}" >&2
  exit 0
fi
mkdir -p "$WORK/games/2player" "$WORK/games/gridphysics" "$WORK/games/contphysics"
for g in mimic unbalanced; do
  cp "$ROOT/data/gvgai/corpus/2player/$g"*.txt "$WORK/games/2player/"
done
for g in counters gamespace; do
  cp "$ROOT/tests/gvgai_games/$g"*.txt "$WORK/games/gridphysics/"
done
cp "$ROOT/tests/gvgai_games/inertia"*.txt "$WORK/games/contphysics/"
java -cp "$CLASSES:$GSON:$WORK/tool" TraceCorpus "$WORK/games" "$WORK/long.txt" "${2:-1100}" >&2
{
  echo "# GVG-AI (GAIGResearch/GVGAI e58ff65) canonical state traces of 1100-cycle runs, by"
  echo "# benches/scripts/gvgai_java_traces.sh --long; format in tests/gvgai_corpus.rs (category"
  echo "# tests: the games of tests/gvgai_games)."
  grep -v '^#' "$WORK/long.txt" | sed -E 's/^(gridphysics|contphysics) /tests /'
} > "$ROOT/data/gvgai/java_long_traces.txt"
