#!/usr/bin/env python3
"""How often an engine misses a win, by how many winning moves it had.

For each game of ENGINE in a match record (games without draws), at every
position from --from-ply on where ENGINE is to move and holds a win that
`quintet solve --children` settles (every move's value within --time),
counts its winning moves and its moves, and whether the move it played
wins; a game stops being read at its first miss. Prints one JSON line per
position, then the miss rate by the count of winning moves: the numbers
behind the `Swindles` option (a lost side should leave the fewest);
positions where every move wins are not counted.

With --lost, reads ENGINE's lost positions instead: at each one where
ENGINE is to move, every move's count of the opponent's winning replies
and replies (a swindle's options), and the count after the move played.

    python3 bench/winning_replies.py RECORDS ENGINE [--games N] [--time S]
        [--from-ply P] [--to-ply P] [--lost] [--bin QUINTET] [--jobs N]
"""

import argparse
import collections
import json
import os
import sys
from concurrent.futures import ThreadPoolExecutor

sys.path.insert(0, os.path.dirname(__file__))
from decided import children_at  # noqa: E402
from records import game_moves, mover, read_record  # noqa: E402


def held_wins(args, settings, game, seat):
    """ENGINE's settled won positions up to its first miss."""
    moves = game_moves(game)
    rows = []
    for ply in range(args.from_ply, min(args.to_ply, len(moves))):
        if mover(ply) != seat:
            continue
        values = children_at(args, settings, moves[:ply])
        if not values or None in values.values():
            continue
        wins = [m for m, v in values.items() if v == seat]
        if not wins:
            continue
        good = moves[ply] in wins
        rows.append({"game": game["game"], "ply": ply, "winning": len(wins),
                     "moves": len(values), "played": moves[ply], "wins": good})
        if not good:
            break
    return rows


def swindle_options(args, settings, game, seat):
    """At ENGINE's settled lost positions: each move's (opponent's winning
    replies, replies), None where a reply is unsettled."""
    moves = game_moves(game)
    other = "p2" if seat == "p1" else "p1"
    rows = []
    for ply in range(args.from_ply, min(args.to_ply, len(moves))):
        if mover(ply) != seat:
            continue
        values = children_at(args, settings, moves[:ply])
        if not values or any(v != other for v in values.values()):
            continue
        options = {}
        for mv in values:
            replies = children_at(args, settings, moves[:ply] + [mv])
            settled = replies and None not in replies.values()
            options[mv] = ([sum(v == other for v in replies.values()), len(replies)]
                           if settled else None)
        rows.append({"game": game["game"], "ply": ply, "played": moves[ply],
                     "after_played": options.get(moves[ply]), "options": options})
    return rows


def bucket(winning, moves):
    if winning <= 2:
        return f"{winning} winning"
    share = winning / moves
    return "3+, under a third" if share < 1 / 3 else (
        "3+, a third to 0.6" if share < 0.6 else "3+, 0.6 or more")


def summary(rows):
    # Where every move wins there is nothing to miss: such positions are
    # listed above but not counted.
    forced = [r for r in rows if r["winning"] == r["moves"]]
    rows = [r for r in rows if r["winning"] < r["moves"]]
    print(f"positions where every move wins (not counted): {len(forced)}")
    counts = collections.defaultdict(lambda: [0, 0])
    for row in rows:
        key = bucket(row["winning"], row["moves"])
        counts[key][0] += 1
        counts[key][1] += not row["wins"]
    print(f"positions: {len(rows)}, missed: {sum(not r['wins'] for r in rows)}")
    order = ["1 winning", "2 winning", "3+, under a third", "3+, a third to 0.6",
             "3+, 0.6 or more"]
    for key in order:
        if key in counts:
            seen, missed = counts[key]
            print(f"  {key}: missed {missed} of {seen} ({missed / seen:.0%})")


def options_summary(rows):
    fewer = 0
    for row in rows:
        known = [o for o in row["options"].values() if o]
        played = row["after_played"]
        if known and played and min(w for w, _ in known) < played[0]:
            fewer += 1
    print(f"lost positions: {len(rows)}; a move leaving fewer winning replies "
          f"than the one played: {fewer}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("records")
    parser.add_argument("engine", help="whose moves are read")
    parser.add_argument("--games", type=int, default=0,
                        help="ENGINE's first N games read (0: all)")
    parser.add_argument("--time", default="3", help="seconds per solve (default 3)")
    parser.add_argument("--from-ply", type=int, default=8)
    parser.add_argument("--to-ply", type=int, default=24)
    parser.add_argument("--lost", action="store_true",
                        help="ENGINE's lost positions: its swindle options")
    parser.add_argument("--bin", default="target/release/quintet")
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    settings, games = read_record(args.records)
    games = [g for g in games if args.engine in (g.get("p1"), g.get("p2"))]
    if args.lost:
        games = [g for g in games
                 if g.get("winner") not in (args.engine, None, "-")]
    if not games:
        sys.exit(f"{args.records}: no {'lost ' if args.lost else ''}game of {args.engine!r}")
    if args.games > 0:
        games = games[:args.games]
    read = swindle_options if args.lost else held_wins

    def scan(game):
        return read(args, settings, game, "p1" if game["p1"] == args.engine else "p2")

    rows = []
    with ThreadPoolExecutor(max(1, args.jobs)) as pool:
        for found in pool.map(scan, games):
            for row in found:
                print(json.dumps(row), flush=True)
                rows.append(row)
    (options_summary if args.lost else summary)(rows)


if __name__ == "__main__":
    main()
