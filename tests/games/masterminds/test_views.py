"""Masterminds' declared view types (bot/games/masterminds/viewtypes.py) match what the engine builds,
and the type checker catches a renamed field in code that reads a view."""
from __future__ import annotations

import random

from bot.games.masterminds import ENGINE
from bot.games.masterminds.viewtypes import (
    AttemptView,
    DecksView,
    FailureTestView,
    FinalView,
    HeistView,
    MastermindsPrivate,
    MastermindsView,
    PickingView,
    PlayerView,
    PrepCardView,
    RecruitView,
    StepView,
    TalentCardView,
    WindowView,
)
from tests.viewtype_checks import mypy_on, same_keys


def check_view(view: dict) -> None:
    """Every part of a view has exactly the keys its declared type allows."""
    same_keys(view, MastermindsView)
    same_keys(view["decks"], DecksView)
    for card in view["pool"] + ([view["burned"]] if view["burned"] else []):
        same_keys(card, TalentCardView)
    for heist in view["heists"]:
        if heist:
            same_keys(heist, HeistView)
            for step in heist["steps"]:
                same_keys(step, StepView)
    for player in view["players"]:
        same_keys(player, PlayerView)
        for recruit in player["team"]:
            same_keys(recruit, RecruitView)
            if recruit["gear"]:
                same_keys(recruit["gear"], PrepCardView)
    for part, kind in (("attempt", AttemptView), ("test", FailureTestView), ("window", WindowView),
                       ("picking", PickingView), ("final", FinalView)):
        if view.get(part):
            same_keys(view[part], kind)
    if "private" in view:
        same_keys(view["private"], MastermindsPrivate)
        for card in view["private"]["hand"]:
            same_keys(card, PrepCardView)


def test_the_views_are_their_declared_types():
    seen: set[str] = set()
    for players, seed in ((2, 3), (4, 5)):
        state = ENGINE.setup([f"P{i}" for i in range(players)], ENGINE.meta.resolve_options({}), seed)
        chooser = random.Random(seed)
        for step in range(4000):
            if step % 5 == 0 or ENGINE.is_terminal(state) or state["phase"] in ("window", "crew", "burned"):
                for seat in (None, *range(players)):
                    view = ENGINE.view(state, seat)
                    check_view(view)
                    seen |= {part for part in ("attempt", "test", "window", "picking", "burned", "final")
                             if view.get(part)}
                    if seat is not None and view["private"].get("committed"):
                        seen.add("committed")
            if ENGINE.is_terminal(state):
                break
            seat = chooser.choice(ENGINE.to_act(state))
            legal = ENGINE.legal_actions(state, seat)
            action = ENGINE.bot_action(state, seat, chooser) if step % 2 else chooser.choice(legal)
            ENGINE.apply(state, seat, action)
        assert ENGINE.is_terminal(state)  # the final views were checked too
    assert seen == {"attempt", "test", "window", "picking", "burned", "final", "committed"}, seen


def test_a_renamed_masterminds_view_field_is_caught(tmp_path):
    run = mypy_on(tmp_path, "probe_masterminds", (
        "from bot.games.masterminds.viewtypes import MastermindsView\n\n\n"
        "def free_dice(view: MastermindsView) -> int:\n"
        "    return view['players'][0]['free_dice']\n"  # the field is 'dice_free'
    ))
    assert run.returncode == 1, run.stdout + run.stderr
    assert '"PlayerView" has no key "free_dice"' in run.stdout


def test_the_final_board_explains_gem_scoring_without_cutting_it(monkeypatch):
    """The final board's line on how gems score was cut ("A die is rolled for each col…") at every end reason."""
    import rendering.masterminds as renderer

    drawn: list[str] = []
    real = renderer.fit_text

    def recording(draw, text, fnt, width):
        out = real(draw, text, fnt, width)
        drawn.append(out)
        return out

    monkeypatch.setattr(renderer, "fit_text", recording)
    state = ENGINE.setup(["Ann", "Bob", "Cid"], ENGINE.meta.resolve_options({}), 3)
    rng = random.Random(3)
    while not ENGINE.is_terminal(state):
        seat = ENGINE.to_act(state)[0]
        ENGINE.apply(state, seat, ENGINE.bot_action(state, seat, rng))
    for reason in ("heists", "bag", "rounds"):
        state["final"]["reason"] = reason
        drawn.clear()
        renderer.render_final(ENGINE.view(state, None), ENGINE.scores(state))
        lines = [text for text in drawn if "die" in text or "ended" in text]
        assert any("worth the roll" in text and "Clear gems: 2." in text for text in lines), lines
        assert not any(text.endswith("…") for text in lines), lines
