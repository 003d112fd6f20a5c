"""Shared fixtures: the fake Discord server, and a heistcord bot logged into it."""
from __future__ import annotations

from dataclasses import dataclass, field

import pytest
import pytest_asyncio

# The fake's fixtures module is a plugin (below) that this file also imports from: rewrite its asserts as a plugin's.
pytest.register_assert_rewrite("tests.fakediscord.fixtures")

from bot.app import HeistBot
from bot.config import Config
from bot.games import register
from tests.dummy_game import ENGINE as DUMMY
from tests.fakediscord import DiscordErrorCollector, FakeDiscord
from tests.fakediscord.fixtures import start_client, stop_client

# Fixtures every test may ask for: the fake Discord (``fake_discord``, ``discord_errors``) and a real PostgreSQL
# server (``pg_server``, started when a test needs it).
pytest_plugins = ("tests.fakediscord.fixtures", "tests.pg")

GUILD = 5000
CHANNEL = 5001
OTHER_CHANNEL = 5002
ADMIN = 100
USERS = {ADMIN: "Ann", 101: "Bob", 102: "Cid", 103: "Dee", 104: "Eve", 105: "Fay", 106: "Gus"}
OUTSIDER = 199
MANAGE_GUILD = 1 << 5
MEMBER_PERMS = (1 << 10) | (1 << 11) | (1 << 31)  # view channel, send messages, use application commands


class Clock:
    def __init__(self, now: float = 2_000_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


@dataclass
class Harness:
    fake: FakeDiscord
    db_path: str
    clock: Clock
    bots: list[HeistBot] = field(default_factory=list)
    seed: int = 1234
    database_url: str | None = None  # PostgreSQL instead of the SQLite file at db_path

    @property
    def bot(self) -> HeistBot:
        return self.bots[-1]

    async def launch(self, members_intent: bool = False) -> HeistBot:
        seeds = iter(range(self.seed + 100 * len(self.bots), self.seed + 100 * len(self.bots) + 10_000))
        bot = HeistBot(Config(token="fake-token", db_path=self.db_path, dev_guild_id=GUILD,
                              members_intent=members_intent, database_url=self.database_url),
                       seed_source=lambda: next(seeds), clock=self.clock)
        await start_client(bot, self.fake)
        self.bots.append(bot)
        return bot

    async def restart(self, members_intent: bool = False) -> HeistBot:
        await stop_client(self.bot)
        return await self.launch(members_intent)

    async def table(self, channel: int = CHANNEL):
        """The open or running table that was opened in ``channel``: in the channel itself,
        or (once started) in the thread it moved into."""
        game = await self.bot.tables.in_channel(channel)
        for thread in reversed(self.fake.threads(channel)):
            if game is not None:
                break
            game = await self.bot.tables.in_channel(thread.id)
        return game

    async def where(self, channel: int = CHANNEL) -> int:
        """Where players type ``/game`` commands for the table opened in ``channel``."""
        game = await self.table(channel)
        return game.channel_id if game is not None else channel

    async def slash(self, user: int, command: str, options: dict | None = None, channel: int | None = None):
        if channel is None:
            channel = CHANNEL if command == "game new" else await self.where()
        rec = await self.fake.slash(user, channel, command, options or {})
        await rec.wait_done(timeout=10)
        return rec

    async def click(self, user: int, message, custom_id: str):
        rec = await self.fake.click(user, message, custom_id)
        await rec.wait_done(timeout=10)  # a deferred ("thinking") reply filled in too
        return rec

    async def settle(self, dms: bool = False) -> None:
        """Every interaction handled (boards drawn and posted, DMs sent), then quiet. A hand DM that catches up
        at leisure (cogs.dms) is sent now only with ``dms``: a test that reads every DM says so."""
        await self.bot.idle(dms=dms)
        await self.fake.settle(quiet=0.05)


@pytest.fixture(autouse=True, scope="session")
def dummy_game():
    """The small Coin Pile game used by the platform tests."""
    register(DUMMY)


@pytest.fixture
def errors():
    collector = DiscordErrorCollector(logger_names=("discord", "heistcord")).install()
    try:
        yield collector
    finally:
        collector.uninstall()
    collector.assert_clean()


def populate(fake: FakeDiscord) -> None:
    """The test server: a guild with two channels, its members (Ann manages it) and an outsider."""
    fake.add_guild(GUILD, name="Heist Club", owner_id=ADMIN)
    fake.add_channel(GUILD, CHANNEL, "heists")
    fake.add_channel(GUILD, OTHER_CHANNEL, "general")
    for uid, name in USERS.items():
        fake.add_user(uid, name)
        fake.add_member(GUILD, uid, permissions=(MEMBER_PERMS | MANAGE_GUILD) if uid == ADMIN else MEMBER_PERMS)
    fake.add_user(OUTSIDER, "Oz")
    fake.add_member(GUILD, OUTSIDER, permissions=MEMBER_PERMS)


@pytest_asyncio.fixture
async def harness(fake_discord: FakeDiscord, tmp_path, errors):
    fake = fake_discord
    populate(fake)
    h = Harness(fake=fake, db_path=str(tmp_path / "heistcord.db"), clock=Clock())
    await h.launch()
    yield h
    for bot in h.bots:
        if not bot.is_closed():
            await stop_client(bot)
