"""Wizard's Rage for a newcomer (issue 30): how to play, the tutorial, a help line per kind of move, the glossary,
and the terms a newcomer tripped on."""
from __future__ import annotations

from bot.games.rage import ENGINE
from bot.teach import TutorialRun
from tests.teach_checks import check_action_help, check_how_to_play, check_tutorial, explained_words, unexplained_terms


def test_how_to_play():
    check_how_to_play(ENGINE)
    how = ENGINE.how_to_play()
    assert "hero" in how.goal and "wizard" in how.goal and "win" in how.winning


def test_tutorial_teaches_every_section_and_plays_through():
    run = check_tutorial(ENGINE)
    assert run.state["winner"] == "heroes"  # its last move storms the tower


def test_tutorial_explains_a_wrong_move():
    run = TutorialRun.begin(ENGINE)
    while run.step.expect is None:
        run.next()
    result = run.answer({"type": "stay"})
    assert not result.right and "B1" in result.text


def test_every_kind_of_move_has_help():
    check_action_help(ENGINE, seeds=range(2))


def test_every_term_is_explained():
    assert unexplained_terms(ENGINE, seeds=range(2)) == set()


def test_the_terms_a_newcomer_tripped_on_are_explained_or_gone():
    """Issue 30's list for Wizard's Rage: "Quick march", "save +0", "Mana 4/8", "?" tiles, crossed-out tiles,
    "(cards +1, mana +0)", "Round 1/16", and that nothing said you are a hero."""
    words = explained_words(ENGINE)
    for term in ("quick", "march", "save", "Mana", "Wheel", "unexplored", "crumbled", "round"):
        assert term.lower() in words, term
    from tests.games.rage.scenario import RageTable

    table = RageTable.ready(players=4).heroes_turn()
    st = table.state
    hero = ENGINE.private_text(ENGINE.view(st, 1))
    assert hero.startswith("**You are a hero**") and "3 keys" in hero and "round 16" in hero
    assert ENGINE.status_line(st).startswith("Round 1 of 16:")
    events = ENGINE._flip(st, 6)
    assert "cards +" not in events[0]["text"] and "the wizard draws" in events[0]["text"]
    option = ENGINE.meta.option("round_limit")
    assert "automatic" in option.label and "16 rounds at 3-4 players" in option.label


def test_no_option_reads_quick_march():
    """"Quick march" on the move buttons was jargon: a march says how far it goes and that it is free."""
    from tests.teach_checks import bot_games

    labels = {ENGINE.describe_action(st, seat, a) for st, seat, legal in bot_games(ENGINE, range(2)) for a in legal
              if a["type"] in ("march", "sprint")}
    assert labels and not [x for x in labels if "quick march" in x.lower()]
    assert any(x.startswith("March 2 tiles to ") and x.endswith("(free)") for x in labels), sorted(labels)[:5]


def test_the_wizards_events_read_plainly():
    """A room that makes an empty-handed wizard discard said "The wizard discards 0 cards at random."; an instant
    card read "which acts at once: Acts when drawn: ..."; the wizard's hand read "Giant Rats (1)"."""
    from tests.games.rage.scenario import RageTable

    table = RageTable.ready().wizard(empty_hand=True)
    st = table.state
    texts = [e["text"] for e in ENGINE._room_discard(st, 0)]
    assert texts == ["The wizard has no card to discard."]
    texts = [e["text"] for e in ENGINE._instant(st, table.wizard_holds("leytap"))]
    assert "acts at once: spin the Mana Wheel" in texts[0] and "Acts when drawn" not in texts[0]
    table.wizard_holds("rats")
    assert "Giant Rats (1 mana)" in ENGINE.private_text(ENGINE.view(st, 0))
