"""Coalesce work per key: while a board is being drawn and posted for a table,
further moves on that table only queue their events; when the drawing is done,
one more board shows the latest state with everything queued. A burst of moves
(bot seats, simultaneous commits, a busy server) costs one render, not many."""
from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Hashable
from typing import Any


class Coalescer:
    """Runs one piece of work per key at a time, folding what arrives meanwhile into one more run."""
    def __init__(self, work: Callable[[Hashable, list[Any]], Awaitable[None]]) -> None:
        self._work = work
        self._queued: dict[Hashable, list[Any]] = {}
        self._running: set[Hashable] = set()
        self._idle = asyncio.Event()  # set while no work is running for any key
        self._idle.set()
        self.runs = 0  # how many times work ran (for benchmarks)

    async def submit(self, key: Hashable, items: list[Any]) -> None:
        """Queue ``items`` for ``key``. If no work is running for ``key``, run it
        now (and again while more items arrive); otherwise return at once: the
        running call will pick the items up."""
        self._queued.setdefault(key, []).extend(items)
        if key in self._running:
            return
        self._running.add(key)
        self._idle.clear()
        try:
            while key in self._queued:
                batch = self._queued.pop(key)
                self.runs += 1
                await self._work(key, batch)
        finally:
            self._running.discard(key)
            if not self._running:
                self._idle.set()

    def busy(self, key: Hashable) -> bool:
        """Whether work for ``key`` is running now."""
        return key in self._running

    async def idle(self) -> None:
        """Wait until no work is running for any key (woken by the last run's end, no polling)."""
        await self._idle.wait()
