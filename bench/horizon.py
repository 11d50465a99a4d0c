#!/usr/bin/env python3
"""How far back from the end of a game proofs reach (issue 14).

For each ply k asked for, samples positions k plies into random games
(uniform random legal moves from the start; distinct move lists) and runs
`quintet solve --time S` on each. Prints, per ply, how many were proven
(p1 / p2 / draw), the median and the slowest proof time. Where a board is
not solved from the start, this is the ply from which on its positions are
proven within S seconds, and how the share falls before it.

  bench/horizon.py --binary target/release/quintet --game tritium --size 4 \
      --plies 30,25,20,15,10 --count 20 --time 10
"""

import argparse
import random
import statistics
import subprocess
import sys
import time

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from engine import Engine, game_args, random_moves  # noqa: E402


def sample(engine, rng, plies, seen, tries=200):
    """A distinct random move list `plies` long whose game is not over,
    or None when `tries` random games all end sooner."""
    for _ in range(tries):
        moves = random_moves(engine, rng, plies)
        if len(moves) < plies or engine.ask("gameover") == "true":
            continue
        if tuple(moves) in seen:
            continue
        seen.add(tuple(moves))
        return moves
    return None


def prove(args, moves):
    """(value, seconds) of `quintet solve` after `moves`."""
    cmd = [args.binary, *game_args(args), "--hash", str(args.hash), "solve",
           "--time", str(args.time), "--moves", " ".join(moves)]
    started = time.time()
    out = subprocess.run(cmd, capture_output=True, text=True)
    seconds = time.time() - started
    lines = out.stdout.splitlines()
    if out.returncode != 0 or not lines:
        sys.exit(f"quintet solve failed: {' '.join(cmd)}\n{out.stderr}")
    words = lines[-1].split()
    value = " ".join(words[:2]) if words[0] == "winner" else words[0]
    return value, seconds


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", required=True)
    parser.add_argument("--game", required=True)
    parser.add_argument("--size", type=int, required=True)
    parser.add_argument("--variant")
    parser.add_argument("--plies", required=True,
                        help="comma-separated, latest first, e.g. 30,20,10 "
                             "(stops after a ply where none is proven)")
    parser.add_argument("--count", type=int, default=20, help="positions per ply")
    parser.add_argument("--time", type=float, default=10.0, help="seconds per proof")
    parser.add_argument("--hash", type=int, default=256, help="proof table MiB")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    plies = [int(p) for p in args.plies.split(",")]
    rng = random.Random(args.seed)
    engine = Engine(args.binary, *game_args(args))
    engine.send("ugi")
    engine.until("ugiok")
    print(f"# {' '.join(game_args(args))}: {args.count} random positions per ply, "
          f"`solve --time {args.time}` each, seed {args.seed}")
    print("| ply | sampled | proven | p1 | p2 | draw | median s | slowest s |")
    print("|---|---|---|---|---|---|---|---|")
    for k in plies:
        seen = set()
        values, times = [], []
        for _ in range(args.count):
            moves = sample(engine, rng, k, seen)
            if moves is None:
                break
            value, seconds = prove(args, moves)
            values.append(value)
            times.append(seconds)
            print(f"ply {k}: {len(values)}/{args.count} {value} {seconds:.2f}s",
                  file=sys.stderr)
        proven = [v for v in values if v != "unknown"]
        print(f"| {k} | {len(values)} | {len(proven)} | "
              f"{values.count('winner p1')} | {values.count('winner p2')} | "
              f"{values.count('draw')} | "
              f"{statistics.median(times) if times else 0:.2f} | "
              f"{max(times) if times else 0:.2f} |", flush=True)
        if values and not proven:
            # Plies are asked for from the end back: earlier ones are harder.
            print(f"(none proven at ply {k}: stopping)")
            break
    engine.quit()


if __name__ == "__main__":
    main()
