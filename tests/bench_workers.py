"""The hop to a worker process and back, beside its floor: ``python -m tests.bench_workers [--jobs N]``.

A job that returns a board-sized answer (66 KB) at once, so all that is timed is the hand-over and the
answer's way back: through ``bot.workers.ProcessWorkers`` (the event loop writes to and reads from the
worker's socket), through ``concurrent.futures.ProcessPoolExecutor`` (what drew the boards before: a
management thread and a feeder thread on the way), and the floor, a blocking round trip over a bare socket
pair with a spawned echo process and no event loop. Each is timed with the event loop idle and with it busy
(a task computing in 2 ms slices with 1 ms pauses, as a bot's loop is while a board is drawn: the threads then wait for
the interpreter lock). The three are interleaved job by job, so the machine's load weighs on them alike.
"""
from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import os
import socket
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor

from bot.workers import FRAME, ProcessWorkers

ANSWER = 66_000


def board_sized(tag: int) -> bytes:
    """The job: an answer the size of a board's PNG."""
    return tag.to_bytes(4, "big") * (ANSWER // 4)


def echo(sock: socket.socket) -> None:
    """The floor's worker: answers each request with a board-sized message."""
    while True:
        if not sock.recv(64):
            return
        data = board_sized(0)
        sock.sendall(FRAME.pack(len(data)) + data)


def floor_round_trip(sock: socket.socket) -> None:
    """One blocking request and its full answer over the bare socket pair."""
    sock.sendall(b"x")
    need = FRAME.size + ANSWER
    while need:
        need -= len(sock.recv(min(need, 1 << 20)))


async def busy_loop(stop: asyncio.Event) -> None:
    """The event loop computes in 2 ms slices (holding the interpreter lock) with 1 ms pauses, as while a bot
    answers other clicks."""
    while not stop.is_set():
        end = time.perf_counter() + 0.002
        while time.perf_counter() < end:
            pass
        await asyncio.sleep(0.001)


async def run(jobs: int) -> None:
    loop = asyncio.get_running_loop()
    lean = ProcessWorkers(1, "bench")
    pool = ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn"))
    mine, theirs = socket.socketpair()
    echoer = multiprocessing.get_context("spawn").Process(target=echo, args=(theirs,), daemon=True)
    echoer.start()
    theirs.close()
    await lean.submit(board_sized, 0)  # both workers are up
    await loop.run_in_executor(pool, board_sized, 0)
    floor_round_trip(mine)
    try:
        for busy in (False, True):
            stop = asyncio.Event()
            worker = asyncio.create_task(busy_loop(stop)) if busy else None
            times: dict[str, list[float]] = {"lean": [], "pool": [], "floor": []}
            for n in range(jobs):
                start = time.perf_counter()
                await lean.submit(board_sized, n)
                times["lean"].append(time.perf_counter() - start)
                start = time.perf_counter()
                await loop.run_in_executor(pool, board_sized, n)
                times["pool"].append(time.perf_counter() - start)
                start = time.perf_counter()
                floor_round_trip(mine)
                times["floor"].append(time.perf_counter() - start)
            stop.set()
            if worker:
                await worker
            floor = statistics.median(times["floor"]) * 1000
            state = "busy (2 ms slices, 1 ms pauses)" if busy else "idle"
            for name, label in (("lean", "bot.workers.ProcessWorkers"), ("pool", "ProcessPoolExecutor (before)")):
                p50 = statistics.median(times[name]) * 1000
                p90 = sorted(times[name])[int(0.9 * jobs)] * 1000
                print(f"  worker round trip, event loop {state}, p50: {label} {p50:.3f} ms (p90 {p90:.3f} ms) |"
                      f" floor {floor:.3f} ms (blocking round trip over a bare socket pair) | ratio {p50 / floor:.1f}x",
                      flush=True)
    finally:
        lean.shutdown()
        pool.shutdown()
        mine.close()
        echoer.join(5)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--jobs", type=int, default=300, help="round trips of each kind")
    args = parser.parse_args(argv)
    print(f"the hop to a worker process and back ({args.jobs} jobs each, a {ANSWER // 1000} KB answer)"
          f" · {os.cpu_count()} CPUs · load average {os.getloadavg()[0]:.1f}", flush=True)
    asyncio.run(run(args.jobs))
    return 0


if __name__ == "__main__":
    sys.exit(main())
