"""Reading `quintet match --record` files: the settings line and one dict
of fields per game (quotes stripped), shared by the bench scripts."""

import re
import sys

FIELD = re.compile(r'(\w+)=("[^"]*"|\S+)')


def fields(line):
    return {k: v.strip('"') for k, v in FIELD.findall(line)}


def read_record(path):
    settings, games = None, []
    try:
        with open(path) as f:
            for line in f:
                if line.startswith("# settings:"):
                    settings = fields(line)
                elif line.startswith("game="):
                    games.append(fields(line))
    except OSError as e:
        sys.exit(f"{path}: {e.strerror}")
    if settings is None:
        sys.exit(f"{path}: no '# settings:' line (not a quintet match record?)")
    return settings, games


def game_flags(settings):
    """The `quintet` flags for a record's game, from its settings line."""
    return ["--game", settings["game"], "--size", settings["size"],
            "--variant", settings.get("variant", "standard")]


def mover(ply):
    """The seat to move after `ply` moves (p1 makes the even plies)."""
    return "p1" if ply % 2 == 0 else "p2"


def opening_moves(game):
    words = game.get("opening", "").split()
    if words[:1] != ["moves"]:
        sys.exit(f"game {game.get('game')}: only 'moves ...' openings are supported")
    return words[1:]


def game_moves(game):
    """Every move of the game from the start: the opening's, then the
    played ones."""
    return opening_moves(game) + game.get("moves", "").split()
