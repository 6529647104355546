#!/bin/bash
# Runs `tablero gvgai play` for every game:level × controller at nice 5 and appends one JSON
# line per run (with the 1-minute load average before and after) to OUT.
# usage: sweep.sh BIN OUT "controllers" "game:levels ..." [extra args]
BIN=$1; OUT=$2; CTRLS=$3; GAMES=$4; shift 4
for g in $GAMES; do
  game=${g%%:*}; levels=${g#*:}
  for l in ${levels//,/ }; do
    for c in $CTRLS; do
      la=$(cut -d' ' -f1-3 /proc/loadavg)
      line=$(nice -n 5 $BIN gvgai play --game $game --level $l --controller $c --seed 0 "$@" 2>/dev/null | tail -1)
      la2=$(cut -d' ' -f1-3 /proc/loadavg)
      echo "{\"load_before\":\"$la\",\"load_after\":\"$la2\",\"run\":$line}" >> $OUT
      echo "$game $l $c done" >&2
    done
  done
done
