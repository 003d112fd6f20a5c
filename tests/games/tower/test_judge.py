"""The hard bot's judgement of a cut-short Tower playout (issue 18): a logistic fit on normal-bot games
(``tools.fit_tower``) that sees what is still to come, not only the hauls as they stand."""
from __future__ import annotations

import copy
import random

import tools.fit_tower as fit
from bot import search
from bot.games.tower import ENGINE, sampler
from bot.search.logistic import fit as logistic_fit
from bot.search.logistic import log_loss

from .scenario import TowerTable

BOTTOM = 7


def _mid_game(players: int = 4, seed: int = 3, moves: int = 12):
    """A seeded normal-bot game after ``moves`` moves, every pawn still inside."""
    state = ENGINE.setup([f"P{i}" for i in range(players)], {}, seed)
    rng = random.Random(seed)
    for _ in range(moves):
        seat = ENGINE.to_act(state)[0]
        ENGINE.apply(state, seat, ENGINE.bot_action(state, seat, rng))
    assert not state["exits"]
    return state


def _judged(state, seat):
    return search.outcome_value(ENGINE, state, seat)


def test_cards_still_within_reach_are_worth_something():
    """Two tables with the same hauls (the same score as they stand, so the old judgement could not tell them
    apart): the thief still near the top, every card below within reach, is likelier to win than the same
    thief already on the bottom floor with only a few cards left to take."""
    state = _mid_game()
    seat = 1
    top, bottom = copy.deepcopy(state), copy.deepcopy(state)
    top["pawns"][seat] = [-1, -1]  # on the balcony: the whole tower below
    bottom["pawns"][seat] = [BOTTOM, 0]
    assert sampler.hauls_evaluate(ENGINE, top, seat) == sampler.hauls_evaluate(ENGINE, bottom, seat)
    assert _judged(top, seat) > _judged(bottom, seat) + 0.02


def test_a_lead_is_safer_the_fewer_cards_are_left():
    """The same hauls and the same lead (the old judgement scored both alike): with one card left in the tower
    the leader is likelier to win than with the tower still full, where the others have much to take."""
    table = (TowerTable(4).holds(0, "Dragon Skull", "Scrying Bowl", "Mirror of Sorrows")
             .holds(1, "Sprig of the Dawn Tree").holds(2, "Orion's Bestiary").holds(3, "Love Potion #8")
             .secret(0, None).secret(1, None).secret(2, None).secret(3, None))
    full = copy.deepcopy(table.state)
    for s in range(4):
        full["pawns"][s] = [2, s]
    late = copy.deepcopy(full)
    kept = next((f, s) for f in range(BOTTOM, -1, -1) for s in range(5) if late["tower"][f][s] is not None
                and (f, s) != (BOTTOM, 4))
    late["tower"] = [[late["tower"][f][s] if (f, s) == kept else None for s in range(5)] for f in range(8)]
    assert sampler.hauls_evaluate(ENGINE, late, 0) == sampler.hauls_evaluate(ENGINE, full, 0) > 0.5
    assert _judged(late, 0) > _judged(full, 0) + 0.05


def test_the_chances_are_a_share_of_one_win():
    """Every seat's judged chance lies in [0, 1] and the seats' chances add up to one win."""
    state = _mid_game(players=3, seed=5, moves=9)
    chances = [_judged(state, s) for s in range(3)]
    assert all(0 <= c <= 1 for c in chances)
    assert abs(sum(chances) - 1) < 1e-9
    assert len(sampler.FEATURES) == len(sampler._WEIGHTS) == len(sampler.features(ENGINE, state, 0))


def test_the_weights_are_the_fit_scripts():
    """The constants in the sampler are what ``python -m tools.fit_tower`` prints (2,000 games, a minute),
    checked on a small sample: a fit on its first 200 games judges their moments as the constants do (the
    features overlap, so single weights wander at 200 games; the chances they give do not)."""
    import math
    rows = [r for r, _ in fit.moments(200)]
    small = logistic_fit(rows)
    constants = [sampler._BIAS, *sampler._WEIGHTS]
    assert len(small) == len(constants) == len(sampler.FEATURES) + 1

    def chance(w, f):
        return 1 / (1 + math.exp(-(w[0] + sum(a * b for a, b in zip(w[1:], f)))))
    gaps = sorted(abs(chance(small, f) - chance(constants, f)) for _, _, f in rows)
    assert sum(gaps) / len(gaps) < 0.02 and gaps[len(gaps) * 95 // 100] < 0.06
    assert log_loss(constants, rows) < log_loss(small, rows) + 0.01
