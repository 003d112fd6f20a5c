"""Every game in the registry teaches a newcomer (issue 30): how to play (its four parts, and its picture drawn
when it has an example), a tutorial the platform can run, and a line of help for every kind of move on offer at
the start of a game at every table size. The games' own tests (``tests/games/<key>/test_teach.py``, with
``tests/teach_checks.py``) check each thoroughly; this one sees that none is missing, including a game added later.

The two tests after it check the check: it passes a game that teaches and catches one that doesn't."""
from __future__ import annotations

import pytest

from bot.engine import Engine
from bot.games import get_engine, registry
from bot.teach import TutorialRun
from rendering import render, renderer
from tests.dummy_game import ENGINE as COIN_PILE
from tests.faults.vote_game import ENGINE as SECRET_VOTE
from tests.teach_checks import HOW_TO_PLAY_CHARS

# The games under bot/games (the registry also holds the test games some test modules register as they load).
GAMES = sorted(key for key, engine in registry().items() if type(engine).__module__.startswith("bot.games."))
PNG = b"\x89PNG\r\n\x1a\n"


def check_teaches(engine: Engine) -> None:
    key = engine.meta.key
    how = engine.how_to_play()
    assert how is not None, f"{key} has no how to play (HOW_TO_PLAY in bot/games/{key}/teach.py)"
    assert all(getattr(how, part).strip() for part in ("goal", "winning", "turn", "board")), f"{key}: a part is empty"
    assert len(how.text()) <= HOW_TO_PLAY_CHARS, f"{key}: how to play is {len(how.text())} characters"
    if how.example is not None and hasattr(renderer(key), "render_howto"):
        state, viewer = how.example()
        png = render(key, "howto", engine.view(state, viewer))
        assert png is not None and png.startswith(PNG), f"{key}: the how-to-play picture was not drawn"
    tutorial = engine.tutorial()
    assert tutorial is not None and tutorial.steps, f"{key} has no tutorial (tutorial() in bot/games/{key}/teach.py)"
    run = TutorialRun.begin(engine)
    assert TutorialRun.from_json(engine, run.to_json()).state == run.state  # a run can be stored and carried on
    for players in range(engine.meta.min_players, engine.meta.max_players + 1):
        state = engine.setup([f"P{i + 1}" for i in range(players)], engine.meta.resolve_options({}), 7)
        for seat in engine.to_act(state):
            legal = engine.legal_actions(state, seat)
            kinds = {str(action.get("type")) for action in legal}
            missing = kinds - set(engine.action_help(state, seat, legal))
            assert not missing, f"{key} ({players} players): no help for {sorted(missing)}"


@pytest.mark.parametrize("key", GAMES)
def test_every_game_teaches_a_newcomer(key):
    check_teaches(get_engine(key))


def test_the_check_passes_a_game_that_teaches():
    check_teaches(COIN_PILE)


def test_the_check_catches_a_game_that_teaches_nothing():
    with pytest.raises(AssertionError, match="vote has no how to play"):
        check_teaches(SECRET_VOTE)
