#!/usr/bin/env python3
"""How an engine spreads a clock when the manager's clock charges each move
LAG ms more than the engine took: plays MOVES moves of a game on a 10 s +
100 ms clock against a second copy of the engine (20 ms a move), keeping
the clock as a manager would, and prints the time each move took.

With LAG 0 the moves should take their share steadily. Before session 37
the lag meter booked an alpha-beta iteration that ran past its plan as
lag, and the move after it took almost nothing (Ihex: 678 ms, then 0, 89,
44 ms). With LAG 200 the shares should shrink by about that much.

Usage: bench/lag_check.py BIN LAG [GAME [SIZE [MOVES]]]   (default ihex 6 10)
"""

import os
import sys

sys.path.insert(0, os.path.dirname(__file__))
from engine import Engine  # noqa: E402


def start(binary, game, size):
    try:
        engine = Engine(binary, "--game", game, "--size", size)
    except OSError as e:
        sys.exit(f"{binary}: {e.strerror} (build it: cargo build --release)")
    engine.send("ugi")
    engine.until("ugiok")
    engine.send("uginewgame")
    return engine


def best_move(engine, go):
    """The seconds until `bestmove` after `go GO`, and the move."""
    seconds, lines = engine.timed_go(go)
    return seconds, lines[-1].split()[1]


def main():
    if len(sys.argv) < 3 or not sys.argv[2].isdigit():
        sys.exit(__doc__.strip())
    binary, lag = sys.argv[1], int(sys.argv[2])
    game, size, count = (sys.argv[3:] + ["ihex", "6", "10"][len(sys.argv) - 3:])[:3]
    me, other = start(binary, game, size), start(binary, game, size)
    clock, moves, took = 10_000, [], []
    for _ in range(int(count)):
        me.send("position startpos" + (" moves " + " ".join(moves) if moves else ""))
        seconds, best = best_move(me, f"wtime {clock} btime {clock} winc 100 binc 100")
        if best == "0000":
            break
        ms = round(seconds * 1000)
        clock += 100 - ms - lag
        took.append(ms)
        moves.append(best)
        other.send("position startpos moves " + " ".join(moves))
        reply = best_move(other, "movetime 20")[1]
        if reply == "0000":
            break
        moves.append(reply)
    print(f"{game} {size}, lag {lag} ms: ms per move {took}, clock left {clock} ms")
    me.quit()
    other.quit()


if __name__ == "__main__":
    main()
