"""The search bot runs in a worker process, never on the event loop.

``await think(engine, state, seat, rng)`` sends the seat's view and legal actions (not the
state) to a process pool and awaits the move, so other tables' clicks go on meanwhile.
``HEISTCORD_SEARCH_WORKERS`` sets the pool size (default 1; 0 runs the search in a thread,
for tests). A worker that dies is replaced, and a search that fails falls back to the normal bot.
"""
from __future__ import annotations

import logging
import random

from bot.engine import Action, Engine, State
from bot.search import search_job
from bot.workers import WorkerDiedError, Workers, worker_pool

log = logging.getLogger("heistcord.search")
_executor: Workers | None = None


SEARCH_WORKERS = 1  # processes where hard bots think (Config.search_workers); 0: a thread of this process


def configure(workers: int) -> None:
    """The pool's size from the bot's Config (set before the first search)."""
    global SEARCH_WORKERS
    SEARCH_WORKERS = workers


def _workers() -> int:
    return SEARCH_WORKERS


def executor() -> Workers:
    """The shared pool where hard bots think, started on first use."""
    global _executor
    if _executor is None:
        _executor = worker_pool(_workers(), "search")
    return _executor


def shutdown() -> None:
    """Stop the pool (a new one starts on the next search)."""
    global _executor
    if _executor is not None:
        _executor.shutdown()
        _executor = None


async def think(engine: Engine, state: State, seat: int, rng: random.Random) -> Action:
    """The hard bot's move: the same as :func:`bot.search.hard_action` for the same ``rng``."""
    legal = engine.legal_actions(state, seat)
    if len(legal) == 1:
        return legal[0]
    seed = rng.getrandbits(64)
    try:
        action = await executor().submit(search_job, engine.meta.key, engine.view(state, seat), legal, seat, seed)
    except WorkerDiedError:
        log.error("search worker died; the normal bot plays this move (a new worker takes the next search)")
        action = None
    except Exception:
        log.exception("search failed; the normal bot plays this move")
        action = None
    if action is None or action not in legal:
        return engine.bot_action(state, seat, rng)
    return action
