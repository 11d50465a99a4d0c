#!/usr/bin/env bash
# The strength matches behind bench/RESULTS.md, one per (suite, game), each
# played through the engine by `quintet match` from the game's opening
# suite in seat-swapped pairs at 100 ms per move.
#
# Usage: bench/strength.sh SUITE GAME [GAMES]
#   SUITE  auto-vs-plain   Search auto against the uct-plain baseline (1 thread each)
#          mcts-vs-ab      Search mcts against Search alphabeta (1 thread each)
#          threads         Search auto with 2 threads against 1 thread (one game at a time)
#          vs-v01          Search auto against v0.1's auto (the pinned baseline build of
#                          bench/baseline.sh), 1 thread each; TC=10+0.1 for the long clock
#   GAME   hadron (7x7), atoms (8x8), tritium (5), ihex (6), nadraz (10)
#   GAMES  default 200 for auto-vs-plain, 100 otherwise
# Writes bench/results/SUITE-GAME.{summary,records}.
set -euo pipefail
cd "$(dirname "$0")/.."
suite=${1:?suite}; game=${2:?game}
case $game in
  hadron) size=7 ;; atoms) size=8 ;; tritium) size=5 ;; ihex) size=6 ;; nadraz) size=10 ;;
  *) echo "unknown game $game" >&2; exit 2 ;;
esac
cargo build --release -q
bin=$(pwd)/target/release/quintet
mkdir -p bench/results
openings=bench/openings/$game-$size.txt
# TC (e.g. 10+0.1) plays on a clock instead of 100 ms per move.
if [ -n "${TC:-}" ]; then limit=(--tc "$TC"); tag=-${TC//+/_}; else limit=(--movetime 100); tag=; fi
common=(--game "$game" --size "$size" "${limit[@]}" --openings "$openings"
        --record "bench/results/$suite-$game$tag.records" --progress-every 20)
case $suite in
  auto-vs-plain)
    "$bin" match "${common[@]}" --games "${3:-200}" --concurrency 2 \
      --engine "name=auto cmd=$bin option.Search=auto option.Threads=1" \
      --engine "name=uct-plain cmd=$bin option.Search=uct-plain option.Threads=1" ;;
  mcts-vs-ab)
    "$bin" match "${common[@]}" --games "${3:-100}" --concurrency 2 \
      --engine "name=mcts cmd=$bin option.Search=mcts option.Threads=1" \
      --engine "name=alphabeta cmd=$bin option.Search=alphabeta option.Threads=1" ;;
  threads)
    "$bin" match "${common[@]}" --games "${3:-100}" --concurrency 1 \
      --engine "name=auto-2t cmd=$bin option.Search=auto option.Threads=2" \
      --engine "name=auto-1t cmd=$bin option.Search=auto option.Threads=1" ;;
  vs-v01)
    old=$(bench/baseline.sh 1e32da7)
    "$bin" match "${common[@]}" --games "${3:-400}" --concurrency 2 --sprt 0,50 \
      --engine "name=auto cmd=$bin option.Search=auto option.Threads=1" \
      --engine "name=v0.1 cmd=$old option.Search=auto option.Threads=1" ;;
  *) echo "unknown suite $suite" >&2; exit 2 ;;
esac | tee "bench/results/$suite-$game$tag.summary"
