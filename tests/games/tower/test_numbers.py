"""Issue 27, item 13: Tower's ``{"type": "claim", "floor": inf}`` raised OverflowError while the game explained
why the move is refused; a number no move has gets the rule error (the check is shared by every game:
``bot.engine.numbers_in_range``; tests/faults/test_lookalikes.py tries such numbers on every game)."""
import json

import pytest

from bot.engine import RuleError
from bot.games import get_engine


@pytest.mark.parametrize("floor", [float("inf"), float("-inf"), float("nan"), 1e308, 10**30])
def test_a_claim_on_an_impossible_floor_is_refused_in_a_sentence(floor):
    engine = get_engine("tower")
    state = engine.setup(["Ann", "Bob"], engine.meta.resolve_options({}), 1)
    before = json.dumps(state, sort_keys=True)
    with pytest.raises(RuleError, match="out of range"):
        engine.apply(state, engine.to_act(state)[0], {"type": "claim", "floor": floor, "slot": 0})
    assert json.dumps(state, sort_keys=True) == before
