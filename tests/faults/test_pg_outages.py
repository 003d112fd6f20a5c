"""PostgreSQL outages with the real bot on the fake Discord (issue 27, items 1-3): the server stopped, frozen
(SIGSTOP) or slow to commit. The bot's background loops survive and catch up, every interaction is answered within
Discord's 3 seconds with a true sentence, and what players were told matches what the database holds.

These tests stop and freeze a PostgreSQL server of their own (the session's one is shared with other tests)."""
from __future__ import annotations

import asyncio
import logging

import pytest
import pytest_asyncio

from tests.conftest import ADMIN, CHANNEL, Clock, Harness, populate
from tests.e2e_helpers import open_and_start
from tests.fakediscord.fixtures import stop_client
from tests.pg import PgServer, PgUnavailableError

BOB = 101


@pytest.fixture(scope="module")
def outage_pg():
    """A PostgreSQL server these tests may stop and freeze."""
    try:
        server = PgServer().start()
    except PgUnavailableError as exc:
        pytest.fail(f"PostgreSQL is needed by these tests and could not be started: {exc}", pytrace=False)
    yield server
    server.stop()


@pytest_asyncio.fixture
async def pg_harness(fake_discord, outage_pg, tmp_path, errors):
    """The bot on PostgreSQL, logged into the fake Discord. The server is running again after each test."""
    populate(fake_discord)
    h = Harness(fake=fake_discord, db_path=str(tmp_path / "unused.db"), clock=Clock(),
                database_url=await outage_pg.fresh_database())
    await h.launch()
    try:
        yield h
    finally:
        if outage_pg.proc is None:
            outage_pg.resume()
        outage_pg.thaw()
        for bot in h.bots:
            if not bot.is_closed():
                await stop_client(bot)


class LogWatch(logging.Handler):
    """Records of the bot's loggers, with a way to wait for one."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.records: list[logging.LogRecord] = []
        self.changed = asyncio.Event()

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)
        self.changed.set()

    async def wait_for(self, predicate, timeout: float = 10.0) -> logging.LogRecord:
        async with asyncio.timeout(timeout):
            while True:
                for record in self.records:
                    if predicate(record):
                        return record
                self.changed.clear()
                await self.changed.wait()


@pytest.fixture
def logs():
    watch = LogWatch()
    logger = logging.getLogger("heistcord")
    logger.addHandler(watch)
    try:
        yield watch
    finally:
        logger.removeHandler(watch)


def ran_out(fake) -> int:
    return sum("Time ran out" in m.content for m in fake.public_messages(CHANNEL))


# --- 1. the timers survive an outage and catch up -------------------------------------------------------------
async def test_an_outage_at_a_timer_wake_up_leaves_the_timers_running(pg_harness, outage_pg, logs):
    h, fake = pg_harness, pg_harness.fake
    game = await open_and_start(h, "dummy", [ADMIN, BOB], options="pile=30, turn_minutes=1")
    outage_pg.halt()
    h.clock.now += 120  # the deadline passes while the database is down
    h.bot.wake_timers()
    await logs.wait_for(lambda r: r.name == "heistcord" and "timer" in r.getMessage() and r.levelno >= logging.WARNING)
    assert ran_out(fake) == 0
    outage_pg.resume()
    loop = asyncio.get_running_loop()
    back = loop.time()
    await fake.wait_for(lambda: ran_out(fake) == 1, timeout=30)  # the overdue deadline, within 30 s of recovery
    assert loop.time() - back <= 30
    assert not h.bot._timer_task.done()
    await h.settle()
    assert (await h.bot.storage.get_game(game.id)).version == 1  # the bot played the absent player's move
