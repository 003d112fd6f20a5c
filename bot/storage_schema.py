"""The schema of both stores, as migrations: ``MIGRATIONS[i]`` (SQLite) and ``PG_MIGRATIONS[i]`` (PostgreSQL) take
the database from version ``i`` to ``i + 1``, numbered alike; ``schema_version`` records where it is. Each store
runs them (``migrate_sqlite``, ``migrate_in``, at the end).
"""
from __future__ import annotations

import contextlib
import sqlite3
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import aiosqlite
    import asyncpg

MIGRATION_LOCK = 7_121_300_013  # PostgreSQL's pg_advisory_xact_lock key: one process migrates at a time

MIGRATIONS: list[str] = [
    # 0 -> 1: the first schema.
    """
    CREATE TABLE games (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        guild_id INTEGER NOT NULL,
        channel_id INTEGER NOT NULL,
        game_key TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('lobby', 'running', 'finished', 'ended')),
        host_id INTEGER NOT NULL,
        options TEXT NOT NULL DEFAULT '{}',
        seed INTEGER NOT NULL,
        seats TEXT NOT NULL DEFAULT '[]',
        state TEXT,
        version INTEGER NOT NULL DEFAULT 0,
        lobby_message_id INTEGER,
        board_message_id INTEGER,
        deadline_at REAL,
        reminder_at REAL,
        ended_reason TEXT,
        created_at REAL NOT NULL,
        updated_at REAL NOT NULL
    );
    CREATE UNIQUE INDEX games_one_active_per_channel ON games (channel_id)
        WHERE status IN ('lobby', 'running');
    CREATE INDEX games_guild_status ON games (guild_id, status);
    CREATE INDEX games_deadline ON games (deadline_at) WHERE deadline_at IS NOT NULL;

    CREATE TABLE actions (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        game_id INTEGER NOT NULL REFERENCES games (id),
        seq INTEGER NOT NULL,
        seat INTEGER NOT NULL,
        user_id INTEGER,
        action TEXT NOT NULL,
        at REAL NOT NULL,
        UNIQUE (game_id, seq)
    );
    CREATE TRIGGER actions_no_update BEFORE UPDATE ON actions
        BEGIN SELECT RAISE(ABORT, 'the action log is append-only'); END;
    CREATE TRIGGER actions_no_delete BEFORE DELETE ON actions
        BEGIN SELECT RAISE(ABORT, 'the action log is append-only'); END;

    CREATE TABLE guild_settings (
        guild_id INTEGER PRIMARY KEY,
        manager_role_id INTEGER,
        allowed_channels TEXT NOT NULL DEFAULT '[]',
        maintenance INTEGER NOT NULL DEFAULT 0,
        turn_minutes INTEGER,
        on_leave TEXT NOT NULL DEFAULT 'bot'
    );

    CREATE TABLE results (
        game_id INTEGER NOT NULL REFERENCES games (id),
        guild_id INTEGER NOT NULL,
        game_key TEXT NOT NULL,
        seat INTEGER NOT NULL,
        user_id INTEGER,
        name TEXT NOT NULL DEFAULT '',
        is_bot INTEGER NOT NULL DEFAULT 0,
        score REAL NOT NULL,
        rank INTEGER NOT NULL,
        won INTEGER NOT NULL,
        finished_at REAL NOT NULL,
        PRIMARY KEY (game_id, seat)
    );
    CREATE INDEX results_guild_game ON results (guild_id, game_key);
    """,
    # 1 -> 2: players whose DMs Discord refused (50007), not DMed again until ``until``.
    """
    CREATE TABLE dm_refusals (
        user_id INTEGER PRIMARY KEY,
        until REAL NOT NULL
    );
    """,
    # 2 -> 3: tables in threads. A running game moves into a thread made from its lobby
    # message: channel_id becomes the thread, parent_channel_id keeps the channel it came from.
    """
    ALTER TABLE games ADD COLUMN parent_channel_id INTEGER;
    ALTER TABLE guild_settings ADD COLUMN threads INTEGER NOT NULL DEFAULT 1;
    """,
    # 3 -> 4: every write of a game row is a compare-and-set on ``rev`` (the move
    # count ``version`` stays what panels and the action log number); a game's
    # result is recorded once, for a finished game, and never changed.
    """
    ALTER TABLE games ADD COLUMN rev INTEGER NOT NULL DEFAULT 0;
    CREATE TRIGGER results_for_finished_games BEFORE INSERT ON results
        WHEN (SELECT status FROM games WHERE id = NEW.game_id) IS NOT 'finished'
        BEGIN SELECT RAISE(ABORT, 'results are recorded for finished games only'); END;
    CREATE TRIGGER results_recorded_once BEFORE INSERT ON results
        WHEN EXISTS (SELECT 1 FROM results WHERE game_id = NEW.game_id AND finished_at <> NEW.finished_at)
        BEGIN SELECT RAISE(ABORT, 'a game''s result is recorded once'); END;
    CREATE TRIGGER results_no_update BEFORE UPDATE ON results
        BEGIN SELECT RAISE(ABORT, 'a game''s result is recorded once'); END;
    CREATE TRIGGER results_no_delete BEFORE DELETE ON results
        BEGIN SELECT RAISE(ABORT, 'a game''s result is recorded once'); END;
    """,
    # 4 -> 5: the timer loop's queries and the retention of finished games use indexes,
    # not a scan of every game ever stored.
    """
    CREATE INDEX games_running_deadline ON games (deadline_at)
        WHERE status = 'running' AND deadline_at IS NOT NULL;
    CREATE INDEX games_running_reminder ON games (reminder_at)
        WHERE status = 'running' AND reminder_at IS NOT NULL;
    CREATE INDEX games_over_with_state ON games (updated_at)
        WHERE status IN ('finished', 'ended') AND state IS NOT NULL;
    """,
    # 5 -> 6: the level of the bot that plays a timed-out or departed player's seat.
    """
    ALTER TABLE guild_settings ADD COLUMN bot_level TEXT NOT NULL DEFAULT 'normal';
    """,
    # 6 -> 7: tutorial runs (/game learn): where each learner is in a game's tutorial (bot.teach.TutorialRun's
    # JSON), so a lesson carries on after a restart; and results by player, to tell whether someone has played a
    # game before (the tutorial is offered at their first table of it).
    """
    CREATE TABLE tutorial_runs (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        user_id INTEGER NOT NULL,
        game_key TEXT NOT NULL,
        run TEXT NOT NULL,
        rev INTEGER NOT NULL DEFAULT 0,
        finished INTEGER NOT NULL DEFAULT 0,
        created_at REAL NOT NULL,
        updated_at REAL NOT NULL
    );
    CREATE INDEX tutorial_runs_user_game ON tutorial_runs (user_id, game_key);
    CREATE INDEX results_user_game ON results (user_id, game_key);
    """,
    # 7 -> 8: skill ratings (bot/ratings.py; the tables are described in bot/rating_store.py): seasons, every
    # finished game's place on its ladder, each player's standing, each rated seat's change. The games finished
    # before wait on their ladders ('pending', in the order they finished) and are rated as the storage opens.
    """
    CREATE TABLE rating_seasons (
        guild_id INTEGER NOT NULL,
        season INTEGER NOT NULL,
        started_at REAL NOT NULL,
        PRIMARY KEY (guild_id, season)
    );
    CREATE TABLE rated_games (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        game_id INTEGER NOT NULL UNIQUE REFERENCES games (id),
        guild_id INTEGER NOT NULL,
        game_key TEXT NOT NULL,
        season INTEGER NOT NULL,
        status TEXT NOT NULL
    );
    CREATE INDEX rated_games_ladder ON rated_games (guild_id, game_key, season, seq);
    CREATE INDEX rated_games_pending ON rated_games (seq) WHERE status = 'pending';
    CREATE TABLE ratings (
        guild_id INTEGER NOT NULL,
        game_key TEXT NOT NULL,
        season INTEGER NOT NULL,
        player TEXT NOT NULL,
        name TEXT NOT NULL,
        mu REAL NOT NULL,
        sigma REAL NOT NULL,
        games INTEGER NOT NULL,
        wins INTEGER NOT NULL,
        PRIMARY KEY (guild_id, game_key, season, player)
    );
    CREATE TABLE rating_changes (
        game_id INTEGER NOT NULL REFERENCES games (id),
        seat INTEGER NOT NULL,
        guild_id INTEGER NOT NULL,
        game_key TEXT NOT NULL,
        season INTEGER NOT NULL,
        seq INTEGER NOT NULL,
        player TEXT NOT NULL,
        side INTEGER NOT NULL,
        rank INTEGER NOT NULL,
        won INTEGER NOT NULL,
        mu_before REAL NOT NULL,
        sigma_before REAL NOT NULL,
        mu_after REAL NOT NULL,
        sigma_after REAL NOT NULL,
        games INTEGER NOT NULL,
        PRIMARY KEY (game_id, seat)
    );
    CREATE INDEX rating_changes_player ON rating_changes (guild_id, game_key, season, player, seq);
    INSERT INTO rated_games (seq, game_id, guild_id, game_key, season, status)
        SELECT ROW_NUMBER() OVER (ORDER BY MIN(finished_at), game_id), game_id, guild_id, game_key, 1, 'pending'
        FROM results GROUP BY game_id, guild_id, game_key;
    """,
    # 8 -> 9: what the bot keeps about itself (the hash of the slash commands last synced with Discord), and
    # the requests processes lease from the global budget (PostgreSQL only: one SQLite process needs none).
    """
    CREATE TABLE bot_meta (
        key TEXT PRIMARY KEY,
        value TEXT NOT NULL
    );
    CREATE TABLE request_leases (
        slot INTEGER PRIMARY KEY,
        used INTEGER NOT NULL,
        granted INTEGER NOT NULL
    );
    """,
]

PG_MIGRATIONS: list[str] = [
    # 0 -> 1: the first schema.
    """
    CREATE TABLE games (
        id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
        guild_id BIGINT NOT NULL,
        channel_id BIGINT NOT NULL,
        game_key TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('lobby', 'running', 'finished', 'ended')),
        host_id BIGINT NOT NULL,
        options TEXT NOT NULL DEFAULT '{}',
        seed BIGINT NOT NULL,
        seats TEXT NOT NULL DEFAULT '[]',
        state TEXT,
        version INTEGER NOT NULL DEFAULT 0,
        lobby_message_id BIGINT,
        board_message_id BIGINT,
        deadline_at DOUBLE PRECISION,
        reminder_at DOUBLE PRECISION,
        ended_reason TEXT,
        created_at DOUBLE PRECISION NOT NULL,
        updated_at DOUBLE PRECISION NOT NULL
    );
    CREATE UNIQUE INDEX games_one_active_per_channel ON games (channel_id)
        WHERE status IN ('lobby', 'running');
    CREATE INDEX games_guild_status ON games (guild_id, status);
    CREATE INDEX games_deadline ON games (deadline_at) WHERE deadline_at IS NOT NULL;

    CREATE TABLE actions (
        id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
        game_id BIGINT NOT NULL REFERENCES games (id),
        seq INTEGER NOT NULL,
        seat INTEGER NOT NULL,
        user_id BIGINT,
        action TEXT NOT NULL,
        at DOUBLE PRECISION NOT NULL,
        UNIQUE (game_id, seq)
    );
    CREATE FUNCTION heistcord_actions_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN RAISE EXCEPTION 'the action log is append-only'; END $$;
    CREATE TRIGGER actions_no_update_or_delete BEFORE UPDATE OR DELETE ON actions
        FOR EACH ROW EXECUTE FUNCTION heistcord_actions_append_only();
    CREATE TRIGGER actions_no_truncate BEFORE TRUNCATE ON actions
        FOR EACH STATEMENT EXECUTE FUNCTION heistcord_actions_append_only();

    CREATE TABLE guild_settings (
        guild_id BIGINT PRIMARY KEY,
        manager_role_id BIGINT,
        allowed_channels TEXT NOT NULL DEFAULT '[]',
        maintenance INTEGER NOT NULL DEFAULT 0,
        turn_minutes INTEGER,
        on_leave TEXT NOT NULL DEFAULT 'bot'
    );

    CREATE TABLE results (
        game_id BIGINT NOT NULL REFERENCES games (id),
        guild_id BIGINT NOT NULL,
        game_key TEXT NOT NULL,
        seat INTEGER NOT NULL,
        user_id BIGINT,
        name TEXT NOT NULL DEFAULT '',
        is_bot INTEGER NOT NULL DEFAULT 0,
        score DOUBLE PRECISION NOT NULL,
        rank INTEGER NOT NULL,
        won INTEGER NOT NULL,
        finished_at DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (game_id, seat)
    );
    CREATE INDEX results_guild_game ON results (guild_id, game_key);
    """,
    # 1 -> 2: players whose DMs Discord refused (50007), not DMed again until ``until``.
    """
    CREATE TABLE dm_refusals (
        user_id BIGINT PRIMARY KEY,
        until DOUBLE PRECISION NOT NULL
    );
    """,
    # 2 -> 3: tables in threads.
    """
    ALTER TABLE games ADD COLUMN parent_channel_id BIGINT;
    ALTER TABLE guild_settings ADD COLUMN threads INTEGER NOT NULL DEFAULT 1;
    """,
    # 3 -> 4: compare-and-set on ``rev``; a game's result is recorded once, for a
    # finished game, and never changed.
    """
    ALTER TABLE games ADD COLUMN rev INTEGER NOT NULL DEFAULT 0;
    CREATE FUNCTION heistcord_results_insert() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            IF (SELECT status FROM games WHERE id = NEW.game_id) IS DISTINCT FROM 'finished' THEN
                RAISE EXCEPTION 'results are recorded for finished games only';
            END IF;
            IF EXISTS (SELECT 1 FROM results WHERE game_id = NEW.game_id AND finished_at <> NEW.finished_at) THEN
                RAISE EXCEPTION 'a game''s result is recorded once';
            END IF;
            RETURN NEW;
        END $$;
    CREATE FUNCTION heistcord_results_frozen() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN RAISE EXCEPTION 'a game''s result is recorded once'; END $$;
    CREATE TRIGGER results_for_finished_games_once BEFORE INSERT ON results
        FOR EACH ROW EXECUTE FUNCTION heistcord_results_insert();
    CREATE TRIGGER results_no_update_or_delete BEFORE UPDATE OR DELETE ON results
        FOR EACH ROW EXECUTE FUNCTION heistcord_results_frozen();
    CREATE TRIGGER results_no_truncate BEFORE TRUNCATE ON results
        FOR EACH STATEMENT EXECUTE FUNCTION heistcord_results_frozen();
    """,
    # 4 -> 5: the timer loop's queries and the retention of finished games use indexes.
    MIGRATIONS[4],
    # 5 -> 6: the level of the bot that plays a timed-out or departed player's seat.
    MIGRATIONS[5],
    # 6 -> 7: tutorial runs (/game learn), and results by player.
    """
    CREATE TABLE tutorial_runs (
        id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
        user_id BIGINT NOT NULL,
        game_key TEXT NOT NULL,
        run TEXT NOT NULL,
        rev INTEGER NOT NULL DEFAULT 0,
        finished INTEGER NOT NULL DEFAULT 0,
        created_at DOUBLE PRECISION NOT NULL,
        updated_at DOUBLE PRECISION NOT NULL
    );
    CREATE INDEX tutorial_runs_user_game ON tutorial_runs (user_id, game_key);
    CREATE INDEX results_user_game ON results (user_id, game_key);
    """,
    # 7 -> 8: skill ratings, as on SQLite; the ladder's order is an identity column, set past the numbers the
    # games stored before were given.
    """
    CREATE TABLE rating_seasons (
        guild_id BIGINT NOT NULL,
        season INTEGER NOT NULL,
        started_at DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (guild_id, season)
    );
    CREATE TABLE rated_games (
        seq BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
        game_id BIGINT NOT NULL UNIQUE REFERENCES games (id),
        guild_id BIGINT NOT NULL,
        game_key TEXT NOT NULL,
        season INTEGER NOT NULL,
        status TEXT NOT NULL
    );
    CREATE INDEX rated_games_ladder ON rated_games (guild_id, game_key, season, seq);
    CREATE INDEX rated_games_pending ON rated_games (seq) WHERE status = 'pending';
    CREATE TABLE ratings (
        guild_id BIGINT NOT NULL,
        game_key TEXT NOT NULL,
        season INTEGER NOT NULL,
        player TEXT NOT NULL,
        name TEXT NOT NULL,
        mu DOUBLE PRECISION NOT NULL,
        sigma DOUBLE PRECISION NOT NULL,
        games INTEGER NOT NULL,
        wins INTEGER NOT NULL,
        PRIMARY KEY (guild_id, game_key, season, player)
    );
    CREATE TABLE rating_changes (
        game_id BIGINT NOT NULL REFERENCES games (id),
        seat INTEGER NOT NULL,
        guild_id BIGINT NOT NULL,
        game_key TEXT NOT NULL,
        season INTEGER NOT NULL,
        seq BIGINT NOT NULL,
        player TEXT NOT NULL,
        side INTEGER NOT NULL,
        rank INTEGER NOT NULL,
        won INTEGER NOT NULL,
        mu_before DOUBLE PRECISION NOT NULL,
        sigma_before DOUBLE PRECISION NOT NULL,
        mu_after DOUBLE PRECISION NOT NULL,
        sigma_after DOUBLE PRECISION NOT NULL,
        games INTEGER NOT NULL,
        PRIMARY KEY (game_id, seat)
    );
    CREATE INDEX rating_changes_player ON rating_changes (guild_id, game_key, season, player, seq);
    INSERT INTO rated_games (seq, game_id, guild_id, game_key, season, status)
        SELECT ROW_NUMBER() OVER (ORDER BY MIN(finished_at), game_id), game_id, guild_id, game_key, 1, 'pending'
        FROM results GROUP BY game_id, guild_id, game_key;
    SELECT setval(pg_get_serial_sequence('rated_games', 'seq'), COALESCE((SELECT MAX(seq) FROM rated_games), 0) + 1,
                  false);
    """,
    # 8 -> 9: the bot's own notes (the slash commands' hash) and the requests leased from the global budget
    # (unlogged: a lease matters for a quarter of a second, never after a crash).
    """
    CREATE TABLE bot_meta (
        key TEXT PRIMARY KEY,
        value TEXT NOT NULL
    );
    CREATE UNLOGGED TABLE request_leases (
        slot BIGINT PRIMARY KEY,
        used INTEGER NOT NULL,
        granted INTEGER NOT NULL
    );
    """,
]

assert len(PG_MIGRATIONS) == len(MIGRATIONS), "PostgreSQL and SQLite migrations are numbered alike"


async def migrate_sqlite(db: aiosqlite.Connection) -> int:
    """Bring a SQLite database's schema up to the latest version (each missing migration in order); returns it."""
    await db.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
    async with db.execute("SELECT version FROM schema_version") as cur:
        row = await cur.fetchone()
    version = row["version"] if row else 0
    if row is None:
        await db.execute("INSERT INTO schema_version (version) VALUES (0)")
    for target in range(version, len(MIGRATIONS)):
        try:
            stamp = f"; UPDATE schema_version SET version = {target + 1}; COMMIT;"
            await db.executescript("BEGIN;" + MIGRATIONS[target] + stamp)
        except BaseException:
            with contextlib.suppress(sqlite3.Error):
                await db.execute("ROLLBACK")
            raise
    return len(MIGRATIONS)


async def migrate_in(conn: asyncpg.Connection) -> int:
    """Bring the schema up to date within the transaction ``conn`` is in (rolled back with it), under an
    advisory lock so that one process migrates at a time; returns the version."""
    await conn.execute("SELECT pg_advisory_xact_lock($1)", MIGRATION_LOCK)
    await conn.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
    version = await conn.fetchval("SELECT version FROM schema_version")
    if version is None:
        await conn.execute("INSERT INTO schema_version (version) VALUES (0)")
        version = 0
    for target in range(version, len(PG_MIGRATIONS)):
        await conn.execute(PG_MIGRATIONS[target])
        await conn.execute("UPDATE schema_version SET version = $1", target + 1)
    return len(PG_MIGRATIONS)
