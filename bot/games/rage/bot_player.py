"""The Wizard's Rage bot. It decides from ``engine.view(state, seat)`` (what that seat may know)
plus the seat's own legal actions; it never reads hidden parts of the state."""
from __future__ import annotations

import heapq
import random
from typing import Callable

from . import cards, placement


def choose(engine, state: dict, seat: int, rng: random.Random) -> dict:
    """The bot's action for ``seat``, decided from its view and legal actions: the wizard's or a hero's heuristics."""
    legal = engine.legal_actions(state, seat)
    if len(legal) == 1:
        return legal[0]
    view = engine.view(state, seat)
    if seat == 0:
        action = _wizard(view, legal, rng)
    else:
        action = _hero_two_steps(engine, state, view, seat, legal, rng)
    return action if action in legal else legal[0]


def _hero_two_steps(engine, state: dict, view: dict, seat: int, legal: list[dict], rng: random.Random) -> dict:
    """A hero picks among every way to move at once (``route_actions``: the steps, marches and Sprints the
    board and its own hand allow, the moves its panel offers in two steps), then answers the panel's steps:
    where to (``go``), then which way."""
    routes = engine.route_actions(state, seat)
    going = view["private"].get("route_to")
    if going is not None:  # the second step, which way: the first step's choice again (its own dice: the
        ways = [a for a in legal if a["type"] != "back"]  # game's do not roll twice for one move)
        if not ways:
            return {"type": "back"}
        again = random.Random(f"{view['round']}/{seat}/{going}")
        wanted = _hero(view, seat, routes + [{"type": "stay"}], again)
        return wanted if wanted in ways else max(ways, key=lambda a: len(a.get("path", [0])))
    wanted = _hero(view, seat, routes + [a for a in legal if a not in routes and a["type"] != "go"], rng)
    if wanted not in legal and wanted in routes:
        return {"type": "go", "to": engine.route_end(wanted)}
    return wanted


# ---------------------------------------------------------------- geometry on the view
def _rc(view: dict, i: int) -> tuple[int, int]:
    return divmod(i, view["size"])


def _manhattan(view: dict, a: int, b: int) -> int:
    (r1, c1), (r2, c2) = _rc(view, a), _rc(view, b)
    return abs(r1 - r2) + abs(c1 - c2)


def _neighbours(view: dict, i: int) -> list[int]:
    size = view["size"]
    r, c = divmod(i, size)
    out = []
    for dr, dc in ((-1, 0), (0, 1), (1, 0), (0, -1)):
        rr, cc = r + dr, c + dc
        if 0 <= rr < size and 0 <= cc < size:
            j = rr * size + cc
            if not view["tiles"][j]["removed"] and not view["tiles"][j]["tower"]:
                out.append(j)
    return out


def _bfs(view: dict, start: int, without: int | None = None) -> dict[int, int]:
    dist = {start: 0}
    frontier = [start]
    while frontier:
        nxt = []
        for i in frontier:
            for j in _neighbours(view, i):
                if j != without and j not in dist:
                    dist[j] = dist[i] + 1
                    nxt.append(j)
        frontier = nxt
    return dist


def _camps(view: dict) -> list[int]:
    return [t["i"] for t in view["tiles"] if t["camp"]]


# ---------------------------------------------------------------- wizard
def _card_value(card: dict) -> float:
    if card["kind"] == "monster":
        return 2 + card["level"] - 0.6 * card["cost"]
    if card["kind"] == "trap":
        return 2.0
    return {"Dark Surge": 3.0, "Ley Tap": 3.5, "Ambush": 3.0, "Frost Bolt": 2.0, "Fireball": 2.5}.get(card["name"], 1.5)


def _wizard(view: dict, legal: list[dict], rng: random.Random) -> dict:
    """The wizard's move: the handler of the decision asked (``WIZARD_DECISIONS``), else playing cards."""
    decide = WIZARD_DECISIONS.get(legal[0]["type"], _wizard_play)
    return decide(view, legal, rng)


def _hero_positions(view: dict) -> list[int]:
    """Where the living heroes stand."""
    return [h["pos"] for h in view["heroes"] if h["alive"]]


def _wizard_tower(view: dict, legal: list[dict], rng: random.Random) -> dict:
    """Any tower tile will do."""
    return rng.choice(legal)


def _wizard_entrance(view: dict, legal: list[dict], rng: random.Random) -> dict:
    """The first door: as far from the camps as can be. Later (Shifting Stones): turn it away from the heroes."""
    if view["phase"] == "entrance":
        camps = _camps(view)

        def door(action: dict) -> float:
            ent = _step(view, view["tower"], action["dir"])
            return min(_manhattan(view, ent, c) for c in camps) + rng.random() * 0.1
        return max(legal, key=door)
    hero_pos = _hero_positions(view)

    def away(action: dict) -> float:
        ent = _step(view, view["tower"], action["dir"])
        return min((_manhattan(view, ent, p) for p in hero_pos), default=0) + rng.random() * 0.1
    return max(legal, key=away)


def _wizard_hide_key(view: dict, legal: list[dict], rng: random.Random) -> dict:
    """Hide a key far from the camps and from the other keys."""
    camps = _camps(view)
    keys = view["private"]["keys"]

    def key_score(action: dict) -> float:
        i = action["tile"]
        value: float = min(_manhattan(view, i, c) for c in camps)
        if keys:
            value += 0.7 * min(_manhattan(view, i, k) for k in keys)
        return value + rng.random()
    return max(legal, key=key_score)


def _wizard_keep(view: dict, legal: list[dict], rng: random.Random) -> dict:
    """Keep the strongest opening cards."""
    values = {c["id"]: _card_value(c) for c in view["private"]["opening"]}
    return max(legal, key=lambda action: sum(values[c] for c in action["cards"]) + rng.random() * 0.01)


def _wizard_remove(view: dict, legal: list[dict], rng: random.Random) -> dict:
    """Remove the tile that lengthens the heroes' way to the door most."""
    ent = view["entrance_tile"]
    hero_pos = _hero_positions(view)

    def hurt(action: dict) -> float:
        dist = _bfs(view, ent, without=action["tile"])
        return sum(dist.get(p, 99) for p in hero_pos) + rng.random() * 0.1
    return max(legal, key=hurt)


def _wizard_play(view: dict, legal: list[dict], rng: random.Random) -> dict:
    """Playing cards: free mana first, then the most expensive useful card; else end the turn (or discard)."""
    hand = {c["id"]: c for c in view["private"]["hand"]}
    plays = [action for action in legal if action["type"] == "play"]
    discards = [action for action in legal if action["type"] == "discard"]

    def finish() -> dict:
        if discards:  # over the hand limit: drop the weakest card
            return min(discards, key=lambda action: _card_value(hand[action["card"]]))
        return {"type": "end_turn"}
    if not plays:
        return finish()
    best = max(plays, key=lambda action: _play_score(view, hand, plays, action) + rng.random())
    if _play_score(view, hand, plays, best) < 0:
        return finish()
    return best


def _play_score(view: dict, hand: dict[int, dict], plays: list[dict], action: dict) -> float:
    """How much the wizard wants to play this card now (below 0: not at all)."""
    heroes = [h for h in view["heroes"] if h["alive"]]
    c = hand[action["card"]]
    name = c["name"]
    if name == "Ley Tap":
        return 100
    if name == "Dark Surge":
        return 90 if len(plays) > 1 or len(hand) > 1 else -1
    if name == "Shifting Stones":
        near = view["keys_found"] and any(_manhattan(view, h["pos"], view["tower"]) <= 2 for h in heroes)
        return 50 if near else -1
    if name == "Scrying Pool":
        return 5
    if c["kind"] == "monster":
        return 20 + c["cost"] * 3
    if c["kind"] == "trap":
        return 12
    if name == "Fireball":
        return 30 if any(h["hp"] <= 2 for h in heroes) or len(heroes) >= 2 else 15
    if name == "Ambush":
        return 28
    if name == "Frost Bolt":
        return 25 if view["keys_found"] or any(h["keys"] for h in heroes) else 8
    return 10


def _step(view: dict, i: int, d: str) -> int:
    size = view["size"]
    r, c = divmod(i, size)
    dr, dc = {"N": (-1, 0), "E": (0, 1), "S": (1, 0), "W": (0, -1)}[d]
    return (r + dr) * size + (c + dc)


def _wizard_place(view: dict, legal: list[dict], rng: random.Random) -> dict:
    """Where the card's next token goes: the first of the tiles its tokens still to place would be drawn on
    (``placement``), so its real token and its decoys are drawn alike (the engine draws the decoys the same
    way under the tuned rules; under the rulebook the bot places each of them so)."""
    pending = view["private"]["pending"] or {}
    picks = pending.get("picks") or []
    tiles = [action["tile"] for action in legal]
    total = max(pending.get("total", 1), len(picks) + 1)
    rest = placement.draw(tiles, placement.weights(view, tiles), total, rng.random, taken=picks)
    return {"type": "place", "tile": rest[0] if rest else tiles[0]}


def _wizard_target(view: dict, legal: list[dict], rng: random.Random) -> dict:
    eff = view["pending"]["effect"]
    def score(action):
        i = action["tile"]
        hs = [h for h in view["heroes"] if h["alive"] and h["pos"] == i]
        if eff == "fireball":
            return sum(3 if h["hp"] <= 2 else 1 for h in hs) + rng.random() * 0.1
        if eff == "ambush":
            return sum(10 - h["hp"] + (3 - h["attack"] / 3) for h in hs) + rng.random() * 0.1
        return sum(1 + 3 * h["keys"] for h in hs) - 0.3 * _manhattan(view, i, view["tower"]) + rng.random() * 0.1
    return max(legal, key=score)


# How the wizard answers each kind of decision (anything else: playing cards from the hand).
WIZARD_DECISIONS: dict[str, Callable[[dict, list[dict], random.Random], dict]] = {
    "tower": _wizard_tower,
    "entrance": _wizard_entrance,
    "hide_key": _wizard_hide_key,
    "keep": _wizard_keep,
    "remove": _wizard_remove,
    "place": _wizard_place,
    "target": _wizard_target,
}


# ---------------------------------------------------------------- heroes
FAR_WEIGHT = 1.2  # tuned with the balance script (see docs/rules/rage.md)
_PROB_CACHE: dict[tuple[int, int, bool], float] = {}


def win_prob(k: int, bonus: int, level: int, lone: bool = False) -> float:
    """P(heroes win): best of k d20 (or 2d20 summed for a boosted lone hero) + bonus >= d20 + level."""
    key = (k, bonus - level, lone)
    if key in _PROB_CACHE:
        return _PROB_CACHE[key]
    diff = bonus - level
    if lone:
        dist = {a + b: 0.0 for a in range(1, 21) for b in range(1, 21)}
        for a in range(1, 21):
            for b in range(1, 21):
                dist[a + b] += 1 / 400
    else:
        k = max(1, k)
        dist = {v: (v / 20) ** k - ((v - 1) / 20) ** k for v in range(1, 21)}
    chance = 0.0
    for h, ph in dist.items():
        wins = sum(1 for m in range(1, 21) if h + diff >= m)
        chance += ph * wins / 20
    _PROB_CACHE[key] = chance
    return chance


def _hero(view: dict, seat: int, legal: list[dict], rng: random.Random) -> dict:
    """A hero's move: free actions first (heal, equip, pass keys and gear), else the way to its goal."""
    me = next(h for h in view["heroes"] if h["seat"] == seat)
    hand = {c["id"]: c for c in view["private"]["hand"]}
    by_type: dict[str, list[dict]] = {}
    for action in legal:
        by_type.setdefault(action["type"], []).append(action)
    free = _hero_free_action(view, seat, me, hand, by_type)
    if free is not None:
        return free
    stuck_or_frozen = not by_type.get("move") and not by_type.get("march")
    if stuck_or_frozen and not (me["frozen"] and by_type.get("sprint")):
        return _hero_stuck(view, me, hand, by_type)
    goal, enter = _hero_goal(view, seat, me, legal, rng)
    if enter:
        return _use_named(hand, by_type, "Strength Draught") or {"type": "move", "to": view["tower"]}
    if goal is None or goal == me["pos"]:
        return {"type": "stay"}
    path = _path(view, me["pos"], goal, me)
    if not path:
        return {"type": "stay"}
    tile = view["tiles"][path[0]]
    if tile["monsters"]:
        boost = _before_fight(view, me, hand, by_type, path[0])
        if boost is not None:
            return boost
    if tile["hidden_tokens"] and me["hp"] <= 6:
        ward = _use_named(hand, by_type, "Ward Charm")
        if ward is not None:
            return ward
    return _hero_advance(view, me, by_type, path)


def _use_named(hand: dict[int, dict], by_type: dict[str, list[dict]], *names: str) -> dict | None:
    """The first "use" action of a hand card with one of these names, if any."""
    for action in by_type.get("use", []):
        if hand[action["card"]]["name"] in names:
            return action
    return None


def _hero_free_action(view: dict, seat: int, me: dict, hand: dict[int, dict],
                      by_type: dict[str, list[dict]]) -> dict | None:
    """A free action worth taking now: heal when hurt, equip better gear, pass keys or spare gear to a mate."""
    pos = me["pos"]
    for action in by_type.get("use", []):
        c = hand[action["card"]]
        if c["name"] in ("Healing Potion", "Greater Healing") and (me["hp"] <= 5 or me["hp"] <= 10 - 7):
            return action
        if c["name"] == "Healing Spring":
            mates = [h for h in view["heroes"] if h["alive"] and h["pos"] == pos]
            if sum(min(3, 10 - h["hp"]) for h in mates) >= 4 or me["hp"] <= 4:
                return action
    for action in by_type.get("equip", []):
        new = hand[action["card"]]
        if action.get("replace") is None:
            return action
        old = next(e for e in me["equip"] if e["id"] == action["replace"])
        if new["attack"] + new["save"] > old["attack"] + old["save"]:
            return action
    mates = [h for h in view["heroes"] if h["alive"] and h["pos"] == pos and h["seat"] != seat]
    for action in by_type.get("give_key", []):
        other = next(h for h in mates if h["seat"] == action["to"])
        if (other["keys"], -other["seat"]) > (me["keys"], -seat):
            return action
    for action in by_type.get("give", []):  # hand spare equipment to a mate who has room
        c = hand[action["card"]]
        other = next(h for h in mates if h["seat"] == action["to"])
        if c["kind"] == "equipment":
            used = sum(1 for e in other["equip"] if e["slot"] == c["slot"])
            if used < cards.SLOTS[c["slot"]]:
                return action
    return None


def _hero_stuck(view: dict, me: dict, hand: dict[int, dict], by_type: dict[str, list[dict]]) -> dict:
    """A hero that can't move: banish a too-strong guard of its room, or drink strength, else stay."""
    pos = me["pos"]
    here = view["tiles"][pos]
    if here["monsters"] or here["hidden_tokens"]:
        for action in by_type.get("banish", []):
            if action["tile"] == pos and sum(m["level"] for m in here["monsters"]) > me["attack"] + 2:
                return action
        draught = _use_named(hand, by_type, "Strength Draught")
        if draught is not None:
            return draught
    return {"type": "stay"}


def _before_fight(view: dict, me: dict, hand: dict[int, dict], by_type: dict[str, list[dict]],
                  first: int) -> dict | None:
    """Before stepping into monsters: wait (and heal) when the odds are poor, banish a far too strong guard,
    or drink strength; None to go ahead as planned."""
    tile = view["tiles"][first]
    level = sum(m["level"] for m in tile["monsters"])
    living = [h for h in view["heroes"] if h["alive"]]
    allies = [h for h in living if h["pos"] == first or _manhattan(view, h["pos"], first) == 1]
    bonus = sum(h["attack"] for h in allies) + (5 if any(
        c["name"] == "Strength Draught" for c in hand.values()) else 0)
    lone = view["options"].get("lone_hero") and len(living) == 1
    chance = win_prob(len(allies), bonus, level, bool(lone))
    late = view["round"] >= view["round_limit"] - 4
    others_coming = len(living) > len(allies)
    if chance < 0.4 and not late and (others_coming or me["hp"] <= sum(m.get("damage", 1) for m in tile["monsters"]) + 1):
        for action in by_type.get("use", []):
            if hand[action["card"]]["name"] in ("Healing Potion", "Greater Healing", "Healing Spring") \
                    and me["hp"] < 10:
                return action
        return {"type": "stay"}
    for action in by_type.get("banish", []):
        if action["tile"] == first and level > me["attack"] + 5:
            return action
    return _use_named(hand, by_type, "Strength Draught")


def _hero_advance(view: dict, me: dict, by_type: dict[str, list[dict]], path: list[int]) -> dict:
    """Go along the path: a Sprint when it runs further (or breaks the frost), else the longest march, else a step."""
    tile = view["tiles"][path[0]]
    marches = [action for action in by_type.get("march", []) if action["path"] == path[:len(action["path"])]]
    sprints = [action for action in by_type.get("sprint", []) if action["path"] == path[:len(action["path"])]
               and not any(view["tiles"][i]["monsters"] for i in action["path"][:-1])]
    best_march = max((len(action["path"]) for action in marches), default=1)
    if sprints and (me["frozen"] or (len(path) >= 3 and max(len(action["path"]) for action in sprints) > best_march)):
        return max(sprints, key=lambda action: len(action["path"]))  # a Sprint runs further than a march (or breaks the frost)
    if me["frozen"]:
        return {"type": "stay"}
    if marches and not tile["monsters"]:
        return max(marches, key=lambda action: len(action["path"]))
    return {"type": "move", "to": path[0]}


def _hero_goal(view: dict, seat: int, me: dict, legal: list[dict], rng: random.Random) -> tuple[int | None, bool]:
    pos = me["pos"]
    ent = view["entrance_tile"]
    living = [h for h in view["heroes"] if h["alive"]]
    can_enter = {"type": "move", "to": view["tower"]} in legal
    keys_held = sum(h["keys"] for h in living)
    if can_enter:
        at_door = [h for h in living if h["pos"] == ent]
        strength = sum(h["attack"] for h in at_door)
        late = view["round"] >= view["round_limit"] - 3
        if len(at_door) == len(living) or late or strength >= 8 or rng.random() < 0.25:
            return None, True
        return ent, False
    if view["tower_open"] or (view["keys_found"] and keys_held >= 3):
        return ent, False
    drops = [tile["i"] for tile in view["tiles"] if (tile["drop"]["keys"] or tile["drop"]["cards"]) and not tile["removed"]]
    dist = _bfs(view, pos)
    guarded_keys = [tile["i"] for tile in view["tiles"] if tile.get("key") and not tile["removed"] and tile["i"] in dist]
    if guarded_keys:  # a revealed key tile still guarded: everyone gathers there
        return min(guarded_keys, key=lambda i: dist[i]), False
    if drops:
        reach = [d for d in drops if d in dist]
        if reach:
            return min(reach, key=lambda d: dist[d]), False
    if view["keys_found"] and keys_held < 3:
        # Keys were lost with a fallen hero and picked up or dropped: gather at the door.
        return ent, False
    unknown = [tile["i"] for tile in view["tiles"] if not tile["up"] and not tile["removed"] and tile["i"] in dist]
    if not unknown:
        unknown = [tile["i"] for tile in view["tiles"] if tile["up"] and not tile["removed"] and not tile["searched"]
                   and not tile["tower"] and tile["i"] in dist]
    if not unknown:
        return ent, False
    others = [h["pos"] for h in living if h["seat"] != seat]
    camps = _camps(view)
    odds = _vault_odds(view)
    def score(i):
        value = dist[i]
        # The wizard hides keys away from the camps: search the far rooms first.
        value -= FAR_WEIGHT * min(_manhattan(view, i, c) for c in camps)
        tile = view["tiles"][i]
        value += 0.4 * tile["hidden_tokens"]
        if others:  # spread out a little
            value -= 0.15 * min(_manhattan(view, i, o) for o in others)
        if i in odds:  # what scouting sensed: likely vaults first, rooms with none near last
            value += 4.0 if odds[i] == 0 else -VAULT_WEIGHT * odds[i]
        return value + rng.random() * 0.5
    return min(unknown, key=score), False


VAULT_WEIGHT = 8.0


def _vault_odds(view: dict) -> dict[int, float]:
    """For face-down tiles near a scouted room: a rough chance that a hidden key vault is there.
    A room that sensed k vaults within range, j of them already face up, leaves k - j among its
    face-down tiles in range; 0 left clears them all."""
    rng_ = view.get("scout_range") or 0
    tiles = view["tiles"]
    odds: dict[int, float] = {}
    cleared: set[int] = set()
    for t in tiles:
        if t.get("sense") is None or t["removed"]:
            continue
        near = [u for u in tiles if u["i"] != t["i"] and _manhattan(view, u["i"], t["i"]) <= rng_]
        found = sum(1 for u in near if u["up"] and u.get("key_tile"))
        down = [u["i"] for u in near if not u["up"] and not u["removed"]]
        left = t["sense"] - found
        if left <= 0:
            cleared.update(down)
        elif down:
            for i in down:
                odds[i] = max(odds.get(i, 0.0), left / len(down))
    for i in cleared:
        odds[i] = 0.0
    return odds


def _path(view: dict, start: int, goal: int, me: dict) -> list[int]:
    """Cheapest path by a danger-weighted Dijkstra; returns tiles after ``start``."""
    def cost(j: int) -> float:
        tile = view["tiles"][j]
        step_cost = 1.0
        if tile["monsters"]:
            level = sum(m["level"] for m in tile["monsters"])
            step_cost += max(0.0, (level - me["attack"]) / 2) + 2
        step_cost += 0.3 * tile["hidden_tokens"] * (2 if me["hp"] <= 4 else 1)
        return step_cost
    best = {start: 0.0}
    prev: dict[int, int] = {}
    heap = [(0.0, start)]
    while heap:
        spent, i = heapq.heappop(heap)
        if i == goal:
            break
        if spent > best.get(i, 1e9):
            continue
        for j in _neighbours(view, i):
            nd = spent + cost(j)
            if nd < best.get(j, 1e9):
                best[j] = nd
                prev[j] = i
                heapq.heappush(heap, (nd, j))
    if goal not in prev:
        return []
    path = [goal]
    while path[-1] in prev and prev[path[-1]] != start:
        path.append(prev[path[-1]])
    return list(reversed(path))
