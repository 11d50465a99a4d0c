#!/usr/bin/env python3
"""Peak memory (VmHWM) against Hash after a long search, every game, 1 and 2
threads, in the order a tournament manager sends commands (setoption Game,
setoption Hash, isready, position, go).

Usage: bench/memory.py [BINARY] [--hash MIB] [--movetime MS]
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(__file__))
from engine import GAMES, Engine, field, last_info  # noqa: E402

parser = argparse.ArgumentParser()
parser.add_argument("binary", nargs="?", default="target/release/quintet")
parser.add_argument("--hash", type=int, default=256)
parser.add_argument("--movetime", type=int, default=20000)
args = parser.parse_args()

print(f"| game | search | threads | Hash MiB | peak RSS MiB | RSS - Hash | nodes | hashfull |")
print("|---|---|---|---|---|---|---|---|")
for name, (game, size) in GAMES.items():
    for threads in (1, 2):
        e = Engine(args.binary)
        e.setoptions(Game=game, Size=size, Hash=args.hash, Threads=threads)
        e.ready()
        e.send("position startpos")
        _, lines = e.timed_go(f"movetime {args.movetime}")
        info = last_info(lines)
        rss = e.peak_rss_mib()
        search = e.ask("game")
        e.quit()
        print(
            f"| {game} {size} | auto | {threads} | {args.hash} | {rss:.0f} | {rss - args.hash:+.0f} "
            f"| {field(info, 'nodes')} | {field(info, 'hashfull')} |",
            flush=True,
        )
