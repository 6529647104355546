#!/bin/bash
# Regenerates the training games of the MM move-prediction table (`tablero go-train`): GNU Go
# self-play through `tablero match`, every game seeded (`--seed {game}` for Black,
# `--seed 1000{game}` for White; the level varies between batches), one SGF per game.
# usage: go_train_data.sh TABLERO OUT_DIR [GAMES_9x9_PER_LEVEL] [GAMES_19x19]
# Defaults: 50 games per level at levels 2 4 6 8 on 9×9 (komi 7), and on 19×19 (komi 7.5)
# two shards of 30 games at level 1 with different seeds. On a loaded 2-core machine a 9×9 game takes ~5–10 s and a 19×19 game
# ~50 s. GNU Go 3.8 is found as $GNUGO (default /usr/games/gnugo).
set -euo pipefail
BIN=$1; OUT=$2; N9=${3:-50}; N19=${4:-30}
GNUGO=${GNUGO:-/usr/games/gnugo}
for level in 2 4 6 8; do
  dir="$OUT/9x9-level$level"; mkdir -p "$dir"
  nice -n 5 "$BIN" match --size 9 --komi 7 --games "$N9" --sgf-dir "$dir" \
    --black "$GNUGO --mode gtp --chinese-rules --level $level --seed {game}" \
    --white "$GNUGO --mode gtp --chinese-rules --level $level --seed 1000{game}" >"$dir/summary.json"
done
# 19×19 in two shards at once (one per core): different seeds, same level.
for shard in a b; do
  if [ $shard = a ]; then sb="{game}"; sw="1000{game}"; else sb="2000{game}"; sw="3000{game}"; fi
  dir="$OUT/19x19-level1-$shard"; mkdir -p "$dir"
  nice -n 5 "$BIN" match --size 19 --komi 7.5 --games "$N19" --sgf-dir "$dir" \
    --black "$GNUGO --mode gtp --chinese-rules --level 1 --seed $sb" \
    --white "$GNUGO --mode gtp --chinese-rules --level 1 --seed $sw" >"$dir/summary.json" &
done
wait
