"""Wizard's Rage with ``rules: rulebook``: each rule the tuned set changed plays as printed (issue 29).

Every test quotes the line of the rulebook (/work/shared/rules/003_00962776b1446e20.txt) it checks; the tuned
behaviour beside it is checked too, so a test fails if the option stops switching the rule either way.
"""
from __future__ import annotations

import random

import pytest

from bot.games.rage import ENGINE
from bot.rng import Rng
from tests.games.rage.scenario import RageTable, tile_index

RULEBOOK = {"rules": "rulebook"}


def _tables(**kwargs):
    """The same position under both sets: (tuned, rulebook)."""
    return RageTable.ready(**kwargs), RageTable.ready(options=RULEBOOK, **kwargs)


@pytest.mark.parametrize("rules,hurt", [("tuned", 2), ("rulebook", 1)])
def test_monsters_hit_for_one_each_by_the_book(monkeypatch, rules, hurt):
    """"If the monster(s) win the player(s) have to move back to their previous tile and take 1 damage for each
    monster in the room they were fighting." Tuned: a Cave Troll hits for 2."""
    table = RageTable.ready(options={"rules": rules}).heroes_turn()
    st = table.state
    a2 = tile_index(st, "A2")
    st["tokens"]["99"] = {"kind": "monster", "up": False, "card": "troll", "level": 8, "count": 1, "damage": 2}
    st["tiles"][a2]["tokens"].append(99)
    rolls = iter([20, 1])  # the troll's 20 + 8 against the hero's 1
    monkeypatch.setattr(Rng, "die", lambda self, sides: next(rolls))
    ENGINE.apply(st, 1, {"type": "move", "to": a2})
    ENGINE.apply(st, 2, {"type": "stay"})
    assert st["heroes"][1]["hp"] == 10 - hurt and st["heroes"][1]["pos"] == 0
    assert ENGINE.view(st, None)["tiles"][a2]["monsters"][0]["damage"] == hurt


def test_the_wizard_places_every_blank_token_by_the_book():
    """"whenever the wizard places tokens on the board he also places X amount of blank tokens so that the heroes
    don't know where the real monsters are. X is always defined on the card." The wizard picks the real token's
    tile, then each decoy's; nobody sees a tile before the last one, and then only the set in board order."""
    table = RageTable.ready(options=RULEBOOK).wizard(empty_hand=True, mana=3)
    st = table.state
    cid = table.wizard_holds("orc")  # Orc Brute: 1 decoy
    ENGINE.apply(st, 0, {"type": "play", "card": cid})
    b2, d4 = (tile_index(st, x) for x in ("B2", "D4"))
    first = ENGINE.apply(st, 0, {"type": "place", "tile": d4})
    assert all("to" in e for e in first) and st["pending"]["picks"] == [d4]
    assert ENGINE.view(st, None)["tiles"][d4]["hidden_tokens"] == 0  # nothing on the board yet
    assert "decoy" in ENGINE.describe_action(st, 0, {"type": "place", "tile": b2})
    last = ENGINE.apply(st, 0, {"type": "place", "tile": b2})
    public = [e["text"] for e in last if "to" not in e]
    assert public[0] == "The wizard places 2 face-down tokens on B2 and D4."  # row by row, not the order placed
    kinds = {i: [st["tokens"][str(t)]["kind"] for t in st["tiles"][i]["tokens"]] for i in (b2, d4)}
    assert kinds == {d4: ["monster"], b2: ["blank"]}
    assert st["pending"] is None and cid in st["wizard"]["discard"]


def test_tuned_decoys_are_drawn_in_one_decision():
    """Tuned: one decision, the real token's tile; the engine draws the decoys (tests/games/rage/test_decoys.py
    measures that no simple guess tells them apart)."""
    table = RageTable.ready().wizard(empty_hand=True, mana=3)
    st = table.state
    ENGINE.apply(st, 0, {"type": "play", "card": table.wizard_holds("orc")})
    ENGINE.apply(st, 0, {"type": "place", "tile": tile_index(st, "D4")})
    assert st["pending"] is None and sum(len(t["tokens"]) for t in st["tiles"]) == 2


def test_blank_tokens_count_towards_the_limit_by_the_book():
    """"There can be a maximum number of tokens on a single tile equal to the total number of players in the
    game (wizard + heroes)." Blank tokens count (tuned: they don't, test_token_limit_per_tile)."""
    book = RageTable.ready(options=RULEBOOK)
    for _ in range(3):
        book.token("B2", "blank")
    assert not ENGINE.can_place(book.state, tile_index(book.state, "B2"), False)


def test_blank_tokens_may_share_a_tile_up_to_the_limit_by_the_book():
    """"There can be a maximum number of tokens on a single tile equal to the total number of players in the
    game (wizard + heroes)." A tile the card's own earlier tokens fill is offered no more."""
    table = RageTable.ready(options=RULEBOOK).wizard(empty_hand=True, mana=8)
    st = table.state
    d4 = tile_index(st, "D4")
    table.token("D4", "blank")
    table.token("D4", "blank")
    ENGINE.apply(st, 0, {"type": "play", "card": table.wizard_holds("skeletons")})  # 1 decoy
    ENGINE.apply(st, 0, {"type": "place", "tile": d4})  # 3 tokens: the limit at 3 players
    assert {"type": "place", "tile": d4} not in ENGINE.legal_actions(st, 0)


def _raging(options=None):
    table = RageTable.ready(keys=[5, 20, 4], options=options)
    st = table.state
    for i in (5, 20, 4):
        st["tiles"][i]["key"] = False
    st.update(keys_taken=3, keys_found=True)
    table.heroes_turn()
    ENGINE.apply(st, 1, {"type": "stay"})
    ENGINE.apply(st, 2, {"type": "stay"})
    assert st["pending"]["kind"] == "rage"
    return st


def test_the_wizard_chooses_every_crumbling_tile_by_the_book():
    """"At the start of every wizard turn the wizard chooses a number of tiles equal to the number of players in
    the game (wizard + heroes) and remove them from the game." Three players: three choices, one tile each."""
    st = _raging(RULEBOOK)
    for k, label in enumerate(("E1", "A5", "B5")):
        assert ENGINE.describe_action(st, 0, {"type": "remove", "tile": tile_index(st, label)}) == f"Crumble {label}"
        ENGINE.apply(st, 0, {"type": "remove", "tile": tile_index(st, label)})
        gone = [ENGINE.label(st, i) for i, t in enumerate(st["tiles"]) if t["removed"]]
        assert len(gone) == k + 1
    assert sorted(gone) == ["A5", "B5", "E1"] and st["pending"] is None


def test_tuned_rage_is_one_choice_that_spreads():
    st = _raging()
    ENGINE.apply(st, 0, {"type": "remove", "tile": tile_index(st, "E1")})
    assert sum(t["removed"] for t in st["tiles"]) == 3 and st["pending"] is None


def test_heroes_move_one_tile_by_the_book():
    """"during this phase the players can move 1 tile (or further if they've used an ability that allows them
    to that)": no quick march; a Sprint card still runs (an ability)."""
    tuned, book = _tables()
    for table in (tuned, book):
        table.heroes_turn()
        table.gives(1, "sprint")
    kinds = [{a["type"] for a in ENGINE.route_actions(t.state, 1)} for t in (tuned, book)]
    assert "march" in kinds[0] and "march" not in kinds[1]
    assert "sprint" in kinds[1] and "move" in kinds[1]


def test_no_scouting_by_the_book():
    """Scouting is a new rule of the tuned set; the rulebook's rooms show only their card-draw and mana values
    ("Each tile has a Card Draw symbol and a Mana Wheel symbol")."""
    tuned, book = _tables(keys=[4, 14, 22])
    for table in (tuned, book):
        ENGINE._flip(table.state, tile_index(table.state, "C1"))  # E1 is 2 steps away
    assert tuned.state["tiles"][2].get("sense") == 1 and book.state["tiles"][2].get("sense") is None
    assert ENGINE.view(book.state, None)["scout_range"] == 0


def test_a_game_stored_before_the_option_plays_tuned():
    """A state without the option (an old game, a replay) plays the tuned rules."""
    table = RageTable.ready().heroes_turn()
    del table.state["options"]["rules"]
    assert any(a["type"] == "march" for a in ENGINE.legal_actions(table.state, 1))


@pytest.mark.parametrize("players", [3, 4, 5])
def test_bots_play_rulebook_games_to_the_end(players):
    """Normal bots finish a rulebook game; the wizard bot places every decoy itself."""
    state = ENGINE.setup([f"P{i}" for i in range(players)], ENGINE.meta.resolve_options(RULEBOOK), players)
    rng = random.Random(players)
    placed = 0
    while not ENGINE.is_terminal(state):
        seat = ENGINE.to_act(state)[0]
        action = ENGINE.bot_action(state, seat, rng)
        assert action["type"] != "march"
        placed += action["type"] == "place"
        ENGINE.apply(state, seat, action)
    assert placed and state["winner"] in ("wizard", "heroes")


def test_the_round_limit_only_stops_a_stalled_table_by_the_book():
    """The rulebook has no round limit; the digital game keeps one against stalled tables (an adaptation): 30
    rounds under the rulebook (its heroes win in rounds 15-26), 16 / 16 / 15 tuned; a number set by the host
    wins either way."""
    for players, tuned in ((3, 16), (4, 16), (5, 15)):
        names = [f"P{i}" for i in range(players)]
        assert ENGINE.setup(names, ENGINE.meta.resolve_options({}), 1)["round_limit"] == tuned
        assert ENGINE.setup(names, ENGINE.meta.resolve_options(RULEBOOK), 1)["round_limit"] == 30
    assert ENGINE.setup(["a", "b", "c"], ENGINE.meta.resolve_options({**RULEBOOK, "round_limit": 20}), 1)[
        "round_limit"] == 20


@pytest.mark.parametrize("rules,words", [("tuned", "(2 damage)"), ("rulebook", "(1 damage)")])
def test_the_wizards_card_says_the_damage_of_the_tables_rules(rules, words):
    """"take 1 damage for each monster in the room": the wizard's hand says what an Orc Brute hits for under the
    table's rules (it read "(2 damage; 1 by the rulebook)" at every table)."""
    table = RageTable.ready(options={"rules": rules}).wizard(holds=["orc"])
    hand = ENGINE.view(table.state, 0)["private"]["hand"]
    assert [c["text"] for c in hand if c["name"] == "Orc Brute"] == [f"A level 6 monster {words} and 1 decoy."]


def test_placing_the_decoy_by_the_book_is_headed_and_explained_as_the_decoy():
    """By the rulebook the second pick is the blank token's: the panel's heading and its "?" say so (they read
    "Place the card's real token")."""
    table = RageTable.ready(options=RULEBOOK).wizard(empty_hand=True, mana=3)
    st = table.state
    ENGINE.apply(st, 0, {"type": "play", "card": table.wizard_holds("orc")})
    legal = ENGINE.legal_actions(st, 0)
    assert ENGINE.action_group(st, 0, legal[0]) == "Place the card's real token"
    ENGINE.apply(st, 0, {"type": "place", "tile": tile_index(st, "D4")})
    legal = ENGINE.legal_actions(st, 0)
    assert ENGINE.action_group(st, 0, legal[0]) == "Place the decoy"
    assert ENGINE.action_help(st, 0, legal)["place"].startswith("Pick the tile for the decoy")
