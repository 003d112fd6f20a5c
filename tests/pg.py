"""A real PostgreSQL server for the tests and benchmarks, started in a temporary directory.

Finds the server binaries (``initdb`` on PATH, then ``/usr/lib/postgresql/*/bin``), and
installs Debian's ``postgresql`` package when neither is there and we are root. ``initdb``
refuses to run as root, so as root the server runs as ``nobody`` (uid 65534) on a data
directory given to it. It listens on a free port of 127.0.0.1 (and a socket in the temp
dir). If it cannot start, :class:`PgUnavailableError` says why: the test run fails, never skips.

One server per test session (``pg_server``); each test gets a fresh, empty schema of one
database (see :meth:`PgServer.fresh_database`).

    python -m tests.pg    # start one, print its URL, stop on Ctrl-C
"""
from __future__ import annotations

import atexit
import contextlib
import glob
import itertools
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time

import pytest

NOBODY = 65534
USER = "heistcord"
DATABASE = "heistcord_tests"


class PgUnavailableError(RuntimeError):
    """The PostgreSQL server for the tests could not be started."""


def find_bin_dir() -> str:
    """The directory of PostgreSQL's server binaries (installed if need be, as root)."""
    initdb = shutil.which("initdb")
    if initdb:
        return os.path.dirname(os.path.realpath(initdb))
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: int(p.split("/")[-3]))
    if found:
        return os.path.dirname(found[-1])
    if os.geteuid() == 0 and shutil.which("apt-get"):
        subprocess.run(["apt-get", "update", "-q"], check=False, capture_output=True)
        done = subprocess.run(["apt-get", "install", "-y", "-q", "postgresql"], capture_output=True, text=True,
                              env={**os.environ, "DEBIAN_FRONTEND": "noninteractive"})
        found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: int(p.split("/")[-3]))
        if found:
            return os.path.dirname(found[-1])
        raise PgUnavailableError(f"installing Debian's postgresql package failed: {done.stderr[-500:]}")
    raise PgUnavailableError("PostgreSQL server binaries not found (no initdb on PATH or in /usr/lib/postgresql/*/bin);"
                        " install PostgreSQL (Debian: apt-get install postgresql) to run the tests.")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


try:  # Linux: the server goes when the test run goes, even if the run is killed (PR_SET_PDEATHSIG)
    import ctypes

    _prctl = ctypes.CDLL(None, use_errno=True).prctl
except (OSError, AttributeError):
    _prctl = None


def _die_with_parent() -> None:
    if _prctl is not None:
        _prctl(1, int(signal.SIGKILL))  # 1 = PR_SET_PDEATHSIG


def _as_server_user():  # preexec_fn: drop root for initdb and postgres
    os.setgid(NOBODY)
    os.setgroups([])
    os.setuid(NOBODY)
    _die_with_parent()  # after setuid, which clears it


class PgServer:
    def __init__(self) -> None:
        self.dir: str | None = None
        self.proc: subprocess.Popen | None = None
        self.port = 0
        self._names = itertools.count(1)
        self.database_ready = False

    @property
    def root(self) -> bool:
        return os.geteuid() == 0

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://{USER}@127.0.0.1:{self.port}/{database}"

    def _run(self, args: list[str], **kwargs) -> subprocess.CompletedProcess:
        return subprocess.run(args, capture_output=True, text=True, preexec_fn=_as_server_user if self.root else None,
                              env={**os.environ, "LC_ALL": "C", "HOME": self.dir}, **kwargs)

    def start(self) -> "PgServer":
        bin_dir = find_bin_dir()
        self.dir = tempfile.mkdtemp(prefix="heistcord-pg-")
        data = os.path.join(self.dir, "data")
        if self.root:
            os.chown(self.dir, NOBODY, NOBODY)
        done = self._run([os.path.join(bin_dir, "initdb"), "-D", data, "-U", USER, "-A", "trust", "-E", "UTF8",
                          "--locale=C", "--no-sync"])
        if done.returncode:
            self.stop()
            raise PgUnavailableError(f"initdb failed: {(done.stderr or done.stdout)[-800:]}")
        self.port = free_port()
        self._bin_dir, self._data = bin_dir, data
        self._launch()
        atexit.register(self.stop)
        return self

    def _launch(self) -> None:
        """Start the server on its data directory and port; return once it accepts connections."""
        assert self.dir is not None
        log = open(os.path.join(self.dir, "server.log"), "a")
        if self.root:
            os.chown(log.name, NOBODY, NOBODY)
        # Durability is traded for speed (a test database lives for seconds): no fsync.
        self.proc = subprocess.Popen(
            [os.path.join(self._bin_dir, "postgres"), "-D", self._data, "-h", "127.0.0.1", "-p", str(self.port),
             "-k", self.dir, "-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off",
             "-c", "max_connections=400", "-c", "shared_buffers=64MB"],
            stdout=log, stderr=subprocess.STDOUT, preexec_fn=_as_server_user if self.root else _die_with_parent,
            env={**os.environ, "LC_ALL": "C", "HOME": self.dir}, start_new_session=True)
        log.close()
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                break
            ready = subprocess.run([os.path.join(self._bin_dir, "pg_isready"), "-q", "-h", "127.0.0.1", "-p",
                                    str(self.port), "-U", USER], capture_output=True)
            if ready.returncode == 0:
                return
            time.sleep(0.1)
        with open(os.path.join(self.dir, "server.log")) as f:
            tail = f.read()[-800:]
        self.stop()
        raise PgUnavailableError(f"the PostgreSQL server did not start: {tail}")

    # --- outages, for the fault tests (a server of their own: the session's one is shared) -----------
    def halt(self) -> None:
        """Stop the server as ``pg_ctl stop -m fast`` does (open connections are closed), keeping its data."""
        assert self.proc is not None
        self.proc.send_signal(signal.SIGINT)
        try:
            self.proc.wait(30)
        except subprocess.TimeoutExpired:
            with open(os.path.join(self.dir or "", "server.log")) as f:
                raise PgUnavailableError(f"the server did not stop within 30 s: {f.read()[-1500:]}") from None
        self.proc = None

    def resume(self) -> None:
        """Start the halted server again, on the same port and data."""
        assert self.proc is None and self.dir is not None
        self._launch()

    def _processes(self) -> list[int]:
        """The server's processes: the postmaster, then its children (each in a session of its own)."""
        assert self.proc is not None
        pids = [self.proc.pid]
        with contextlib.suppress(OSError):
            with open(f"/proc/{self.proc.pid}/task/{self.proc.pid}/children") as f:
                pids += [int(p) for p in f.read().split()]
        return pids

    def freeze(self) -> None:
        """SIGSTOP every server process: connections stay open and nothing is answered (a hung host)."""
        for pid in self._processes():
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGSTOP)

    def thaw(self) -> None:
        """SIGCONT every server process (undo :meth:`freeze`)."""
        for pid in self._processes():
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGCONT)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.thaw()  # a frozen server would not hear the signal
            self.proc.send_signal(signal.SIGQUIT)  # immediate shutdown: nothing here is worth keeping
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.proc = None
        if self.dir is not None:
            shutil.rmtree(self.dir, ignore_errors=True)
            self.dir = None

    async def fresh_database(self) -> str:
        """A new, empty database; its URL. It is a schema of its own in the session's one
        database (the URL sets ``search_path``): making one costs a few milliseconds, a
        ``CREATE DATABASE`` about half a second. The storage migrates it when it opens."""
        import asyncpg

        name = f"test_{next(self._names)}"
        admin = await asyncpg.connect(self.url())
        try:
            if not self.database_ready:
                await admin.execute(f"CREATE DATABASE {DATABASE}")
                self.database_ready = True
        finally:
            await admin.close()
        conn = await asyncpg.connect(self.url(DATABASE))
        try:
            await conn.execute(f"CREATE SCHEMA {name}")
        finally:
            await conn.close()
        return self.url(DATABASE) + f"?search_path={name}"


_server: PgServer | None = None


def start_or_fail() -> PgServer:
    """A new server; if it can't start, the test run fails saying why (never a skip)."""
    try:
        return PgServer().start()
    except PgUnavailableError as exc:
        pytest.fail(f"PostgreSQL is needed by these tests and could not be started: {exc}", pytrace=False)


@pytest.fixture(scope="session")
def pg_server():
    """The session's PostgreSQL server (started on first use, stopped at the end)."""
    global _server
    if _server is None:
        _server = start_or_fail()
    yield _server
    _server.stop()
    _server = None


BACKENDS = ["sqlite", "pg"]


async def open_storage(backend: str, request, tmp_path, name: str = "t.db"):
    """An open, empty storage of ``backend``: a SQLite file in ``tmp_path``, or a fresh
    database on the session's PostgreSQL server."""
    if backend == "sqlite":
        from bot.storage import Storage

        return await Storage(str(tmp_path / name)).open()
    from bot.storage_pg import PgStorage

    return await PgStorage(await request.getfixturevalue("pg_server").fresh_database()).open()


async def raw_execute(storage, sql: str) -> None:
    """Run one SQL statement outside the storage's methods (as another program would)."""
    if getattr(storage, "pool", None) is not None:
        await storage.pool.execute(sql)
    else:
        await storage.db.execute(sql)


def refusal_error(storage) -> type[Exception]:
    """What the database raises when a trigger or constraint refuses a statement."""
    if getattr(storage, "pool", None) is not None:
        import asyncpg

        return asyncpg.PostgresError
    import sqlite3

    return sqlite3.DatabaseError


if __name__ == "__main__":
    server = PgServer().start()
    print(server.url(), flush=True)
    try:
        signal.pause()
    except KeyboardInterrupt:
        pass
    finally:
        server.stop()
