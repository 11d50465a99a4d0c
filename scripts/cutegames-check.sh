#!/usr/bin/env bash
# Plays the same short match through cutegames (generic UGI mode) and through
# `quintet match`, and checks that both play the same games: same openings
# (quintet's own suite as position texts), same moves, same results.
#
#   scripts/cutegames-check.sh CUTEGAMES [GAME:SIZE ...]
#
# CUTEGAMES is a built cutegames binary (github.com/kz04px/cutegames; it is
# not part of this repository). Default games: hadron:5. Both runners keep
# one process per engine over the games, play them one at a time in the
# same order and send the same commands that matter to a search (`uginewgame`,
# `position`, `go nodes`), so with node limits the games must agree.
# Environment: GAMES (games per match, default 8), NODES (default 200).
set -euo pipefail

if [ $# -lt 1 ]; then
    sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'
    exit 2
fi
cutegames=$(realpath "$1")
shift
[ $# -eq 0 ] && set -- hadron:5
games=${GAMES:-8}
nodes=${NODES:-200}

root=$(git -C "$(dirname "$0")" rev-parse --show-toplevel)
cargo build --release --quiet --manifest-path "$root/Cargo.toml"
quintet="$root/target/release/quintet"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The FEN, result and movetext of each game of a PGN file, one line per game
# (quintet wraps movetext at 79 columns, cutegames writes it on one line).
games_of() {
    awk '/^\[FEN /{f=$0} /^\[Result /{r=$2}
         /^\[/{next} /^$/{if (m != "") print f, r, m; f=""; m=""; next}
         {m = (m == "" ? $0 : m " " $0)}
         END{if (m != "") print f, r, m}' "$1"
}

status=0
for spec in "$@"; do
    game=${spec%%:*}
    size=${spec##*:}
    dir="$work/$game-$size"
    mkdir -p "$dir"
    "$quintet" --game "$game" --size "$size" openings --count 4 --plies 2-4 \
        --nodes 200 --balance 0.5 --format fen --output "$dir/openings.txt" 2>/dev/null
    cat > "$dir/settings.json" <<JSON
{
    "games": $games, "concurrency": 1, "ratinginterval": $games, "game": "generic",
    "tournament": "roundrobin", "protocol": { "askturn": true },
    "openings": { "path": "$dir/openings.txt", "repeat": true, "shuffle": false },
    "adjudication": { "timeoutbuffer": 1000, "maxfullmoves": 1000 },
    "timecontrol": { "type": "nodes", "nodes": $nodes },
    "options": { "game": "$game", "size": "$size" },
    "pgn": { "enabled": true, "path": "$dir/cutegames.pgn", "event": "check",
             "colour1": "White", "colour2": "Black" },
    "engines": [
        { "name": "auto", "path": "$quintet" },
        { "name": "uct-plain", "path": "$quintet", "options": { "search": "uct-plain" } }
    ]
}
JSON
    (cd "$dir" && "$cutegames" --settings settings.json > cutegames.out 2>&1)
    "$quintet" match --game "$game" --size "$size" --nodes "$nodes" --games "$games" \
        --openings "$dir/openings.txt" --concurrency 1 --pgn "$dir/quintet.pgn" \
        --engine "name=auto cmd=$quintet" \
        --engine "name=uct-plain cmd=$quintet option.Search=uct-plain" > "$dir/quintet.out" 2>&1
    games_of "$dir/cutegames.pgn" > "$dir/cutegames.games"
    games_of "$dir/quintet.pgn" > "$dir/quintet.games"
    played=$(wc -l < "$dir/quintet.games")
    if [ "$played" -eq "$games" ] && cmp -s "$dir/cutegames.games" "$dir/quintet.games"; then
        echo "$game size $size: the same $played games through cutegames and quintet match"
    else
        echo "$game size $size: the runners differ (cutegames <, quintet match >):"
        diff "$dir/cutegames.games" "$dir/quintet.games" || true
        status=1
    fi
done
exit $status
