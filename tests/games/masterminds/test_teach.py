"""Masterminds teaches a newcomer (issue 30): how to play, the tutorial, a "?" line for every kind of move,
and every word of its jargon explained (tests/teach_checks.py)."""
from __future__ import annotations

import re

from bot.games.masterminds import ENGINE
from bot.games.masterminds.scenario import MastermindsTable, tid
from bot.games.masterminds.teach import action_help
from tests.teach_checks import (
    check_action_help,
    check_how_to_play,
    check_tutorial,
    explained_words,
    texts_players_read,
    unexplained_terms,
)


def test_how_to_play():
    check_how_to_play(ENGINE)


def test_tutorial_teaches_every_section_and_plays_through():
    run = check_tutorial(ENGINE)
    assert ENGINE.is_terminal(run.state)  # it ends with a finished game: the scores make sense of the last steps


def test_every_kind_of_move_has_help():
    check_action_help(ENGINE, seeds=range(2))


def test_every_term_is_explained():
    assert unexplained_terms(ENGINE, seeds=range(2)) == set()


# What the newcomer of issue 30 could not read, each explained now (or gone from what players read).
ISSUE_TERMS = ["D S H M C", "Drv/Mus", "Ringleader", "Fence", "Lone Wolf", "◆1", "Burn the Talent Pool", "push",
               "PERFECTION", "Hold", "busted"]


def test_the_terms_the_issue_quotes_are_explained_or_gone():
    texts = " ".join(texts_players_read(ENGINE, seeds=range(1)))
    glossary = {term.lower() for term in ENGINE.glossary()}
    explained = explained_words(ENGINE)
    for term in ISSUE_TERMS:
        words = [w.lower() for w in re.findall(r"[A-Za-z]+", term)]
        shown = term in texts or term.lower() in texts.lower()
        if not shown:
            continue  # gone: "Drv/Mus", "◆1", "busted" are no longer written anywhere a player reads
        assert term.lower() in glossary or all(w in explained for w in words), term
    assert "busted" not in texts.lower() and "Drv/Mus" not in texts and "◆1" not in texts
    for term in ("D S H M C", "PERFECTION", "PUSH", "hold", "burn", "Ringleader", "Fence", "Lone Wolf"):
        assert term.lower() in glossary, term


def test_the_help_previews_the_die_a_step_needs():
    """ "nowhere does it say total + die must beat the target": the "?" gives the chance of the best step."""
    s = MastermindsTable.at_a_heist(team=("Silas Crane",)).state  # The Crown Jewels A: Stealth 6; Silas Stealth 3
    lines = action_help(s, 0, ENGINE.legal_actions(s, 0))
    assert "total + one die must beat" in lines["heist"].replace("total in its skill + one die", "total + one die")
    assert "total 3 + a die vs 6: you need 4+ (50%)" in lines["heist"]
    labels = [ENGINE.describe_action(s, 0, a) for a in ENGINE.legal_actions(s, 0)]
    assert "The Crown Jewels step A (Stealth 6): send Silas Crane, 3 + a die vs 6: need 4+" in labels
    ENGINE.apply(s, 0, {"type": "heist", "heist": 0, "skill": "Stealth"})
    assert ENGINE.describe_action(s, 0, {"type": "crew", "recruits": [tid("Silas Crane")]}) == (
        "Silas Crane: total 3 + a die vs 6: you need 4+ (50%)")


def test_the_labelled_picture_numbers_every_part_of_the_board():
    from rendering.masterminds import HOWTO_KEY, _layout, render_board, render_howto
    how = ENGINE.how_to_play()
    state, viewer = how.example()
    view = ENGINE.view(state, viewer)
    board, marks = _layout(view)
    assert {mark for mark, _ in HOWTO_KEY} <= set(marks)
    assert all(0 < x < board.width and 0 < y < board.height for x, y in marks.values())
    picture = render_howto(view)
    assert picture.width == board.width == render_board(view).width and picture.height > board.height


def test_help_covers_every_kind_of_move_the_engine_has():
    """Every action type of every phase has its own help line (not only those the seeded games happened to reach)."""
    from bot.games.masterminds.engine import PHASES
    kinds = {kind for phase in PHASES.values() for kind in phase.actions}
    s = MastermindsTable.at_a_heist(team=("Silas Crane",)).state
    lines = action_help(s, 0, [{"type": kind} for kind in sorted(kinds) if kind not in ("pass", "interrupt")])
    assert set(lines) == kinds - {"pass", "interrupt"} and all(lines[kind] != kind for kind in lines)


def test_a_recruit_button_says_what_the_ability_does():
    """Issue 30: "Ringleader/Fence/Lone Wolf" on buttons meant nothing: the hiring label adds a few words on
    what the ability does ("Lone Wolf (+2 alone)"), within 80 characters, for every Talent."""
    from bot.games.masterminds.cards import ABILITIES, TALENTS
    from bot.games.masterminds.texts import ABILITY_SHORT

    assert set(ABILITY_SHORT) == set(ABILITIES)
    for team in (("Byte",), ("Byte", "Ghost", "Sparrow", "Rosa Vance")):
        s = MastermindsTable.at_a_heist(team=team).state
        assert s["phase"] == "turn"
        for talent in TALENTS:
            if any(entry["card"] == talent for t in s["teams"] for entry in t):
                continue
            s["pool"] = [talent]
            label = next(ENGINE.describe_action(s, 0, a) for a in ENGINE.legal_actions(s, 0) if a["type"] == "recruit")
            ability = TALENTS[talent]["ability"]
            assert len(label) <= 80, label
            if len(team) < 4:  # room in the team: the whole gloss fits
                assert f"{ABILITIES[ability]['name']} ({ABILITY_SHORT[ability]})" in label, label
