#!/usr/bin/env python3
"""Atoms match records: how ENGINE's drawn games ended.

Counts the drawn games of a `quintet match --record` file by ENGINE's
atom lead on the final board and by the rule that drew them (the
100-move rule when the final position's counter is 100, else the third
occurrence). With --positions LEAD it prints instead, for each draw by
repetition with ENGINE at least LEAD atoms up, one line

    WHO<TAB>MOVE<TAB>MOVES BEFORE IT

where MOVE is ENGINE's last move of the game, WHO says whether ENGINE
itself made the third occurrence (`self`) or the opponent did with the
move after it (`opp`), and MOVES BEFORE IT are the game's moves up to
that move (opening included), for `position startpos moves ...`.

    python3 bench/atoms_draws.py RECORDS ENGINE
    python3 bench/atoms_draws.py RECORDS ENGINE --positions 2
"""
import collections
import os
import sys

sys.path.insert(0, os.path.dirname(__file__))
from records import opening_moves, read_record  # noqa: E402


def main(args):
    if len(args) not in (2, 4) or (len(args) == 4 and args[2] != '--positions'):
        sys.exit(__doc__)
    path, engine = args[0], args[1]
    min_lead = int(args[3]) if len(args) == 4 else None
    by_lead = collections.Counter()
    by_rule = collections.Counter()
    for g in read_record(path)[1]:
        if g['result'] != 'draw' or engine not in (g['p1'], g['p2']):
            continue
        final = g['final'].split()
        seat = 0 if g['p1'] == engine else 1
        lead = final[0].count('w') - final[0].count('b')
        lead = lead if seat == 0 else -lead
        rule = '100 moves' if final[-1] == '100' else 'repetition'
        by_lead[lead] += 1
        by_rule[(lead, rule)] += 1
        if min_lead is None or rule != 'repetition' or lead < min_lead:
            continue
        moves = opening_moves(g) + g['moves'].split()
        last_by = (len(moves) - 1) % 2  # p1 makes the even plies
        k = len(moves) - 1 if last_by == seat else len(moves) - 2
        who = 'self' if last_by == seat else 'opp'
        print(f"{who}\t{moves[k]}\t{' '.join(moves[:k])}")
    if min_lead is not None:
        return
    print(f"{path}: {sum(by_lead.values())} draws of {engine}")
    for lead in sorted(by_lead):
        rules = ', '.join(f"{by_rule[(lead, r)]} by {r}" for r in ('repetition', '100 moves'))
        print(f"  lead {lead:+d}: {by_lead[lead]} ({rules})")


if __name__ == '__main__':
    main(sys.argv[1:])
