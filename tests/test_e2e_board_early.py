"""The board a player waits for is drawn while the move's reply goes out (issue 16): its picture is asked for
before the reply, drawn once, and the board shows the same picture and words as before."""
from __future__ import annotations

import random

import pytest

from tests.conftest import ADMIN
from tests.e2e_helpers import callback_text as said
from tests.e2e_helpers import latest_board, open_and_start, press, record_pictures

BOB, CID = 101, 102


def _callbacks(fake) -> int:
    return sum(r["method"] == "POST" and r["path"].endswith("/callback") for r in fake.requests)


@pytest.mark.parametrize("key", ["heist", "tower"])
async def test_a_moves_board_is_drawn_while_its_reply_goes_out(harness, monkeypatch, key):
    from rendering import render

    h, fake = harness, harness.fake
    # (kind, replies the fake had received when it was asked for)
    asked = record_pictures(monkeypatch, lambda: _callbacks(fake))
    game = await open_and_start(h, key, [ADMIN, BOB, CID])
    engine, rng = h.bot.tables.engine(game), random.Random(4)
    early = 0
    for _ in range(6):
        seat = engine.to_act(game.state)[0]
        action = engine.bot_action(game.state, seat, rng)
        await h.settle()
        asked.clear()
        before = _callbacks(fake) + 1  # the panel's own reply comes first
        rec = await press(h, game.seats[seat]["user_id"], engine.legal_actions(game.state, seat).index(action), game)
        assert "✅" in said(rec), said(rec)
        await h.settle()
        game = await h.bot.tables.get(game.id)
        boards = [replies for kind, replies in asked if kind == "board"]
        assert len(boards) == 1, f"the board's picture was drawn once: {asked}"
        if boards[0] == before:  # asked for before the move's reply reached Discord
            early += 1
        # the board shows the state the move left, drawn as ever
        assert dict(latest_board(h).files)["board.png"] == render(key, "board", engine.view(game.state, None))
    assert early >= 4, "the board's picture is asked for before the reply is sent"


def _board_uploads(fake) -> int:
    return sum(any(name == "board.png" for name, _ in r.get("files") or []) for r in fake.requests)


async def test_a_moves_hand_pictures_are_drawn_and_sent_after_its_board_is_posted(harness, monkeypatch):
    """The whole table waits for the board: the DMs of the same move (their hand pictures drawn, then uploaded)
    no longer compete with its upload. Every player still gets the same DM, with their picture."""
    h, fake = harness, harness.fake
    # (kind, board uploads the fake had received when it was asked for)
    asked = record_pictures(monkeypatch, lambda: _board_uploads(fake))
    game = await open_and_start(h, "heist", [ADMIN, BOB, CID])
    engine, rng = h.bot.tables.engine(game), random.Random(5)
    both = 0
    for _ in range(8):
        seat = engine.to_act(game.state)[0]
        action = engine.bot_action(game.state, seat, rng)
        await h.settle(dms=True)
        asked.clear()
        uploads = _board_uploads(fake)
        rec = await press(h, game.seats[seat]["user_id"], engine.legal_actions(game.state, seat).index(action), game)
        assert "✅" in said(rec), said(rec)
        await h.settle(dms=True)
        game = await h.bot.tables.get(game.id)
        assert _board_uploads(fake) == uploads + 1
        hands = [done for kind, done in asked if kind == "private"]
        if hands:
            both += 1
            assert all(done == uploads + 1 for done in hands), f"a hand was drawn before the board was up: {asked}"
    assert both >= 2
    assert all(seat.get("dm") for seat in game.seats), "every player got their DM"
