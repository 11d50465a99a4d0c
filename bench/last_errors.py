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
        [--replay MS [--seeds N] [--history] [--option NAME=VALUE ...]]

--games N takes ENGINE's first N decided games.

With --replay MS, each of ENGINE's own last errors (its lost games) is
searched again by a fresh engine (the binary's defaults, plus --option
NAME=VALUE settings) for MS milliseconds, once per seed 1..--seeds: how
often its choice is proven to win there (`quintet solve --children`), and
whether the root move with the highest win rate (`MoveStats`) would have
won where the most visited did not, i.e. whether a choice by value
instead of by visits would have kept the win. With --history the engine
first searches each of the loser's earlier moves since the book, as in
the game (its tree and tables carried over), before the error's.
"""

import argparse
import collections
import os
import sys
import time
from concurrent.futures import ThreadPoolExecutor

sys.path.insert(0, os.path.dirname(__file__))
from decided import children_at, value_at  # noqa: E402
from engine import start_ready  # noqa: E402
from records import game_flags, game_moves, mover, opening_moves, read_record  # noqa: E402

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


def replay_errors(args, settings, games, rows):
    """Searches each of ENGINE's last errors again, once per seed, and
    prints what it chose against the moves proven to win there."""
    # `rows` follow `games` (one record may hold two matches' game numbers).
    errors = [(g, r[3][0]) for g, r in zip(games, rows) if r[1] == "lost" and r[3] is not None]
    if not errors:
        print("replay: no last error of its own to search again")
        return
    engine = start_ready(args.bin, game_flags(settings),
                         [("Threads", 1), ("MoveStats", "true"), *args.option])
    tally = collections.Counter()
    print(f"replay: {len(errors)} last errors of {args.engine}, {args.replay} ms, "
          f"seeds 1..{args.seeds}" + (", after its earlier moves" if args.history else ""))
    try:
        for game, ply in errors:
            moves = game_moves(game)
            to_move = mover(ply)
            wins = {m for m, v in children_at(args, settings, moves[:ply]).items() if v == to_move}
            chosen = []
            book = len(opening_moves(game))
            for seed in range(1, args.seeds + 1):
                engine.setoptions(Seed=seed)
                engine.send("uginewgame")
                for earlier in range(book + (ply - book) % 2, ply, 2) if args.history else ():
                    engine.send("position startpos moves " + " ".join(moves[:earlier]))
                    engine.timed_go(f"movetime {args.replay}")
                engine.send("position startpos moves " + " ".join(moves[:ply]))
                engine.ready()
                _, lines = engine.timed_go(f"movetime {args.replay}")
                best = lines[-1].split()[1]
                stats = {w[3]: float(w[7]) for w in (l.split() for l in lines)
                         if w[2:3] == ["movestats"] and w[4:5] == ["visits"] and w[6:7] == ["winrate"]}
                by_value = max(stats, key=stats.get) if stats else best
                chosen.append(best)
                tally["searches"] += 1
                tally["chose a win"] += best in wins
                tally["by value a win, by visits not"] += by_value in wins and best not in wins
                tally["by visits a win, by value not"] += best in wins and by_value not in wins
            print(f"  game {game['game']} ply {ply}: played {moves[ply]}, wins "
                  f"{' '.join(sorted(wins)) or '(none settled)'}; chosen {' '.join(chosen)}",
                  flush=True)
    finally:
        engine.quit()
    print("  " + ", ".join(f"{k} {v}" for k, v in tally.items()))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("records")
    parser.add_argument("engine", help="the engine name whose results are split")
    parser.add_argument("--games", type=int, default=0, help="the first N games (0: all)")
    parser.add_argument("--time", default="2", help="seconds per solve (default 2)")
    parser.add_argument("--bin", default="target/release/quintet")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--replay", type=int, default=0, metavar="MS",
                        help="search ENGINE's own last errors again for MS ms (0: not)")
    parser.add_argument("--seeds", type=int, default=5, help="with --replay: searches per error")
    parser.add_argument("--history", action="store_true",
                        help="with --replay: search the loser's earlier moves of the game first")
    parser.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                        help="with --replay: a setoption for the searches")
    args = parser.parse_args()
    if any("=" not in o for o in args.option):
        parser.error("--option takes NAME=VALUE")
    args.option = [tuple(o.split("=", 1)) for o in args.option]
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
    if args.replay > 0:
        replay_errors(args, settings, games, rows)


if __name__ == "__main__":
    main()
