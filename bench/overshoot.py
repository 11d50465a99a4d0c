#!/usr/bin/env python3
"""Time overshoot of `go movetime`: N searches per game from random positions,
the time from sending `go` to reading `bestmove`, minus the move time. Every
tenth search comes right after a `Hash` change and `uginewgame` (the cases
where allocating or clearing memory used to fall inside the move's time).

Usage: bench/overshoot.py [BINARY] [--searches 200] [--movetime 50]
"""
import argparse
import os
import random
import sys

sys.path.insert(0, os.path.dirname(__file__))
from engine import GAMES, Engine  # noqa: E402

parser = argparse.ArgumentParser()
parser.add_argument("binary", nargs="?", default="target/release/quintet")
parser.add_argument("--searches", type=int, default=200)
parser.add_argument("--movetime", type=int, default=50)
parser.add_argument("--seed", type=int, default=1)
args = parser.parse_args()
rng = random.Random(args.seed)

print("| game | searches | movetime ms | mean reply ms | max reply ms | max overshoot ms | after uginewgame/Hash change: max reply ms |")
print("|---|---|---|---|---|---|---|")
for name, (game, size) in GAMES.items():
    e = Engine(args.binary)
    e.setoptions(Game=game, Size=size)
    e.ready()
    replies, fresh = [], []
    for i in range(args.searches):
        after_change = i % 10 == 0
        if after_change:
            e.setoptions(Hash=rng.choice([16, 64, 256, 1024]))
            e.send("uginewgame")
            e.ready()
        # A random position: up to 30 random plies from the start.
        moves = []
        e.send("position startpos")
        for _ in range(rng.randrange(0, 30)):
            legal = e.ask("moves")
            if legal == "none":
                break
            moves.append(rng.choice(legal.split()))
            e.send("position startpos moves " + " ".join(moves))
        if e.ask("gameover") == "true":
            moves.pop()
            e.send("position startpos moves " + " ".join(moves))
        seconds, _ = e.timed_go(f"movetime {args.movetime}")
        ms = seconds * 1000
        replies.append(ms)
        if after_change:
            fresh.append(ms)
    e.quit()
    print(
        f"| {game} {size} | {len(replies)} | {args.movetime} | {sum(replies) / len(replies):.1f} "
        f"| {max(replies):.1f} | {max(replies) - args.movetime:+.1f} | {max(fresh):.1f} |",
        flush=True,
    )
