#!/usr/bin/env python3
"""Thread scaling: MCTS playouts/s with 1 and 2 threads (Search mcts, from
the start position and from a middle-game position), and alpha-beta depth
reached in the same time with 1 and 2 threads, for every game.

Usage: bench/threads.py [BINARY] [--movetime MS]
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(__file__))
from engine import GAMES, Engine, field, last_info  # noqa: E402

parser = argparse.ArgumentParser()
parser.add_argument("binary", nargs="?", default="target/release/quintet")
parser.add_argument("--movetime", type=int, default=3000)
args = parser.parse_args()


def run(game, size, search, threads, position="startpos"):
    e = Engine(args.binary)
    e.setoptions(Game=game, Size=size, Search=search, Threads=threads, Hash=256)
    e.ready()
    e.send(f"position {position}")
    _, lines = e.timed_go(f"movetime {args.movetime}")
    e.quit()
    return last_info(lines)


print("| game | MCTS playouts/s 1 thread | 2 threads | speed-up | alpha-beta depth 1 thread | 2 threads | nodes/s 1 | nodes/s 2 |")
print("|---|---|---|---|---|---|---|---|")
for name, (game, size) in GAMES.items():
    nps = [int(field(run(game, size, "mcts", t), "nps")) for t in (1, 2)]
    ab = [run(game, size, "alphabeta", t) for t in (1, 2)]
    depths = [field(i, "depth") for i in ab]
    ab_nps = [field(i, "nps") for i in ab]
    print(
        f"| {game} {size} | {nps[0]:,} | {nps[1]:,} | {nps[1] / nps[0]:.2f}x "
        f"| {depths[0]} | {depths[1]} | {ab_nps[0]} | {ab_nps[1]} |",
        flush=True,
    )
