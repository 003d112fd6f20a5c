"""Storage, on both backends (SQLite and PostgreSQL) unless a test says otherwise."""
import asyncio

import pytest

from bot.storage import MIGRATIONS, ChannelBusyError, Storage, VersionConflictError
from tests.pg import BACKENDS, open_storage, raw_execute, refusal_error


@pytest.fixture(params=BACKENDS)
async def storage(request, tmp_path):
    s = await open_storage(request.param, request, tmp_path)
    yield s
    await s.close()


async def test_migrations_are_versioned_and_idempotent(tmp_path):
    path = str(tmp_path / "m.db")
    s = await Storage(path).open()
    assert await s.schema_version() == len(MIGRATIONS) == 9
    await s.close()
    s = await Storage(path).open()  # opening again migrates nothing twice
    assert await s.schema_version() == len(MIGRATIONS)
    async with s.db.execute("PRAGMA journal_mode") as cur:
        assert (await cur.fetchone())[0] == "wal"
    await s.close()


async def test_one_active_game_per_channel(storage):
    await storage.create_game(1, 10, "dummy", 100, {}, 5, [])
    with pytest.raises(ChannelBusyError):
        await storage.create_game(1, 10, "dummy", 101, {}, 6, [])
    await storage.create_game(1, 11, "dummy", 101, {}, 6, [])  # another channel is fine


async def test_finished_game_frees_the_channel(storage):
    gid = await storage.create_game(1, 10, "dummy", 100, {}, 5, [])
    rev = await storage.save_game(gid, 0, {"status": "finished"})
    assert rev == 1
    with pytest.raises(VersionConflictError):  # every write of a game row is a compare-and-set
        await storage.save_game(gid, 0, {"status": "ended"})
    await storage.create_game(1, 10, "dummy", 100, {}, 5, [])


async def test_commit_is_compare_and_set_and_log_is_append_only(storage):
    gid = await storage.create_game(1, 10, "dummy", 100, {}, 5, [])
    v = await storage.commit_actions(gid, 0, {"x": 1}, [(0, 100, {"type": "a"})])
    assert v == 1
    with pytest.raises(VersionConflictError):
        await storage.commit_actions(gid, 0, {"x": 2}, [(0, 100, {"type": "b"})])
    game = await storage.get_game(gid)
    assert game.state == {"x": 1} and game.version == 1
    assert [a["action"] for a in await storage.actions(gid)] == [{"type": "a"}]
    with pytest.raises(refusal_error(storage), match="append-only"):
        await raw_execute(storage, "DELETE FROM actions")
    with pytest.raises(refusal_error(storage), match="append-only"):
        await raw_execute(storage, "UPDATE actions SET seat = 3")


async def test_racing_commits_apply_exactly_one(storage):
    gid = await storage.create_game(1, 10, "dummy", 100, {}, 5, [])
    results = await asyncio.gather(
        *[storage.commit_actions(gid, 0, {"n": i}, [(0, 100, {"i": i})]) for i in range(5)],
        return_exceptions=True)
    assert sum(1 for r in results if r == 1) == 1
    assert sum(1 for r in results if isinstance(r, VersionConflictError)) == 4
    assert len(await storage.actions(gid)) == 1


async def test_settings_round_trip(storage):
    s = await storage.settings(7)
    assert s.maintenance is False and s.allowed_channels == []
    s.maintenance, s.allowed_channels, s.turn_minutes, s.manager_role_id = True, [3, 4], 10, 99
    await storage.save_settings(s)
    again = await storage.settings(7)
    assert (again.maintenance, again.allowed_channels, again.turn_minutes, again.manager_role_id) == (True, [3, 4], 10, 99)



async def test_a_tutorial_run_is_kept_saved_by_compare_and_set_and_replaced_when_started_over(storage):
    run = {"game": "dummy", "index": 0, "state": {"pile": 7}}
    first = await storage.start_tutorial(100, "dummy", run)
    assert (await storage.tutorial_run(first.id)).run == run
    assert (await storage.open_tutorial(100, "dummy")).id == first.id
    assert await storage.open_tutorial(100, "tower") is None and await storage.open_tutorial(101, "dummy") is None
    moved = {**run, "index": 1}
    assert await storage.save_tutorial(first.id, 0, moved, False)
    assert not await storage.save_tutorial(first.id, 0, {**run, "index": 5}, False)  # a second click on step 1
    row = await storage.tutorial_run(first.id)
    assert row.run == moved and row.rev == 1 and not row.finished
    again = await storage.start_tutorial(100, "dummy", run)  # started over: the unfinished run is gone
    assert again.id != first.id and await storage.tutorial_run(first.id) is None
    assert await storage.save_tutorial(again.id, 0, moved, True)
    assert await storage.open_tutorial(100, "dummy") is None and (await storage.tutorial_run(again.id)).finished
    third = await storage.start_tutorial(100, "dummy", run)  # a finished run is kept beside a new one
    assert (await storage.tutorial_run(again.id)).finished and (await storage.open_tutorial(100, "dummy")).id == third.id
    await storage.delete_tutorial(third.id)
    assert await storage.tutorial_run(third.id) is None


async def test_knows_game_after_a_finished_game_or_a_started_lesson(storage):
    assert not await storage.knows_game(100, "dummy")
    await storage.start_tutorial(100, "dummy", {"index": 0})
    assert await storage.knows_game(100, "dummy") and not await storage.knows_game(100, "tower")
    gid = await storage.create_game(1, 10, "tower", 101, {}, 5, [{"user_id": 101, "name": "Bo"}])
    await storage.save_game(gid, 0, {"status": "finished"})
    game = await storage.get_game(gid)
    assert not await storage.knows_game(101, "tower")
    await storage.record_results(game, [{"seat": 0, "score": 3, "rank": 1, "won": True}])
    assert await storage.knows_game(101, "tower") and not await storage.knows_game(101, "dummy")
