"""PostgreSQL only: migrations shared by processes starting together, the guarantees the
database itself enforces (triggers), compare-and-set across connection pools (two
processes), a write that cannot get the database, and choosing the backend."""
import asyncio

import asyncpg
import pytest

from bot.backend import make_storage
from bot.config import Config, ConfigError
from bot.dburl import redact
from bot.storage import MIGRATIONS, Storage, StorageError, VersionConflictError
from bot.storage_pg import PG_MIGRATIONS, PgStorage


@pytest.fixture
async def url(pg_server):
    return await pg_server.fresh_database()


@pytest.fixture
async def pg(url):
    s = await PgStorage(url).open()
    yield s
    await s.close()


async def test_migrations_are_numbered_as_sqlite_and_run_once_by_processes_starting_together(url):
    assert len(PG_MIGRATIONS) == len(MIGRATIONS)
    stores = await asyncio.gather(*[PgStorage(url).open() for _ in range(4)])
    try:
        assert [await s.schema_version() for s in stores] == [len(MIGRATIONS)] * 4
        assert await stores[0].pool.fetchval("SELECT COUNT(*) FROM schema_version") == 1
    finally:
        for s in stores:
            await s.close()
    again = await PgStorage(url).open()  # opening again migrates nothing twice
    assert await again.schema_version() == len(MIGRATIONS)
    await again.close()


async def finished_game(pg):
    gid = await pg.create_game(1, 10, "dummy", 100, {}, 5, [{"user_id": 100, "name": "Ann"}])
    await pg.save_game(gid, 0, {"status": "finished"}, actions=[(0, 100, {"type": "a"})], expected_version=0)
    return await pg.get_game(gid)


async def test_results_once_for_finished_games_and_never_changed(pg):
    running = await pg.get_game(await pg.create_game(1, 11, "dummy", 100, {}, 5, [{"user_id": 100, "name": "A"}]))
    one = [{"seat": 0, "score": 3, "rank": 1, "won": True}]
    with pytest.raises(asyncpg.RaiseError, match="finished games only"):
        await pg.record_results(running, one)
    game = await finished_game(pg)
    await pg.record_results(game, one)
    with pytest.raises(asyncpg.PostgresError):
        await pg.record_results(game, one)
    for sql in ("UPDATE results SET score = 99", "DELETE FROM results", "TRUNCATE results",
                "TRUNCATE actions", "DELETE FROM actions"):
        with pytest.raises(asyncpg.RaiseError, match="recorded once|append-only"):
            await pg.pool.execute(sql)
    assert [r["score"] for r in await pg.pool.fetch("SELECT score FROM results")] == [3.0]
    assert len(await pg.actions(game.id)) == 1


async def test_two_processes_racing_on_one_game_apply_exactly_one_move(url):
    a, b = await PgStorage(url).open(), await PgStorage(url).open()  # two pools: two processes
    try:
        gid = await a.create_game(1, 10, "dummy", 100, {}, 5, [])
        results = await asyncio.gather(
            *[(a if i % 2 else b).commit_actions(gid, 0, {"n": i}, [(0, 100, {"i": i})], expected_rev=0)
              for i in range(6)], return_exceptions=True)
        assert [r for r in results if not isinstance(r, VersionConflictError)] == [1]
        assert sum(isinstance(r, VersionConflictError) for r in results) == 5
        assert len(await b.actions(gid)) == 1 and (await a.get_game(gid)).rev == 1
    finally:
        await a.close()
        await b.close()


async def test_a_write_that_cannot_get_the_row_gives_up_within_its_budget(url):
    pg = await PgStorage(url, write_budget=0.3).open()
    try:
        gid = await pg.create_game(1, 10, "dummy", 100, {}, 5, [])
        other = await asyncpg.connect(url)  # another program holds the row
        tx = other.transaction()
        await tx.start()
        await other.execute("UPDATE games SET host_id = 7 WHERE id = $1", gid)
        with pytest.raises(StorageError):
            await pg.save_game(gid, 0, {"status": "ended"})
        await tx.rollback()
        await other.close()
        game = await pg.get_game(gid)
        assert (game.status, game.rev) == ("lobby", 0)  # nothing changed
        assert await pg.save_game(gid, 0, {"status": "ended"}) == 1  # and the next write works
    finally:
        await pg.close()


async def test_an_unreachable_server_is_a_clear_error():
    with pytest.raises(StorageError, match="can't connect to PostgreSQL at postgresql://u:\\*\\*\\*@127.0.0.1:1/x"):
        await PgStorage("postgresql://u:secret@127.0.0.1:1/x").open()


def test_the_database_url_chooses_the_backend(tmp_path):
    assert Config.from_env({}, None).database_url is None
    assert type(make_storage(str(tmp_path / "x.db"), None)) is Storage
    url = "postgresql://bot:pw@db.example:5432/heist"
    config = Config.from_env({"HEISTCORD_DATABASE_URL": f" {url} "}, None)
    assert config.database_url == url
    storage = make_storage(config.db_path, config.database_url)
    assert isinstance(storage, PgStorage) and storage.shared and storage.path == "postgresql://bot:***@db.example:5432/heist"
    storage.claim()  # no lock file with PostgreSQL: many processes share it
    assert not list(tmp_path.iterdir())
    with pytest.raises(ConfigError, match="HEISTCORD_DATABASE_URL"):
        Config.from_env({"HEISTCORD_DATABASE_URL": "mysql://x"}, None)
    assert redact("postgresql://h/db") == "postgresql://h/db"


def test_without_postgresql_the_tests_fail_saying_why(monkeypatch):
    import tests.pg as pg

    monkeypatch.setattr(pg.shutil, "which", lambda name: None)
    monkeypatch.setattr(pg.glob, "glob", lambda pattern: [])
    monkeypatch.setattr(pg.os, "geteuid", lambda: 1000)  # not root: nothing is installed
    with pytest.raises(pg.PgUnavailableError, match="PostgreSQL server binaries not found"):
        pg.find_bin_dir()


def test_the_bot_stops_with_one_line_when_postgresql_is_unreachable(tmp_path):
    import os
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "HEISTCORD_"))}
    env.update(PYTHONPATH=str(root), DISCORD_TOKEN="MTIz.GaBcDe.abcdefghijklmnopqrstuvwxyz",  # shaped like a token
               HEISTCORD_DATABASE_URL="postgresql://bot:secret@127.0.0.1:1/heist")
    result = subprocess.run([sys.executable, "-m", "bot"], cwd=tmp_path, env=env, capture_output=True, text=True,
                            timeout=60)
    assert result.returncode == 1
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and "can't connect to PostgreSQL at postgresql://bot:***@127.0.0.1:1/heist" in lines[0]
    assert "secret" not in result.stderr
