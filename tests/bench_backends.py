"""When to move to PostgreSQL, and what a second process buys:
``python -m tests.bench_backends [--quick] [--games 500] [--rate 300] [--seconds 20]``.

The same paced load as ``tests/bench_load.py`` (the real bot in its own process on the fake
Discord; simulated players in this process type ``/game play`` and press a random move of
their panel; every time taken on the fake's side), played three ways on the same tables:

  * 1 process on SQLite (shards 0 and 1 of 2): the floor every other figure is compared to;
  * 1 process on PostgreSQL (shards 0 and 1);
  * 2 processes on PostgreSQL, one shard each (a guild on each shard, half the tables in each).

``--games`` tables (500 by default) in two guilds, one per shard; each makes a move every
``games / rate`` seconds for ``--seconds``. Printed: moves per second achieved, click -> reply
p50 and p99, click -> board p99, and boards posted per second. The PostgreSQL server is the
tests' (``tests/pg.py``: a temporary server, no fsync; SQLite runs in WAL with
synchronous=NORMAL, which does not wait for the disk at commit either).
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import shutil
import sys
import tempfile
import time
from typing import Any

from bot.games import registry
from bot.storage import Storage
from bot.storage_pg import PgStorage
from bot.tables import TableService
from tests.bench_load import (
    FIRST_CHANNEL,
    FIRST_USER,
    MEMBER_PERMS,
    PLAYERS,
    Bot,
    Table,
    describe,
    figure,
    note,
    p50,
    p99,
    perf,
    phase_paced,
)
from tests.botprocess import BotProcess, new_sessions_on, wait_ready

GUILDS = (5000, (1 << 22) | 5000)  # on shard 0 and shard 1 of 2: (guild_id >> 22) % 2


def guild_of(table: Table) -> int:
    return GUILDS[(table.channel - FIRST_CHANNEL) % 2]


def make_tables(count: int) -> list[Table]:
    keys = sorted(registry())
    return [Table(channel=FIRST_CHANNEL + i, key=keys[i % len(keys)],
                  users=[FIRST_USER + i * PLAYERS + u for u in range(PLAYERS)]) for i in range(count)]


async def seed(storage, tables: list[Table]) -> None:
    """Open and start every table's game (before the bots start)."""
    service = TableService(storage, seed_source=iter(range(1000, 10**9)).__next__)
    for t in tables:
        row = await service.open(guild_of(t), t.channel, t.key, t.users[0], f"player{t.users[0]}")
        for uid in t.users[1:]:
            await service.join(row.id, uid, f"player{uid}")
        await service.start(row.id, t.users[0])
        t.game_id = row.id


class Processes(Bot):
    """One fake Discord with a guild on each of 2 shards, and 1 or 2 heistcord processes on it."""

    def __init__(self, name: str, tmp: str, tables: list[Table], *, db_path: str = "", url: str = "",
                 processes: int = 1) -> None:
        super().__init__(name, tmp, tables, db_path)
        self.url = url
        self.count = processes
        self.procs: list[BotProcess] = []
        self._pg: PgStorage | None = None
        self._turns: dict[int, tuple[str, dict, list]] = {}

    async def open_fake(self) -> None:
        fake = self.fake
        for guild in GUILDS:
            fake.add_guild(guild, name=f"Bench {guild}", owner_id=FIRST_USER)
        for t in self.tables:
            fake.add_channel(guild_of(t), t.channel, f"table-{t.channel}")
            for uid in t.users:
                if uid not in fake.users:
                    fake.add_user(uid, f"player{uid}")
                fake.add_member(guild_of(t), uid, permissions=MEMBER_PERMS)
        fake.listeners.append(self._listen)
        await fake.start()

    async def launch(self, extra: list[str] | None = None) -> None:
        shards = [[0, 1]] if self.count == 1 else [[0], [1]]
        database = ["--database-url", self.url] if self.url else ["--db", self.db_path]
        self.procs = [BotProcess(self.fake.base_url, f"{self.log_path}.{n}", guild=0, name=f"{self.name} {n}", args=[
            *database, "--shard-count", "2", "--shard-ids", ",".join(map(str, ids)), "--seed", str(10_000 * (n + 1)),
            "--log-level", "WARNING"]) for n, ids in enumerate(shards)]
        ready = new_sessions_on(self.fake, (0, 2), (1, 2))
        for proc in self.procs:
            proc.launch()
        self.proc = self.procs[0]
        await wait_ready(self.procs, ready, timeout=90)
        await self.quiet(30.0)
        if self.url:
            self._pg = await PgStorage(self.url, max_size=4).open()

    def log_tail(self, lines: int = 30) -> str:
        return "\n".join(f"--- process {n}\n" + proc.log_tail(lines) for n, proc in enumerate(self.procs)
                         if proc.log_path.exists())

    async def stop(self) -> None:
        await asyncio.gather(*(proc.stop(grace=15) for proc in self.procs))
        if self._pg is not None:
            await self._pg.close()
        await self.fake.stop()
        if self._db is not None:
            self._db.close()

    def cpu(self) -> dict[str, float]:
        total = {"loop": 0.0, "process": 0.0, "children": 0.0}
        for proc in self.procs:
            self.proc = proc
            for key, value in super().cpu().items():
                total[key] += value
        self.proc = self.procs[0]
        return total

    # whose turn: read from the bots' database before each move (PostgreSQL is read asynchronously)
    def mover(self, table: Table, rng: random.Random) -> int | None:
        if not self.url:
            return super().mover(table, rng)
        status, state, seats = self._turns[table.game_id]
        if status != "running":
            return None
        to_act = registry()[table.key].to_act(state)
        return seats[rng.choice(to_act)]["user_id"] if to_act else None

    async def move(self, table: Table, rng: random.Random):
        if self.url:
            row = await self._pg.pool.fetchrow("SELECT status, state, seats FROM games WHERE id = $1", table.game_id)
            self._turns[table.game_id] = (row["status"], json.loads(row["state"]), json.loads(row["seats"]))
        return await super().move(table, rng)


async def run_one(name: str, tmp: str, games: int, rate: float, seconds: float, drain: float,
                  pg_url: str = "", processes: int = 1) -> dict[str, Any]:
    tables = make_tables(games)
    db_path = os.path.join(tmp, f"{name}.db")
    storage = await (PgStorage(pg_url) if pg_url else Storage(db_path)).open()
    await seed(storage, tables)
    await storage.close()
    bot = Processes(name, tmp, tables, db_path=db_path, url=pg_url, processes=processes)
    try:
        await bot.open_fake()
        await bot.launch()
        result = await phase_paced(bot, tables, games / rate, seconds, drain)
    finally:
        await bot.stop()
        tail = bot.log_tail(200)
        if "Traceback" in tail or " ERROR " in tail:
            print(f"\n(the {name} bots logged errors; last lines:)\n{bot.log_tail()}")
    return result


async def main(quick: bool, games: int, rate: float, seconds: float) -> None:
    from tests.pg import PgServer

    began = perf()
    if quick:
        games, rate, seconds = 10, 20.0, 2.0
    drain = 15.0 if quick else 120.0
    print(f"heistcord on SQLite and PostgreSQL, 1 and 2 processes{' (--quick)' if quick else ''}\n"
          f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())} · {os.cpu_count()} CPUs · load average"
          f" {os.getloadavg()[0]:.1f} · Python {sys.version.split()[0]}\n\n## {games} tables in 2 guilds (one per"
          f" shard), a move every {games / rate:.2f} s on each (target {rate:.0f} moves/s) for {seconds:g} s",
          flush=True)
    tmp = tempfile.mkdtemp(prefix="heistcord-bench-backends-")
    server = PgServer().start()
    runs: dict[str, dict[str, Any]] = {}
    try:
        runs["sqlite"] = await run_one("sqlite", tmp, games, rate, seconds, drain)
        runs["pg"] = await run_one("pg", tmp, games, rate, seconds, drain, await server.fresh_database())
        runs["pg2"] = await run_one("pg2", tmp, games, rate, seconds, drain, await server.fresh_database(), 2)
    finally:
        server.stop()
        shutil.rmtree(tmp, ignore_errors=True)
    base = runs["sqlite"]
    floor = "1 process on SQLite"
    for key, label in (("pg", "1 process on PostgreSQL"), ("pg2", "2 processes on PostgreSQL")):
        r = runs[key]
        figure(f"{label}: moves per second achieved", r["rate"], base["rate"], floor, unit="moves/s")
        figure(f"{label}: click -> reply p50", p50(r["reply"]), p50(base["reply"]), floor)
        figure(f"{label}: click -> reply p99", p99(r["reply"]), p99(base["reply"]), floor)
        figure(f"{label}: click -> board posted p99", p99(r["board"]), p99(base["board"]), floor)
        figure(f"{label}: boards posted per second", r["boards_rate"], base["boards_rate"], floor, unit="boards/s")
    note(f"1 process on SQLite: {base['rate']:.0f} moves/s, click -> reply p50 {p50(base['reply']) or 0:.0f} ms,"
         f" p99 {p99(base['reply']) or 0:.0f} ms, {base['boards_rate']:.1f} boards/s")
    for key, label in (("sqlite", "SQLite x1"), ("pg", "PostgreSQL x1"), ("pg2", "PostgreSQL x2")):
        describe(label, runs[key])
    print(f"\nfinished in {perf() - began:.0f} s; load average now {os.getloadavg()[0]:.1f}", flush=True)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="10 tables for 2 s (a smoke test)")
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--rate", type=float, default=300.0, help="target moves per second over all tables")
    parser.add_argument("--seconds", type=float, default=20.0)
    args = parser.parse_args()
    asyncio.run(main(args.quick, args.games, args.rate, args.seconds))
