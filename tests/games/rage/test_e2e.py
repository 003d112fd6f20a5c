"""Wizard's Rage end to end: a 4-player game (wizard + 3 heroes) through the fake
Discord server. Hidden token identities and key squares reach the wizard only."""
from __future__ import annotations

import re

from bot.games.rage import board
from bot.games.rage.cards import WIZARD_DEFS
from tests.conftest import ADMIN, CHANNEL
from tests.e2e_helpers import open_and_start, play_to_end

USERS = [ADMIN, 101, 102, 103]  # seat 0 is the wizard


def hidden_facts(engine, state) -> tuple[set[str], list[tuple[str, str]]]:
    """Labels of key squares not found yet, and (square, monster name) of face-down monsters."""
    keys = {board.label(state, i) for i, t in enumerate(state["tiles"]) if t.get("key") and not t.get("up")}
    monsters = []
    for i, tile in enumerate(state["tiles"]):
        for tok in tile.get("tokens", []):
            token = state["tokens"][str(tok)]
            if not token["up"] and token["kind"] == "monster":
                monsters.append((board.label(state, i), WIZARD_DEFS[token["card"]]["name"]))
    return keys, monsters


async def test_four_player_game_keeps_the_wizards_secrets(harness):
    h, fake = harness, harness.fake
    game = await open_and_start(h, "rage", USERS)
    engine = h.bot.tables.engine(game)
    seen = [0]
    counts = {"keys": 0, "monsters": 0}

    async def check(current):
        g = await h.bot.tables.get(current.id)
        if g.status != "running":
            return
        keys, monsters = hidden_facts(engine, g.state)
        counts["keys"] += len(keys)
        counts["monsters"] += len(monsters)
        messages = fake.public_messages(CHANNEL)
        lines = [line for m in messages[seen[0]:] for line in (m.content + "\n" + m.embed_texts).splitlines()]
        seen[0] = len(messages)
        for line in lines:
            assert "hidden on" not in line.lower()
            if "key" in line.lower():
                assert not any(re.search(rf"\b{k}\b", line) for k in keys), line
            for square, name in monsters:
                assert not (name in line and re.search(rf"\b{square}\b", line)), line

    game = await play_to_end(h, after_move=check, max_moves=4000)
    assert game.status == "finished"
    assert counts["keys"] and counts["monsters"], "the game should have had hidden keys and monsters to protect"
    wizard_dms = fake.dms(ADMIN)
    assert any("Keys hidden on" in m.content for m in wizard_dms)
    assert any(name == "hand.png" for m in wizard_dms for name, _ in m.files), "the wizard's own board by DM"
    for uid in USERS[1:]:
        assert fake.dms(uid), "heroes get their loot by DM"
        assert not any("Keys hidden on" in m.content or "face-down tokens" in m.content for m in fake.dms(uid))
    assert fake.unhandled == []
