#!/usr/bin/env python3
"""Atoms match records: the isolated groups of atoms where ENGINE leads.

A group is a set of atoms each within two cells (king steps) of another
of the set, and more than two cells from every atom outside it: atoms
that cannot come to touch another group in one move. For each group that
holds atoms of the side behind, the pair (its atoms of the side behind,
its atoms of the side ahead) is counted

- in the final position of every game ENGINE drew while an atom or more
  up, and
- after plies 40 and 60 of every game ENGINE won, where it was an atom or
  more up then,

so that a kind of group common at the end of the draws and rare in the
games won is one the side behind holds. (1, 1) and (1, 2) are the
fortresses of the engine's evaluation up to session 45, (1, 1) to (1, 4)
from session 46.

    python3 bench/atoms_groups.py ENGINE RECORDS [RECORDS ...]
"""
import collections
import os
import sys

sys.path.insert(0, os.path.dirname(__file__))
from atoms_draws import near  # noqa: E402
from atoms_drop_leads import outcome, p1_lead, replay, sign  # noqa: E402
from records import game_moves, read_record  # noqa: E402

SAMPLE_PLIES = (40, 60)


def groups(board):
    """The isolated groups of `board` (cell -> seat), as lists of cells."""
    cells, seen, found = list(board), set(), []
    for start in cells:
        if start in seen:
            continue
        seen.add(start)
        group = [start]
        for member in group:  # grows while it is walked
            for other in cells:
                if other not in seen and near(member, other):
                    seen.add(other)
                    group.append(other)
        found.append(group)
    return found


def kinds(board, behind):
    """(atoms of `behind`, atoms of the other seat) of each group that
    holds an atom of `behind`."""
    for group in groups(board):
        own = sum(1 for c in group if board[c] == behind)
        if own:
            yield own, len(group) - own


def main(args):
    if len(args) < 2:
        sys.exit(__doc__)
    engine, paths = args[0], args[1:]
    in_draws, in_wins = collections.Counter(), collections.Counter()
    draws = samples = 0
    for path in paths:
        for game in read_record(path)[1]:
            if engine not in (game['p1'], game['p2']):
                continue
            seat = 0 if game['p1'] == engine else 1
            won = outcome(game, seat) == 'W'
            board = {}
            for ply, board in replay(game_moves(game)):
                if won and ply in SAMPLE_PLIES and sign(seat) * p1_lead(board) >= 1:
                    samples += 1
                    in_wins.update(kinds(board, 1 - seat))
            if outcome(game, seat) == 'D' and sign(seat) * p1_lead(board) >= 1:
                draws += 1
                in_draws.update(kinds(board, 1 - seat))
    print(f"{engine}: {draws} draws led at the end, {samples} positions of games won"
          f" led at plies {' and '.join(map(str, SAMPLE_PLIES))}")
    print("group (behind, ahead)  in those draws' final positions  in those positions")
    for kind in sorted(set(in_draws) | set(in_wins)):
        print(f"  {kind!s:20} {in_draws[kind]:5} {in_wins[kind]:5}")


if __name__ == '__main__':
    main(sys.argv[1:])
