"""Items 1-4 and 14 of the hardening issue: database faults, a crash inside a
multi-step operation, a cache running ahead of the database, a second process on
the same file, and a move racing a due timer."""
from __future__ import annotations

import sqlite3

import pytest

from bot.storage import Storage
from bot.tables import TableError, TableService
from tests.faults.helpers import Clock, disagreements, heal, inject, make_service


@pytest.fixture
async def storage(tmp_path):
    s = await Storage(str(tmp_path / "faults.db")).open()
    yield s
    heal(s)
    await s.close()


def short_budget(storage: Storage, seconds: float = 0.2) -> None:
    """Make writes give up on a locked database after ``seconds`` (the bot's own budget is
    under Discord's 3-second deadline; tests need not wait that long)."""
    storage.write_budget = seconds


async def running_coin_pile(service: TableService, channel: int = 10, **opts):
    game = await service.open(1, channel, "dummy", 100, "Ann", {"pile": 20, **opts})
    await service.join(game.id, 101, "Bob")
    await service.start(game.id, 100)
    return await service.get(game.id)


# --- 1. a failed write must not lock the bot out -------------------------------------------
async def test_a_write_lock_held_by_another_program_fails_moves_cleanly_then_play_resumes(storage):
    short_budget(storage)
    service = make_service(storage)
    game = await running_coin_pile(service)
    blocker = sqlite3.connect(storage.path, isolation_level=None)  # e.g. the sqlite3 shell or a backup tool
    blocker.execute("BEGIN IMMEDIATE")
    try:
        with pytest.raises(TableError, match="couldn't save"):
            await service.act(game.id, 100, {"type": "take", "n": 1})
        assert await disagreements(service, game.id) == []
    finally:
        blocker.execute("ROLLBACK")
        blocker.close()
    # The lock is gone: the bot serves at once, no restart, and reads are fresh.
    outcome = await service.act(game.id, 100, {"type": "take", "n": 1})
    assert outcome.game.version == 1
    other = sqlite3.connect(storage.path)
    assert other.execute("SELECT version FROM games WHERE id = ?", (game.id,)).fetchone()[0] == 1
    other.execute("UPDATE games SET ended_reason = 'poked' WHERE id = ?", (game.id,))
    other.commit()
    other.close()
    assert (await storage.get_game(game.id)).ended_reason == "poked"  # not an old snapshot
    await service.act(game.id, 101, {"type": "take", "n": 1})


@pytest.mark.parametrize("error", ["database or disk is full", "disk I/O error"])
async def test_a_failed_write_rolls_back_and_the_next_write_works(storage, error):
    service = make_service(storage)
    game = await running_coin_pile(service)
    inject(storage, "INSERT INTO actions", error=sqlite3.OperationalError(error))
    with pytest.raises(TableError, match="couldn't save"):
        await service.act(game.id, 100, {"type": "take", "n": 1})
    heal(storage)
    row = await storage.get_game(game.id)
    assert row.version == 0 and await storage.actions(game.id) == []  # the half-done write was rolled back
    outcome = await service.act(game.id, 100, {"type": "take", "n": 2})
    assert outcome.game.version == 1 and (await storage.get_game(game.id)).version == 1


# --- 2. no multi-step operation can be cut in half; recovery at start-up -----------------
async def test_start_is_one_transaction(storage):
    service = make_service(storage)
    game = await service.open(1, 10, "vote", 100, "Ann")
    await service.add_bot(game.id, 100)
    # The bot seat's first pick is stored with the start: if that part fails, nothing is stored.
    inject(storage, "INSERT INTO actions")
    with pytest.raises(TableError, match="couldn't save"):
        await service.start(game.id, 100)
    heal(storage)
    row = await storage.get_game(game.id)
    assert row.status == "lobby" and row.state is None
    assert await disagreements(service, game.id) == []
    outcome = await service.start(game.id, 100)
    assert outcome.game.status == "running" and outcome.game.version == 1  # the bot picked


async def test_start_up_recovery_moves_bots_and_overdue_deadlines(storage):
    clock = Clock()
    service = make_service(storage, clock)
    # A game left by a crash of the old two-step start: running, a bot to act, no deadline.
    game = await service.open(1, 10, "vote", 100, "Ann", {"turn_minutes": 10})
    await service.add_bot(game.id, 100)
    state = service.engine(game).setup(["Ann", "Bot 1"], {}, game.seed)
    await storage.db.execute("UPDATE games SET status = 'running', state = ? WHERE id = ?",
                             (__import__("json").dumps(state), game.id))
    await storage.db.commit()
    # Another game whose deadline passed while the bot was down.
    late = await running_coin_pile(service, channel=11, turn_minutes=10)
    clock.now += 3600
    fresh = make_service(storage, clock)  # the restarted process
    outcomes = await fresh.recover()
    by_game = {o.game.id: kind for kind, o in outcomes}
    stuck = await fresh.get(game.id)
    assert stuck.version == 1 and stuck.seats[1].get("bot")  # the bot picked
    assert fresh.waiting_seats(stuck) == [0] and stuck.deadline_at == pytest.approx(clock.now + 600)
    assert by_game == {game.id: "recovered", late.id: "deadline"}
    assert (await fresh.get(late.id)).version == 1  # the overdue turn was played for the absent player


# --- 3. the cache never runs ahead of the database --------------------------------------------
async def test_a_failed_end_leaves_cache_and_database_agreeing(storage):
    service = make_service(storage)
    game = await running_coin_pile(service)
    inject(storage, "UPDATE games")
    with pytest.raises(TableError, match="couldn't save"):
        await service.end(game.id, "Ended by Ann.")
    heal(storage)
    assert await disagreements(service, game.id) == []
    assert (await service.get(game.id)).status == "running"
    await service.act(game.id, 100, {"type": "take", "n": 1})  # play goes on, and is stored
    assert (await storage.get_game(game.id)).version == 1


@pytest.mark.parametrize("needle", ["UPDATE games", "INSERT INTO actions", "INSERT INTO results"])
async def test_after_any_failed_write_cache_and_database_agree(storage, needle):
    service = make_service(storage)
    game = await service.open(1, 10, "dummy", 100, "Ann", {"pile": 3})
    await service.join(game.id, 101, "Bob")
    await service.start(game.id, 100)
    await service.act(game.id, 100, {"type": "take", "n": 1})
    inject(storage, needle)
    with pytest.raises(TableError, match="couldn't save"):
        await service.act(game.id, 101, {"type": "take", "n": 2})  # the winning move
    heal(storage)
    assert await disagreements(service, game.id) == []
    assert await storage.user_stats(1, 100) == []
    outcome = await service.act(game.id, 101, {"type": "take", "n": 2})
    assert outcome.finished and len(await storage.user_stats(1, 101)) == 1


# --- 4. a second process, stale copies, results recorded once ----------------------------------
async def test_a_second_process_on_the_same_file_is_refused(storage):
    from bot.storage import DatabaseInUseError

    with pytest.raises(DatabaseInUseError, match="already using"):
        await Storage(storage.path).open()


async def test_a_stale_copy_never_overwrites_a_newer_row(storage):
    one, two = make_service(storage), make_service(storage)  # two caches on one database
    game = await one.open(1, 10, "dummy", 100, "Ann", {"pile": 20})
    await two.get(game.id)
    await one.join(game.id, 101, "Bob")
    await two.join(game.id, 102, "Cid")  # from a copy that doesn't know Bob
    seated = [s["user_id"] for s in (await storage.get_game(game.id)).seats]
    assert seated == [100, 101, 102]  # Bob's acknowledged join is kept
    await one.start(game.id, 100)
    await two.get(game.id)
    await one.end(game.id, "Ended by Ann.")
    with pytest.raises(TableError, match="over"):
        await two.act(game.id, 100, {"type": "take", "n": 1})
    assert await storage.actions(game.id) == []


async def test_a_game_result_is_recorded_once(storage):
    service = make_service(storage)
    game = await service.open(1, 10, "dummy", 100, "Ann", {"pile": 3})
    await service.join(game.id, 101, "Bob")
    await service.start(game.id, 100)
    outcome = await service.act(game.id, 100, {"type": "take", "n": 2})
    outcome = await service.act(game.id, 101, {"type": "take", "n": 1})
    assert outcome.finished
    with pytest.raises(sqlite3.IntegrityError):
        await storage.record_results(outcome.game, outcome.results)
    async with storage.db.execute("SELECT COUNT(*) FROM results WHERE game_id = ?", (game.id,)) as cur:
        assert (await cur.fetchone())[0] == 2


# --- 14. a move racing a due timer ---------------------------------------------------------------
async def test_a_move_racing_a_due_timer_keeps_the_next_players_reminder(storage, monkeypatch):
    clock = Clock()
    service = make_service(storage, clock)
    game = await running_coin_pile(service, turn_minutes=10)
    clock.now += 460  # Ann's reminder is due
    due = storage.due_deadlines

    async def due_then_move(now):
        rows = await due(now)
        await service.act(game.id, 100, {"type": "take", "n": 1})  # lands between the query and the lock
        return rows

    monkeypatch.setattr(storage, "due_deadlines", due_then_move)
    assert await service.fire_timers() == []
    monkeypatch.undo()
    row = await storage.get_game(game.id)
    assert row.reminder_at == pytest.approx(clock.now + 450)  # Bob's reminder stands
    clock.now += 451
    fired = await service.fire_timers()
    assert [k for k, _ in fired] == ["reminder"] and fired[0][1].missed == [1]


# --- issue 27, item 6: the lock is the database file's, not a name's ------------------------------------------------
async def test_the_same_database_through_a_symlink_is_refused(storage, tmp_path):
    from bot.storage import DatabaseInUseError

    link = tmp_path / "another-name.db"
    link.symlink_to(storage.path)
    with pytest.raises(DatabaseInUseError, match="already using"):
        await Storage(str(link)).open()


async def test_a_deleted_lock_file_does_not_let_a_second_process_in(storage):
    import os

    from bot.storage import DatabaseInUseError

    for leftover in (storage.path + ".lock",):  # what held the lock before (a name, not the file)
        if os.path.exists(leftover):
            os.remove(leftover)
    with pytest.raises(DatabaseInUseError, match="already using"):
        await Storage(storage.path).open()
