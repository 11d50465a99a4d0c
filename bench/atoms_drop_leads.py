#!/usr/bin/env python3
"""Atoms match records: the material each side keeps after the drop phase.

Replays the first 22 moves (the drops of the default 11 atoms each) of
every game in a `quintet match --record` file, applies the removal after
the last drop (an atom with no enemy among its 8 neighbours goes), and
prints the mean lead of ENGINE after it, with W-D-L per lead and how
many of those games ended with a smaller lead (the final position's
atoms) than the drops left.

With --by-seat it replays the movement phase too (each move, then the
removal) and prints, for ENGINE as p1 and as p2, its mean lead after
the drops, after the next 2 and 4 plies and at ply 42, and W-D-L by its
lead at ply 42.

    python3 bench/atoms_drop_leads.py RECORDS ENGINE
    python3 bench/atoms_drop_leads.py RECORDS ENGINE --by-seat
"""
import collections
import os
import sys

sys.path.insert(0, os.path.dirname(__file__))
from records import game_moves, read_record  # noqa: E402

DROPS = 22
CHECKPOINTS = (DROPS, DROPS + 2, DROPS + 4, 42)


def cell(text):
    return (ord(text[0]) - 97, int(text[1:]) - 1)


def move_cells(move):
    """`d4e5` -> the origin and destination cells."""
    split = next(i for i in range(2, len(move)) if move[i].isalpha())
    return cell(move[:split]), cell(move[split:])


def remove_unstable(board):
    """The removal step: every atom with no enemy among its 8 neighbours
    goes, all at once."""
    def has_enemy(c, seat):
        x, y = c
        return any(board.get((x + dx, y + dy)) == 1 - seat
                   for dx in (-1, 0, 1) for dy in (-1, 0, 1) if (dx, dy) != (0, 0))
    for c in [c for c, seat in board.items() if not has_enemy(c, seat)]:
        del board[c]


def p1_lead(board):
    return sum(1 if seat == 0 else -1 for seat in board.values())


def replay(moves):
    """Yields (ply, board) after each of `moves`: the drops, the removal
    after the last one, then each move and its removal. The board is one
    dict, updated in place."""
    board = {}
    for i, move in enumerate(moves):
        if i < DROPS:
            board[cell(move)] = i % 2
            if i == DROPS - 1:
                remove_unstable(board)
        else:
            origin, target = move_cells(move)
            board[target] = board.pop(origin)
            remove_unstable(board)
        yield i + 1, board


def leads_at(moves, plies):
    """p1's lead in atoms on the board after each of `plies` (a game that
    ended sooner keeps its final lead)."""
    board, leads = {}, {}
    for ply, board in replay(moves):
        if ply in plies:
            leads[ply] = p1_lead(board)
    return {p: leads.get(p, p1_lead(board)) for p in plies}


def outcome(game, seat):
    if game['result'] == 'draw':
        return 'D'
    return 'W' if (game['result'] == 'p1win') == (seat == 0) else 'L'


def sign(seat):
    """Turns p1's lead into the lead of `seat`."""
    return 1 if seat == 0 else -1


def final_lead(game, seat):
    board = game['final'].split()[0]
    return sign(seat) * (board.count('w') - board.count('b'))


def by_lead_after_drops(path, engine, games):
    tally = collections.Counter()
    total = 0
    for game in games:
        seat = 0 if game['p1'] == engine else 1
        moves = game_moves(game)
        board = {cell(move): i % 2 for i, move in enumerate(moves[:DROPS])}
        remove_unstable(board)  # also in a game that ended during the drops, as always
        lead = sign(seat) * p1_lead(board)
        key = max(-2, min(2, lead))
        tally[(key, outcome(game, seat))] += 1
        total += lead
        if final_lead(game, seat) < lead:
            tally[(key, 'less')] += 1
    print(path, 'games', len(games), 'mean lead after the drops %.2f' % (total / len(games)))
    for k in range(-2, 3):
        print(' lead', k, ' '.join('%s %d' % (r, tally[(k, r)]) for r in 'WDL'),
              ' ended with less', tally[(k, 'less')])


def by_seat(path, engine, games):
    print(path)
    for seat, name in ((0, 'p1'), (1, 'p2')):
        sums, ahead, tally, count = collections.Counter(), collections.Counter(), collections.Counter(), 0
        for game in games:
            if game[name] != engine:
                continue
            count += 1
            moves = game_moves(game)
            leads = {ply: sign(seat) * lead for ply, lead in leads_at(moves, CHECKPOINTS).items()}
            for ply, lead in leads.items():
                sums[ply] += lead
                ahead[ply] += lead > 0
            tally[(max(-2, min(3, leads[CHECKPOINTS[-1]])), outcome(game, seat))] += 1
        if count == 0:
            continue
        print(f' {engine} as {name}, {count} games; mean lead (games ahead):',
              ', '.join(f'ply {p} {sums[p] / count:+.2f} ({ahead[p]})' for p in CHECKPOINTS))
        for k in range(-2, 4):
            print(f'  lead {k:+d} at ply {CHECKPOINTS[-1]}:',
                  ' '.join('%s %d' % (r, tally[(k, r)]) for r in 'WDL'))


def main(args):
    if len(args) not in (2, 3) or args[2:] not in ([], ['--by-seat']):
        sys.exit(__doc__)
    path, engine = args[0], args[1]
    games = read_record(path)[1]
    if not any(engine in (game['p1'], game['p2']) for game in games):
        sys.exit(f"{path}: no game has {engine} as a player")
    if len(args) == 2:
        by_lead_after_drops(path, engine, games)
    else:
        by_seat(path, engine, games)


if __name__ == '__main__':
    main(sys.argv[1:])
