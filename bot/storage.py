"""SQLite storage (aiosqlite): games, the append-only action log, guild settings
and finished-game results.

The schema is versioned: ``MIGRATIONS[i]`` takes the database from version ``i``
to ``i + 1`` and ``schema_version`` records where it is. The database runs in WAL
mode so readers never wait on the single writer.

Every write is one explicit transaction (``BEGIN IMMEDIATE`` ... ``COMMIT``) that is
rolled back on any failure, so a busy, full or failing disk costs one write, never
the connection: the next write starts clean and reads always see the latest data.
A write that cannot get the database within ``write_budget`` seconds (well under
Discord's 3-second reply deadline) raises :class:`StorageError` and changes nothing.
Every write of a game row is a compare-and-set on its revision ``rev``. Game-row
writes go to a writer thread with a connection of its own: one hop per batch, and
writes that arrive together share one transaction, each under its own savepoint
(group commit, see :meth:`Storage.save_game`). Server settings are kept in memory.

One process owns a database file: :meth:`Storage.claim` takes an exclusive lock on the
file itself (its inode: the same file through a symlink or a second name is the same lock)
and refuses a second process with :class:`DatabaseInUseError`. SQLite's own locks are
POSIX record locks, which ``flock`` neither takes nor disturbs.
"""
from __future__ import annotations

import asyncio
import contextlib
import fcntl
import json
import logging
import os
import sqlite3
import time
from concurrent.futures import Future, ThreadPoolExecutor
from contextvars import ContextVar
from dataclasses import dataclass, field, replace
from typing import Any, Awaitable, Callable, Iterable, TypeVar, cast

import aiosqlite

from bot import rating_store
from bot.ratings import Rating, Standing

ACTIVE = ("lobby", "running")
T = TypeVar("T")
log = logging.getLogger("heistcord.storage")

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

SQLITE_BUSY = 5  # (and its extended codes, e.g. SQLITE_BUSY_SNAPSHOT 517: a write on a stale read snapshot)
WRITE_BUDGET = 2.0  # seconds a write may wait for the database before giving up
READ_BUDGET = 2.0  # seconds a read may wait for a database server (PostgreSQL) before giving up
ANSWER_WITHIN = 2.0  # seconds an interaction's database waits may take before its first answer (Discord allows 3)


class VersionConflictError(Exception):
    """The game changed since the caller read it (another click got there first)."""


class ChannelBusyError(Exception):
    """The channel already has a game in its lobby or running."""


class StorageError(Exception):
    """A write could not be stored (database locked by another program, disk full,
    I/O error). It was rolled back: nothing changed."""


class CommitUnknownError(StorageError):
    """The database stopped answering after a write's COMMIT was sent: it may or may not have been stored.
    ``await settle()`` finds out (returns the new revision if it was stored, raises StorageError if it was not,
    or CommitUnknownError again while the database still does not answer)."""

    def __init__(self, settle: Callable[[], Awaitable[int]]) -> None:
        super().__init__("the database stopped answering while saving")
        self.settle = settle


class DatabaseInUseError(Exception):
    """Another process is already using this SQLite database file."""


@dataclass
class Answering:
    """An interaction waiting for its first answer: Discord shows "This interaction failed" unless the bot answers
    (or defers) within 3 seconds, so every database wait made for it before then ends by ``deadline`` (loop time)
    with StorageError, leaving time to say so. Once ``answered()`` (the reply or a deferral went out) the waits
    get their own budgets again. ``saved`` records that a write made for it was committed, so that a failure
    after it is never reported as "nothing changed"."""
    deadline: float
    answered: Callable[[], bool]
    saved: bool = False

    def left(self) -> float:
        """Seconds the database may still take before the first answer (infinite once it was answered)."""
        if self.answered():
            return float("inf")
        return self.deadline - asyncio.get_running_loop().time()


_ANSWERING: ContextVar[Answering | None] = ContextVar("heistcord_answering", default=None)


def answering(answered: Callable[[], bool], within: float = ANSWER_WITHIN) -> Answering:
    """Mark the current task as handling an interaction that must be answered: its database waits end within
    ``within`` seconds until ``answered()`` (see :class:`Answering`). Tasks it starts inherit it."""
    current = Answering(asyncio.get_running_loop().time() + within, answered)
    _ANSWERING.set(current)
    return current


def current_answering() -> Answering | None:
    """The interaction the current task is answering, if any."""
    return _ANSWERING.get()


def wait_budget(own: float) -> float:
    """How long a database wait may take: its own budget, or less when an interaction must be answered sooner.
    StorageError at once when that time is already spent."""
    current = _ANSWERING.get()
    if current is None:
        return own
    left = current.left()
    if left <= 0:
        raise StorageError("the database did not answer in time")
    return min(own, left)


def note_saved() -> None:
    """A write was committed for the interaction being answered (if any)."""
    current = _ANSWERING.get()
    if current is not None:
        current.saved = True


@dataclass
class GameRow:
    """One stored game as the table service holds it: lobby, seats, options, engine state and timers."""
    id: int
    guild_id: int
    channel_id: int
    game_key: str
    status: str
    host_id: int
    options: dict[str, Any]
    seed: int
    seats: list[dict[str, Any]]
    state: dict[str, Any] | None
    version: int
    rev: int = 0
    lobby_message_id: int | None = None
    board_message_id: int | None = None
    deadline_at: float | None = None
    reminder_at: float | None = None
    ended_reason: str | None = None
    created_at: float = 0.0
    updated_at: float = 0.0
    parent_channel_id: int | None = None  # the channel the lobby was in, when the game moved into a thread

    @property
    def home_channel_id(self) -> int:
        """Where the table was opened: the parent channel of its thread, or its own channel."""
        return self.parent_channel_id or self.channel_id

    @property
    def started(self) -> bool:
        """The game was set up (it has, or had, a state): a finished game's state may
        have been compacted away by the retention policy, its log replays it."""
        return self.state is not None or self.status == "finished" or self.version > 0

    @classmethod
    def from_row(cls, row: aiosqlite.Row) -> "GameRow":
        """The game of one database row, its JSON columns decoded."""
        data = dict(row)
        data["options"] = json.loads(data["options"])
        data["seats"] = json.loads(data["seats"])
        data["state"] = json.loads(data["state"]) if data["state"] else None
        return cls(**data)


@dataclass
class GameSummary:
    """A game without its state (for lists): nothing to decode but its seats."""
    id: int
    guild_id: int
    channel_id: int
    game_key: str
    status: str
    seats: list[dict[str, Any]]
    version: int


@dataclass
class GuildSettings:
    """One server's settings: who manages games, where they may be played, timers and defaults."""
    guild_id: int
    manager_role_id: int | None = None
    allowed_channels: list[int] = field(default_factory=list)
    maintenance: bool = False
    turn_minutes: int | None = None
    on_leave: str = "bot"  # "bot": a bot player takes the seat; "end": the game ends
    threads: bool = True  # a started game moves into a thread of its own
    bot_level: str = "normal"  # the bot playing a timed-out or departed seat: easy, normal or hard


@dataclass
class TutorialRow:
    """One learner's run through a game's tutorial: ``run`` is ``TutorialRun.to_json()``; every save is a
    compare-and-set on ``rev``, so two clicks on one step never both count."""
    id: int
    user_id: int
    game_key: str
    run: dict[str, Any]
    rev: int = 0
    finished: bool = False
    created_at: float = 0.0
    updated_at: float = 0.0

    @classmethod
    def from_row(cls, row: Any) -> "TutorialRow":
        """The run of one database row, its JSON decoded."""
        data = dict(row)
        data["run"] = json.loads(data["run"])
        data["finished"] = bool(data["finished"])
        return cls(**data)


_RESULT_INSERT = ("INSERT INTO results (game_id, guild_id, game_key, seat, user_id, name, is_bot, score, rank,"
                  " won, finished_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")


def _dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"))


@dataclass
class _Save:
    """One game-row write waiting for the writer (see :meth:`Storage.save_game`)."""
    game_id: int
    expected_rev: int | None  # None: compare-and-set on the version only
    fields: dict[str, Any]
    actions: list[tuple[int, int | None, dict[str, Any]]]
    expected_version: int | None
    results: list[tuple[Any, ...]] | None  # rows of result_rows()
    give_up_at: float  # loop time after which it is refused, unwritten
    future: asyncio.Future


class _RefusedError(Exception):
    """Inside the writer: this save is refused (its savepoint was rolled back)."""

    def __init__(self, error: BaseException) -> None:
        self.error = error


def _decode_actions(rows: Iterable[Any]) -> list[dict[str, Any]]:
    return [{"seq": r["seq"], "seat": r["seat"], "user_id": r["user_id"],
             "action": json.loads(r["action"]), "at": r["at"]} for r in rows]


def _runner(conn: sqlite3.Connection, hook: Any) -> Callable[..., sqlite3.Cursor]:
    """``run(sql, args=(), many=False)`` on the writer's connection, through the fault tests' hook if one is set."""
    def run(sql: str, args: Any = (), many: bool = False) -> sqlite3.Cursor:
        if hook is not None:
            hook(sql)
        return conn.executemany(sql, args) if many else conn.execute(sql, args)

    return run


class Storage:
    """The SQLite store of games, action logs, settings and results, written by one writer thread."""
    shared = False  # True when other processes write to the same games (PostgreSQL: bot/storage_pg.py)

    def __init__(self, path: str, *, write_budget: float = WRITE_BUDGET) -> None:
        self.path = path
        self.write_budget = write_budget
        self.db: aiosqlite.Connection | None = None
        # The reading connection is shared by every coroutine, so a transaction() on it
        # must not interleave with another (a rollback would undo both). The writer's
        # batches use their own connection: SQLite's lock orders them with these.
        self.write_lock = asyncio.Lock()
        self._lock_file: int | None = None
        # Game-row writes go to a second connection on a thread of their own, each
        # batch of waiting writes in one hop and one transaction (see save_game).
        self._writer: ThreadPoolExecutor | None = None
        self._wconn: sqlite3.Connection | None = None
        self._queue: list[_Save] = []
        self._writing = False  # a batch is on the writer thread
        self._idle = asyncio.Event()
        self._idle.set()
        self._busy_ms = -1  # the writer connection's busy timeout
        self._settings: dict[int, GuildSettings] = {}  # every guild's settings read so far (we are the only writer)
        self.batches = 0  # write transactions the writer committed or tried (for the benchmarks)

    def claim(self) -> None:
        """Take the database file for this process (created if it is new), or raise DatabaseInUseError;
        StorageError, saying where, if the file can't be opened for writing."""
        if self._lock_file is not None or self.path == ":memory:" or self.path.startswith("file:"):
            return
        try:
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
        except OSError as exc:
            raise StorageError(f"can't open the SQLite database {self.path} for writing ({exc.strerror}): set"
                               " HEISTCORD_DB to a file in a folder the bot may write to.") from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            raise DatabaseInUseError(f"another heistcord process is already using {self.path};"
                                " stop it first (only one bot may use a SQLite database).") from None
        # Held open until release(), after SQLite's own connections are closed: closing any descriptor of the
        # file drops the process's POSIX locks on it, SQLite's included.
        self._lock_file = fd

    def release(self) -> None:
        """Give the database file back (drop the lock that keeps a second process out)."""
        if self._lock_file is not None:
            os.close(self._lock_file)  # closing the file drops the lock
            self._lock_file = None

    async def open(self) -> "Storage":
        """Claim the file, connect, migrate the schema and start the writer thread; returns self."""
        if self.path == ":memory:":
            raise ValueError("heistcord's storage needs a database file (it opens it twice: reads and writes)")
        self.claim()
        try:
            # Autocommit mode: no transaction is ever opened behind our back, so a read
            # never keeps an old snapshot and a failed write never leaves one open.
            self.db = await aiosqlite.connect(self.path, isolation_level=None)
            self.db.row_factory = aiosqlite.Row
            await self.db.execute("PRAGMA journal_mode=WAL")
            await self.db.execute("PRAGMA synchronous=NORMAL")
            await self.db.execute("PRAGMA foreign_keys=ON")
            await self.migrate()
            self._writer = ThreadPoolExecutor(1, thread_name_prefix="heistcord-db-writer")
            self._wconn = await asyncio.get_running_loop().run_in_executor(self._writer, self._connect_writer)
            await self.catch_up_ratings()
        except BaseException as exc:
            await self.close()
            if isinstance(exc, sqlite3.Error):  # e.g. a read-only file or folder: one line saying where
                raise StorageError(f"can't use the SQLite database {self.path} ({exc}): set HEISTCORD_DB to a file"
                                   " the bot may write to, in a folder it may write to.") from None
            raise
        return self

    def _connect_writer(self) -> sqlite3.Connection:
        conn = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        conn.execute("PRAGMA synchronous=NORMAL")
        conn.execute("PRAGMA foreign_keys=ON")
        return conn

    async def close(self) -> None:
        """Finish the writes already asked for, then close both connections and drop the lock."""
        await self._idle.wait()  # writes already asked for are finished, not dropped
        if self._writer is not None:
            if self._wconn is not None:
                await asyncio.get_running_loop().run_in_executor(self._writer, self._wconn.close)
                self._wconn = None
            self._writer.shutdown(wait=True)
            self._writer = None
        if self.db is not None:
            await self.db.close()
            self.db = None
        self.release()

    async def migrate(self) -> int:
        """Bring the schema up to the latest version (each missing migration in order); returns it."""
        db = self._db
        await db.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
        async with db.execute("SELECT version FROM schema_version") as cur:
            row = await cur.fetchone()
        version = row["version"] if row else 0
        if row is None:
            await db.execute("INSERT INTO schema_version (version) VALUES (0)")
        for target in range(version, len(MIGRATIONS)):
            try:
                await db.executescript("BEGIN;" + MIGRATIONS[target] + f"; UPDATE schema_version SET version = {target + 1}; COMMIT;")
            except BaseException:
                with contextlib.suppress(sqlite3.Error):
                    await db.execute("ROLLBACK")
                raise
        return len(MIGRATIONS)

    async def schema_version(self) -> int:
        """The version the database's schema is at (``len(MIGRATIONS)`` once migrated)."""
        async with self._db.execute("SELECT version FROM schema_version") as cur:
            row = await cur.fetchone()
        assert row is not None  # migrate() wrote it
        return row["version"]

    @property
    def _db(self) -> aiosqlite.Connection:
        if self.db is None:
            raise RuntimeError("storage is not open")
        return self.db

    @contextlib.asynccontextmanager
    async def transaction(self):
        """One write transaction: committed when the block ends, rolled back on any
        failure. Gives up with StorageError after ``write_budget`` seconds of waiting
        for the database (another program holding its write lock)."""
        loop = asyncio.get_running_loop()
        budget = wait_budget(self.write_budget)
        give_up_at = loop.time() + budget
        try:
            async with asyncio.timeout(budget):
                await self.write_lock.acquire()
        except TimeoutError:
            raise StorageError("the database is busy") from None
        try:
            db = self._db
            while True:
                wait_ms = max(1, int((give_up_at - loop.time()) * 1000))
                try:
                    await db.execute(f"PRAGMA busy_timeout = {wait_ms}")
                    await db.execute("BEGIN IMMEDIATE")
                    break
                except sqlite3.Error as exc:
                    # Another task's read on this connection, between its cursor's hops, holds a snapshot: if the
                    # writer thread committed since, or holds the write lock now, SQLite refuses at once (no busy
                    # wait; SQLITE_BUSY_SNAPSHOT or SQLITE_BUSY). It ends at that cursor's next hop: try again.
                    if (getattr(exc, "sqlite_errorcode", None) or 0) & 0xFF != SQLITE_BUSY or loop.time() >= give_up_at:
                        raise StorageError(str(exc)) from exc
                await asyncio.sleep(0.002)
            try:
                yield db
                await db.execute("COMMIT")
                note_saved()
            except BaseException as exc:
                with contextlib.suppress(Exception):
                    await db.execute("ROLLBACK")
                if isinstance(exc, sqlite3.Error) and not isinstance(exc, sqlite3.IntegrityError):
                    raise StorageError(str(exc)) from exc
                raise
        finally:
            self.write_lock.release()

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
        if self._writer is None:
            raise RuntimeError("storage is not open")
        loop = asyncio.get_running_loop()
        request = _Save(game_id, expected_rev, fields, actions, expected_version, results,
                        loop.time() + wait_budget(self.write_budget), loop.create_future())
        self._queue.append(request)
        if not self._writing:
            self._send()
        rev = await request.future
        note_saved()
        return rev

    def _send(self) -> None:
        """Hand every waiting write to the writer thread, as one batch. Its outcome is
        given to each caller by a callback, not by any caller's task, so a caller that
        is cancelled never leaves the others without an answer."""
        loop = asyncio.get_running_loop()
        now = loop.time()
        batch, self._queue = self._queue, []
        live = []
        for request in batch:
            if request.future.done():  # its caller was cancelled before the write: it is not made
                continue
            if request.give_up_at <= now:
                request.future.set_exception(StorageError("the database is busy"))
            else:
                live.append(request)
        if not live:
            self._writing = False
            self._idle.set()
            return
        self._writing = True
        self._idle.clear()
        # SQLite waits this long for another program's write lock: the least budget left, in 0.1 s
        # steps, so the busy timeout is set again only when it changes.
        wait_ms = max(1, int((min(request.give_up_at for request in live) - now) * 10) * 100)
        hook = getattr(self.db, "before_statement", None)  # the fault tests' injected failures
        assert self._writer is not None  # open() started it
        done = self._writer.submit(self._write_batch, live, wait_ms, hook)
        done.add_done_callback(lambda f: self._answer(loop, live, f))

    def _answer(self, loop: asyncio.AbstractEventLoop, live: list[_Save], done: Future) -> None:
        """On the writer thread, once a batch is written: answer on the event loop."""
        with contextlib.suppress(RuntimeError):  # the loop is closed: nobody is waiting any more
            loop.call_soon_threadsafe(self._written, live, done)

    def _written(self, live: list[_Save], done: Future) -> None:
        error = StorageError("the bot is stopping") if done.cancelled() else done.exception()
        if isinstance(error, sqlite3.Error):  # the transaction failed and was rolled back: nothing was stored
            error = StorageError(str(error))
        for i, request in enumerate(live):
            if request.future.done():
                continue
            if error is not None:
                request.future.set_exception(error)
            elif isinstance(outcome := done.result()[i], _RefusedError):
                request.future.set_exception(outcome.error)
            else:
                request.future.set_result(outcome)
        self._send()  # what arrived meanwhile

    def _write_batch(self, batch: list[_Save], wait_ms: int, hook: Any) -> list[Any]:
        """On the writer thread: every write of ``batch`` in one transaction. Returns,
        per write, its new revision or a _RefusedError; raises (all rolled back) if the
        transaction itself fails."""
        conn = self._wconn
        assert conn is not None
        run = _runner(conn, hook)
        if wait_ms != self._busy_ms:
            run(f"PRAGMA busy_timeout = {wait_ms}")
            self._busy_ms = wait_ms
        run("BEGIN IMMEDIATE")
        self.batches += 1
        try:
            outcomes: list[Any] = []
            single = len(batch) == 1
            for i, request in enumerate(batch):
                try:
                    statements = self._statements(request)
                except Exception as exc:  # e.g. a state that isn't JSON: this write alone is refused
                    outcomes.append(_RefusedError(exc))
                    continue
                if not single:
                    run(f"SAVEPOINT w{i}")
                try:
                    for sql, args, many in statements:
                        cur = run(sql, args, many)
                        if sql.startswith("UPDATE") and cur.rowcount != 1:
                            raise VersionConflictError()
                    if request.results:  # the game's rating, in the same transaction as its results
                        guild_id, game_key = request.results[0][1:3]
                        rating_store.run_sync(run, rating_store.record_game(request.game_id, guild_id, game_key))
                except (VersionConflictError, sqlite3.IntegrityError) as exc:
                    if not single:
                        run(f"ROLLBACK TO w{i}")
                        run(f"RELEASE w{i}")
                    outcomes.append(_RefusedError(exc))
                    continue
                if not single:
                    run(f"RELEASE w{i}")
                outcomes.append(None if request.expected_rev is None else request.expected_rev + 1)
            if all(isinstance(o, _RefusedError) for o in outcomes):
                run("ROLLBACK")
            else:
                run("COMMIT")
            return outcomes
        except BaseException:
            if conn.in_transaction:
                with contextlib.suppress(sqlite3.Error):
                    conn.execute("ROLLBACK")
            raise

    @staticmethod
    def _statements(request: _Save) -> list[tuple[str, Any, bool]]:
        """The SQL of one game-row write (its JSON encoded here, on the writer thread)."""
        now = time.time()
        sets, args = ["rev = rev + 1", "updated_at = ?"], [now]
        for key, value in request.fields.items():
            if key in ("options", "seats", "state"):
                value = None if value is None else _dumps(value)
            sets.append(f"{key} = ?")
            args.append(value)
        where, where_args = "id = ?", [request.game_id]
        if request.expected_rev is not None:
            where += " AND rev = ?"
            where_args.append(request.expected_rev)
        if request.actions:
            sets.append("version = version + ?")
            args.append(len(request.actions))
        if request.expected_version is not None:
            where += " AND version = ?"
            where_args.append(request.expected_version)
        statements: list[tuple[str, Any, bool]] = [(f"UPDATE games SET {', '.join(sets)} WHERE {where}", args + where_args, False)]
        if request.actions:
            assert request.expected_version is not None  # _save refuses actions without it
            statements.append(("INSERT INTO actions (game_id, seq, seat, user_id, action, at) VALUES (?, ?, ?, ?, ?, ?)",
                               [(request.game_id, request.expected_version + i + 1, seat, user, _dumps(action), now)
                                for i, (seat, user, action) in enumerate(request.actions)], True))
        if request.results:
            statements.append((_RESULT_INSERT, [(*row, now) for row in request.results], True))
        return statements

    async def update_game(self, game_id: int, expected_rev: int, **fields: Any) -> int:
        """Store ``fields`` if the row is still at revision ``expected_rev``."""
        return await self.save_game(game_id, expected_rev, fields)

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
        return [(game.id, game.guild_id, game.game_key, r["seat"], game.seats[r["seat"]].get("user_id"),
                 game.seats[r["seat"]]["name"], int(bool(game.seats[r["seat"]].get("bot"))), float(r["score"]),
                 int(r["rank"]), int(bool(r["won"]))) for r in results]

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

    # --- skill ratings (bot/ratings.py; the SQL, for both databases, in bot/rating_store.py) -----
    async def _read_ratings(self, procedure: rating_store.Procedure[T]) -> T:
        return await rating_store.run_aiosqlite(self._db, procedure)

    async def _write_ratings(self, make: Callable[[], rating_store.Procedure[T]]) -> T:
        """A procedure of bot.rating_store in a transaction of its own, on the writer thread (the arithmetic of a
        whole ladder stays off the event loop), after the writes asked for before it."""
        if self._writer is None:
            raise RuntimeError("storage is not open")
        hook = getattr(self.db, "before_statement", None)  # the fault tests' injected failures
        wait_ms = max(1, int(self.write_budget * 1000))

        def job() -> T:
            conn = self._wconn
            assert conn is not None  # open() connected it
            run = _runner(conn, hook)
            if wait_ms != self._busy_ms:
                run(f"PRAGMA busy_timeout = {wait_ms}")
                self._busy_ms = wait_ms
            run("BEGIN IMMEDIATE")
            try:
                result = rating_store.run_sync(run, make())
                run("COMMIT")
                return result
            except BaseException:
                if conn.in_transaction:
                    with contextlib.suppress(sqlite3.Error):
                        conn.execute("ROLLBACK")
                raise

        try:
            return await asyncio.wrap_future(self._writer.submit(job))
        except sqlite3.Error as exc:
            raise StorageError(str(exc)) from exc

    async def catch_up_ratings(self) -> int:
        """Rate the games waiting on their ladders: stored before the ratings existed (the migration put them
        there, in the order they finished), or whose rating failed. Done as the storage opens; a ladder that
        fails is logged and tried again next time. Returns how many ladders were caught up."""
        ladders = await self._read_ratings(rating_store.pending_ladders())
        done = 0
        for ladder in ladders:
            try:
                await self._write_ratings(lambda ladder=ladder: rating_store.catch_up(*ladder))  # type: ignore[misc]
                done += 1
            except Exception:
                log.exception("rating the games waiting on ladder %s failed; tried again at the next start", ladder)
        if done:
            log.info("rated the games waiting on %d ladders", done)
        return done

    async def rebuild_ratings(self) -> tuple[int, int]:
        """Every ladder rebuilt from the stored results (``heistcord ratings rebuild``): (ladders, games rated)."""
        return await self._write_ratings(rating_store.rebuild_all)

    async def unrate_game(self, game_id: int, *, undo: bool = False) -> tuple[int, str, int] | None:
        """Take a finished game off its ladder (``undo``: put it back), which is rebuilt: the ladder (server,
        game, season), or None if the game has no place on a ladder."""
        return await self._write_ratings(lambda: rating_store.unrate(game_id, undo))

    async def start_season(self, guild_id: int, now: float | None = None) -> int:
        """Close the server's season; games finished from now on go on new ladders. Returns the new season."""
        return await self._write_ratings(lambda: rating_store.start_season(guild_id, time.time() if now is None else now))

    async def current_season(self, guild_id: int) -> int:
        """The server's season now."""
        return await self._read_ratings(rating_store.current_season(guild_id))

    async def rating_seasons(self, guild_id: int) -> list[tuple[int, float | None]]:
        """The server's seasons, ``(season, started_at)``, oldest first."""
        return await self._read_ratings(rating_store.seasons(guild_id))

    async def game_rating(self, game_id: int) -> tuple[str | None, int, list[tuple[Any, ...]]]:
        """A finished game's status on its ladder, its season and its rated seats' changes (see bot.rating_store)."""
        return await self._read_ratings(rating_store.game_rating(game_id))

    async def ladder(self, guild_id: int, game_key: str, season: int) -> list[tuple[str, Standing]]:
        """A ladder's standings, best conservative rating first (the bots only once they played here)."""
        return await self._read_ratings(rating_store.standings(guild_id, game_key, season))

    async def rating_history(self, guild_id: int, game_key: str, season: int,
                             player: str) -> list[tuple[int, Rating, Rating]]:
        """A player's rated games on a ladder, oldest first: (game id, before, after)."""
        return await self._read_ratings(rating_store.history(guild_id, game_key, season, player))

    async def rating_versus_bots(self, guild_id: int, game_key: str, season: int,
                                 player: str) -> list[tuple[str, int, int, int]]:
        """A player's results against each level's bot on a ladder: (bot, ahead, tied, behind)."""
        return await self._read_ratings(rating_store.versus_bots(guild_id, game_key, season, player))

    async def all_ratings(self) -> list[tuple[Any, ...]]:
        """Every standing, change and ladder place, in a fixed order (to compare a rebuild with before)."""
        return await self._read_ratings(rating_store.all_ratings())

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
                " maintenance = excluded.maintenance, turn_minutes = excluded.turn_minutes, on_leave = excluded.on_leave,"
                " threads = excluded.threads, bot_level = excluded.bot_level",
                (s.guild_id, s.manager_role_id, _dumps(s.allowed_channels), int(s.maintenance), s.turn_minutes, s.on_leave,
                 int(s.threads), s.bot_level),
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
