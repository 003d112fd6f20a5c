"""``heistcord db copy --from <sqlite file> --to <postgresql url>``: a server's games and
stats move to PostgreSQL, verified by replaying every game; a copy that does not verify,
or into a database that is not empty, writes nothing."""
import contextlib
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bot.games import get_engine, shipped
from bot.storage import GuildSettings, Storage
from bot.storage_pg import PgStorage
from bot.tables import TableService

ROOT = Path(__file__).resolve().parent.parent
HOST = 100


async def play_to_the_end(svc: TableService, game_id: int, max_moves: int | None = None) -> None:
    """The host plays their first legal move whenever it's their turn (the bots play theirs)."""
    moves = 0
    while (game := await svc.get(game_id)).status == "running" and (max_moves is None or moves < max_moves):
        engine = svc.engine(game)
        seat = next(s for s in engine.to_act(game.state) if game.seats[s].get("user_id") == HOST)
        await svc.act(game_id, HOST, engine.legal_actions(game.state, seat)[0])
        moves += 1


async def a_server_history(path: str) -> dict:
    """A SQLite file with finished games of every title, one running mid-game with a turn
    timer, a lobby, an ended table, settings and a refused DM."""
    storage = await Storage(path).open()
    svc = TableService(storage, seed_source=iter(range(50, 10_000)).__next__)
    ids = {}
    for n, key in enumerate(sorted(shipped())):
        game = await svc.open(1, 10 + n, key, HOST, "Ann", {})
        while len((await svc.get(game.id)).seats) < svc.engine(game).meta.min_players:
            await svc.add_bot(game.id, HOST)
        await svc.start(game.id, HOST)
        await play_to_the_end(svc, game.id)
        ids[key] = game.id
    running = await svc.open(1, 20, "heist", HOST, "Ann", {"turn_minutes": "30"})
    await svc.add_bot(running.id, HOST)
    await svc.add_bot(running.id, HOST)
    await svc.start(running.id, HOST)
    await play_to_the_end(svc, running.id, max_moves=3)
    ids["running"] = running.id
    ids["lobby"] = (await svc.open(1, 21, "rage", HOST, "Ann", {})).id
    ended = await svc.open(2, 22, "tower", HOST, "Ann", {})
    await svc.end(ended.id, "the host closed the table")
    ids["ended"] = ended.id
    await storage.save_settings(GuildSettings(1, manager_role_id=77, allowed_channels=[10, 11], turn_minutes=15,
                                              on_leave="end", threads=False))
    await storage.set_dm_refusal(555, 2_000_000_123.5)
    lesson = await storage.start_tutorial(HOST, "tower", {"game": "tower", "index": 2, "state": {"x": [1, 2]}})
    await storage.save_tutorial(lesson.id, 0, {"game": "tower", "index": 3, "state": {"x": [1, 2, 3]}}, False)
    ids["lesson"] = (await storage.start_tutorial(101, "rage", {"game": "rage", "index": 0, "state": {}})).id
    await storage.close()
    return ids


async def snapshot(storage) -> dict:
    games = [await storage.get_game(g.id) for g in await storage.finished_games(1, 100) + await storage.finished_games(2, 100)
             + await storage.active_games()]
    return {
        "games": sorted((vars(g) for g in games), key=lambda g: g["id"]),
        "actions": {g.id: await storage.actions(g.id) for g in games},
        "ratings": await storage.all_ratings(),  # every ladder's standings and changes, every game's place
        "stats": await storage.user_stats(1, HOST),
        "settings": [await storage.settings(1), await storage.settings(2)],
        "dm": await storage.dm_refusals(),
        "lessons": [vars(await storage.open_tutorial(user, key)) for user, key in ((HOST, "tower"), (101, "rage"))],
    }


def run_copy(source: str, url: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "bot", "db", "copy", "--from", source, "--to", url], cwd=ROOT,
                          capture_output=True, text=True, timeout=120, env={**os.environ, "PYTHONPATH": str(ROOT)})


async def test_copy_moves_everything_and_verifies_by_replay(pg_server, tmp_path):
    source = str(tmp_path / "heistcord.sqlite3")
    ids = await a_server_history(source)
    url = await pg_server.fresh_database()
    done = run_copy(source, url)
    assert done.returncode == 0, done.stderr
    assert "Verified" in done.stdout and "all 6 started games replay" in done.stdout and "2 tables never started" in done.stdout
    sqlite, pg = await Storage(source).open(), await PgStorage(url).open()
    try:
        before, after = await snapshot(sqlite), await snapshot(pg)
        assert len(before["games"]) == 8 and sum(len(a) for a in before["actions"].values()) > 100
        assert after == before
        # The copied games play on: the running one continues, new ids follow the copied ones.
        svc = TableService(pg)
        await play_to_the_end(svc, ids["running"])
        assert (await pg.get_game(ids["running"])).status == "finished"
        # Ann and the normal bot on four ladders (HEIST's table of one is a solo job, never rated).
        assert sum(row[0] == "rating" for row in before["ratings"]) == 2 * 4
        places = [row for row in await pg.all_ratings() if row[0] == "game"]
        assert places[-1][2] == ids["running"] and places[-1][1] == len(places)  # rated after the copied ones
        newer = await svc.open(1, 30, "tower", HOST, "Ann", {}, is_manager=True)
        assert newer.id == max(v for k, v in ids.items() if k != "lesson") + 1
        assert (await pg.start_tutorial(102, "heist", {})).id == ids["lesson"] + 1  # so do new lessons' ids
    finally:
        await sqlite.close()
        await pg.close()
    again = run_copy(source, url)  # the target is no longer empty
    assert again.returncode == 1 and "already has games: copy into an empty database" in again.stderr


async def test_a_copy_that_does_not_replay_writes_nothing(pg_server, tmp_path):
    source = str(tmp_path / "heistcord.sqlite3")
    ids = await a_server_history(source)
    import sqlite3

    with sqlite3.connect(source) as db:  # a state that its log does not lead to
        db.execute("UPDATE games SET state = json_set(state, '$.tampered', 1) WHERE id = ?", (ids["rage"],))
    url = await pg_server.fresh_database()
    done = run_copy(source, url)
    assert done.returncode == 1
    assert f"game #{ids['rage']}: the replayed state differs from the stored one" in done.stderr
    pg = await PgStorage(url).open()
    try:
        assert await pg.pool.fetchval("SELECT COUNT(*) FROM games") == 0
        assert await pg.pool.fetchval("SELECT COUNT(*) FROM actions") == 0
    finally:
        await pg.close()


async def test_the_copy_is_refused_while_a_bot_uses_the_file(pg_server, tmp_path):
    source = str(tmp_path / "heistcord.sqlite3")
    running_bot = await Storage(source).open()  # holds the file's lock, as a running bot does
    try:
        done = run_copy(source, await pg_server.fresh_database())
    finally:
        await running_bot.close()
    assert done.returncode == 1 and "another heistcord process is already using" in done.stderr
    missing = run_copy(str(tmp_path / "nope.sqlite3"), "postgresql://x@127.0.0.1:1/x")
    assert missing.returncode == 2 and "no SQLite database at" in missing.stderr


@pytest.mark.parametrize("argv", [["db"], ["db", "copy"], ["serve"]])
def test_the_command_line_says_how_to_use_it(argv):
    from bot.__main__ import main

    with pytest.raises(SystemExit) if argv == ["db", "copy"] else contextlib.nullcontext():
        assert main(argv) == 2


async def test_the_copy_names_every_column_of_the_schema(tmp_path):
    """A column added by a later migration is copied too (the copy lists its columns)."""
    import sqlite3

    from bot.dbcopy import TABLES
    from bot.storage import Storage

    storage = await Storage(str(tmp_path / "schema.db")).open()
    await storage.close()
    db = sqlite3.connect(str(tmp_path / "schema.db"))
    try:
        for table, columns in TABLES.items():
            assert set(columns) == {row[1] for row in db.execute(f"PRAGMA table_info({table})")}, table
    finally:
        db.close()


# --- issue 27, item 4 ----------------------------------------------------------------------------------------
async def tables_in(url: str) -> list[str]:
    """The tables of the URL's schema (the tests' fresh databases are schemas of their own)."""
    import asyncpg

    conn = await asyncpg.connect(url)
    try:
        return [r["table_name"] for r in await conn.fetch(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() ORDER BY 1")]
    finally:
        await conn.close()


async def test_an_established_database_with_compacted_games_is_copied_and_verified(pg_server, tmp_path):
    """After 30 days the retention drops finished games' states and keeps their logs: the copy replays each such
    game's log to its recorded results (it refused the whole copy: 'moves logged but never started')."""
    source = str(tmp_path / "heistcord.sqlite3")
    ids = await a_server_history(source)
    storage = await Storage(source).open()
    svc = TableService(storage)
    assert await svc.compact(time.time() + (svc.retention_days + 1) * 86400) == 5  # the five finished games
    await storage.close()
    url = await pg_server.fresh_database()
    done = run_copy(source, url)
    assert done.returncode == 0, done.stderr
    assert "Verified" in done.stdout and "the 5 games whose states were dropped" in done.stdout, done.stdout
    assert "all 1 started games replay" in done.stdout, done.stdout
    sqlite, pg = await Storage(source).open(), await PgStorage(url).open()
    try:
        assert await snapshot(pg) == await snapshot(sqlite)
        _, state, _ = await TableService(pg).replay(ids["tower"])  # and the copy still replays them
        assert get_engine("tower").is_terminal(state)
    finally:
        await sqlite.close()
        await pg.close()


async def test_a_compacted_game_whose_log_does_not_lead_to_its_results_is_refused(pg_server, tmp_path):
    source = str(tmp_path / "heistcord.sqlite3")
    ids = await a_server_history(source)
    storage = await Storage(source).open()
    svc = TableService(storage)
    await svc.compact(time.time() + (svc.retention_days + 1) * 86400)
    await storage.close()
    import sqlite3

    with sqlite3.connect(source) as db:  # a recorded score its log does not lead to
        db.execute("DROP TRIGGER results_no_update")
        db.execute("UPDATE results SET score = score + 1 WHERE game_id = ? AND seat = 0", (ids["heist"],))
    url = await pg_server.fresh_database()
    done = run_copy(source, url)
    assert done.returncode == 1
    assert f"game #{ids['heist']}: its log replays to other results than those recorded" in done.stderr, done.stderr
    assert await tables_in(url) == []  # the target is left as it was: not even the schema


async def test_a_refused_copy_leaves_the_target_as_it_was(pg_server, tmp_path):
    source = str(tmp_path / "heistcord.sqlite3")
    ids = await a_server_history(source)
    import sqlite3

    with sqlite3.connect(source) as db:
        db.execute("UPDATE games SET state = json_set(state, '$.tampered', 1) WHERE id = ?", (ids["rage"],))
    url = await pg_server.fresh_database()
    assert run_copy(source, url).returncode == 1
    assert await tables_in(url) == []  # (the schema was created outside the copy's transaction, and left behind)


async def test_rows_are_compared_value_by_value(pg_server, tmp_path):
    """A row that arrives changed (here a trigger of the target alters every score) is caught: the rows of every
    table are compared, not counted."""
    import asyncpg

    source = str(tmp_path / "heistcord.sqlite3")
    await a_server_history(source)
    url = await pg_server.fresh_database()
    await (await PgStorage(url).open()).close()  # the target has the (empty) schema already
    conn = await asyncpg.connect(url)
    try:
        await conn.execute("CREATE FUNCTION bump() RETURNS trigger LANGUAGE plpgsql AS $$"
                           " BEGIN NEW.score = NEW.score + 1; RETURN NEW; END $$;"
                           " CREATE TRIGGER bump BEFORE INSERT ON results FOR EACH ROW EXECUTE FUNCTION bump()")
    finally:
        await conn.close()
    done = run_copy(source, url)
    assert done.returncode == 1, done.stdout
    assert "results: " in done.stderr and "differ" in done.stderr, done.stderr
    pg = await PgStorage(url).open()
    try:
        assert await pg.pool.fetchval("SELECT COUNT(*) FROM results") == 0
    finally:
        await pg.close()
