"""The budgeted sender (bot/sender.py): the global budget in priority order, jobs coalesced by key, a 429
waited out and run again (never dropped), per-user limits."""
from __future__ import annotations

import asyncio
import time

import pytest

from bot.sender import BOARD, DM, TIDY, Budget, Sender, UserLimits, is_interaction_endpoint, route_of


class TooManyRequestsError(Exception):
    """What discord.py raises when it gave up on a 429."""

    status = 429

    def __init__(self, retry_after: float = 0.01) -> None:
        super().__init__("429 Too Many Requests")
        self.response = type("R", (), {"headers": {"Retry-After": str(retry_after)}})()


def most_in_any_window(times: list[float], window: float) -> int:
    best, start = 0, 0
    for end, t in enumerate(times):
        while times[start] <= t - window:
            start += 1
        best = max(best, end - start + 1)
    return best


async def test_the_budget_never_grants_more_than_its_rate_in_any_window_and_serves_the_board_first():
    budget = Budget(rate=4, window=0.2)
    granted: list[tuple[float, int]] = []

    async def request(priority: int) -> None:
        await budget.take(priority)
        granted.append((time.monotonic(), priority))

    await asyncio.gather(*[request(TIDY) for _ in range(6)], *[request(BOARD) for _ in range(6)])
    times = [t for t, _ in granted]
    assert len(times) == 12 and most_in_any_window(times, 0.2) <= 4
    assert most_in_any_window(times, 0.05) <= budget.burst == 2  # smoothed: a third of the rate per quarter
    # The first two went at once (in arrival order); after that every board request went before any tidying.
    after = [p for _, p in granted[2:]]
    assert after == sorted(after)
    assert budget.stats.waits == 10


async def test_jobs_of_one_key_coalesce_while_they_wait_and_everyone_gets_the_newest_result():
    sender = Sender(Budget(rate=1, window=0.3))
    ran: list[str] = []
    release = asyncio.Event()

    async def edit(text: str) -> str:
        ran.append(text)
        await release.wait()  # the request is on its way
        return text

    first = sender.submit(DM, lambda: edit("v1"), key="board")
    await asyncio.sleep(0.01)  # v1 is running
    asyncio.get_running_loop().call_later(0.05, release.set)
    later = [sender.submit(DM, lambda t=f"v{n}": edit(t), key="board") for n in range(2, 6)]
    results = await asyncio.gather(first, *later)
    assert ran == ["v1", "v5"]  # v2-v4 were replaced while they waited for v1
    assert results == ["v1"] + ["v5"] * 4
    assert sender.stats.coalesced == 3


async def test_a_job_refused_with_429_waits_and_runs_again_and_other_errors_reach_the_caller(monkeypatch):
    monkeypatch.setattr("bot.sender.RETRY_FIRST", 0.01)
    sender = Sender(Budget(rate=50))
    tries = []

    async def flaky() -> str:
        tries.append(1)
        if len(tries) < 3:
            raise TooManyRequestsError()
        return "sent"

    assert await sender.send(DM, flaky, key=("hand", 1, 0)) == "sent"
    assert len(tries) == 3 and sender.stats.retried == 2

    async def refused() -> None:
        raise ValueError("403 Forbidden")

    with pytest.raises(ValueError):
        await sender.send(DM, refused)
    await sender.idle()
    assert sender.queued() == 0


async def test_spacing_keeps_runs_of_one_key_apart():
    sender = Sender(Budget(rate=50))
    ran: list[float] = []

    async def edit() -> None:
        ran.append(time.monotonic())

    await sender.send(BOARD, edit, key="lobby", spacing=0.2)
    await sender.send(BOARD, edit, key="lobby", spacing=0.2)
    assert ran[1] - ran[0] >= 0.19


async def test_delay_counts_from_the_first_change_even_after_a_long_quiet():
    """A key that last ran long ago: ``delay`` still holds its next job back, so the changes that follow within
    it are one run (before, spacing alone let the first change after a quiet go at once, and each next one
    another run later)."""
    sender = Sender(Budget(rate=50))
    ran: list[tuple[float, str]] = []

    def edit(text: str):
        async def work() -> None:
            ran.append((time.monotonic(), text))
        return work

    await sender.send(DM, edit("first hand"), key="hand")
    await asyncio.sleep(0.25)  # a quiet spell longer than the spacing
    asked = time.monotonic()
    futures = [sender.submit(DM, edit(f"change {n}"), key="hand", spacing=0.2, delay=0.2, lazy=True) for n in range(3)]
    await asyncio.gather(*futures)
    assert [text for _, text in ran] == ["first hand", "change 2"]  # one edit, with the latest
    assert ran[1][0] - asked >= 0.19
    sender.submit(DM, edit("waits"), key="hand", spacing=60, delay=60, lazy=True)
    sender.flush()  # (shutdown, tests reading every DM): goes now
    await sender.idle(timeout=5, lazy=True)
    assert ran[-1][1] == "waits"


def test_per_user_limits_count_each_user_and_kind_apart():
    now = [0.0]
    users = UserLimits(clock=lambda: now[0], limits={"status": (2, 10.0)})
    assert users.check(1, "status") is None and users.check(1, "status") is None
    assert users.check(1, "status") == pytest.approx(10.0)
    assert users.check(2, "status") is None  # another user
    now[0] = 10.5
    assert users.check(1, "status") is None
    assert users.refused["status"] == 1


def test_interaction_endpoints_and_routes_are_told_apart():
    assert is_interaction_endpoint("/api/v10/interactions/123456/tok/callback")
    assert is_interaction_endpoint("/api/v10/webhooks/123456/tok/messages/@original")
    assert not is_interaction_endpoint("/api/v10/channels/123456/messages")
    assert route_of("PATCH", "/api/v10/channels/123456/messages/654321") == "PATCH channels/{id}/messages/{id}"
    assert route_of("POST", "/api/v10/webhooks/123456/secret-token") == "POST webhooks/{id}/{token}"
