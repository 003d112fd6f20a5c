"""The search bot runs in a worker process, never on the event loop.

``await think(engine, state, seat, rng)`` sends the seat's view and legal actions (not the
state) to a process pool and awaits the move, so other tables' clicks go on meanwhile.
``HEISTCORD_SEARCH_WORKERS`` sets the pool size (default 1; 0 runs the search in a thread,
for tests). A broken pool is replaced, and a search that fails falls back to the normal bot.
"""
from __future__ import annotations

import asyncio
import logging
import os
import random
from concurrent.futures import Executor
from concurrent.futures.process import BrokenProcessPool

from bot.engine import Action, Engine, State
from bot.search import search_job
from bot.workers import worker_executor

log = logging.getLogger("heistcord.search")
_executor: Executor | None = None


def _workers() -> int:
    return int(os.environ.get("HEISTCORD_SEARCH_WORKERS", "1"))


def executor() -> Executor:
    """The shared pool where hard bots think, started on first use."""
    global _executor
    if _executor is None:
        _executor = worker_executor(_workers(), "search")
    return _executor


def shutdown() -> None:
    """Stop the pool (a new one starts on the next search)."""
    global _executor
    if _executor is not None:
        _executor.shutdown(wait=False, cancel_futures=True)
        _executor = None


async def think(engine: Engine, state: State, seat: int, rng: random.Random) -> Action:
    """The hard bot's move: the same as :func:`bot.search.hard_action` for the same ``rng``."""
    global _executor
    legal = engine.legal_actions(state, seat)
    if len(legal) == 1:
        return legal[0]
    seed = rng.getrandbits(64)
    pool = executor()
    try:
        action = await asyncio.get_running_loop().run_in_executor(
            pool, search_job, engine.meta.key, engine.view(state, seat), legal, seat, seed)
    except BrokenProcessPool:
        log.error("search worker died; the normal bot plays this move")
        if _executor is pool:
            _executor = None
        action = None
    except Exception:  # noqa: BLE001 -- a search bug must not stop the game
        log.exception("search failed; the normal bot plays this move")
        action = None
    if action is None or action not in legal:
        return engine.bot_action(state, seat, rng)
    return action
