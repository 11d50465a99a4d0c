#!/usr/bin/env python3
"""Where an engine keeps its won seats: by who moves first after the book.

In a game without draws every opening is won for one seat, and against an
opponent that holds its own won seats an engine's score above half is the
opponent letting go of its won seats. This script splits ENGINE's wins
(the opponent's, e.g. `plain`) in match records by whether ENGINE moved
first after the book (its first decision came before the other engine
had any say) or second (the other engine's first move came before it),
and counts them per opening. It prints the score the other engine would
reach if ENGINE won none of its games as second mover: the most that
better play after the book can win while ENGINE's first-mover wins stand.

With --solve, the position after ENGINE's first move in each game it
moved first is solved (`quintet solve`, --time seconds each, once per
distinct opening and move; books shorter than --min-plies are skipped,
since their positions take minutes): whether that first decision kept a
win, and how often ENGINE went on to win after it did. An opening where
one of those moves is proven to win is won for the first mover; one where
every one is proven to lose is counted as lost for it. In both kinds the
same openings' other games (ENGINE second after the book) are counted
too: in a lost opening that is ENGINE's won seat, with the other engine
moving first in a lost position (like for like with ENGINE's won seat
after its own first move); in a won one it is the other engine's won
seat, so ENGINE's wins there are the other engine's errors.

    python3 bench/seat_keeps.py RECORDS... --engine plain [--solve]
        [--time 60] [--jobs 2] [--hash 1024] [--min-plies 6] [--cache FILE]
        [--other-losses FILE] [--bin QUINTET]

Every record must use the same openings (their digest is checked).
"""

import argparse
import collections
import math
import os
import sys
from concurrent.futures import ThreadPoolExecutor

sys.path.insert(0, os.path.dirname(__file__))
from decided import solve_lines, verdict  # noqa: E402
from records import mover, opening_moves, read_record  # noqa: E402


def elo(score):
    if score <= 0.0 or score >= 1.0:
        return math.copysign(math.inf, score - 0.5)
    return -400.0 * math.log10(1.0 / score - 1.0)


def first_seat(opening):
    """The seat (p1/p2) to move right after an opening's moves."""
    return mover(len(opening.split()) - 1)


def first_mover(game):
    """The name of the engine to move right after the book."""
    opening_moves(game)  # only `moves ...` openings
    return game[first_seat(game["opening"])]


def read_all(paths):
    """The settings and games of every record; each game keeps its line
    as `_line`, to be written out again."""
    settings, games, digest = None, [], None
    for path in paths:
        s, g = read_record(path)
        if digest is not None and s.get("openings_digest") != digest:
            sys.exit(f"{path}: other openings than {paths[0]} (openings_digest)")
        settings, digest = s, s.get("openings_digest")
        with open(path) as f:
            for game, line in zip(g, (line for line in f if line.startswith("game="))):
                game["_line"] = line
        games.extend(g)
    return settings, games


def refuse_draws(games):
    """Ends the script unless every game has a winner."""
    undecided = sum(g.get("winner") in (None, "", "-", "draw") for g in games)
    if undecided:
        sys.exit(f"{undecided} games without a winner: this script is for "
                 "games without draws, where every opening is won for one seat")


def opening_verdicts(proofs):
    """From ((opening, first move), winning seat or None) pairs: the
    openings won for the first mover (some first move proven to win) and
    those lost for it (every first move proven to lose)."""
    by_opening = collections.defaultdict(set)
    for (opening, mv), seat in proofs:
        by_opening[opening].add(None if seat is None else seat == first_seat(opening))
    won = {o for o, verdicts in by_opening.items() if True in verdicts}
    lost = {o for o, verdicts in by_opening.items() if verdicts == {False}}
    return won, lost


def report_split(games, engine):
    refuse_draws(games)
    first = [g for g in games if first_mover(g) == engine]
    second = [g for g in games if first_mover(g) != engine]
    kept_first = sum(g["winner"] == engine for g in first)
    kept_second = sum(g["winner"] == engine for g in second)
    total = len(games)
    print(f"{total} decided games of {total}; {engine} won {kept_first + kept_second}")
    print(f"  {engine} first after the book: won {kept_first} of {len(first)}")
    print(f"  {engine} second after the book: won {kept_second} of {len(second)}")
    now = 1.0 - (kept_first + kept_second) / total
    ceiling = 1.0 - kept_first / total
    print(f"  the other engine's score {now:.1%} ({elo(now):+.1f}); "
          f"with none of {engine}'s second-mover wins: {ceiling:.1%} ({elo(ceiling):+.1f})")
    per_opening = collections.defaultdict(lambda: [0, 0, 0])
    for g in games:
        row = per_opening[g["opening"]]
        row[0] += 1
        if g["winner"] == engine:
            row[1 if first_mover(g) == engine else 2] += 1
    spread = collections.Counter((r[1] + r[2]) for r in per_opening.values())
    print(f"  {engine}'s wins per opening ({len(per_opening)} openings, "
          f"{total / max(1, len(per_opening)):.0f} games each): "
          + ", ".join(f"{k}: {spread[k]}" for k in sorted(spread)))
    print("  the openings it won most, as first / second mover:")
    ranked = sorted(per_opening.items(), key=lambda kv: -(kv[1][1] + kv[1][2]))
    for opening, (n, f, s) in ranked[:8]:
        print(f"    {f} / {s} of {n}  {opening}")


def load_cache(path):
    """Solved positions kept from earlier runs: {(opening, move): seat or None}."""
    cache = {}
    if path and os.path.exists(path):
        with open(path) as f:
            for number, line in enumerate(f, 1):
                row = line.rstrip("\n").split("\t")
                if len(row) != 3 or row[2] not in ("p1", "p2", "unknown"):
                    print(f"{path}:{number}: not 'opening<TAB>move<TAB>p1|p2|unknown', "
                          "passed over", file=sys.stderr)
                    continue
                opening, mv, value = row
                cache[(opening, mv)] = None if value == "unknown" else value
    return cache


def solve_first_moves(args, settings, keys):
    """The seat that wins after each (opening, first move), None where the
    solver did not settle it in the time; reuses and extends --cache."""
    values = load_cache(args.cache)
    todo = [k for k in keys if k not in values]
    print(f"solving {len(todo)} positions ({len(keys) - len(todo)} cached; "
          f"{args.time} s each, {args.jobs} at a time)", file=sys.stderr)

    def solve(key):
        opening, mv = key
        moves = opening.split()[1:] + [mv]
        lines = solve_lines(args, settings, moves, "--hash", str(args.hash))
        value = verdict(lines[-1].split())
        return key, None if value == "draw" else value

    with ThreadPoolExecutor(args.jobs) as pool:
        for i, (key, value) in enumerate(pool.map(solve, todo), 1):
            values[key] = value
            if args.cache:
                with open(args.cache, "a") as f:
                    f.write(f"{key[0]}\t{key[1]}\t{value or 'unknown'}\n")
            print(f"  {i}/{len(todo)}", end="\r", file=sys.stderr)
    print(file=sys.stderr)
    return values


def report_first_moves(args, settings, games, engine):
    """Solves the position after ENGINE's first move in each game it moved
    first; prints how often that move kept the win, how often ENGINE won
    after it did, and in the openings so settled how often ENGINE won as
    second mover."""
    long_book = [g for g in games if g.get("moves") and len(opening_moves(g)) >= args.min_plies]
    first = [g for g in long_book if first_mover(g) == engine]
    keys = sorted({(g["opening"], g["moves"].split()[0]) for g in first})
    values = solve_first_moves(args, settings, keys)
    # An opening where some first move of ENGINE is proven to win is won
    # for the first mover; one where every first move it played is proven
    # to lose is taken as lost for the first mover (ENGINE could have
    # missed a win there every time, which its rate in won openings makes
    # rare).
    won, lost = opening_verdicts((k, values[k]) for k in keys)
    played = {g["opening"] for g in first}
    tally = collections.Counter()
    for g in first:
        seat = values[(g["opening"], g["moves"].split()[0])]
        after = "unsettled" if seat is None else ("won" if g[seat] == engine else "lost")
        kind = "won" if g["opening"] in won else ("lost" if g["opening"] in lost else "unknown")
        tally[(after, kind, g["winner"] == engine)] += 1
    print(f"{engine} first after a book of at least {args.min_plies} plies: {len(first)} games, "
          f"{len(won)} openings won for the first mover (some first move of {engine}'s proven "
          f"to win), {len(lost)} lost (every one proven to lose), "
          f"{len(played) - len(won) - len(lost)} unknown")
    for after in ("won", "lost", "unsettled"):
        for kind in ("won", "lost", "unknown"):
            n = tally[(after, kind, True)] + tally[(after, kind, False)]
            if n:
                print(f"  its first move {after} for it, in an opening {kind} for the first mover: "
                      f"{n} games, {engine} won {tally[(after, kind, True)]}")
    # The same openings' other games: ENGINE second after the book.
    second = [g for g in long_book if first_mover(g) != engine]
    for kind, openings, seat in (("won", won, "the other engine's"), ("lost", lost, engine + "'s")):
        games = [g for g in second if g["opening"] in openings]
        print(f"{engine} second after the same books, in the {len(openings)} openings {kind} for "
              f"the first mover ({seat} won seat): {len(games)} games, {engine} won "
              f"{sum(g['winner'] == engine for g in games)}")
    if args.other_losses:
        # ENGINE's wins in the other engine's won seat: moving first in a
        # lost opening, or second in a won one.
        lines = [g["_line"] for g in long_book if g["winner"] == engine
                 and (g["opening"] in lost) == (first_mover(g) == engine)
                 and g["opening"] in lost | won]
        with open(args.records[0]) as f:
            header = [line for line in f if line.startswith("#")]
        with open(args.other_losses, "w") as f:
            f.writelines(header + lines)
        print(f"the other engine's {len(lines)} lost won seats: {args.other_losses}")


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("records", nargs="+")
    p.add_argument("--engine", required=True, help="the engine whose won seats are counted")
    p.add_argument("--solve", action="store_true", help="solve the position after its first move")
    p.add_argument("--bin", default="target/release/quintet")
    p.add_argument("--time", type=float, default=60.0, help="seconds per solve")
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--hash", type=int, default=1024, help="solver memory in MiB, per job")
    p.add_argument("--cache", help="a file of solved positions, read and extended")
    p.add_argument("--other-losses", metavar="FILE",
                   help="with --solve: write the games the other engine lost in its won seat "
                        "as a match record (e.g. for bench/last_errors.py)")
    p.add_argument("--min-plies", type=int, default=0,
                   help="solve only after books this long (shorter ones take minutes each)")
    args = p.parse_args()
    if args.other_losses and not args.solve:
        p.error("--other-losses needs --solve (the won seats come from the proofs)")
    settings, games = read_all(args.records)
    if not any(args.engine in (g["p1"], g["p2"]) for g in games):
        sys.exit(f"no game of '{args.engine}' in the records")
    report_split(games, args.engine)
    if args.solve:
        report_first_moves(args, settings, games, args.engine)


if __name__ == "__main__":
    main()
