#!/usr/bin/env bash
# Remakes the pictures in docs/ from fixed positions (the move lists are
# random legal games, kept here so the pictures come out the same).
# Needs target/release/quintet; rsvg-convert (librsvg2-bin) for the PNGs
# and chromium for the replay screenshot, each skipped when missing.
set -euo pipefail
cd "$(dirname "$0")/.."
Q=target/release/quintet
have() { command -v "$1" >/dev/null; }

picture() {
    local name=$1
    shift
    "$Q" "$@" --svg "docs/$name.svg"
    if have rsvg-convert; then rsvg-convert "docs/$name.svg" -o "docs/$name.png"; fi
}

picture hadron --game hadron --size 7 show --moves "b3 a7 f6 c2 b5 e7 e4 a4 g5 d5 d1 c5 a1 e5 a3 g2 d2 c7 g7 a5"
picture atoms --game atoms show --moves "b3 b2 c1 a1 b4 b5 b6 b7 d2 e1 e3 f1 a8 d4 d5 c8 g1 d8 d6 h2 e8 f3 d2c2 f3g3 c1b1 h2h1 b4a4 b7c7"
picture tritium --game tritium show --moves "G@b5 B@b3 B@c6 G@h9 R@e1 R@c2 B@e8 R@f2 R@e6 B@g9 B@a2 R@g8 R@f4 R@d1 G@c3 R@i7 B@g7 B@e2 G@f5 B@e3 R@i8 R@a3 G@c4 R@i5 R@d3 B@f9 R@d2 F@g9 G@e4 B@b1 B@e7 B@a4 G@g5 B@h6 R@d4 R@h8 R@b4 R@f6 F@e1 F@f6"
picture nadraz --game nadraz show --moves "B@h12+W@b7 white h12c7 b7b4 h12h15 b7j15 h15g15 j15j18 h14g13 b4j4 h12n12 j4l4 n12n9 l4o7 c7c3 o7r10"
picture ihex --game ihex show --moves "e3 g9 c2 e5 e4 i9 d9 k9 e8 i4 b4 c6 d1 i11 g6 h5 k8 f11 k11 a1 i10 k6 j5 j11 d5 j7 g3 a5 f1 c1 a2 f9 b1 b7 i6 e7 a4 f4 g10 g11 d7 g7 f7 b5 j9 e10 d6 j10 h3 h4 j8 i7 i5 g2 k10 h7 e2 k7 h9 f10 f5 f6 c4 e6"

# A game the engine played against itself (fixed playouts: the same game
# every time), saved with its scores, and its replay page.
printf 'save docs/replay-example.txt\nquit\n' |
    "$Q" --game hadron --size 7 play --human none --nodes 3000 >/dev/null
"$Q" replay docs/replay-example.txt --html docs/replay-example.html
if have chromium; then
    chromium --headless --no-sandbox --disable-gpu --disable-background-networking \
        --no-first-run --hide-scrollbars --user-data-dir="$(mktemp -d)" --window-size=1100,720 \
        --screenshot=docs/replay.png "file://$PWD/docs/replay-example.html#ply=14" 2>/dev/null
fi

# The same game analysed (fixed nodes, one thread: the same every time).
"$Q" analyse docs/replay-example.txt --nodes 20000 --html docs/analyse-example.html \
    >docs/analyse-example.txt 2>/dev/null
if have chromium; then
    chromium --headless --no-sandbox --disable-gpu --disable-background-networking \
        --no-first-run --hide-scrollbars --user-data-dir="$(mktemp -d)" --window-size=1100,720 \
        --screenshot=docs/analyse.png "file://$PWD/docs/analyse-example.html#ply=17" 2>/dev/null
fi
