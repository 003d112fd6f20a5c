"""SQLite storage (aiosqlite): games, the append-only action log, guild settings
and finished-game results. The schema and its migrations: ``bot/storage_schema.py``; the
lock file, the reading connection and the writer thread: ``bot/storage_sqlite_conn.py``.
The database runs in WAL mode so readers never wait on the single writer.

Every write is one explicit transaction (``BEGIN IMMEDIATE`` ... ``COMMIT``) that is
rolled back on any failure, so a busy, full or failing disk costs one write, never
the connection: the next write starts clean and reads always see the latest data.
A write that cannot get the database within ``write_budget`` seconds (well under
Discord's 3-second reply deadline) raises :class:`StorageError` and changes nothing.
Every write of a game row is a compare-and-set on its revision ``rev``. Game-row
writes go to a writer thread with a connection of its own: one hop per batch, and
writes that arrive together share one transaction, each under its own savepoint
(group commit, see :meth:`Storage.save_game`). Server settings are kept in memory.
"""
from __future__ import annotations

import asyncio
import json
import logging
import sqlite3
import time
from collections.abc import Callable, Iterable
from dataclasses import replace
from typing import Any, TypeVar, cast

import aiosqlite

from bot import rating_store
from bot.ratings import Rating, Standing
from bot.storage_ratings import Ratings
from bot.storage_schema import MIGRATIONS, migrate_sqlite
from bot.storage_shared import (
    _RESULT_INSERT,
    ANSWER_WITHIN,
    READ_BUDGET,
    WRITE_BUDGET,
    Answering,
    ChannelBusyError,
    CommitUnknownError,
    DatabaseInUseError,
    GameRow,
    GameSummary,
    GuildSettings,
    StorageError,
    TutorialRow,
    VersionConflictError,
    _dumps,
    answering,
    current_answering,
    note_saved,
    result_rows,
    wait_budget,
)
from bot.storage_sqlite_conn import SqliteConnections

# What importers took from here before the split (bot/storage_shared.py, bot/storage_schema.py hold them now).
__all__ = ["ANSWER_WITHIN", "MIGRATIONS", "READ_BUDGET", "WRITE_BUDGET", "Answering", "ChannelBusyError",
           "CommitUnknownError", "DatabaseInUseError", "GameRow", "GameSummary", "GuildSettings", "Storage",
           "StorageError", "TutorialRow", "VersionConflictError", "answering", "current_answering", "note_saved",
           "result_rows", "wait_budget"]
ACTIVE = ("lobby", "running")
T = TypeVar("T")
log = logging.getLogger("heistcord.storage")


def _decode_actions(rows: Iterable[Any]) -> list[dict[str, Any]]:
    return [{"seq": r["seq"], "seat": r["seat"], "user_id": r["user_id"],
             "action": json.loads(r["action"]), "at": r["at"]} for r in rows]


class Storage:
    """The SQLite store of games, action logs, settings and results, written by one writer thread."""
    shared = False  # True when other processes write to the same games (PostgreSQL: bot/storage_pg.py)

    def __init__(self, path: str, *, write_budget: float = WRITE_BUDGET) -> None:
        self.path = path
        self.conns = SqliteConnections(path, write_budget)  # the lock file, the reading connection, the writer
        self._writer = self.conns.writer
        self.claim, self.release, self.transaction = self.conns.claim, self.conns.release, self.conns.transaction
        self._settings: dict[int, GuildSettings] = {}  # every guild's settings read so far (we are the only writer)
        self.ratings = Ratings(self._read_ratings, self._write_ratings)

    @property
    def db(self) -> aiosqlite.Connection | None:
        """The reading connection (None while closed; the fault tests put a stand-in here)."""
        return self.conns.db

    @db.setter
    def db(self, db: aiosqlite.Connection | None) -> None:
        self.conns.db = db

    @property
    def write_budget(self) -> float:
        """Seconds a write may wait for the database."""
        return self.conns.write_budget

    @write_budget.setter
    def write_budget(self, seconds: float) -> None:
        self.conns.write_budget = seconds

    @property
    def _db(self) -> aiosqlite.Connection:
        return self.conns.live

    @property
    def batches(self) -> int:
        """Write transactions the writer committed or tried (for the benchmarks)."""
        return self._writer.batches

    async def open(self) -> Storage:
        """Claim the file, connect, migrate the schema and start the writer thread; returns self."""
        await self.conns.open(self.migrate, self.catch_up_ratings)
        return self

    async def close(self) -> None:
        """Finish the writes already asked for, then close both connections and drop the lock."""
        await self.conns.close()

    async def migrate(self) -> int:
        """Bring the schema up to the latest version (each missing migration in order); returns it."""
        return await migrate_sqlite(self._db)

    async def schema_version(self) -> int:
        """The version the database's schema is at (``len(MIGRATIONS)`` once migrated)."""
        async with self._db.execute("SELECT version FROM schema_version") as cur:
            row = await cur.fetchone()
        assert row is not None  # migrate() wrote it
        return row["version"]

    # --- games ----------------------------------------------------------------
    async def create_game(self, guild_id: int, channel_id: int, game_key: str, host_id: int,
                          options: dict[str, Any], seed: int, seats: list[dict[str, Any]]) -> int:
        """A new game in its lobby; returns its id (ChannelBusyError if the channel already has one)."""
        now = time.time()
        try:
            async with self.transaction() as db:
                cur = await db.execute(
                    "INSERT INTO games (guild_id, channel_id, game_key, status, host_id, options, seed, seats,"
                    " created_at, updated_at) VALUES (?, ?, ?, 'lobby', ?, ?, ?, ?, ?, ?)",
                    (guild_id, channel_id, game_key, host_id, _dumps(options), seed, _dumps(seats), now, now),
                )
        except sqlite3.IntegrityError:
            raise ChannelBusyError() from None
        return cur.lastrowid

    async def get_game(self, game_id: int) -> GameRow | None:
        """The game with this id, or None."""
        async with self._db.execute("SELECT * FROM games WHERE id = ?", (game_id,)) as cur:
            row = await cur.fetchone()
        return GameRow.from_row(row) if row else None

    async def game_rev(self, game_id: int) -> int | None:
        """The row's revision (a cheap check of a cached copy); None if there is no such game."""
        async with self._db.execute("SELECT rev FROM games WHERE id = ?", (game_id,)) as cur:
            row = await cur.fetchone()
        return row["rev"] if row else None

    async def active_game_in(self, channel_id: int) -> GameRow | None:
        """The channel's game in its lobby or running, or None."""
        async with self._db.execute(
            "SELECT * FROM games WHERE channel_id = ? AND status IN ('lobby', 'running')", (channel_id,)
        ) as cur:
            row = await cur.fetchone()
        return GameRow.from_row(row) if row else None

    async def active_games(self, guild_id: int | None = None) -> list[GameRow]:
        """Every game in its lobby or running (of one guild if given), oldest first."""
        sql = "SELECT * FROM games WHERE status IN ('lobby', 'running')"
        args: tuple = ()
        if guild_id is not None:
            sql += " AND guild_id = ?"
            args = (guild_id,)
        async with self._db.execute(sql + " ORDER BY id", args) as cur:
            return [GameRow.from_row(r) for r in await cur.fetchall()]

    async def count_active(self) -> int:
        """How many games are in their lobby or running."""
        async with self._db.execute("SELECT COUNT(*) AS n FROM games WHERE status IN ('lobby', 'running')") as cur:
            row = await cur.fetchone()
        assert row is not None  # COUNT(*) always answers one row
        return row["n"]

    async def save_game(self, game_id: int, expected_rev: int, fields: dict[str, Any], *,
                        actions: Iterable[tuple[int, int | None, dict[str, Any]]] = (),
                        expected_version: int | None = None,
                        results: list[tuple[Any, ...]] | None = None) -> int:
        """The one write of a game row: a compare-and-set on ``expected_rev`` that
        stores ``fields``, appends ``actions`` to the log (numbered after
        ``expected_version``, which must still be the row's) and records ``results``,
        all in one transaction. Returns the new revision; raises VersionConflictError if
        the row changed since the caller read it (nothing is stored then).

        Writes that arrive together are committed together (group commit): the
        writer thread takes every write waiting, gives each its own savepoint (a
        conflict or a refused result undoes that write alone) and commits once; each
        caller returns only after that commit, so every write acknowledged is stored.
        A failure of the transaction itself (disk full, I/O error, the database
        locked past the write budget) refuses every write of the batch: StorageError,
        nothing stored."""
        return await self._save(game_id, expected_rev, fields, list(actions), expected_version, results)

    async def _save(self, game_id: int, expected_rev: int | None, fields: dict[str, Any],
                    actions: list[tuple[int, int | None, dict[str, Any]]], expected_version: int | None,
                    results: list[tuple[Any, ...]] | None) -> int:
        if actions and expected_version is None:
            raise ValueError("appending actions needs the expected version")
        if not self._writer.started:
            raise RuntimeError("storage is not open")
        rev = await self._writer.save(game_id, expected_rev, fields, actions, expected_version, results,
                                      wait_budget(self.write_budget))
        note_saved()
        return rev

    async def commit_actions(self, game_id: int, expected_version: int, state: dict[str, Any],
                             actions: Iterable[tuple[int, int | None, dict[str, Any]]], *,
                             expected_rev: int | None = None, **fields: Any) -> int:
        """Append actions and store the new state, atomically, if the game is still at
        ``expected_version`` (and ``expected_rev``). Returns the new version."""
        actions = list(actions)
        await self._save(game_id, expected_rev, {"state": state, **fields}, actions, expected_version, None)
        return expected_version + len(actions)

    async def actions(self, game_id: int) -> list[dict[str, Any]]:
        """A game's whole action log, oldest first (a long log is decoded off the event loop)."""
        async with self._db.execute(
            "SELECT seq, seat, user_id, action, at FROM actions WHERE game_id = ? ORDER BY seq", (game_id,)
        ) as cur:
            rows = cast("list[aiosqlite.Row]", await cur.fetchall())  # a list, typed as Iterable by aiosqlite
        if len(rows) > 64:  # a long log is decoded on a worker thread, not on the event loop
            return await asyncio.to_thread(_decode_actions, rows)
        return _decode_actions(rows)

    async def actions_until(self, game_id: int, version: int) -> list[dict[str, Any]]:
        """The first ``version`` log entries (the moves that led to that version)."""
        async with self._db.execute(
            "SELECT seat, action FROM actions WHERE game_id = ? AND seq <= ? ORDER BY seq", (game_id, version)
        ) as cur:
            return [{"seat": r["seat"], "action": json.loads(r["action"])} for r in await cur.fetchall()]

    async def seat_moved_since(self, game_id: int, seat: int, version: int) -> bool:
        """Whether ``seat`` has a move in the log after ``version``."""
        async with self._db.execute(
            "SELECT 1 FROM actions WHERE game_id = ? AND seq > ? AND seat = ? LIMIT 1", (game_id, version, seat)
        ) as cur:
            return await cur.fetchone() is not None

    # The timer loop's two queries, each term answered by a partial index on running
    # games' deadlines or reminders (migration 5), however many games are stored.
    async def due_deadlines(self, now: float) -> list[GameRow]:
        """Running games whose turn deadline or reminder is at or before ``now``."""
        async with self._db.execute(
            "SELECT * FROM games WHERE id IN ("
            "SELECT id FROM games WHERE status = 'running' AND deadline_at IS NOT NULL AND deadline_at <= ?"
            " UNION SELECT id FROM games WHERE status = 'running' AND reminder_at IS NOT NULL AND reminder_at <= ?"
            ") ORDER BY id", (now, now)
        ) as cur:
            return [GameRow.from_row(r) for r in await cur.fetchall()]

    async def next_timer(self) -> float | None:
        """The earliest turn deadline or reminder of any running game, or None."""
        async with self._db.execute(
            "SELECT (SELECT MIN(deadline_at) FROM games WHERE status = 'running' AND deadline_at IS NOT NULL) AS d,"
            " (SELECT MIN(reminder_at) FROM games WHERE status = 'running' AND reminder_at IS NOT NULL) AS r"
        ) as cur:
            row = await cur.fetchone()
        assert row is not None  # two sub-selects always answer one row
        times = [t for t in (row["d"], row["r"]) if t is not None]
        return min(times) if times else None

    async def game_summaries(self, guild_id: int) -> list[GameSummary]:
        """The guild's games in their lobby or running, oldest first, without their states."""
        async with self._db.execute(
            "SELECT id, guild_id, channel_id, game_key, status, seats, version FROM games"
            " WHERE guild_id = ? AND status IN ('lobby', 'running') ORDER BY id", (guild_id,)
        ) as cur:
            return [GameSummary(r["id"], r["guild_id"], r["channel_id"], r["game_key"], r["status"],
                                json.loads(r["seats"]), r["version"]) for r in await cur.fetchall()]

    async def compact_finished(self, before: float, limit: int = 500) -> int:
        """The retention policy: drop the stored state of up to ``limit`` games that
        finished (or ended after their first move) before ``before``. Their rows,
        results and action logs stay: seed + log replay any of them exactly. Returns
        how many were compacted (call again while it returns ``limit``)."""
        async with self.transaction() as db:
            cur = await db.execute(
                "UPDATE games SET state = NULL, rev = rev + 1 WHERE id IN (SELECT id FROM games"
                " WHERE status IN ('finished', 'ended') AND state IS NOT NULL AND updated_at < ?"
                " AND (status = 'finished' OR version > 0) ORDER BY updated_at LIMIT ?)", (before, limit))
        return cur.rowcount

    async def finished_games(self, guild_id: int, limit: int = 10) -> list[GameRow]:
        """A guild's last ``limit`` finished or ended games, newest first."""
        async with self._db.execute(
            "SELECT * FROM games WHERE guild_id = ? AND status IN ('finished', 'ended') ORDER BY id DESC LIMIT ?",
            (guild_id, limit),
        ) as cur:
            return [GameRow.from_row(r) for r in await cur.fetchall()]

    # --- results and stats -------------------------------------------------------
    @staticmethod
    def result_rows(game: GameRow, results: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
        """Rows for the results table (without the time stamp), for ``save_game``."""
        return result_rows(game, results)

    async def record_results(self, game: GameRow, results: list[dict[str, Any]]) -> None:
        """Record a finished game's result (once: a second time is refused by the schema)."""
        now = time.time()
        async with self.transaction() as db:
            await db.executemany(_RESULT_INSERT, [(*r, now) for r in self.result_rows(game, results)])
            await rating_store.run_aiosqlite(db, rating_store.record_game(game.id, game.guild_id, game.game_key))

    async def user_stats(self, guild_id: int, user_id: int, game_key: str | None = None) -> list[dict[str, Any]]:
        """A player's games, wins and scores per game (of one game if given), bots left out."""
        sql = ("SELECT game_key, COUNT(*) AS played, SUM(won) AS wins, AVG(score) AS avg_score, MAX(score) AS best"
               " FROM results WHERE guild_id = ? AND user_id = ? AND is_bot = 0")
        args: list[Any] = [guild_id, user_id]
        if game_key:
            sql += " AND game_key = ?"
            args.append(game_key)
        async with self._db.execute(sql + " GROUP BY game_key ORDER BY game_key", args) as cur:
            return [dict(r) for r in await cur.fetchall()]

    # --- skill ratings: bot/rating_store.py's procedures, for bot/storage_ratings.py ------------------------
    async def _read_ratings(self, procedure: rating_store.Procedure[T]) -> T:
        return await rating_store.run_aiosqlite(self._db, procedure)

    async def _write_ratings(self, make: Callable[[], rating_store.Procedure[T]]) -> T:
        """A procedure of bot.rating_store in a transaction of its own, on the writer thread (the arithmetic of a
        whole ladder stays off the event loop), after the writes asked for before it."""
        if not self._writer.started:
            raise RuntimeError("storage is not open")
        try:
            return await self._writer.run(make, max(1, int(self.write_budget * 1000)))
        except sqlite3.Error as exc:
            raise StorageError(str(exc)) from exc

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
        """A guild's settings (a copy: change it and ``save_settings`` it). Read once,
        then kept in memory: this process is the database's only writer, and
        ``save_settings`` replaces the kept copy once its write is committed."""
        cached = self._settings.get(guild_id)
        if cached is None:
            async with self._db.execute("SELECT * FROM guild_settings WHERE guild_id = ?", (guild_id,)) as cur:
                row = await cur.fetchone()
            if row is None:
                cached = GuildSettings(guild_id)
            else:
                cached = GuildSettings(guild_id=row["guild_id"], manager_role_id=row["manager_role_id"],
                                       allowed_channels=json.loads(row["allowed_channels"]),
                                       maintenance=bool(row["maintenance"]), turn_minutes=row["turn_minutes"],
                                       on_leave=row["on_leave"], threads=bool(row["threads"]),
                                       bot_level=row["bot_level"])
            cached = self._settings.setdefault(guild_id, cached)
        return replace(cached, allowed_channels=list(cached.allowed_channels))

    async def save_settings(self, s: GuildSettings) -> None:
        """Store a guild's settings (insert or replace)."""
        async with self.transaction() as db:
            await db.execute(
                "INSERT INTO guild_settings (guild_id, manager_role_id, allowed_channels, maintenance, turn_minutes,"
                " on_leave, threads, bot_level) VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (guild_id) DO UPDATE SET"
                " manager_role_id = excluded.manager_role_id, allowed_channels = excluded.allowed_channels,"
                " maintenance = excluded.maintenance, turn_minutes = excluded.turn_minutes,"
                " on_leave = excluded.on_leave, threads = excluded.threads, bot_level = excluded.bot_level",
                (s.guild_id, s.manager_role_id, _dumps(s.allowed_channels), int(s.maintenance), s.turn_minutes,
                 s.on_leave, int(s.threads), s.bot_level),
            )
        self._settings[s.guild_id] = replace(s, allowed_channels=list(s.allowed_channels))

    # --- refused DMs ----------------------------------------------------------------
    async def dm_refusals(self) -> dict[int, float]:
        """``{user_id: until}`` of players not to DM before ``until``."""
        async with self._db.execute("SELECT user_id, until FROM dm_refusals") as cur:
            return {row["user_id"]: row["until"] for row in await cur.fetchall()}

    async def set_dm_refusal(self, user_id: int, until: float | None) -> None:
        """Remember (or, with ``until=None``, forget) that a player's DMs are closed."""
        async with self.transaction() as db:
            if until is None:
                await db.execute("DELETE FROM dm_refusals WHERE user_id = ?", (user_id,))
            else:
                await db.execute("INSERT INTO dm_refusals (user_id, until) VALUES (?, ?) ON CONFLICT (user_id)"
                                 " DO UPDATE SET until = excluded.until", (user_id, until))

    # --- the bot's own notes -----------------------------------------------------------
    async def meta(self, key: str) -> str | None:
        """A value the bot keeps about itself (e.g. ``command_hash``), or None."""
        async with self._db.execute("SELECT value FROM bot_meta WHERE key = ?", (key,)) as cur:
            row = await cur.fetchone()
        return None if row is None else row["value"]

    async def swap_meta(self, key: str, value: str) -> bool:
        """Set ``key`` to ``value``; True if this call changed it (so, across processes, exactly one of several
        setting the same new value at once is told it did)."""
        async with self.transaction() as db:
            cur = await db.execute("INSERT INTO bot_meta (key, value) VALUES (?, ?) ON CONFLICT (key)"
                                   " DO UPDATE SET value = excluded.value WHERE value <> excluded.value", (key, value))
            return cur.rowcount > 0

    async def lease_requests(self, want: int, per_slot: int, slot_seconds: float) -> tuple[int, float]:
        """Requests several processes share out of the global budget: one SQLite process owns its file and the
        whole budget, so this is only used on PostgreSQL (``SharedBudget``)."""
        raise NotImplementedError("one process on SQLite has the whole budget to itself")

    # --- tutorial runs (/game learn) ----------------------------------------------------
    async def start_tutorial(self, user_id: int, game_key: str, run: dict[str, Any]) -> TutorialRow:
        """A new run of a game's tutorial for a learner; their unfinished run of that game, if any, is dropped
        (its buttons then answer that the lesson was started over)."""
        now = time.time()
        async with self.transaction() as db:
            await db.execute("DELETE FROM tutorial_runs WHERE user_id = ? AND game_key = ? AND finished = 0",
                             (user_id, game_key))
            cur = await db.execute("INSERT INTO tutorial_runs (user_id, game_key, run, created_at, updated_at)"
                                   " VALUES (?, ?, ?, ?, ?)", (user_id, game_key, _dumps(run), now, now))
        return TutorialRow(cur.lastrowid, user_id, game_key, run, 0, False, now, now)

    async def tutorial_run(self, run_id: int) -> TutorialRow | None:
        """The tutorial run with this id, or None (started over, or never made)."""
        async with self._db.execute("SELECT * FROM tutorial_runs WHERE id = ?", (run_id,)) as cur:
            row = await cur.fetchone()
        return TutorialRow.from_row(row) if row else None

    async def open_tutorial(self, user_id: int, game_key: str) -> TutorialRow | None:
        """The learner's unfinished run of a game's tutorial, or None."""
        async with self._db.execute("SELECT * FROM tutorial_runs WHERE user_id = ? AND game_key = ? AND finished = 0"
                                    " ORDER BY id DESC LIMIT 1", (user_id, game_key)) as cur:
            row = await cur.fetchone()
        return TutorialRow.from_row(row) if row else None

    async def save_tutorial(self, run_id: int, expected_rev: int, run: dict[str, Any], finished: bool) -> bool:
        """Store a run's new position if it is still at ``expected_rev`` (False: another click got there first)."""
        async with self.transaction() as db:
            cur = await db.execute("UPDATE tutorial_runs SET run = ?, finished = ?, rev = rev + 1, updated_at = ?"
                                   " WHERE id = ? AND rev = ?",
                                   (_dumps(run), int(finished), time.time(), run_id, expected_rev))
        return cur.rowcount == 1

    async def delete_tutorial(self, run_id: int) -> None:
        """Forget a run (the learner quit it)."""
        async with self.transaction() as db:
            await db.execute("DELETE FROM tutorial_runs WHERE id = ?", (run_id,))

    async def knows_game(self, user_id: int, game_key: str) -> bool:
        """Whether a player has finished a game of ``game_key`` (on any server) or started its tutorial."""
        async with self._db.execute(
            "SELECT EXISTS (SELECT 1 FROM results WHERE user_id = ? AND game_key = ?)"
            " OR EXISTS (SELECT 1 FROM tutorial_runs WHERE user_id = ? AND game_key = ?)",
            (user_id, game_key, user_id, game_key),
        ) as cur:
            row = await cur.fetchone()
        return row is not None and bool(row[0])
