"""Pillow renderers. Each game has ``rendering/<key>.py`` drawing *views* only
(never full state), so a public image cannot show a secret by construction.

A renderer module provides ``render_board(view) -> Image`` and may provide
``render_private(view) -> Image | None`` (a seat's own view) and
``render_final(view, scores) -> Image`` (the final scoreboard).
"""
from __future__ import annotations

import asyncio
import importlib
import multiprocessing
import os
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from functools import lru_cache
from types import ModuleType
from typing import Any

from rendering.common import to_png


@lru_cache(maxsize=None)
def renderer(key: str) -> ModuleType | None:
    try:
        return importlib.import_module(f"rendering.{key}")
    except ModuleNotFoundError as exc:
        if exc.name == f"rendering.{key}":
            return None
        raise


def render(key: str, kind: str, view: dict[str, Any], *extra: Any) -> bytes | None:
    """PNG bytes of ``render_<kind>`` for game ``key``, or None if it has none."""
    module = renderer(key)
    if kind == "replay":  # the whole game as an animated image: ``view`` is its turn snapshots
        from rendering.animate import render_replay
        return render_replay(module, view, *extra) if module else None
    func = getattr(module, f"render_{kind}", None) if module else None
    if func is None:
        return None
    image = func(view, *extra)
    return None if image is None else to_png(image)


# Drawing runs in a worker process by default: Pillow work then never competes with
# the event loop for the interpreter, so clicks stay fast while boards are drawn
# (measured by ``python -m bot.bench``). HEISTCORD_RENDER_WORKERS=0 draws on one
# thread of the bot's own process instead.
_executor: Executor | None = None


def render_executor() -> Executor:
    global _executor
    if _executor is None:
        workers = int(os.environ.get("HEISTCORD_RENDER_WORKERS", "1"))
        if workers > 0:
            _executor = ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("spawn"))
        else:
            _executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="heistcord-render")
    return _executor


async def render_async(key: str, kind: str, view: dict[str, Any], *extra: Any) -> bytes | None:
    """``render`` off the event loop, in the drawing worker (restarted once if it died)."""
    global _executor
    loop = asyncio.get_running_loop()
    try:
        return await loop.run_in_executor(render_executor(), render, key, kind, view, *extra)
    except BrokenProcessPool:
        _executor = None
        return await loop.run_in_executor(render_executor(), render, key, kind, view, *extra)
