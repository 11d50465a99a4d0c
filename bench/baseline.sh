#!/usr/bin/env bash
# Builds a git revision of quintet into a cache and prints the binary's path.
#
#   bench/baseline.sh [REV]        (default: v0.1, commit 1e32da7)
#
# The pinned baseline for strength claims is v0.1 (1e32da7). Each revision
# is built once, in a temporary detached worktree, with one shared cargo
# target dir; binaries are cached by full commit id under $QUINTET_BUILDS
# (default ~/.cache/quintet-builds/<commit>/quintet). Example:
#
#   old=$(bench/baseline.sh)            # v0.1
#   target/release/quintet match --engine "name=new cmd=target/release/quintet" \
#       --engine "name=v0.1 cmd=$old" --game hadron --size 7 --movetime 100 ...
set -euo pipefail
rev=${1:-1e32da7}
root=$(git -C "$(dirname "$0")" rev-parse --show-toplevel)
builds=${QUINTET_BUILDS:-$HOME/.cache/quintet-builds}
mkdir -p "$builds"
commit=$(git -C "$root" rev-parse --verify --quiet "$rev^{commit}") || {
    echo "baseline.sh: '$rev' is not a revision of $root" >&2
    exit 1
}
dir="$builds/$commit"
if [ ! -x "$dir/quintet" ]; then
    echo "baseline.sh: building $rev ($commit)" >&2
    src="$builds/src-$commit"
    rm -rf "$src"
    git -C "$root" worktree prune
    git -C "$root" worktree add --detach --quiet "$src" "$commit"
    trap 'git -C "$root" worktree remove --force "$src" 2>/dev/null || true' EXIT
    cargo build --release --quiet --manifest-path "$src/Cargo.toml" \
        --target-dir "$builds/target" >&2
    mkdir -p "$dir"
    cp "$builds/target/release/quintet" "$dir/quintet.tmp"
    mv "$dir/quintet.tmp" "$dir/quintet"
fi
echo "$dir/quintet"
