#!/usr/bin/env python3
"""How much of its clock each engine of a `quintet match` record used: per
engine, the games, the clock used per game and per move of its own, and,
on a clock with an increment, the share of what it had (the base time plus
the increment for each of its moves) that it spent. An engine with its own
clock (the match's `tc=` engine item, for time odds) is measured against
that clock.

An engine that leaves much of a long clock unused plays its moves on less
thought than it could afford (session 37 found `auto` spending a fifth
less than v0.1 in Ihex and Atoms, from a lag meter that counted its own
long iterations as lag).

Usage: bench/clock_use.py RECORDS [RECORDS...]
"""

import collections
import os
import re
import sys

sys.path.insert(0, os.path.dirname(__file__))
from records import fields, mover, opening_moves, read_record  # noqa: E402


def clock_of(settings):
    """(base ms, increment ms) of a `tc="B+I s"` setting, or None."""
    found = re.fullmatch(r"([\d.]+)\+([\d.]+) s", settings.get("tc", ""))
    if not found:
        return None
    return round(float(found.group(1)) * 1000), round(float(found.group(2)) * 1000)


def engine_clocks(settings):
    """Each engine's own clock (its `tc=` item, e.g. time odds), by name."""
    clocks = {}
    for key, spec in settings.items():
        if not re.fullmatch(r"engine\d+", key):
            continue
        items = fields(spec)
        found = re.fullmatch(r"(\d+)ms\+(\d+)ms", items.get("tc", ""))
        if "name" in items and found:
            clocks[items["name"]] = (int(found.group(1)), int(found.group(2)))
    return clocks


def own_moves(game, seat):
    """How many of the played moves (after the opening) were `seat`'s."""
    before, played = len(opening_moves(game)), len(game.get("moves", "").split())
    first = mover(before)
    return (played + 1) // 2 if seat == first else played // 2


def report(path):
    settings, games = read_record(path)
    clock = clock_of(settings)
    own_clocks = engine_clocks(settings)
    used, moves, had = (collections.Counter() for _ in range(3))
    count = collections.Counter()
    for game in games:
        for seat in ("p1", "p2"):
            name, n = game[seat], own_moves(game, seat)
            used[name] += int(game[f"{seat}_ms"])
            moves[name] += n
            count[name] += 1
            engine_clock = own_clocks.get(name, clock)
            if engine_clock:
                had[name] += engine_clock[0] + engine_clock[1] * n
    print(f"{path}: {settings.get('game')} {settings.get('size')}, tc {settings.get('tc')}, "
          f"{len(games)} games")
    for name in sorted(count):
        line = (f"  {name}: {count[name]} games, {used[name] / count[name] / 1000:.2f} s a game, "
                f"{used[name] / max(moves[name], 1):.0f} ms a move")
        if had[name]:
            line += f", {100 * used[name] / had[name]:.0f}% of the clock it had"
        if name in own_clocks:
            base, inc = own_clocks[name]
            line += f" (its own {base / 1000:g}+{inc / 1000:g} s)"
        print(line)


def main():
    if len(sys.argv) < 2 or sys.argv[1] in ("-h", "--help"):
        sys.exit(__doc__.strip())
    for path in sys.argv[1:]:
        report(path)


if __name__ == "__main__":
    main()
