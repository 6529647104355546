#!/bin/bash
# Runs `tablero gvgai play --game butterflies` for every level × seed at nice 5 and appends one
# JSON line per run (with the 1-minute load average before and after) to OUT.
# usage: bf.sh BIN OUT CONTROLLER "levels" "seeds"
BIN=$1; OUT=$2; C=$3; LEVELS=$4; SEEDS=$5
for l in $LEVELS; do
  for s in $SEEDS; do
    la=$(cut -d' ' -f1-3 /proc/loadavg)
    line=$(nice -n 5 $BIN gvgai play --game butterflies --level $l --controller $C --seed $s 2>/dev/null | tail -1)
    la2=$(cut -d' ' -f1-3 /proc/loadavg)
    echo "{\"load_before\":\"$la\",\"load_after\":\"$la2\",\"run\":$line}" >> $OUT
    echo "butterflies $l $s done" >&2
  done
done
