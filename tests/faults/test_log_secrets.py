"""Item 12: no secret reaches the log at INFO or above. A game of each title is
played through the table service with the log captured; after every move the
log lines it wrote are searched for the secrets of that moment: the move's own
action when it is hidden, and every seat's private information."""
from __future__ import annotations

import json
import logging
import random

import pytest

from bot.games import registry, shipped
from bot.storage import Storage
from tests.faults.helpers import make_service

TITLES = tuple(sorted(shipped()))
MOVES = 150  # enough to reach each title's hidden moves (commits, key tiles, face-down tokens, paths)


def leaves(value, out: set[str]) -> set[str]:
    if isinstance(value, dict):
        for k, v in value.items():
            leaves(v, out)
    elif isinstance(value, list):
        for v in value:
            leaves(v, out)
    elif isinstance(value, str) and len(value) >= 4:
        out.add(value)
    return out


def secrets_of_the_moment(engine, state, seats: int, action: dict, public_text: str) -> set[str]:
    """Private strings no public view or public event shows now, and the raw action
    JSON of a move whose text the channel doesn't see in full."""
    public = json.dumps(engine.view(state, None)) + public_text
    found: set[str] = set()
    for seat in range(seats):
        found |= {s for s in leaves(engine.view(state, seat).get("private"), set()) if s not in public}
    found.add(json.dumps(action))
    return found


@pytest.mark.parametrize("key", TITLES)
async def test_the_log_holds_no_secrets(tmp_path, caplog, key):
    if key not in registry():
        pytest.skip(f"{key} is not registered")
    storage = await Storage(str(tmp_path / f"{key}.db")).open()
    try:
        service = make_service(storage)
        engine = registry()[key]
        players = min(max(engine.meta.min_players, 4), engine.meta.max_players)
        game = await service.open(1, 10, key, 100, "Ann")
        for uid in range(101, 100 + players):
            await service.join(game.id, uid, f"P{uid}")
        caplog.set_level(logging.INFO, logger="heistcord")
        await service.start(game.id, 100)
        rng = random.Random(7)
        checked = 0
        for _ in range(MOVES):
            game = await service.get(game.id)
            if game.status != "running":
                break
            seat = rng.choice(engine.to_act(game.state))
            action = engine.bot_action(game.state, seat, rng)
            caplog.clear()
            outcome = await service.act(game.id, game.seats[seat]["user_id"], action)
            public_text = " ".join(e["text"] for e in outcome.events if "to" not in e and e.get("text"))
            logged = "\n".join(r.getMessage() for r in caplog.records if r.levelno >= logging.INFO)
            assert logged, "every move is logged"
            before = secrets_of_the_moment(engine, outcome.game.state, len(game.seats), action, public_text)
            leaked = sorted(s for s in before if s in logged)
            assert not leaked, f"{key}: the log shows {leaked[:3]} after {json.dumps(action)}"
            checked += 1
        assert checked >= 10
    finally:
        await storage.close()
