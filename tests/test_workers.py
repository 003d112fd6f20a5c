"""The worker processes of bot.workers: jobs go to a spawned process over a socket the event loop reads
itself (no threads of ours on the way), with a timeout, dead workers replaced and big answers read a
piece at a time."""
from __future__ import annotations

import asyncio
import os
import signal
import socket
import subprocess
import sys
import threading
import time

import pytest

from bot import workers
from bot.workers import ProcessWorkers, ThreadWorkers, WorkerDiedError, worker_pool


# --- jobs (module functions: a spawned worker imports them by name) ----------------------------------
def pid_and(value):
    return os.getpid(), value


def fail(message):
    raise ValueError(message)


def big(size):
    return b"x" * size


def sleep_then(seconds, value):
    time.sleep(seconds)
    return value


def die():
    os._exit(7)


@pytest.fixture
def pool():
    made = ProcessWorkers(1, "test")
    yield made
    made.shutdown()


async def test_a_job_runs_in_another_process_and_answers(pool):
    pid, value = await pool.submit(pid_and, {"a": [1, 2]})
    assert pid != os.getpid() and value == {"a": [1, 2]}
    again, _ = await pool.submit(pid_and, None)
    assert again == pid  # the same worker serves the next job


async def test_no_thread_of_ours_carries_a_job():
    """The hand-over and the answer go through the event loop's selector only: a ProcessPoolExecutor
    started a management thread and a queue feeder thread, each waiting for the busy loop's GIL."""
    before = set(threading.enumerate())
    made = ProcessWorkers(2, "test")
    try:
        await asyncio.gather(*(made.submit(pid_and, n) for n in range(4)))
        assert set(threading.enumerate()) <= before
    finally:
        made.shutdown()


async def test_an_error_comes_back_with_the_workers_traceback(pool):
    with pytest.raises(ValueError, match="no such card") as raised:
        await pool.submit(fail, "no such card")
    assert isinstance(raised.value.__cause__, workers.RemoteTracebackError)
    assert 'in fail\n    raise ValueError(message)' in str(raised.value.__cause__)
    assert (await pool.submit(pid_and, 1))[1] == 1  # the worker goes on


async def test_a_job_that_cannot_be_pickled_fails_alone(pool):
    with pytest.raises(Exception):
        await pool.submit(lambda: 1)
    assert (await pool.submit(pid_and, 2))[1] == 2


async def test_jobs_wait_their_turn_first_come_first_served(pool):
    answers = await asyncio.gather(*(pool.submit(pid_and, n) for n in range(5)))
    assert [v for _, v in answers] == list(range(5)) and len({p for p, _ in answers}) == 1


async def test_a_big_answer_is_read_a_piece_at_a_time_while_the_loop_goes_on(pool, monkeypatch):
    """A replay GIF of MBs must not hold the event loop: each turn of the loop reads at most READ_CAP
    bytes, and other callbacks run between the pieces."""
    await pool.submit(pid_and, 0)  # the worker is up
    turns = 0
    ticking = True

    def tick() -> None:
        nonlocal turns
        turns += 1
        if ticking:
            asyncio.get_running_loop().call_soon(tick)

    seen: list[int] = []
    worker = pool._idle[0]
    real = worker.readable

    def readable() -> None:
        seen.append(turns)
        real()

    worker.loop.remove_reader(worker.fd)
    worker.loop.add_reader(worker.fd, readable)
    tick()
    size = 6 * workers.READ_CAP + 123
    try:
        data = await pool.submit(big, size)
    finally:
        ticking = False
    assert data == b"x" * size
    assert len(seen) > 6 and all(a < b for a, b in zip(seen, seen[1:]))  # other work ran between pieces


async def test_a_job_over_its_timeout_kills_the_worker_and_the_next_job_gets_a_new_one(pool):
    first, _ = await pool.submit(pid_and, 0)
    stuck = pool.processes[0]
    with pytest.raises(TimeoutError):
        await pool.submit(sleep_then, 60, "late", timeout=0.5)
    second, _ = await pool.submit(pid_and, 0)
    assert second != first
    stuck.join(5)
    assert stuck.exitcode is not None  # killed and reaped: no zombie


async def test_the_timeout_counts_from_when_the_worker_starts_the_job(pool):
    """A job waiting behind another isn't charged for the wait (nor for a worker's start)."""
    slow = pool.submit(sleep_then, 0.6, "slow", timeout=5)
    quick = pool.submit(sleep_then, 0.0, "quick", timeout=0.5)
    assert await asyncio.gather(slow, quick) == ["slow", "quick"]


async def test_a_worker_that_dies_fails_its_job_and_is_replaced(pool):
    first, _ = await pool.submit(pid_and, 0)
    with pytest.raises(WorkerDiedError):
        await pool.submit(die)
    second, _ = await pool.submit(pid_and, 0)
    assert second != first


async def test_an_idle_worker_killed_from_outside_is_noticed_and_replaced(pool):
    first, _ = await pool.submit(pid_and, 0)
    os.kill(first, signal.SIGKILL)
    async with asyncio.timeout(10):
        while pool.processes:
            await asyncio.sleep(0.01)
    second, _ = await pool.submit(pid_and, 0)
    assert second != first


async def test_a_cancelled_job_waiting_is_never_run_and_a_running_one_drops_its_answer(pool):
    first, _ = await pool.submit(pid_and, "first")
    running = pool.submit(sleep_then, 0.3, "dropped")
    waiting = pool.submit(die)  # would kill the worker if it ran (before "next": jobs run in order)
    waiting.cancel()
    running.cancel()
    pid, value = await pool.submit(pid_and, "next")
    assert value == "next" and pid == first  # the same worker: the cancelled job never ran


def test_the_workers_move_to_a_new_event_loop(pool):
    """Each test (and each ``asyncio.run``) has its own loop: the idle worker serves the next one."""
    first, _ = asyncio.run(_ask(pool))
    second, _ = asyncio.run(_ask(pool))
    assert first == second


async def _ask(pool):
    return await pool.submit(pid_and, None)


def test_shutdown_reaps_every_worker(pool):
    asyncio.run(_ask(pool))
    processes = pool.processes
    pool.shutdown()
    assert processes and all(p.exitcode is not None for p in processes) and not pool.processes


def test_a_process_using_workers_exits_cleanly_without_shutdown():
    """At exit the workers stop and are reaped: no warning, no traceback, nothing left running."""
    script = ("import asyncio\n"
              "from bot.workers import ProcessWorkers\n"
              "from tests.test_workers import pid_and\n"
              "pool = ProcessWorkers(2, 'exit')\n"
              "async def main():\n"
              # -X dev also reports a step of the loop slower than 0.1 s: starting processes on a loaded machine
              # is (timing, not the clean exit this test is about)
              "    asyncio.get_running_loop().slow_callback_duration = 3600\n"
              "    print(*[pid for pid, _ in await asyncio.gather(*(pool.submit(pid_and, n) for n in range(3)))])\n"
              "asyncio.run(main())\n")
    run = subprocess.run([sys.executable, "-X", "dev", "-c", script], capture_output=True, text=True, timeout=120,
                         cwd=os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    assert run.returncode == 0 and run.stderr == "", run.stderr
    for pid in {int(p) for p in run.stdout.split()}:
        with pytest.raises(ProcessLookupError):
            os.kill(pid, 0)


async def test_the_thread_workers_keep_the_same_promises():
    made = worker_pool(0, "test")
    assert isinstance(made, ThreadWorkers)
    assert await made.submit(pid_and, 3) == (os.getpid(), 3)
    with pytest.raises(ValueError):
        await made.submit(fail, "bad")
    with pytest.raises(TimeoutError):
        await made.submit(sleep_then, 1.0, "late", timeout=0.1)
    assert await made.submit(pid_and, 4) == (os.getpid(), 4)  # a fresh thread, not behind the stuck one
    made.shutdown()


async def test_a_worker_that_cannot_start_fails_the_job_not_the_caller(pool, monkeypatch):
    class NoProcess:
        def __init__(self, *args, **kwargs):
            raise OSError("too many processes")

    monkeypatch.setattr(workers, "_Worker", NoProcess)
    with pytest.raises(WorkerDiedError, match="could not start|could start"):
        await pool.submit(pid_and, 1)
    monkeypatch.undo()
    assert (await pool.submit(pid_and, 2))[1] == 2


async def test_a_timer_of_a_job_stopped_by_shutdown_touches_nothing_after(pool):
    """A worker's socket number is reused once it is closed: the stopped job's timeout must not
    unregister the new owner's reader (it used to, and that socket then went deaf)."""
    running = pool.submit(sleep_then, 60, "late", timeout=0.3)
    await asyncio.sleep(0.1)
    pool.shutdown()
    assert running.cancelled()
    ours, theirs = socket.socketpair()
    heard = asyncio.Event()
    loop = asyncio.get_running_loop()
    loop.add_reader(ours.fileno(), heard.set)
    try:
        await asyncio.sleep(0.5)  # the old timer's moment
        theirs.send(b"x")
        async with asyncio.timeout(5):
            await heard.wait()
    finally:
        loop.remove_reader(ours.fileno())
        ours.close()
        theirs.close()
