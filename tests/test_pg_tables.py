"""Two processes on one PostgreSQL database: two table services, each with its own pool
and its own cache, serve the same games. A cached copy is never trusted over the
database, and a deadline or a reminder fires once across processes."""
import asyncio
import logging
import time

import pytest

from bot.games import register
from bot.storage import VersionConflictError
from bot.storage_pg import PgStorage
from bot.tables import TableError, TableService
from tests.dummy_game import ENGINE as DUMMY

register(DUMMY)


class Clock:
    def __init__(self):
        self.now = 1_000_000.0

    def __call__(self):
        return self.now


@pytest.fixture
async def pair(pg_server):
    """Two 'processes' (services on separate pools and caches) sharing one database and clock."""
    url = await pg_server.fresh_database()
    clock = Clock()
    seeds = iter(range(1, 10_000))
    services = []
    for _ in range(2):
        storage = await PgStorage(url).open()
        services.append(TableService(storage, seed_source=lambda: next(seeds), clock=clock))
    yield services[0], services[1], clock
    for svc in services:
        await svc.storage.close()


async def running_game(svc, **opts):
    game = await svc.open(1, 10, "dummy", 100, "Ann", opts)
    await svc.join(game.id, 101, "Bob")
    await svc.join(game.id, 102, "Cid")
    await svc.start(game.id, 100)
    return game


async def test_a_move_made_by_the_other_process_is_seen_before_the_next_one(pair):
    a, b, _ = pair
    game = await running_game(a)  # a has the game cached
    await b.act(game.id, 100, {"type": "take", "n": 1})  # e.g. a DM button, which arrives on shard 0
    outcome = await a.act(game.id, 101, {"type": "take", "n": 1})  # a's copy is old: it must not be trusted
    assert outcome.game.version == 2
    assert [e["seat"] for e in await a.storage.actions(game.id)] == [0, 1]
    panel = await b.get(game.id)  # and b sees a's move too
    assert panel.version == 2 and panel.state == outcome.game.state
    await b.act(game.id, 102, {"type": "take", "n": 1}, version=2, index=0)  # a click on a's fresh panel


async def test_a_table_changed_by_the_other_process_is_seen_in_its_channel(pair):
    a, b, _ = pair
    game = await a.open(1, 10, "dummy", 100, "Ann", {})
    assert (await b.in_channel(10)).id == game.id  # b caches the lobby
    await a.end(game.id, "closed by the host")
    assert await b.in_channel(10) is None  # the channel is free: b must not show the ended lobby
    again = await b.open(1, 10, "dummy", 101, "Bob", {})
    assert (await a.in_channel(10)).id == again.id


async def test_a_deadline_due_after_the_other_process_moved_fires_at_once(pair):
    a, b, clock = pair
    game = await running_game(a, turn_minutes="10")
    await b.act(game.id, 100, {"type": "take", "n": 1})  # a new turn, a new deadline, set by b
    clock.now += 11 * 60
    fired = await a.fire_timers()  # a still has the old copy cached
    assert [kind for kind, _ in fired] == ["deadline"]
    assert fired[0][1].missed == [1]


@pytest.mark.parametrize("minutes_later, kind", [(8, "reminder"), (11, "deadline")])
async def test_a_timer_fires_once_across_processes(pair, caplog, minutes_later, kind):
    a, b, clock = pair
    game = await running_game(a, turn_minutes="10")
    await b.get(game.id)  # both have it cached
    clock.now += minutes_later * 60
    with caplog.at_level(logging.INFO, logger="heistcord.tables"):
        fired = await asyncio.gather(a.fire_timers(), b.fire_timers())
        fired += await asyncio.gather(a.fire_timers(), b.fire_timers())  # and not again later
    assert [k for one in fired for k, _ in one] == [kind]
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING]  # the other process just stood back
    if kind == "deadline":
        assert len(await a.storage.actions(game.id)) == 1


async def test_a_game_gone_from_the_database_is_not_served_from_the_cache(pair):
    a, b, _ = pair
    game = await running_game(a)
    await a.storage.pool.execute("ALTER TABLE actions DISABLE TRIGGER USER")
    await a.storage.pool.execute("DELETE FROM actions; DELETE FROM games")  # an operator wiped it
    with pytest.raises(TableError, match=f"no game #{game.id}"):
        await a.act(game.id, 100, {"type": "take", "n": 1})


async def test_lists_and_retention_on_postgresql(pair):
    """The write path's storage calls on PostgreSQL: the state-free admin list, compaction
    of old finished games (which still replay exactly), and a move's commit checked on
    its version alone."""
    one, two, clock = pair
    game = await one.open(1, 10, "dummy", 100, "Ann", {"pile": 5})
    await one.join(game.id, 101, "Bob")
    await one.start(game.id, 100)
    lobby = await one.open(1, 11, "dummy", 100, "Ann", {})
    assert [(g.id, g.status) for g in await two.storage.game_summaries(1)] == [(game.id, "running"), (lobby.id, "lobby")]
    while game.status == "running":
        seat = one.waiting_seats(game)[0]
        await one.act(game.id, game.seats[seat]["user_id"], {"type": "take", "n": 1})
    final = game.state
    assert [g.id for g in await two.storage.game_summaries(1)] == [lobby.id]
    now = time.time()  # rows are stamped with the wall clock
    assert await two.compact(now) == 0  # not old enough yet
    assert await two.compact(now + (two.retention_days + 1) * 86400) == 1
    row = await one.storage.get_game(game.id)
    assert row.state is None and row.status == "finished" and row.started
    _, state, total = await one.replay(game.id)
    assert state == final and total == 5


async def test_a_commit_on_version_alone_refuses_a_stale_version(pair):
    one, _, _ = pair
    game = await running_game(one)
    rev, version = game.rev, game.version
    await one.storage.commit_actions(game.id, version, game.state, [(0, 100, {"type": "take", "n": 1})])
    with pytest.raises(VersionConflictError):
        await one.storage.commit_actions(game.id, version, game.state, [(0, 100, {"type": "take", "n": 1})])
    assert (await one.storage.get_game(game.id)).rev == rev + 1
