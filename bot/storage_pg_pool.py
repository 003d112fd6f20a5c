"""The PostgreSQL store's connections (``bot/storage_pg.py``): a pool, reads within the read budget, write
transactions within the write budget, and a COMMIT that got no answer (in doubt) settled by ending its server process.

* A write is one transaction, rolled back on any failure; one that cannot be done within
  ``write_budget`` seconds raises :class:`StorageError` and changes nothing. A COMMIT that gets no
  answer in time (a lagging synchronous standby, a server frozen mid-commit) may have been stored:
  its connection's server process is ended (which decides the transaction) and a game's row is read
  again to find out; if the server can't be asked, :class:`CommitUnknownError` says so.
* A read waits at most ``READ_BUDGET`` seconds (less while an interaction waits for its first answer:
  ``bot.storage.answering``), then raises :class:`StorageError`. A connection cut short is closed, not
  given back to the pool: the next call opens a fresh one, so a restarted server is used at once.
"""
from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import asyncpg

from bot.dburl import redact, scrub
from bot.storage_shared import READ_BUDGET, WRITE_BUDGET, CommitUnknownError, StorageError, note_saved, wait_budget

T = TypeVar("T")
OPEN_BUDGET = 10.0  # seconds to connect and bring the schema up to date at start-up


def _storage_failure(exc: BaseException) -> bool:
    """Failures that cost one write (rolled back), as SQLite's 'database is locked'.
    Integrity errors (constraints, the triggers' refusals) are the caller's to see."""
    if isinstance(exc, (asyncpg.IntegrityConstraintViolationError, asyncpg.RaiseError)):
        return False
    return isinstance(exc, (asyncpg.PostgresError, asyncpg.InterfaceError, asyncpg.InternalClientError, OSError))


# A pooled connection found dead when used (the server restarted or closed it meanwhile): a read is tried once more.
_STALE = (asyncpg.InterfaceError, asyncpg.InternalClientError, asyncpg.PostgresConnectionError, ConnectionError)
# A call that failed so leaves its connection in a state nobody knows (cut short, or the server went away).
_BROKEN = (asyncio.CancelledError, TimeoutError, asyncpg.InterfaceError, asyncpg.InternalClientError, OSError,
           asyncpg.PostgresConnectionError)


def _refused(exc: BaseException) -> bool:
    """A statement the server answered with an error (the transaction is rolled back), as opposed to a server
    that went away or is shutting down (which may have done it)."""
    return isinstance(exc, asyncpg.PostgresError) and not isinstance(
        exc, (asyncpg.PostgresConnectionError, asyncpg.OperatorInterventionError))


def _unavailable(exc: BaseException) -> StorageError:
    """The StorageError for a failure reaching the server (one line; the server's message if it sent one)."""
    return StorageError(f"the database is unavailable: {str(exc) or type(exc).__name__}")


@contextlib.asynccontextmanager
async def _answered_within(budget: float):
    """The block's calls to the server within ``budget`` seconds; else StorageError, as for a server that fails."""
    try:
        async with asyncio.timeout(budget):
            yield
    except TimeoutError:
        raise StorageError(f"the database did not answer within {budget:.1f} s") from None
    except Exception as exc:
        if _storage_failure(exc):
            raise _unavailable(exc) from exc
        raise


async def _keep_as_is(conn: asyncpg.Connection) -> None:
    """A connection given back to the pool is kept as it is (every transaction of ours has ended; we set no
    session state, listen to nothing, hold no session lock): asyncpg's default reset costs a round trip per
    call, and one to a server that froze meanwhile would hang."""


class _OneLine(logging.Filter):
    """asyncpg's pool logs a traceback each time it fails to reconnect to keep its minimum of connections (every
    1 to 60 s while the server is down): one line is enough, the bot says what matters itself."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.exc_info and record.exc_info[1] is not None:
            record.msg = f"{record.getMessage()} ({type(record.exc_info[1]).__name__}: {record.exc_info[1]})"
            record.args, record.exc_info, record.exc_text = (), None, None
        return True


logging.getLogger("asyncpg.pool").addFilter(_OneLine())


def _drop(conn: Any) -> None:
    """Close a connection whose state is unknown (a call cut short, a server gone or restarted): the pool opens
    a fresh one next time, where waiting on this one (a ROLLBACK, a reset) could hang on a server that is frozen."""
    with contextlib.suppress(Exception):
        conn.terminate()


class NotStoredError(StorageError):
    """A write whose COMMIT was in doubt was found not stored (nothing changed)."""


class _InDoubtError(Exception):
    """Inside ``transaction``: the COMMIT was sent and got no answer (``pid``: the server process that has it)."""

    def __init__(self, pid: int) -> None:
        self.pid = pid


class PgConnections:
    """One PostgreSQL database's pool of connections, as the store uses them."""

    def __init__(self, url: str, *, write_budget: float = WRITE_BUDGET, min_size: int = 2,
                 max_size: int = 10) -> None:
        self.url = url
        self.path = redact(url)  # where the data is, for messages (without the password)
        self.write_budget = write_budget
        self.min_size, self.max_size = min_size, max_size
        self.pool: asyncpg.Pool | None = None

    async def open(self, migrate: Callable[[], Awaitable[int]]) -> None:
        """Connect the pool and ``migrate()`` within ``OPEN_BUDGET`` seconds; StorageError in one line saying where
        (the password hidden) and what to do, if it can't."""
        try:
            async with asyncio.timeout(OPEN_BUDGET):
                self.pool = await asyncpg.create_pool(self.url, min_size=self.min_size, max_size=self.max_size,
                                                      command_timeout=60, timeout=OPEN_BUDGET, reset=_keep_as_is)
                await migrate()
        except BaseException as exc:
            if self.pool is not None:
                self.pool.terminate()  # (closing would wait on a server that may not answer)
                self.pool = None
            if isinstance(exc, Exception):
                raise self._open_failure(exc) from None
            raise

    def _open_failure(self, exc: Exception) -> Exception:
        """What opening the database met, as one line for the person starting the bot."""
        where = f"PostgreSQL at {self.path}"
        if isinstance(exc, TimeoutError):
            return StorageError(f"{where} did not answer within {OPEN_BUDGET:.0f} s: is the server running, and not"
                                " overloaded or stopped?")
        if isinstance(exc, asyncpg.InsufficientPrivilegeError):
            return StorageError(f"{where}: the user may not create heistcord's tables ({scrub(str(exc), self.url)})."
                                " Grant it CREATE on the database's schema (or start the bot once as the database's"
                                " owner).")
        if isinstance(exc, (OSError, asyncpg.PostgresError, asyncpg.InterfaceError, ValueError)):
            return StorageError(f"can't connect to {where}: {scrub(str(exc), self.url) or type(exc).__name__}")
        return exc

    async def close(self) -> None:
        """Close the connection pool."""
        if self.pool is not None:
            await self.pool.close()
            self.pool = None

    @property
    def live(self) -> asyncpg.Pool:
        """The open pool (RuntimeError if it is not open)."""
        if self.pool is None:
            raise RuntimeError("storage is not open")
        return self.pool

    @contextlib.asynccontextmanager
    async def _connection(self, budget: float):
        """A pooled connection; closed instead of given back if the call using it was cut short or lost the
        server (a statement the server refused leaves it usable). Giving it back waits at most ``budget``."""
        conn = await self.live.acquire(timeout=budget)
        try:
            yield conn
        except BaseException as exc:
            if isinstance(exc, (*_BROKEN, _InDoubtError)):
                _drop(conn)
            raise
        finally:
            await self.live.release(conn)

    async def read(self, method: str, sql: str, *args: Any) -> Any:
        """``conn.<method>(sql, *args)`` on a pooled connection within the read budget; StorageError when the
        server does not answer in time or can't be reached."""
        return await self.reading(lambda conn: getattr(conn, method)(sql, *args))

    async def reading(self, use: Callable[[Any], Awaitable[T]]) -> T:
        """``await use(conn)`` on a pooled connection within the read budget (see ``read``)."""
        budget = wait_budget(READ_BUDGET)
        async with _answered_within(budget):
            try:
                async with self._connection(budget) as conn:
                    return await use(conn)
            except _STALE:  # a pooled connection to a server that went away (and may be back): once more
                async with self._connection(budget) as conn:
                    return await use(conn)

    @contextlib.asynccontextmanager
    async def transaction(self, verify: Callable[[], Awaitable[int]] | None = None):
        """One write transaction on a pooled connection: committed when the block ends,
        rolled back on any failure. StorageError after ``write_budget`` seconds, or when
        the server fails (the write is rolled back; the next one starts clean).

        If the COMMIT itself gets no answer in time, the write may or may not be stored:
        :class:`CommitUnknownError`, whose ``settle()`` ends the connection's server process
        (a commit waiting for a synchronous standby is then kept, one not yet begun is rolled
        back: the transaction is decided) and then asks ``verify`` which way it went (it returns
        what the write returns, or raises :class:`NotStoredError`). Without ``verify`` the
        process is ended at once and the outcome stays unknown to the caller."""
        budget = wait_budget(self.write_budget)
        try:
            try:
                async with asyncio.timeout(budget) as deadline:
                    async with self._begun(budget) as (conn, tx):
                        try:
                            yield conn
                        except _BROKEN:  # the connection is closed, and the server rolls the transaction back
                            raise
                        except BaseException:  # a statement refused, or the caller's own: the connection is fine
                            await tx.rollback()
                            raise
                        try:
                            await tx.commit()
                        except BaseException as exc:
                            if _refused(exc) or (isinstance(exc, asyncio.CancelledError) and not deadline.expired()):
                                raise  # refused at COMMIT (rolled back), or the bot is stopping: not in doubt
                            raise _InDoubtError(conn.get_server_pid()) from None
            except TimeoutError:
                raise StorageError("the database is busy") from None
        except _InDoubtError as doubt:
            settle = self._settler(doubt.pid, verify)
            if verify is None:  # decide it now, so nothing waits on it; which way is not known
                with contextlib.suppress(StorageError):
                    await self._end_backend(doubt.pid)
            raise CommitUnknownError(settle) from None
        except Exception as exc:
            if _storage_failure(exc):
                raise _unavailable(exc) from exc
            raise
        note_saved()

    @contextlib.asynccontextmanager
    async def _begun(self, budget: float):
        """A pooled connection and its transaction, begun (on a second connection if the first was found dead:
        the server restarted meanwhile). Beginning twice costs nothing: no statement has run."""
        for attempt in range(2):
            begun = False
            try:
                async with self._connection(budget) as conn:
                    tx = conn.transaction()
                    await tx.start()
                    begun = True
                    yield conn, tx
                    return
            except _STALE:
                if begun or attempt:
                    raise

    def _settler(self, pid: int, verify: Callable[[], Awaitable[int]] | None) -> Callable[[], Awaitable[int]]:
        """``CommitUnknownError.settle`` for a COMMIT in doubt on the server process ``pid``."""
        async def settle() -> int:
            try:
                await self._end_backend(pid)
                if verify is not None:
                    result = await verify()
                    note_saved()
                    return result
            except NotStoredError:
                raise
            except StorageError:  # the database can't be asked now
                pass
            raise CommitUnknownError(settle)

        return settle

    async def _end_backend(self, pid: int) -> None:
        """Terminate the server process ``pid`` (one of our own connections) and wait until it is gone."""
        budget = wait_budget(READ_BUDGET)
        async with _answered_within(budget), self._connection(budget) as conn:
            await conn.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE pid = $1", pid)
            # Polled: the server process's end is seen only by asking the server (there is no event to await).
            gone = "SELECT NOT EXISTS (SELECT 1 FROM pg_stat_activity WHERE pid = $1)"
            while not await conn.fetchval(gone, pid):  # noqa: ASYNC110
                await asyncio.sleep(0.01)
