#!/bin/sh
# Atoms 8 playout speed (issue 17) of one or more quintet binaries:
# instructions (callgrind) for uct-plain `go nodes 20000` from the start,
# and playouts per CPU second (user time of `go nodes 100000`, three runs),
# which a loaded machine disturbs less than wall-clock nps.
#
#     bench/atoms_playouts.sh target/release/quintet [other binaries...]
set -eu
[ $# -ge 1 ] || { echo "usage: $0 QUINTET_BINARY..." >&2; exit 2; }
session() {
    printf 'setoption name Game value atoms\nsetoption name Search value uct-plain\nsetoption name Seed value 3\nisready\nposition startpos\ngo nodes %s\nquit\n' "$1"
}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
for bin in "$@"; do
    session 20000 | "$bin" | grep bestmove
    session 20000 | valgrind --tool=callgrind --callgrind-out-file="$out/cg" "$bin" 2>&1 >/dev/null |
        awk -v b="$bin" '/refs:/ { gsub(",", "", $4); printf "%s: %d instructions, %d per playout\n", b, $4, $4 / 20000 }'
    for run in 1 2 3; do
        session 100000 | /usr/bin/time -f "%U" "$bin" 2>"$out/time" >/dev/null
        awk -v b="$bin" '{ printf "%s: %.2f s user, %d playouts per CPU second\n", b, $1, 100000 / $1 }' "$out/time"
    done
done
echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"
