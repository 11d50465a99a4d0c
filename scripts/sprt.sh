#!/usr/bin/env bash
# SPRT between two git revisions of quintet.
#
#   scripts/sprt.sh NEW OLD [quintet match options ...]
#
# Builds both revisions with bench/baseline.sh (each in a temporary git
# worktree; binaries cached by commit under $QUINTET_BUILDS, default
# ~/.cache/quintet-builds), builds the
# match runner from this checkout, and runs `quintet match` with NEW as
# engine A (the statistics are NEW's) until the SPRT decides.
#
# Without match options: Hadron 7x7, 10+0.1 s, bench/openings/hadron-7.txt,
# a record in sprt-NEW-OLD.txt. Environment:
#   SPRT     the test (default "elo0=0 elo1=5 alpha=0.05 beta=0.05")
#   EACH     options for both engines (default "option.Threads=1 option.Hash=64")
#   NEW_OPTS, OLD_OPTS  options for one engine (e.g. "option.Search=mcts")
#
# Example: scripts/sprt.sh HEAD main
#          SPRT="elo0=-5 elo1=0" scripts/sprt.sh HEAD main --game atoms --tc 5+0.05 \
#              --openings bench/openings/atoms-8.txt
set -euo pipefail

if [ $# -lt 2 ]; then
    sed -n '2,22p' "$0" | sed 's/^# \{0,1\}//'
    exit 2
fi
new_rev=$1
old_rev=$2
shift 2

root=$(git rev-parse --show-toplevel)
# Binaries of revisions are built and cached by bench/baseline.sh.
binary_of() {
    "$root/bench/baseline.sh" "$1"
}

new_bin=$(binary_of "$new_rev")
old_bin=$(binary_of "$old_rev")
echo "sprt.sh: building the match runner of this checkout" >&2
cargo build --release --quiet --manifest-path "$root/Cargo.toml"
runner="$root/target/release/quintet"

new_name="new-$(git -C "$root" rev-parse --short "$new_rev")"
old_name="old-$(git -C "$root" rev-parse --short "$old_rev")"
if [ $# -eq 0 ]; then
    set -- --game hadron --size 7 --tc 10+0.1 \
        --openings "$root/bench/openings/hadron-7.txt" \
        --record "sprt-$new_name-$old_name.txt"
fi

exec "$runner" match \
    --engine "name=$new_name cmd='$new_bin' ${NEW_OPTS:-}" \
    --engine "name=$old_name cmd='$old_bin' ${OLD_OPTS:-}" \
    --each "${EACH:-option.Threads=1 option.Hash=64}" \
    --sprt "${SPRT:-elo0=0 elo1=5 alpha=0.05 beta=0.05}" \
    "$@"
