"""The one way tests and benchmarks run a bot in its own process against the fake Discord.

A :class:`BotProcess` is ``python -m tests.bench_botproc <bot> --url <fake> --guild <id> ...`` started from the
repository root in a session of its own (so a kill takes its drawing worker too), logging to a file. ``start`` waits
until a readiness check passes (failing with the log's tail if the process dies or the time runs out), ``stop`` asks
it to stop with SIGTERM and kills it if it does not, ``kill9`` kills it at once (a crash).
"""
from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Callable, Sequence

ROOT = Path(__file__).resolve().parent.parent


def log_tail(path: str | os.PathLike[str], lines: int = 30) -> str:
    """The last ``lines`` lines of a log file, or "(no log)"."""
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            return "".join(f.readlines()[-lines:])
    except OSError:
        return "(no log)"


def new_sessions_on(fake: Any, *shards: tuple[int, int]) -> Callable[[], bool]:
    """A readiness check: from now on, a new live gateway session of the fake on each of ``shards``
    (``(shard_id, shard_count)``; ``(0, 1)`` for an unsharded bot)."""
    before = {id(s) for s in fake._sessions}

    def ready() -> bool:
        live = {s.shard for s in fake._live_sessions() if id(s) not in before}
        return all(shard in live for shard in shards)

    return ready


class BotProcess:
    """One bot process (``tests/bench_botproc.py``: ``heistcord`` or the ``bare`` floor) on a fake Discord."""

    def __init__(self, url: str, log_path: str | os.PathLike[str], *, bot: str = "heistcord", guild: int = 0,
                 args: Sequence[str] = (), name: str = "") -> None:
        self.url, self.log_path, self.bot, self.guild = url, Path(log_path), bot, guild
        self.args = list(args)
        self.name = name or bot
        self.proc: subprocess.Popen[bytes] | None = None
        #: ``time.perf_counter()`` just before the process was started
        self.started_at = 0.0

    @property
    def command(self) -> list[str]:
        return [sys.executable, "-m", "tests.bench_botproc", self.bot, "--url", self.url, "--guild", str(self.guild),
                *self.args]

    @property
    def pid(self) -> int:
        assert self.proc is not None, "the bot process was not started"
        return self.proc.pid

    @property
    def running(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def launch(self) -> None:
        """Start the process (appending to its log) without waiting for it."""
        with open(self.log_path, "ab") as log:
            self.started_at = time.perf_counter()
            self.proc = subprocess.Popen(self.command, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT,
                                         stdin=subprocess.DEVNULL, start_new_session=True,
                                         env={**os.environ, "PYTHONPATH": str(ROOT)})

    async def wait_ready(self, ready: Callable[[], Any], *, timeout: float = 60.0, poll: float = 0.05) -> None:
        """Wait until ``ready()`` is true; RuntimeError with the log's tail if the process ends or time runs out."""
        await wait_ready([self], ready, timeout=timeout, poll=poll)

    async def start(self, ready: Callable[[], Any], *, timeout: float = 60.0, poll: float = 0.05) -> None:
        """Start the process and wait until ``ready()`` is true (see :meth:`wait_ready`)."""
        self.launch()
        await self.wait_ready(ready, timeout=timeout, poll=poll)

    async def stop(self, grace: float = 10.0) -> None:
        """SIGTERM, then SIGKILL to its whole session if it has not ended within ``grace`` seconds."""
        if not self.running:
            return
        assert self.proc is not None
        self.proc.send_signal(signal.SIGTERM)
        deadline = time.perf_counter() + grace
        while self.proc.poll() is None and time.perf_counter() < deadline:
            await asyncio.sleep(0.05)
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)  # its own session: the bot and its drawing worker
            self.proc.wait(5)

    def kill9(self) -> None:
        """SIGKILL the bot and its drawing worker at once, as a crash would."""
        os.killpg(self.pid, signal.SIGKILL)
        assert self.proc is not None
        self.proc.wait(10)

    def log(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""

    def log_tail(self, lines: int = 30) -> str:
        return log_tail(self.log_path, lines)


async def wait_ready(procs: Sequence[BotProcess], ready: Callable[[], Any], *, timeout: float = 60.0,
                     poll: float = 0.05) -> None:
    """Wait until ``ready()`` is true while every one of ``procs`` runs; RuntimeError with their logs' tails if one
    ends or the time runs out."""
    deadline = time.perf_counter() + timeout
    while not ready():
        if not all(proc.running for proc in procs) or time.perf_counter() > deadline:
            logs = "\n".join(f"--- {proc.name}\n{proc.log_tail()}" for proc in procs)
            raise RuntimeError(f"{', '.join(proc.name for proc in procs)}: the bot did not connect; its log:\n{logs}")
        await asyncio.sleep(poll)
