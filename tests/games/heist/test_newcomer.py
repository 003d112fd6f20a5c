"""What a newcomer hit in a recorded HEIST game (issue 30), one test per finding: each failed before its fix."""
from __future__ import annotations

import random

import pytest
from PIL import ImageDraw

from bot.engine import RuleError
from bot.games.heist import ENGINE, cards
from rendering import heist as heist_renderer
from rendering.common import TILES
from tests.games.heist.scenario import HeistTable


def labels(state: dict, seat: int) -> list[str]:
    return [ENGINE.describe_action(state, seat, action) for action in ENGINE.legal_actions(state, seat)]


def test_an_assist_is_two_steps_the_card_then_what_you_pay() -> None:
    """16 combinations of card and payment were offered at once (4 assists x 4 cards to pay with): now the card
    first (4 options and "No assist"), then the card to pay with."""
    table = HeistTable(3, seed=5)
    helper = table.others()[0]
    table.holds(helper, "Lookout", "Muscle", "Wingman", "Old Friend", "Tumble").at("C", helper).faces("A")
    legal = ENGINE.legal_actions(table.state, helper)
    assert len(legal) == 5 and not any("pay" in action for action in legal), legal
    muscle = next(a for a in legal if a.get("card") in table.hand(helper) and cards.card_name(a["card"]) == "Muscle")
    events = ENGINE.apply(table.state, helper, muscle)
    assert all(event.get("to") == helper for event in events), "picking the card tells the table nothing"
    assert helper in ENGINE.to_act(table.state) and str(helper) not in table.state["test"]["commits"]
    pay = ENGINE.legal_actions(table.state, helper)
    assert [a["type"] for a in pay] == ["pay"] * 4 + ["no_assist"]
    assert all("Muscle" != cards.card_name(a["card"]) for a in pay if a["type"] == "pay")
    words = labels(table.state, helper)
    assert all("job A" in w and "discard" in w.lower() for w in words[:-1]), words
    ENGINE.apply(table.state, helper, pay[0])
    assert table.state["test"]["commits"][str(helper)] == {"type": "assist", "card": muscle["card"],
                                                           "pay": pay[0]["card"]}


def test_a_logged_one_step_assist_still_replays() -> None:
    """Games logged before the split carry {"type": "assist", "card", "pay"}: a replay applies it as both steps."""
    table = HeistTable(3, seed=5)
    helper = table.others()[0]
    look, tumble = table.holds(helper, "Lookout", "Tumble").at("C", helper).faces("A").hand(helper)
    ENGINE.apply(table.state, helper, {"type": "assist", "card": look, "pay": tumble})
    assert table.state["test"]["commits"][str(helper)] == {"type": "assist", "card": look, "pay": tumble}


def test_an_or_obstacle_says_its_two_options_are_one_obstacle_by_either_skill() -> None:
    """ "D4 Disable the Cameras" was offered twice (Dexterity 7 and Agility 8), unexplained."""
    table = HeistTable(2, seed=3).job("D", "D4")
    words = [w for w in labels(table.state, table.active) if w.startswith("D4")]
    assert len(words) == 2
    assert "Dexterity" in words[0] and "Agility" in words[0] and "Dexterity" in words[1] and "Agility" in words[1]
    assert words[0] != words[1]
    help_line = ENGINE.action_help(table.state, table.active, ENGINE.legal_actions(table.state, table.active))
    assert "either" in help_line["choose"].lower()


def test_secret_progress_is_a_count() -> None:
    """Secret progress read "not met yet"; it is a count now ("3/5")."""
    table = HeistTable(4, seed=2).secret(0, "well_trained").upgraded(0, "Tumble", "Sweet Talk", "Sleight of Hand")
    view = ENGINE.view(table.state, 0)
    progress = view["private"]["secret"]["progress"]
    assert "3/5" in progress
    assert "3/5" in ENGINE.private_text(view)


@pytest.mark.parametrize("secret,arrange,count", [
    ("collector", lambda t: t.scored(0, "A1", "B1"), "2/4 obstacles, 2/3 jobs"),
    ("specialist", lambda t: t.scored(0, "A1", "A2", "B1"), "2/3"),
    ("team_player", lambda t: t.scored(0, "Lookout"), "1/6"),
    ("sore_loser", lambda t: t.scored(0, "Brute Force"), "1/2"),
    ("big_score", lambda t: t, "0/1"),
])
def test_each_kind_of_secret_counts(secret, arrange, count) -> None:
    table = HeistTable(4, seed=2).secret(0, secret)
    arrange(table)
    assert count in ENGINE.view(table.state, 0)["private"]["secret"]["progress"]


def drawn_words(monkeypatch, draw_picture) -> str:
    """Every string a picture draws (tiles drawn in place, so none is skipped as cached)."""
    seen: list[str] = []
    real = ImageDraw.ImageDraw.text

    def spy(self, xy, text, *args, **kwargs):
        seen.append(str(text))
        return real(self, xy, text, *args, **kwargs)
    monkeypatch.setattr(ImageDraw.ImageDraw, "text", spy)
    monkeypatch.setattr(TILES, "enabled", False)
    draw_picture()
    return " | ".join(seen)


def _mid_game(players: int = 3, seed: int = 5, moves: int = 12) -> dict:
    state = ENGINE.setup(["Alice", "Bruno", "Chiara", "Dev"][:players], ENGINE.meta.resolve_options({}), seed)
    rng = random.Random(seed)
    for _ in range(moves):
        seat = ENGINE.to_act(state)[0]
        ENGINE.apply(state, seat, ENGINE.bot_action(state, seat, rng))
    return state


def test_the_board_explains_its_symbols(monkeypatch) -> None:
    """ "Heat (round: tokens)", "(0 obs)", "MANDATORY" and token colours without their values were unexplained."""
    table = HeistTable.of(_mid_game()).job("C", "C3", "C4", "C5")  # C3 is Mandatory
    words = drawn_words(monkeypatch, lambda: heist_renderer.render_board(ENGINE.view(table.state, None)))
    assert "Heat (round: tokens)" not in words and "obs)" not in words and "MANDATORY" not in words
    for colour in cards.COLOURS:  # the bag's legend: every colour with its two faces
        front, back = cards.TOKENS[colour]["faces"]
        assert f"{front:+d}/{back:+d}" in words, colour
    assert "Mandatory" in words and "stays" in words  # what Mandatory means, where it is shown
    assert "after each round" in words  # the heat track says when its tokens go in


def test_the_private_picture_counts_the_secret(monkeypatch) -> None:
    table = HeistTable(4, seed=2).secret(0, "well_trained").upgraded(0, "Tumble", "Sweet Talk", "Sleight of Hand")
    words = drawn_words(monkeypatch, lambda: heist_renderer.render_private(ENGINE.view(table.state, 0)))
    assert "not met yet" not in words and "3/5" in words


def drawn_boxes(monkeypatch, draw_picture) -> list[tuple[tuple[float, float, float, float], str]]:
    """Every string a picture draws, with the box it covers."""
    seen: list[tuple[tuple[float, float, float, float], str]] = []
    real = ImageDraw.ImageDraw.text

    def spy(self, xy, text, *args, **kwargs):
        if str(text).strip():
            seen.append((self.textbbox(xy, str(text), font=kwargs.get("font"), anchor=kwargs.get("anchor")), str(text)))
        return real(self, xy, text, *args, **kwargs)
    monkeypatch.setattr(ImageDraw.ImageDraw, "text", spy)
    monkeypatch.setattr(TILES, "enabled", False)
    draw_picture()
    return seen


def overlapping(boxes: list[tuple[tuple[float, float, float, float], str]]) -> list[tuple[str, str]]:
    return [(first, second) for i, (a, first) in enumerate(boxes) for b, second in boxes[i + 1:]
            if a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]]


def test_no_words_on_the_board_overlap(monkeypatch) -> None:
    """The headline of a test against a long obstacle ("P0 faces D7 Empty the Vault: Agility+Charm+Dexterity 14") ran
    under "total vs needed", and a Mandatory obstacle's two-line failure effect under the pawns and "being faced".
    Every obstacle is faced once (its tokens drawn), with pawns at every job; then the last test's line."""
    for obstacle in sorted(cards.OBSTACLE):
        letter = obstacle[0]
        table = HeistTable(6, seed=4).job(letter, obstacle).at("A", 0).at("B", 1, 2).at("C", 3, 4).at("D", 5)
        table.faces(letter).no_help()
        words = drawn_boxes(monkeypatch, lambda: heist_renderer.render_board(ENGINE.view(table.state, None)))
        assert overlapping(words) == [], obstacle
    ENGINE.apply(table.state, table.active, {"type": "resolve"})  # (D7 Empty the Vault, the longest headline)
    words = drawn_boxes(monkeypatch, lambda: heist_renderer.render_board(ENGINE.view(table.state, None)))
    assert any(text.startswith("Last:") for _, text in words) and overlapping(words) == []


def test_a_game_stored_mid_assist_by_the_previous_version_takes_both_shapes_and_plays_on() -> None:
    """A 6-player game the previous version stored while helpers were committing (one-step assists then): a helper
    away from the job may still send card and payment in one action (an old button), another takes the two steps."""
    import copy
    import json
    from pathlib import Path

    fixture = Path(__file__).resolve().parents[2] / "data" / "previous_version_games.json"
    stored = next(s for s in json.loads(fixture.read_text())["games"]["heist"]["running"] if s["phase"] == "assist")
    state = copy.deepcopy(stored)
    assert "rules" not in state["options"] and state["test"]["job"] == "A" and ENGINE.to_act(state) == [1, 2, 4, 5]
    assert state["locations"][1] == state["locations"][2] == "C"
    ENGINE.apply(state, 1, {"type": "assist", "card": "a24", "pay": "t19"})  # the old one-step shape
    ENGINE.apply(state, 2, {"type": "assist", "card": "a18"})
    ENGINE.apply(state, 2, {"type": "pay", "card": "t08"})
    for seat in (4, 5):
        ENGINE.apply(state, seat, {"type": "no_assist"})
    assert state["phase"] == "tricks" and state["locations"][1] == state["locations"][2] == "A"
    assert {"t19", "t08"} <= set(state["discard"]) and [a["card"] for a in state["test"]["assists"]] == ["a24", "a18"]
    rng = random.Random(3)
    while not ENGINE.is_terminal(state):
        seat = ENGINE.to_act(state)[0]
        ENGINE.apply(state, seat, ENGINE.bot_action(state, seat, rng))
    assert len(ENGINE.scores(state)) == 6


def test_two_tokens_alike_are_one_option_per_trick() -> None:
    """Two purple -3 drawn: "Sleight of Hand: flip token 1 (purple -3)" and "... token 2 (purple -3)" were two options
    doing the same; now one. A logged move aimed at the second token (games stored before) still plays."""
    table = HeistTable(3, seed=5)
    table.holds(table.active, "Sleight of Hand", "Second Chance").faces("A").no_help().drawn(("purple", 1), ("purple", 1))
    words = labels(table.state, table.active)
    assert words.count("Sleight of Hand: flip token 1 (purple -3)") == 1 and not any("token 2" in w for w in words)
    assert len(words) == len(set(words)), words
    sleight = next(card for card in table.hand(table.active) if cards.card_name(card) == "Sleight of Hand")
    ENGINE.apply(table.state, table.active, {"type": "trick", "card": sleight, "token": 1})
    assert [t["face"] for t in table.state["test"]["tokens"]] == [1, 0]
    words = labels(table.state, table.active)  # now unlike: each token is its own option
    assert any("token 1 (purple -3)" in w for w in words) and any("token 2 (purple +3)" in w for w in words)
    with pytest.raises(RuleError):
        ENGINE.apply(table.state, table.active, {"type": "trick", "card": sleight, "token": 1})  # already played
