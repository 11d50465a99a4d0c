#!/usr/bin/env python3
"""Where a match's games were decided: for each game of a `quintet match`
record, the exact value (`quintet solve`) of its position at the first of
some plies the solver settles within a time limit, against the real result.

It splits an engine's score into the two things that make it: how often it
held the won seat when the solver first reaches (the play before that), and
how often each engine converted a won seat into a win (the play after).
With both engines level at that ply, an engine converting every won seat
scores 0.5 + (the opponent's failures to convert) / 2 at most.

Usage: bench/decided.py RECORDS [--bin QUINTET] [--time S] [--plies 10,12,14]
       [--jobs N]

The game, size and variant come from the record's settings line. Positions
the solver does not settle at any of the plies are counted as unknown.
"""

import argparse
import collections
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

sys.path.insert(0, os.path.dirname(__file__))
from records import game_flags, opening_moves, read_record  # noqa: E402


def solve_lines(args, settings, moves, *extra):
    """The lines `quintet solve` prints for the position after `moves`."""
    cmd = [args.bin, *game_flags(settings), "solve",
           "--moves", " ".join(moves), "--time", str(args.time), *extra]
    try:
        out = subprocess.run(cmd, capture_output=True, text=True)
    except OSError as e:
        sys.exit(f"{args.bin}: {e.strerror} (build it: cargo build --release)")
    lines = out.stdout.strip().splitlines()
    if out.returncode != 0 or not lines:
        sys.exit(f"solve failed: {' '.join(cmd)}\n{out.stderr}")
    return lines


def verdict(words):
    """"p1"/"p2"/"draw" from a solve line's words, or None (unknown)."""
    if words[:1] == ["winner"]:
        return words[1]
    return "draw" if words[:1] == ["draw"] else None


def value_at(args, settings, moves):
    """`quintet solve`'s verdict: "p1" or "p2" (the seat that wins with
    perfect play), "draw", or None when not settled in the time."""
    return verdict(solve_lines(args, settings, moves)[-1].split())


def children_at(args, settings, moves):
    """The verdict after each legal move (`quintet solve --children`, each
    child within the time): {move: "p1"/"p2"/"draw"/None}."""
    values = {}
    for line in solve_lines(args, settings, moves, "--children"):
        words = line.split()
        if words[:1] == ["child"] and len(words) >= 3:
            values[words[1]] = verdict(words[2:])
    return values


def winner_at(args, settings, moves):
    """The seat (p1/p2) that wins with perfect play, or None if unsettled."""
    value = value_at(args, settings, moves)
    return None if value == "draw" else value


def judge(args, settings, game):
    """(ply, engine holding the won seat) at the first settled ply, or (None, None)."""
    opening, played = opening_moves(game), game.get("moves", "").split()
    for ply in args.plies:
        k = ply - len(opening)
        if 0 <= k <= len(played):
            seat = winner_at(args, settings, opening + played[:k])
            if seat is not None:
                return ply, game[seat]
    return None, None


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("records")
    p.add_argument("--bin", default="target/release/quintet")
    p.add_argument("--time", type=float, default=3.0, help="seconds per solve")
    p.add_argument("--plies", default="10,12,14")
    p.add_argument("--jobs", type=int, default=2)
    args = p.parse_args()
    args.plies = [int(x) for x in args.plies.split(",")]
    settings, games = read_record(args.records)
    with ThreadPoolExecutor(args.jobs) as pool:
        judged = list(pool.map(lambda g: judge(args, settings, g), games))
    held = collections.Counter()
    converted = collections.Counter()
    unknown = collections.Counter()
    for game, (_, holder) in zip(games, judged):
        if holder is None:
            unknown[game["winner"]] += 1
        else:
            held[holder] += 1
            converted[holder] += game["winner"] == holder
    engines = sorted({g["p1"] for g in games} | {g["p2"] for g in games})
    print(f"{args.records}: {len(games)} games, solved at plies "
          f"{dict(sorted(collections.Counter(p for p, _ in judged if p).items()))}, "
          f"unsettled {sum(unknown.values())}")
    for name in engines:
        wins = sum(g["winner"] == name for g in games)
        rate = converted[name] / held[name] if held[name] else float("nan")
        print(f"  {name}: won {wins}; held the won seat {held[name]}, "
              f"converted {converted[name]} ({rate:.0%})")


if __name__ == "__main__":
    main()
