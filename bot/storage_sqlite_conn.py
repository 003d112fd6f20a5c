"""The SQLite store's connections (``bot/storage.py``): the lock file that keeps a second process out, the reading
connection (which also runs the few writes that are not a game row's, each in a :meth:`SqliteConnections.transaction`)
and the writer thread (``bot/storage_writer.py``) with a connection of its own.

One process owns a database file: :meth:`SqliteConnections.claim` takes an exclusive lock on the file itself (its
inode: the same file through a symlink or a second name is the same lock) and refuses a second process with
:class:`DatabaseInUseError`. SQLite's own locks are POSIX record locks, which ``flock`` neither takes nor disturbs.
"""
from __future__ import annotations

import asyncio
import contextlib
import fcntl
import os
import sqlite3
from collections.abc import Awaitable, Callable

import aiosqlite

from bot.storage_shared import DatabaseInUseError, StorageError, note_saved, wait_budget
from bot.storage_writer import Writer

SQLITE_BUSY = 5  # (and its extended codes, e.g. SQLITE_BUSY_SNAPSHOT 517: a write on a stale read snapshot)


class SqliteConnections:
    """One SQLite database file's connections, as the store uses them."""

    def __init__(self, path: str, write_budget: float) -> None:
        self.path = path
        self.write_budget = write_budget
        self.db: aiosqlite.Connection | None = None
        # The reading connection is shared by every coroutine, so a transaction() on it
        # must not interleave with another (a rollback would undo both). The writer's
        # batches use their own connection: SQLite's lock orders them with these.
        self.write_lock = asyncio.Lock()
        self._lock_file: int | None = None
        # Game-row writes go to a second connection on a thread of their own, each
        # batch of waiting writes in one hop and one transaction (see Storage.save_game).
        self.writer = Writer(path, lambda: getattr(self.db, "before_statement", None))

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

    async def open(self, migrate: Callable[[], Awaitable[int]], catch_up: Callable[[], Awaitable[int]]) -> None:
        """Claim the file, connect, ``migrate()``, start the writer thread and ``catch_up()`` (the ratings)."""
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
            await migrate()
            await self.writer.start()
            await catch_up()
        except BaseException as exc:
            await self.close()
            if isinstance(exc, sqlite3.Error):  # e.g. a read-only file or folder: one line saying where
                raise StorageError(f"can't use the SQLite database {self.path} ({exc}): set HEISTCORD_DB to a file"
                                   " the bot may write to, in a folder it may write to.") from None
            raise

    async def close(self) -> None:
        """Finish the writes already asked for, then close both connections and drop the lock."""
        await self.writer.close()  # writes already asked for are finished, not dropped
        if self.db is not None:
            await self.db.close()
            self.db = None
        self.release()

    @property
    def live(self) -> aiosqlite.Connection:
        """The open reading connection (RuntimeError if it is not open)."""
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
            db = self.live
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
