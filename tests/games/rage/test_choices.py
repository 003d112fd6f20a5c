"""Wizard's Rage: cleaner choices for a newcomer (issue 30): no self-referential or duplicate options, the
heroes' move chosen in steps (where to, then which way)."""
from __future__ import annotations

from bot.games.rage import ENGINE
from tests.games.rage.scenario import RageTable, tile_index


def _equips(st: dict, seat: int) -> list[dict]:
    return [a for a in ENGINE.legal_actions(st, seat) if a["type"] == "equip"]


def test_swapping_a_sword_for_an_identical_one_is_never_offered():
    """"Equip Broadsword instead of Broadsword" changes nothing: a hero may wear two swords."""
    table = RageTable.ready().heroes_turn()
    for key in ("broadsword", "broadsword", "broadsword"):
        table.gives(1, key)
    st = table.state
    assert ENGINE.slot_count(st, 1, "sword") == 2 and len(st["heroes"][1]["hand"]) == 1
    labels = [ENGINE.describe_action(st, 1, a) for a in _equips(st, 1)]
    assert "Equip Broadsword instead of Broadsword" not in labels
    assert _equips(st, 1) == []


def test_replacing_one_of_two_identical_swords_is_offered_once():
    """"Equip Flame Brand instead of Broadsword" was listed twice (once per Broadsword worn)."""
    table = RageTable.ready().heroes_turn()
    for key in ("broadsword", "broadsword", "flame_brand"):
        table.gives(1, key)
    st = table.state
    labels = [ENGINE.describe_action(st, 1, a) for a in _equips(st, 1)]
    assert labels == ["Equip Flame Brand instead of Broadsword"]


def test_no_two_options_read_the_same():
    """Over seeded bot games, every seat's options have distinct labels (a duplicate reads as a bug)."""
    from tests.teach_checks import bot_games

    for state, seat, legal in bot_games(ENGINE, range(2)):
        labels = [ENGINE.describe_action(state, seat, a) for a in legal]
        assert len(labels) == len(set(labels)), sorted(x for x in labels if labels.count(x) > 1)


def _route_end(action: dict) -> int | None:
    if action["type"] in ("move", "go"):
        return action["to"]
    if action["type"] in ("march", "sprint"):
        return action["path"][-1]
    return None


def test_a_heroes_move_is_asked_in_two_steps_where_to_then_which_way():
    """A round-2 panel listed 47 options, most of them march and Sprint paths to the same few tiles: the first step
    offers each tile once (the move itself when there is one way there), the second the ways to the chosen tile."""
    table = RageTable.ready().heroes_turn()
    for key in ("sprint", "sprint"):
        table.gives(1, key)
    st = table.state
    for label in ("A2", "B1", "B2"):  # revealed, empty rooms: quick marches of 3 tiles too
        st["tiles"][tile_index(st, label)]["up"] = True
    first = [a for a in ENGINE.legal_actions(st, 1) if _route_end(a) is not None]
    ends = [_route_end(a) for a in first]
    assert len(ends) == len(set(ends)), "a tile offered twice in the first step"
    ways = ENGINE.route_actions(st, 1)
    assert len(ways) > len(first) + 5  # what the one long list used to hold
    go = next(a for a in first if a["type"] == "go")
    ENGINE.apply(st, 1, go)
    second = ENGINE.legal_actions(st, 1)
    assert {_route_end(a) for a in second if a["type"] != "back"} == {go["to"]}
    assert {"type": "back"} in second and len(second) < len(ways)
    ENGINE.apply(st, 1, {"type": "back"})
    assert [a for a in ENGINE.legal_actions(st, 1) if _route_end(a) is not None] == first


def test_no_heroes_panel_is_a_long_list():
    """Over seeded bot games, a hero's first step lists each tile in reach once (at most the 24 tiles within a
    3-tile Sprint), so it fits one Discord menu (25 options) with "stay"; the one long list held every path."""
    from tests.teach_checks import bot_games

    first, every = 0, 0
    for state, seat, legal in bot_games(ENGINE, range(2)):
        if seat and state["phase"] == "heroes" and state["heroes"][seat].get("route_to") is None:
            first = max(first, len([a for a in legal if _route_end(a) is not None]))
            every = max(every, len(ENGINE.route_actions(state, seat)))
    assert first <= 24 and every > first + 10, (first, every)
