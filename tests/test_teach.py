"""The tutorial runner (bot/teach.py) on the coin-pile game: right moves advance, wrong ones change nothing."""
from __future__ import annotations

import copy

import pytest

from bot.teach import HowToPlay, Tutorial, TutorialRun, TutorialStep
from tests.dummy_game import ENGINE


def start() -> dict:
    return ENGINE.setup(["You", "Bot"], ENGINE.meta.resolve_options({"pile": 7}), seed=1)


TUTORIAL = Tutorial(seat=0, start=start, steps=(
    TutorialStep("Taking", "Take one coin.", expect=({"type": "take", "n": 1},), wrong="One coin, please.",
                 after="You took one; the bot took its turn."),
    TutorialStep("Reading", "Whoever takes the last coin wins.", expect=None),
    TutorialStep("Endgame", "Take any number.", expect=(),
                 position=lambda: {**start(), "pile": 2}),
))


def test_a_right_move_is_made_the_others_move_and_the_next_step_begins():
    run = TutorialRun(ENGINE, TUTORIAL)
    result = run.answer({"type": "take", "n": 1})
    assert result.right and result.text.startswith("You took one")
    assert run.index == 1 and run.state["turn"] == 0 and run.state["pile"] == 5  # the bot took 1
    assert any("Bot takes 1" in e["text"] for e in result.events)


def test_a_wrong_move_is_explained_and_changes_nothing():
    run = TutorialRun(ENGINE, TUTORIAL)
    before = copy.deepcopy(run.state)
    result = run.answer({"type": "take", "n": 2})
    assert not result.right and result.text == "One coin, please."
    assert run.state == before and run.index == 0
    assert not run.answer({"type": "take", "n": 9}).right  # not even legal


def test_reading_steps_take_next_and_positions_jump_ahead():
    run = TutorialRun(ENGINE, TUTORIAL)
    run.answer({"type": "take", "n": 1})
    with pytest.raises(ValueError):
        run.answer({"type": "take", "n": 1})
    assert run.legal() == []
    run.next()
    assert run.state["pile"] == 2  # the third step's position
    assert run.answer({"type": "take", "n": 2}).right and run.finished and run.step is None


def test_a_run_is_carried_on_from_its_json():
    run = TutorialRun(ENGINE, TUTORIAL)
    run.answer({"type": "take", "n": 1})
    again = TutorialRun(ENGINE, TUTORIAL, **{k: v for k, v in run.to_json().items() if k != "game"})
    assert again.index == 1 and again.state == run.state


def test_how_to_play_reads_as_four_parts_and_a_tutorial_has_a_length():
    how = HowToPlay(goal="Take the last coin.", winning="The last coin wins.", turn="Take 1 or 2.",
                    board="The number is the pile.")
    assert how.text().count("**") == 8
    assert 0 < TUTORIAL.estimated_minutes() < 1
