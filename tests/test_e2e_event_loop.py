"""The bot's event loop (issue 16): what start-up loaded is kept out of the garbage collector's full passes,
which scanned it all on the event loop during play (65-150 ms each with 1,000-10,000 stored games)."""
from __future__ import annotations

import asyncio
import gc

from tests.conftest import ADMIN
from tests.e2e_helpers import open_and_start


async def test_start_up_objects_are_frozen_out_of_full_collections(harness):
    h = harness
    for _ in range(200):  # the timer loop freezes once start-up recovery is done
        if gc.get_freeze_count():
            break
        await asyncio.sleep(0.01)
    frozen = gc.get_freeze_count()
    assert frozen > 10_000, "start-up's objects (modules, discord.py's state) are frozen"
    game = await open_and_start(h, "heist", [ADMIN, 101])
    assert game.status == "running"  # the bot plays on
    await h.bot.close()
    assert gc.get_freeze_count() == 0, "a closed bot gives its objects back to the collector"
