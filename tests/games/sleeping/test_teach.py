"""Sleeping Wizard teaches a newcomer (issue 30): how to play, the tutorial, a help line for every kind of move, no
unexplained jargon, and what the newcomer stumbled on (48 reads as "Zz!", the classes unexplained, cards counting 0
for no reason they could see, their own hand invisible to them) explained."""
from __future__ import annotations

import random

from bot.games.sleeping import ENGINE
from bot.games.sleeping.cards import CARDS, WAKE_AT
from tests import teach_checks
from tests.games.sleeping.test_helpers import check_conservation


def test_how_to_play():
    teach_checks.check_how_to_play(ENGINE)


def test_tutorial_teaches_every_section_and_plays_through():
    run = teach_checks.check_tutorial(ENGINE)
    assert ENGINE.is_terminal(run.state)  # it ends on the last round's hire: the game is over
    final = {row["seat"]: row for row in run.state["final"]}
    assert final[0]["noise"] < WAKE_AT and final[0]["won"]


def test_tutorial_positions_hold_every_card_once():
    from bot.games.sleeping import teach
    for make in (teach.start, teach.library, teach.last_round, teach._example):
        check_conservation(make())


def test_every_kind_of_move_has_help():
    teach_checks.check_action_help(ENGINE)


def test_no_unexplained_terms():
    assert teach_checks.unexplained_terms(ENGINE) == set()


def test_reaching_48_is_said_to_lose():
    """issue 30: the game never said that reaching 48 noise loses ("Zz!" read as "asleep")."""
    from bot.games.sleeping.teach import GLOSSARY, HOW_TO_PLAY
    from rendering import sleeping as renderer

    assert "48 noise: that wakes the wizard and your guild loses" in HOW_TO_PLAY.goal
    assert "loses" in GLOSSARY["noise tracker"] and "48" in ENGINE.meta.summary.split("**Goal:**")[1].split("\n")[0]
    assert "Zz" not in renderer.tracker_label(WAKE_AT) and "loses" in renderer.tracker_label(WAKE_AT)
    # the round's tracker line says it, and warns a guild that comes near
    from tests.games.sleeping.scenario import SleepingTable
    table = SleepingTable(2, seed=3).noise(30, 2)
    events = table.finish_round(["Tansy", "Clover", "Marigold", "Hawkeye"], ["Pebble", "Brickle", "Mossbeard", "Flicker"])
    tracker = next(e["text"] for e in events if e["type"] == "tracker")
    assert "wakes the wizard and loses" in tracker and "P1 47 (1 from waking the wizard)" in tracker


def test_every_class_is_explained_on_the_board_and_in_the_glossary():
    """issue 30: nothing showed what each class of adventurer does."""
    from bot.games.sleeping.teach import GLOSSARY
    from rendering import sleeping as renderer

    classes = {card["class"] for card in CARDS}
    on_board = {cls for row in renderer.LEGEND for _, cls in row}
    assert on_board == classes
    explained = " ".join(GLOSSARY)
    assert all(cls in explained for cls in classes)


def test_a_card_that_counts_zero_says_why():
    """issue 30: cards counted 0 with no reason given. Over whole bot games, every hired card that scores other than
    its printed number carries its reason on the board (the view's ``why``), and every round's score line names the
    reasons of each team."""
    for seed in range(3):
        state = ENGINE.setup(["A", "B", "C", "D"], ENGINE.meta.resolve_options({}), seed)
        rng = random.Random(seed)
        while not ENGINE.is_terminal(state):
            for team in ENGINE.view(state, None)["teams"]:
                for card in team["cards"]:
                    if card["score"] != (card["value"] if card["kind"] != "shapeshifter" else 0) or card["score"] == 0:
                        assert card.get("why"), card
            seat = ENGINE.to_act(state)[0]
            events = ENGINE.apply(state, seat, ENGINE.bot_action(state, seat, rng))
            for event in events:
                if event["type"] == "score":
                    for team in state["last_round"]["teams"]:
                        for card in team["cards"]:
                            if card.get("why"):
                                assert card["why"] in event["text"]


def test_the_hire_event_says_what_the_card_did():
    from tests.games.sleeping.scenario import SleepingTable
    table = (SleepingTable(2, seed=4).round(1).hands(["Tansy", "Poppy", "Clover", "Bastion"],
                                                     ["Pebble", "Brickle", "Mossbeard", "Flicker"])
             .market("Salvia", "Quasar", "Squelch"))
    table.play(0, {"type": "hire_hand", "slot": 0})
    table.play(1, {"type": "hire_hand", "slot": 0})
    assert table.events[0]["text"] == "P2 hires Pebble (2 Warrior) from their hand (card A): team noise 2."
    table.play(0, {"type": "hire_hand", "slot": 1})
    table.play(1, {"type": "hire_hand", "slot": 3})
    assert table.events[0]["text"] == ("P2 hires Flicker (2 Mage) from their hand (card D) (two 2s cancel): "
                                       "team noise 0.")


def test_your_hand_and_theirs_are_explained():
    """issue 30: a player can't see their own hand (the game's point): how to play, the tutorial and the DM say so,
    and how to read the others' hands."""
    from bot.games.sleeping.teach import HOW_TO_PLAY, TUTORIAL

    assert "Your hand faces away from you" in HOW_TO_PLAY.turn and "every other player's hand" in HOW_TO_PLAY.turn
    first = TUTORIAL.steps[0]
    assert first.section == "Your hand faces away from you" and "they can't see" in first.say
    state = ENGINE.setup(["A", "B", "C"], ENGINE.meta.resolve_options({}), 1)
    text = ENGINE.private_text(ENGINE.view(state, 0))
    assert "faces away from you" in text and "which they can't see themselves" in text
    assert "unseen" in text


def test_one_quietest_team_is_not_paid_each():
    """Read as a newcomer: "Quietest: Bob (+2 treasure each)" read as if Bob were several; 'each' only for a tie."""
    from tests.games.sleeping.scenario import SleepingTable
    events = SleepingTable(2, seed=3).finish_round(["Tansy", "Clover", "Marigold", "Hawkeye"],
                                                   ["Pebble", "Brickle", "Mossbeard", "Flicker"])
    score = next(e["text"] for e in events if e["type"] == "score")
    assert score.endswith("Quietest: P2 (+2 treasure).")
