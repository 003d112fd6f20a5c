"""The bot's background loops (turn timers, the log of Discord's refusals): each runs for the life of the
process, whatever one pass of it meets. A pass that fails (the database down or frozen, anything unexpected) is
logged in one line and tried again after a back-off: 1 s, doubling up to ``BACKOFF_MOST``, back to the usual
pace after a pass that works. So when a database outage ends, the timers are caught up within ``BACKOFF_MOST``
seconds (and sooner when something wakes the loop)."""
from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from bot.storage import StorageError

BACKOFF_FIRST = 1.0
BACKOFF_MOST = 15.0  # an overdue deadline fires within this long of the database coming back (plus one pass)


class Backoff:
    """Seconds to wait after a failed pass: ``first``, doubling up to ``most``; reset by a pass that works."""

    def __init__(self, first: float = BACKOFF_FIRST, most: float = BACKOFF_MOST) -> None:
        self.first, self.most = first, most
        self.delay = 0.0
        self.failures = 0  # failed passes in a row

    def failed(self) -> float:
        """One more failed pass: how long to wait before the next."""
        self.failures += 1
        self.delay = self.first if not self.delay else min(self.most, self.delay * 2)
        return self.delay

    def succeeded(self) -> None:
        """A pass worked: the next failure waits ``first`` again."""
        self.failures = 0
        self.delay = 0.0


async def forever(name: str, step: Callable[[], Awaitable[float]], log: logging.Logger, *,
                  wake: asyncio.Event | None = None, stopping: Callable[[], bool] = lambda: False,
                  backoff: Backoff | None = None) -> None:
    """Run ``step`` until ``stopping()``: it returns how many seconds to wait before the next pass. Any exception
    but cancellation is logged (a database failure in one line, anything else with its traceback) and the step is
    tried again after the back-off. ``wake`` being set ends a wait early (a back-off too)."""
    backoff = backoff or Backoff()
    while not stopping():
        if wake is not None:
            wake.clear()  # before the pass: a wake-up during it is not lost
        try:
            delay = await step()
            if backoff.failures:
                log.info("%s: working again after %d failed passes", name, backoff.failures)
            backoff.succeeded()
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            delay = backoff.failed()
            if isinstance(exc, StorageError):
                log.warning("%s: %s; trying again in %.0f s", name, exc, delay)
            else:
                log.error("%s failed; trying again in %.0f s", name, delay, exc_info=True)
        if wake is None:
            await asyncio.sleep(delay)
            continue
        try:  # asyncio.timeout, unlike wait_for, never swallows our own cancellation
            async with asyncio.timeout(delay):
                await wake.wait()
        except TimeoutError:
            pass
