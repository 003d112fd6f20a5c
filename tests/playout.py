"""Shared random-playout checks for every engine.

``random_playout`` plays one seeded game to the end by random legal actions and
checks the invariants every engine must keep: JSON round-trip, someone can always
act until the game ends, each acting seat has a legal move, illegal moves raise
RuleError without changing the state, the public view never carries "private",
and a replay from seed + log gives the same state.
"""
from __future__ import annotations

import copy
import json
import random
from typing import Any, Callable

import pytest

from bot.engine import Engine, RuleError


def roundtrip(state: dict) -> dict:
    return json.loads(json.dumps(state))


def random_playout(
    engine: Engine,
    players: int,
    seed: int,
    options: dict[str, Any] | None = None,
    check: Callable[[dict], None] | None = None,
    max_steps: int = 20000,
    check_every: int = 1,
) -> tuple[dict, list[tuple[int, dict]]]:
    """Play to the end. ``check(state)`` runs after setup and after each action."""
    names = [f"P{i + 1}" for i in range(players)]
    opts = engine.meta.resolve_options(options)
    state = engine.setup(names, opts, seed)
    json.dumps(state)  # must be JSON-able
    chooser = random.Random(seed * 7919 + players)
    log: list[tuple[int, dict]] = []
    if check:
        check(state)
    for step in range(max_steps):
        if engine.is_terminal(state):
            break
        acting = engine.to_act(state)
        assert acting, f"stuck: nobody can act (step {step}, state {state.get('phase')})"
        seat = chooser.choice(acting)
        legal = engine.legal_actions(state, seat)
        assert legal, f"stuck: seat {seat} must act but has no legal action"
        action = chooser.choice(legal)
        assert action == roundtrip(action), "actions must be JSON-able"
        events = engine.apply(state, seat, copy.deepcopy(action))
        for event in events:
            assert isinstance(event.get("text"), str), event
        log.append((seat, action))
        if check and step % check_every == 0:
            check(state)
        if step % 25 == 0:
            state = roundtrip(state)
            public = engine.view(state, None)
            assert "private" not in public
            json.dumps(public)
            for s in range(players):
                json.dumps(engine.view(state, s))
    else:
        pytest.fail(f"game did not end within {max_steps} actions")
    assert engine.to_act(state) == []
    results = engine.scores(state)
    assert sorted(r["seat"] for r in results) == list(range(players))
    assert any(r["won"] for r in results) or all(not r["won"] for r in results)
    # Replay from seed + log gives the very same state.
    replay = engine.setup(names, opts, seed)
    for seat, action in log:
        engine.apply(replay, seat, copy.deepcopy(action))
    assert roundtrip(replay) == roundtrip(state), "replay from the log diverged"
    return state, log


def assert_rejects(engine: Engine, state: dict, seat: int, action: dict) -> str:
    """Applying ``action`` raises RuleError and leaves ``state`` unchanged; returns the message."""
    before = roundtrip(state)
    with pytest.raises(RuleError) as info:
        engine.apply(state, seat, action)
    assert roundtrip(state) == before, "a rejected move changed the state"
    message = str(info.value)
    assert message and message[0].isupper(), "rule errors are sentences for players"
    return message
