#!/usr/bin/env python3
"""How an engine reads its own won seats, and whether the other engine's
choice of move there changes how often it keeps them.

For ENGINE (e.g. `plain`) in match records of a game without draws, the
seats it was proven to hold right after the first decision past the book
(the proofs come from bench/seat_keeps.py's --cache file):

- it moved first after the book and its first move is proven to win;
- it moved second after a book proven lost for the first mover (every
  first move the other engine played there is proven to lose).

In each such game the other engine then chose a move (its reply, or its
first move) with ENGINE to move next. This script has a search of
ENGINE's kind (--option, by default `Search=uct-plain`) read that
position for --ms milliseconds: its score in centipawns, for the side to
move, is how sure ENGINE's own search would be of its won seat there.
It prints how often ENGINE kept the seat at each reading, then, per
position before the other engine's choice, the moves it chose with their
keeps and readings. Where it chose two moves of different readings in the
same position, the pair shows whether the lower reading (ENGINE less
sure) went with fewer keeps: the test of steering a search towards the
positions the opponent reads as about even.

With --replies every legal move of the other engine in those positions is
read (--reply-ms each): how far apart its choices there lie, and where
the moves it played sit among them (rank 0: the lowest reading).

    python3 bench/reply_readings.py RECORDS... --engine plain --cache FILE
        [--ms 400] [--replies] [--reply-ms 200] [--jobs 2]
        [--option Name=Value ...] [--bin QUINTET]
"""

import argparse
import collections
import os
import sys
import threading
from concurrent.futures import ThreadPoolExecutor

sys.path.insert(0, os.path.dirname(__file__))
from engine import field, last_info, start_ready  # noqa: E402
from seat_keeps import (first_mover, first_seat, load_cache, opening_verdicts,  # noqa: E402
                        read_all, refuse_draws)
from records import game_flags, opening_moves  # noqa: E402

# A proven result in a reading counts as this many centipawns.
MATE_CP = 1000

BUCKETS = ((10, "at most 10"), (30, "11 to 30"), (50, "31 to 50"), (None, "above 50"))


def won_seat_games(games, engine, cache):
    """ENGINE's proven won seats after the first decision past the book:
    (kind, position key, the other engine's move, the moves to the
    position ENGINE reads, whether ENGINE kept the seat)."""
    _, lost_for_first = opening_verdicts(cache.items())
    rows = []
    for g in games:
        played = g.get("moves", "").split()
        if len(played) < 2:
            continue
        book = opening_moves(g)
        kept = g.get("winner") == engine
        if first_mover(g) == engine:
            if cache.get((g["opening"], played[0])) != first_seat(g["opening"]):
                continue  # its first move is not proven to win
            key = " ".join(book + played[:1])
            rows.append(("first", key, played[1], book + played[:2], kept))
        elif g["opening"] in lost_for_first:
            rows.append(("second", " ".join(book), played[0], book + played[:1], kept))
    return rows


class Readers:
    """One engine process per job, each read by one thread at a time."""

    def __init__(self, args, settings):
        self.local = threading.local()
        self.all = []
        self.lock = threading.Lock()
        self.args, self.settings = args, settings

    def get(self):
        reader = getattr(self.local, "engine", None)
        if reader is None:
            reader = start_ready(self.args.bin, game_flags(self.settings), self.args.option)
            self.local.engine = reader
            with self.lock:
                self.all.append(reader)
        return reader

    def read(self, moves, ms):
        """The side to move's score (cp) after `moves` from a `ms` search."""
        reader = self.get()
        reader.send("uginewgame")
        reader.send("position startpos moves " + " ".join(moves))
        reader.ready()
        _, lines = reader.timed_go(f"movetime {ms}")
        info = last_info(lines)
        cp = field(info, "cp")
        if cp is not None:
            return int(cp)
        mate = field(info, "mate")
        if mate is not None:
            return MATE_CP if int(mate) > 0 else -MATE_CP
        sys.exit(f"no score in the reading of {' '.join(moves)}: {info!r}")

    def legal(self, moves):
        reader = self.get()
        reader.send("position startpos moves " + " ".join(moves))
        legal = reader.ask("moves").split()
        return [] if legal == ["none"] else legal

    def quit(self):
        for reader in self.all:
            reader.quit()


def bucket(cp):
    return next(label for top, label in BUCKETS if top is None or cp <= top)


def report_buckets(rows, readings, engine):
    for kind in ("first", "second"):
        tally = collections.defaultdict(lambda: [0, 0])
        for row, cp in zip(rows, readings):
            if row[0] == kind:
                tally[bucket(cp)][0] += 1
                tally[bucket(cp)][1] += row[4]
        n = sum(t[0] for t in tally.values())
        if not n:
            continue
        who = ("moving first, after its winning first move and the other's reply" if kind == "first"
               else "moving second in a book lost for the first mover, after the other's first move")
        print(f"{engine}'s won seats {who}: {n} games, kept {sum(t[1] for t in tally.values())}")
        for _, label in BUCKETS:
            if label in tally:
                games, kept = tally[label]
                print(f"  its reading {label} cp: {games} games, kept {kept} ({100 * kept / games:.0f}%)")


def report_positions(rows, readings, all_replies):
    groups = collections.defaultdict(lambda: collections.defaultdict(list))
    for row, cp in zip(rows, readings):
        groups[(row[0], row[1])][row[2]].append((row[4], cp))
    pairs = collections.Counter()
    # Games by the rank of the move played among all moves' readings, and
    # how far its reading sat above the lowest.
    ranks, gaps = collections.Counter(), []
    print("\nper position before the other engine's choice: its moves, "
          "the seat kept / games (mean reading)")
    for (kind, key), replies in sorted(groups.items()):
        means = {mv: sum(cp for _, cp in v) / len(v) for mv, v in replies.items()}
        rates = {mv: sum(k for k, _ in v) / len(v) for mv, v in replies.items()}
        line = " ".join(f"{mv} {sum(k for k, _ in v)}/{len(v)} ({means[mv]:.0f})"
                        for mv, v in sorted(replies.items(), key=lambda x: means[x[0]]))
        print(f"  {kind:6} {key}: {line}")
        if (kind, key) in all_replies:
            spread = all_replies[(kind, key)]
            order = sorted(spread, key=spread.get)
            placed = " ".join(f"{mv} rank {order.index(mv)}" for mv in replies if mv in spread)
            print(f"         all {len(order)} moves read {spread[order[0]]}..{spread[order[-1]]}"
                  f" (lowest {order[0]}); played: {placed}")
            for mv, v in replies.items():
                if mv in spread:
                    rank = order.index(mv)
                    ranks["0" if rank == 0 else "1-2" if rank <= 2 else "3 or more"] += len(v)
                    gaps += [spread[mv] - spread[order[0]]] * len(v)
        moves = list(replies)
        for i, a in enumerate(moves):
            for b in moves[i + 1:]:
                if means[a] == means[b]:
                    continue
                low, high = (a, b) if means[a] < means[b] else (b, a)
                pairs["lower reading, fewer keeps" if rates[low] < rates[high]
                      else "lower reading, more keeps" if rates[low] > rates[high]
                      else "same keeps"] += 1
    if gaps:
        gaps.sort()
        print(f"\ngames by the rank of the other engine's move among all moves' readings: "
              + ", ".join(f"rank {k} {ranks[k]}" for k in ("0", "1-2", "3 or more"))
              + f"; its reading above the lowest: median {gaps[len(gaps) // 2]} cp, "
              f"mean {sum(gaps) / len(gaps):.1f} cp")
    print("\npairs of moves chosen in the same position, by reading:",
          ", ".join(f"{k} {v}" for k, v in sorted(pairs.items())) or "none")


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("records", nargs="+")
    p.add_argument("--engine", required=True, help="the engine whose won seats are read")
    p.add_argument("--cache", required=True, help="bench/seat_keeps.py's file of solved positions")
    p.add_argument("--bin", default="target/release/quintet")
    p.add_argument("--ms", type=int, default=400, help="milliseconds per reading")
    p.add_argument("--replies", action="store_true", help="read every legal move there too")
    p.add_argument("--reply-ms", type=int, default=200)
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--option", action="append", default=None, metavar="NAME=VALUE",
                   help="a setoption for the reading search (default Search=uct-plain)")
    args = p.parse_args()
    options = args.option or ["Search=uct-plain"]
    if any("=" not in o for o in options):
        p.error("--option takes NAME=VALUE")
    args.option = [tuple(o.split("=", 1)) for o in options] + [("Threads", "1")]
    if not os.path.exists(args.cache):
        sys.exit(f"{args.cache}: no such file (make it with bench/seat_keeps.py --solve --cache)")
    settings, games = read_all(args.records)
    if not any(args.engine in (g["p1"], g["p2"]) for g in games):
        sys.exit(f"no game of '{args.engine}' in the records")
    refuse_draws(games)
    rows = won_seat_games(games, args.engine, load_cache(args.cache))
    if not rows:
        sys.exit(f"no proven won seat of '{args.engine}' in the records (is the cache theirs?)")
    readers = Readers(args, settings)
    try:
        with ThreadPoolExecutor(args.jobs) as pool:
            print(f"reading {len(rows)} positions, {args.ms} ms each", file=sys.stderr)
            readings = []
            for n, cp in enumerate(pool.map(lambda row: readers.read(row[3], args.ms), rows), 1):
                readings.append(cp)
                print(f"  {n}/{len(rows)}", end="\r", file=sys.stderr)
            print(file=sys.stderr)
            all_replies = {}
            if args.replies:
                for n, (kind, key) in enumerate(sorted({(r[0], r[1]) for r in rows}), 1):
                    print(f"  every move: position {n}", end="\r", file=sys.stderr)
                    before = key.split()
                    legal = readers.legal(before)
                    cps = pool.map(lambda mv: readers.read(before + [mv], args.reply_ms), legal)
                    all_replies[(kind, key)] = dict(zip(legal, cps))
                print(file=sys.stderr)
    finally:
        readers.quit()
    report_buckets(rows, readings, args.engine)
    report_positions(rows, readings, all_replies)


if __name__ == "__main__":
    main()
