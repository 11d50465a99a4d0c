#!/usr/bin/env bash
# SPRT between two git revisions of quintet.
#
#   scripts/sprt.sh NEW OLD [quintet match options ...]
#
# Builds both revisions (each in a temporary git worktree; binaries are
# cached by commit under $QUINTET_BUILDS, default ~/.cache/quintet-builds,
# with one shared cargo target dir so dependencies build once), builds the
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
builds=${QUINTET_BUILDS:-$HOME/.cache/quintet-builds}
mkdir -p "$builds"

# Prints the path of the quintet binary of a revision, building it if needed.
binary_of() {
    local commit dir
    commit=$(git -C "$root" rev-parse --verify "$1^{commit}") || {
        echo "sprt.sh: '$1' is not a revision" >&2
        return 1
    }
    dir="$builds/$commit"
    if [ ! -x "$dir/quintet" ]; then
        echo "sprt.sh: building $1 ($commit)" >&2
        local src="$builds/src-$commit"
        rm -rf "$src"
        git -C "$root" worktree add --detach --quiet "$src" "$commit"
        if ! cargo build --release --quiet --manifest-path "$src/Cargo.toml" \
            --target-dir "$builds/target" >&2; then
            git -C "$root" worktree remove --force "$src"
            echo "sprt.sh: building $1 failed" >&2
            return 1
        fi
        mkdir -p "$dir"
        cp "$builds/target/release/quintet" "$dir/quintet"
        git -C "$root" worktree remove --force "$src"
    fi
    echo "$dir/quintet"
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
