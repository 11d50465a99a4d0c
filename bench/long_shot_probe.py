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
import argparse, collections, os, re, subprocess, sys, tempfile

ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
ap.add_argument('records')
ap.add_argument('engine', help="the engine's name in the records (its lost games are read)")
ap.add_argument('--bin', required=True, help='the quintet binary to probe')
ap.add_argument('--games', type=int, default=12)
args = ap.parse_args()

games = []
size = '7'
with open(args.records) as f:
    for line in f:
        header = re.search(r'^# settings:.* size=(\d+)', line)
        if header:
            size = header.group(1)
        if not line.startswith('game='):
            continue
        kv = {k: v.strip('"') for k, v in re.findall(r'(\w+)=("[^"]*"|\S+)', line)}
        if kv.get('winner') in (None, args.engine, 'draw'):
            continue
        if args.engine not in (kv.get('p1'), kv.get('p2')):
            continue
        seat = 'p1' if kv['p1'] == args.engine else 'p2'
        moves = kv['opening'].split()[1:] + kv['moves'].split()
        games.append((kv['game'], seat, size, moves))
if not games:
    sys.exit(f'no lost games of {args.engine} in {args.records}')

counts = collections.Counter()
env = dict(os.environ, RUST_LOG='quintet=debug')
for gid, seat, size, moves in games[:args.games]:
    for ply in range(8, min(15, len(moves))):
        if (ply % 2 == 0) != (seat == 'p1'):
            continue
        script = (f"ugi\nsetoption name Size value {size}\nsetoption name LongShots value true\n"
                  f"isready\nuginewgame\nposition startpos moves {' '.join(moves[:ply])}\n"
                  "go p1time 7000 p2time 7000 p1inc 100 p2inc 100\n")
        with tempfile.TemporaryFile(mode='w+') as err:
            p = subprocess.Popen([args.bin], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                 stderr=err, text=True, env=env)
            p.stdin.write(script)
            p.stdin.flush()
            best = None
            for out in p.stdout:
                if out.startswith('bestmove'):
                    best = out.split()[1]
                    break
            p.stdin.write('quit\n')
            p.stdin.flush()
            p.wait()
            err.seek(0)
            log = err.read()
        counts['positions'] += 1
        verdicts = re.findall(r'long shot: (\S+) answered by (\S+): (\w+)', log)
        for _, _, kind in verdicts:
            counts[kind] += 1
        counts['tried'] += 'moves to weigh' in log
        counts['trap played'] += 'a trap at move' in log
        counts['sidestep played'] += 'sidestepped' in log
        print(f'game {gid} ply {ply}: {best} (the game: {moves[ply]}) {verdicts}', file=sys.stderr)
print(dict(counts))
