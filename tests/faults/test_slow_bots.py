"""Hard bots think in a worker process and move inside the click that hands them the turn:
however long they think, the click is answered within Discord's 3-second deadline."""
from __future__ import annotations

import asyncio

import pytest

from bot.search import pool as search_pool
from cogs import customid
from tests.conftest import ADMIN, CHANNEL
from tests.e2e_helpers import callback_text, latest_board, press

THINK = 1.6  # seconds each hard bot takes: two of them outlast Discord's 3-second deadline


@pytest.fixture
def slow_hard_bots(monkeypatch):
    async def slow(engine, state, seat, rng):
        await asyncio.sleep(THINK)
        return engine.bot_action(state, seat, rng)

    monkeypatch.setattr(search_pool, "think", slow)


async def hard_table(h):
    rec = await h.slash(ADMIN, "game new", {"game": "dummy", "options": "pile=30"})
    lobby = rec.message
    for _ in range(2):
        added = await h.slash(ADMIN, "game addbot", {"level": "hard"}, channel=CHANNEL)
        assert "hard" in callback_text(added), callback_text(added)
    start = await h.click(ADMIN, lobby, h.fake.find_component(lobby, label="Start")["custom_id"])
    assert start.callback["type"] == 7, callback_text(start)
    await h.settle()
    return await h.table()


async def test_a_move_answered_in_time_while_hard_bots_think_after_it(harness, slow_hard_bots):
    h, fake = harness, harness.fake
    game = await hard_table(h)
    assert [s["name"] for s in game.seats][1:] == ["Bot 1 (hard)", "Bot 2 (hard)"]
    before = game.version
    rec = await press(h, ADMIN, 0, game)
    await rec.wait_done(timeout=20)
    await h.settle()
    assert not fake.expired, "the click was not answered within Discord's 3 seconds"
    assert rec.callback["type"] == 6, rec.callback  # acknowledged first (a deferred update) ...
    assert "✅" in callback_text(rec)  # ... then the panel edited with the move's result
    assert (await h.table()).version == before + 3  # my move and both bots'
    assert "Waiting for" in latest_board(h).content or "turn" in latest_board(h).content.lower()


async def test_a_slash_move_answered_in_time_while_hard_bots_think_after_it(harness, slow_hard_bots):
    h, fake = harness, harness.fake
    before = (await hard_table(h)).version
    rec = await h.slash(ADMIN, "game move", {"move": customid.encode_move(before, 0)})
    await rec.wait_done(timeout=20)
    await h.settle()
    assert not fake.expired, "the command was not answered within Discord's 3 seconds"
    await h.settle()
    assert (await h.table()).version == before + 3
    assert "✅" in callback_text(rec)
