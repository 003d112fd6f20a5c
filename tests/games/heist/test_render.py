"""Renderer smoke tests: board, private and final images from views of a bot game."""
from __future__ import annotations

import random

from bot.games.heist import ENGINE
from rendering import heist as heist_renderer
from rendering.common import to_png


def _views(players: int, seed: int) -> tuple[list[dict], list[dict], dict, list]:
    state = ENGINE.setup([f"Thief{i + 1}" for i in range(players)], {}, seed)
    rng = random.Random(seed)
    boards, privates = [], []
    step = 0
    while not ENGINE.is_terminal(state):
        seat = ENGINE.to_act(state)[0]
        ENGINE.apply(state, seat, ENGINE.bot_action(state, seat, rng))
        step += 1
        if step % 9 == 0:
            boards.append(ENGINE.view(state, None))
            privates.append(ENGINE.view(state, ENGINE.to_act(state)[0]) if ENGINE.to_act(state) else None)
    return boards, [p for p in privates if p], ENGINE.view(state, None), ENGINE.scores(state)


def test_render_board_private_final() -> None:
    for players in (1, 3, 6):
        boards, privates, final, scores = _views(players, 7 + players)
        heist_renderer.render_board(boards[0])  # warm the font cache
        for view in boards[:: max(1, len(boards) // 6)] + [final]:
            image = heist_renderer.render_board(view)
            data = to_png(image)
            assert 1000 <= image.width <= 1400
            assert len(data) < 400_000
        for view in privates[:3]:
            image = heist_renderer.render_private(view)
            assert image is not None and len(to_png(image)) < 400_000
        assert heist_renderer.render_private(final) is None  # a public view has nothing private
        image = heist_renderer.render_final(final, scores)
        assert len(to_png(image)) < 400_000


def test_render_via_platform_hook() -> None:
    from rendering import render
    boards, _, final, scores = _views(2, 3)
    assert render("heist", "board", boards[0]).startswith(b"\x89PNG")
    assert render("heist", "final", final, scores).startswith(b"\x89PNG")


def test_describe_names_the_player_to_act_and_keeps_secrets() -> None:
    from bot.games.heist import cards
    for players in (1, 3, 6):
        state = ENGINE.setup([f"Thief{i + 1}" for i in range(players)], {}, 40 + players)
        rng = random.Random(players)
        step = 0
        while True:
            public = ENGINE.view(state, None)
            text = heist_renderer.describe(public)
            assert 0 < len(text) <= 1000
            if ENGINE.is_terminal(state):
                assert "Final scores" in text
                break
            for seat in ENGINE.to_act(state):
                assert state["names"][seat] in text
            for seat in range(players):
                assert cards.SECRET[state["secrets"][seat]]["name"] not in text
                # a seat's own view gives the same text: describe never reads "private"
                assert heist_renderer.describe(ENGINE.view(state, seat)) == text
            test = state["test"]
            if test and not test["revealed"]:
                for commit in test["commits"].values():
                    if commit:
                        assert cards.card_name(commit["card"]) not in text
            seat = ENGINE.to_act(state)[0]
            ENGINE.apply(state, seat, ENGINE.bot_action(state, seat, rng))
            step += 1
