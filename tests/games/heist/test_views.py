"""HEIST's typed views (bot/games/heist/viewtypes.py): the declarations match what the engine builds,
key for key and all the way down, and a misspelt field is an error for the type checker."""
from __future__ import annotations

import random

from bot.games.heist import ENGINE
from bot.games.heist.viewtypes import HeistView
from tests.viewtype_checks import conforms, mypy_on


def test_the_views_are_their_declared_types_all_the_way_down():
    for players in range(1, 7):
        state = ENGINE.setup([f"P{i}" for i in range(players)], {}, players)
        chooser = random.Random(players)
        for step in range(3000):
            if step % 5 == 0 or ENGINE.is_terminal(state):
                for seat in (None, *range(players)):
                    conforms(ENGINE.view(state, seat), HeistView, f"{players}p step {step} seat {seat}")
            if ENGINE.is_terminal(state):
                break
            seat = chooser.choice(ENGINE.to_act(state))
            ENGINE.apply(state, seat, chooser.choice(ENGINE.legal_actions(state, seat)))
        assert ENGINE.is_terminal(state)  # the final views (scores, secrets) were checked too


def test_a_misspelt_view_field_is_a_type_error(tmp_path):
    run = mypy_on(tmp_path, "probe_heist_views", (
        "from bot.games.heist.viewtypes import HeistView\n\n\n"
        "def tops(view: HeistView) -> list[str]:\n"
        "    return [job['top']['nmae'] for job in view['jobs'] if job['top']]\n\n\n"  # 'name'
        "def helpers(view: HeistView) -> int:\n"
        "    return len(view['test']['assist']) if view['test'] else 0\n"  # 'assists'
    ))
    assert run.returncode == 1, run.stdout + run.stderr
    assert '"ObstacleView" has no key "nmae"' in run.stdout
    assert '"CurrentTestView" has no key "assist"' in run.stdout
