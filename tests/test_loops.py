"""The bot's background loops survive whatever one pass meets, and back off while it keeps failing
(issue 27, item 1; the timers through a real PostgreSQL outage: tests/faults/test_pg_outages.py)."""
from __future__ import annotations

import asyncio
import logging

from bot.loops import Backoff, forever
from bot.storage import StorageError
from cogs.refusals import Refusals


def test_the_back_off_doubles_to_its_cap_and_resets_after_a_pass_that_works():
    backoff = Backoff(first=1, most=15)
    assert [backoff.failed() for _ in range(6)] == [1, 2, 4, 8, 15, 15]
    backoff.succeeded()
    assert backoff.failed() == 1


async def test_a_loop_survives_any_exception_and_logs_a_database_failure_in_one_line(caplog):
    passes: list[str] = []
    done = asyncio.Event()
    faults = [StorageError("the database is unavailable: refused"), RuntimeError("a bug"), None, None]

    async def step() -> float:
        fault = faults[len(passes)]
        passes.append(type(fault).__name__)
        if len(passes) == len(faults):
            done.set()
        if fault is not None:
            raise fault
        return 0.0

    with caplog.at_level(logging.INFO, logger="heistcord.test"):
        task = asyncio.create_task(forever("the test loop", step, logging.getLogger("heistcord.test"),
                                           backoff=Backoff(first=0.01, most=0.02)))
        await asyncio.wait_for(done.wait(), 5)
        assert not task.done()
        task.cancel()
    warning = next(r for r in caplog.records if r.levelno == logging.WARNING)
    assert "the database is unavailable" in warning.getMessage() and warning.exc_info is None
    error = next(r for r in caplog.records if r.levelno == logging.ERROR)
    assert error.exc_info is not None  # an unexpected failure keeps its traceback
    assert any("working again after 2 failed passes" in r.getMessage() for r in caplog.records)


async def test_the_refusal_log_survives_a_failing_pass(monkeypatch):
    refusals = Refusals()
    calls = []
    enough = asyncio.Event()

    def log_summary() -> bool:
        calls.append(1)
        if len(calls) >= 3:
            enough.set()
        if len(calls) == 1:
            raise RuntimeError("a bug in one pass")
        return False

    monkeypatch.setattr(refusals, "log_summary", log_summary)
    task = asyncio.create_task(refusals.log_forever(every=0.01))
    try:
        await asyncio.wait_for(enough.wait(), 5)
        assert not task.done()
    finally:
        task.cancel()
