#!/usr/bin/env python3
"""The engine's accuracy on solved positions (issue 14).

Two steps:

  make:  random positions of a small board (random legal moves from the
         start, a random number of plies), each labelled exactly by
         `quintet solve --children`; positions the side to move wins are
         kept, one line each: `<moves> | <winning moves> | <legal count>`.
  play:  for each position, `go movetime <ms>` on a fresh game; counts the
         positions where the move played is one of the winning moves (all
         positions, and those where some move does not win).

  bench/accuracy.py make --binary target/release/quintet --game hadron \
      --size 5 --count 300 --plies 4-16 --out bench/results/accuracy-hadron5.txt
  bench/accuracy.py play --binary target/release/quintet \
      --positions bench/results/accuracy-hadron5.txt --movetime 200
"""

import argparse
import random
import subprocess
import sys
import time

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from engine import Engine, game_args, random_moves  # noqa: E402


def label(args, moves, mover):
    """(winning moves, legal moves) after `moves`, or None if unsolved."""
    cmd = [args.binary, *game_args(args), "solve", "--children",
           "--time", str(args.solve_time), "--moves", " ".join(moves)]
    out = subprocess.run(cmd, capture_output=True, text=True).stdout.splitlines()
    children = [l.split() for l in out if l.startswith("child ")]
    if not children or not out[-1].startswith("winner"):
        return None
    # `child <move> winner pX ...`: a move wins when the mover wins after it.
    if any(c[2] == "unknown" for c in children):
        return None
    wins = [c[1] for c in children if c[2] == "winner" and c[3] == mover]
    return wins, [c[1] for c in children]


def make(args):
    rng = random.Random(args.seed)
    lo, hi = (int(x) for x in args.plies.split("-"))
    engine = Engine(args.binary, *game_args(args))
    engine.send("ugi")
    engine.until("ugiok")
    seen = set()
    kept = 0
    started = time.time()
    with open(args.out, "w") as out:
        while kept < args.count:
            moves = random_moves(engine, rng, rng.randint(lo, hi))
            if engine.ask("gameover") == "true" or tuple(moves) in seen:
                continue
            seen.add(tuple(moves))
            mover = "p1" if engine.ask("p1turn") == "true" else "p2"
            labelled = label(args, moves, mover)
            if labelled is None:
                continue
            wins, legal = labelled
            if not wins:
                continue  # a lost position: every move loses
            out.write(f"{' '.join(moves)} | {' '.join(wins)} | {len(legal)}\n")
            out.flush()
            kept += 1
            if kept % 25 == 0:
                print(f"{kept} positions, {time.time() - started:.0f} s", file=sys.stderr)
    engine.quit()


def play(args):
    positions = []
    with open(args.positions) as f:
        for line in f:
            moves, wins, legal = (p.strip() for p in line.split("|"))
            positions.append((moves.split(), set(wins.split()), int(legal)))
    engine = Engine(args.binary, *game_args(args))
    engine.send("ugi")
    engine.until("ugiok")
    for option in args.option:
        name, value = option.split("=", 1)
        engine.setoptions(**{name: value})
    engine.ready()
    right = 0
    hard = hard_right = 0
    mates = 0
    slowest = 0.0
    for moves, wins, legal in positions:
        engine.send("uginewgame")
        engine.send("position startpos moves " + " ".join(moves))
        seconds, lines = engine.timed_go(f"movetime {args.movetime}")
        slowest = max(slowest, seconds)
        best = lines[-1].split()[1]
        ok = best in wins
        right += ok
        if len(wins) < legal:
            hard += 1
            hard_right += ok
        infos = [l for l in lines if l.startswith("info depth")]
        if infos and " score mate " in infos[-1]:
            mates += 1
    engine.quit()
    n = len(positions)
    print(f"{args.binary}: {right}/{n} winning moves ({100 * right / n:.1f}%); "
          f"where some move loses {hard_right}/{hard} ({100 * hard_right / max(hard, 1):.1f}%); "
          f"mate reported {mates}/{n}; slowest reply {1000 * slowest:.0f} ms")


def main():
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("step", choices=["make", "play"])
    p.add_argument("--binary", default="target/release/quintet")
    p.add_argument("--game", default="hadron")
    p.add_argument("--size", type=int, default=5)
    p.add_argument("--variant", default="")
    p.add_argument("--count", type=int, default=300)
    p.add_argument("--plies", default="4-16")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--solve-time", type=float, default=60)
    p.add_argument("--out", default="bench/results/accuracy-hadron5.txt")
    p.add_argument("--positions", default="bench/results/accuracy-hadron5.txt")
    p.add_argument("--movetime", type=int, default=200)
    p.add_argument("--option", action="append", default=[],
                   help="NAME=VALUE, set before the first search")
    args = p.parse_args()
    make(args) if args.step == "make" else play(args)


if __name__ == "__main__":
    main()
