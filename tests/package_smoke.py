"""Run by ``tests/test_package.py`` with the python of a fresh venv that has only the
built wheel installed, from a temporary working directory (never the checkout):

    python -I package_smoke.py VENV CHECKOUT GAME [GAME ...]

It checks the code and the data come from the venv, imports the bot and every cog,
then plays one seeded bot game of each title to the end, drawing every kind of
picture the game has (board, each seat's private view, the events' extra pictures,
the final scoreboard). Prints one line per game; any failure is a traceback.
"""
from __future__ import annotations

import importlib
import json
import random
import sys
from pathlib import Path

PNG = b"\x89PNG\r\n\x1a\n"


def inside(path: str | Path, folder: Path) -> bool:
    return Path(path).resolve().is_relative_to(folder.resolve())


def main() -> int:
    venv, checkout, games = Path(sys.argv[1]), Path(sys.argv[2]), sorted(sys.argv[3:])
    import bot
    import cogs
    import rendering
    from bot.app import create_bot, discover_cogs
    from bot.config import Config
    from bot.games import registry
    from rendering import render

    games_found = sorted(registry())  # imports every game, which loads its data
    import bot.paths

    for where in (bot.__file__, cogs.__file__, rendering.__file__, bot.paths.DATA_DIR):
        assert inside(where, venv) and not inside(where, checkout), f"{where} is not the installed copy"
    from rendering.common import font

    for bold in (False, True):
        for condensed in (False, True):  # Pillow would quietly fall back to a system font of the same name
            path = font(20, bold, condensed).path
            assert inside(path, venv), f"font {path} is not the installed copy"
    for name in discover_cogs():
        importlib.import_module(name)
    create_bot(Config(db_path=str(Path("smoke.sqlite3").resolve())))

    assert games_found == games, f"installed games {games_found}, checkout has {games}"
    for key, engine in sorted(registry().items()):
        players = min(max(engine.meta.min_players, 3), engine.meta.max_players)
        state = engine.setup([f"P{i + 1}" for i in range(players)], engine.meta.resolve_options({}), 7)
        chooser = random.Random(7)
        pictures = {"board": render(key, "board", engine.view(state, None))}
        moves = 0
        while not engine.is_terminal(state):
            assert moves < 20_000, f"{key}: no end after {moves} moves"
            seat = engine.to_act(state)[0]
            for event in engine.apply(state, seat, engine.bot_action(state, seat, chooser)):
                kind = event.get("image")
                if kind and "to" not in event and kind not in pictures:
                    pictures[kind] = render(key, kind, engine.view(state, None))
            moves += 1
        json.loads(json.dumps(state))
        public = engine.view(state, None)
        pictures["board (end)"] = render(key, "board", public)
        for seat in range(players):
            private = render(key, "private", engine.view(state, seat))
            if private is not None:
                pictures[f"private {seat}"] = private
        pictures["final"] = render(key, "final", public, engine.scores(state))
        for kind, png in pictures.items():
            assert png is not None and png.startswith(PNG), f"{key}: no {kind} picture"
        print(f"{key}: {players} players, {moves} moves, pictures: {', '.join(sorted(pictures))}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
