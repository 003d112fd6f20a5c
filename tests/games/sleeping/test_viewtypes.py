"""Sleeping Wizard's typed views: the declarations in bot/games/sleeping/viewtypes.py match what the
engine builds (every key, no extra ones), and a misspelt field is an error for the type checker."""
from __future__ import annotations

import random

from bot.games.sleeping import ENGINE
from bot.games.sleeping.viewtypes import (
    CardView,
    FinalView,
    HandCardView,
    LastRoundView,
    SleepingPrivate,
    SleepingView,
    SummaryCardView,
    SummaryTeamView,
    TeamCardView,
    TeamView,
    TowerLevelView,
)
from tests.games.sleeping.test_helpers import arrange, new_game, start_round
from tests.viewtype_checks import mypy_on, same_keys


def check_view(view: dict, seat: int | None) -> None:
    same_keys(view, SleepingView)
    for level in view["tower"]:
        same_keys(level, TowerLevelView)
    for card in view["market"]:
        same_keys(card, CardView)
    for team in view["teams"]:
        same_keys(team, TeamView)
        for card in team["cards"]:
            same_keys(card, TeamCardView)
    if view["last_round"]:
        same_keys(view["last_round"], LastRoundView)
        for team in view["last_round"]["teams"]:
            same_keys(team, SummaryTeamView)
            for card in team["cards"]:
                same_keys(card, SummaryCardView)
    for row in view["final"] or []:
        same_keys(row, FinalView)
    if seat is not None:
        same_keys(view["private"], SleepingPrivate)
        for held in view["private"]["hand"]:
            same_keys(held, HandCardView)


def test_the_views_are_their_declared_types_through_whole_games():
    for players, seed in ((2, 1), (4, 2), (5, 3)):
        state = ENGINE.setup([f"P{i}" for i in range(players)], ENGINE.meta.resolve_options({}), seed)
        chooser = random.Random(seed)
        for step in range(500):
            if step % 3 == 0 or ENGINE.is_terminal(state):
                for seat in (None, *range(players)):
                    check_view(ENGINE.view(state, seat), seat)
            if ENGINE.is_terminal(state):
                break
            seat = chooser.choice(ENGINE.to_act(state))
            ENGINE.apply(state, seat, chooser.choice(ENGINE.legal_actions(state, seat)))
        assert ENGINE.is_terminal(state)  # the final views were checked too


def test_the_shapeshifter_step_views_are_their_declared_types():
    state = new_game(2, seed=3)
    start_round(state, 2, "alchemy")
    arrange(state, hands=[["Marigold", "Mimsy", "Emberly", "Tansy"], ["Shade", "Salvia", "Poppy", "Bastion"]])
    while state["phase"] == "turns":
        seat = ENGINE.to_act(state)[0]
        ENGINE.apply(state, seat, next(a for a in ENGINE.legal_actions(state, seat) if a["type"] == "hire_hand"))
    assert state["phase"] == "copy"
    for seat in (None, 0, 1):
        check_view(ENGINE.view(state, seat), seat)
    assert "copy_options" in ENGINE.view(state, 0)["private"]


def test_a_misspelt_view_field_is_a_type_error(tmp_path):
    run = mypy_on(tmp_path, "probe_sleeping_views", (
        "from bot.games.sleeping.viewtypes import SleepingView\n\n\n"
        "def market_size(view: SleepingView) -> int:\n"
        "    return len(view['markets'])\n\n\n"  # a typo of 'market'
        "def first_letter(view: SleepingView) -> str:\n"
        "    return view['private']['hand'][0]['letters']\n"  # 'letter'
    ))
    assert run.returncode == 1, run.stdout + run.stderr
    assert '"SleepingView" has no key "markets"' in run.stdout
    assert '"HandCardView" has no key "letters"' in run.stdout
