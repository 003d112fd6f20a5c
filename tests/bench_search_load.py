"""Do hard bots delay other tables' clicks? ``python -m tests.bench_search_load [--quick]``.

In one process (the table service, its SQLite file, the event loop, as in the bot), BUSY
Tower tables each seat one player and three bots; their player moves as soon as the bots
are done, so bots think all the time. Meanwhile a PROBE table of two players (the coin
game, no bot) takes a move every 20 ms, and each probe move's latency is timed
(``await service.act`` from call to return).

Run three times in the same run:
  * ``idle``: no busy tables -- the floor;
  * the busy tables' bots ``normal`` (the heuristic, on the event loop as before);
  * the busy tables' bots ``hard`` (the search, in the worker process pool).
Printed: probe move latency p50 / p99, the p99 ratios against the floor, and how many
bot moves the busy tables made. The hard search must not make the probe's p99 worse than the floor
by more than noise: it runs in another process, the loop only awaits it.
"""
from __future__ import annotations

import argparse
import asyncio
import os
import random
import sys
import tempfile
import time

from bot.games import get_engine, register
from bot.search import pool as search_pool
from bot.storage import Storage
from bot.tables import TableService
from tests.dummy_game import ENGINE as DUMMY

register(DUMMY)


async def busy_table(svc: TableService, channel: int, level: str, stop: asyncio.Event, counter: list[int]) -> None:
    engine = get_engine("tower")
    rng = random.Random(channel)
    while not stop.is_set():
        game = await svc.open(1, channel, "tower", 1000 + channel, f"P{channel}")
        for _ in range(3):
            await svc.add_bot(game.id, 1000 + channel, level)
        outcome = await svc.start(game.id, 1000 + channel)
        counter[0] += len(outcome.moves)
        while outcome.game.status == "running" and not stop.is_set():
            outcome = await svc.act(game.id, 1000 + channel, engine.bot_action(outcome.game.state, 0, rng))
            counter[0] += len(outcome.moves)
        channel += 100


async def probe(svc: TableService, moves: int, latencies: list[float]) -> None:
    channel = 9000
    while len(latencies) < moves:
        game = await svc.open(1, channel, "dummy", 1, "A", {"pile": 30})
        await svc.join(game.id, 2, "B")
        row = (await svc.start(game.id, 1)).game
        while row.status == "running" and len(latencies) < moves:
            await asyncio.sleep(0.02)
            seat = DUMMY.to_act(row.state)[0]
            start = time.perf_counter()
            row = (await svc.act(game.id, 1 + seat, {"type": "take", "n": 1})).game
            latencies.append(1000 * (time.perf_counter() - start))
        channel += 1


async def run(level: str, tables: int, moves: int) -> tuple[list[float], int]:
    with tempfile.TemporaryDirectory() as tmp:
        storage = await Storage(os.path.join(tmp, "b.db")).open()
        seeds = iter(range(1, 1_000_000))
        svc = TableService(storage, seed_source=lambda: next(seeds))
        stop = asyncio.Event()
        counter = [0]
        busy = [asyncio.create_task(busy_table(svc, 10 + t, level, stop, counter)) for t in range(tables)]
        latencies: list[float] = []
        await asyncio.sleep(3.0)  # the busy tables get going (and the pool starts)
        await probe(svc, moves, latencies)
        stop.set()
        await asyncio.gather(*busy, return_exceptions=True)
        await storage.close()
    return latencies, counter[0]


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="fewer probe moves")
    parser.add_argument("--tables", type=int, default=4)
    args = parser.parse_args(argv)
    moves = 60 if args.quick else 300
    search_pool.configure(1)  # one search process, as a bot with the default settings has
    rows = {}
    try:
        for level in ("idle", "normal", "hard"):
            latencies, bot_moves = asyncio.run(run(level, 0 if level == "idle" else args.tables, moves))
            rows[level] = (pct(latencies, 0.5), pct(latencies, 0.99), bot_moves)
            print(f"busy bots {level:6}: probe move p50 {rows[level][0]:6.1f} ms  p99 {rows[level][1]:6.1f} ms"
                  f"  ({len(latencies)} probe moves, {bot_moves} busy-table moves)", flush=True)
    finally:
        search_pool.shutdown()
    print(f"probe p99 ratio hard/idle: {rows['hard'][1] / rows['idle'][1]:.2f}"
          f"   normal/idle: {rows['normal'][1] / rows['idle'][1]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
