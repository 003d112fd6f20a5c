"""Benchmarks: ``python -m tools.bench [--quick]`` prints figures for

* render: median time to render each game's public board, and its PNG size;
* bots: median time per bot decision, per game;
* load: many tables in one process (engine + SQLite + render of the board),
  moves arriving concurrently for a fixed time: moves/s, p50/p99 latency,
  memory, and that every game replays exactly from its log afterwards;
* restart: time for a new process to be ready with N stored games, and to serve
  the first move of a game it had never loaded.

These time the parts, in one process. What a player waits for (the bot in its own
process, driven through discord.py and the cogs on the fake Discord server, each figure
beside a floor from the same run) is measured by ``python -m tests.bench_load``.

``python -m tools.bench faults`` is the fault run (see tools.bench_faults): kill -9 at
random points, a locked or failing database, a second process, a timer race and a
frozen drawing worker, counting moves lost, games stuck, cache/database
disagreements and unanswered interactions. ``faults --pg`` is PostgreSQL's: its own
server stopped, frozen and slow to commit while players click, and kill -9 mid-load.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import resource
import statistics
import tempfile
import time
from typing import Any

from bot.coalesce import Coalescer
from bot.engine import Engine
from bot.games import registry
from bot.storage import Storage
from bot.tables import TableService, bot_rng
from rendering import render, render_async


def percentile(values: list[float], p: float) -> float:
    """The ``p``-th percentile of ``values`` (nearest rank)."""
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(p / 100 * (len(ordered) - 1))))
    return ordered[index]


def sample_states(engine: Engine, players: int, seed: int, every: int = 7) -> list[dict[str, Any]]:
    """States along one bot-played game (a mid-game board is the typical board)."""
    state = engine.setup([f"Player {i + 1}" for i in range(players)], engine.meta.resolve_options({}), seed)
    chooser = random.Random(seed)
    states = [json.loads(json.dumps(state))]
    for step in range(5000):
        if engine.is_terminal(state):
            break
        seat = engine.to_act(state)[0]
        engine.apply(state, seat, engine.bot_action(state, seat, chooser))
        if step % every == 0:
            states.append(json.loads(json.dumps(state)))
    return states


def bench_render(rounds: int) -> None:
    """Print the time and PNG size of drawing each game's public board."""
    print("\n## render: public board (median over states of a bot game)")
    print(f"{'game':<13}{'players':>8}{'median ms':>11}{'max ms':>9}{'PNG KB (median)':>17}")
    for key, engine in sorted(registry().items()):
        players = min(max(engine.meta.min_players, 4), engine.meta.max_players)
        states = sample_states(engine, players, 7)[:rounds]
        times, sizes = [], []
        render(key, "board", engine.view(states[0], None))  # warm caches (fonts, static art)
        for state in states:
            view = engine.view(state, None)
            start = time.perf_counter()
            png = render(key, "board", view)
            times.append((time.perf_counter() - start) * 1000)
            if png is not None:
                sizes.append(len(png) / 1024)
        if not sizes:
            print(f"{key:<13}{players:>8}{'(no renderer)':>20}")
            continue
        print(f"{key:<13}{players:>8}{statistics.median(times):>11.1f}{max(times):>9.1f}{statistics.median(sizes):>17.0f}")


def bench_bots(games: int) -> None:
    """Print the time each game's bot player takes per decision."""
    print("\n## bot players: time per decision")
    print(f"{'game':<13}{'decisions':>10}{'median ms':>11}{'p99 ms':>9}")
    for key, engine in sorted(registry().items()):
        times: list[float] = []
        for game in range(games):
            players = engine.meta.min_players + game % (engine.meta.max_players - engine.meta.min_players + 1)
            state = engine.setup([f"P{i}" for i in range(players)], engine.meta.resolve_options({}), 1000 + game)
            rng = random.Random(game)
            for _ in range(5000):
                if engine.is_terminal(state):
                    break
                seat = engine.to_act(state)[0]
                start = time.perf_counter()
                action = engine.bot_action(state, seat, rng)
                times.append((time.perf_counter() - start) * 1000)
                engine.apply(state, seat, action)
        print(f"{key:<13}{len(times):>10}{statistics.median(times):>11.3f}{percentile(times, 99):>9.3f}")


async def bench_load(tables: int, guilds: int, seconds: float, with_render: bool) -> None:
    """Players on ``tables`` tables move concurrently (each waits 0-2 s between moves,
    like people clicking). A move's latency is what the player waits for: engine,
    storage and the reply. With ``with_render``, every move also asks for a new
    board, drawn off the player's path and coalesced per table as the bot does
    (bot.coalesce): we report boards drawn per second and how stale a board gets."""
    what = "engine + storage; boards drawn and coalesced as the bot does" if with_render else "engine + storage"
    print(f"\n## load: {tables} tables in {guilds} guilds, moves arriving concurrently for {seconds:.0f} s ({what})")
    with tempfile.TemporaryDirectory() as tmp:
        storage = await Storage(os.path.join(tmp, "load.db")).open()
        service = TableService(storage, seed_source=iter(range(1, 10**9)).__next__)
        keys = sorted(registry())
        games = []
        for t in range(tables):
            key = keys[t % len(keys)]
            engine = registry()[key]
            players = min(max(engine.meta.min_players, 3), engine.meta.max_players)
            row = await service.open(t % guilds, 10_000 + t, key, 1, "U1")
            for user in range(2, players + 1):
                await service.join(row.id, user, f"U{user}")
            await service.start(row.id, 1)
            games.append(row.id)
        latencies: list[float] = []
        lags: list[float] = []
        drawn_at: list[float] = []  # when each board was drawn (counted then, not when queued)

        async def draw(game_id, stamps):
            game = await service.get(game_id)
            view = service.engine(game).view(game.state, None)
            await render_async(game.game_key, "board", view)
            now = time.perf_counter()
            drawn_at.append(now)
            lags.extend((now - t) * 1000 for t in stamps)

        boards = Coalescer(draw)
        pending: set[asyncio.Task] = set()
        stop_at = time.perf_counter() + seconds
        finished = 0

        async def player(game_id: int) -> None:
            nonlocal finished
            rng = random.Random(game_id)
            await asyncio.sleep(rng.random() * 2)
            while time.perf_counter() < stop_at:
                game = await service.get(game_id)
                if game.status != "running":
                    finished += 1
                    return
                engine = service.engine(game)
                assert game.state is not None  # running
                seat = rng.choice(engine.to_act(game.state))
                action = engine.bot_action(game.state, seat, bot_rng(game, game.version))
                start = time.perf_counter()
                await service.act(game_id, game.seats[seat]["user_id"], action)
                latencies.append((time.perf_counter() - start) * 1000)
                if with_render:
                    task = asyncio.create_task(boards.submit(game_id, [start]))
                    pending.add(task)
                    task.add_done_callback(pending.discard)
                await asyncio.sleep(rng.random() * 2)

        began = time.perf_counter()
        await asyncio.gather(*(player(g) for g in games))
        elapsed = time.perf_counter() - began
        if pending:
            await asyncio.gather(*pending)
        rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        print(f"moves: {len(latencies)} in {elapsed:.1f} s = {len(latencies) / elapsed:.0f} moves/s;"
              f" move latency p50 {percentile(latencies, 50):.1f} ms, p99 {percentile(latencies, 99):.1f} ms;"
              f" games finished {finished}; peak RSS {rss:.0f} MB")
        if with_render:
            during = sum(1 for t in drawn_at if t <= began + elapsed)
            print(f"boards: {during} drawn while the players moved ({during / elapsed:.0f}/s) for {len(latencies)}"
                  f" moves; {len(drawn_at) - during} more drawn after they stopped; a move is on a drawn board after"
                  f" p50 {percentile(lags, 50):.0f} ms, p99 {percentile(lags, 99):.0f} ms")
        start = time.perf_counter()
        mismatches = 0
        for game_id in games:
            live = await storage.get_game(game_id)
            assert live is not None and live.state is not None  # the benchmark's own games, kept
            _, replayed, _ = await service.replay(game_id)
            if json.dumps(replayed, sort_keys=True) != json.dumps(live.state, sort_keys=True):
                mismatches += 1
        print(f"replay check: {len(games) - mismatches}/{len(games)} games replay exactly from seed + log"
              f" ({time.perf_counter() - start:.1f} s)")
        await storage.close()


async def bench_restart(count: int) -> None:
    """Print how fast a restarted bot is ready with ``count`` games stored, and its first move on a cold one."""
    print(f"\n## restart with {count} stored running games")
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "restart.db")
        storage = await Storage(path).open()
        service = TableService(storage, seed_source=iter(range(1, 10**9)).__next__, cache_size=16)
        keys = sorted(registry())
        start = time.perf_counter()
        for table in range(count):
            key = keys[table % len(keys)]
            engine = registry()[key]
            row = await service.open(1, 50_000 + table, key, 1, "U1")
            for user in range(2, engine.meta.min_players + 1):
                await service.join(row.id, user, f"U{user}")
            await service.start(row.id, 1)
        print(f"created in {time.perf_counter() - start:.1f} s")
        await storage.close()
        start = time.perf_counter()
        storage = await Storage(path).open()
        fresh = TableService(storage)
        ready = time.perf_counter() - start
        active = await storage.count_active()
        start = time.perf_counter()
        game = await fresh.in_channel(50_000 + count // 2)
        assert game is not None and game.state is not None  # one of the running games created above
        engine = fresh.engine(game)
        seat = engine.to_act(game.state)[0]
        await fresh.act(game.id, game.seats[seat]["user_id"],
                        engine.bot_action(game.state, seat, bot_rng(game, game.version)))
        first = time.perf_counter() - start
        print(f"ready in {ready * 1000:.1f} ms with {active} active games stored (none loaded);"
              f" first move on a cold game {first * 1000:.1f} ms")
        await storage.close()


def main() -> None:
    """The ``python -m tools.bench`` command: every benchmark, or the fault run."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="small sizes, for a smoke run")
    parser.add_argument("run", nargs="?", choices=("all", "faults"), default="all",
                        help="'faults': the fault run (crashes, database faults, frozen drawing worker)")
    parser.add_argument("--kills", type=int, default=10, help="kill points of the fault run")
    parser.add_argument("--pg", action="store_true", help="faults: the PostgreSQL fault run (a server of its own:"
                        " stopped, frozen, slow to commit while players click; kill -9 mid-load)")
    args = parser.parse_args()
    if args.run == "faults":
        from tools.bench_faults import main as faults
        from tools.bench_faults import main_pg

        if args.pg:
            main_pg(2 if args.quick else min(args.kills, 5), quick=args.quick)
        else:
            faults(3 if args.quick else args.kills)
        return
    quick = args.quick
    print(f"heistcord benchmark · {os.cpu_count()} CPUs · games: {', '.join(sorted(registry()))}")
    bench_render(5 if quick else 30)
    bench_bots(2 if quick else 20)
    asyncio.run(bench_load(20 if quick else 500, 5 if quick else 50, 3 if quick else 20, with_render=False))
    asyncio.run(bench_load(20 if quick else 500, 5 if quick else 50, 3 if quick else 20, with_render=True))
    asyncio.run(bench_restart(200 if quick else 10_000))


if __name__ == "__main__":
    main()
