#!/usr/bin/env python3
"""How well a short plain Monte Carlo search foretells an engine's answer
in positions where it holds a win with few winning moves: the question
behind the `SwindleModel` option (a swindle prefers a move whose winning
replies such a search passes over).

Reads the position lines that `bench/winning_replies.py RECORDS ENGINE`
printed (ENGINE's won positions and whether it kept the win), takes those
with at most --most winning moves (and a move that loses), proves each
move again (`quintet solve --children`), asks `uct-plain` (`--search
uct-plain`, --seeds seeds, --ms each) for its move, and counts how many
seeds chose a winning move against what ENGINE did in the game.

    python3 bench/winning_replies.py RECORDS ENGINE --games 60 --bin BIN > ROWS
    python3 bench/foretell.py RECORDS ROWS [--most 2] [--ms 60] [--seeds 4]
        [--time 3] [--bin QUINTET]
"""

import argparse
import collections
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(__file__))
from decided import children_at  # noqa: E402
from records import game_flags, game_moves, mover, read_record  # noqa: E402


class Engine:
    """One `uct-plain` process, asked for a move at a position."""

    def __init__(self, args, settings, seed):
        cmd = [args.bin, *game_flags(settings), "--search", "uct-plain", "--seed", str(seed)]
        try:
            self.proc = subprocess.Popen(cmd, stdin=subprocess.PIPE,
                                         stdout=subprocess.PIPE, text=True)
        except OSError as e:
            sys.exit(f"{args.bin}: {e.strerror} (build it: cargo build --release)")
        self.ms = args.ms

    def move(self, moves):
        self.proc.stdin.write(f"uginewgame\nposition startpos moves {' '.join(moves)}\n"
                              f"go movetime {self.ms}\n")
        self.proc.stdin.flush()
        for line in self.proc.stdout:
            if line.startswith("bestmove"):
                return line.split()[1]
        sys.exit("uct-plain ended without a move")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("records")
    parser.add_argument("rows", help="the output of bench/winning_replies.py")
    parser.add_argument("--most", type=int, default=2, help="most winning moves (default 2)")
    parser.add_argument("--ms", type=int, default=60, help="uct-plain's time a move")
    parser.add_argument("--seeds", type=int, default=4)
    parser.add_argument("--time", default="3", help="seconds per solve (default 3)")
    parser.add_argument("--bin", default="target/release/quintet")
    args = parser.parse_args()
    settings, games = read_record(args.records)
    by_id = {g["game"]: g for g in games}
    engines = [Engine(args, settings, seed) for seed in range(args.seeds)]
    table = collections.Counter()
    with open(args.rows) as f:
        rows = [json.loads(line) for line in f if line.startswith("{")]
    for row in rows:
        if row["winning"] > args.most or row["winning"] == row["moves"]:
            continue
        moves = game_moves(by_id[row["game"]])[:row["ply"]]
        seat = mover(row["ply"])
        wins = {m for m, v in children_at(args, settings, moves).items() if v == seat}
        found = sum(engine.move(moves) in wins for engine in engines)
        print(json.dumps({"game": row["game"], "ply": row["ply"], "winning": len(wins),
                          "kept": row["wins"], "model_found": found}), flush=True)
        table[(row["wins"], found)] += 1
    print(f"positions: {sum(table.values())} (uct-plain {args.ms} ms, {args.seeds} seeds)")
    for kept in (True, False):
        spread = ", ".join(f"{n} of {args.seeds} seeds: {table[(kept, n)]}"
                           for n in range(args.seeds + 1) if table[(kept, n)])
        print(f"  {'kept the win' if kept else 'missed it'}: {spread}")


if __name__ == "__main__":
    main()
