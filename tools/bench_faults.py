"""The fault run of the benchmark: ``python -m tools.bench faults [--kills N]``.

For each fault it prints what a player would lose, all of which must be 0:

* crash: a bot process playing many tables is killed (``kill -9``) at N random
  points, then restarted on the same database: acknowledged moves lost, games
  stuck after the restart's recovery, cache/database disagreements;
* locked: another program holds the database's write lock for 6 s while moves
  arrive: moves left without an answer within Discord's 3 s, moves that still
  fail once the lock is gone, cache/database disagreements;
* disk: random writes fail (disk full, I/O error): cache/database disagreements,
  acknowledged moves lost, moves failing after the fault clears;
* second process: a second process on the same file is refused;
* timer race: a move racing a due reminder: next players' reminders wiped;
* drawing: the drawing worker is frozen (SIGSTOP) while players click through the
  fake Discord (when the test harness is importable): interactions unanswered
  within 3 s, boards and DMs dropped.
"""
from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
from typing import Any

from bot.games import registry, shipped
from bot.storage import DatabaseInUseError, GameRow, Storage
from bot.tables import TableError, TableService, bot_controlled

TABLES = 12
COMPARED = ("status", "version", "state", "seats", "host_id", "options", "deadline_at", "reminder_at")
TITLES = tuple(sorted(shipped()))


def titles() -> list[str]:
    """The game keys the fault run plays (those installed)."""
    return [k for k in TITLES if k in registry()]


async def open_table(service: TableService, channel: int, rng: random.Random) -> None:
    """Open a table of a random game in ``channel`` with a random number of seats (some bots) and start it."""
    key = rng.choice(titles())
    meta = registry()[key].meta
    players = rng.randint(meta.min_players, min(meta.max_players, meta.min_players + 2))
    game = await service.open(1, channel, key, 100, "U100")
    for user in range(1, players):
        if rng.random() < 0.3:
            await service.add_bot(game.id, 100)
        else:
            await service.join(game.id, 100 + user, f"U{100 + user}")
    await service.start(game.id, 100)


async def disagreements(service: TableService) -> int:
    """How many cached games differ from their database row."""
    count = 0
    for game_id, cached in list(service.tables.cache.items()):
        row = await service.storage.get_game(game_id)
        if row is None or any(json.dumps(getattr(cached, field), sort_keys=True) != json.dumps(getattr(row, field), sort_keys=True)
                              for field in COMPARED):
            count += 1
    return count


def stuck(service: TableService, games: list, now: float) -> int:
    """Running games nobody will move on: a bot seat to act, nobody to act, or a deadline passed."""
    count = 0
    for game in games:
        if game.status != "running":
            continue
        engine = service.engine(game)
        waiting = engine.to_act(game.state)
        if (engine.is_terminal(game.state) or not waiting or any(bot_controlled(game.seats[s]) for s in waiting)
                or (game.deadline_at is not None and game.deadline_at < now - 1)):
            count += 1
    return count


# --- the process that gets killed -------------------------------------------------------------
def storage_at(target: str) -> Storage:
    """The storage of a SQLite file, or of a PostgreSQL URL."""
    from bot.backend import make_storage

    return make_storage(target, target if target.startswith(("postgresql://", "postgres://")) else None)


async def child(path: str, seed: int) -> None:
    """Play moves on TABLES tables as fast as possible, printing ``ACK game version``
    once each move is acknowledged (stored), until killed. ``path``: a SQLite file or a PostgreSQL URL."""
    storage = await storage_at(path).open()
    service = TableService(storage, seed_source=lambda: random.getrandbits(40))
    await service.recover()  # what the bot does at start-up
    rng = random.Random(seed)
    print("READY", flush=True)
    while True:
        for channel in range(1, TABLES + 1):
            game = await service.in_channel(channel)
            if game is None:
                await open_table(service, channel, rng)
                game = await service.in_channel(channel)
                assert game is not None  # opened just above
                print(f"ACK {game.id} {game.version}", flush=True)
                continue
            if game.status != "running":
                continue
            engine = service.engine(game)
            assert game.state is not None  # running
            humans = [s for s in engine.to_act(game.state) if not bot_controlled(game.seats[s])]
            if not humans:
                continue
            seat = rng.choice(humans)
            action = engine.bot_action(game.state, seat, rng)
            try:
                outcome = await service.act(game.id, game.seats[seat]["user_id"], action)
            except TableError:
                continue
            print(f"ACK {game.id} {outcome.game.version}", flush=True)


async def check_after_crash(path: str, acked: dict[int, int]) -> tuple[int, int, int]:
    """After a crash: (acknowledged moves lost, games left stuck, cache/database disagreements)."""
    storage = await storage_at(path).open()
    try:
        lost = 0
        for game_id, version in acked.items():
            row = await storage.get_game(game_id)
            if row is None or row.version < version:
                lost += 1
        service = TableService(storage)
        await service.recover()  # the restart
        games = [await service.get(g.id) for g in await storage.active_games()]
        return lost, stuck(service, games, time.time()), await disagreements(service)
    finally:
        await storage.close()


def bench_crashes(kills: int, seed: int, target: str | None = None) -> list[int]:
    """Print what ``kills`` kill -9 of a playing bot process cost after each restart (on a SQLite file in a
    temporary folder, or the PostgreSQL database ``target``); returns the totals printed."""
    print(f"\n## crash: kill -9 of the bot process at {kills} random points while {TABLES} tables play, then restart"
          + (" (PostgreSQL)" if target else ""))
    rng = random.Random(seed)
    totals = [0, 0, 0]
    moves = 0
    with tempfile.TemporaryDirectory() as tmp:
        path = target or os.path.join(tmp, "crash.db")
        for kill in range(kills):
            proc = subprocess.Popen([sys.executable, "-m", "tools.bench_faults", "child", path, str(seed + kill)],
                                    stdout=subprocess.PIPE, text=True)
            acked: dict[int, int] = {}
            before_kill = rng.randint(5, 120)  # acknowledged moves before the kill
            count = 0
            assert proc.stdout is not None
            for line in proc.stdout:
                if line.startswith("ACK"):
                    _, gid, version = line.split()
                    acked[int(gid)] = max(acked.get(int(gid), 0), int(version))
                    count += 1
                    if count >= before_kill:
                        break
            time.sleep(rng.random() * 0.05)  # land anywhere in the next move
            proc.send_signal(signal.SIGKILL)
            proc.wait()
            proc.stdout.close()
            moves += count
            lost, stuck_games, disagree = asyncio.run(check_after_crash(path, acked))
            for i, v in enumerate((lost, stuck_games, disagree)):
                totals[i] += v
    print(f"{kills} kills after {moves} acknowledged moves: acknowledged moves lost {totals[0]},"
          f" games stuck after restart {totals[1]}, cache/database disagreements {totals[2]}")
    return totals


# --- faults inside one process ------------------------------------------------------------------
async def new_service(tmp: str, name: str, tables: int, seed: int) -> TableService:
    """A table service on a fresh database in ``tmp`` with ``tables`` started tables."""
    storage = await Storage(os.path.join(tmp, name)).open()
    service = TableService(storage, seed_source=iter(range(seed, seed + 10**6)).__next__)
    rng = random.Random(seed)
    for channel in range(1, tables + 1):
        await open_table(service, channel, rng)
    return service


async def one_move(service: TableService, game_id: int, rng: random.Random) -> tuple[str, float]:
    """A player's move as the cog makes it: ``ok``, ``refused`` (a readable answer such
    as "couldn't save, try again") or ``error``; and how long the player waited."""
    game = await service.get(game_id)
    if game.status != "running":
        return "over", 0.0
    engine = service.engine(game)
    assert game.state is not None  # running
    humans = [s for s in engine.to_act(game.state) if not bot_controlled(game.seats[s])]
    if not humans:
        return "over", 0.0
    seat = rng.choice(humans)
    action = engine.bot_action(game.state, seat, rng)
    start = time.perf_counter()
    try:
        await service.act(game_id, game.seats[seat]["user_id"], action)
        result = "ok"
    except TableError:
        result = "refused"
    except Exception:
        result = "error"
    return result, time.perf_counter() - start


async def bench_locked(seconds: float = 6.0) -> None:
    """Print what moves cost while another program holds the database's write lock for ``seconds``."""
    print(f"\n## locked: another program holds the write lock for {seconds:.0f} s while moves arrive")
    with tempfile.TemporaryDirectory() as tmp:
        service = await new_service(tmp, "locked.db", TABLES, 11)
        rng = random.Random(3)
        games = [g.id for g in await service.storage.active_games()]
        held = threading.Event()

        def hold() -> None:
            conn = sqlite3.connect(service.storage.path, isolation_level=None)
            conn.execute("BEGIN IMMEDIATE")
            held.set()
            time.sleep(seconds)
            conn.execute("ROLLBACK")
            conn.close()

        thread = threading.Thread(target=hold)
        thread.start()
        await asyncio.get_running_loop().run_in_executor(None, held.wait)
        during: list[tuple[str, float]] = []
        began = time.perf_counter()
        while thread.is_alive():
            during += await asyncio.gather(*(one_move(service, g, rng) for g in rng.sample(games, 4)))
            await asyncio.sleep(0.2)
        after = []
        for _ in range(3):
            after += await asyncio.gather(*(one_move(service, g, rng) for g in games))
        unanswered = sum(1 for r, t in during + after if r == "error" or t > 3.0)
        told = sum(1 for r, _ in during if r == "refused")
        failing_after = sum(1 for r, _ in after if r != "ok" and r != "over")
        print(f"{len(during)} moves during the lock ({time.perf_counter() - began:.1f} s): {told} told"
              f" \"couldn't save, try again\", slowest answer {max(t for _, t in during):.1f} s;"
              f" unanswered within 3 s {unanswered}; moves failing after the lock {failing_after};"
              f" cache/database disagreements {await disagreements(service)}")
        await service.storage.close()


class _FailingWrites:
    """The storage connection with random writes failing (disk full, I/O error)."""

    def __init__(self, db: Any, rng: random.Random, rate: float) -> None:
        self._db, self.rng, self.rate, self.on, self.fired = db, rng, rate, True, 0

    def __getattr__(self, name: str) -> Any:
        return getattr(self._db, name)

    def _maybe_fail(self, sql: str) -> None:
        if self.on and sql.lstrip().split(" ", 1)[0] in ("UPDATE", "INSERT", "COMMIT") and self.rng.random() < self.rate:
            self.fired += 1
            raise sqlite3.OperationalError(self.rng.choice(["database or disk is full", "disk I/O error"]))

    def before_statement(self, sql: str) -> None:  # the storage's writer thread asks before each statement
        self._maybe_fail(sql)

    def execute(self, sql: str, *args: Any, **kwargs: Any) -> Any:
        self._maybe_fail(sql)
        return self._db.execute(sql, *args, **kwargs)

    def executemany(self, sql: str, *args: Any, **kwargs: Any) -> Any:
        self._maybe_fail(sql)
        return self._db.executemany(sql, *args, **kwargs)


async def bench_disk(moves: int = 400) -> None:
    """Print what ``moves`` moves cost while a fifth of the writes fail (disk full, I/O error)."""
    print(f"\n## disk: 20% of writes fail (disk full / I/O error) during {moves} moves")
    with tempfile.TemporaryDirectory() as tmp:
        service = await new_service(tmp, "disk.db", TABLES, 21)
        storage = service.storage
        assert isinstance(storage, Storage)  # the SQLite store: its connection is swapped for a failing one
        rng = random.Random(5)
        games = [g.id for g in await storage.active_games()]
        faulty = _FailingWrites(storage.db, random.Random(9), 0.2)
        storage.db = faulty  # type: ignore[assignment]
        acked: dict[int, int] = {}
        results = []
        for _ in range(moves):
            g = rng.choice(games)
            result, _ = await one_move(service, g, rng)
            results.append(result)
            if result == "ok":
                acked[g] = (await service.get(g)).version
        faulty.on = False
        disagree = await disagreements(service)
        storage.db = faulty._db
        lost = 0
        for game_id, version in acked.items():
            stored = await storage.get_game(game_id)
            assert stored is not None  # games are never deleted
            lost += stored.version < version
        after = [r for r, _ in await asyncio.gather(*(one_move(service, g, rng) for g in games))]
        print(f"{faulty.fired} writes failed: {results.count('refused')} moves told \"couldn't save, try again\","
              f" {results.count('error')} unanswered; acknowledged moves lost {lost}; cache/database disagreements"
              f" {disagree}; moves failing once the disk recovers {sum(1 for r in after if r not in ('ok', 'over'))}")
        await storage.close()


async def bench_second_process() -> None:
    """Print whether a second process (or open) is refused the SQLite file, and stale copies overwriting newer rows."""
    print("\n## second process on the same database file")
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "one.db")
        first = await Storage(path).open()
        proc = subprocess.run([sys.executable, "-c", "import asyncio; from bot.storage import Storage;"
                               f" asyncio.run(Storage({path!r}).open())"], capture_output=True, text=True)
        refused = proc.returncode != 0 and "DatabaseInUseError" in proc.stderr
        try:
            await Storage(path).open()
            same_process = False
        except DatabaseInUseError:
            same_process = True
        await first.close()
        print(f"second process refused: {'yes' if refused else 'NO'}; second open in one process refused:"
              f" {'yes' if same_process else 'NO'}; stale copies overwriting a newer row: {await stale_overwrites(tmp)}")


async def stale_overwrites(tmp: str) -> int:
    """Two caches on one database (what two processes would be): joins and an end from
    a stale copy; count acknowledged changes the other copy then lost."""
    storage = await Storage(os.path.join(tmp, "two.db")).open()
    one, two = TableService(storage), TableService(storage)
    lost = 0
    for channel in range(1, 6):
        game = await one.open(1, channel, "tower", 100, "U100")
        await two.get(game.id)
        await one.join(game.id, 101, "U101")
        with contextlib.suppress(TableError):
            await two.join(game.id, 102, "U102")
        stored = await storage.get_game(game.id)
        assert stored is not None  # games are never deleted
        seated = [s["user_id"] for s in stored.seats]
        lost += 101 not in seated
        await one.start(game.id, 100)
        await two.get(game.id)
        await one.end(game.id, "ended")
        engine = two.engine(await two.get(game.id))
        row = await two.get(game.id)
        if row.status == "running":
            assert row.state is not None
            seat = engine.to_act(row.state)[0]
            with contextlib.suppress(TableError):
                await two.act(game.id, row.seats[seat]["user_id"], engine.bot_action(row.state, seat, random.Random(1)))
        stored = await storage.get_game(game.id)
        assert stored is not None  # games are never deleted
        lost += stored.status != "ended"
    await storage.close()
    return lost


async def bench_timer_race(trials: int = 10) -> None:
    """Print how often a move landing while a due reminder fires wipes the next player's reminder."""
    print(f"\n## timer race: a move lands while a due reminder fires ({trials} trials)")
    wiped = 0
    with tempfile.TemporaryDirectory() as tmp:
        storage = await Storage(os.path.join(tmp, "race.db")).open()
        now = [1_000_000.0]
        service = TableService(storage, seed_source=iter(range(1, 10**6)).__next__, clock=lambda: now[0])
        for trial in range(trials):
            game = await service.open(1, 100 + trial, "tower", 100, "U100", {"turn_minutes": 10})
            await service.join(game.id, 101, "U101")
            await service.start(game.id, 100)
            now[0] += 460
            due = storage.due_deadlines

            async def due_then_move(now: float, game_id: int = game.id) -> list[GameRow]:
                rows = await due(now)
                current = await service.get(game_id)
                engine = service.engine(current)
                assert current.state is not None  # running
                seat = engine.to_act(current.state)[0]
                await service.act(game_id, current.seats[seat]["user_id"],
                                  engine.bot_action(current.state, seat, random.Random(trial)))
                return rows

            storage.due_deadlines = due_then_move  # type: ignore[method-assign]
            await service.fire_timers()
            storage.due_deadlines = due  # type: ignore[method-assign]
            row = await storage.get_game(game.id)
            assert row is not None  # games are never deleted
            wiped += row.status == "running" and row.reminder_at is None
            await service.end(game.id, "done")
        await storage.close()
    print(f"next player's reminder wiped: {wiped} of {trials}")


async def bench_drawing(clicks: int = 20) -> None:
    """Print how players fare while the drawing worker is frozen (through the fake Discord)."""
    print(f"\n## drawing: the worker frozen (SIGSTOP) while players click {clicks} times through the fake Discord")
    try:
        from tests.faults.harness import frozen_worker_run
    except ImportError:
        print("(skipped: the test harness is not importable; run from the repository)")
        return
    unanswered, boards_missing, dms_missing, seconds = await frozen_worker_run(clicks)
    print(f"unanswered interactions {unanswered}; boards dropped {boards_missing}; errors logged {dms_missing}"
          f" ({seconds:.1f} s)")


def main(kills: int = 10) -> None:
    """The fault run: every fault in turn, with its figures (all must be 0)."""
    import logging

    logging.getLogger("heistcord").setLevel(logging.ERROR)  # the expected warnings would drown the figures
    started = time.perf_counter()
    print(f"heistcord fault run · {os.cpu_count()} CPUs")
    bench_crashes(kills, 1000)
    asyncio.run(bench_locked())
    asyncio.run(bench_disk())
    asyncio.run(bench_second_process())
    asyncio.run(bench_timer_race())
    asyncio.run(bench_drawing())
    print(f"\nfault run took {time.perf_counter() - started:.0f} s")


def main_pg(kills: int = 5, quick: bool = False) -> None:
    """The PostgreSQL fault run (``python -m tools.bench faults --pg``), on a server of its own as the tests start
    one (tests/pg.py; from the repository): players click while the server is stopped, frozen and slow to commit
    (tests/faults/pg_harness.py), then a bot process on it is killed (kill -9) mid-load. Every figure but the
    deadlines fired must be 0; those, all of them within 30 s."""
    import logging

    try:
        from tests.faults.pg_harness import DEADLINE_GRACE
        from tests.faults.pg_harness import run as pg_run
        from tests.pg import PgServer
    except ImportError:
        print("the PostgreSQL fault run needs the test harness: run it from the repository")
        return
    logging.getLogger("heistcord").setLevel(logging.ERROR)  # the expected warnings would drown the figures
    started = time.perf_counter()
    server = PgServer().start()
    try:
        version = subprocess.run([os.path.join(server._bin_dir, "postgres"), "--version"], capture_output=True,
                                 text=True).stdout.strip()
        print(f"heistcord PostgreSQL fault run · {os.cpu_count()} CPUs · load average"
              f" {os.getloadavg()[0]:.1f} · {version}")
        tallies = asyncio.run(pg_run(server, tables=4 if quick else 8, stopped=4 if quick else 10,
                                     frozen=4 if quick else 8, slow=3 if quick else 6))
        for tally in tallies:
            print(f"\n## {tally.name}\n{tally.line()}")
        url = asyncio.run(server.fresh_database())
        lost, stuck_games, disagree = bench_crashes(kills, 2000, target=url)
    finally:
        server.stop()
    deadlines, fired = sum(t.deadlines for t in tallies), sum(t.fired for t in tallies)
    print(f"\n## in all\ninteractions unanswered within 3 s {sum(t.unanswered for t in tallies)} of"
          f" {sum(t.interactions for t in tallies)}; \"not saved\" answers for moves that were saved"
          f" {sum(t.not_saved_but_saved for t in tallies)}; acknowledged moves lost"
          f" {sum(t.saved_but_lost for t in tallies) + lost}; boards of stored moves missing"
          f" {sum(t.boards_missing for t in tallies)}; timer loops dead {sum(t.timer_loops_dead for t in tallies)};"
          f" overdue deadlines fired after recovery {fired} of {deadlines} within {DEADLINE_GRACE:.0f} s (slowest"
          f" {max(t.slowest_fire for t in tallies):.1f} s); games stuck after a kill {stuck_games},"
          f" cache/database disagreements {disagree}")
    print(f"\nPostgreSQL fault run took {time.perf_counter() - started:.0f} s, load average now"
          f" {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    if len(sys.argv) >= 4 and sys.argv[1] == "child":
        asyncio.run(child(sys.argv[2], int(sys.argv[3])))
    else:
        main(int(sys.argv[1]) if len(sys.argv) > 1 else 10)
