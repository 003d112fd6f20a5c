"""Run by ``tests/test_package.py`` with the python of a fresh venv that has only the
built wheel installed, from a temporary working directory (never the checkout):

    python -I package_smoke.py VENV CHECKOUT GAME [GAME ...]

It checks the code, the data and the rules docs come from the venv, imports the bot and every cog,
then plays one seeded bot game of each title to the end, drawing every kind of
picture the game has (board, each seat's private view, the events' extra pictures,
the final scoreboard). Prints one line per game; any failure is a traceback.

Then it runs the installed bot itself against the fake Discord (a copy of
``tests/fakediscord`` beside this script, not the checkout): a Tower table with a
bot seat is opened, started and played by clicking, boards drawn by the bot's
drawing process, the Tower's full rules sent as a file from ``/game rules``, and
prints one ``discord:`` line.
"""
from __future__ import annotations

import asyncio
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
    from bot.app import discover_cogs
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
    from bot.paths import rules_doc

    for key in games:  # the docs the bot attaches for "Full rules"
        doc = rules_doc(key)
        assert doc is not None and inside(doc, venv) and not inside(doc, checkout), f"{key}: rules doc at {doc}"

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
    asyncio.run(play_through_fake_discord())
    return 0


async def play_through_fake_discord() -> None:
    sys.path.insert(0, str(Path(__file__).resolve().parent))  # the fake's copy beside this script
    from fakediscord import FakeDiscord

    from bot.app import create_bot
    from bot.config import Config
    from cogs import customid

    guild, channel, host = 4000, 4001, 100
    fake = FakeDiscord()
    fake.add_guild(guild, name="Smoke", owner_id=host)
    fake.add_channel(guild, channel, "heists")
    fake.add_user(host, "Ann")
    fake.add_member(guild, host, permissions=(1 << 10) | (1 << 11) | (1 << 31) | (1 << 5))
    await fake.start()
    fake.install()
    bot = create_bot(Config(token="fake-token", db_path=str(Path("smoke.sqlite3").resolve()), dev_guild_id=guild))
    bot._connection.guild_ready_timeout = 0.05
    task = asyncio.create_task(bot.start("fake-token"))
    try:
        async with asyncio.timeout(30):
            while not (bot.is_ready() and bot.get_guild(guild)):
                assert not task.done(), f"the bot stopped: {task.exception()!r}"
                await asyncio.sleep(0.02)

        async def settle() -> None:
            await bot.idle()
            await fake.settle(quiet=0.1)

        async def click(message, label: str | None = None, custom_id: str | None = None):
            custom_id = custom_id or fake.find_component(message, label=label)["custom_id"]
            rec = await fake.click(host, message, custom_id)
            await rec.response(timeout=20)
            await settle()
            return rec

        rec = await fake.slash(host, channel, "game new", {"game": "tower"})
        await rec.wait_done(timeout=20)
        lobby = rec.message
        await click(lobby, "Add bot")
        await click(lobby, "Start")
        moves = 0
        for _ in range(200):
            boards = [m for m in fake.public_messages(channel)
                      if any(customid.kind_of(c.get("custom_id", "")) == "play" for c in fake.find_components(m, type=2))]
            if not boards or moves >= 6:
                break
            panel = await click(boards[-1], "Play")
            if panel.message is None:
                continue  # not Ann's turn: the bot seat is moving
            buttons = [c for c in fake.find_components(panel.message, type=2) if customid.kind_of(c["custom_id"]) == "act"]
            selects = [c for c in fake.find_components(panel.message, type=3) if customid.kind_of(c["custom_id"]) == "sel"]
            if buttons:
                await click(panel.message, custom_id=buttons[0]["custom_id"])
            elif selects:
                rec = await fake.select(host, panel.message, selects[0]["custom_id"], [selects[0]["options"][0]["value"]])
                await rec.response(timeout=20)
                await settle()
            else:
                continue
            moves += 1
        rec = await fake.slash(host, channel, "game rules", {"game": "tower"})
        await rec.wait_done(timeout=20)
        full = await click(rec.message, "Full rules")
        (name, doc), = full.message.files
        assert name == "tower-rules.md" and doc.startswith(b"# "), (name, doc[:40])
        pictures = [f for m in fake.public_messages(channel) for f in m.files]
        assert moves >= 1, "no move could be made through Discord"
        assert pictures and all(data.startswith(PNG) for _, data in pictures), "no board picture was posted"
        assert fake.unhandled == [], fake.unhandled
        print(f"discord: tower with a bot seat, {moves} moves by clicking, {len(pictures)} pictures posted,"
              f" its rules doc sent ({len(doc)} bytes)")
    finally:
        await bot.close()
        await asyncio.wait([task], timeout=10)
        fake.uninstall()
        await fake.stop()


if __name__ == "__main__":
    sys.exit(main())
