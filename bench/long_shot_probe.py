#!/usr/bin/env python3
"""What long shots (the LongShots option) find in the positions of lost games.

For the first GAMES games of RECORDS that ENGINE lost, each position at plies
8 to 14 with ENGINE to move is searched again by BIN with LongShots on, on a
10 s + 100 ms clock with 7 s left, and its debug log is read: how often a long
shot was tried, and what each weighed move was (Trap: the reply the model
expects is proven to lose; Pitfall: proven to win; Unknown), and how often a
trap or a sidestep was played.

    python3 bench/long_shot_probe.py RECORDS ENGINE --bin BIN [--games 12]
"""
import argparse
import collections
import os
import re
import sys
import tempfile

sys.path.insert(0, os.path.dirname(__file__))
from engine import Engine  # noqa: E402
from records import game_moves, read_record  # noqa: E402

ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
ap.add_argument('records')
ap.add_argument('engine', help="the engine's name in the records (its lost games are read)")
ap.add_argument('--bin', required=True, help='the quintet binary to probe')
ap.add_argument('--games', type=int, default=12)
args = ap.parse_args()

settings, games = read_record(args.records)
lost = [g for g in games
        if args.engine in (g.get('p1'), g.get('p2')) and g.get('winner') not in (None, args.engine, 'draw')]
if not lost:
    sys.exit(f'no lost games of {args.engine} in {args.records}')
game_flags = ['--game', settings['game'], '--size', settings['size'],
              '--variant', settings.get('variant', 'standard')]

counts = collections.Counter()
env = dict(os.environ, RUST_LOG='quintet=debug')
for game in lost[:args.games]:
    seat = 'p1' if game['p1'] == args.engine else 'p2'
    moves = game_moves(game)
    for ply in range(8, min(15, len(moves))):
        if (ply % 2 == 0) != (seat == 'p1'):
            continue
        # A new process a position: each search starts as a game's would, and
        # the log read is that one search's.
        with tempfile.TemporaryFile(mode='w+') as err:
            try:
                probe = Engine(args.bin, *game_flags, stderr=err, env=env)
            except OSError as e:
                sys.exit(f'{args.bin}: {e.strerror}')
            probe.setoptions(LongShots='true')
            probe.send('uginewgame')
            probe.ready()
            probe.send(f"position startpos moves {' '.join(moves[:ply])}")
            _, lines = probe.timed_go('p1time 7000 p2time 7000 p1inc 100 p2inc 100')
            probe.quit()
            err.seek(0)
            log = err.read()
        best = lines[-1].split()[1]
        counts['positions'] += 1
        verdicts = re.findall(r'long shot: (\S+) answered by (\S+): (\w+)', log)
        for _, _, kind in verdicts:
            counts[kind] += 1
        counts['tried'] += 'moves to weigh' in log
        counts['trap played'] += 'a trap at move' in log
        counts['sidestep played'] += 'sidestepped' in log
        print(f"game {game['game']} ply {ply}: {best} (the game: {moves[ply]}) {verdicts}", file=sys.stderr)
print(dict(counts))
