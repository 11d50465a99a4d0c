"""A small driver for a quintet (or any UGI) engine process, shared by the
bench scripts: send lines, read lines until one matches, with timing."""

import subprocess
import sys
import time


class Engine:
    def __init__(self, binary, *args, stderr=subprocess.DEVNULL, env=None):
        self.proc = subprocess.Popen(
            [binary, *args],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=stderr,
            text=True,
            bufsize=1,
            env=env,
        )

    def send(self, line):
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def until(self, prefix):
        """Lines up to and including the first that starts with prefix."""
        lines = []
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError("engine closed its output")
            line = line.rstrip("\n")
            lines.append(line)
            if line.startswith(prefix):
                return lines

    def ready(self):
        self.send("isready")
        self.until("readyok")

    def setoptions(self, **options):
        for name, value in options.items():
            self.send(f"setoption name {name} value {value}")

    def ask(self, query):
        self.send(f"query {query}")
        return self.until("response ")[-1][len("response "):]

    def timed_go(self, args):
        """Sends `go args`; the seconds until `bestmove`, and the lines."""
        start = time.perf_counter()
        self.send(f"go {args}")
        lines = self.until("bestmove")
        return time.perf_counter() - start, lines

    def peak_rss_mib(self):
        with open(f"/proc/{self.proc.pid}/status") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
        return None

    def quit(self):
        try:
            self.send("quit")
            self.proc.wait(timeout=30)
        except Exception:
            self.proc.kill()


def start_ready(binary, flags, options=()):
    """An engine process started with `flags`, past `ugi`, with the
    (name, value) `options` set and `readyok` seen. A binary that cannot
    be started ends the script with a message."""
    try:
        engine = Engine(binary, *flags)
    except OSError as e:
        sys.exit(f"{binary}: {e.strerror} (build it: cargo build --release)")
    engine.send("ugi")
    engine.until("ugiok")
    for name, value in options:
        engine.setoptions(**{name: value})
    engine.ready()
    return engine


def game_args(args):
    """The engine's game flags from parsed `--game --size [--variant]`."""
    out = ["--game", args.game, "--size", str(args.size)]
    if args.variant:
        out += ["--variant", args.variant]
    return out


def random_moves(engine, rng, plies):
    """Up to `plies` uniformly random legal moves from the start (fewer
    when the game ends first); the engine is left at that position."""
    moves = []
    engine.send("position startpos")
    for _ in range(plies):
        legal = engine.ask("moves").split()
        if legal == ["none"]:
            break
        moves.append(rng.choice(legal))
        engine.send("position startpos moves " + " ".join(moves))
    return moves


def last_info(lines):
    infos = [l for l in lines if l.startswith("info depth")]
    return infos[-1] if infos else ""


def field(info, name):
    words = info.split()
    return words[words.index(name) + 1] if name in words else None


GAMES = {
    "hadron": ["hadron", 7],
    "atoms": ["atoms", 8],
    "tritium": ["tritium", 5],
    "ihex": ["ihex", 6],
    "nadraz": ["nadraz", 10],
}
