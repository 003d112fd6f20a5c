"""Sleeping Wizard renderer smoke tests: views from playouts at several points."""
from __future__ import annotations

import random

from bot.games.sleeping.cards import FLOORS
from rendering import sleeping as sleeping_renderer
from rendering.common import to_png
from tests.games.sleeping.test_helpers import ENGINE, new_game


def snapshots(players: int, seed: int) -> list[dict]:
    state = new_game(players, seed=seed)
    rng = random.Random(seed)
    shots = []
    step = 0
    while not ENGINE.is_terminal(state):
        if step % 29 == 0 or state["phase"] == "copy" or state["phase"] == "push" and step % 41 == 1:
            shots.append(ENGINE.view(state, None))
            shots.append(ENGINE.view(state, step % players))
        seat = ENGINE.to_act(state)[0]
        ENGINE.apply(state, seat, ENGINE.bot_action(state, seat, rng))
        step += 1
    shots.append(ENGINE.view(state, None))
    return shots, state


def test_render_board_private_and_final():
    for players in (2, 5, 8):
        shots, state = snapshots(players, seed=players)
        for i, view in enumerate(shots):
            board = sleeping_renderer.render_board(view)
            assert 1000 <= board.size[0] <= 1400
            if i % 5 == 0:
                assert len(to_png(board)) < 400_000
            if "private" in view:
                private = sleeping_renderer.render_private(view)
                assert private is not None
                if i % 5 == 1:
                    assert len(to_png(private)) < 400_000
            else:
                assert sleeping_renderer.render_private(view) is None
        final = sleeping_renderer.render_final(shots[-1], ENGINE.scores(state))
        assert len(to_png(final)) < 400_000
        summary = sleeping_renderer.render_round(shots[-1])
        assert summary is not None and len(to_png(summary)) < 400_000


def test_render_first_view_has_no_last_round():
    view = ENGINE.view(new_game(3, seed=1), None)
    assert view["last_round"] is None
    assert sleeping_renderer.render_round(view) is None
    sleeping_renderer.render_board(view)


def test_describe_names_the_player_to_act_and_no_secret():
    from bot.games.sleeping.cards import CARDS
    from tests.games.sleeping.test_helpers import check_privacy
    for players in (3, 8):
        state = new_game(players, seed=players + 40)
        rng = random.Random(players)
        step = 0
        while True:
            public = ENGINE.view(state, None)
            text = sleeping_renderer.describe(public)
            assert len(text) <= 1000
            assert sleeping_renderer.describe(ENGINE.view(state, 0)) == text  # only the public parts are read
            hand_names = {CARDS[c]["name"] for h in state["hands"] for c in h if c is not None}
            assert not any(name in text for name in hand_names), text
            hidden = [k for i, k in enumerate(state["tower"]) if k != "attic" and i >= state["round"]]
            assert not any(FLOORS[k]["name"] in text for k in hidden)
            if ENGINE.is_terminal(state):
                assert "Final:" in text
                break
            for seat in ENGINE.to_act(state):
                assert state["names"][seat] in text
            if step % 10 == 0:
                check_privacy(state)
            seat = ENGINE.to_act(state)[0]
            ENGINE.apply(state, seat, ENGINE.bot_action(state, seat, rng))
            step += 1
        assert "Just now:" in text


def test_board_says_what_just_happened_without_naming_cards_from_the_last_round():
    state = new_game(3, seed=9)
    rng = random.Random(9)
    while state["round"] == 1:
        seat = ENGINE.to_act(state)[0]
        ENGINE.apply(state, seat, ENGINE.bot_action(state, seat, rng))
    recent = ENGINE.view(state, None)["recent"]
    assert any("noise" in t for t in recent)
    assert not any(" hires " in t or " pushes " in t for t in recent)
    seat = ENGINE.to_act(state)[0]
    ENGINE.apply(state, seat, ENGINE.bot_action(state, seat, rng))
    assert any(state["names"][seat] in t for t in ENGINE.view(state, None)["recent"])
