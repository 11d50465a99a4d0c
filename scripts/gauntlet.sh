#!/usr/bin/env bash
# One engine against a list of opponents (settings of quintet or other
# programs), one match each, then a table of the results.
#
#   scripts/gauntlet.sh ENGINE OPPONENT [OPPONENT ...] [-- quintet match options ...]
#
# ENGINE and each OPPONENT are engine specs as for `quintet match --engine`
# ("name=X cmd=PROGRAM option.Name=value ..."). A spec without cmd= runs
# this checkout's target/release/quintet (built first); one without name=
# is named after its options. Without match options: Hadron 7x7, 100 ms per
# move, 40 games, bench/openings/hadron-7.txt. Each match's record goes to
# gauntlet-<opponent>.txt.
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
    sed -n '2,18p' "$0" | sed 's/^# \{0,1\}//'
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

# The value of name= in a completed spec.
name_of() {
    printf '%s\n' "$1" | tr ' ' '\n' | grep '^name=' | head -n 1 | sed 's/^name=//'
}

if [ $# -eq 0 ]; then
    set -- --game hadron --size 7 --movetime 100 --games 40 \
        --openings "$root/bench/openings/hadron-7.txt"
fi

engine=$(complete_spec "${specs[0]}")
engine_name=$(name_of "$engine")
table=()
for opponent in "${specs[@]:1}"; do
    opponent=$(complete_spec "$opponent")
    opponent_name=$(name_of "$opponent")
    echo "== $engine_name vs $opponent_name" >&2
    summary=$("$quintet" match --engine "$engine" --engine "$opponent" \
        --record "gauntlet-${opponent_name//[^A-Za-z0-9_.=,-]/_}.txt" "$@") || {
        status=$?
        echo "$summary"
        exit "$status"
    }
    echo "$summary"
    wdl=$(printf '%s\n' "$summary" | grep -m1 ': W-D-L ' | sed 's/.*W-D-L \([0-9-]*\), score .* = \(.*\)$/\1 \2/')
    elo=$(printf '%s\n' "$summary" | grep -m1 '^Elo (games): ' | sed 's/^Elo (games): \([^(]*\).*/\1/')
    table+=("$(printf '%-32s %-14s %-7s %s' "$opponent_name" "${wdl% *}" "${wdl##* }" "$elo")")
done

echo
echo "Gauntlet of $engine_name (W-D-L, score and Elo are $engine_name's):"
printf '%-32s %-14s %-7s %s\n' opponent W-D-L score Elo
printf '%s\n' "${table[@]}"
