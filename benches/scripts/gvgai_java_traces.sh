#!/bin/bash
# Regenerates data/gvgai/java_corpus_traces.txt, the GVG-AI Java framework's canonical state
# traces of every single-player game of data/gvgai/corpus (read by tests/gvgai_corpus.rs).
# usage: benches/scripts/gvgai_java_traces.sh GVGAI_DIR [ACTS]
#   GVGAI_DIR: a checkout of GAIGResearch/GVGAI (commit e58ff65) with gson-2.6.2.jar; its
#   classes are taken from GVGAI_DIR/build if compiled there, else compiled from GVGAI_DIR/src.
#   ACTS: cycles per run (default 300; tests/gvgai_corpus.rs must use the same number).
# Needs a JDK (javac, java; 17 works). Runs one game at a time, progress on stderr.
set -euo pipefail
GVGAI=$(cd "$1" && pwd)
ACTS=${2:-300}
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
java -cp "$CLASSES:$GSON:$WORK/tool" TraceCorpus "$ROOT/data/gvgai/corpus" \
  "$ROOT/data/gvgai/java_corpus_traces.txt" "$ACTS" >&2
