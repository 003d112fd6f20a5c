"""Issue 16: the lean write path (group commit, settings in memory), the event loop's
share of a move (views reused), and growth (indexed timers, lists without states,
replays off the event loop, compaction of finished games)."""
import asyncio
import sqlite3
import threading

import pytest

from bot.games import register
from bot.storage import Storage, StorageError, VersionConflictError
from bot.tables import TableService
from tests.dummy_game import ENGINE as DUMMY
from tests.faults.helpers import heal, inject

register(DUMMY)


@pytest.fixture
async def storage(tmp_path):
    s = await Storage(str(tmp_path / "w.db")).open()
    yield s
    await s.close()


@pytest.fixture
async def service(storage):
    seeds = iter(range(1, 10_000))
    return TableService(storage, seed_source=lambda: next(seeds))


async def games(storage, n):
    return [await storage.create_game(1, 100 + i, "dummy", 7, {}, i, []) for i in range(n)]


def read_only(path):
    return sqlite3.connect(f"file:{path}?mode=ro", uri=True)


# --- group commit ----------------------------------------------------------------------------
async def test_moves_that_arrive_together_are_committed_in_one_transaction(storage):
    ids = await games(storage, 20)
    before = storage.batches
    versions = await asyncio.gather(*(storage.commit_actions(g, 0, {"g": g}, [(0, 7, {"n": g})]) for g in ids))
    assert versions == [1] * 20
    assert storage.batches - before < 20  # they waited together and went in together
    db = read_only(storage.path)  # what another reader sees: every acknowledged move is stored
    assert db.execute("SELECT COUNT(*) FROM actions").fetchone()[0] == 20
    assert db.execute("SELECT COUNT(*) FROM games WHERE version = 1").fetchone()[0] == 20
    db.close()


async def test_a_conflict_in_a_batch_refuses_that_write_alone(storage):
    ids = await games(storage, 6)
    writes = [storage.commit_actions(g, 0, {"g": g}, [(0, 7, {"n": g})]) for g in ids]
    writes.append(storage.commit_actions(ids[0], 0, {"late": True}, [(0, 7, {"n": "late"})]))  # same version again
    writes.append(storage.save_game(ids[1], 99, {"status": "ended"}))  # a stale revision
    out = await asyncio.gather(*writes, return_exceptions=True)
    assert out[:6] == [1] * 6
    assert isinstance(out[6], VersionConflictError) and isinstance(out[7], VersionConflictError)
    assert (await storage.get_game(ids[0])).state == {"g": ids[0]}
    assert [a["action"] for a in await storage.actions(ids[0])] == [{"n": ids[0]}]
    assert (await storage.get_game(ids[1])).status == "lobby"


async def test_a_result_refused_by_the_schema_undoes_only_its_own_write(storage):
    ids = await games(storage, 3)
    row = (ids[0], 1, "dummy", 0, 7, "Ann", 0, 1.0, 1, 1)  # a result for a game that isn't finished
    out = await asyncio.gather(
        storage.save_game(ids[0], 0, {"deadline_at": 5.0}, results=[row]),
        storage.save_game(ids[1], 0, {"deadline_at": 6.0}),
        storage.save_game(ids[2], 0, {"deadline_at": 7.0}), return_exceptions=True)
    assert isinstance(out[0], sqlite3.IntegrityError) and out[1:] == [1, 1]
    assert [(await storage.get_game(g)).deadline_at for g in ids] == [None, 6.0, 7.0]


async def test_a_failing_disk_refuses_the_whole_batch_and_stores_nothing(storage):
    ids = await games(storage, 8)
    inject(storage, "RELEASE w1")  # fails inside a batch of two writes or more, after its second write
    out = await asyncio.gather(*(storage.commit_actions(g, 0, {"g": g}, [(0, 7, {"n": g})]) for g in ids),
                               return_exceptions=True)
    heal(storage)
    refused = [g for g, r in zip(ids, out) if isinstance(r, StorageError)]
    assert len(refused) >= 2 and all(r == 1 for r in out if not isinstance(r, StorageError))
    versions = {g: (await storage.get_game(g)).version for g in ids}
    assert versions == {g: 0 if g in refused else 1 for g in ids}  # what was refused is not stored, at all
    assert await storage.commit_actions(refused[0], 0, {"g": 1}, [(0, 7, {"n": 1})]) == 1  # the next write is clean


async def test_a_write_waiting_past_its_budget_is_refused_unwritten(storage):
    (gid,) = await games(storage, 1)
    storage.write_budget = 0.2
    async with storage.transaction():  # another write holds the database
        with pytest.raises(StorageError):
            await storage.save_game(gid, 0, {"deadline_at": 1.0})
    assert (await storage.get_game(gid)).deadline_at is None
    assert await storage.save_game(gid, 0, {"deadline_at": 2.0}) == 1


# --- settings in memory ------------------------------------------------------------------------
class CountingConnection:
    def __init__(self, db):
        self._db, self.statements = db, []

    def __getattr__(self, name):
        return getattr(self._db, name)

    def execute(self, sql, *args, **kwargs):
        self.statements.append(sql)
        return self._db.execute(sql, *args, **kwargs)


async def test_server_settings_are_read_once_and_follow_changes(service):
    storage = service.storage
    s = await storage.settings(1)
    s.turn_minutes = 10
    await storage.save_settings(s)
    game = await service.open(1, 10, "dummy", 100, "Ann", {"pile": 30})
    await service.join(game.id, 101, "Bob")
    await service.start(game.id, 100)
    counting = CountingConnection(storage.db)
    storage.db = counting
    try:
        for _ in range(4):
            seat = service.waiting_seats(game)[0]
            await service.act(game.id, game.seats[seat]["user_id"], {"type": "take", "n": 1})
    finally:
        storage.db = counting._db
    assert not [sql for sql in counting.statements if "guild_settings" in sql]
    assert game.deadline_at - service.clock() == pytest.approx(600, abs=5)
    changed = await storage.settings(1)
    changed.turn_minutes = 20
    changed.allowed_channels.append(5)  # a copy: nothing changes until it is saved
    assert (await storage.settings(1)).allowed_channels == []
    await storage.save_settings(changed)
    assert (await storage.settings(1)).turn_minutes == 20
    seat = service.waiting_seats(game)[0]
    await service.act(game.id, game.seats[seat]["user_id"], {"type": "take", "n": 1})
    assert game.deadline_at - service.clock() == pytest.approx(1200, abs=5)


# --- the event loop's share of a move -------------------------------------------------------------
async def test_each_seat_private_view_is_computed_once_per_move(service, monkeypatch):
    game = await service.open(1, 10, "dummy", 100, "Ann", {"pile": 30})
    await service.join(game.id, 101, "Bob")
    await service.join(game.id, 102, "Cid")
    await service.start(game.id, 100)
    calls = []
    real = DUMMY.view
    monkeypatch.setattr(DUMMY, "view", lambda state, viewer: calls.append(viewer) or real(state, viewer))
    changed = []
    for _ in range(5):
        seat = service.waiting_seats(game)[0]
        outcome = await service.act(game.id, game.seats[seat]["user_id"], {"type": "take", "n": 1})
        changed.append(sorted(outcome.changed_private))
    assert len(calls) == 5 * 3  # once per seat per move: the "before" is the previous move's "after"
    assert changed == [[1], [2], [0], [1], [2]]  # the dummy changes the next player's word only


async def test_a_draft_that_does_not_change_the_state_does_not_write_it(service, monkeypatch):
    game = await service.open(1, 10, "dummy", 100, "Ann", {})
    await service.join(game.id, 101, "Bob")
    await service.start(game.id, 100)
    written = []
    real = service.storage.save_game

    async def spy(game_id, rev, fields, **kwargs):
        written.append(set(fields))
        return await real(game_id, rev, fields, **kwargs)

    monkeypatch.setattr(service.storage, "save_game", spy)
    state = game.state
    await service.set_message(game, board_message_id=55)
    assert written == [{"board_message_id"}] and game.state is state
    assert (await service.storage.get_game(game.id)).board_message_id == 55


# --- growth ----------------------------------------------------------------------------------------
async def test_the_timer_loop_queries_use_indexes(storage):
    seen = []
    real = storage.db.execute

    def recording(sql, *args, **kwargs):
        seen.append(sql)
        return real(sql, *args, **kwargs)

    storage.db.execute = recording
    try:
        await storage.due_deadlines(1.0)
        await storage.next_timer()
    finally:
        del storage.db.execute
    for sql in seen:
        async with storage.db.execute("EXPLAIN QUERY PLAN " + sql, (1.0, 1.0) if "?" in sql else ()) as cur:
            plan = [r[3] for r in await cur.fetchall()]
        assert not [step for step in plan if step.startswith("SCAN games")], (sql, plan)


async def test_timers_are_found_among_many_games(storage):
    ids = await games(storage, 6)
    await storage.save_game(ids[1], 0, {"status": "running", "deadline_at": 50.0, "reminder_at": 40.0})
    await storage.save_game(ids[2], 0, {"status": "running", "reminder_at": 30.0})
    await storage.save_game(ids[3], 0, {"status": "running", "deadline_at": 20.0})
    await storage.save_game(ids[4], 0, {"status": "finished", "deadline_at": 1.0})  # over: not a timer
    assert await storage.next_timer() == 20.0
    assert [g.id for g in await storage.due_deadlines(35.0)] == [ids[2], ids[3]]
    assert [g.id for g in await storage.due_deadlines(45.0)] == [ids[1], ids[2], ids[3]]
    assert await storage.due_deadlines(10.0) == []


async def test_game_summaries_list_active_games_without_reading_their_states(storage):
    ids = await games(storage, 3)
    await storage.save_game(ids[0], 0, {"status": "running", "seats": [{"name": "Ann", "user_id": 7}]})
    await storage.save_game(ids[2], 0, {"status": "ended"})
    db = sqlite3.connect(storage.path)
    db.execute("UPDATE games SET state = 'not json {' WHERE id = ?", (ids[0],))  # decoding it would fail
    db.commit()
    db.close()
    summaries = await storage.game_summaries(1)
    assert [(g.id, g.status, g.seats) for g in summaries] == [(ids[0], "running", [{"name": "Ann", "user_id": 7}]),
                                                             (ids[1], "lobby", [])]
    assert await storage.game_summaries(2) == []


async def test_the_log_and_replays_are_rebuilt_off_the_event_loop(service, monkeypatch):
    game = await service.open(1, 10, "dummy", 100, "Ann", {"pile": 9})
    await service.join(game.id, 101, "Bob")
    await service.start(game.id, 100)
    while game.status == "running":
        seat = service.waiting_seats(game)[0]
        await service.act(game.id, game.seats[seat]["user_id"], {"type": "take", "n": 1})
    threads = []
    real = DUMMY.apply
    monkeypatch.setattr(DUMMY, "apply", lambda *a: threads.append(threading.current_thread()) or real(*a))
    loop_thread = threading.current_thread()
    lines = await service.public_log(game.id)
    _, state, total = await service.replay(game.id)
    assert len(lines) >= 9 and total == 9 and state["winner"] is not None
    assert threads and loop_thread not in threads


async def test_finished_games_are_compacted_and_still_replay(service):
    storage = service.storage
    game = await service.open(1, 10, "dummy", 100, "Ann", {"pile": 5})
    await service.join(game.id, 101, "Bob")
    await service.start(game.id, 100)
    while game.status == "running":
        seat = service.waiting_seats(game)[0]
        await service.act(game.id, game.seats[seat]["user_id"], {"type": "take", "n": 1})
    final = game.state
    running = await service.open(1, 11, "dummy", 100, "Ann", {"pile": 5})
    await service.join(running.id, 101, "Bob")
    await service.start(running.id, 100)
    assert await service.compact(service.clock()) == 0  # not yet old enough
    assert await service.compact(service.clock() + (service.retention_days + 1) * 86400) == 1
    row = await storage.get_game(game.id)
    assert row.state is None and row.started and row.status == "finished" and row.version == 5
    assert len(await storage.actions(game.id)) == 5
    assert (await storage.get_game(running.id)).state is not None  # a running game keeps its state
    _, state, total = await service.replay(game.id)
    assert state == final and total == 5
    assert (await service.get(game.id)).state is None  # the cache does not keep the compacted state
    db = read_only(storage.path)
    assert db.execute("SELECT COUNT(*) FROM results WHERE game_id = ?", (game.id,)).fetchone()[0] == 2
    db.close()


async def test_a_cancelled_caller_leaves_the_others_of_its_batch_answered(storage):
    ids = await games(storage, 5)
    tasks = [asyncio.create_task(storage.commit_actions(g, 0, {"g": g}, [(0, 7, {"n": g})])) for g in ids]
    await asyncio.sleep(0)  # every write is queued or on the writer thread
    tasks[0].cancel()
    tasks[2].cancel()
    out = await asyncio.gather(*tasks, return_exceptions=True)
    assert [out[i] for i in (1, 3, 4)] == [1, 1, 1]
    for g in (ids[1], ids[3], ids[4]):
        assert (await storage.get_game(g)).version == 1


async def test_the_timer_loop_compacts_one_batch_per_wake_up(service, monkeypatch):
    import bot.tables.timers

    monkeypatch.setattr(bot.tables.timers, "COMPACT_BATCH", 2)
    ids = []
    for channel in range(3):
        game = await service.open(1, 10 + channel, "dummy", 100, "Ann", {"pile": 3})
        await service.join(game.id, 101, "Bob")
        await service.start(game.id, 100)
        while game.status == "running":
            seat = service.waiting_seats(game)[0]
            await service.act(game.id, game.seats[seat]["user_id"], {"type": "take", "n": 1})
        ids.append(game.id)
    later = service.clock() + (service.retention_days + 1) * 86400

    async def kept():
        return sum([(await service.storage.get_game(g)).state is not None for g in ids])

    await service.fire_timers(later)
    assert await kept() == 1  # one batch, not the whole backlog, in one wake-up
    await service.fire_timers(later + 30)
    assert await kept() == 0
