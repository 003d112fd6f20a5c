"""Sleeping Wizard's search sampler (issue 18)."""
from __future__ import annotations

import random

from bot import search
from bot.games import get_engine
from tests.sampler_checks import check_sampler


def test_sampled_sleeping_states_look_the_same_to_the_seat():
    games = [(n, {"floors": floors}, seed) for seed, (n, floors) in
             enumerate([(2, True), (3, True), (4, False), (5, True), (8, True), (6, False)])]
    games += [(3, {}, 8), (5, {}, 6)]  # seeded games with a Shapeshifter step
    moments = check_sampler("sleeping", games)
    assert moments["turns"] and moments["push"] and moments["copy"], moments


def test_the_sampler_deals_unpeeked_cards_deck_and_floors_from_the_unseen():
    engine = get_engine("sleeping")
    state = engine.setup(["A", "B", "C"], {}, 7)
    view = engine.view(state, 0)
    mine = {h["slot"] for h in view["private"]["hand"] if not h["known"]}
    assert mine
    hands, floors, decks = set(), set(), set()
    for i in range(40):
        s = engine.sample_state(view, 0, random.Random(i))
        hands.add(tuple(s["hands"][0][slot] for slot in sorted(mine)))
        floors.add(tuple(s["tower"][1:5]))
        decks.add(tuple(s["deck"]))
        visible = {c["id"] for c in view["market"]} | {c["card"]["id"] for o in view["private"]["others"]
                                                         for c in o["cards"]}
        assert not visible & (set(s["deck"]) | {s["hands"][0][slot] for slot in mine})
        assert s["tower"][1] == state["tower"][1] or not view["tower"][1]["revealed"]
    assert len(hands) > 20 and len(floors) > 20 and len(decks) == 40


def test_a_hard_sleeping_bot_searches_rather_than_falling_back():
    engine = get_engine("sleeping")
    state = engine.setup(["A", "B", "C"], {}, 3)
    stats: dict = {}
    view = engine.view(state, 0)
    legal = engine.legal_actions(state, 0)
    move = search.search(engine, view, legal, 0, 1, stats=stats,
                         budget=search.Budget(determinizations=2, candidates=2, moves=3000))
    assert move in legal and stats.get("determinizations", 0) >= 1
