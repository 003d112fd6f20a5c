"""Wizard's Rage: one test per rule, card power and documented decision."""
from __future__ import annotations

import json

import pytest

from bot.engine import RuleError
from bot.games.rage import ENGINE, cards
from bot.rng import Rng
from tests.games.rage.scenario import RageTable, commit, tile_index
from tests.playout import assert_rejects


# ------------------------------------------------------------------ helpers
# Set-ups go through tests/games/rage/scenario.py (RageTable); these short names keep the older tests short.
def fresh(n=3, seed=1, opts=None):
    return RageTable(n, seed, opts).state


def ready(n=3, seed=1, keys=None, entrance="N", opts=None):
    """A game past setup: wizard's round-1 turn, keys on ``keys`` (default: far tiles)."""
    return RageTable.ready(n, seed, keys, entrance, opts).state


idx = tile_index


def token(st, i, kind, level=0, up=False, card=None):
    return RageTable.of(st).token(i, kind, level, up, card)


def to_heroes(st):
    RageTable.of(st).heroes_turn()


def dice(monkeypatch, values):
    it = iter(values)
    monkeypatch.setattr(Rng, "die", lambda self, sides: next(it))


def give_card(st, seat, key):
    """Move a loot card of ``key`` from wherever it is into the hero's possession (auto-equip)."""
    return RageTable.of(st).gives(seat, key)


def wizard_card(st, key):
    return RageTable.of(st).wizard_holds(key)


def move(st, seat, to_label):
    commit(st, seat, {"type": "move", "to": idx(st, to_label)})


def stay(st, seat):
    ENGINE.apply(st, seat, {"type": "stay"})


# ------------------------------------------------------------------ setup
@pytest.mark.parametrize("n,size", [(3, 5), (4, 6), (5, 7)])
def test_grid_size_and_seats(n, size):
    st = fresh(n)
    assert st["size"] == size
    assert ENGINE.to_act(st) == [0]  # the wizard (seat 0) sets up and goes first
    assert len(ENGINE.living(st)) == n - 1
    for s in range(1, n):
        assert st["heroes"][s]["hp"] == 10
    corners = {0, size * size - 1, size - 1, size * (size - 1)}
    assert {st["heroes"][s]["pos"] for s in range(1, n)} <= corners
    assert isinstance(st["rng"], int)
    json.dumps(st)


def test_tower_centre_and_6x6_choice():
    st = fresh(3)
    assert st["tower"] == 12 and st["phase"] == "entrance"
    st = fresh(5)
    assert st["tower"] == 24
    st = fresh(4)
    assert st["phase"] == "tower"
    opts = ENGINE.legal_actions(st, 0)
    assert sorted(a["tile"] for a in opts) == [14, 15, 20, 21]
    ENGINE.apply(st, 0, {"type": "tower", "tile": 21})
    assert st["tower"] == 21 and st["tiles"][21]["id"] == cards.TOWER_KEY


def test_entrance_and_keys_and_opening_hand():
    st = fresh(3)
    assert len(ENGINE.legal_actions(st, 0)) == 4
    ENGINE.apply(st, 0, {"type": "entrance", "dir": "W"})
    assert ENGINE.entrance_tile(st) == 11
    legal = {a["tile"] for a in ENGINE.legal_actions(st, 0)}
    assert 12 not in legal and 0 not in legal and 24 not in legal  # not the tower, not a camp
    events = ENGINE.apply(st, 0, {"type": "hide_key", "tile": 4})
    assert all("E1" not in e["text"] for e in events if "to" not in e)  # public event keeps the spot secret
    assert any("E1" in e["text"] for e in events if e.get("to") == 0)
    assert {"type": "hide_key", "tile": 4} not in ENGINE.legal_actions(st, 0)
    ENGINE.apply(st, 0, {"type": "hide_key", "tile": 10})
    ENGINE.apply(st, 0, {"type": "hide_key", "tile": 20})
    assert st["phase"] == "keep"
    assert len(st["wizard"]["opening"]) == 5
    keeps = ENGINE.legal_actions(st, 0)
    assert 1 <= len(keeps) <= 10 and all(len(a["cards"]) == 3 for a in keeps)
    deck_before = len(st["wizard"]["deck"])
    ENGINE.apply(st, 0, keeps[0])
    w = st["wizard"]
    # keep 3, 2 shuffled back, then round 1 starts with the wizard drawing 1
    assert len(w["hand"]) == 4 and len(w["deck"]) == deck_before + 2 - 1
    assert st["round"] == 1 and st["phase"] == "wizard"


# ------------------------------------------------------------------ wizard turn
def test_monster_card_places_monster_and_decoys():
    table = RageTable.ready().wizard(empty_hand=True, mana=3)
    st, cid = table.state, table.wizard_holds("orc")
    ENGINE.apply(st, 0, {"type": "play", "card": cid})
    assert st["wizard"]["spent"] == 3
    legal = ENGINE.legal_actions(st, 0)
    hero_tiles = {st["heroes"][s]["pos"] for s in ENGINE.living(st)}
    assert not any(a["tile"] in hero_tiles for a in legal)  # never on a hero
    assert not any(a["tile"] == st["tower"] for a in legal)  # tower closed before all keys are found
    events = ENGINE.apply(st, 0, {"type": "place", "tile": 6})
    assert "B2" in events[0]["text"] and "Orc" not in events[0]["text"]
    assert st["pending"] is None and cid in st["wizard"]["discard"]
    kinds = sorted(st["tokens"][str(tid)]["kind"] for t in st["tiles"] for tid in t["tokens"])
    assert kinds == ["blank", "monster"]
    assert [st["tokens"][str(tid)]["kind"] for tid in st["tiles"][6]["tokens"]] == ["monster"]
    assert ENGINE.view(st, None)["tiles"][6]["hidden_tokens"] == 1


def test_not_enough_mana_and_hand_limit_and_end_turn():
    st = ready()
    cid = wizard_card(st, "dragon")
    st["wizard"]["mana"] = 3
    assert {"type": "play", "card": cid} not in ENGINE.legal_actions(st, 0)
    msg = assert_rejects(ENGINE, st, 0, {"type": "play", "card": cid})
    assert "mana" in msg
    for key in ("rats", "goblins", "orc", "troll", "pit", "needle", "scry"):
        wizard_card(st, key)
    assert len(st["wizard"]["hand"]) > cards.HAND_LIMIT
    assert {"type": "end_turn"} not in ENGINE.legal_actions(st, 0)
    assert "Discard down" in assert_rejects(ENGINE, st, 0, {"type": "end_turn"})
    while len(st["wizard"]["hand"]) > cards.HAND_LIMIT:
        ENGINE.apply(st, 0, next(a for a in ENGINE.legal_actions(st, 0) if a["type"] == "discard"))
    ENGINE.apply(st, 0, {"type": "end_turn"})
    assert st["phase"] == "heroes"


def test_token_limit_per_tile():
    """Tuned: at most as many monsters and traps on a tile as players; decoys don't count (test_rulebook.py checks
    the printed limit, every token counted)."""
    st = ready()  # 3 players: 3 tokens per tile
    for _ in range(3):
        token(st, 6, "blank")
    assert ENGINE.can_place(st, 6, False)
    for _ in range(3):
        token(st, 7, "monster", level=1)
    assert not ENGINE.can_place(st, 7, False) and not ENGINE.can_place(st, 7, True)
    assert ENGINE.can_place(st, 8, False)


def test_tower_opens_to_tokens_after_keys_found_but_never_traps():
    st = ready()
    st["keys_found"] = True
    assert ENGINE.can_place(st, st["tower"], False)
    assert not ENGINE.can_place(st, st["tower"], True)


def test_wizard_deck_reshuffles_discard():
    st = ready()
    w = st["wizard"]
    w["discard"].extend(w["deck"])
    w["deck"] = []
    n_discard = len(w["discard"])
    drawn = ENGINE._draw_wizard(st, 1)
    assert len(drawn) == 1 and len(w["deck"]) == n_discard - 1 and w["discard"] == []


def test_draw_extra_card_when_wheel_full():
    st = ready()
    st["wizard"]["mana"] = cards.MANA_MAX
    before = len(st["wizard"]["hand"])
    ENGINE._wizard_draw(st)
    assert len(st["wizard"]["hand"]) == before + 2


# ------------------------------------------------------------------ tiles
def test_tile_flip_applies_draw_and_mana():
    st = ready()
    to_heroes(st)
    a2 = idx(st, "A2")
    st["tiles"][a2]["id"] = "library"  # cards +2, mana -1
    st["wizard"]["mana"] = 4
    hand = len(st["wizard"]["hand"])
    move(st, 1, "A2")
    stay(st, 2)
    assert st["tiles"][a2]["up"]
    assert st["wizard"]["mana"] == 3
    # +2 cards now, then round 2 starts with 1 more
    assert len(st["wizard"]["hand"]) == hand + 2 + 1


def test_negative_draw_discards_at_random_and_full_wheel_stays():
    st = ready()
    to_heroes(st)
    a2 = idx(st, "A2")
    st["tiles"][a2]["id"] = "hall"  # mana +1
    st["wizard"]["mana"] = cards.MANA_MAX
    b1 = idx(st, "B1")
    st["tiles"][b1]["id"] = "moonwell"
    hand = len(st["wizard"]["hand"])
    move(st, 1, "A2")
    stay(st, 2)
    assert st["wizard"]["mana"] == cards.MANA_MAX
    assert len(st["wizard"]["hand"]) == hand + 2  # full wheel: round 2 draws 2


# ------------------------------------------------------------------ simultaneous movement
def test_moves_are_simultaneous_and_hidden(monkeypatch):
    st = ready()
    to_heroes(st)
    assert ENGINE.to_act(st) == [1, 2]
    events = ENGINE.apply(st, 2, {"type": "move", "to": idx(st, "E4")})
    pub = [e for e in events if "to" not in e]
    assert pub and "E4" not in json.dumps(pub)
    assert "E4" in json.dumps([e for e in events if e.get("to") == 2])
    assert ENGINE.to_act(st) == [1]
    assert st["heroes"][2]["pos"] == 24  # nothing moves before everyone has committed
    pv = ENGINE.view(st, None)
    assert "commits" not in json.dumps(pv) and "E4" not in json.dumps(pv["heroes"])
    assert ENGINE.view(st, 2)["private"]["commit"] == {"type": "move", "to": idx(st, "E4")}
    assert ENGINE.view(st, 1)["private"]["commit"] is None
    move(st, 1, "A2")
    assert st["heroes"][2]["pos"] == idx(st, "E4") and st["heroes"][1]["pos"] == idx(st, "A2")


def test_empty_room_loot_once_to_fewest_cards():
    st = ready()
    to_heroes(st)
    move(st, 1, "A2")
    move(st, 2, "E4")
    assert len(st["heroes"][1]["hand"]) + len(st["heroes"][1]["equip"]) == 1
    assert st["tiles"][idx(st, "A2")]["searched"]
    # two heroes enter the same fresh room: one card, to the one with fewer cards
    st = ready()
    to_heroes(st)
    st["heroes"][2]["pos"] = idx(st, "C1")
    give_card(st, 1, "potion")
    ENGINE.apply(st, 1, {"type": "move", "to": idx(st, "B1")})
    ENGINE.apply(st, 2, {"type": "move", "to": idx(st, "B1")})
    assert len(st["heroes"][2]["hand"]) + len(st["heroes"][2]["equip"]) == 1
    assert len(st["heroes"][1]["hand"]) == 1


# ------------------------------------------------------------------ combat
def test_combat_tie_goes_to_heroes_and_double_loot(monkeypatch):
    st = ready()
    to_heroes(st)
    a2 = idx(st, "A2")
    token(st, a2, "monster", level=3)
    give_card(st, 1, "short_sword")  # +2
    dice(monkeypatch, [10, 11])  # wizard 10+3 = 13, hero 11+2 = 13: tie -> heroes
    move(st, 1, "A2")
    stay(st, 2)
    h = st["heroes"][1]
    assert h["pos"] == a2 and not st["tiles"][a2]["tokens"]
    assert len(h["hand"]) + len(h["equip"]) == 1 + 2  # sword + 2 loot (first victory)
    assert st["tiles"][a2]["conquered"]


def test_combat_second_victory_gives_one_loot(monkeypatch):
    st = ready()
    to_heroes(st)
    a2 = idx(st, "A2")
    st["tiles"][a2].update(up=True, conquered=True, searched=True)
    token(st, a2, "monster", level=1)
    dice(monkeypatch, [1, 20])
    move(st, 1, "A2")
    stay(st, 2)
    assert len(st["heroes"][1]["hand"]) + len(st["heroes"][1]["equip"]) == 1


def test_combat_loss_steps_back_with_damage_per_monster(monkeypatch):
    st = ready()
    to_heroes(st)
    a2 = idx(st, "A2")
    token(st, a2, "monster", level=2)
    token(st, a2, "monster", level=2)
    dice(monkeypatch, [15, 3])
    move(st, 1, "A2")
    stay(st, 2)
    h = st["heroes"][1]
    assert h["pos"] == 0 and h["hp"] == 8  # back to A1, 1 damage per monster
    pub = ENGINE.view(st, None)["tiles"][a2]
    assert pub["monsters"] and pub["hidden_tokens"] == 0  # the monsters stay face up


def test_shared_combat_best_roll_plus_all_equipment(monkeypatch):
    st = ready()
    to_heroes(st)
    b1 = idx(st, "B1")
    st["heroes"][2]["pos"] = idx(st, "C1")
    token(st, b1, "monster", level=10)
    give_card(st, 1, "broadsword")  # +3
    give_card(st, 2, "rune_blade")  # +4
    # wizard 12+10 = 22; heroes roll 5 and 15: best 15 + 7 = 22 -> tie, heroes win
    dice(monkeypatch, [12, 5, 15])
    move(st, 1, "B1")
    move(st, 2, "B1")
    assert not st["tiles"][b1]["tokens"]


def test_lone_hero_boost_option(monkeypatch):
    st = ready(opts={"lone_hero": True})
    to_heroes(st)
    st["heroes"][2].update(alive=False, hp=0)
    a2 = idx(st, "A2")
    token(st, a2, "monster", level=15)
    dice(monkeypatch, [10, 12, 13])  # wizard 25, hero 12+13 = 25
    move(st, 1, "A2")
    assert not st["tiles"][a2]["tokens"]
    # without the option a single d20 can't reach 25
    st = ready()
    to_heroes(st)
    st["heroes"][2].update(alive=False, hp=0)
    token(st, a2, "monster", level=15)
    dice(monkeypatch, [10, 20])
    move(st, 1, "A2")
    assert st["tiles"][a2]["tokens"] and st["heroes"][1]["pos"] == 0


# ------------------------------------------------------------------ traps, stuck heroes, death
def test_trap_save_and_damage(monkeypatch):
    st = ready()
    to_heroes(st)
    a2, e4 = idx(st, "A2"), idx(st, "E4")
    token(st, a2, "trap")
    token(st, e4, "trap")
    give_card(st, 2, "leather_boots")  # +3 save
    dice(monkeypatch, [9, 7])  # P1 9 < 10: 2 damage; P2 7+3 = 10: safe
    move(st, 1, "A2")
    move(st, 2, "E4")
    assert st["heroes"][1]["hp"] == 8 and st["heroes"][2]["hp"] == 10
    assert not st["tiles"][a2]["tokens"]  # a sprung trap is gone
    assert st["heroes"][1]["pos"] == a2  # traps don't push back


def test_trap_and_fireball_saves_roll_and_read_alike(monkeypatch):
    """Both saving throws are one rule (d20 + save bonus, 10 or more is safe, else 2 damage) with their own words."""
    st = ready()
    to_heroes(st)
    a2, e4 = idx(st, "A2"), idx(st, "E4")
    token(st, a2, "trap")
    token(st, e4, "trap")
    give_card(st, 2, "leather_boots")  # +3 save
    dice(monkeypatch, [9, 7])
    one, two = st["names"][1], st["names"][2]
    events = ENGINE.apply(st, 1, {"type": "move", "to": a2}) + ENGINE.apply(st, 2, {"type": "move", "to": e4})
    assert [e["text"] for e in events if e["type"] == "save"] == [f"Trap! {one} rolls 9+0: 2 damage.",
                                                                   f"Trap! {two} rolls 7+3: safe."]

    st = ready()
    a1 = idx(st, "A1")
    st["heroes"][2]["pos"] = a1
    st["heroes"][1]["pos"] = a1
    give_card(st, 2, "leather_boots")
    cid = wizard_card(st, "fireball")
    st["wizard"]["mana"] = 5
    dice(monkeypatch, [9, 7])
    events = ENGINE.apply(st, 0, {"type": "play", "card": cid})  # one tile with heroes: no target to choose
    assert [e["text"] for e in events if e["type"] == "save"] == [f"Fireball on A1: {one} rolls 9+0 and takes 2 damage.",
                                                                   f"Fireball on A1: {two} rolls 7+3 and dodges."]
    assert st["heroes"][1]["hp"] == 8 and st["heroes"][2]["hp"] == 10


def test_ward_charm_cancels_traps(monkeypatch):
    st = ready()
    to_heroes(st)
    a2 = idx(st, "A2")
    token(st, a2, "trap")
    cid = give_card(st, 1, "ward")
    ENGINE.apply(st, 1, {"type": "use", "card": cid})
    dice(monkeypatch, [])
    move(st, 1, "A2")
    stay(st, 2)
    assert st["heroes"][1]["hp"] == 10


def test_decoys_vanish():
    st = ready()
    to_heroes(st)
    a2 = idx(st, "A2")
    token(st, a2, "blank")
    token(st, a2, "blank")
    events = []
    events += ENGINE.apply(st, 1, {"type": "move", "to": a2})
    events += ENGINE.apply(st, 2, {"type": "stay"})
    assert not st["tiles"][a2]["tokens"] and any("decoy" in e["text"] for e in events)


def test_hero_on_tokens_cannot_move_and_fights_in_place(monkeypatch):
    st = ready()
    cid = wizard_card(st, "ambush")
    st["wizard"]["mana"] = 5
    ENGINE.apply(st, 0, {"type": "play", "card": cid})
    ENGINE.apply(st, 0, {"type": "target", "tile": 0})
    ENGINE.apply(st, 0, {"type": "end_turn"})
    assert ENGINE.legal_actions(st, 1)[0] == {"type": "stay"}
    assert not any(a["type"] in ("move", "sprint", "march", "go") for a in ENGINE.legal_actions(st, 1))
    assert "can't move" in assert_rejects(ENGINE, st, 1, {"type": "move", "to": idx(st, "A2")})
    dice(monkeypatch, [20, 1])
    stay(st, 1)
    stay(st, 2)
    assert st["heroes"][1]["pos"] == 0 and st["heroes"][1]["hp"] == 9  # no step back, 1 damage
    assert st["tiles"][0]["tokens"]


def test_death_drops_everything_and_another_hero_picks_it_up(monkeypatch):
    table = RageTable.ready().heroes_turn()
    table.hero(1, hp=2, keys=1, holds=["short_sword", "potion"]).token("A2", "trap")
    st, a2 = table.state, table.at("A2")
    dice(monkeypatch, [1])
    move(st, 1, "A2")
    stay(st, 2)
    assert not st["heroes"][1]["alive"]
    drop = st["tiles"][a2]["drop"]
    assert len(drop["cards"]) == 2 and drop["keys"] == 1
    assert ENGINE.view(st, None)["tiles"][a2]["drop"]["keys"] == 1
    # hero 2 walks over and takes it all
    table.hero(2, at="A3")
    ENGINE.apply(st, 0, {"type": "end_turn"})
    move(st, 2, "A2")
    assert st["heroes"][2]["keys"] == 1 and not st["tiles"][a2]["drop"]["cards"]


def test_wizard_wins_when_every_hero_is_dead(monkeypatch):
    table = RageTable.ready().heroes_turn()
    table.hero(1, hp=1).token("A2", "trap")
    table.hero(2, hp=1).token("E4", "trap")
    st = table.state
    dice(monkeypatch, [1, 1])
    move(st, 1, "A2")
    move(st, 2, "E4")
    assert ENGINE.is_terminal(st) and st["winner"] == "wizard"
    assert [r["won"] for r in ENGINE.scores(st)] == [True, False, False]


# ------------------------------------------------------------------ equipment and giving
def test_equipment_limits_and_swap():
    st = ready()
    to_heroes(st)
    for key in ("short_sword", "broadsword", "rune_blade"):
        give_card(st, 1, key)
    h = st["heroes"][1]
    assert ENGINE.slot_count(st, 1, "sword") == 2 and len(h["hand"]) == 1
    give_card(st, 1, "leather_boots")
    give_card(st, 1, "swift_boots")
    assert ENGINE.slot_count(st, 1, "boots") == 1
    rune = h["hand"][0]
    swaps = [a for a in ENGINE.legal_actions(st, 1) if a["type"] == "equip" and a["card"] == rune]
    assert len(swaps) == 2  # replace either sword
    ENGINE.apply(st, 1, swaps[0])
    assert rune in h["equip"] and ENGINE.slot_count(st, 1, "sword") == 2


def test_give_cards_and_keys_only_on_same_tile():
    table = RageTable.ready().heroes_turn().hero(1, keys=2)
    st, cid = table.state, table.gives(1, "potion")
    assert not any(a["type"] in ("give", "give_key") for a in ENGINE.legal_actions(st, 1))
    assert "own tile" in assert_rejects(ENGINE, st, 1, {"type": "give", "card": cid, "to": 2})
    table.hero(2, at="A1")  # hero 1's camp
    ENGINE.apply(st, 1, {"type": "give", "card": cid, "to": 2})
    ENGINE.apply(st, 1, {"type": "give_key", "to": 2})
    assert cid in st["heroes"][2]["hand"] and st["heroes"][2]["keys"] == 1 and st["heroes"][1]["keys"] == 1
    assert ENGINE.to_act(st) == [1, 2]  # giving is free: the move is still to commit


def test_free_action_limit():
    table = RageTable.ready().heroes_turn().hero(2, at="A1").hero(1, free=8, hp=5, holds=["potion"])
    assert not any(a["type"] in ("give", "use") for a in ENGINE.legal_actions(table.state, 1))
    table.hero(1, free=7)
    assert {"give", "use"} <= {a["type"] for a in ENGINE.legal_actions(table.state, 1)}


# ------------------------------------------------------------------ consumables
def test_potions_and_spring():
    table = RageTable.ready().heroes_turn().hero(1, hp=3)
    st = table.state
    ENGINE.apply(st, 1, {"type": "use", "card": table.gives(1, "greater_potion")})
    assert st["heroes"][1]["hp"] == 10
    table.hero(1, hp=8)
    ENGINE.apply(st, 1, {"type": "use", "card": table.gives(1, "potion")})
    assert st["heroes"][1]["hp"] == 10  # capped at 10
    table.hero(2, at="A1", hp=5)
    ENGINE.apply(st, 1, {"type": "use", "card": table.gives(1, "spring")})
    assert st["heroes"][2]["hp"] == 8


def test_strength_draught(monkeypatch):
    st = ready()
    to_heroes(st)
    a2 = idx(st, "A2")
    token(st, a2, "monster", level=5)
    ENGINE.apply(st, 1, {"type": "use", "card": give_card(st, 1, "strength")})
    dice(monkeypatch, [10, 10])  # 10+5 vs 10+5
    move(st, 1, "A2")
    stay(st, 2)
    assert not st["tiles"][a2]["tokens"] and st["heroes"][1]["strength"] == 0


def test_banish_scroll_reveals_and_removes():
    st = ready()
    to_heroes(st)
    a2 = idx(st, "A2")
    token(st, a2, "monster", level=6)
    token(st, a2, "blank")
    cid = give_card(st, 1, "banish")
    events = ENGINE.apply(st, 1, {"type": "banish", "card": cid, "tile": a2})
    assert not st["tiles"][a2]["tokens"] and "Orc Brute" in events[0]["text"]


def test_sprint_and_march(monkeypatch):
    st = ready()
    to_heroes(st)
    a2, a3 = idx(st, "A2"), idx(st, "A3")
    cid = give_card(st, 1, "sprint")
    # quick march: the first room may be face down, as long as it holds no tokens
    assert {"type": "march", "path": [a2, a3]} in ENGINE.route_actions(st, 1)
    assert not any(a["type"] == "march" and len(a["path"]) == 3 for a in ENGINE.route_actions(st, 1))
    commit(st, 1, {"type": "sprint", "card": cid, "path": [a2, a3]})
    stay(st, 2)
    h = st["heroes"][1]
    assert h["pos"] == a3 and st["tiles"][a2]["up"] and st["tiles"][a3]["up"]
    assert cid in st["loot"]["discard"]
    assert st["tiles"][a2]["searched"] and st["tiles"][a3]["searched"]  # looted both rooms
    # quick march through a face-up empty room
    ENGINE.apply(st, 0, {"type": "end_turn"})
    assert {"type": "march", "path": [a2, idx(st, "B2")]} in ENGINE.route_actions(st, 1)
    token(st, a2, "blank")
    assert not any(a["type"] == "march" and a["path"][0] == a2 for a in ENGINE.route_actions(st, 1))


def test_long_march_through_known_safe_rooms():
    st = ready(keys=[4, 14, 22])  # E1, E3, C5: column A holds no key
    to_heroes(st)
    a2, a3, a4, b1, c1 = (idx(st, x) for x in ("A2", "A3", "A4", "B1", "C1"))
    commit(st, 1, {"type": "march", "path": [a2, a3]})
    stay(st, 2)
    assert st["heroes"][1]["pos"] == a3 and st["tiles"][a2]["searched"] and st["tiles"][a3]["up"]
    del st["wizard"]["hand"][3:]  # keep the wizard under the hand limit
    ENGINE.apply(st, 0, {"type": "end_turn"})
    commit(st, 1, {"type": "move", "to": a2})
    stay(st, 2)
    del st["wizard"]["hand"][3:]  # keep the wizard under the hand limit
    ENGINE.apply(st, 0, {"type": "end_turn"})
    # three steps only when the first two rooms are face up with no tokens
    assert {"type": "march", "path": [a3, a4, idx(st, "A5")]} not in ENGINE.route_actions(st, 1)  # A4 face down
    back = {"type": "march", "path": [idx(st, "A1"), b1, c1]}
    assert back not in ENGINE.route_actions(st, 1)  # B1 still face down
    st["tiles"][b1]["up"] = True
    assert back in ENGINE.route_actions(st, 1)
    tid = token(st, b1, "blank")
    assert back not in ENGINE.route_actions(st, 1)
    st["tiles"][b1]["tokens"].remove(tid)
    commit(st, 1, back)
    stay(st, 2)
    assert st["heroes"][1]["pos"] == c1 and st["tiles"][c1]["up"] and st["tiles"][c1]["searched"]


def test_scouting_senses_near_key_vaults():
    st = ready(keys=[4, 14, 22])  # E1, E3, C5
    to_heroes(st)
    events = ENGINE._flip(st, idx(st, "C1"))  # E1 is 2 steps away, E3 and C5 farther
    assert "1 key vault within 2 steps" in " ".join(e["text"] for e in events)
    assert not st["tiles"][4]["up"]  # sensed, not revealed: the wizard's hiding place still matters
    pub = ENGINE.view(st, None)
    assert pub["tiles"][idx(st, "C1")]["sense"] == 1 and "key_tile" not in pub["tiles"][4]
    events = ENGINE._flip(st, idx(st, "A3"))
    assert "no key vault" in events[-1]["text"] and st["tiles"][idx(st, "A3")]["sense"] == 0
    # the number counts found vaults too, so it never changes: a fact about the room
    ENGINE._flip(st, 4)
    assert ENGINE.view(st, None)["tiles"][idx(st, "C1")]["sense"] == 1
    # 5 players too
    st5 = ready(n=5, keys=[8, 20, 40])  # B2, G3, F6
    to_heroes(st5)
    ENGINE._flip(st5, 1)  # B1, next to the B2 vault
    assert st5["tiles"][1]["sense"] == 1 and not st5["tiles"][8]["up"]


def test_sprint_stops_at_monsters(monkeypatch):
    st = ready(keys=[4, 14, 22])  # no key vault near A2 to scout
    to_heroes(st)
    a2, a3 = idx(st, "A2"), idx(st, "A3")
    token(st, a2, "monster", level=1)
    cid = give_card(st, 1, "sprint")
    dice(monkeypatch, [1, 20])
    commit(st, 1, {"type": "sprint", "card": cid, "path": [a2, a3]})
    stay(st, 2)
    assert st["heroes"][1]["pos"] == a2 and not st["tiles"][a3]["up"]


# ------------------------------------------------------------------ spells
def test_frost_bolt_and_thaw(monkeypatch):
    st = ready()
    cid = wizard_card(st, "frost")
    st["wizard"]["mana"] = 5
    ENGINE.apply(st, 0, {"type": "play", "card": cid})
    ENGINE.apply(st, 0, {"type": "target", "tile": 0})
    ENGINE.apply(st, 0, {"type": "end_turn"})
    assert ENGINE.legal_actions(st, 1) == [{"type": "stay"}]  # no items in hand: only stay
    assert "frozen" in assert_rejects(ENGINE, st, 1, {"type": "move", "to": idx(st, "A2")})
    stay(st, 1)
    stay(st, 2)
    assert not st["heroes"][1]["frozen"] and st["heroes"][1]["thawed"]
    assert 0 not in ENGINE.spell_targets(st, "frost")  # not frozen twice in a row


def test_fireball(monkeypatch):
    st = ready()
    cid = wizard_card(st, "fireball")
    st["wizard"]["mana"] = 5
    ENGINE.apply(st, 0, {"type": "play", "card": cid})
    dice(monkeypatch, [3])
    ENGINE.apply(st, 0, {"type": "target", "tile": 0})
    assert st["heroes"][1]["hp"] == 8


def test_surge_leytap_scry_stones():
    st = ready()
    w = st["wizard"]
    w["mana"] = 2
    ENGINE.apply(st, 0, {"type": "play", "card": wizard_card(st, "surge")})
    assert ENGINE.mana_left(st) == 4
    ENGINE.apply(st, 0, {"type": "play", "card": wizard_card(st, "leytap")})
    assert w["mana"] == 3
    scry = wizard_card(st, "scry")
    hand = len(w["hand"])
    ENGINE.apply(st, 0, {"type": "play", "card": scry})
    assert len(w["hand"]) == hand - 1 + 2
    ENGINE.apply(st, 0, {"type": "play", "card": wizard_card(st, "stones")})
    assert {a["dir"] for a in ENGINE.legal_actions(st, 0)} == {"E", "S", "W"}
    ENGINE.apply(st, 0, {"type": "entrance", "dir": "S"})
    assert ENGINE.entrance_tile(st) == 17


# ------------------------------------------------------------------ keys, tower, rage
def test_key_taken_from_empty_key_tile_and_rage_begins():
    st = ready(keys=[5, 20, 4])  # A2, A5, E1
    to_heroes(st)
    st["keys_taken"] = 2
    events = ENGINE.apply(st, 1, {"type": "move", "to": 5}) + ENGINE.apply(st, 2, {"type": "stay"})
    assert st["heroes"][1]["keys"] == 1 and st["keys_found"]
    assert any("rage" in e["text"] for e in events)
    assert st["pending"]["kind"] == "rage" and st["pending"]["left"] == 3


def test_guarded_key_needs_victory(monkeypatch):
    st = ready(keys=[5, 20, 4])
    to_heroes(st)
    token(st, 5, "monster", level=5)
    dice(monkeypatch, [20, 1])
    move(st, 1, "A2")
    stay(st, 2)
    assert st["heroes"][1]["keys"] == 0 and st["tiles"][5]["key"]
    pv = ENGINE.view(st, None)["tiles"][5]
    assert pv["key_tile"] and pv["key"]  # revealed now


def _keys_game():
    st = ready(keys=[5, 20, 4], entrance="N")
    for i in (5, 20, 4):
        st["tiles"][i]["key"] = False
    st["keys_taken"] = 3
    st["keys_found"] = True
    return st


def test_tower_needs_all_keys_on_entrance_tile_then_heroes_win_if_empty():
    st = _keys_game()
    to_heroes(st)
    ent = ENGINE.entrance_tile(st)
    st["heroes"][1].update(pos=ent, keys=2)
    st["heroes"][2].update(pos=idx(st, "D2"), keys=1)
    assert {"type": "move", "to": st["tower"]} not in ENGINE.legal_actions(st, 1)
    assert "door" in assert_rejects(ENGINE, st, 1, {"type": "move", "to": st["tower"]})
    st["heroes"][2]["pos"] = ent
    assert {"type": "move", "to": st["tower"]} in ENGINE.legal_actions(st, 1)
    move(st, 1, "C3")
    stay(st, 2)
    assert st["tower_open"] and st["keys_used"] == 3
    assert ENGINE.is_terminal(st) and st["winner"] == "heroes"


def test_tower_fight_loss_steps_back_then_open_for_all(monkeypatch):
    st = _keys_game()
    st["pending"] = None
    token(st, st["tower"], "monster", level=8)
    token(st, st["tower"], "blank")
    ENGINE.apply(st, 0, {"type": "end_turn"})
    ent = ENGINE.entrance_tile(st)
    st["heroes"][1].update(pos=ent, keys=3)
    dice(monkeypatch, [20, 1])
    move(st, 1, "C3")
    stay(st, 2)
    assert not ENGINE.is_terminal(st) and st["heroes"][1]["pos"] == ent and st["heroes"][1]["hp"] == 9
    assert st["tower_open"]
    st["pending"] = None
    ENGINE.apply(st, 0, {"type": "end_turn"})
    st["heroes"][2]["pos"] = ent
    assert {"type": "move", "to": st["tower"]} in ENGINE.legal_actions(st, 2)
    dice(monkeypatch, [5, 10, 14])
    move(st, 1, "C3")
    move(st, 2, "C3")
    assert st["winner"] == "heroes"


def test_rage_removes_safe_tiles_only():
    st = _keys_game()
    to_heroes(st)
    stay(st, 1)
    stay(st, 2)
    assert st["pending"]["kind"] == "rage"
    safe = ENGINE.safe_removals(st)
    ring = ENGINE.ring(st)
    assert not set(safe) & ring and st["tower"] not in safe
    hero_tiles = {st["heroes"][s]["pos"] for s in ENGINE.living(st)}
    assert not set(safe) & hero_tiles
    # one decision: the wizard picks B1, the crack spreads to the 2 safe tiles nearest it --
    # never A2 once B1 is gone (it would wall hero 1 in at A1)
    ENGINE.apply(st, 0, {"type": "remove", "tile": idx(st, "B1")})
    gone = [i for i, t in enumerate(st["tiles"]) if t["removed"]]
    assert len(gone) == 3 and idx(st, "B1") in gone and idx(st, "A2") not in gone
    assert st["pending"] is None  # 3 players = 3 tiles, then the draw
    b1 = ENGINE.row_col(st, idx(st, "B1"))
    assert all(abs(ENGINE.row_col(st, i)[0] - b1[0]) + abs(ENGINE.row_col(st, i)[1] - b1[1]) <= 2 for i in gone)
    assert 0 in ENGINE.component(st, ENGINE.entrance_tile(st))


def test_rage_never_removes_dropped_items_or_cuts_off_keys():
    st = _keys_game()
    st["tiles"][idx(st, "A5")]["drop"]["keys"] = 1
    st["tiles"][idx(st, "E2")]["drop"]["cards"] = [0]
    st["loot"]["deck"].remove(0)
    st["tiles"][idx(st, "B5")]["removed"] = True
    safe = ENGINE.safe_removals(st)
    assert idx(st, "A5") not in safe and idx(st, "E2") not in safe
    assert idx(st, "A4") not in safe  # A4 is the dropped key's last way to the tower
    assert idx(st, "A3") in safe


def test_round_limit_wizard_wins():
    st = ready(opts={"round_limit": 8})
    assert st["round_limit"] == 8
    for _ in range(8):
        ENGINE.apply(st, 0, {"type": "end_turn"}) if {"type": "end_turn"} in ENGINE.legal_actions(st, 0) else None
        while st["phase"] == "wizard":
            ENGINE.apply(st, 0, next(a for a in ENGINE.legal_actions(st, 0) if a["type"] in ("end_turn", "discard")))
        stay(st, 1)
        stay(st, 2)
    assert ENGINE.is_terminal(st) and st["winner"] == "wizard" and "ran out of time" in st["end_reason"]


def test_auto_round_limit_by_players():
    assert fresh(3)["round_limit"] == 16 and fresh(4)["round_limit"] == 16 and fresh(5)["round_limit"] == 15


# ------------------------------------------------------------------ views and texts
def test_views_keep_secrets():
    st = ready(keys=[5, 20, 4])
    token(st, 6, "monster", level=6)
    token(st, 7, "blank")
    pub = ENGINE.view(st, None)
    text = json.dumps(pub)
    assert "private" not in pub and "Orc" not in text and "Key Vault" not in text
    assert pub["tiles"][6]["hidden_tokens"] == 1 and pub["tiles"][7]["hidden_tokens"] == 1
    assert pub["tiles"][6] == {**pub["tiles"][7], "i": 6, "label": "B2"}
    wiz = ENGINE.view(st, 0)["private"]
    assert sorted(wiz["keys"]) == [4, 5, 20]
    assert wiz["tokens"]["6"][0]["name"] == "Orc Brute" and wiz["tokens"]["7"][0]["kind"] == "blank"
    hero = ENGINE.view(st, 1)["private"]
    assert "tokens" not in hero and "keys" in hero and "Orc" not in json.dumps(hero)
    assert "Orc" not in ENGINE.status_line(st)
    assert ENGINE.private_text(ENGINE.view(st, 0)).startswith("**You are the wizard")
    assert "Hit points" in ENGINE.private_text(ENGINE.view(st, 1))


def test_meta_and_summary():
    assert ENGINE.meta.min_players == 3 and ENGINE.meta.max_players == 5
    assert len(ENGINE.meta.summary) < 3500
    with pytest.raises(RuleError):
        ENGINE.meta.resolve_options({"round_limit": 99})


def test_data_counts():
    assert len(cards.WIZARD_DECK) == 36 and len(cards.LOOT_DECK) == 35 and len(cards.TILE_BAG) == 45
    assert cards.SLOTS == {"sword": 2, "boots": 1, "shield": 1}
    kinds = {d["kind"] for d in cards.WIZARD_DEFS.values()}
    assert kinds == {"monster", "trap", "spell"}
    assert sum(d["count"] for d in cards.WIZARD_DEFS.values() if d["kind"] == "trap") == 4
