"""PostgreSQL outages with the real bot on the fake Discord (issue 27, items 1-3): the server stopped, frozen
(SIGSTOP) or slow to commit. The bot's background loops survive and catch up, every interaction is answered within
Discord's 3 seconds with a true sentence, and what players were told matches what the database holds.

These tests stop and freeze a PostgreSQL server of their own (the session's one is shared with other tests)."""
from __future__ import annotations

import asyncio
import copy
import logging

import asyncpg
import pytest
import pytest_asyncio

from bot.storage_pg import PgStorage
from cogs import customid
from tests.conftest import ADMIN, CHANNEL, OTHER_CHANNEL, Clock, Harness, populate
from tests.e2e_helpers import button_id, callback_text, latest_board, open_and_start, play_boards
from tests.fakediscord.fixtures import stop_client
from tests.pg import start_or_fail

BOB, CID = 101, 102


@pytest.fixture(scope="module")
def outage_pg():
    """A PostgreSQL server these tests may stop and freeze."""
    server = start_or_fail()
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


# --- 2. every interaction is answered within Discord's 3 s, truthfully --------------------------------------------
def seen(rec) -> str:
    """Everything the player was shown in answer: the reply (or the message it edited) and any follow-ups."""
    return callback_text(rec) + "".join("\n" + (m.content or "") for m in rec.followups)


async def answered(rec, timeout: float = 8.0) -> str:
    """The interaction's first answer came within Discord's 3 s (else the fake refuses it with 10062 and it never
    counts as answered); wait for whatever follows it, then return what the player saw."""
    await rec.response(timeout=3.5)
    if rec.response_type == 6:  # a deferred update: the answer is the edit or follow-up that comes after
        await rec._fake.wait_for(lambda: rec.edits or rec.followups, timeout)
    await rec._fake.wait_for(lambda: not (rec.original and rec.original.loading), timeout)
    return seen(rec)


async def a_table_and_a_lobby(h):
    """A running Coin Pile table (Ann and Bob) with Ann's move panel open, and a lobby in the other channel.
    (The table is a copy: the bot's cached row changes as the game goes on.)"""
    game = copy.deepcopy(await open_and_start(h, "dummy", [ADMIN, BOB], options="pile=30"))
    board = latest_board(h)
    panel = await h.click(ADMIN, board, button_id(h.fake, board, "Play"))
    lobby = await h.slash(BOB, "game new", {"game": "dummy"}, channel=OTHER_CHANNEL)
    return game, board, panel.message, lobby.message


async def every_kind_of_interaction(h, game, board, panel, lobby) -> dict[str, object]:
    """One of each: buttons on the board, the panel and the lobby; the commands that read or write a table."""
    fake = h.fake
    where = game.channel_id
    move = customid.encode("act", game.id, game.version, 0)
    return {
        "Play": await fake.click(BOB, board, button_id(fake, board, "Play")),
        "Show my hand": await fake.click(BOB, board, button_id(fake, board, "Show my hand")),
        "a move": await fake.click(ADMIN, panel, move),
        "Join": await fake.click(CID, lobby, button_id(fake, lobby, "Join")),
        "/game status": await fake.slash(ADMIN, where, "game status", {}),
        "/game play": await fake.slash(ADMIN, where, "game play", {}),
        "/game move": await fake.slash(ADMIN, where, "game move", {"move": f"{game.version}:0"}),
        "/game hand": await fake.slash(BOB, where, "game hand", {}),
        "/game new": await fake.slash(CID, CHANNEL, "game new", {"game": "dummy"}),
        "/stats": await fake.slash(BOB, CHANNEL, "stats", {}),
    }


async def test_with_the_database_stopped_every_interaction_is_told_so_within_three_seconds(pg_harness, outage_pg,
                                                                                           caplog):
    h, fake = pg_harness, pg_harness.fake
    game, board, panel, lobby = await a_table_and_a_lobby(h)
    lobby_game = await h.table(OTHER_CHANNEL)
    outage_pg.halt()
    with caplog.at_level(logging.WARNING):
        sent = await every_kind_of_interaction(h, game, board, panel, lobby)
        for name, rec in sent.items():
            text = await answered(rec)
            assert "database" in text and "nothing changed" in text, f"{name}: {text}"
        await asyncio.sleep(1.5)  # (asyncpg's pool tries to reconnect, and says so)
    assert fake.expired == []
    tracebacks = [f"{r.name}: {r.getMessage()}" for r in caplog.records if r.exc_info]
    assert tracebacks == [], tracebacks  # one line per failure, no traceback (there were ~200 in a short outage)
    outage_pg.resume()
    await h.settle()
    # What they were told is what the database holds: nothing changed.
    row = await h.bot.storage.get_game(game.id)
    assert (row.version, row.rev) == (game.version, game.rev)
    assert [s["user_id"] for s in (await h.bot.storage.get_game(lobby_game.id)).seats] == [BOB]
    assert await h.bot.storage.active_game_in(CHANNEL) is None or (await h.table()).id == game.id
    # And play goes on at once.
    rec = await fake.click(ADMIN, panel, customid.encode("act", game.id, game.version, 0))
    assert "✅" in await answered(rec)


async def test_with_the_database_frozen_clicks_are_answered_in_time_and_the_truth_is_kept(pg_harness, outage_pg):
    h, fake = pg_harness, pg_harness.fake
    game, board, panel, lobby = await a_table_and_a_lobby(h)
    outage_pg.freeze()
    try:
        sent = await every_kind_of_interaction(h, game, board, panel, lobby)
        told = {name: await answered(rec) for name, rec in sent.items()}
        await asyncio.sleep(1)  # frozen a while after the answers: any write on its way waits with it
    finally:
        outage_pg.thaw()
    assert fake.expired == []
    for name, text in told.items():
        assert "database" in text, f"{name}: {text}"
    await h.settle()
    row = await h.bot.storage.get_game(game.id)
    moved = row.version > game.version
    said_done = "✅" in told["a move"] or "✅" in told["/game move"]
    assert moved == said_done, (row.version, told)
    assert ("nothing changed" in told["a move"]) == (not moved) or "can't tell" in told["a move"]
    # Play goes on at once.
    game = await h.bot.tables.get(game.id)
    seat = h.bot.tables.waiting_seats(game)[0]
    board = latest_board(h)
    rec = await fake.click(game.seats[seat]["user_id"], board, button_id(fake, board, "Play"))
    assert "Your move" in await answered(rec)


# --- 3. a COMMIT that outlasts its budget: found out, then the truth told and the board posted -----------------
@pytest_asyncio.fixture
async def slow_commits(outage_pg):
    """Every commit of a new connection waits for a synchronous standby that never comes (until reset)."""
    async def setting(*sql: str) -> None:
        conn = await asyncpg.connect(outage_pg.url())
        try:
            for statement in sql:
                await conn.execute(statement)
        finally:
            await conn.close()

    async def on() -> None:
        await setting("ALTER ROLE heistcord SET synchronous_commit = 'on'",  # the server runs with it off
                      "ALTER SYSTEM SET synchronous_standby_names = 'ghost_standby'", "SELECT pg_reload_conf()")

    try:
        yield on
    finally:
        await setting("ALTER SYSTEM RESET synchronous_standby_names", "SELECT pg_reload_conf()",  # commits go on
                      "ALTER ROLE heistcord RESET synchronous_commit")


async def test_a_move_whose_commit_outlasts_its_budget_is_found_saved_and_its_board_posted(pg_harness, slow_commits):
    h, fake = pg_harness, pg_harness.fake
    game, board, panel, _ = await a_table_and_a_lobby(h)
    await slow_commits()
    await h.bot.storage.pool.expire_connections()  # the bot's next connections commit synchronously
    boards = len(play_boards(fake, CHANNEL))
    rec = await fake.click(ADMIN, panel, customid.encode("act", game.id, game.version, 0))
    told = await answered(rec)
    assert fake.expired == []
    row = await h.bot.storage.get_game(game.id)
    assert row.version == game.version + 1, told  # it was stored ...
    assert "✅" in told, told  # ... and the player was told so
    await fake.wait_for(lambda: len(play_boards(fake, CHANNEL)) > boards, timeout=15)  # and its board is posted
    assert "Ann takes" in play_boards(fake, CHANNEL)[-1].content


async def test_the_first_reads_and_writes_after_a_restart_are_served(outage_pg):
    """The pool's idle connections died with the server: the first reads and writes once it is back must not fail
    on them (the first click after an outage was told the database was unavailable)."""
    storage = await PgStorage(await outage_pg.fresh_database(), min_size=4, max_size=4).open()
    try:
        await asyncio.gather(*(storage.count_active() for _ in range(4)))  # four idle connections in the pool
        outage_pg.halt()
        outage_pg.resume()
        assert await asyncio.gather(*(storage.count_active() for _ in range(4))) == [0, 0, 0, 0]
        outage_pg.halt()
        outage_pg.resume()
        created = await asyncio.gather(*(storage.create_game(1, 10 + n, "dummy", 100, {}, 1, []) for n in range(4)))
        assert sorted(created) == [1, 2, 3, 4]
    finally:
        await storage.close()
