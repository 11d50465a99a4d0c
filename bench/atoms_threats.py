#!/usr/bin/env python3
"""Atoms match records: do the captures each side has in hand when the
drops end say how the material moves next?

For every game of the records (standard variant, 11 atoms each) it
replays the drops and the removal after the last one (ply 22), counts
for each side the enemy atoms it could take with one move there (an
enemy atom whose only enemy neighbour is one of the side's atoms, left
by a step of that atom that keeps its valence), and follows p1's lead
in atoms to ply 30. It prints the least-squares fit

    p1's lead at ply 30 - at ply 22 = a + b * p1's captures + c * p2's

and the mean change for each pair of counts (3 meaning 3 or more).
p1 makes the first move of the movement phase.

    python3 bench/atoms_threats.py RECORDS [RECORDS ...]
"""
import collections
import os
import sys

sys.path.insert(0, os.path.dirname(__file__))
from atoms_drop_leads import DROPS, p1_lead, replay  # noqa: E402
from records import game_moves, read_record  # noqa: E402

LAST_PLY = 30


def neighbours(c, size):
    x, y = c
    return [(x + dx, y + dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1)
            if (dx, dy) != (0, 0) and 0 <= x + dx < size and 0 <= y + dy < size]


def captures(board, seat, size):
    """The enemy atoms `seat` could take with one step, each counted once."""
    def valence(c, without=None):
        return sum(1 for n in neighbours(c, size) if n in board and n != without)

    taken = set()
    for atom, owner in board.items():
        if owner != seat:
            continue
        victims = [e for e in neighbours(atom, size) if board.get(e) == 1 - seat
                   and sum(1 for n in neighbours(e, size) if board.get(n) == seat) == 1]
        if not victims:
            continue
        kept = valence(atom)
        for target in neighbours(atom, size):
            if target not in board and valence(target, without=atom) == kept:
                taken.update(e for e in victims if e not in neighbours(target, size))
    return len(taken)


def game_row(moves, size):
    """(p1's captures, p2's captures) at ply 22 and p1's lead change to
    ply 30, or None for a game shorter than that."""
    if len(moves) <= LAST_PLY:
        return None
    for ply, board in replay(moves[:LAST_PLY]):
        if ply == DROPS:
            start = p1_lead(board)
            counts = (captures(board, 0, size), captures(board, 1, size))
    return counts + (p1_lead(board) - start,)


def least_squares(xs, ys):
    """Solves the normal equations by Gauss-Jordan elimination."""
    k = len(xs[0])
    rows = [[sum(x[i] * x[j] for x in xs) for j in range(k)]
            + [sum(x[i] * y for x, y in zip(xs, ys))] for i in range(k)]
    for i in range(k):
        pivot = max(range(i, k), key=lambda r: abs(rows[r][i]))
        rows[i], rows[pivot] = rows[pivot], rows[i]
        for r in range(k):
            if r != i:
                f = rows[r][i] / rows[i][i]
                rows[r] = [a - f * b for a, b in zip(rows[r], rows[i])]
    return [rows[i][k] / rows[i][i] for i in range(k)]


def main(paths):
    if not paths or any(p.startswith('-') for p in paths):
        sys.exit(__doc__)
    rows = []
    for path in paths:
        settings, games = read_record(path)
        if settings.get('game') != 'atoms' or settings.get('stones') != '11' \
                or settings.get('variant') != 'standard':
            sys.exit(f"{path}: not Atoms, standard, 11 atoms each")
        size = int(settings['size'])
        for game in games:
            row = game_row(game_moves(game), size)
            if row:
                rows.append(row)
    if len(rows) < 3:
        sys.exit("fewer than 3 games reach ply %d" % LAST_PLY)
    try:
        a, b, c = least_squares([(1, p1, p2) for p1, p2, _ in rows], [d for *_, d in rows])
    except ZeroDivisionError:
        sys.exit("the capture counts do not vary enough to fit")
    n = len(rows)
    print(f"{n} games; captures in hand at ply {DROPS}: p1 {sum(r[0] for r in rows) / n:.2f},"
          f" p2 {sum(r[1] for r in rows) / n:.2f}; p1's lead from ply {DROPS} to {LAST_PLY}:"
          f" {sum(r[2] for r in rows) / n:+.2f}")
    print(f"fit: change = {a:+.2f} {b:+.2f} * p1's captures {c:+.2f} * p2's")
    cells = collections.defaultdict(list)
    for p1, p2, change in rows:
        cells[(min(p1, 3), min(p2, 3))].append(change)
    print("p1's captures, p2's captures: games, mean change")
    for key in sorted(cells):
        changes = cells[key]
        print(f"  {key[0]}, {key[1]}: {len(changes)}, {sum(changes) / len(changes):+.2f}")


if __name__ == '__main__':
    main(sys.argv[1:])
