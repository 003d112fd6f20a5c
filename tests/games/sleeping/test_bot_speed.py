"""The Sleeping Wizard bot's fast team arithmetic (issue 18): the same numbers as ``scoring``."""
from __future__ import annotations

import random
from itertools import combinations

from bot.games.sleeping import bot_player, scoring
from bot.games.sleeping.cards import CARDS, DECK_SIZE, FLOORS


def _scoring_outcomes(team, effect):
    return [(option["noise"], option["bonus"]) for option in scoring.copy_options(team, effect)]


def test_team_outcomes_by_look_match_scoring_on_every_floor():
    """Every floor rule, every team of up to 3 cards and 3,000 random teams of 4 (Shapeshifters, Rogue packs,
    Slimes, Bards...): the outcomes worked out by look are exactly ``scoring.copy_options``'s."""
    rng = random.Random(18)
    teams = [list(team) for size in (1, 2, 3) for team in combinations(range(DECK_SIZE), size)]
    teams += [rng.sample(range(DECK_SIZE), 4) for _ in range(3000)]
    shifters = [card["id"] for card in CARDS if card["kind"] == "shapeshifter"]
    teams += [shifters[:k] + rng.sample([c for c in range(DECK_SIZE) if c not in shifters], 4 - k)
              for k in (1, 2, 3, 4) for _ in range(200)]
    for floor in FLOORS.values():
        effect = floor["effect"]
        key = bot_player._effect_key(effect)
        for team in teams:
            looks = bot_player.team_looks(team)
            assert bot_player._outcomes(looks, effect, key) == _scoring_outcomes(team, effect), (floor["key"], team)


def test_a_team_value_is_the_best_option_weighed_by_risk():
    """A team's value: its best outcome's noise, tracker cost and floor treasure, whichever copy of a card it holds."""
    risk = bot_player.Risk(40, 4)
    effect = FLOORS["alchemy"]["effect"]
    rng = random.Random(5)
    for _ in range(300):
        team = rng.sample(range(DECK_SIZE), rng.randint(1, 4))
        want = max(-o["noise"] - risk.cost(o["noise"], len(team)) + bot_player.BONUS_WEIGHT * o["bonus"]
                   for o in scoring.copy_options(team, effect))
        assert bot_player._valuer(effect, risk).value(bot_player.team_looks(team)) == want
