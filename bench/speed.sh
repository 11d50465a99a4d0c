#!/usr/bin/env bash
# Speed of every game through the engine itself: perft (nodes/s) and the
# random playouts/s that its MCTS reports (the `nps` of the last info line
# of a one-thread `go movetime`, Search uct-plain and mcts).
# Usage: bench/speed.sh [movetime-ms]   (default 3000)
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release -q
bin=target/release/quintet
movetime=${1:-3000}

# game size variant perft-depth [moves]
cases=(
  "hadron 5 standard 6"
  "hadron 7 standard 5"
  "atoms 8 standard 5"
  "atoms 8 radioactive-isotopes 4"
  "tritium 5 standard 3"
  "tritium 7 standard 3"
  "ihex 6 standard 3"
  "ihex 8 standard 3"
  "nadraz 6 standard 4"
  "nadraz 10 standard 3 B@j10+W@k11 white"
)

printf '%-32s %14s %12s %14s %14s\n' game perft-nodes perft-ms perft-nps playouts/s
for case in "${cases[@]}"; do
  read -r game size variant depth moves <<<"$case"
  if ! $bin --game "$game" --size "$size" --variant "$variant" perft 1 >/dev/null 2>&1; then
    continue  # game not built in this revision
  fi
  perft=$($bin --game "$game" --size "$size" --variant "$variant" perft "$depth" --moves "${moves:-}" | tail -1)
  nodes=$(awk '{print $3}' <<<"$perft")
  ms=$(awk '{print $5}' <<<"$perft")
  nps=$(awk '{print $7}' <<<"$perft")
  playouts=$(printf 'setoption name Search value uct-plain\nisready\nposition startpos moves %s\ngo movetime %s\n' \
      "${moves:-}" "$movetime" | $bin --game "$game" --size "$size" --variant "$variant" \
      | grep '^info depth' | tail -1 | sed -E 's/.* nps ([0-9]+) .*/\1/')
  printf '%-32s %14s %12s %14s %14s\n' "$game $size $variant" "$nodes" "$ms" "$nps" "$playouts"
done
