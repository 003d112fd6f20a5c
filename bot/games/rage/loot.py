"""Wizard's Rage: loot, keys and dropped items reaching the heroes (drawn, shared out, picked up).

Below the turns that call it (heroes, resolution, wizard): it imports none of them."""
from __future__ import annotations

from bot.rng import Rng

from . import board, cards


def _gain_card(state: dict, seat: int, cid: int) -> str:
    """A hero receives a loot card; equipment goes straight on when its slot is free."""
    hero = state["heroes"][seat]
    card = board.loot_card(state, cid)
    board._note_held(state, "l", card["key"])
    if card["kind"] == "equipment" and board.slot_count(state, seat, card["slot"]) < cards.SLOTS[card["slot"]]:
        hero["equip"].append(cid)
        return "equipped"
    hero["hand"].append(cid)
    return "hand"


def _draw_loot(state: dict) -> int | None:
    loot = state["loot"]
    if not loot["deck"]:
        if not loot["discard"]:
            return None
        loot["deck"] = loot["discard"]
        loot["discard"] = []
        Rng(state).shuffle(loot["deck"])
    return loot["deck"].pop()


def _loot_order(state: dict, seats: list[int]) -> list[int]:
    """Who gets the next loot card among heroes sharing a room: fewest cards, then lowest HP, then seat."""
    def key(s: int) -> tuple:
        hero = state["heroes"][s]
        return (len(hero["hand"]) + len(hero["equip"]), hero["hp"], s)
    return sorted(seats, key=key)


def _give_loot(state: dict, seats: list[int], count: int, where: str) -> list[dict]:
    events = []
    for _ in range(count):
        seats_alive = [s for s in seats if state["heroes"][s]["alive"]]
        if not seats_alive:
            break
        cid = _draw_loot(state)
        if cid is None:
            events.append(board._event("loot", "The loot deck is empty."))
            break
        s = _loot_order(state, seats_alive)[0]
        how = _gain_card(state, s, cid)
        card = board.loot_card(state, cid)
        if card["kind"] == "equipment":
            events.append(board._event("loot", f"{state['names'][s]} loots {card['name']} in {where}"
                                      f"{' and equips it' if how == 'equipped' else ''}."))
        else:
            events.append(board._event("loot", f"{state['names'][s]} loots a card in {where}."))
            events.append(board._event("loot", f"You loot {card['name']}: {card['text']}", to=s))
    return events


def _pickup(state: dict, i: int, seats: list[int]) -> list[dict]:
    events: list[dict] = []
    tile = state["tiles"][i]
    lab = board.label(state, i)
    seats = [s for s in seats if state["heroes"][s]["alive"]]
    if not seats:
        return events
    keeper = sorted(seats, key=lambda s: (-state["heroes"][s]["keys"], s))[0]
    if tile["key"]:
        tile["key"] = False
        state["heroes"][keeper]["keys"] += 1
        state["keys_taken"] += 1
        events.append(board._event("key", f"{state['names'][keeper]} takes the key from {lab}! "
                                 f"({state['keys_taken']}/3 found)"))
        if state["keys_taken"] == 3 and not state["keys_found"]:
            state["keys_found"] = True
            events.append(board._event("rage", "All three keys are found! The wizard's rage begins: "
                                      "from now on the world crumbles every wizard turn."))
    if tile["drop"]["keys"]:
        state["heroes"][keeper]["keys"] += tile["drop"]["keys"]
        events.append(board._event("key", f"{state['names'][keeper]} picks up {tile['drop']['keys']} dropped key(s) on {lab}."))
        tile["drop"]["keys"] = 0
    if tile["drop"]["cards"]:
        dropped = tile["drop"]["cards"]
        tile["drop"]["cards"] = []
        for cid in dropped:
            s = _loot_order(state, seats)[0]
            _gain_card(state, s, cid)
            events.append(board._event("loot", f"{state['names'][s]} picks up {board.loot_card(state, cid)['name']} on {lab}."))
    return events


def _settle_drops(state: dict) -> list[dict]:
    """Dropped items go to the next hero who stands on their tile with no monsters -- also a hero who
    was already there when their friend fell (e.g. to a fireball), or who stays there."""
    events = []
    for i, tile in enumerate(state["tiles"]):
        if (tile["drop"]["cards"] or tile["drop"]["keys"]) and not tile["removed"] and i != state["tower"] \
                and not board.face_up_monsters(state, i) and board.heroes_on(state, i):
            events.extend(_pickup(state, i, board.heroes_on(state, i)))
    return events
