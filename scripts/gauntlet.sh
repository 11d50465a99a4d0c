#!/usr/bin/env bash
# One engine against a list of opponents (settings of quintet or other
# programs) in one `quintet match --gauntlet`: joint ratings (the engine at
# 0) and a cross table at the end.
#
#   scripts/gauntlet.sh ENGINE OPPONENT [OPPONENT ...] [-- quintet match options ...]
#
# ENGINE and each OPPONENT are engine specs as for `quintet match --engine`
# ("name=X cmd=PROGRAM option.Name=value ..."). A spec without cmd= runs
# this checkout's target/release/quintet (built first); one without name=
# is named after its options. Without match options: Hadron 7x7, 100 ms per
# move, 40 games per opponent, bench/openings/hadron-7.txt. The record goes
# to gauntlet.txt (an interrupted gauntlet continues with
# `-- ... --resume`, the same options otherwise).
#
# Example:
#   scripts/gauntlet.sh "name=auto" "option.Search=uct-plain" \
#       "option.Search=alphabeta" "option.Search=random" -- --movetime 50 --games 20
set -euo pipefail

specs=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do
    specs+=("$1")
    shift
done
[ "${1:-}" = "--" ] && shift
if [ ${#specs[@]} -lt 2 ]; then
    sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//'
    exit 2
fi

root=$(git -C "$(dirname "$0")" rev-parse --show-toplevel)
cargo build --release --quiet --manifest-path "$root/Cargo.toml"
quintet="$root/target/release/quintet"

# Fills in cmd= and name= where a spec leaves them out.
complete_spec() {
    local spec=$1
    case " $spec" in *" cmd="*) ;; *) spec="cmd='$quintet' $spec" ;; esac
    case " $spec" in
        *" name="*) ;;
        *)
            local name
            name=$(printf '%s\n' "$spec" | tr ' ' '\n' | grep '^option\.' |
                sed 's/^option\.//' | paste -sd, -)
            spec="name=${name:-quintet} $spec"
            ;;
    esac
    printf '%s\n' "$spec"
}

if [ $# -eq 0 ]; then
    set -- --game hadron --size 7 --movetime 100 --games 40 \
        --openings "$root/bench/openings/hadron-7.txt"
fi

engines=()
for spec in "${specs[@]}"; do
    engines+=(--engine "$(complete_spec "$spec")")
done
exec "$quintet" match --gauntlet "${engines[@]}" --record gauntlet.txt "$@"
