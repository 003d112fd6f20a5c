"""Wizard's Rage: the heroes' turn (moves to commit, free actions with items and gifts)."""
from __future__ import annotations

from typing import Callable

from bot.engine import RuleError

from . import board, cards, loot, resolution, texts
from .constants import FREE_LIMIT, HERO_HP, SPRINT_STEPS

# What a hero may do in the heroes' phase, and what their free actions do.


# ------------------------------------------------------------------ hero actions
def move_targets(state: dict, seat: int) -> list[int]:
    """The tiles a hero may step to: adjacent ones, the tower only from its door with three keys."""
    hero = state["heroes"][seat]
    out = []
    for j in board.adjacent(state, hero["pos"]):
        if j == state["tower"]:
            if hero["pos"] != board.entrance_tile(state):
                continue
            if not state["tower_open"] and board.keys_on_tile(state, hero["pos"]) < 3:
                continue
        out.append(j)
    return out


def sprint_paths(state: dict, seat: int) -> list[list[int]]:
    """A Sprint card: 2 or up to SPRINT_STEPS tiles through anything but a room with known monsters
    (the run may end on one) and the tower."""
    hero = state["heroes"][seat]
    tower = state["tower"]
    paths: list[list[int]] = []

    def extend(path: list[int]) -> None:
        if len(path) >= 2:
            paths.append(list(path))
        if len(path) == SPRINT_STEPS or board.face_up_monsters(state, path[-1]):
            return
        for nxt in board.adjacent(state, path[-1]):
            if nxt != tower and nxt != hero["pos"] and nxt not in path:
                extend(path + [nxt])

    for a in board.adjacent(state, hero["pos"]):
        if a != tower and not board.face_up_monsters(state, a):
            extend([a])
    return paths


def march_paths(state: dict, seat: int) -> list[list[int]]:
    """Quick march (tuned rules only): two steps when the first room has no tokens (face up or down); three steps
    when the first two rooms are both face up with no tokens (known safe ground)."""
    hero = state["heroes"][seat]
    tower = state["tower"]
    paths: list[list[int]] = []
    if board.rulebook(state):  # a new rule of the tuned set: the rulebook's heroes "can move 1 tile"
        return paths
    for a in move_targets(state, seat):
        ta = state["tiles"][a]
        if a == tower or ta["tokens"]:
            continue
        for b in board.adjacent(state, a):
            if b == hero["pos"] or b == tower:
                continue
            paths.append([a, b])
            tb = state["tiles"][b]
            if not (ta["up"] and tb["up"]) or tb["tokens"]:
                continue
            for c in board.adjacent(state, b):
                if c not in (hero["pos"], a, tower):
                    paths.append([a, b, c])
    return paths


def route_actions(state: dict, seat: int) -> list[dict]:
    """Every way the hero may leave its tile this turn, each a move to commit: a step, a quick march, a
    Sprint (a frozen hero: only a Sprint; a hero on tokens: none). The move panel offers them in two
    steps: where to (``go``), then which way, when there is more than one way to a tile."""
    hero = state["heroes"][seat]
    if board.stuck(state, seat):
        return []
    out: list[dict] = []
    if not hero["frozen"]:
        out.extend({"type": "move", "to": j} for j in move_targets(state, seat))
        out.extend({"type": "march", "path": p} for p in march_paths(state, seat))
    return out + _sprints(state, seat)


def route_end(action: dict) -> int:
    """Where a move (a step, a march or a Sprint) ends."""
    return action["to"] if action["type"] in ("move", "go") else action["path"][-1]


def _hero_actions(state: dict, seat: int) -> list[dict]:
    hero = state["heroes"][seat]
    routes = route_actions(state, seat)
    going = hero.get("route_to")
    if going is not None:  # the second step: which way to the tile chosen
        return [a for a in routes if route_end(a) == going] + [{"type": "back"}]
    ways: dict[int, list[dict]] = {}
    for action in routes:
        ways.setdefault(route_end(action), []).append(action)
    size = state["size"]
    r0, c0 = divmod(hero["pos"], size)

    def far(j: int) -> tuple[int, int]:
        r, c = divmod(j, size)
        return abs(r - r0) + abs(c - c0), j
    moves = [way[0] if len(way) == 1 else {"type": "go", "to": j}
             for j, way in sorted(ways.items(), key=lambda kv: far(kv[0]))]
    out = [{"type": "stay"}] + moves if hero["frozen"] else moves + [{"type": "stay"}]
    if hero["free"] < FREE_LIMIT:  # items still work when frozen ("consumables can be played at any time")
        out.extend(_free_actions(state, seat))
    return out


def _sprints(state: dict, seat: int) -> list[dict]:
    cid = next((c for c in sorted(state["heroes"][seat]["hand"]) if board.loot_card(state, c)["kind"] == "consumable"
                and board.loot_card(state, c)["effect"] == "sprint"), None)
    if cid is None:
        return []
    return [{"type": "sprint", "card": cid, "path": p} for p in sprint_paths(state, seat)]


def _free_actions(state: dict, seat: int) -> list[dict]:
    hero = state["heroes"][seat]
    out: list[dict] = []
    mates = [s for s in board.heroes_on(state, hero["pos"]) if s != seat]
    keys_seen: set[str] = set()
    for cid in sorted(hero["hand"]):
        card = board.loot_card(state, cid)
        key = card["key"]
        if key in keys_seen:
            continue
        keys_seen.add(key)
        if card["kind"] == "consumable":
            eff = card["effect"]
            if eff == "heal" and hero["hp"] < HERO_HP:
                out.append({"type": "use", "card": cid})
            elif eff == "heal_all" and any(state["heroes"][s]["hp"] < HERO_HP
                                           for s in board.heroes_on(state, hero["pos"])):
                out.append({"type": "use", "card": cid})
            elif eff == "strength" and hero["strength"] == 0:
                out.append({"type": "use", "card": cid})
            elif eff == "ward" and not hero["ward"]:
                out.append({"type": "use", "card": cid})
            elif eff == "banish":
                for j in [hero["pos"]] + board.adjacent(state, hero["pos"]):
                    if j != state["tower"] and state["tiles"][j]["tokens"]:
                        out.append({"type": "banish", "card": cid, "tile": j})
        else:
            slot = card["slot"]
            if board.slot_count(state, seat, slot) < cards.SLOTS[slot]:
                out.append({"type": "equip", "card": cid})
            else:  # one swap per kind of item worn in the slot, never for an identical one
                worn: set[str] = set()
                for eid in hero["equip"]:
                    other = board.loot_card(state, eid)
                    if other["slot"] == slot and other["key"] != key and other["key"] not in worn:
                        worn.add(other["key"])
                        out.append({"type": "equip", "card": cid, "replace": eid})
    gifts = [cid for cid in sorted(hero["hand"]) if cid == min(
        c for c in hero["hand"] if state["lcards"][c] == state["lcards"][cid])]  # one of each kind of card
    for m in mates:
        for cid in gifts:
            out.append({"type": "give", "card": cid, "to": m})
        if hero["keys"]:
            out.append({"type": "give_key", "to": m})
    return out


# ------------------------------------------------------------------ hero phase
def _apply_hero(state: dict, seat: int, action: dict) -> list[dict]:
    typ = action["type"]
    if typ in ("move", "stay", "sprint", "march"):
        state["heroes"][seat].pop("route_to", None)
        return _commit_move(state, seat, action)
    if typ == "go":  # the move in two steps: where to, then which way (nothing is committed yet)
        state["heroes"][seat]["route_to"] = action["to"]
        return [board._event("route", f"Which way to {board.label(state, action['to'])}?", to=seat)]
    if typ == "back":
        state["heroes"][seat].pop("route_to", None)
        return []
    handler = HERO_FREE_ACTIONS.get(typ)
    if handler is None:
        raise RuleError("That move isn't allowed right now.")
    state["heroes"][seat]["free"] += 1
    return handler(state, seat, action)


def _commit_move(state: dict, seat: int, action: dict) -> list[dict]:
    """A hero's secret move; once every living hero has committed, the round resolves."""
    state["commits"][str(seat)] = action
    events = [board._event("commit", f"{state['names'][seat]} has committed a move."),
          board._event("commit", f"Your move: {texts.describe_action(state, seat, action)}.", to=seat)]
    if not board.seats_to_act(state):
        events.extend(resolution._resolve(state))
    return events


def _do_use(state: dict, seat: int, action: dict) -> list[dict]:
    """Drink or open a consumable (healing, strength, ward)."""
    hero = state["heroes"][seat]
    name = state["names"][seat]
    cid = action["card"]
    card = board.loot_card(state, cid)
    hero["hand"].remove(cid)
    state["loot"]["discard"].append(cid)
    eff = card["effect"]
    events: list[dict] = []
    if eff == "heal":
        before = hero["hp"]
        hero["hp"] = min(HERO_HP, hero["hp"] + card["amount"])
        events.append(board._event("use", f"{name} drinks {card['name']}: {before} -> {hero['hp']} hit points."))
    elif eff == "heal_all":
        for s in board.heroes_on(state, hero["pos"]):
            hh = state["heroes"][s]
            hh["hp"] = min(HERO_HP, hh["hp"] + card["amount"])
        events.append(board._event("use", f"{name} opens a {card['name']}: every hero on "
                                 f"{board.label(state, hero['pos'])} heals {card['amount']}."))
    elif eff == "strength":
        hero["strength"] = card["amount"]
        events.append(board._event("use", f"{name} drinks a {card['name']}: +{card['amount']} in combat this turn."))
    elif eff == "ward":
        hero["ward"] = True
        events.append(board._event("use", f"{name} raises a {card['name']}: traps can't hurt them this turn."))
    return events


def _do_banish(state: dict, seat: int, action: dict) -> list[dict]:
    hero = state["heroes"][seat]
    cid = action["card"]
    hero["hand"].remove(cid)
    state["loot"]["discard"].append(cid)
    i = action["tile"]
    tile = state["tiles"][i]
    shown = [board._token_name(state, tid) for tid in tile["tokens"]]
    for tid in tile["tokens"]:
        state["tokens"].pop(str(tid))
    tile["tokens"] = []
    return [board._event("use", f"{state['names'][seat]} reads a Banish Scroll on {board.label(state, i)}: "
                           f"{', '.join(shown)} vanish.")]


def _do_equip(state: dict, seat: int, action: dict) -> list[dict]:
    hero = state["heroes"][seat]
    cid = action["card"]
    hero["hand"].remove(cid)
    rep = action.get("replace")
    if rep is not None:
        hero["equip"].remove(rep)
        hero["hand"].append(rep)
    hero["equip"].append(cid)
    card = board.loot_card(state, cid)
    extra = f" instead of {board.loot_card(state, rep)['name']}" if rep is not None else ""
    return [board._event("equip", f"{state['names'][seat]} equips {card['name']}{extra}.")]


def _do_give(state: dict, seat: int, action: dict) -> list[dict]:
    name = state["names"][seat]
    cid = action["card"]
    to = action["to"]
    state["heroes"][seat]["hand"].remove(cid)
    loot._gain_card(state, to, cid)
    card = board.loot_card(state, cid)["name"]
    return [board._event("give", f"{name} gives a card to {state['names'][to]}."),
            board._event("give", f"You give {card} to {state['names'][to]}.", to=seat),
            board._event("give", f"{name} gives you {card}.", to=to)]


def _do_give_key(state: dict, seat: int, action: dict) -> list[dict]:
    to = action["to"]
    state["heroes"][seat]["keys"] -= 1
    state["heroes"][to]["keys"] += 1
    return [board._event("give", f"{state['names'][seat]} gives a key to {state['names'][to]}.")]


HERO_FREE_ACTIONS: dict[str, Callable[[dict, int, dict], list[dict]]] = {
    "use": _do_use,
    "banish": _do_banish,
    "equip": _do_equip,
    "give": _do_give,
    "give_key": _do_give_key,
}
