"""Sleeping Wizard's search sampler (issue 18)."""
from __future__ import annotations

import copy
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


def test_a_playout_until_the_round_changes_stops_at_the_next_round():
    """``Budget.until="round"``: the playout plays the rest of the round whatever its length, and stops
    once the next round is dealt; without it only the horizon cuts it."""
    engine = get_engine("sleeping")
    state = engine.setup(["A", "B"], {}, 11)
    for _ in range(3):  # a few hires into round 1
        seat = engine.to_act(state)[0]
        engine.apply(state, seat, engine.bot_action(state, seat, random.Random(1)))
    trial = copy.deepcopy(state)
    _, moves = search.playout(engine, trial, 0, random.Random(2), 400, "round", state["round"])
    assert trial["round"] == 2 and not any(trial["teams"])  # round 1 was scored, round 2 just dealt
    assert 0 < moves < 20
    cut = copy.deepcopy(state)
    _, few = search.playout(engine, cut, 0, random.Random(2), 3, "round", state["round"])
    assert few == 3 and cut["round"] == 1  # the horizon still caps it
    whole = copy.deepcopy(state)
    search.playout(engine, whole, 0, random.Random(2), 400)
    assert engine.is_terminal(whole)  # no ``until``: only the horizon (here the game's end) stops it


def test_a_cut_playout_is_judged_by_the_tracker_at_the_end_of_the_game():
    """At the start of the last round a guild at 44 noise will most likely wake the wizard (a round adds
    ~6): it is judged far behind a guild at 30 with the same treasure (it used to be judged nearly even,
    by the tracker bonus its noise earns now: 0 against 1)."""
    from bot.games.sleeping.sampler import end_of_game, evaluate
    from tests.games.sleeping.scenario import SleepingTable
    engine = get_engine("sleeping")
    state = SleepingTable(2, seed=4).round(5, floor="ground").noise(44, 30).treasure(10, 10).state
    assert evaluate(engine, state, 0) < 0.1 < 0.9 < evaluate(engine, state, 1)
    bonus, wake = end_of_game(44, 1, 0)
    assert wake > 0.5 and bonus < 1
    assert end_of_game(8, 0, 0) == (5.0, 0.0)  # the game is over: the tracker as it stands
    # Early on, a lead is less sure than just before the end.
    early = SleepingTable(2, seed=4).round(2, floor="ground").noise(6, 6).treasure(4, 2).state
    late = SleepingTable(2, seed=4).round(5, floor="ground").noise(6, 6).treasure(4, 2).state
    assert 0.5 < evaluate(engine, early, 0) < evaluate(engine, late, 0)


def test_the_heads_up_search_sees_only_its_view_and_is_deterministic():
    """With the real heads-up budget (whole rounds played out): the same view gives the same move whatever
    the hidden cards really are, and the same seed the same move."""
    from tests.test_search import positions, shuffled_hidden
    engine = get_engine("sleeping")
    assert search.engine_budget(engine, 2).until == "round"
    rng = random.Random(9)
    checked = changed = 0
    for state, seat in list(positions("sleeping", seeds=[4], players=2, every=9))[:5]:
        other = shuffled_hidden("sleeping", state, seat, rng)
        changed += other != state
        mine = search.hard_action(engine, state, seat, random.Random(3))
        assert search.hard_action(engine, other, seat, random.Random(3)) == mine
        assert search.hard_action(engine, copy.deepcopy(state), seat, random.Random(3)) == mine
        checked += 1
    assert checked >= 3 and changed >= 1
