"""The Wizard's Tower's tables of handlers agree with each other: every moment of play that offers an action
can apply it, every pending power step has options, a resolution and words, and every card power that asks
a question queues a step the table knows."""
from __future__ import annotations

import random

import pytest

from bot.games.tower import ENGINE, cards
from bot.games.tower.engine import PHASES, moment
from bot.games.tower.powers import FORCED_STEPS, STEPS
from bot.games.tower.texts import GROUPS, LABELS, PENDING_TEXTS
from tests.games.tower.test_playouts import OPTION_SETS


def test_every_step_kind_has_words_and_every_forced_step_exists():
    assert set(STEPS) == set(PENDING_TEXTS)
    assert set(FORCED_STEPS) <= set(STEPS)


def test_every_power_that_asks_queues_a_known_step():
    asking = {"amulet": ["amulet_discard", "amulet_give"], "sand": ["sand"], "tales": ["tales"], "cloak": ["cloak"],
              "distill": ["distill"], "vampire": ["vamp"], "crown": ["crown"]}
    powers = {card["power"] for card in cards.CARDS if card["power"]}
    assert set(asking) <= powers
    for kinds in asking.values():
        assert set(kinds) <= set(STEPS)


@pytest.mark.parametrize("options", OPTION_SETS)
def test_every_offered_action_has_a_handler_a_label_and_a_group(options):
    for seed in range(12):
        players = 2 + seed % 4
        state = ENGINE.setup([f"P{i}" for i in range(players)], options, seed)
        chooser = random.Random(seed)
        while not ENGINE.is_terminal(state):
            seat = ENGINE.to_act(state)[0]
            legal = ENGINE.legal_actions(state, seat)
            for action in legal:
                assert action["type"] in PHASES.phases[moment(state)].handlers, (moment(state), action)
                assert action["type"] in LABELS
                assert action["type"] in GROUPS or "floor" in action
            ENGINE.apply(state, seat, chooser.choice(legal))
        assert moment(state) == "over" and ENGINE.legal_actions(state, 0) == []
