"""Shared tools for the fault tests: a table service on a temporary database,
a connection wrapper that makes chosen statements fail, cache/database checks."""
from __future__ import annotations

import json
import sqlite3

from bot.games import register
from bot.storage import Storage
from bot.tables import TableService
from tests.dummy_game import ENGINE as DUMMY
from tests.faults.vote_game import ENGINE as VOTE

register(DUMMY)
register(VOTE)


class Clock:
    def __init__(self, now: float = 1_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def make_service(storage: Storage, clock: Clock | None = None) -> TableService:
    seeds = iter(range(1, 100_000))
    return TableService(storage, seed_source=lambda: next(seeds), clock=clock or Clock())


class FaultyConnection:
    """Stands in for the storage's aiosqlite connection: while ``armed``, a statement
    containing ``needle`` fails with ``error`` (disk full, I/O error...), ``times`` times."""

    def __init__(self, db, needle: str, error: Exception | None = None, times: int = 1) -> None:
        self._db = db
        self.needle = needle
        self.error = error or sqlite3.OperationalError("disk I/O error")
        self.times = times
        self.armed = True
        self.fired = 0

    def __getattr__(self, name):
        return getattr(self._db, name)

    def _check(self, sql: str) -> None:
        if self.armed and self.fired < self.times and self.needle in sql:
            self.fired += 1
            raise self.error

    def before_statement(self, sql: str) -> None:
        """Called by the storage's writer thread before each statement it runs itself."""
        self._check(sql)

    def execute(self, sql, *args, **kwargs):
        self._check(sql)
        return self._db.execute(sql, *args, **kwargs)

    def executemany(self, sql, *args, **kwargs):
        self._check(sql)
        return self._db.executemany(sql, *args, **kwargs)


def inject(storage: Storage, needle: str, **kwargs) -> FaultyConnection:
    faulty = FaultyConnection(storage.db, needle, **kwargs)
    storage.db = faulty
    return faulty


def heal(storage: Storage) -> None:
    if isinstance(storage.db, FaultyConnection):
        storage.db = storage.db._db


COMPARED = ("status", "version", "state", "seats", "host_id", "options", "deadline_at", "reminder_at")


async def disagreements(service: TableService, game_id: int) -> list[str]:
    """Fields where the service's cached game differs from the database row."""
    cached = service.tables.cache.get(game_id)
    if cached is None:
        return []
    row = await service.storage.get_game(game_id)
    return [k for k in COMPARED
            if json.dumps(getattr(cached, k), sort_keys=True) != json.dumps(getattr(row, k), sort_keys=True)]
