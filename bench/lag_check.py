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

import subprocess
import sys
import time


def start(binary, game, size):
    try:
        engine = subprocess.Popen([binary, "--game", game, "--size", size], stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, text=True, bufsize=1)
    except OSError as e:
        sys.exit(f"{binary}: {e.strerror} (build it: cargo build --release)")
    send(engine, "ugi")
    until(engine, "ugiok")
    send(engine, "uginewgame")
    return engine


def send(engine, line):
    engine.stdin.write(line + "\n")
    engine.stdin.flush()


def until(engine, prefix):
    for line in engine.stdout:
        if line.startswith(prefix):
            return line.split()
    sys.exit(f"the engine stopped before answering '{prefix}'")


def main():
    if len(sys.argv) < 3 or not sys.argv[2].isdigit():
        sys.exit(__doc__.strip())
    binary, lag = sys.argv[1], int(sys.argv[2])
    game, size, count = (sys.argv[3:] + ["ihex", "6", "10"][len(sys.argv) - 3:])[:3]
    me, other = start(binary, game, size), start(binary, game, size)
    clock, moves, took = 10_000, [], []
    for _ in range(int(count)):
        send(me, "position startpos" + (" moves " + " ".join(moves) if moves else ""))
        send(me, f"go wtime {clock} btime {clock} winc 100 binc 100")
        began = time.monotonic()
        best = until(me, "bestmove")[1]
        ms = round((time.monotonic() - began) * 1000)
        if best == "0000":
            break
        clock += 100 - ms - lag
        took.append(ms)
        moves.append(best)
        send(other, "position startpos moves " + " ".join(moves))
        send(other, "go movetime 20")
        reply = until(other, "bestmove")[1]
        if reply == "0000":
            break
        moves.append(reply)
    print(f"{game} {size}, lag {lag} ms: ms per move {took}, clock left {clock} ms")
    for engine in (me, other):
        send(engine, "quit")


if __name__ == "__main__":
    main()
