"""Hardening item 7: replies never exceed Discord's limits, whatever the user typed.
Error messages used to repeat the user's input unshortened; Discord refuses a reply
over 2000 characters (400, Invalid Form Body) and the user got nothing. The fake
Discord refuses any over-limit request, and the fixture fails the test if one was sent."""
from __future__ import annotations

import pytest

from tests.conftest import ADMIN, CHANNEL
from tests.e2e_helpers import callback_text

BOB = 101


def private_reply(rec) -> str:
    assert rec.callback is not None, "no reply"
    assert rec.callback["data"].get("flags", 0) & 64, "errors are private"
    text = callback_text(rec)
    assert len(rec.callback["data"].get("content") or "") <= 2000
    return text


async def test_a_2000_character_game_name(harness):
    rec = await harness.slash(ADMIN, "game new", {"game": "g" * 2000})
    assert "There is no game called" in private_reply(rec)


async def test_6000_character_table_options(harness):
    rec = await harness.slash(ADMIN, "game new", {"game": "dummy", "options": "o" * 6000})
    assert "name=value" in private_reply(rec)
    rec = await harness.slash(ADMIN, "game new", {"game": "dummy", "options": "pile=" + "9" * 5990})
    assert "too long" in private_reply(rec)
    rec = await harness.slash(ADMIN, "game new", {"game": "dummy", "options": "pile=" + "9" * 99})
    assert "Coins in the pile" in private_reply(rec)


async def test_game_option_with_a_6000_character_name_or_value(harness):
    await harness.slash(ADMIN, "game new", {"game": "dummy"})
    rec = await harness.slash(ADMIN, "game option", {"name": "n" * 6000, "value": "3"})
    assert "no option called" in private_reply(rec)
    rec = await harness.slash(ADMIN, "game option", {"name": "pile", "value": "v" * 6000})
    assert "too long" in private_reply(rec)
    rec = await harness.slash(ADMIN, "game option", {"name": "pile", "value": "v" * 100})
    assert "needs a whole number" in private_reply(rec)
    rec = await harness.slash(ADMIN, "game option", {"name": "turn_minutes", "value": "7" * 100})
    assert "turn timer" in private_reply(rec)


@pytest.mark.parametrize("command,size", [("game rules", 6000), ("stats", 1990), ("leaderboard", 6000)])
async def test_unknown_game_names_in_rules_stats_and_leaderboard(harness, command, size):
    rec = await harness.slash(ADMIN, command, {"game": "r" * size})
    assert "There is no game called" in private_reply(rec)


async def test_typed_move_and_autocomplete_with_huge_input(harness):
    await harness.slash(ADMIN, "game new", {"game": "dummy"})
    await harness.slash(BOB, "game join")
    await harness.slash(ADMIN, "game start")
    await harness.settle()
    choices = await harness.fake.autocomplete(ADMIN, CHANNEL, "game move", {"move": "t" * 6000}, focused="move")
    assert choices == []
    rec = await harness.slash(ADMIN, "game move", {"move": "m" * 6000})
    assert "isn't one of your moves" in private_reply(rec)
