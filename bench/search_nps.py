#!/usr/bin/env python3
"""Search speed of engine builds on positions from a match record.

Takes plies 30 and 60 (or those of `--plies`) of every other game among
the record's first 40, sends each as `position startpos moves ...` (the
record's game and size) followed by `go movetime MS` (or, with
`--nodes`, `go nodes MS`: the same work for every build, timed), and
prints per binary the nodes and milliseconds of the last info line of
each search, added up, and their ratio. Give the binaries in turn (A B A
B) to see the machine's noise. Hadron's games are short: `--plies 10,14`.
A search that ends proven (`score mate`) is left out of the sums and
counted apart: its nodes are a prover's (millions a second in Hadron),
not the searcher's.
A binary may carry engine options after commas, e.g.
`target/release/quintet,Weights=none` or `...,Search=uct-plain`: the same
build searching another way.

    python3 bench/search_nps.py [--plies A,B] [--nodes] RECORDS MS BIN[,NAME=VALUE...] ...
"""
import os
import sys

sys.path.insert(0, os.path.dirname(__file__))
from engine import Engine, field, last_info  # noqa: E402
from records import game_moves, read_record  # noqa: E402


def positions(games, plies=(30, 60)):
    found = []
    for g in games[:40:2]:
        moves = game_moves(g)
        found += [moves[:k] for k in plies if len(moves) > k + 2]
    return found


def build_and_options(spec):
    """'BIN,Name=Value,...' as the binary and its options."""
    binary, *pairs = spec.split(',')
    options = {}
    for pair in pairs:
        name, eq, value = pair.partition('=')
        if not eq or not name:
            sys.exit(f"{spec!r}: options after the binary are NAME=VALUE, not {pair!r}")
        options[name] = value
    return binary, options


def speed(spec, settings, found, ms, limit='movetime'):
    binary, options = build_and_options(spec)
    engine = Engine(binary)
    engine.setoptions(Game=settings['game'], Size=settings.get('size', 0), Hash=64)
    if 'stones' in settings:
        engine.setoptions(Stones=settings['stones'])
    engine.setoptions(**options)
    engine.ready()
    nodes = elapsed = proven = 0
    for moves in found:
        engine.send('uginewgame')
        engine.send('position startpos moves ' + ' '.join(moves))
        _, lines = engine.timed_go(f'{limit} {ms}')
        info = last_info(lines)
        searched, took = field(info, 'nodes'), field(info, 'time')
        if searched is None or took is None:
            sys.exit(f"{spec}: no info line with nodes and time before bestmove")
        if field(info, 'score') == 'mate':
            proven += 1
            continue
        nodes += int(searched)
        elapsed += int(took)
    engine.quit()
    return nodes, elapsed, proven


def main(args):
    plies, limit = (30, 60), 'movetime'
    while args and args[0].startswith('--'):
        if args[0] == '--nodes':
            limit, args = 'nodes', args[1:]
        elif args[0] == '--plies' and len(args) > 1:
            try:
                plies = tuple(int(p) for p in args[1].split(','))
            except ValueError:
                sys.exit(f"--plies wants numbers like 10,14, not {args[1]!r}")
            args = args[2:]
        else:
            sys.exit(__doc__)
    if len(args) < 3 or not args[1].isdigit():
        sys.exit(__doc__)
    settings, games = read_record(args[0])
    found = positions(games, plies)
    for binary in args[2:]:
        nodes, elapsed, proven = speed(binary, settings, found, int(args[1]), limit)
        print(f"{binary}: {len(found) - proven} positions ({proven} proven, left out), "
              f"{nodes} nodes in {elapsed} ms, {nodes * 1000 // max(elapsed, 1)} nodes/s")


if __name__ == '__main__':
    main(sys.argv[1:])
