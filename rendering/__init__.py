"""Pillow renderers. Each game has ``rendering/<key>.py`` drawing *views* only
(never full state), so a public image cannot show a secret by construction.

A renderer module provides ``render_board(view) -> Image`` and may provide
``render_private(view) -> Image | None`` (a seat's own view) and
``render_final(view, scores) -> Image`` (the final scoreboard).
"""
from __future__ import annotations

import asyncio
import heapq
import importlib
import itertools
import logging
import os
from functools import lru_cache
from types import ModuleType
from typing import Any

from bot.workers import WorkerDiedError, Workers, worker_pool
from rendering.common import drawing_in, to_png


@lru_cache(maxsize=None)
def renderer(key: str) -> ModuleType | None:
    """The game's renderer module, or None if the game draws no pictures."""
    try:
        return importlib.import_module(f"rendering.{key}")
    except ModuleNotFoundError as exc:
        if exc.name == f"rendering.{key}":
            return None
        raise


Snapshots = list[tuple[int, dict[str, Any]]]  # a replay's turn snapshots: (moves made, public view)


def render(key: str, kind: str, view: dict[str, Any] | Snapshots, *extra: Any) -> bytes | None:
    """PNG bytes of ``render_<kind>`` for game ``key``, or None if it has none. For ``kind == "replay"``
    (the whole game as an animated image) ``view`` is the list of its turn snapshots."""
    module = renderer(key)
    if isinstance(view, list):
        if kind != "replay":
            raise TypeError(f"render_{kind} draws one view, not a list of snapshots")
        from rendering.animate import render_replay
        return render_replay(module, view, *extra) if module else None
    func = getattr(module, f"render_{kind}", None) if module else None
    if func is None:
        return None
    from rendering.palette import game_palette  # here: ``python -m rendering.palette`` runs that module as main

    palette = game_palette(key)
    with drawing_in(palette):  # drawn in the game's palette: no colour mapping pixel by pixel after
        image = func(view, *extra)
    return None if image is None else to_png(image, palette)


# Drawing runs in a worker process by default: Pillow work then never competes with
# the event loop for the interpreter, so clicks stay fast while boards are drawn
# (measured by ``python -m tools.bench``). There is one worker per core but one (at
# least one); HEISTCORD_RENDER_WORKERS sets how many, and 0 draws on one thread of
# the bot's own process instead.
#
# The worker is watched: a drawing that takes longer than RENDER_TIMEOUT seconds is
# abandoned and the worker replaced (a frozen worker must not freeze every board), a
# worker that dies is replaced, and a picture that can't be drawn comes back as None,
# so the caller posts its text alone instead of dropping the message. Drawings wait
# for the worker in priority order: a picture a player is waiting for (``urgent``: their
# hand on "Show my hand") goes before the public boards queued ahead of it; a hand
# picture DMed in the background lets boards asked up to BACKGROUND_GRACE seconds after
# it go first (a move asks for its DMs and its board together, and the board is what the
# whole table waits for), but no later ones, so under load neither starves the other.
BACKGROUND_GRACE = 1.0  # seconds a background picture lets boards go first
RENDER_TIMEOUT = 15.0  # seconds (Config.render_timeout, HEISTCORD_RENDER_TIMEOUT)
RENDER_WORKERS: int | None = None  # drawing processes (Config.render_workers); None: one per core but one


def configure(workers: int | None, timeout: float) -> None:
    """The drawing settings from the bot's Config (set before the first picture)."""
    global RENDER_WORKERS, RENDER_TIMEOUT
    RENDER_WORKERS, RENDER_TIMEOUT = workers, timeout


def render_timeout() -> float:
    """Seconds a drawing may take before it is abandoned."""
    return RENDER_TIMEOUT

log = logging.getLogger("heistcord.rendering")
_executor: Workers | None = None
_gate: "_PriorityGate | None" = None


def _cores() -> int:
    """The cores this process may run on (a container's CPU set, not the host's count)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def _workers() -> int:
    """Drawing processes: HEISTCORD_RENDER_WORKERS, by default one per core but one,
    which is left to the event loop (and at least one)."""
    return RENDER_WORKERS if RENDER_WORKERS is not None else max(1, _cores() - 1)


def render_executor() -> Workers:
    """The drawing workers (a process starts at the first picture)."""
    global _executor
    if _executor is None:
        _executor = worker_pool(_workers(), "render")
    return _executor


def shutdown() -> None:
    """Stop the drawing workers (the next picture starts new ones)."""
    global _executor
    if _executor is not None:
        _executor.shutdown()
        _executor = None


class _PriorityGate:
    """At most ``size`` drawings in the worker at once; the others wait in priority
    order (lower first), then by when they are due (first come first served, a
    background picture counted as asked ``BACKGROUND_GRACE`` seconds later)."""

    def __init__(self, size: int) -> None:
        self.loop = asyncio.get_running_loop()
        self.size = size
        self.busy = 0
        self.waiting: list[tuple[int, float, int, asyncio.Future]] = []
        self._order = itertools.count()

    async def acquire(self, priority: int, delay: float = 0.0) -> None:
        if self.busy < self.size and not self.waiting:
            self.busy += 1
            return
        future = self.loop.create_future()
        heapq.heappush(self.waiting, (priority, self.loop.time() + delay, next(self._order), future))
        try:
            await future
        except asyncio.CancelledError:
            if future.done() and not future.cancelled():
                self.release()  # we had been handed a slot: pass it on
            raise

    def release(self) -> None:
        while self.waiting:
            *_, future = heapq.heappop(self.waiting)
            if not future.done():
                future.set_result(None)  # the slot goes straight to the next in line
                return
        self.busy -= 1

    @property
    def queued(self) -> int:
        return sum(1 for *_, f in self.waiting if not f.done())


def drawing_idle() -> bool:
    """The drawing worker has a free slot and nothing waits for one: a picture asked for now starts at once."""
    gate = _gate_for_loop()
    return gate.busy < gate.size and not gate.queued


def _gate_for_loop() -> _PriorityGate:
    global _gate
    if _gate is None or _gate.loop is not asyncio.get_running_loop():
        _gate = _PriorityGate(max(1, _workers()))
    return _gate


async def render_async(key: str, kind: str, view: dict[str, Any] | Snapshots, *extra: Any,
                       urgent: bool = False, background: bool = False) -> bytes | None:
    """``render`` off the event loop, in the drawing worker. None when the game has no
    such picture, or when it couldn't be drawn (too slow, worker died twice, renderer
    error): the caller then sends its text alone. ``urgent``: a player is waiting for it;
    ``background``: nobody watches for it (a DMed hand), boards asked soon after go first."""
    gate = _gate_for_loop()
    await gate.acquire(0 if urgent else 1, BACKGROUND_GRACE if background and not urgent else 0.0)
    try:
        for attempt in (1, 2):
            try:
                # wrap_future: the future of a wrapped executor (the benchmark's timeline) may be a concurrent one
                return await asyncio.wrap_future(render_executor().submit(
                    render, key, kind, view, *extra, timeout=render_timeout()))
            except TimeoutError:
                log.warning("drawing %s/%s took over %.0f s: abandoned, the drawing worker is replaced",
                            key, kind, render_timeout())
                return None
            except WorkerDiedError:
                if attempt == 2:
                    log.warning("the drawing worker died twice drawing %s/%s: sent without the picture", key, kind)
                    return None
            except Exception:
                log.exception("drawing %s/%s failed: sent without the picture", key, kind)
                return None
        return None
    finally:
        gate.release()
