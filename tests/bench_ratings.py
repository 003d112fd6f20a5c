"""A game's last move with and without its rating: ``python -m tests.bench_ratings [--games N] [--ladder N] [--pg]``.

The rating of a finished game is made in the transaction that records its results (bot/rating_store.py): on
SQLite in the writer thread, beside the event loop; on PostgreSQL its SQL goes through the loop (asyncpg) and its
arithmetic to a thread. This times what a player's last click waits for, on the table service: Coin Pile tables of
3 players (drawn from 60 on one server, whose ladder already holds ``--ladder`` rated games) played to the end, and
for each game

* its last move (the one that records the results and the ratings): the whole ``act`` as the click awaits it, and
  the event loop thread's own CPU time during it;
* the move before it, the floor: the same work but for the results and the ratings;

with the ratings on, and off (the rating step replaced by nothing), alternating game by game so that the machine's
load weighs on both alike. The rating step's own time, on the thread that runs it, is printed too.
"""
from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import sys
import tempfile
import time
from typing import Any

from bot import rating_store
from bot.games import register
from bot.storage import Storage
from bot.storage_pg import PgStorage
from bot.tables import TableService
from tests.dummy_game import ENGINE as DUMMY
from tools.bench import percentile

GUILD = 1
PLAYERS = 60


def nothing(*args: Any) -> rating_store.Procedure[None]:
    """The rating step turned off."""
    return
    yield


async def play(svc: TableService, rng: random.Random, channel: int,
               times: dict[str, list[float]] | None = None, label: str = "") -> None:
    """One 3-player game to its end; with ``times``, its last two moves timed under ``label``."""
    users = rng.sample(range(1000, 1000 + PLAYERS), 3)
    game = await svc.open(GUILD, channel, "dummy", users[0], f"P{users[0]}", {"pile": 7})
    for uid in users[1:]:
        await svc.join(game.id, uid, f"P{uid}")
    await svc.start(game.id, users[0])
    while game.status == "running":
        pile = game.state["pile"]
        last = pile <= 2
        take = pile if last else 1
        if times is not None and pile <= 3:  # the move before the last (pile 3: take 1 leaves 2), and the last
            kind = "last" if last else "floor"
            cpu, wall = time.thread_time(), time.perf_counter()
            await svc.act(game.id, game.seats[game.state["turn"]]["user_id"], {"type": "take", "n": take})
            times.setdefault(f"{kind} {label} wall", []).append((time.perf_counter() - wall) * 1000)
            times.setdefault(f"{kind} {label} loop", []).append((time.thread_time() - cpu) * 1000)
        else:
            await svc.act(game.id, game.seats[game.state["turn"]]["user_id"], {"type": "take", "n": take})


def cells(values: list[float]) -> str:
    return f"{statistics.median(values):.3f} / {percentile(values, 99):.3f}"


async def run(storage: Storage, games: int, ladder: int) -> None:
    """Fill the ladder, then time ``games`` games' last moves, the ratings on and off by turns."""
    register(DUMMY)
    seeds = iter(range(1, 10**9))
    svc = TableService(storage, seed_source=lambda: next(seeds))
    rng = random.Random(1)
    began = time.perf_counter()
    for i in range(ladder):
        await play(svc, rng, 10 + i)
    print(f"ladder filled: {ladder} rated games in {time.perf_counter() - began:.0f} s", flush=True)
    real = rating_store.record_game
    spent: list[float] = []

    def timed(*args: Any) -> rating_store.Procedure[None]:
        start = time.thread_time()
        yield from real(*args)
        spent.append((time.thread_time() - start) * 1000)

    times: dict[str, list[float]] = {}
    try:
        for i in range(games):
            on = i % 2 == 0
            rating_store.record_game = timed if on else nothing  # type: ignore[assignment]
            await play(svc, rng, 100_000 + i, times, "on" if on else "off")
    finally:
        rating_store.record_game = real  # type: ignore[assignment]
    print(f"\n{games} games ({games // 2} with the ratings on, {games - games // 2} off), ms, p50 / p99:\n")
    print("| move | ratings | act, as the click waits (wall) | event loop CPU during it |")
    print("|---|---|---|---|")
    for kind, name in (("floor", "the move before the last (the floor)"), ("last", "the last move")):
        for label in ("off", "on"):
            print(f"| {name} | {label} | {cells(times[f'{kind} {label} wall'])} | {cells(times[f'{kind} {label} loop'])} |")
    where = "the writer thread" if not isinstance(storage, PgStorage) else "the event loop (SQL via asyncpg)"
    print(f"\nthe rating step itself (enter the game, rate it, store it), CPU on {where}: {cells(spent)} ms")
    status = await storage.all_ratings()
    rated = sum(1 for row in status if row[0] == "game" and row[-1] == "rated")
    print(f"rated games on the ladder: {rated}")
    # Unrating a game rebuilds its whole ladder in one transaction (on SQLite the writer thread's: the moves of
    # every table wait for it meanwhile).
    first = min(row[2] for row in status if row[0] == "game")
    wall = time.perf_counter()
    await storage.unrate_game(first)
    print(f"/gameadmin unrate: the ladder of {rated - 1} games rebuilt in {(time.perf_counter() - wall) * 1000:.0f} ms")


async def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=400, help="games timed (half with the ratings on)")
    parser.add_argument("--ladder", type=int, default=500, help="rated games on the ladder before timing")
    parser.add_argument("--pg", action="store_true", help="on PostgreSQL (a server started for the run)")
    args = parser.parse_args(argv)
    print(f"bench_ratings · {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())} · load average"
          f" {os.getloadavg()[0]:.1f} · {'PostgreSQL' if args.pg else 'SQLite'}", flush=True)
    server: Any = None
    with tempfile.TemporaryDirectory() as tmp:
        if args.pg:
            from tests.pg import PgServer

            server = PgServer().start()
            storage: Storage = await PgStorage(await server.fresh_database()).open()
        else:
            storage = await Storage(os.path.join(tmp, "bench.db")).open()
        try:
            await run(storage, args.games, args.ladder)
        finally:
            await storage.close()
            if server is not None:
                server.stop()
    print(f"load average now {os.getloadavg()[0]:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
