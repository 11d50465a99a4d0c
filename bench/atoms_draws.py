#!/usr/bin/env python3
"""Atoms match records: how ENGINE's drawn games ended.

Counts the drawn games of a `quintet match --record` file by ENGINE's
atom lead on the final board and by the rule that drew them (the
100-move rule when the final position's counter is 100, else the third
occurrence), and those where the side behind held a fortress on the
final board: a lone atom with one to four enemy atoms around it and no
other atom within two cells of any of them (as the engine's Atoms
evaluation judges it). With --positions LEAD it prints instead, for each draw by
repetition with ENGINE at least LEAD atoms up, one line

    WHO<TAB>MOVE<TAB>MOVES BEFORE IT

where MOVE is ENGINE's last move of the game, WHO says whether ENGINE
itself made the third occurrence (`self`) or the opponent did with the
move after it (`opp`), and MOVES BEFORE IT are the game's moves up to
that move (opening included), for `position startpos moves ...`.

With --solve LEAD SECONDS it asks instead, for each draw by the 100-move
rule with ENGINE at least LEAD atoms up, `quintet solve` (BIN, default
target/release/quintet; SECONDS each) for the value of the position
right after the game's last removal, where the 100 moves began: could
ENGINE have won from there? It prints one line per game (won by ENGINE,
won by the other, a draw, or not settled) and a tally.

    python3 bench/atoms_draws.py RECORDS ENGINE
    python3 bench/atoms_draws.py RECORDS ENGINE --positions 2
    python3 bench/atoms_draws.py RECORDS ENGINE --solve 2 10 [BIN]
"""
import collections
import os
import sys
import types

sys.path.insert(0, os.path.dirname(__file__))
from decided import value_at  # noqa: E402
from records import game_moves, read_record  # noqa: E402


def main(args):
    positions = len(args) == 4 and args[2] == '--positions'
    solve = len(args) in (5, 6) and args[2] == '--solve'
    if not (len(args) == 2 or positions or solve):
        sys.exit(__doc__)
    path, engine = args[0], args[1]
    try:
        min_lead = int(args[3]) if positions or solve else None
    except ValueError:
        sys.exit(__doc__)
    if solve:
        bin_ = args[5] if len(args) == 6 else 'target/release/quintet'
        return solve_draws(path, engine, min_lead, types.SimpleNamespace(bin=bin_, time=args[4]))
    by_lead = collections.Counter()
    by_rule = collections.Counter()
    fortresses = collections.Counter()
    for g, seat, lead, rule in draws_of(read_record(path)[1], engine):
        by_lead[lead] += 1
        by_rule[(lead, rule)] += 1
        if lead != 0:
            behind = 1 - seat if lead > 0 else seat
            fortresses[lead] += holds_fortress(final_board(g['final']), behind)
        if min_lead is None or rule != 'repetition' or lead < min_lead:
            continue
        moves = game_moves(g)
        last_by = (len(moves) - 1) % 2  # p1 makes the even plies
        k = len(moves) - 1 if last_by == seat else len(moves) - 2
        who = 'self' if last_by == seat else 'opp'
        print(f"{who}\t{moves[k]}\t{' '.join(moves[:k])}")
    if min_lead is not None:
        return
    print(f"{path}: {sum(by_lead.values())} draws of {engine}")
    for lead in sorted(by_lead):
        rules = ', '.join(f"{by_rule[(lead, r)]} by {r}" for r in ('repetition', '100 moves'))
        held = f"; {fortresses[lead]} with the side behind in a fortress" if lead else ""
        print(f"  lead {lead:+d}: {by_lead[lead]} ({rules}{held})")


# The most enemy atoms around a lone atom in a fortress (the engine's
# FORTRESS_GUARDS, src/games/atoms.rs; 2 until session 46).
GUARDS = 4


def final_board(position):
    """The cells of a position text's board, (file, rank) -> seat (0 = p1,
    white)."""
    board = {}
    rows = position.split()[0].split('/')
    for rank, row in enumerate(reversed(rows)):
        file, digits = 0, ''
        for ch in row + '/':
            if ch.isdigit():
                digits += ch
                continue
            file += int(digits or 0)
            digits = ''
            if ch in 'wb':
                board[(file, rank)] = 0 if ch == 'w' else 1
                file += 1
    return board


def near(a, b):
    """Whether two cells are at most two king steps apart: atoms further
    apart cannot come to touch in one move."""
    return max(abs(a[0] - b[0]), abs(a[1] - b[1])) <= 2


def holds_fortress(board, seat):
    """Whether `seat` has a lone atom (no atom of its own within two cells)
    with one to GUARDS enemy atoms within two cells, each of which has no
    other atom within two cells."""
    own = [c for c, s in board.items() if s == seat]
    enemy = [c for c, s in board.items() if s != seat]
    for atom in own:
        if any(o != atom and near(o, atom) for o in own):
            continue
        guards = [e for e in enemy if near(e, atom)]
        if 1 <= len(guards) <= GUARDS and all(
                all(o == atom or not near(o, g) for o in own)
                and all(e in guards or not near(e, g) for e in enemy) for g in guards):
            return True
    return False


def draws_of(games, engine):
    """ENGINE's drawn games, each with its seat (0 = p1), its atom lead on
    the final board, and the rule that drew the game."""
    for g in games:
        if g['result'] != 'draw' or engine not in (g['p1'], g['p2']):
            continue
        final = g['final'].split()
        seat = 0 if g['p1'] == engine else 1
        lead = final[0].count('w') - final[0].count('b')
        rule = '100 moves' if final[-1] == '100' else 'repetition'
        yield g, seat, (lead if seat == 0 else -lead), rule


def solve_draws(path, engine, min_lead, solver):
    settings, games = read_record(path)
    tally = collections.Counter()
    for g, seat, lead, rule in draws_of(games, engine):
        if rule != '100 moves' or lead < min_lead:
            continue
        # The counter reached 100 at the end, so the last removal came
        # 100 plies before it.
        moves = game_moves(g)
        value = value_at(solver, settings, moves[:len(moves) - 100])
        verdict = ('not settled' if value is None else 'a draw' if value == 'draw'
                   else f'won by {engine}' if value == ('p1', 'p2')[seat] else 'won by the other')
        tally[verdict] += 1
        print(f"game {g['game']}: lead {lead:+d}, {sum(map(g['final'].split()[0].count, 'wb'))} atoms "
              f"at the end: {verdict}", flush=True)
    print(f"{path}: {sum(tally.values())} draws by the 100-move rule with {engine} "
          f"{min_lead}+ atoms up, solved {solver.time} s each at the last removal: "
          + (', '.join(f'{n} {v}' for v, n in sorted(tally.items())) or 'none'))


if __name__ == '__main__':
    main(sys.argv[1:])
