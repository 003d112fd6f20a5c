"""The Wizard's Tower teaches a newcomer (issue 30): how to play, the tutorial, a help line for every kind of move,
no unexplained jargon, and the words the newcomer stumbled on explained or gone."""
from __future__ import annotations

from bot.games.tower import ENGINE
from tests import teach_checks


def test_how_to_play():
    teach_checks.check_how_to_play(ENGINE)


def test_tutorial_teaches_every_section_and_plays_through():
    run = teach_checks.check_tutorial(ENGINE)
    assert run.state["n"] == 2  # it ends on the two-player step


def test_every_kind_of_move_has_help():
    teach_checks.check_action_help(ENGINE)


def test_no_unexplained_terms():
    assert teach_checks.unexplained_terms(ENGINE) == set()


def test_what_the_newcomer_stumbled_on_is_explained_or_gone():
    """issue 30: "prestige" first appeared in "Carol wins with 14 prestige"; the scoring tiles only at the end;
    "Claim Tales of Myth & Magic (floor 4)" gave only a name; *haul*, *WILD*, "3s: 0, 4s: 0, 5s: 0" and
    "✦ discard, then give away" were unexplained."""
    from bot.games.tower.teach import GLOSSARY, HOW_TO_PLAY
    from rendering import tower as renderer
    from tests.games.tower.scenario import TowerTable

    assert "prestige" in HOW_TO_PLAY.goal and "prestige" in GLOSSARY
    assert all(word in HOW_TO_PLAY.winning for word in ("scoring tiles", "Tome", "curses"))
    assert {"haul", "any suit", "Wild", "3s, 4s, 5s", "power", "scoring tile"} <= set(GLOSSARY)
    st = TowerTable(3).tower({(3, 0): "Tales of Myth & Magic"}).holds(0, "Ruby Slippers").state
    claim = {"type": "claim", "floor": 3, "slot": 0}
    assert ENGINE.describe_action(st, 0, claim) == "Claim Tales of Myth & Magic (Jewel+Tome 6, 1 curse), move to floor 4"
    assert "never back up" in ENGINE.action_group(st, 0, claim)
    help_line = ENGINE.action_help(st, 0, ENGINE.legal_actions(st, 0))["claim"]
    assert "gone for you for good" in help_line and "send a face-up curse-free card" in help_line
    read = teach_checks.texts_players_read(ENGINE, seeds=range(2))
    read += [line for state, seat, legal in teach_checks.bot_games(ENGINE, range(2))
             for line in ENGINE.action_help(state, seat, legal).values()]
    assert not any("WILD" in t or "3s: 0" in t or "Wild" in t for t in read)
    assert "discard, then give away" not in renderer.POWER_TAG.values()
    assert all(len(tag) <= 21 for tag in renderer.POWER_TAG.values())


def test_card_names_come_with_what_the_card_is():
    """PROPER_NAMES: a card's name is not jargon because each appearance says what the card is, except the special
    cards' names in the sentences about their powers, which the glossary explains."""
    import copy
    import random
    import re

    from bot.games.tower.teach import GLOSSARY, PROPER_NAMES

    specials = {name for term in GLOSSARY for name in term.split(", ")}
    pattern = re.compile("|".join(re.escape(n) for n in sorted(PROPER_NAMES, key=len, reverse=True)))
    read = teach_checks.texts_players_read(ENGINE, seeds=range(2))
    for state, seat, legal in teach_checks.bot_games(ENGINE, range(2), options={"special_set": "B",
                                                                                "master_thief": True}):
        read += [ENGINE.describe_action(state, seat, a) for a in legal] + [ENGINE.private_text(ENGINE.view(state, seat))]
        probe = copy.deepcopy(state)
        read += [e["text"] for e in ENGINE.apply(probe, seat, ENGINE.bot_action(probe, seat, random.Random(0)))]
    bare = set()
    for text in read:
        for found in pattern.finditer(text):
            rest = text[found.end():].lstrip("*")
            if not rest.startswith(" (") and found.group() not in specials:
                bare.add((found.group(), text))
    assert not bare, sorted(bare)[:5]
