"""Sleeping Wizard's rule sets (issue 29) and games stored by an earlier version of the bot.

Every Sleeping Wizard rule is the printed one (docs/rules/sleeping.md, "Rulebook and tuned rules"), so ``rules:
rulebook`` and ``rules: tuned`` play the same game; a game stored before the option existed plays on."""
from __future__ import annotations

import copy
import json
import random
from pathlib import Path

import pytest

from bot.engine import RULEBOOK, TUNED
from bot.games.sleeping import ENGINE
from tests.games.sleeping.test_helpers import check

STORED = Path(__file__).parent / "data" / "stored_52585a6.json"


def _play(state, seed):
    """Bot moves to the end; every move's events, and every view on the way."""
    rng = random.Random(seed)
    events = []
    while not ENGINE.is_terminal(state):
        seat = ENGINE.to_act(state)[0]
        events += ENGINE.apply(state, seat, ENGINE.bot_action(state, seat, rng))
    return events


@pytest.mark.parametrize("players,seed", [(2, 1), (4, 7), (7, 3)])
def test_rulebook_and_tuned_play_the_same_game(players, seed):
    """The rulebook: "Adventurers with the same noise rating cancel each other out and they all score 0." -- and every
    other rule as printed, in both sets: the same seed and moves give the same game, move for move."""
    names = [f"P{i + 1}" for i in range(players)]
    tuned = ENGINE.setup(names, ENGINE.meta.resolve_options({"rules": TUNED}), seed)
    book = ENGINE.setup(names, ENGINE.meta.resolve_options({"rules": RULEBOOK}), seed)
    assert tuned["options"]["rules"] == TUNED and book["options"]["rules"] == RULEBOOK
    assert _play(tuned, seed) == _play(book, seed)
    tuned.pop("options"), book.pop("options")
    assert tuned == book


@pytest.mark.parametrize("moment", ["turns", "push", "copy", "last round"])
def test_a_game_stored_before_the_rule_sets_plays_on(moment):
    """A game stored by the bot before this version (main at 52585a6: no ``rules`` option in its state, no reasons in
    its views) plays on to the end under today's code: legal actions, moves, views, scores."""
    state = json.loads(STORED.read_text(encoding="utf-8"))[moment]
    assert "rules" not in state["options"]
    before = copy.deepcopy(state)
    for seat in range(len(state["names"])):
        ENGINE.view(state, seat)
    ENGINE.view(state, None)
    assert state == before  # reading it changes nothing
    rng = random.Random(1)
    while not ENGINE.is_terminal(state):
        seat = ENGINE.to_act(state)[0]
        legal = ENGINE.legal_actions(state, seat)
        assert legal
        ENGINE.apply(state, seat, rng.choice(legal))
        check(state)
    assert len(ENGINE.scores(state)) == len(state["names"])
