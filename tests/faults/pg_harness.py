"""The PostgreSQL part of the fault benchmark (``python -m tools.bench faults --pg``): the real bot, in this process,
on the fake Discord and a PostgreSQL server of its own, which is stopped, frozen and made slow to commit while
players click. It counts what a player would lose: interactions not answered within Discord's 3 s, "nothing
changed" said of a move that was stored, a tick for a move that was not, timer loops dead, overdue deadlines not
fired soon after the database came back, and boards of stored moves never posted."""
from __future__ import annotations

import asyncio
import logging
import os
import random
import tempfile
import time
from dataclasses import dataclass, field
from typing import Any, Awaitable, Callable

import asyncpg

from bot.app import HeistBot
from bot.config import Config
from bot.storage_pg import PgStorage
from cogs import customid
from tests.fakediscord import FakeDiscord
from tests.fakediscord.fixtures import start_client, stop_client
from tests.pg import PgServer

GUILD = 8501
PLAYERS = (8601, 8602)
MEMBER_PERMS = (1 << 10) | (1 << 11) | (1 << 31)
DEADLINE_GRACE = 30.0  # an overdue deadline must fire within this long of the database coming back


@dataclass
class Tally:
    """What one fault cost the players."""
    name: str
    interactions: int = 0
    unanswered: int = 0  # no answer (nor deferral) within Discord's 3 s
    moves: int = 0  # move clicks
    told: dict[str, int] = field(default_factory=lambda: {"saved": 0, "not saved": 0, "can't tell": 0, "other": 0})
    not_saved_but_saved: int = 0  # "nothing changed" for a move the database holds
    saved_but_lost: int = 0  # a tick for a move the database does not hold
    boards_missing: int = 0  # stored moves whose board was never posted
    deadlines: int = 0  # overdue when the database came back
    fired: int = 0  # of those, fired within DEADLINE_GRACE
    slowest_fire: float = 0.0
    timer_loops_dead: int = 0
    seconds: float = 0.0

    def line(self) -> str:
        told = ", ".join(f"{n} {what}" for what, n in self.told.items() if n)
        timers = (f"; overdue deadlines fired after recovery {self.fired} of {self.deadlines} (slowest"
                  f" {self.slowest_fire:.1f} s)" if self.deadlines else "")
        return (f"{self.interactions} interactions ({self.moves} moves: told {told or 'nothing'}):"
                f" unanswered within 3 s {self.unanswered}; \"not saved\" answers for moves that were saved"
                f" {self.not_saved_but_saved}; acknowledged moves lost {self.saved_but_lost}; boards of stored moves"
                f" missing {self.boards_missing}; timer loops dead {self.timer_loops_dead}{timers}"
                f" ({self.seconds:.0f} s)")


class Clock:
    def __init__(self) -> None:
        self.now = time.time()

    def __call__(self) -> float:
        return self.now


def told_kind(text: str) -> str:
    if "✅" in text:
        return "saved"
    if "nothing changed" in text:
        return "not saved"
    if "can't tell" in text:
        return "can't tell"
    return "other"


def seen(rec: Any) -> str:
    """What the player was shown: the reply (or the message it edited) and any follow-ups."""
    data = (rec.callback or {}).get("data") or {}
    text = data.get("content") or ""
    if rec.message is not None:
        text += "\n" + (rec.message.content or "")
    return text + "".join("\n" + (m.content or "") for m in rec.followups)


class PgFaultRun:
    """A bot on PostgreSQL with ``tables`` Tower tables (two players, a one-minute turn timer) in a fake Discord."""

    def __init__(self, server: PgServer, tables: int, seed: int = 1) -> None:
        self.server, self.tables, self.rng = server, tables, random.Random(seed)
        self.channels = [8510 + n for n in range(tables)]
        self.clock = Clock()
        self.fake = FakeDiscord()
        self.bot: HeistBot | None = None
        self.look: PgStorage | None = None  # the run's own view of the database (not the bot's)
        self.url = ""

    async def __aenter__(self) -> "PgFaultRun":
        await self.fake.start()
        self.fake.install()
        self.fake.add_guild(GUILD, name="Outages", owner_id=PLAYERS[0])
        for channel in self.channels:
            self.fake.add_channel(GUILD, channel, f"table-{channel}")
        for uid in PLAYERS:
            self.fake.add_user(uid, f"P{uid}")
            self.fake.add_member(GUILD, uid, permissions=MEMBER_PERMS)
        self.url = await self.server.fresh_database()
        self.tmp = tempfile.TemporaryDirectory()
        self.bot = HeistBot(Config(token="fake-token", db_path=os.path.join(self.tmp.name, "unused.db"),
                                   dev_guild_id=GUILD, database_url=self.url), clock=self.clock)
        await start_client(self.bot, self.fake)
        self.look = await PgStorage(self.url).open()
        for channel in self.channels:
            rec = await self.fake.slash(PLAYERS[0], channel, "game new", {"game": "tower", "options": "turn_minutes=1"})
            await rec.wait_done(timeout=20)
            lobby = rec.message
            for uid, label in ((PLAYERS[1], "Join"), (PLAYERS[0], "Start")):
                click = await self.fake.click(uid, lobby, self.fake.find_component(lobby, label=label)["custom_id"])
                await click.response(timeout=20)
            await self.bot.idle(60)
        await self.fake.settle(quiet=0.2, timeout=30)
        return self

    async def __aexit__(self, *exc: Any) -> None:
        if self.look is not None:
            await self.look.close()
        if self.bot is not None and not self.bot.is_closed():
            await stop_client(self.bot)
        self.fake.uninstall()
        await self.fake.stop()
        self.tmp.cleanup()

    # --- reading the table --------------------------------------------------------------------------------------------
    async def game(self, channel: int):
        assert self.bot is not None
        for where in [channel, *(t.id for t in self.fake.threads(channel))]:
            game = await self.look.active_game_in(where) if self.look else None
            if game is not None:
                return game
        return None

    def board(self, channel: int):
        boards = [m for m in self.fake.public_messages(channel)
                  if any(customid.kind_of(c.get("custom_id", "")) == "play" for c in self.fake.find_components(m, type=2))]
        return boards[-1] if boards else None

    def posts(self, channel_id: int) -> int:
        """Messages the bot posted or edited in a table's channel (its thread) so far."""
        return sum(1 for r in self.fake.requests_to_channel(channel_id)
                   if r["method"] in ("POST", "PATCH") and r["path"].startswith(f"channels/{channel_id}/messages"))

    async def open_panels(self) -> list[tuple[int, Any, Any, int]]:
        """The player to act at each table opens the move panel: (channel, game, panel message, user)."""
        panels = []
        for channel in self.channels:
            game = await self.game(channel)
            board = self.board(channel)
            if game is None or game.status != "running" or board is None:
                continue
            from bot.games import get_engine

            seat = get_engine(game.game_key).to_act(game.state)[0]
            user = game.seats[seat]["user_id"]
            rec = await self.fake.click(user, board, self.fake.find_component(board, label="Play")["custom_id"])
            await rec.response(timeout=20)
            if rec.message is not None and self.fake.find_components(rec.message):
                panels.append((channel, game, rec.message, user))
        return panels

    async def click_move(self, game: Any, panel: Any, user: int):
        button = customid.encode("act", game.id, game.version, 0)
        if any(c.get("custom_id") == button for c in self.fake.find_components(panel, type=2)):
            return await self.fake.click(user, panel, button)
        select = self.fake.find_components(panel, type=3)[0]
        return await self.fake.select(user, panel, select["custom_id"], [select["options"][0]["value"]])

    async def other_clicks(self, seconds: float, every: float = 0.3) -> list[Any]:
        """Players click Play or Show my hand on the boards for ``seconds``."""
        records = []
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            channel = self.rng.choice(self.channels)
            board = self.board(channel)
            if board is not None:
                label = self.rng.choice(["Play", "Show my hand"])
                records.append(await self.fake.click(self.rng.choice(PLAYERS), board,
                                                     self.fake.find_component(board, label=label)["custom_id"]))
            await asyncio.sleep(every)
        return records

    # --- one fault ----------------------------------------------------------------------------------------------------
    async def outage(self, name: str, start: Callable[[], Awaitable[None]], end: Callable[[], Awaitable[None]],
                     seconds: float, *, timers: bool) -> Tally:
        """Players click through a fault that lasts ``seconds``; then the database comes back. ``timers``: every
        table's turn deadline passes during the fault, and must fire soon after it ends."""
        assert self.bot is not None and self.look is not None
        tally = Tally(name)
        began = time.monotonic()
        panels = await self.open_panels()
        posted_before = {game.id: self.posts(game.channel_id) for _, game, _, _ in panels}
        moves = [(game, user, await self.click_move(game, panel, user)) for _, game, panel, user in panels]
        await asyncio.sleep(self.rng.uniform(0.0, 0.3))  # the fault lands anywhere in those moves' writes
        fault_at = time.monotonic()
        await start()
        if timers:
            self.clock.now += 120  # every table's one-minute deadline passes while the database is away
            self.bot.wake_timers()
        others = await self.other_clicks(seconds - (time.monotonic() - fault_at))
        await asyncio.sleep(3.5)  # (whatever was going to answer in time has)
        await end()
        back = time.monotonic()
        if timers:
            overdue = {g.id for g in await self.look.due_deadlines(self.clock.now)}
            tally.deadlines = len(overdue)
            fired_at: dict[int, float] = {}
            while overdue - set(fired_at) and time.monotonic() - back < DEADLINE_GRACE + 15:
                still = {g.id for g in await self.look.due_deadlines(self.clock.now)}
                for game_id in overdue - still - set(fired_at):
                    fired_at[game_id] = time.monotonic() - back
                await asyncio.sleep(0.2)
            tally.fired = sum(1 for t in fired_at.values() if t <= DEADLINE_GRACE)
            tally.slowest_fire = max(fired_at.values(), default=0.0)
        tally.timer_loops_dead = int(self.bot._timer_task is None or self.bot._timer_task.done())
        await self.bot.idle(60)
        await asyncio.sleep(1.0)
        await self.bot.idle(60)
        await self.fake.settle(quiet=0.2, timeout=60)
        for rec in [r for _, _, r in moves] + others:
            tally.interactions += 1
            tally.unanswered += rec.callback is None or rec in self.fake.expired
        for game, user, rec in moves:
            tally.moves += 1
            kind = told_kind(seen(rec))
            tally.told[kind] += 1
            stored = any(a["seq"] == game.version + 1 and a["user_id"] == user for a in await self.look.actions(game.id))
            tally.not_saved_but_saved += kind == "not saved" and stored
            tally.saved_but_lost += kind == "saved" and not stored
        for game, _, _ in moves:  # a table whose move was stored got a board (posted, or the living one edited)
            now = await self.look.get_game(game.id)
            if now is not None and now.version > game.version:
                tally.boards_missing += self.posts(game.channel_id) == posted_before[game.id]
        tally.seconds = time.monotonic() - began
        return tally

    async def slow_commits(self, on: bool) -> None:
        """Every commit waits for a synchronous standby that never comes (or no longer)."""
        conn = await asyncpg.connect(self.server.url())
        try:
            if on:
                await conn.execute("ALTER ROLE heistcord SET synchronous_commit = 'on'")
                await conn.execute("ALTER SYSTEM SET synchronous_standby_names = 'ghost_standby'")
                await conn.execute("SELECT pg_reload_conf()")
            else:
                await conn.execute("ALTER SYSTEM RESET synchronous_standby_names")
                await conn.execute("SELECT pg_reload_conf()")
                await conn.execute("ALTER ROLE heistcord RESET synchronous_commit")
        finally:
            await conn.close()
        assert self.bot is not None and self.bot.storage.pool is not None  # type: ignore[attr-defined]
        await self.bot.storage.pool.expire_connections()  # type: ignore[attr-defined]


async def run(server: PgServer, *, tables: int, stopped: float, frozen: float, slow: float) -> list[Tally]:
    """The three faults in turn, on one bot: the server stopped, frozen, slow to commit."""
    errors = _Errors()
    for name in ("discord", "heistcord"):
        logging.getLogger(name).addHandler(errors)
    try:
        async with PgFaultRun(server, tables) as run:
            # (on a thread: the bot's event loop runs on meanwhile, as it would in its own process)
            async def stop() -> None:
                await asyncio.to_thread(server.halt)

            async def start() -> None:
                server.resume()  # (not on a thread: the server dies with the thread that started it, PDEATHSIG)

            async def freeze() -> None:
                await asyncio.to_thread(server.freeze)

            async def thaw() -> None:
                await asyncio.to_thread(server.thaw)

            tallies = [await run.outage(f"server stopped {stopped:.0f} s", stop, start, stopped, timers=True),
                       await run.outage(f"server frozen {frozen:.0f} s", freeze, thaw, frozen, timers=True),
                       await run.outage("slow commits (a synchronous standby that never answers)",
                                        lambda: run.slow_commits(True), lambda: run.slow_commits(False), slow,
                                        timers=False)]
    finally:
        for name in ("discord", "heistcord"):
            logging.getLogger(name).removeHandler(errors)
    for tally in tallies:
        tally.name += f" [{errors.count} ERROR records logged in the run]" if tally is tallies[-1] else ""
    return tallies


class _Errors(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.count = 0

    def emit(self, record: logging.LogRecord) -> None:
        self.count += 1
