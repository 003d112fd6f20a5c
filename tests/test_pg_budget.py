"""PostgreSQL only: several processes share Discord's global budget (each leases its requests from the database in
short slots, bot/sender.py SharedBudget), and of several processes starting together with a new set of slash
commands exactly one syncs them."""
import asyncio
import time

import pytest

from bot.sender import SharedBudget
from bot.storage_pg import PgStorage
from tests.test_sender import most_in_any_window


@pytest.fixture
async def url(pg_server):
    return await pg_server.fresh_database()


async def test_two_processes_share_one_budget_and_never_exceed_it_in_any_second(url):
    stores = [await PgStorage(url).open() for _ in range(2)]
    try:
        budgets = [SharedBudget(store, rate=20, slot=0.25) for store in stores]  # 4 per slot for both together
        granted: list[float] = []

        async def requests(budget: SharedBudget, n: int) -> None:
            for _ in range(n):
                await budget.take()
                granted.append(time.monotonic())

        await asyncio.gather(*(requests(b, 12) for b in budgets), *(requests(b, 12) for b in budgets))
        granted.sort()
        assert len(granted) == 48
        assert most_in_any_window(granted, 1.0) <= 20
        # Both processes got their share: the budget is shared, not split in halves that one may leave unused.
        assert all(b.stats.waits for b in budgets)
    finally:
        for store in stores:
            await store.close()


async def test_of_processes_storing_a_new_command_hash_together_exactly_one_syncs(url):
    stores = [await PgStorage(url).open() for _ in range(4)]
    try:
        changed = await asyncio.gather(*(s.swap_meta("commands:global", "abc") for s in stores))
        assert sorted(changed) == [False, False, False, True]
        assert await stores[0].meta("commands:global") == "abc"
        assert not await stores[1].swap_meta("commands:global", "abc")  # the same set later: no sync
        assert await stores[2].swap_meta("commands:global", "def")  # a changed set: one sync
    finally:
        for store in stores:
            await store.close()
