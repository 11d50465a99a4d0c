#!/bin/sh
# Hadron 7 proof speed of one or more quintet binaries: `quintet solve` on
# each of the 26 positions of bench/positions/hadron-7-proofs.txt (plies
# 11 and 12 of 13 games of session 29's match against v0.1), at most CAP
# seconds each (default 10), one thread. Prints each answer, then per
# binary the positions proven and the nodes and seconds over those that
# every binary given proved (node counts are exact; times are noisy).
#
#     bench/hadron_proofs.sh [-t CAP] target/release/quintet [other binaries...]
set -eu
cap=10
if [ "${1:-}" = "-t" ]; then cap=$2; shift 2; fi
[ $# -ge 1 ] || { echo "usage: $0 [-t CAP] QUINTET_BINARY..." >&2; exit 2; }
here=$(dirname "$0")
positions="$here/positions/hadron-7-proofs.txt"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
i=0
for bin in "$@"; do
    i=$((i + 1))
    while read -r moves; do
        "$bin" --game hadron --size 7 solve --moves "$moves" --time "$cap" 2>&1 | tail -n 1
    done <"$positions" >"$out/$i"
    echo "== $bin"
    cat "$out/$i"
done
# Columns of a result line: "winner p1 nodes N time Ts ..." or "unknown nodes N time Ts".
awk -v runs="$#" '
    FNR == 1 { file++ }
    { proved[file, FNR] = ($1 == "winner"); nodes[file, FNR] = $4; secs[file, FNR] = $6 + 0; lines = FNR }
    END {
        for (f = 1; f <= runs; f++) {
            n = 0; t = 0; count = 0; common = 0
            for (l = 1; l <= lines; l++) {
                count += proved[f, l]
                all = 1
                for (g = 1; g <= runs; g++) if (!proved[g, l]) all = 0
                if (all) { common++; n += nodes[f, l]; t += secs[f, l] }
            }
            printf "binary %d: %d of %d proved; over the %d all proved: %d nodes, %.2f s\n", f, count, lines, common, n, t
        }
    }' $(i=1; while [ $i -le $# ]; do printf '%s ' "$out/$i"; i=$((i + 1)); done)
