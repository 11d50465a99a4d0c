#!/usr/bin/env python3
"""The loser's last error in each decided game of a match record.

Walks each game back from its end, asking `quintet solve` for the exact
value of every position, until two positions in a row are not settled in
the time. The last position the loser held as a win (its move there lost
the game) is its last error; a loser that held no settled position as a
win was lost from the first ply the solver settles, so the game was
decided before it: in the opening or in moves too deep to prove.

For games without draws (Hadron, Tritium, Nadraz, Ihex). Prints one line
per game, then per result of ENGINE (won: the opponent's errors; lost:
its own) how many losers were lost from the first settled ply (and which
ply that was), the plies of the last errors and the solve time of each
position where one was made.

    python3 bench/last_errors.py RECORDS ENGINE [--games N] [--time S]
        [--bin QUINTET] [--jobs N]

--games N takes ENGINE's first N decided games.
"""

import argparse
import collections
import os
import sys
import time
from concurrent.futures import ThreadPoolExecutor

sys.path.insert(0, os.path.dirname(__file__))
from decided import value_at  # noqa: E402
from records import game_moves, read_record  # noqa: E402

# Unsettled positions in a row that end the walk back.
GIVE_UP_AFTER = 2


def walk_back(args, settings, game):
    """(first settled ply, (ply, solve seconds) of the loser's last won
    position or None, values from the first settled ply on as p1/p2
    digits)."""
    moves = game_moves(game)
    seats = {game["p1"]: "p1", game["p2"]: "p2"}
    loser = "p2" if seats.get(game.get("winner")) == "p1" else "p1"
    first_settled, last_error, values, unsettled = len(moves), None, {}, 0
    for ply in range(len(moves), 0, -1):
        started = time.monotonic()
        value = value_at(args, settings, moves[:ply])
        seconds = time.monotonic() - started
        if value is None:
            unsettled += 1
            if unsettled >= GIVE_UP_AFTER:
                break
            continue
        unsettled = 0
        first_settled = ply
        values[ply] = {"p1": "1", "p2": "2"}.get(value, "=")
        if value == loser and last_error is None:
            last_error = (ply, round(seconds, 2))
    digits = "".join(values.get(p, "?") for p in range(first_settled, len(moves) + 1))
    return first_settled, last_error, digits


def summary(rows):
    for result in ("won", "lost"):
        chosen = [r for r in rows if r[1] == result]
        clean = [r for r in chosen if r[3] is None]
        errors = [r[3] for r in chosen if r[3] is not None]
        plies = sorted(collections.Counter(r[2] for r in clean).items())
        print(f"{result}: {len(chosen)} games; the loser held no settled win in "
              f"{len(clean)} (first settled ply: count {plies})")
        print(f"  last errors by ply: {sorted(collections.Counter(e[0] for e in errors).items())}")
        print(f"  solve seconds there: {sorted(e[1] for e in errors)}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("records")
    parser.add_argument("engine", help="the engine name whose results are split")
    parser.add_argument("--games", type=int, default=0, help="the first N games (0: all)")
    parser.add_argument("--time", default="2", help="seconds per solve (default 2)")
    parser.add_argument("--bin", default="target/release/quintet")
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    settings, games = read_record(args.records)
    # ENGINE's decided games only: a round robin's record holds others.
    games = [g for g in games
             if args.engine in (g.get("p1"), g.get("p2"))
             and g.get("winner") in (g.get("p1"), g.get("p2"))]
    if not games:
        sys.exit(f"{args.records}: no decided game of {args.engine!r}")
    if args.games > 0:
        games = games[:args.games]

    def scan(game):
        result = "won" if game["winner"] == args.engine else "lost"
        return (game["game"], result, *walk_back(args, settings, game))

    rows = []
    with ThreadPoolExecutor(max(1, args.jobs)) as pool:
        for row in pool.map(scan, games):
            print(*row[:4], row[4], flush=True)
            rows.append(row)
    summary(rows)


if __name__ == "__main__":
    main()
