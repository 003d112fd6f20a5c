"""A write on the storage's aiosqlite connection while another task's read on it is between its cursor's hops
(``execute``, ``fetchone``, close: each a hop to aiosqlite's thread). That read holds a snapshot; if another
connection (the writer thread) committed since, or holds the write lock right now, SQLite refuses
``BEGIN IMMEDIATE`` at once, without a busy wait (SQLITE_BUSY_SNAPSHOT / SQLITE_BUSY). Many tables opening at
once did this: players were told the database wasn't answering. The write must wait for the read to end."""
from __future__ import annotations

import asyncio
import sqlite3

from bot.storage import Storage


async def put(storage: Storage, value: str) -> None:
    async with storage.transaction() as db:
        await db.execute("INSERT INTO bot_meta (key, value) VALUES ('k', ?) ON CONFLICT (key) DO UPDATE SET"
                         " value = excluded.value", (value,))


async def read_between_hops(storage: Storage, then: asyncio.Event) -> None:
    """Another task's read, its cursor open (its snapshot held) until ``then``."""
    assert storage.db is not None
    async with storage.db.execute("SELECT key FROM bot_meta UNION ALL SELECT key FROM bot_meta") as cur:
        await cur.fetchone()
        await then.wait()


async def test_a_write_waits_for_a_read_whose_snapshot_is_older_than_the_last_commit(tmp_path):
    path = str(tmp_path / "heistcord.db")
    storage = await Storage(path).open()
    try:
        await put(storage, "a")
        done = asyncio.Event()
        reading = asyncio.create_task(read_between_hops(storage, done))
        await asyncio.sleep(0.05)
        other = sqlite3.connect(path, isolation_level=None)  # (the writer thread's connection, say) commits
        other.execute("UPDATE bot_meta SET value = 'b' WHERE key = 'k'")
        other.close()
        asyncio.get_running_loop().call_later(0.2, done.set)  # the read ends a moment later
        await put(storage, "c")  # was: StorageError("database is locked") at once
        await reading
        assert await storage.meta("k") == "c"
    finally:
        await storage.close()


async def test_a_write_waits_for_a_read_while_another_connection_holds_the_write_lock(tmp_path):
    path = str(tmp_path / "heistcord.db")
    storage = await Storage(path).open()
    try:
        await put(storage, "a")
        done = asyncio.Event()
        reading = asyncio.create_task(read_between_hops(storage, done))
        await asyncio.sleep(0.05)
        other = sqlite3.connect(path, isolation_level=None)
        other.execute("BEGIN IMMEDIATE")  # writing right now

        def both_end() -> None:
            other.execute("COMMIT")
            other.close()
            done.set()

        asyncio.get_running_loop().call_later(0.2, both_end)
        await put(storage, "c")  # was: StorageError("database is locked") at once (no busy wait: a read is open)
        await reading
        assert await storage.meta("k") == "c"
    finally:
        await storage.close()
