"""The worker pools shared by the drawing (``rendering``) and the search bot (``bot.search.pool``)."""
from __future__ import annotations

import multiprocessing
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor


def worker_executor(workers: int, name: str) -> Executor:
    """``workers`` spawned processes, or with 0 one thread of this process named ``heistcord-<name>``."""
    if workers > 0:
        return ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("spawn"))
    return ThreadPoolExecutor(max_workers=1, thread_name_prefix=f"heistcord-{name}")
