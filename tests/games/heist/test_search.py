"""HEIST's search sampler (issue 18)."""
from __future__ import annotations

import random

from bot import search
from bot.games import get_engine
from tests.sampler_checks import check_sampler


def _moment(state):
    if state["phase"] == "assist" and state["test"].get("picking"):
        return "paying for a picked assist"
    if state["phase"] == "assist" and state["test"]["commits"]:
        return "assist after another's commit"
    return state["phase"]


def test_sampled_heist_states_look_the_same_to_the_seat():
    games = [(n, {"token_faces": faces}, seed) for seed, (n, faces) in
             enumerate([(1, "random"), (2, "random"), (3, "front"), (4, "random"), (5, "random"), (6, "front")])]
    games.append((4, {"rules": "rulebook"}, 6))
    moments = check_sampler("heist", games, _moment, samples=6)
    for phase in ("choose", "assist", "assist after another's commit", "paying for a picked assist", "tricks",
                  "upgrade"):
        assert moments[phase], moments


def test_a_failed_tests_upgrade_names_the_card_played_in_every_sample():
    """Identical copies differ by id only, yet the upgrade move names the played card's id:
    every sample must hold the very card (it was dealt the lowest-numbered copy)."""
    engine = get_engine("heist")
    state = engine.setup([f"P{i}" for i in range(4)], {}, 100)
    rng = random.Random(0)
    found = 0
    while not engine.is_terminal(state) and found < 5:
        seat = engine.to_act(state)[0]
        if state["phase"] == "upgrade":
            view = engine.view(state, seat)
            for i in range(20):
                sample = engine.sample_state(view, seat, random.Random(i))
                assert engine.legal_actions(sample, seat) == engine.legal_actions(state, seat)
            found += 1
        engine.apply(state, seat, engine.bot_action(state, seat, rng))
    assert found


def test_the_public_test_counts_are_in_the_view():
    """The failed-share secret needs them; every test is resolved in the open."""
    engine = get_engine("heist")
    state = engine.setup(["A", "B", "C"], {}, 2)
    rng = random.Random(2)
    while state["tests"] < 3:
        seat = engine.to_act(state)[0]
        engine.apply(state, seat, engine.bot_action(state, seat, rng))
    view = engine.view(state, 1)
    assert (view["tests"], view["failed"]) == (state["tests"], state["failed"])


def test_the_sampler_deals_other_hands_and_secrets_from_the_unseen():
    engine = get_engine("heist")
    state = engine.setup(["A", "B", "C", "D"], {}, 5)
    seat = engine.to_act(state)[0]
    view = engine.view(state, seat)
    hands, secrets = set(), set()
    for i in range(30):
        s = engine.sample_state(view, seat, random.Random(i))
        others = [c for o in range(4) if o != seat for c in s["hands"][o]]
        assert not set(others) & set(s["hands"][seat]) and not set(others) & set(s["deck"])
        assert s["secrets"][seat] == state["secrets"][seat] and len(set(s["secrets"])) == 4
        hands.add(tuple(others))
        secrets.add(tuple(s["secrets"]))
    assert len(hands) == 30 and len(secrets) > 10


def test_a_hard_heist_bot_searches_rather_than_falling_back():
    engine = get_engine("heist")
    state = engine.setup(["A", "B", "C"], {}, 3)
    seat = engine.to_act(state)[0]
    stats: dict = {}
    legal = engine.legal_actions(state, seat)
    move = search.search(engine, engine.view(state, seat), legal, seat, 1,
                         budget=search.Budget(determinizations=3, candidates=3, moves=3000), stats=stats)
    assert move in legal and stats.get("determinizations", 0) >= 1


def test_a_heist_playout_cut_short_is_judged_by_the_cheese_as_it_stands():
    """Without an ``evaluate`` a cut-short playout was worth 0.25 to everyone: no signal at all."""
    engine = get_engine("heist")
    state = engine.setup(["A", "B", "C", "D"], {}, 11)
    rng = random.Random(11)
    for _ in range(60):
        seat = engine.to_act(state)[0]
        engine.apply(state, seat, engine.bot_action(state, seat, rng))
    assert not engine.is_terminal(state)
    values = [search.outcome_value(engine, state, s) for s in range(4)]
    assert all(0 < v < 1 for v in values) and len(set(values)) > 1
    leader = max(range(4), key=lambda s: values[s])
    # more cheese banked (all else alike) is worth more: give the leader's rival the leader's pile too
    richer = dict(state, piles=[list(p) for p in state["piles"]])
    trailer = min(range(4), key=lambda s: values[s])
    richer["piles"][trailer] = richer["piles"][trailer] + list(state["piles"][leader])
    assert search.outcome_value(engine, richer, trailer) > values[trailer]
