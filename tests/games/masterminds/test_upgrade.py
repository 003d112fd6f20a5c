"""Masterminds states stored by the previous version (commit 52585a6, one-step hiring: ``{"type": "hire",
"replace": ...}`` after a burn, ``{"type": "hire_pool", "card": ..., "replace": ...}`` for Headhunter) carry on
under today's engine: every phase the old engine could be in, including mid-hire (a burned Talent or Headhunter's
fresh pool waiting), offers moves today, each of them applies, and the game plays to its end.
``data/old_states.json`` was made by running the old engine's seeded bot games (with some burns and Headhunters
forced) and keeping the first states met in each phase."""
from __future__ import annotations

import copy
import json
import random
from pathlib import Path

import pytest

from tests.games.masterminds.test_util import ENGINE

OLD = json.loads((Path(__file__).parent / "data" / "old_states.json").read_text())["states"]
CASES = [(phase, i) for phase, states in sorted(OLD.items()) for i in range(len(states))]


def _play_out(state, rng: random.Random) -> None:
    for _ in range(20_000):
        if ENGINE.is_terminal(state):
            return
        seat = ENGINE.to_act(state)[0]
        ENGINE.view(state, seat)
        ENGINE.status_line(state)
        ENGINE.apply(state, seat, ENGINE.bot_action(state, seat, rng))
    raise AssertionError("the game did not end")


def test_the_old_states_cover_mid_hire():
    assert len(OLD["burned"]) >= 2 and len(OLD["hire"]) >= 2
    assert any(len(s["teams"][s["turn"]]) >= 4 for s in OLD["hire"] + OLD["burned"])  # a full team: who leaves?


@pytest.mark.parametrize(("phase", "i"), CASES)
def test_an_old_state_offers_moves_each_applies_and_the_game_ends(phase, i):
    stored = OLD[phase][i]
    assert "rules" not in stored["options"]  # plays tuned
    seat = ENGINE.to_act(stored)[0]
    legal = ENGINE.legal_actions(stored, seat)
    assert legal, f"no move in the old {phase!r} state"
    for n, action in enumerate(legal):
        state = copy.deepcopy(stored)
        ENGINE.describe_action(state, seat, action)
        ENGINE.apply(state, seat, action)
        if state["phase"] == "replace":  # hiring into a full team (or a swap): who leaves, then on
            follow = ENGINE.legal_actions(state, seat)
            assert {"type": "back"} in follow and any(a["type"] == "replace" for a in follow)
            ENGINE.apply(state, seat, follow[0])
            assert state["phase"] != "replace"
        if n in (0, len(legal) - 1) or phase in ("burned", "hire"):
            _play_out(state, random.Random(i))
            assert len(ENGINE.scores(state)) == len(stored["names"])
