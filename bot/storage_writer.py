"""The SQLite store's writer (``bot/storage.py``): game-row writes go to a thread with a connection of its own, one
hop per batch; writes that arrive together share one transaction, each under its own savepoint (group commit, see
``Storage.save_game``), and a rating procedure runs there too, after the writes asked for before it.
"""
from __future__ import annotations

import asyncio
import contextlib
import sqlite3
import time
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, TypeVar

from bot import rating_store
from bot.storage_shared import _RESULT_INSERT, StorageError, VersionConflictError, _dumps

T = TypeVar("T")


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


def _runner(conn: sqlite3.Connection, hook: Any) -> Callable[..., sqlite3.Cursor]:
    """``run(sql, args=(), many=False)`` on the writer's connection, through the fault tests' hook if one is set."""
    def run(sql: str, args: Any = (), many: bool = False) -> sqlite3.Cursor:
        if hook is not None:
            hook(sql)
        return conn.executemany(sql, args) if many else conn.execute(sql, args)

    return run


class Writer:
    """The writer thread of one SQLite database file: ``start``, then ``save`` and ``run``, then ``close``."""

    def __init__(self, path: str, hook: Callable[[], Any]) -> None:
        self.path = path
        self._hook = hook  # the fault tests' before_statement(sql), or None
        self._thread: ThreadPoolExecutor | None = None
        self._conn: sqlite3.Connection | None = None
        self._queue: list[_Save] = []
        self._writing = False  # a batch is on the writer thread
        self._idle = asyncio.Event()
        self._idle.set()
        self._busy_ms = -1  # the writer connection's busy timeout
        self.batches = 0  # write transactions the writer committed or tried (for the benchmarks)

    @property
    def started(self) -> bool:
        """Whether ``start`` was called (and ``close`` not since)."""
        return self._thread is not None

    async def start(self) -> None:
        """Start the thread and connect it."""
        self._thread = ThreadPoolExecutor(1, thread_name_prefix="heistcord-db-writer")
        self._conn = await asyncio.get_running_loop().run_in_executor(self._thread, self._connect)

    def _connect(self) -> sqlite3.Connection:
        conn = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        conn.execute("PRAGMA synchronous=NORMAL")
        conn.execute("PRAGMA foreign_keys=ON")
        return conn

    async def close(self) -> None:
        """Finish the writes already asked for, then close the connection and stop the thread."""
        await self._idle.wait()
        if self._thread is not None:
            if self._conn is not None:
                await asyncio.get_running_loop().run_in_executor(self._thread, self._conn.close)
                self._conn = None
            self._thread.shutdown(wait=True)
            self._thread = None

    async def save(self, game_id: int, expected_rev: int | None, fields: dict[str, Any],
                   actions: list[tuple[int, int | None, dict[str, Any]]], expected_version: int | None,
                   results: list[tuple[Any, ...]] | None, budget: float) -> int:
        """One game-row write (see ``Storage.save_game``), refused with StorageError if it could not start within
        ``budget`` seconds; returns the new revision once committed."""
        loop = asyncio.get_running_loop()
        request = _Save(game_id, expected_rev, fields, actions, expected_version, results,
                        loop.time() + budget, loop.create_future())
        self._queue.append(request)
        if not self._writing:
            self._send()
        return await request.future

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
        hook = self._hook()  # the fault tests' injected failures
        assert self._thread is not None  # open() started it
        done = self._thread.submit(self._write_batch, live, wait_ms, hook)
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
        conn = self._conn
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
        update = f"UPDATE games SET {', '.join(sets)} WHERE {where}"
        statements: list[tuple[str, Any, bool]] = [(update, args + where_args, False)]
        if request.actions:
            assert request.expected_version is not None  # _save refuses actions without it
            statements.append(("INSERT INTO actions (game_id, seq, seat, user_id, action, at)"
                               " VALUES (?, ?, ?, ?, ?, ?)",
                               [(request.game_id, request.expected_version + i + 1, seat, user, _dumps(action), now)
                                for i, (seat, user, action) in enumerate(request.actions)], True))
        if request.results:
            statements.append((_RESULT_INSERT, [(*row, now) for row in request.results], True))
        return statements

    async def run(self, make: Callable[[], rating_store.Procedure[T]], wait_ms: int) -> T:
        """A procedure of bot.rating_store in a transaction of its own, on the writer thread (the arithmetic of a
        whole ladder stays off the event loop), after the writes asked for before it."""
        assert self._thread is not None  # start() started it
        hook = self._hook()  # the fault tests' injected failures

        def job() -> T:
            conn = self._conn
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

        return await asyncio.wrap_future(self._thread.submit(job))
