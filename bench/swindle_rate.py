#!/usr/bin/env python3
"""How often a swindler's moves in lost positions make `uct-plain` let
the win go: the swindles measured one move at a time, on the same
positions for every build, instead of through whole games.

Replays ENGINE's games of RECORDS (won or lost: a swindle that worked
is in a game won). The swindler under test (--swindler
BIN, options with --option NAME=VALUE) plays ENGINE's side from the end of
the opening as in a game (one session per game, so its proofs carry over
from move to move), at --ms a move, but always along the game's own moves.
At each of ENGINE's positions that the solver settles as lost (`quintet
solve`, --time seconds), its move is given to `uct-plain` (--seeds seeds,
--reply-ms each), and the position after each reply is solved again: a
reply after which ENGINE no longer loses let the win go.

    python3 bench/swindle_rate.py RECORDS ENGINE --swindler BIN [--option SwindleModel=false]
        [--games 30] [--ms 100] [--reply-ms 100] [--seeds 4] [--time 3] [--bin QUINTET]

Prints one line per lost position (JSON), then the share of replies that
let the win go, by ply. Unsettled replies are counted apart.
"""

import argparse
import collections
import json
import os
import sys

sys.path.insert(0, os.path.dirname(__file__))
from decided import value_at  # noqa: E402
from engine import Engine  # noqa: E402
from records import game_flags, game_moves, mover, opening_moves, read_record  # noqa: E402


def start(binary, settings, *extra):
    """An engine process for the record's game, ready to play."""
    try:
        return Engine(binary, *game_flags(settings), *extra)
    except OSError as e:
        sys.exit(f"{binary}: {e.strerror}")


def best_move(engine, moves, ms):
    engine.send(f"position startpos moves {' '.join(moves)}")
    _, lines = engine.timed_go(f"movetime {ms}")
    return lines[-1].split()[1]


def lost_positions(args, settings, swindler, opponents, game, seat):
    """One row per position of ENGINE's that the solver settles as lost:
    the swindler's move and what each opponent seed's reply left."""
    moves = game_moves(game)
    other = "p2" if seat == "p1" else "p1"
    swindler.send("uginewgame")
    rows = []
    for ply in range(len(opening_moves(game)), len(moves)):
        if mover(ply) != seat:
            continue
        before = moves[:ply]
        mv = best_move(swindler, before, args.ms)
        if value_at(args, settings, before) != other:
            continue
        after = before + [mv]
        if value_at(args, settings, after) != other:
            # Not lost after all (an unsettled proof): nothing to measure.
            continue
        replies = collections.Counter()
        for opponent in opponents:
            opponent.send("uginewgame")
            reply = best_move(opponent, after, args.reply_ms)
            value = value_at(args, settings, after + [reply])
            replies["kept" if value == other else "let go" if value else "unsettled"] += 1
        rows.append({"game": game["game"], "ply": ply, "move": mv, **replies})
        print(json.dumps(rows[-1]), flush=True)
    return rows


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("records")
    parser.add_argument("engine", help="whose lost games to replay")
    parser.add_argument("--swindler", required=True, help="the quintet binary under test")
    parser.add_argument("--option", action="append", default=[],
                        help="NAME=VALUE, a setoption for the swindler (repeatable)")
    parser.add_argument("--games", type=int, default=30, help="ENGINE's first N games")
    parser.add_argument("--ms", type=int, default=100, help="the swindler's time a move")
    parser.add_argument("--reply-ms", type=int, default=100, help="uct-plain's time a move")
    parser.add_argument("--seeds", type=int, default=4)
    parser.add_argument("--time", default="3", help="seconds per solve (default 3)")
    parser.add_argument("--bin", default="target/release/quintet", help="the solver")
    args = parser.parse_args()
    settings, games = read_record(args.records)
    played = [g for g in games if args.engine in (g.get("p1"), g.get("p2"))][:args.games]
    if not played:
        sys.exit(f"{args.records}: no game of {args.engine}")
    swindler = start(args.swindler, settings)
    for option in args.option:
        name, _, value = option.partition("=")
        swindler.setoptions(**{name: value})
    swindler.ready()
    opponents = [start(args.bin, settings, "--search", "uct-plain", "--seed", str(seed))
                 for seed in range(args.seeds)]
    rows = []
    for game in played:
        seat = "p1" if game["p1"] == args.engine else "p2"
        rows += lost_positions(args, settings, swindler, opponents, game, seat)
    by_ply = collections.defaultdict(collections.Counter)
    for row in rows:
        bucket = "all"
        for key in ("kept", "let go", "unsettled"):
            by_ply[bucket][key] += row.get(key, 0)
            by_ply[row["ply"]][key] += row.get(key, 0)
    print(f"{len(rows)} lost positions in {len(played)} games; swindler {args.swindler} "
          f"{' '.join(args.option)} at {args.ms} ms, uct-plain {args.seeds} seeds at "
          f"{args.reply_ms} ms")
    for ply in ["all"] + sorted(k for k in by_ply if k != "all"):
        c = by_ply[ply]
        settled = c["kept"] + c["let go"]
        share = c["let go"] / settled if settled else float("nan")
        print(f"  ply {ply}: let go {c['let go']} of {settled} ({share:.1%}), "
              f"unsettled {c['unsettled']}")
    for engine in [swindler, *opponents]:
        engine.quit()


if __name__ == "__main__":
    main()
