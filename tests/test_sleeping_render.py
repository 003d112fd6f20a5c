"""Sleeping Wizard renderer smoke tests: views from playouts at several points."""
from __future__ import annotations

import random

from rendering import sleeping as R
from rendering.common import to_png
from tests.test_sleeping_helpers import ENGINE, new_game


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
            board = R.render_board(view)
            assert 1000 <= board.size[0] <= 1400
            if i % 5 == 0:
                assert len(to_png(board)) < 400_000
            if "private" in view:
                private = R.render_private(view)
                assert private is not None
                if i % 5 == 1:
                    assert len(to_png(private)) < 400_000
            else:
                assert R.render_private(view) is None
        final = R.render_final(shots[-1], ENGINE.scores(state))
        assert len(to_png(final)) < 400_000
        summary = R.render_round(shots[-1])
        assert summary is not None and len(to_png(summary)) < 400_000


def test_render_first_view_has_no_last_round():
    view = ENGINE.view(new_game(3, seed=1), None)
    assert view["last_round"] is None
    assert R.render_round(view) is None
    R.render_board(view)
