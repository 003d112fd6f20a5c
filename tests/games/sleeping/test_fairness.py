"""Sleeping Wizard, issue "Fair and fun": automatic peeking, the Shapeshifter/Rogue cliff, a bot that
respects the 48-noise limit, strict action matching, the balance tally."""
from __future__ import annotations

import copy
import json
import random

import pytest

from bot.engine import RuleError
from bot.games.sleeping import dealing, scoring
from bot.games.sleeping.cards import CARDS
from tests.games.sleeping.scenario import SleepingTable
from tests.games.sleeping.test_helpers import ENGINE, ID, arrange, check, ids, new_game, start_round


def frozen(state) -> str:
    """Exact text of a state: 5.0 and 5, True and 1 differ here (they compare equal in Python)."""
    return json.dumps(state, sort_keys=True)


# ------------------------------------------------------------------ automatic peeking
@pytest.mark.parametrize("floor, count", [("ground", 2), ("candle", 1), ("observatory", 3), ("mirrors", 4),
                                          ("cellar", 0)])
def test_peeking_is_automatic_and_private(floor, count):
    """Own cards can't be told apart, so nobody is asked which to peek at: each seat sees `count` of them."""
    state = new_game(4, seed=31)
    events = start_round(state, 2, floor) if floor != "ground" else dealing.start_round(state, 1)
    assert state["phase"] == "turns"
    assert ENGINE.to_act(state) == [state["order"][0]]
    for seat in range(4):
        assert len(state["known"][seat]) == count
        assert set(state["known"][seat]) <= set(state["hands"][seat])
        assert all(a["type"] != "peek" for a in ENGINE.legal_actions(state, seat))
        mine = [e for e in events if e.get("to") == seat]
        for cid in state["hands"][seat]:
            named = any(CARDS[cid]["name"] in e["text"] for e in mine)
            assert named == (cid in state["known"][seat])
        # which of a seat's cards it knows is its own business: the others' views don't say
        for other in ENGINE.view(state, (seat + 1) % 4)["private"]["others"]:
            assert all(set(c) == {"slot", "letter", "card"} for c in other["cards"])
    public = [e for e in events if "to" not in e]
    hand_names = {CARDS[c]["name"] for h in state["hands"] for c in h}
    assert not any(name in e["text"] for e in public for name in hand_names)
    check(state)


def test_a_new_game_starts_with_the_first_hire_not_a_peek_prompt():
    state = new_game(3, seed=11)
    assert state["phase"] == "turns" and ENGINE.to_act(state) == [0]
    assert [len(k) for k in state["known"]] == [2, 2, 2]
    msg = pytest.raises(RuleError, ENGINE.apply, state, 0, {"type": "peek", "slots": [0, 1]}).value
    assert "automatic" in str(msg)


# ---------------------------------------------------------------- strict action matching
ODD_VALUES = [1.0, True, "1", [1], None]


def base_apply(state, seat, action):
    """The platform's apply without its legality check, as a loose matcher (2.0 == 2) would let through."""
    return ENGINE._apply(state, seat, action)


@pytest.mark.parametrize("apply", [ENGINE.apply, base_apply], ids=["apply", "_apply"])
def test_odd_peek_and_hire_actions_are_refused_without_a_trace(apply):
    state = new_game(3, seed=12)
    seat = ENGINE.to_act(state)[0]
    market = state["market"][0]
    odd = [{"type": "peek", "slots": [0.0, 1.0]}, {"type": "peek", "slots": [True, 2]},
           {"type": "hire_market", "card": float(market)}, {"type": "hire_market", "card": str(market)},
           {"type": "hire_deck", "extra": 1}, {"type": "hire_hand"}, {"type": "nonsense"}, {"slot": 1}]
    odd += [{"type": "hire_hand", "slot": v} for v in ODD_VALUES]
    for action in odd:
        before = frozen(state)
        with pytest.raises(RuleError):
            apply(state, seat, copy.deepcopy(action))
        assert frozen(state) == before, action
    # push with a look-alike slot
    ENGINE.apply(state, seat, {"type": "hire_deck"})
    assert state["phase"] == "push"
    for value in ODD_VALUES:
        before = frozen(state)
        with pytest.raises(RuleError):
            apply(state, seat, {"type": "push", "slot": value})
        assert frozen(state) == before, value


def test_odd_copy_targets_are_refused_without_a_trace():
    table = SleepingTable(3, seed=4).round(2, "alchemy")
    table.finish_round(["Marigold", "Mimsy", "Emberly", "Tansy"], ["Proteus", "Zapwick", "Ironhide", "Pebble"],
                       ["Shade", "Salvia", "Poppy", "Bastion"])
    state = table.state
    assert state["phase"] == "copy"
    legal = ENGINE.legal_actions(state, 0)[0]
    odd = {"type": "copy", "targets": [float(t) if t is not None else 0.0 for t in legal["targets"]]}
    before = frozen(state)
    for apply in (ENGINE.apply, base_apply):
        with pytest.raises(RuleError):
            apply(state, 0, copy.deepcopy(odd))
        assert frozen(state) == before


# ------------------------------------------------------------------- the Shapeshifter cliff
def best_noise(*names, floor=None):
    from bot.games.sleeping.cards import FLOORS
    return scoring.copy_options(ids(*names), FLOORS[floor]["effect"] if floor else {})[0]["noise"]


def test_a_rogue_with_shapeshifters_is_no_cliff():
    """Four Shapeshifters score 0; one Rogue and three Shapeshifters no longer score 40."""
    assert best_noise("Mimsy", "Proteus", "Changa", "Wobbleface") == 0
    assert best_noise("Shade", "Mimsy", "Proteus", "Changa") == 1
    assert best_noise("Shade", "Mimsy", "Lutebert", "Trillsworth") == 1 + 11 + 12
    # copying a Rogue is still possible, and still makes a pack of 10s
    team = ids("Shade", "Mimsy", "Tansy", "Salvia")
    assert scoring.noise(team, {ID["Mimsy"]: ID["Shade"]}, {}) == 10 + 10 + 2 + 7
    assert scoring.copy_options(team, {})[0]["noise"] == 1 + 2 + 0 + 0  # it copies the 7 instead


def test_a_shapeshifter_may_copy_nothing_through_the_engine():
    table = SleepingTable(2, seed=8)
    table.finish_round(["Shade", "Mimsy", "Proteus", "Changa"], ["Tansy", "Salvia", "Poppy", "Bastion"])
    state = table.state
    last = state["last_round"]["teams"][0]
    assert last["noise"] == 1
    assert [c.get("copies") for c in last["cards"]] == [None] * 4
    check(state)


# ------------------------------------------------------------------------------ the bot
def bot_games(players: int, games: int, seed0: int = 900):
    out = []
    for g in range(games):
        state = new_game(players, seed=seed0 + g)
        rng = random.Random(g)
        while not ENGINE.is_terminal(state):
            seat = ENGINE.to_act(state)[0]
            ENGINE.apply(state, seat, ENGINE.bot_action(state, seat, rng))
        out.append(state)
    return out


def test_bots_rarely_wake_the_wizard():
    """Waking the wizard is a risk, not the usual ending (17 of these 24 games ended that way before the issue)."""
    states = bot_games(4, 24)
    woke = sum(max(s["noise"]) >= 48 for s in states)
    assert woke <= len(states) * 0.35, woke


def test_bot_near_the_limit_takes_the_safe_card_over_floor_treasure():
    """At 38 noise on the Alchemy Lab, the loud Mage in the market (+1 treasure) would wake the wizard."""
    state = new_game(2, seed=5)
    start_round(state, 5, "alchemy")
    state["noise"] = [38, 10]
    arrange(state, hands=[["Salvia"], ["Hawkeye"]], teams=[["Zapwick", "Poppy", "Tansy"], ["Pebble", "Brickle", "Clover"]],
            market=["Kaboomer", "Goop", "Bellowmere"])
    state["known"][0] = [ID["Salvia"]]
    state["order"] = [0, 1]
    state["turn"] = 6
    assert ENGINE.to_act(state) == [0]
    legal = ENGINE.legal_actions(state, 0)
    assert {"type": "hire_market", "card": ID["Kaboomer"]} in legal  # 2 + 9 = 11 noise: 49 on the tracker
    assert ENGINE.bot_action(state, 0, random.Random(1)) == {"type": "hire_hand", "slot": 0}  # 2 + 7: 47


# -------------------------------------------------------------------------- balance tally
def test_balance_tally_reports_ending_and_card_use():
    states = bot_games(3, 3, seed0=40)
    for state in states:
        tally = ENGINE.balance_tally(state, [])
        assert tally["end"] in ("after round 5", "woke the wizard")
        assert (tally["end"] == "woke the wizard") == (max(state["noise"]) >= 48)
        assert set(tally["used"]) <= set(tally["available"])
        for kind in ("Healer", "Mage", "Warrior", "Ranger", "Rogue", "Slime", "Bard", "Shapeshifter"):
            assert f"adventurer: {kind}" in tally["available"]
        assert "hire: from hand" in tally["used"]
        floors = [n for n in tally["available"] if n.startswith("floor: ")]
        assert len(floors) == min(state["round"], 5) - 1  # the Ground Floor is the plain rules
        assert "goals" not in tally or tally["goals"] == {}
        json.dumps(tally)


# -------------------------------------------------------------------------- bot arithmetic
def test_bot_expected_gain_never_draws_a_card_the_team_already_holds():
    """Looking ahead, the bot adds an unseen card to its team and then asks what another unseen card would bring:
    the card it just imagined hiring can't come a second time (it used to, and a team holding one Rogue twice
    scored 10 instead of a Rogue pack's 20)."""
    from bot.games.sleeping import bot_player
    ground = {}
    team = ids("Shade")
    assert bot_player.gain(team, ID["Whisk"], ground) == -19  # a second Rogue: 1 -> a pack of two 10s
    assert bot_player.expected_gain(team, ids("Shade", "Whisk"), ground) == -19
    with pytest.raises(ValueError):
        bot_player.gain(team, ID["Shade"], ground)
