"""A heistcord bot logged into the fake Discord with its drawing worker frozen
(SIGSTOP), for the fault benchmark (``python -m tools.bench faults``)."""
from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import signal
import tempfile
import time

import rendering
from bot.app import HeistBot
from bot.config import Config
from cogs import customid
from tests.fakediscord import FakeDiscord
from tests.fakediscord.fixtures import start_client, stop_client

GUILD, CHANNEL = 8001, 8002
PLAYERS = (8101, 8102, 8103)
MEMBER_PERMS = (1 << 10) | (1 << 11) | (1 << 31) | (1 << 5)


class _Errors(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)



async def table_of(bot, fake):
    """The table opened in CHANNEL: in the channel, or in the thread it moved into."""
    game = await bot.tables.in_channel(CHANNEL)
    for thread in fake.threads(CHANNEL):
        game = game or await bot.tables.in_channel(thread.id)
    return game

async def _keep_frozen(stop: asyncio.Event) -> None:
    """SIGSTOP every drawing worker, including the replacements, until ``stop``."""
    while not stop.is_set():
        for process in list(getattr(rendering._executor, "processes", ())):
            with contextlib.suppress(Exception):
                os.kill(process.pid, signal.SIGSTOP)
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(0.02):
                await stop.wait()


async def frozen_worker_run(clicks: int, timeout: float = 1.0) -> tuple[int, int, int, float]:
    """Players of a Tower game click moves and "Show my hand" while every drawing
    freezes. Returns (interactions unanswered within Discord's deadline, boards not
    posted, error records logged, seconds)."""
    started = time.perf_counter()
    old_timeout = rendering.RENDER_TIMEOUT
    rendering.RENDER_TIMEOUT = timeout
    errors = _Errors()
    for name in ("discord", "heistcord"):
        logging.getLogger(name).addHandler(errors)
    fake = FakeDiscord()
    await fake.start()
    fake.install()
    stop = asyncio.Event()
    freezer = None
    bot = None
    try:
        fake.add_guild(GUILD, name="Bench", owner_id=PLAYERS[0])
        fake.add_channel(GUILD, CHANNEL, "heists")
        for uid in PLAYERS:
            fake.add_user(uid, f"P{uid}")
            fake.add_member(GUILD, uid, permissions=MEMBER_PERMS)
        with tempfile.TemporaryDirectory() as tmp:
            bot = HeistBot(Config(token="fake-token", db_path=os.path.join(tmp, "draw.db"), dev_guild_id=GUILD))
            await start_client(bot, fake)
            await rendering.render_async("no-such-game", "board", {})  # the worker is up
            freezer = asyncio.create_task(_keep_frozen(stop))
            records = []
            rec = await fake.slash(PLAYERS[0], CHANNEL, "game new", {"game": "tower"})
            records.append(rec)
            await rec.wait_done(timeout=10)
            lobby = rec.message
            for uid in PLAYERS[1:]:
                records.append(await fake.click(uid, lobby, fake.find_component(lobby, label="Join")["custom_id"]))
            records.append(await fake.click(PLAYERS[0], lobby, fake.find_component(lobby, label="Start")["custom_id"]))
            await bot.idle(60)
            moves = 0
            for n in range(clicks):
                game = await table_of(bot, fake)
                if game is None or game.status != "running":
                    break
                boards = [m for m in fake.public_messages(CHANNEL) if fake.find_components(m, type=2)]
                board = boards[-1]
                engine = bot.tables.engine(game)
                seat = engine.to_act(game.state)[0]
                user = game.seats[seat]["user_id"]
                if n % 2:
                    records.append(await fake.click(PLAYERS[n % 3], board,
                                                    fake.find_component(board, label="Show my hand")["custom_id"]))
                else:
                    panel = await fake.click(user, board, fake.find_component(board, label="Play")["custom_id"])
                    records.append(panel)
                    await panel.response(timeout=10)
                    button = customid.encode("act", game.id, game.version, 0)
                    buttons = [c for c in fake.find_components(panel.message, type=2) if c.get("custom_id") == button]
                    if buttons:
                        records.append(await fake.click(user, panel.message, button))
                    else:
                        select = fake.find_components(panel.message, type=3)[0]
                        records.append(await fake.select(user, panel.message, select["custom_id"], ["0"]))
                await bot.idle(60)
                after = await table_of(bot, fake)
                moves += after is not None and after.version != game.version
            boards_posted = sum(1 for m in fake.public_messages(CHANNEL)
                                if any(customid.kind_of(c.get("custom_id", "")) == "play" for c in fake.find_components(m, type=2)))
            await asyncio.sleep(0.1)
            unanswered = sum(1 for r in records if r.callback is None) + len(fake.expired)
            stop.set()
            await freezer
            await stop_client(bot)
            bot = None
            return unanswered, max(0, moves + 1 - boards_posted), len(errors.records), time.perf_counter() - started
    finally:
        stop.set()
        if freezer is not None:
            await freezer
        if bot is not None:
            await stop_client(bot)
        rendering.shutdown()
        rendering.RENDER_TIMEOUT = old_timeout
        for name in ("discord", "heistcord"):
            logging.getLogger(name).removeHandler(errors)
        fake.uninstall()
        await fake.stop()
