"""The hard bot's sampler for The Wizard's Tower (bot/games/tower/sampler.py): a sampled state gives the seat its
exact view and legal actions, the rule set and the two-player head start included (issue 29)."""
from __future__ import annotations

from bot.games.tower import ENGINE
from tests.sampler_checks import check_sampler


def test_sampled_states_keep_the_rule_set_and_the_head_start():
    moments = check_sampler("tower", [(2, ENGINE.meta.resolve_options({}), 1),
                                      (2, ENGINE.meta.resolve_options({"rules": "rulebook"}), 3),
                                      (3, ENGINE.meta.resolve_options({"special_set": "B", "master_thief": True}), 2),
                                      (4, ENGINE.meta.resolve_options({}), 4)])
    assert moments["play"] > 100 and moments["draft"] == 3
