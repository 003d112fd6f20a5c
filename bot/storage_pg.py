"""PostgreSQL storage (asyncpg, a connection pool): the same interface, schema,
migration versions and guarantees as the SQLite :class:`bot.storage.Storage`, for
several bot processes sharing one set of games.

* ``PG_MIGRATIONS[i]`` takes the database from version ``i`` to ``i + 1``, numbered as
  SQLite's ``MIGRATIONS``; processes starting together migrate once (an advisory lock).
* The append-only guarantees are the database's: triggers refuse to update, delete or
  truncate the action log, record a result for a game that is not finished, record a
  game's result twice, or change or delete a result.
* Every write of a game row is a compare-and-set on ``rev`` (``UPDATE ... WHERE rev = $n``;
  under READ COMMITTED a racing second writer waits for the first, re-reads the row and
  matches nothing), so two processes can never both apply a move.
* Reads and write transactions within their budgets, a COMMIT in doubt: ``bot/storage_pg_pool.py``.
* There is no lock file: any number of processes may use the database (``claim`` is a no-op).
"""
from __future__ import annotations

import json
import random
import time
from collections.abc import Callable, Iterable
from typing import Any, TypeVar

import asyncpg

from bot import rating_store
from bot.dburl import redact
from bot.ratings import Rating, Standing
from bot.storage_pg_pool import NotStoredError, PgConnections, _storage_failure
from bot.storage_ratings import Ratings
from bot.storage_schema import PG_MIGRATIONS, migrate_in
from bot.storage_shared import (
    _RESULT_INSERT,
    WRITE_BUDGET,
    ChannelBusyError,
    CommitUnknownError,
    GameRow,
    GameSummary,
    GuildSettings,
    StorageError,
    TutorialRow,
    VersionConflictError,
    _dumps,
    result_rows,
)

# Names importers take from here (PG_MIGRATIONS, migrate_in: bot/storage_schema.py).
__all__ = ["PG_MIGRATIONS", "NotStoredError", "PgStorage", "migrate_in"]
T = TypeVar("T")

# Columns a caller may set through save_game (the names go into SQL text).
GAME_COLUMNS = frozenset(("status", "host_id", "options", "seats", "state", "lobby_message_id", "board_message_id",
                          "deadline_at", "reminder_at", "ended_reason", "channel_id", "parent_channel_id",
                          "guild_id", "game_key", "seed"))
_PG_RESULT_INSERT = _RESULT_INSERT.replace("?", "{}").format(*(f"${i}" for i in range(1, 12)))


def _game(row: asyncpg.Record | None) -> GameRow | None:
    return GameRow.from_row(row) if row is not None else None


class PgStorage:
    """The store on PostgreSQL (``bot.storage_protocol.StorageProtocol``, as the SQLite ``bot.storage.Storage``).
    Shared by many processes."""

    shared = True  # other processes write to the same games: a cached row is never trusted

    def __init__(self, url: str, *, write_budget: float = WRITE_BUDGET, min_size: int = 2,
                 max_size: int = 10) -> None:
        self.path = redact(url)  # where the data is, for messages (without the password)
        self.url = url
        self.conns = PgConnections(url, write_budget=write_budget, min_size=min_size, max_size=max_size)
        self._read, self._reading, self.transaction = self.conns.read, self.conns.reading, self.conns.transaction
        self.ratings = Ratings(self._read_ratings, self._write_ratings)

    # --- life cycle -------------------------------------------------------------
    def claim(self) -> None:
        """Nothing to claim: any number of processes share a PostgreSQL database."""

    def release(self) -> None:
        """Nothing to release: PostgreSQL lets several processes share a database."""

    async def open(self) -> PgStorage:
        """Connect a pool and migrate the schema, within ``OPEN_BUDGET`` seconds; returns self. StorageError in
        one line saying where (the password hidden) and what to do, if it can't."""
        await self.conns.open(self.migrate)
        try:  # games finished before the ratings existed, or left unrated by a failure: rated now (no budget)
            await self.catch_up_ratings()
        except BaseException:
            await self.close()
            raise
        return self

    async def close(self) -> None:
        """Close the connection pool."""
        await self.conns.close()

    @property
    def pool(self) -> asyncpg.Pool | None:
        """The connection pool (None while closed)."""
        return self.conns.pool

    @property
    def write_budget(self) -> float:
        """Seconds a write may wait for the database."""
        return self.conns.write_budget

    @write_budget.setter
    def write_budget(self, seconds: float) -> None:
        self.conns.write_budget = seconds

    async def migrate(self) -> int:
        """As on SQLite, under an advisory lock so that one process migrates at a time."""
        async with self.conns.live.acquire() as conn, conn.transaction():
            return await migrate_in(conn)

    async def schema_version(self) -> int:
        """The version the database's schema is at."""
        return await self._read("fetchval", "SELECT version FROM schema_version")

    # --- games ----------------------------------------------------------------
    async def create_game(self, guild_id: int, channel_id: int, game_key: str, host_id: int,
                          options: dict[str, Any], seed: int, seats: list[dict[str, Any]]) -> int:
        """A new game in its lobby; returns its id (ChannelBusyError if the channel already has one)."""
        now = time.time()

        async def landed() -> int:
            """The new game's id if it was stored, after its COMMIT was in doubt."""
            game_id = await self._read("fetchval", "SELECT id FROM games WHERE channel_id = $1 AND created_at = $2"
                                       " AND host_id = $3", channel_id, now, host_id)
            if game_id is None:
                raise NotStoredError("that was not saved")
            return game_id

        try:
            async with self.transaction(verify=landed) as db:
                return await db.fetchval(
                    "INSERT INTO games (guild_id, channel_id, game_key, status, host_id, options, seed, seats,"
                    " created_at, updated_at) VALUES ($1, $2, $3, 'lobby', $4, $5, $6, $7, $8, $9) RETURNING id",
                    guild_id, channel_id, game_key, host_id, _dumps(options), seed, _dumps(seats), now, now)
        except asyncpg.UniqueViolationError:
            raise ChannelBusyError() from None
        except CommitUnknownError as unknown:
            return await unknown.settle()

    async def get_game(self, game_id: int) -> GameRow | None:
        """The game with this id, or None."""
        return _game(await self._read("fetchrow", "SELECT * FROM games WHERE id = $1", game_id))

    async def game_rev(self, game_id: int) -> int | None:
        """The row's revision (a cheap check of a cached copy); None if there is no such game."""
        return await self._read("fetchval", "SELECT rev FROM games WHERE id = $1", game_id)

    async def active_game_in(self, channel_id: int) -> GameRow | None:
        """The channel's game in its lobby or running, or None."""
        return _game(await self._read(
            "fetchrow", "SELECT * FROM games WHERE channel_id = $1 AND status IN ('lobby', 'running')", channel_id))

    async def active_games(self, guild_id: int | None = None) -> list[GameRow]:
        """Every game in its lobby or running (of one guild if given), oldest first."""
        if guild_id is None:
            rows = await self._read("fetch", "SELECT * FROM games WHERE status IN ('lobby', 'running') ORDER BY id")
        else:
            rows = await self._read("fetch", "SELECT * FROM games WHERE status IN ('lobby', 'running')"
                                    " AND guild_id = $1 ORDER BY id", guild_id)
        return [GameRow.from_row(r) for r in rows]

    async def count_active(self) -> int:
        """How many games are in their lobby or running."""
        return await self._read("fetchval", "SELECT COUNT(*) FROM games WHERE status IN ('lobby', 'running')")

    async def save_game(self, game_id: int, expected_rev: int | None, fields: dict[str, Any], *,
                        actions: Iterable[tuple[int, int | None, dict[str, Any]]] = (),
                        expected_version: int | None = None,
                        results: list[tuple[Any, ...]] | None = None) -> int:
        """As :meth:`Storage.save_game`: a compare-and-set on ``expected_rev`` storing
        ``fields``, the log entries and the results in one transaction."""
        actions = list(actions)
        now = time.time()
        args: list[Any] = [now]
        sets = ["rev = rev + 1", "updated_at = $1"]
        for key, value in fields.items():
            if key not in GAME_COLUMNS:
                raise ValueError(f"not a game column: {key}")
            if key in ("options", "seats", "state"):
                value = None if value is None else _dumps(value)
            args.append(value)
            sets.append(f"{key} = ${len(args)}")
        if actions:
            if expected_version is None:
                raise ValueError("appending actions needs the expected version")
            args.append(len(actions))
            sets.append(f"version = version + ${len(args)}")
        args.append(game_id)
        where = f"id = ${len(args)}"
        if expected_rev is not None:
            args.append(expected_rev)
            where += f" AND rev = ${len(args)}"
        if expected_version is not None:
            args.append(expected_version)
            where += f" AND version = ${len(args)}"
        async def landed() -> int:
            """Whether this write was stored, after its COMMIT was in doubt: its log entry or its stamp is there."""
            row = await self._read("fetchrow", "SELECT rev, updated_at FROM games WHERE id = $1", game_id)
            if actions:
                stored = await self._read("fetchval", "SELECT at FROM actions WHERE game_id = $1 AND seq = $2",
                                          game_id, (expected_version or 0) + 1) == now
            else:
                stored = row is not None and row["updated_at"] == now
            if not stored:
                raise NotStoredError("that was not saved")
            if expected_rev is not None and row["rev"] != expected_rev + 1:
                raise VersionConflictError()  # stored, then changed again by another process: reload it
            return row["rev"]

        try:
            async with self.transaction(verify=landed) as db:
                new_rev = await db.fetchval(f"UPDATE games SET {', '.join(sets)} WHERE {where} RETURNING rev", *args)
                if new_rev is None:
                    raise VersionConflictError()
                if actions:
                    assert expected_version is not None  # checked above
                    await db.executemany(
                        "INSERT INTO actions (game_id, seq, seat, user_id, action, at) VALUES ($1, $2, $3, $4, $5, $6)",
                        [(game_id, expected_version + i + 1, seat, user, _dumps(action), now)
                         for i, (seat, user, action) in enumerate(actions)])
                if results:
                    await db.executemany(_PG_RESULT_INSERT, [(*r, now) for r in results])
                    guild_id, game_key = results[0][1:3]  # rated in the same transaction
                    await rating_store.run_pg(db, rating_store.record_game(game_id, guild_id, game_key))
        except CommitUnknownError as unknown:
            return await unknown.settle()  # found out now if the database answers; else the caller learns later
        return new_rev

    async def commit_actions(self, game_id: int, expected_version: int, state: dict[str, Any],
                             actions: Iterable[tuple[int, int | None, dict[str, Any]]], *,
                             expected_rev: int | None = None, **fields: Any) -> int:
        """As :meth:`Storage.commit_actions`: the log entries and the new state, if the
        game is still at ``expected_version`` (and ``expected_rev``)."""
        actions = list(actions)
        await self.save_game(game_id, expected_rev, {"state": state, **fields}, actions=actions,
                             expected_version=expected_version)
        return expected_version + len(actions)

    async def actions(self, game_id: int) -> list[dict[str, Any]]:
        """A game's whole action log, oldest first."""
        rows = await self._read(
            "fetch", "SELECT seq, seat, user_id, action, at FROM actions WHERE game_id = $1 ORDER BY seq", game_id)
        return [{"seq": r["seq"], "seat": r["seat"], "user_id": r["user_id"],
                 "action": json.loads(r["action"]), "at": r["at"]} for r in rows]

    async def actions_until(self, game_id: int, version: int) -> list[dict[str, Any]]:
        """The first ``version`` log entries (the moves that led to that version)."""
        rows = await self._read(
            "fetch", "SELECT seat, action FROM actions WHERE game_id = $1 AND seq <= $2 ORDER BY seq", game_id, version)
        return [{"seat": r["seat"], "action": json.loads(r["action"])} for r in rows]

    async def seat_moved_since(self, game_id: int, seat: int, version: int) -> bool:
        """Whether ``seat`` has a move in the log after ``version``."""
        return await self._read(
            "fetchval", "SELECT EXISTS (SELECT 1 FROM actions WHERE game_id = $1 AND seq > $2 AND seat = $3)",
            game_id, version, seat)

    async def due_deadlines(self, now: float) -> list[GameRow]:
        """Running games whose turn deadline or reminder is at or before ``now``."""
        # Each term is answered by a partial index on running games (migration 5).
        rows = await self._read(
            "fetch", "SELECT * FROM games WHERE id IN ("
            "SELECT id FROM games WHERE status = 'running' AND deadline_at IS NOT NULL AND deadline_at <= $1"
            " UNION SELECT id FROM games WHERE status = 'running' AND reminder_at IS NOT NULL AND reminder_at <= $1"
            ") ORDER BY id", float(now))
        return [GameRow.from_row(r) for r in rows]

    async def next_timer(self) -> float | None:
        """The earliest turn deadline or reminder of any running game, or None."""
        return await self._read(
            "fetchval",
            "SELECT LEAST((SELECT MIN(deadline_at) FROM games WHERE status = 'running' AND deadline_at IS NOT NULL),"
            " (SELECT MIN(reminder_at) FROM games WHERE status = 'running' AND reminder_at IS NOT NULL))")

    async def game_summaries(self, guild_id: int) -> list[GameSummary]:
        """The guild's games in their lobby or running, oldest first, without their states."""
        rows = await self._read(
            "fetch", "SELECT id, guild_id, channel_id, game_key, status, seats, version FROM games"
            " WHERE guild_id = $1 AND status IN ('lobby', 'running') ORDER BY id", guild_id)
        return [GameSummary(r["id"], r["guild_id"], r["channel_id"], r["game_key"], r["status"],
                            json.loads(r["seats"]), r["version"]) for r in rows]

    async def compact_finished(self, before: float, limit: int = 500) -> int:
        """As on SQLite: drop the state of up to ``limit`` games finished before ``before``; returns how many."""
        async with self.transaction() as db:
            status = await db.execute(
                "UPDATE games SET state = NULL, rev = rev + 1 WHERE id IN (SELECT id FROM games"
                " WHERE status IN ('finished', 'ended') AND state IS NOT NULL AND updated_at < $1"
                " AND (status = 'finished' OR version > 0) ORDER BY updated_at LIMIT $2)", float(before), limit)
        return int(status.split()[-1])

    async def finished_games(self, guild_id: int, limit: int = 10) -> list[GameRow]:
        """A guild's last ``limit`` finished or ended games, newest first."""
        rows = await self._read(
            "fetch", "SELECT * FROM games WHERE guild_id = $1 AND status IN ('finished', 'ended')"
            " ORDER BY id DESC LIMIT $2", guild_id, limit)
        return [GameRow.from_row(r) for r in rows]

    # --- results and stats -------------------------------------------------------
    @staticmethod
    def result_rows(game: GameRow, results: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
        """Rows for the results table (without the time stamp), for ``save_game``."""
        return result_rows(game, results)

    async def record_results(self, game: GameRow, results: list[dict[str, Any]]) -> None:
        """Record a finished game's result (once: a second time is refused by the schema)."""
        now = time.time()
        async with self.transaction() as db:
            await db.executemany(_PG_RESULT_INSERT, [(*r, now) for r in self.result_rows(game, results)])
            await rating_store.run_pg(db, rating_store.record_game(game.id, game.guild_id, game.game_key))

    async def user_stats(self, guild_id: int, user_id: int, game_key: str | None = None) -> list[dict[str, Any]]:
        """A player's games, wins and scores per game (of one game if given), bots left out."""
        sql = ("SELECT game_key, COUNT(*) AS played, SUM(won) AS wins, AVG(score) AS avg_score, MAX(score) AS best"
               " FROM results WHERE guild_id = $1 AND user_id = $2 AND is_bot = 0")
        args: list[Any] = [guild_id, user_id]
        if game_key:
            sql += " AND game_key = $3"
            args.append(game_key)
        rows = await self._read("fetch", sql + " GROUP BY game_key ORDER BY game_key", *args)
        return [dict(r) for r in rows]

    # --- skill ratings: bot/rating_store.py's procedures on a pooled connection, for bot/storage_ratings.py -----
    async def _read_ratings(self, procedure: rating_store.Procedure[T]) -> T:
        """A reading procedure within the read budget, as every read (StorageError if the server doesn't answer)."""
        return await self._reading(lambda conn: rating_store.run_pg(conn, procedure))

    async def _write_ratings(self, make: Callable[[], rating_store.Procedure[T]]) -> T:
        """A procedure in a transaction of its own (no write budget: rebuilding a ladder may take a while; the
        server's ladders are locked meanwhile, so other processes' finished games wait for it)."""
        try:
            async with self.conns.live.acquire() as conn, conn.transaction():
                return await rating_store.run_pg(conn, make())
        except Exception as exc:
            if _storage_failure(exc):
                raise StorageError(str(exc) or type(exc).__name__) from exc
            raise

    async def catch_up_ratings(self) -> int:
        """See :meth:`bot.storage_ratings.Ratings.catch_up_ratings`."""
        return await self.ratings.catch_up_ratings()

    async def rebuild_ratings(self) -> tuple[int, int]:
        """See :meth:`bot.storage_ratings.Ratings.rebuild_ratings`."""
        return await self.ratings.rebuild_ratings()

    async def unrate_game(self, game_id: int, *, undo: bool = False) -> tuple[int, str, int] | None:
        """See :meth:`bot.storage_ratings.Ratings.unrate_game`."""
        return await self.ratings.unrate_game(game_id, undo=undo)

    async def start_season(self, guild_id: int, now: float | None = None) -> int:
        """See :meth:`bot.storage_ratings.Ratings.start_season`."""
        return await self.ratings.start_season(guild_id, now)

    async def current_season(self, guild_id: int) -> int:
        """See :meth:`bot.storage_ratings.Ratings.current_season`."""
        return await self.ratings.current_season(guild_id)

    async def rating_seasons(self, guild_id: int) -> list[tuple[int, float | None]]:
        """See :meth:`bot.storage_ratings.Ratings.rating_seasons`."""
        return await self.ratings.rating_seasons(guild_id)

    async def game_rating(self, game_id: int) -> tuple[str | None, int, list[tuple[Any, ...]]]:
        """See :meth:`bot.storage_ratings.Ratings.game_rating`."""
        return await self.ratings.game_rating(game_id)

    async def ladder(self, guild_id: int, game_key: str, season: int) -> list[tuple[str, Standing]]:
        """See :meth:`bot.storage_ratings.Ratings.ladder`."""
        return await self.ratings.ladder(guild_id, game_key, season)

    async def rating_history(self, guild_id: int, game_key: str, season: int,
                             player: str) -> list[tuple[int, Rating, Rating]]:
        """See :meth:`bot.storage_ratings.Ratings.rating_history`."""
        return await self.ratings.rating_history(guild_id, game_key, season, player)

    async def rating_versus_bots(self, guild_id: int, game_key: str, season: int,
                                 player: str) -> list[tuple[str, int, int, int]]:
        """See :meth:`bot.storage_ratings.Ratings.rating_versus_bots`."""
        return await self.ratings.rating_versus_bots(guild_id, game_key, season, player)

    async def all_ratings(self) -> list[tuple[Any, ...]]:
        """See :meth:`bot.storage_ratings.Ratings.all_ratings`."""
        return await self.ratings.all_ratings()


    # --- guild settings ----------------------------------------------------------
    async def settings(self, guild_id: int) -> GuildSettings:
        """A guild's settings (defaults when it has none stored)."""
        row = await self._read("fetchrow", "SELECT * FROM guild_settings WHERE guild_id = $1", guild_id)
        if row is None:
            return GuildSettings(guild_id)
        return GuildSettings(guild_id=row["guild_id"], manager_role_id=row["manager_role_id"],
                             allowed_channels=json.loads(row["allowed_channels"]),
                             maintenance=bool(row["maintenance"]), turn_minutes=row["turn_minutes"],
                             on_leave=row["on_leave"], threads=bool(row["threads"]), bot_level=row["bot_level"])

    async def save_settings(self, s: GuildSettings) -> None:
        """Store a guild's settings (insert or replace)."""
        async with self.transaction() as db:
            await db.execute(
                "INSERT INTO guild_settings (guild_id, manager_role_id, allowed_channels, maintenance, turn_minutes,"
                " on_leave, threads, bot_level) VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (guild_id)"
                " DO UPDATE SET manager_role_id = excluded.manager_role_id,"
                " allowed_channels = excluded.allowed_channels, maintenance = excluded.maintenance,"
                " turn_minutes = excluded.turn_minutes, on_leave = excluded.on_leave, threads = excluded.threads,"
                " bot_level = excluded.bot_level",
                s.guild_id, s.manager_role_id, _dumps(s.allowed_channels), int(s.maintenance), s.turn_minutes,
                s.on_leave, int(s.threads), s.bot_level)

    # --- refused DMs ----------------------------------------------------------------
    async def dm_refusals(self) -> dict[int, float]:
        """``{user_id: until}`` of players not to DM before ``until``."""
        return {r["user_id"]: r["until"] for r in await self._read("fetch", "SELECT user_id, until FROM dm_refusals")}

    async def set_dm_refusal(self, user_id: int, until: float | None) -> None:
        """Remember (or, with ``until=None``, forget) that a player's DMs are closed."""
        async with self.transaction() as db:
            if until is None:
                await db.execute("DELETE FROM dm_refusals WHERE user_id = $1", user_id)
            else:
                await db.execute("INSERT INTO dm_refusals (user_id, until) VALUES ($1, $2) ON CONFLICT (user_id)"
                                 " DO UPDATE SET until = excluded.until", user_id, float(until))


    # --- the bot's own notes and the shared request budget ---------------------------------
    async def meta(self, key: str) -> str | None:
        """A value the bot keeps about itself (e.g. ``command_hash``), or None."""
        return await self.conns.live.fetchval("SELECT value FROM bot_meta WHERE key = $1", key)

    async def swap_meta(self, key: str, value: str) -> bool:
        """Set ``key`` to ``value``; True if this call changed it: of several processes storing the same new
        value at once, exactly one is told it did (the row lock orders them)."""
        changed = await self.conns.live.fetchval(
            "INSERT INTO bot_meta (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = excluded.value"
            " WHERE bot_meta.value <> excluded.value RETURNING key", key, value)
        return changed is not None

    async def lease_requests(self, want: int, per_slot: int, slot_seconds: float) -> tuple[int, float]:
        """Up to ``want`` requests of the current slot (``slot_seconds`` long, on the database server's clock),
        at most ``per_slot`` for all processes together: ``(granted, seconds left in the slot)``."""
        row = await self.conns.live.fetchrow(
            "WITH c AS (SELECT extract(epoch FROM clock_timestamp())::float8 / $3::float8 AS x)"
            " INSERT INTO request_leases AS l (slot, used, granted)"
            " SELECT floor(x)::bigint, LEAST($1::int, $2::int), LEAST($1::int, $2::int) FROM c"
            " ON CONFLICT (slot) DO UPDATE SET used = LEAST($2::int, l.used + $1::int),"
            " granted = LEAST($2::int, l.used + $1::int) - l.used"
            " RETURNING granted,"
            " (slot + 1) * $3::float8 - extract(epoch FROM clock_timestamp())::float8 AS seconds_left",
            int(want), int(per_slot), float(slot_seconds))
        if row["granted"] and row["seconds_left"] > 0 and random.random() < 0.01:  # now and then, forget old slots
            await self.conns.live.execute("DELETE FROM request_leases WHERE slot < floor(extract(epoch FROM"
                                     " clock_timestamp())::float8 / $1::float8)::bigint - 100", float(slot_seconds))
        return int(row["granted"]), max(0.0, float(row["seconds_left"]))


    # --- tutorial runs (/game learn) ----------------------------------------------------
    async def start_tutorial(self, user_id: int, game_key: str, run: dict[str, Any]) -> TutorialRow:
        """A new run of a game's tutorial for a learner; their unfinished run of that game, if any, is dropped."""
        now = time.time()
        async with self.transaction() as db:
            await db.execute("DELETE FROM tutorial_runs WHERE user_id = $1 AND game_key = $2 AND finished = 0",
                             user_id, game_key)
            run_id = await db.fetchval("INSERT INTO tutorial_runs (user_id, game_key, run, created_at, updated_at)"
                                       " VALUES ($1, $2, $3, $4, $5) RETURNING id",
                                       user_id, game_key, _dumps(run), now, now)
        return TutorialRow(run_id, user_id, game_key, run, 0, False, now, now)

    async def tutorial_run(self, run_id: int) -> TutorialRow | None:
        """The tutorial run with this id, or None."""
        row = await self._read("fetchrow", "SELECT * FROM tutorial_runs WHERE id = $1", run_id)
        return TutorialRow.from_row(row) if row is not None else None

    async def open_tutorial(self, user_id: int, game_key: str) -> TutorialRow | None:
        """The learner's unfinished run of a game's tutorial, or None."""
        row = await self._read("fetchrow", "SELECT * FROM tutorial_runs WHERE user_id = $1 AND game_key = $2"
                               " AND finished = 0 ORDER BY id DESC LIMIT 1", user_id, game_key)
        return TutorialRow.from_row(row) if row is not None else None

    async def save_tutorial(self, run_id: int, expected_rev: int, run: dict[str, Any], finished: bool) -> bool:
        """Store a run's new position if it is still at ``expected_rev`` (False: another click got there first)."""
        async with self.transaction() as db:
            status = await db.execute("UPDATE tutorial_runs SET run = $1, finished = $2, rev = rev + 1,"
                                      " updated_at = $3 WHERE id = $4 AND rev = $5",
                                      _dumps(run), int(finished), time.time(), run_id, expected_rev)
        return status == "UPDATE 1"

    async def delete_tutorial(self, run_id: int) -> None:
        """Forget a run (the learner quit it)."""
        async with self.transaction() as db:
            await db.execute("DELETE FROM tutorial_runs WHERE id = $1", run_id)

    async def knows_game(self, user_id: int, game_key: str) -> bool:
        """Whether a player has finished a game of ``game_key`` (on any server) or started its tutorial."""
        return bool(await self._read(
            "fetchval", "SELECT EXISTS (SELECT 1 FROM results WHERE user_id = $1 AND game_key = $2)"
            " OR EXISTS (SELECT 1 FROM tutorial_runs WHERE user_id = $1 AND game_key = $2)", user_id, game_key))
