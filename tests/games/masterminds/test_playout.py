"""Seeded random playouts, bot games and renderer smoke tests for Masterminds."""
from __future__ import annotations

import random

import pytest

from bot.games import registry
from bot.games.masterminds import ENGINE
from bot.games.masterminds.cards import PREP
from tests.games.masterminds.test_util import check
from tests.playout import random_playout

OPTION_SETS = [{}, {"round_limit": 8, "gems_per_colour": 3}, {"round_limit": 12, "gems_per_colour": 10, "rules": "rulebook"}]


def test_registered():
    assert registry()["masterminds"] is ENGINE
    assert len(ENGINE.meta.summary) < 3500


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("opt", range(len(OPTION_SETS)))
def test_random_playouts(players, opt):
    seeds = range(30) if opt == 0 else range(15)
    reasons = set()
    for seed in seeds:
        state, log = random_playout(ENGINE, players, seed, OPTION_SETS[opt], check=check, check_every=3)
        check(state)
        assert state["phase"] == "over" and state["final"]["reason"] in ("heists", "bag", "rounds")
        reasons.add(state["final"]["reason"])
        scores = ENGINE.scores(state)
        assert [r["rank"] for r in scores].count(1) >= 1
        assert all(1 <= v <= 6 for c, v in state["final"]["values"].items() if c != "Clear")
        assert state["final"]["values"]["Clear"] == 2


def _bot_game(players, seed, bots=None, options=None):
    names = [f"B{i + 1}" for i in range(players)]
    state = ENGINE.setup(names, ENGINE.meta.resolve_options(options or {}), seed)
    rng = random.Random(seed)
    events_seen = []
    steps = 0
    while not ENGINE.is_terminal(state):
        seat = rng.choice(ENGINE.to_act(state))
        if bots is None or seat in bots:
            action = ENGINE.bot_action(state, seat, rng)
        else:
            action = rng.choice(ENGINE.legal_actions(state, seat))
        assert action in ENGINE.legal_actions(state, seat)
        events = ENGINE.apply(state, seat, action)
        events_seen.extend(events)
        steps += 1
        assert steps < 5000
    return state, events_seen


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("rules", ["tuned", "rulebook"])
def test_bots_play_full_games(players, rules):
    reasons = []
    games = 20 if rules == "tuned" else 8
    for seed in range(games):
        state, events = _bot_game(players, seed, options={"rules": rules})
        check(state)
        reasons.append(state["final"]["reason"])
    # Bots make real progress: most games end by completed heists, not by the round limit.
    assert reasons.count("heists") + reasons.count("bag") >= games * 0.85


def test_bot_beats_random():
    wins = 0
    games = 40
    for seed in range(games):
        state, _ = _bot_game(2, 500 + seed, bots={0})
        wins += next(r for r in ENGINE.scores(state) if r["seat"] == 0)["won"]
    assert wins >= games * 0.6


def test_public_events_keep_secrets():
    """Public event texts never name a card that was drawn into a hand or committed hidden."""
    hand_names = {p["name"] for p in PREP.values() if p["kind"] != "immediate"}
    for seed in range(6):
        state = ENGINE.setup(["A", "B", "C"], ENGINE.meta.resolve_options({}), seed)
        rng = random.Random(seed)
        while not ENGINE.is_terminal(state):
            seat = rng.choice(ENGINE.to_act(state))
            action = ENGINE.bot_action(state, seat, rng) if rng.random() < 0.7 else rng.choice(ENGINE.legal_actions(state, seat))
            for ev in ENGINE.apply(state, seat, action):
                if "to" in ev:
                    continue
                if ev["type"] in ("draw", "commit"):
                    assert not any(nm in ev["text"] for nm in hand_names), ev


def test_timeout_in_window_is_pass():
    for seed in range(200):
        state = ENGINE.setup(["A", "B", "C"], ENGINE.meta.resolve_options({}), seed)
        rng = random.Random(seed)
        while not ENGINE.is_terminal(state) and state["phase"] != "window":
            seat = ENGINE.to_act(state)[0]
            ENGINE.apply(state, seat, ENGINE.bot_action(state, seat, rng))
        if state["phase"] == "window":
            for seat in ENGINE.to_act(state):
                assert ENGINE.timeout_action(state, seat, rng) == {"type": "pass"}
            return
    pytest.fail("no interrupt window in 200 bot games")


def test_renderer_smoke():
    from rendering import masterminds as renderer
    from rendering.common import to_png

    for players in (2, 5):
        state = ENGINE.setup([f"Player {i + 1}" for i in range(players)], ENGINE.meta.resolve_options({}), 7)
        rng = random.Random(3)
        step = 0
        while True:
            if step % 40 == 0 or ENGINE.is_terminal(state):
                view = ENGINE.view(state, None)
                png = to_png(renderer.render_board(view))
                assert len(png) < 400_000
                priv = renderer.render_private(ENGINE.view(state, 0))
                assert priv is None or len(to_png(priv)) < 400_000
            if ENGINE.is_terminal(state):
                break
            seat = rng.choice(ENGINE.to_act(state))
            ENGINE.apply(state, seat, ENGINE.bot_action(state, seat, rng))
            step += 1
        view = ENGINE.view(state, None)
        final = renderer.render_final(view, ENGINE.scores(state))
        assert len(to_png(final)) < 400_000
