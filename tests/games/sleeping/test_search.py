"""Sleeping Wizard's search sampler (issue 18)."""
from __future__ import annotations

import copy
import random

import pytest

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


@pytest.mark.parametrize("players, seed, every, shuffle, decide", [(2, 4, 9, 9, 3), (4, 6, 11, 4, 5)],
                         ids=["heads-up", "four players"])
def test_the_real_budget_search_sees_only_its_view_and_is_deterministic(players, seed, every, shuffle, decide):
    """With the real budget (heads-up: whole rounds played out; at 4 players: the fitted judge, distinct
    candidates): the same view gives the same move whatever the hidden cards really are, and the same seed the
    same move."""
    from tests.test_search import positions, shuffled_hidden
    engine = get_engine("sleeping")
    budget = search.engine_budget(engine, players)
    assert budget.until == "round" and budget.distinct == (players > 2)
    rng = random.Random(shuffle)
    checked = changed = 0
    for state, seat in list(positions("sleeping", seeds=[seed], players=players, every=every))[:5]:
        other = shuffled_hidden("sleeping", state, seat, rng)
        changed += other != state
        mine = search.hard_action(engine, state, seat, random.Random(decide))
        assert search.hard_action(engine, other, seat, random.Random(decide)) == mine
        assert search.hard_action(engine, copy.deepcopy(state), seat, random.Random(decide)) == mine
        checked += 1
    assert checked >= 3 and changed >= 1


def test_at_four_players_a_lead_over_one_rival_beats_a_lead_over_three():
    """Level with the best of the others, a guild is better placed when the other two trail far behind (one
    rival to beat) than when all three are close (three rivals): the hand-set lead judge, which looked only at
    the best other guild, valued both at an even 1/2; the fitted judge tells them apart."""
    from bot.games.sleeping.sampler import chances, evaluate, lead_judge
    from tests.games.sleeping.scenario import SleepingTable
    engine = get_engine("sleeping")
    one = SleepingTable(4, seed=4).round(4, floor="ground").noise(20, 20, 20, 20).treasure(12, 12, 4, 4).state
    three = SleepingTable(4, seed=4).round(4, floor="ground").noise(20, 20, 20, 20).treasure(12, 12, 11, 11).state
    assert lead_judge(engine, one, 0) == lead_judge(engine, three, 0) == 0.5
    assert evaluate(engine, one, 0) > 0.4 > 0.3 > evaluate(engine, three, 0) > 0.25
    assert sum(chances(engine, three)) == pytest.approx(1)


def test_early_in_the_game_a_quieter_guild_is_better_placed():
    """Same treasure at the start of round 2, one guild 6 quieter than the rest: the lead judge valued that
    almost as all level (its projected tracker bonus barely moved), but over four rounds still to play the
    quieter guild is paid more often as the quietest team and wins the ties: the fit gives it a third more."""
    from bot.games.sleeping.sampler import evaluate, lead_judge
    from tests.games.sleeping.scenario import SleepingTable
    engine = get_engine("sleeping")
    level = SleepingTable(4, seed=4).round(2, floor="ground").noise(20, 20, 20, 20).treasure(8, 8, 8, 8).state
    quiet = SleepingTable(4, seed=4).round(2, floor="ground").noise(14, 20, 20, 20).treasure(8, 8, 8, 8).state
    assert abs(lead_judge(engine, quiet, 0) - lead_judge(engine, level, 0)) < 0.02
    assert evaluate(engine, quiet, 0) > 1.25 * evaluate(engine, level, 0)


def test_the_search_tries_only_moves_that_differ_to_the_seat():
    """``alike``: hiring (or pushing) any of its own unseen cards is one blind move to the seat, and two seen
    cards of one kind, value and class are one move; so the hard bot never spends a candidate on a move that
    can only differ from another by luck."""
    from bot.games.sleeping.sampler import alike
    engine = get_engine("sleeping")
    state = engine.setup(["A", "B", "C", "D"], {}, 7)
    seat = engine.to_act(state)[0]
    view = engine.view(state, seat)
    hand = view["private"]["hand"]
    unseen = [h["slot"] for h in hand if not h["known"]]
    seen = [h["slot"] for h in hand if h["known"]]
    assert len(unseen) == 2 and len(seen) == 2
    blind = {alike(view, seat, {"type": "hire_hand", "slot": s}) for s in unseen}
    assert len(blind) == 1
    assert alike(view, seat, {"type": "hire_hand", "slot": seen[0]}) not in blind
    assert alike(view, seat, {"type": "push", "slot": unseen[0]}) not in blind
    legal = engine.legal_actions(state, seat)
    assert len({alike(view, seat, a) for a in legal}) < len(legal)
    budget = search.Budget(determinizations=3, candidates=len(legal), moves=5000, until="round", distinct=True)
    stats: dict = {}
    search.search(engine, view, legal, seat, 1, budget=budget, stats=stats)
    assert stats["candidates"] == len({alike(view, seat, a) for a in legal})
    plain: dict = {}
    search.search(engine, view, legal, seat, 1, budget=search.Budget(determinizations=3, candidates=len(legal),
                                                                       moves=5000, until="round"), stats=plain)
    assert plain["candidates"] == len(legal)  # off by default: every move is tried


def test_the_fit_script_reproduces_the_weights_in_use():
    """``python -m tools.fit_sleeping`` fits the judge's weights on ``FIT_GAMES`` seeded games: the same
    numbers as the sampler keeps, so a change to the features cannot quietly leave stale weights behind."""
    import tools.fit_sleeping as fit
    from bot.games.sleeping import sampler
    assert fit.weights(fit.FIT_GAMES) == [sampler._BIAS, *sampler._WEIGHTS]
    assert len(sampler._WEIGHTS) == len(sampler.FEATURES)
