"""Masterminds' sampler for the search bot (issue 18): a sampled state looks exactly like
the true one to the seat, redeals what the seat cannot see, and the view stays free of secrets."""
from __future__ import annotations

import copy
import json
import random

from bot import search
from bot.games import get_engine
from bot.games.masterminds.cards import PREP

KEY = "masterminds"
ENGINE = get_engine(KEY)


def walk(seed: int, n: int, options=None):
    """(state, seat) for every seat at every step of a seeded normal-bot game."""
    state = ENGINE.setup([f"P{i}" for i in range(n)], options or {}, seed)
    rng = random.Random(seed)
    while not ENGINE.is_terminal(state):
        yield state
        seat = ENGINE.to_act(state)[0]
        ENGINE.apply(state, seat, ENGINE.bot_action(state, seat, rng))


def test_every_seat_at_every_step_gets_its_own_view_and_moves_back():
    checked = hands_differ = decks_differ = 0
    for seed, n in [(0, 2), (1, 3), (2, 4), (3, 5), (4, 3)]:
        for step, state in enumerate(walk(seed, n)):
            if step % 3:
                continue
            for seat in range(n):
                view = ENGINE.view(state, seat)
                sample = ENGINE.sample_state(json.loads(json.dumps(view)), seat, random.Random(step))
                assert sample is not None, (seed, step, seat, state["phase"])
                assert ENGINE.view(sample, seat) == view
                assert ENGINE.legal_actions(sample, seat) == ENGINE.legal_actions(state, seat)
                assert sample["hands"][seat] == state["hands"][seat]
                assert all(PREP[p]["kind"] != "immediate" for h in sample["hands"] for p in h)
                json.dumps(sample)
                hands_differ += any(sorted(sample["hands"][s]) != sorted(state["hands"][s])
                                    for s in range(n) if s != seat and state["hands"][s])
                decks_differ += sample["prep_deck"] != state["prep_deck"]
                checked += 1
    assert checked > 300
    assert hands_differ > checked // 2 and decks_differ > checked * 0.9


def test_an_open_window_keeps_my_commitment_and_hides_theirs():
    seen = 0
    for state in walk(7, 4):
        w = state.get("window")
        if not w or not w["done"]:
            continue
        for seat in range(4):
            view = ENGINE.view(state, seat)
            assert "done" not in json.dumps(view["table"]["window"])
            sample = ENGINE.sample_state(view, seat, random.Random(seat))
            assert ENGINE.view(sample, seat) == view
            assert ENGINE.legal_actions(sample, seat) == ENGINE.legal_actions(state, seat)
            if str(seat) in w["done"]:
                assert sample["window"]["done"][str(seat)] == w["done"][str(seat)]
            seen += 1
    assert seen > 10


def test_the_view_names_no_card_another_seat_holds_or_the_decks_hide():
    for state in list(walk(5, 3))[::5]:
        for seat in range(3):
            text = json.dumps(ENGINE.view(state, seat))
            secret = [p for s in range(3) if s != seat for p in state["hands"][s]
                      if p not in state["hands"][seat] and p not in state["prep_discard"]]
            secret += state["prep_deck"] + state["talent_deck"] + state["failure_deck"]
            assert not [c for c in secret if f'"{c}"' in text]


def test_a_hard_decision_depends_on_the_view_only(monkeypatch):
    monkeypatch.setitem(search.BUDGETS, KEY, search.Budget(determinizations=3, candidates=3, moves=2000,
                                                            min_determinizations=2))
    rng = random.Random(9)
    checked = searched = 0
    for i, state in enumerate(walk(6, 3)):
        seat = ENGINE.to_act(state)[0]
        if i % 11 or len(ENGINE.legal_actions(state, seat)) < 2:
            continue
        other = ENGINE.sample_state(ENGINE.view(state, seat), seat, rng)
        assert other != state and ENGINE.view(other, seat) == ENGINE.view(state, seat)
        mine = search.hard_action(ENGINE, copy.deepcopy(state), seat, random.Random(3))
        theirs = search.hard_action(ENGINE, other, seat, random.Random(3))
        assert mine == theirs
        stats: dict = {}
        search.search(ENGINE, ENGINE.view(state, seat), ENGINE.legal_actions(state, seat), seat, 3,
                      search.BUDGETS[KEY], stats)
        searched += stats.get("determinizations", 0) >= 2
        checked += 1
        if checked == 6:
            break
    assert checked == 6 and searched >= 3  # real searches, not the heuristic's fallback


def test_a_new_state_key_stays_private():
    """Issue 29 item 6: the public table is an allowlist, so a key added to the state later (here one the code
    doesn't know) reaches no view until someone lists it as public."""
    state = ENGINE.setup(["P0", "P1", "P2"], {}, 3)
    state["new_secret_key"] = {"card": "secret-value-31337"}
    for viewer in (None, 0, 1, 2):
        shown = json.dumps(ENGINE.view(state, viewer))
        assert "new_secret_key" not in shown and "secret-value-31337" not in shown


def test_every_state_key_is_either_public_or_secret():
    """The allowlist and the secrets together name every key a game's state ever has (so the sampler, which
    rebuilds a state from the public table and deals the secrets, never leaves a key out)."""
    from bot.games.masterminds.constants import PUBLIC_KEYS, SECRET_KEYS
    assert not PUBLIC_KEYS & SECRET_KEYS
    seen: set[str] = set()
    for seed, n in [(0, 2), (1, 5)]:
        for state in walk(seed, n):
            seen |= set(state)
    assert seen <= PUBLIC_KEYS | SECRET_KEYS, sorted(seen - PUBLIC_KEYS - SECRET_KEYS)
    table = ENGINE.view(state, 0)["table"]
    assert set(table) == (set(state) & PUBLIC_KEYS) | {"window"}
