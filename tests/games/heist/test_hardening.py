"""HEIST hardening: odd or illegal actions (look-alike values, wrong types, extra or
missing keys) raise RuleError and leave the state exactly as it was."""
from __future__ import annotations

import copy
import json
import random

import pytest

from bot.engine import RuleError
from bot.games.heist import ENGINE
from tests.games.heist.scenario import HeistTable
from tests.games.heist.test_rules import choose, new


def _rejected(st: dict, seat: int, action) -> None:
    before = json.dumps(st, sort_keys=True)
    with pytest.raises(RuleError):
        ENGINE.apply(st, seat, action)
    assert json.dumps(st, sort_keys=True) == before, f"{action!r} changed the state"


def _tricks_state() -> dict:
    table = HeistTable(2, seed=4)
    table.holds(table.active, "Sleight of Hand", "Second Chance", "Cold Read", "Brute Force", "Tumble")
    st = table.bag(yellow=4, red=2).faces("A").no_help().state
    assert st["phase"] == "tricks" and len(st["test"]["tokens"]) == 2
    return st


def test_trick_with_look_alike_token_index_is_rejected_unchanged() -> None:
    st = _tricks_state()
    active = st["active"]
    for legal in ENGINE.legal_actions(st, active):
        if "token" in legal:
            for odd in (float(legal["token"]), bool(legal["token"]), str(legal["token"])):
                _rejected(st, active, {**legal, "token": odd})
    flip = next(move for move in ENGINE.legal_actions(st, active) if "token" in move)
    _rejected(st, active, {**flip, "token": 2})  # no third token
    _rejected(st, active, {**flip, "token": -1})
    _rejected(st, active, {**flip, "token": None})
    _rejected(st, active, {**flip, "token": [0]})
    _rejected(st, active, {"type": "trick", "card": flip["card"]})  # a flip without a token
    _rejected(st, active, {**flip, "extra": 1})


def test_choose_and_assist_look_alikes_are_rejected_unchanged() -> None:
    st = new(3, seed=5)
    active = st["active"]
    for odd in ({"type": "choose", "job": "A", "option": 0.0}, {"type": "choose", "job": "A", "option": False},
                {"type": "choose", "job": ["A"], "option": 0}, {"type": "choose", "job": {"x": 1}, "option": 0},
                {"type": "choose", "job": "A"}, {"type": "choose"}, {"type": ["choose"]}, {"type": None},
                {}, [], "choose", None, 7, {"type": "choose", "job": "A", "option": 5}):
        _rejected(st, active, odd)
    choose(st, "A")
    helper = ENGINE.to_act(st)[0]
    for legal in ENGINE.legal_actions(st, helper):
        if legal["type"] == "assist":
            _rejected(st, helper, {**legal, "card": [legal["card"]]})
            _rejected(st, helper, {**legal, "pay": {"x": 1}})
            _rejected(st, helper, {**legal, "pay": legal["card"]})
    _rejected(st, helper, {"type": "no_assist", "card": None})


def test_fuzzed_actions_never_change_state() -> None:
    """Across seeded bot games, mutated versions of every legal action are refused cleanly."""
    rng = random.Random(3)

    def mutants(action: dict):
        for key, value in action.items():
            if key == "type":
                continue
            if isinstance(value, int) and not isinstance(value, bool):
                yield {**action, key: float(value)}
                yield {**action, key: value == 1}
                yield {**action, key: value + 100}
            if isinstance(value, str):
                yield {**action, key: value.upper() + "x"}
                yield {**action, key: [value]}
            yield {k: v for k, v in action.items() if k != key}

    for players in (1, 2, 4, 6):
        st = ENGINE.setup([f"P{i}" for i in range(players)], {}, 40 + players)
        steps = 0
        while not ENGINE.is_terminal(st):
            seat = ENGINE.to_act(st)[0]
            legal = ENGINE.legal_actions(st, seat)
            if steps % 3 == 0:
                for action in legal[:6]:
                    for odd in mutants(action):
                        if odd not in legal or json.dumps(odd, sort_keys=True) not in {
                                json.dumps(x, sort_keys=True) for x in legal}:
                            _rejected(st, seat, copy.deepcopy(odd))
            ENGINE.apply(st, seat, ENGINE.bot_action(st, seat, rng))
            steps += 1
