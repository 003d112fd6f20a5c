"""Sleeping Wizard: random playouts (conservation, privacy) and bot games."""
from __future__ import annotations

import copy
import json
import random

import pytest

from bot.games.sleeping.cards import CARDS
from tests.games.sleeping.test_helpers import ENGINE, check, check_conservation, new_game, secrets_of
from tests.playout import random_playout


@pytest.mark.parametrize("players", range(2, 9))
@pytest.mark.parametrize("floors", [True, False])
def test_random_playouts_keep_every_card_and_every_secret(players, floors):
    games = 12 if floors else 4
    for seed in range(games):
        state, log = random_playout(ENGINE, players, seed * 31 + players, {"floors": floors}, check=check,
                                    check_every=1 if players <= 4 else 3)
        assert ENGINE.is_terminal(state)
        assert 1 <= state["round"] <= 5
        assert state["round"] == 5 or max(state["noise"]) >= 48


@pytest.mark.parametrize("players", range(2, 9))
def test_quick_playouts_conservation_only(players):
    for seed in range(25):
        random_playout(ENGINE, players, 1000 + seed, check=check_conservation, check_every=4)


def test_events_keep_secrets():
    """Private events never tell a seat its unpeeked cards; public events never name a hand card."""
    for players in (2, 5, 8):
        for seed in range(4):
            state = new_game(players, seed=seed + 50)
            rng = random.Random(seed)
            while not ENGINE.is_terminal(state):
                seat = rng.choice(ENGINE.to_act(state))
                action = rng.choice(ENGINE.legal_actions(state, seat))
                before_round = state["round"]
                events = ENGINE.apply(state, seat, copy.deepcopy(action))
                for event in events:
                    if "to" in event:
                        for cid in secrets_of(state, event["to"]):
                            assert CARDS[cid]["name"] not in event["text"]
                    elif state["round"] == before_round and not ENGINE.is_terminal(state):
                        for hand in state["hands"]:
                            for cid in hand:
                                if cid is not None:
                                    assert CARDS[cid]["name"] not in event["text"], event


def play_bots(players: int, seed: int, bots: set[int] | None = None) -> dict:
    state = new_game(players, seed=seed)
    rng = random.Random(seed)
    bots = set(range(players)) if bots is None else bots
    while not ENGINE.is_terminal(state):
        seat = ENGINE.to_act(state)[0]
        if seat in bots:
            action = ENGINE.bot_action(state, seat, rng)
        else:
            action = rng.choice(ENGINE.legal_actions(state, seat))
        assert action in ENGINE.legal_actions(state, seat)
        ENGINE.apply(state, seat, action)
    return state


@pytest.mark.parametrize("players", range(2, 9))
def test_bots_play_full_games(players):
    for seed in range(3):
        state = play_bots(players, seed)
        scores = ENGINE.scores(state)
        assert sorted(s["seat"] for s in scores) == list(range(players))
        json.dumps(ENGINE.view(state, None))


def test_bot_beats_random_players():
    wins = 0
    bot_noise = random_noise = 0
    games = 30
    for seed in range(games):
        state = play_bots(3, 700 + seed, bots={0})
        wins += any(s["seat"] == 0 and s["won"] for s in ENGINE.scores(state))
        rounds = len(state["history"])
        bot_noise += sum(h["noise"][0] for h in state["history"]) / rounds
        random_noise += sum(h["noise"][1] + h["noise"][2] for h in state["history"]) / (2 * rounds)
    assert wins > games * 0.6  # a random seat would win about a third
    assert bot_noise < random_noise / 2


def test_bot_uses_only_its_own_view():
    """The bot's choice doesn't change when only its own unpeeked cards change."""
    state = new_game(3, seed=77)
    seat = ENGINE.to_act(state)[0]
    secret = secrets_of(state, seat)
    assert secret
    choice = ENGINE.bot_action(state, seat, random.Random(5))
    # Swap one of its unpeeked cards with a deck card: its view is the same, so must its move be.
    other = copy.deepcopy(state)
    hand = other["hands"][seat]
    i = hand.index(secret[0])
    hand[i], other["deck"][0] = other["deck"][0], hand[i]
    assert ENGINE.view(other, seat) == ENGINE.view(state, seat)
    assert ENGINE.bot_action(other, seat, random.Random(5)) == choice
