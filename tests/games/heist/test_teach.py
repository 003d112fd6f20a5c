"""HEIST teaches a newcomer (issue 30): how to play, the tutorial, a help line for every kind of move, the glossary."""
from __future__ import annotations

import copy

from bot.games.heist import ENGINE, rules, teach
from bot.teach import TutorialRun
from tests.teach_checks import check_action_help, check_how_to_play, check_tutorial, explained_words, unexplained_terms


def test_how_to_play() -> None:
    check_how_to_play(ENGINE)
    text = ENGINE.how_to_play().text()
    assert "most cheese wins" in text.lower() and "after round 5" in text  # what the newcomer never read


def test_tutorial_teaches_every_section_and_plays_through() -> None:
    run = check_tutorial(ENGINE)
    assert run.state["upgrades"][teach.YOU]  # the upgrade lesson's move was made


def test_tutorial_runs_the_same_every_time_and_from_its_json() -> None:
    first, second = TutorialRun.begin(ENGINE), TutorialRun.begin(ENGINE)
    assert first.state == second.state
    for _ in range(3):
        first.next() if first.step.expect is None else first.answer(first.step.expect[0])
    again = TutorialRun.from_json(ENGINE, copy.deepcopy(first.to_json()))
    assert again.index == first.index and again.state == first.state


def test_a_help_line_for_every_kind_of_move() -> None:
    check_action_help(ENGINE)


def test_no_unexplained_terms() -> None:
    assert unexplained_terms(ENGINE) == set()


def test_the_terms_the_newcomer_quoted_are_explained_or_gone() -> None:
    """Issue 30: "Heat (round: tokens)", "(0 obs)", "MANDATORY", token colours without their values, "discard Backup
    Plan to move": gone from what players read (see test_newcomer for the pictures), and the words explained."""
    words = explained_words(ENGINE)
    for term in ("heat", "mandatory", "token", "face", "pay", "walk", "cheese", "round"):
        assert term in words, term
    glossary = " ".join(ENGINE.glossary().values())
    for colour, faces in (("blue", "+4/+2"), ("red", "-2/-4"), ("purple", "+3/-3")):
        assert f"{colour} {faces}" in glossary


def test_the_rulebook_table_option_is_explained() -> None:
    text = ENGINE.glossary()["rules: tuned / rulebook"]
    assert "all 7 obstacles at every player count" in text and "the start player opens every round" in text
    assert rules.RULEBOOK.head_start[3] == 0


def test_the_how_to_play_picture_is_drawn_from_the_example() -> None:
    from rendering import render

    state, viewer = ENGINE.how_to_play().example()
    png = render("heist", "howto", ENGINE.view(state, viewer))
    assert png is not None and png.startswith(b"\x89PNG")
    assert [part for part, _ in teach.BOARD_PARTS] == ["heat", "bag", "test", "jobs", "players", "footer"]
