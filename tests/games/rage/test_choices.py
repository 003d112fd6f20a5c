"""Wizard's Rage: cleaner choices for a newcomer (issue 30): no self-referential or duplicate options, the
heroes' move chosen in steps (where to, then which way)."""
from __future__ import annotations

from bot.games.rage import ENGINE
from tests.games.rage.scenario import RageTable


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
