#!/bin/bash
# Plays the same games, levels and seeds with tablero's controller (`tablero gvgai sweep`) and
# with the GVG-AI Java framework's own sample controllers (benches/tools/gvgai-java/
# SweepSamples.java), both under GVG-AI's budget (1 s init, 40 ms per act), one process at a
# time and interleaved per game (tablero first, then each Java controller) so that machine load
# hits all of them alike. Both read the game and level files of data/gvgai/corpus/CATEGORY.
# usage: benches/scripts/gvgai_java_sweep.sh GVGAI_DIR TABLERO_BIN OUT_TABLERO OUT_JAVA \
#          "CATEGORY/GAME:LEVEL ..." [TABLERO_CONTROLLER [SEED [JAVA_CONTROLLERS]]]
#   GVGAI_DIR: a checkout of GAIGResearch/GVGAI (commit e58ff65) with gson-2.6.2.jar, its
#   classes compiled into GVGAI_DIR/build (see gvgai_java_traces.sh).
#   TABLERO_CONTROLLER: default mcts; several, space-separated, play one after the other.
#   SEED: default 0 (tablero's episode seed and the Java framework's seed).
#   JAVA_CONTROLLERS: default "sampleMCTS sampleRHEA olets onestep"; "" plays none.
# Appends one JSON line per episode to OUT_TABLERO (tablero's sweep record) and OUT_JAVA
# (SweepSamples' line), each as {"load_before","load_after","run"} with the 1-minute,
# 5-minute and 15-minute load averages read just before and after the process. The runs
# themselves are not niced: their timing is what is measured.
set -euo pipefail
GVGAI=$(cd "$1" && pwd); BIN=$2; OUT_T=$3; OUT_J=$4; CELLS=$5
CTRLS=${6:-mcts}; SEED=${7:-0}; JCTRLS=${8-sampleMCTS sampleRHEA olets onestep}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
GSON=$(ls "$GVGAI"/gson-*.jar | head -1)
CLASSES="$GVGAI/build"
mkdir -p "$WORK/tool"
javac -nowarn -d "$WORK/tool" -cp "$CLASSES:$GSON" "$ROOT/benches/tools/gvgai-java/SweepSamples.java"
load() { cut -d' ' -f1-3 /proc/loadavg; }
for cell in $CELLS; do
  cat_game=${cell%%:*}; level=${cell#*:}
  category=${cat_game%%/*}; game=${cat_game#*/}
  dir="$ROOT/data/gvgai/corpus/$category"
  for tc in $CTRLS; do
    la=$(load)
    "$BIN" gvgai sweep --game "$game:$level" --controller "$tc" --seeds 1 --seed "$SEED" \
      --games-dir "$dir" --records-file "$WORK/records.jsonl" > "$WORK/summary.json"
    la2=$(load)
    echo "{\"load_before\":\"$la\",\"load_after\":\"$la2\",\"run\":$(tail -1 "$WORK/records.jsonl")}" >> "$OUT_T"
    rm -f "$WORK/records.jsonl"
  done
  for jc in $JCTRLS; do
    la=$(load)
    # The framework reads sprite images relative to its own folder.
    line=$(cd "$GVGAI" && java -cp "$CLASSES:$GSON:$WORK/tool" SweepSamples "$dir" "$game" "$level" "$SEED" "$jc")
    la2=$(load)
    echo "{\"load_before\":\"$la\",\"load_after\":\"$la2\",\"run\":$line}" >> "$OUT_J"
  done
done
