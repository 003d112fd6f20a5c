"""Wizard's Rage: a full state consistent with one seat's view, for the search bot.

The wizard (seat 0) decides in the opening and on its own turn; it sees its hand, the key
vaults and every face-down token. Hidden from it: which room lies under each face-down tile,
the heroes' hands, and the order of the decks. A hero decides only in the heroes' turn; hidden
from it are also the key vaults still face down (placed so that every scouting number shown
on the board stays true), what each face-down token is (a real monster or trap, in the
proportions of the wizard's deck, or a decoy), the wizard's hand and the other heroes'
committed moves (taken as the move the heuristic bot would commit there).

Unseen cards and rooms are dealt at random from all cards minus those the seat can see. A
hero's own free actions left this turn and who thawed last round are in the views; two facts
are in none, so the sampler assumes them: how many free actions another hero took this turn
(0: they are that hero's own count), and which of the wizard's unseen cards are in the discard
pile rather than the deck.
"""
from __future__ import annotations

import copy
import itertools
import random
from typing import Any

from . import cards
from .constants import FREE_LIMIT, new_tile

_TILE_BY_NAME = {d["name"]: k for k, d in cards.TILE_DEFS.items()}
_LOOT_BY_NAME = {d["name"]: k for k, d in cards.LOOT_DEFS.items()}
_MONSTER_BY_NAME = {d["name"]: k for k, d in cards.WIZARD_DEFS.items() if d["kind"] == "monster"}
# The real token of a played monster or trap card, weighted by the cards in the deck; and the
# share of face-down tokens that are real (the rest are decoys), over the whole deck.
_REAL = [k for k in cards.WIZARD_DECK if cards.WIZARD_DEFS[k]["kind"] in ("monster", "trap")]
_REAL_SHARE = len(_REAL) / sum(1 + cards.WIZARD_DEFS[k]["decoys"] for k in _REAL)
_COMMITS = ("move", "stay", "sprint", "march")


def _token(key: str, up: bool) -> dict[str, Any]:
    d = cards.WIZARD_DEFS[key]
    if d["kind"] == "trap":
        return {"kind": "trap", "up": up, "card": key, "level": 0}
    return {"kind": "monster", "up": up, "card": key, "level": d["level"], "count": d.get("monsters", 1),
            "damage": d.get("damage", 1)}


def _face_up_tokens(monsters: list[dict[str, Any]]) -> list[dict[str, Any]] | None:
    """A tile's face-up monster tokens, in order, from the monsters the view lists one by one
    (a gang token lists each of its monsters)."""
    out: list[dict[str, Any]] = []
    k = 0
    while k < len(monsters):
        name = monsters[k]["name"]
        if name == "Ambusher":
            out.append({"kind": "monster", "up": True, "card": "ambush", "level": 3})
            k += 1
            continue
        key = _MONSTER_BY_NAME.get(name)
        if key is None:
            return None
        size = cards.WIZARD_DEFS[key].get("monsters", 1)
        if [m["name"] for m in monsters[k:k + size]] != [name] * size:
            return None
        out.append(_token(key, True))
        k += size
    return out


def _hidden_token(private: dict[str, Any] | None, tower: bool, rng: random.Random) -> dict[str, Any]:
    """A face-down token: as the wizard knows it, or guessed for a hero."""
    if private is not None:
        if private["kind"] == "monster":
            return _token(_MONSTER_BY_NAME[private["name"]], False)
        if private["kind"] == "trap":
            return _token("pit", False)  # every trap works alike; the card's name is never shown
        return {"kind": "blank", "up": False, "card": "blank", "level": 0}
    if rng.random() < _REAL_SHARE:
        choices = [k for k in _REAL if not (tower and cards.WIZARD_DEFS[k]["kind"] == "trap")]
        return _token(rng.choice(choices), False)
    return {"kind": "blank", "up": False, "card": "blank", "level": 0}


def _place_keys(view: dict[str, Any], known: list[int], candidates: list[int], count: int,
                rng: random.Random) -> list[int] | None:
    """``count`` more key vaults among ``candidates`` so that every scouting number on the board holds."""
    size = view["size"]
    senses = [(divmod(t["i"], size), t["sense"]) for t in view["tiles"] if t.get("sense") is not None]
    rng_ = view["scout_range"]

    def near(a: int, rc: tuple[int, int]) -> bool:
        r, c = divmod(a, size)
        return abs(r - rc[0]) + abs(c - rc[1]) <= rng_

    need = []
    for rc, sense in senses:
        left = sense - sum(1 for k in known if near(k, rc))
        if left < 0:
            return None
        need.append((rc, left))
    # a tile next to a scouted room that needs no more vaults cannot hold one
    pool = [j for j in candidates if all(left > 0 or not near(j, rc) for rc, left in need)]

    def fits(combo: tuple[int, ...]) -> bool:
        return all(sum(1 for j in combo if near(j, rc)) == left for rc, left in need)

    if len(pool) < count:
        return None
    for _ in range(200):
        combo = tuple(rng.sample(pool, count))
        if fits(combo):
            return list(combo)
    good = [combo for combo in itertools.combinations(pool, count) if fits(combo)]
    return list(rng.choice(good)) if good else None


def _deal(pool: list[int], count: int) -> tuple[list[int], list[int]] | None:
    if count > len(pool):
        return None
    return pool[:count], pool[count:]


def _room_bag(view: dict[str, Any]) -> list[str] | None:
    """The rooms not face up on the board (the tile bag minus the rooms in sight)."""
    bag = list(cards.TILE_BAG)
    for t in view["tiles"]:
        if t["up"] and not t["removed"] and not t["camp"] and not t["tower"] and not t.get("key_tile"):
            key = _TILE_BY_NAME.get(t.get("name", ""))
            if key is None or key not in bag:
                return None
            bag.remove(key)
    return bag


def _key_vaults(view: dict[str, Any], wizard: bool, rng: random.Random) -> set[int] | None:
    """Where the key vaults lie: those the seat knows, the rest placed so every scouting number holds."""
    up_vaults = [t["i"] for t in view["tiles"] if t["up"] and not t["removed"] and t.get("key_tile")]
    known = set(up_vaults) | set(view["private"]["keys"] if wizard else [])
    # A vault still face down is known only to the wizard; a removed tile no longer shows that it was one.
    somewhere = [t["i"] for t in view["tiles"] if not t["tower"] and not t["camp"]
                 and (t["removed"] and t["up"] or not wizard and not t["up"] and not t["removed"])]
    more = _place_keys(view, sorted(known), somewhere, view["keys_hidden"] - len(known), rng)
    if more is None:
        return None
    return known | set(more)


def _tiles(view: dict[str, Any], vaults: set[int], bag: list[str], wizard: bool,
           rng: random.Random) -> tuple[list[dict[str, Any]], dict[str, Any]] | None:
    """The board's tiles and their tokens, hidden rooms drawn from ``bag`` (what is left stays in it)."""
    tokens_seen: dict[str, Any] = view["private"].get("tokens", {}) if wizard else {}
    tiles: list[dict[str, Any]] = []
    tokens: dict[str, Any] = {}
    for t in view["tiles"]:
        i = t["i"]
        tile = new_tile(None)
        tile.update(up=t["up"], removed=t["removed"], camp=t["camp"], searched=t["searched"],
                    conquered=t["conquered"])
        if t["tower"]:
            tile["id"] = cards.TOWER_KEY
        elif t["camp"]:
            tile["id"] = cards.CAMP_KEY
        elif i in vaults:
            tile.update(id=cards.VAULT_KEY, key_tile=True, key=t.get("key", False) if t["up"] else True)
        elif t["up"] and not t["removed"]:
            tile["id"] = _TILE_BY_NAME[t["name"]]
        else:
            if not bag:
                return None
            tile["id"] = bag.pop()
        if t.get("sense") is not None:
            tile["sense"] = t["sense"]
        ups = _face_up_tokens(t["monsters"])
        if ups is None:
            return None
        mine = tokens_seen.get(str(i))
        if wizard and t["hidden_tokens"] != len(mine or []):
            return None
        hidden = [_hidden_token(mine[k] if mine else None, t["tower"], rng) for k in range(t["hidden_tokens"])]
        for token in ups + hidden:
            tid = len(tokens) + 1
            tokens[str(tid)] = token
            tile["tokens"].append(tid)
        tile["drop"] = {"cards": [], "keys": t["drop"]["keys"]}
        tiles.append(tile)
    return tiles, tokens


def _loot_pool(view: dict[str, Any], own_hand: list[int], tiles: list[dict[str, Any]],
               rng: random.Random) -> list[int] | None:
    """The unseen loot cards, shuffled, after giving each dropped card on a tile one of its copies."""
    seen_loot: set[int] = set()
    for h in view["heroes"]:
        seen_loot.update(c["id"] for c in h["equip"])
    seen_loot.update(own_hand)
    loot_pool = [c for c in range(len(cards.LOOT_DECK)) if c not in seen_loot]
    rng.shuffle(loot_pool)
    for t, tile in zip(view["tiles"], tiles):
        for name in t["drop"]["cards"]:
            key = _LOOT_BY_NAME.get(name)
            cid = next((c for c in loot_pool if cards.LOOT_DECK[c] == key), None)
            if cid is None:
                return None
            loot_pool.remove(cid)
            tile["drop"]["cards"].append(cid)
    return loot_pool


def _heroes_and_loot(view: dict[str, Any], seat: int, wizard: bool, tiles: list[dict[str, Any]],
                     rng: random.Random) -> tuple[list[Any], dict[str, Any]] | None:
    """The heroes (other heroes' hands dealt from the unseen loot) and the loot deck and discard pile."""
    priv = view["private"]
    heroes_v = {h["seat"]: h for h in view["heroes"]}
    own_hand = [c["id"] for c in priv["hand"]] if not wizard else []
    loot_pool = _loot_pool(view, own_hand, tiles, rng)
    if loot_pool is None:
        return None
    heroes: list[Any] = [None]
    for s in range(1, view["n"]):
        h = heroes_v[s]
        if s == seat:
            hand = list(own_hand)
        else:
            dealt = _deal(loot_pool, h["hand_count"])
            if dealt is None:
                return None
            hand, loot_pool = dealt
        heroes.append({"pos": h["pos"], "prev": h["pos"], "hp": h["hp"], "alive": h["alive"], "hand": hand,
                       "equip": [c["id"] for c in h["equip"]], "keys": h["keys"], "frozen": h["frozen"],
                       "thawed": h["thawed"], "strength": h["strength"], "ward": h["ward"],
                       "free": FREE_LIMIT - priv["free_left"] if s == seat else 0})
        if s == seat and priv.get("route_to") is not None:
            heroes[-1]["route_to"] = priv["route_to"]
    lv = view["loot"]
    if len(loot_pool) != lv["deck_count"] + lv["discard_count"]:
        return None  # the view and the card list disagree: do not guess
    return heroes, {"deck": loot_pool[:lv["deck_count"]], "discard": loot_pool[lv["deck_count"]:]}


def _wizard_cards(view: dict[str, Any], wizard: bool, rng: random.Random) -> dict[str, Any] | None:
    """The wizard's cards: its hand as it knows it or dealt for a hero, the rest split into deck and discard."""
    priv = view["private"]
    wv = view["wizard"]
    if wizard:
        hand = [c["id"] for c in priv["hand"]]
        opening = [c["id"] for c in priv["opening"]]
        playing = priv["playing"]["id"] if priv["playing"] else None
    else:
        hand, opening, playing = [], [], None
    known_w = set(hand) | set(opening) | ({playing} if playing is not None else set())
    wpool = [c for c in range(len(cards.WIZARD_DECK)) if c not in known_w]
    rng.shuffle(wpool)
    if not wizard:
        hand, wpool = wpool[:wv["hand_count"]], wpool[wv["hand_count"]:]
    if len(hand) != wv["hand_count"] or len(wpool) != wv["deck_count"] + wv["discard_count"]:
        return None
    spent = wv["mana"] - priv["mana_left"] if wizard and view["phase"] == "wizard" else 0
    return {"deck": wpool[:wv["deck_count"]], "hand": hand, "discard": wpool[wv["deck_count"]:],
            "opening": opening, "mana": wv["mana"], "spent": spent, "pending_card": playing,
            "habit": list(priv.get("habit", [0, 0])) if wizard else [0, 0]}  # a hero can't see the wizard's habit


def sample_state(engine, view: dict[str, Any], seat: int, rng: random.Random) -> dict[str, Any] | None:
    """A full state the seat cannot tell from the true one, what it cannot see dealt with ``rng``
    (None where the seat has no decision to search)."""
    if view["phase"] == "over" or "private" not in view:
        return None
    priv = view["private"]
    wizard = seat == 0
    if not wizard and view["phase"] != "heroes":
        return None  # a hero decides only in the heroes' turn
    bag = _room_bag(view)
    if bag is None:
        return None
    vaults = _key_vaults(view, wizard, rng)
    if vaults is None:
        return None
    rng.shuffle(bag)
    board = _tiles(view, vaults, bag, wizard, rng)
    if board is None:
        return None
    tiles, tokens = board
    unused = bag  # the rooms left in the box (the tower's and the vaults' own rooms among them)
    people = _heroes_and_loot(view, seat, wizard, tiles, rng)
    if people is None:
        return None
    heroes, loot = people
    wiz = _wizard_cards(view, wizard, rng)
    if wiz is None:
        return None
    state: dict[str, Any] = {
        "names": list(view["names"]), "rng": rng.getrandbits(64), "options": dict(view["options"]),
        "n": view["n"], "size": view["size"], "phase": view["phase"], "round": view["round"],
        "round_limit": view["round_limit"],
        "tower": view["tower"], "entrance": view["entrance"], "tower_open": view["tower_open"],
        "keys_found": view["keys_found"], "keys_taken": view["keys_taken"], "keys_hidden": view["keys_hidden"],
        "keys_used": 3 if view["tower_open"] else 0, "tokens": tokens, "next_token": len(tokens) + 1,
        "commits": {}, "pending": copy.deepcopy(priv["pending"]) if wizard else None,
        "winner": view["winner"], "end_reason": view["end_reason"], "end": "", "held": {"w": [], "l": []},
        "tiles": tiles, "heroes": heroes, "unused_tiles": unused, "wcards": list(cards.WIZARD_DECK),
        "lcards": list(cards.LOOT_DECK), "wizard": wiz, "loot": loot, "recent": list(view["recent"]),
    }
    if not wizard:
        _commit_others(engine, state, view, seat, priv, rng)
    return state


def _commit_others(engine, state: dict[str, Any], view: dict[str, Any], seat: int, priv: dict[str, Any],
                   rng: random.Random) -> None:
    """The other heroes' secret moves: what the heuristic bot would commit in their place (its
    free actions before committing are tried on a copy only: they are not seen, so not assumed)."""
    if priv.get("commit") is not None:
        state["commits"][str(seat)] = copy.deepcopy(priv["commit"])
    for h in view["heroes"]:
        s = h["seat"]
        if s == seat or not h["committed"]:
            continue
        scratch = copy.deepcopy(state)
        scratch["commits"] = {}
        move: dict[str, Any] = {"type": "stay"}
        for _ in range(FREE_LIMIT + 2):  # its free actions, where to, which way
            action = engine.bot_action(scratch, s, rng)
            if action["type"] in _COMMITS:
                move = action
                break
            engine.apply(scratch, s, action)
        state["commits"][str(s)] = move


# Logistic weights for the heroes' chance of winning over ``features``, fit on 34,057 moments of 1,500
# seeded bot games (3-5 players; half of them with the keys hidden at random; ``python -m tools.fit_rage``):
# held-out log-loss 0.539, against 0.548 for the weights before the keys' way to the door and 0.693 for a coin.
_WEIGHTS = (1.236, 0.835, 0.641, 0.27, -5.744, -1.46, -0.219, -0.247, 2.394, 2.109, 0.582, 0.551, -0.181, -0.863,
            -0.072, 1.03, -2.352, -0.355, -1.868, -0.997)
_BIAS = 2.134
FEATURES = ("keys taken", "tower open", "heroes alive", "hit points", "rounds gone", "Mana Wheel",
            "face-down tokens", "face-up monsters", "attack", "vaults found", "keys held", "keys guarded",
            "keys dropped", "wizard's hand", "weakest hero", "keys held late", "keys held far from the door",
            "heroes far from the keys", "keys far from the door", "keys far apart")


def features(engine, state: dict[str, Any]) -> tuple[float, ...]:
    """What the heroes' chance is judged on, each scaled to about 0-1 (names in ``FEATURES``): keys
    taken, held, guarded on a vault or dropped, the tower door, the heroes' numbers, hit points and
    gear, the rounds gone, the Mana Wheel, the wizard's hand, the monsters and tokens on the board,
    how far the key holders are from the door, and how far the keys not held are from the heroes, from
    the door and from each other (where the wizard hid them: the way the heroes must carry them)."""
    n, size = state["n"], state["size"]
    heroes = state["heroes"]
    living = [s for s in range(1, n) if heroes[s]["alive"]]
    where = [divmod(heroes[s]["pos"], size) for s in living]
    door = engine.entrance_tile(state)
    if door is not None and where:
        dr, dc = divmod(door, size)
        dist = sum(abs(r - dr) + abs(c - dc) for r, c in where) / len(where) / size
    else:
        dist = 1.0
    tokens = state["tokens"].values()
    tiles = state["tiles"]
    held = sum(heroes[s]["keys"] for s in living) / 3
    rounds = state["round"] / state["round_limit"]
    keys_left = [divmod(i, size) for i, t in enumerate(tiles) if not t["removed"] and (t["key"] or t["drop"]["keys"])]
    far = sum(min((abs(r - a) + abs(c - b) for a, b in where), default=size) for r, c in keys_left) / (3 * size)
    if door is not None:  # before the door is placed (the wizard's first two decisions) the tower stands in
        dr, dc = divmod(door, size)
    else:
        dr, dc = divmod(state["tower"] if state["tower"] is not None else size * size // 2, size)
    to_door = sum(abs(r - dr) + abs(c - dc) for r, c in keys_left) / (3 * size)
    apart = sum(abs(r1 - r2) + abs(c1 - c2) for (r1, c1), (r2, c2) in itertools.combinations(keys_left, 2)) / (3 * size)
    return (state["keys_taken"] / 3, 1.0 if state["tower_open"] else 0.0, len(living) / (n - 1),
            sum(heroes[s]["hp"] for s in living) / (10 * (n - 1)), rounds, state["wizard"]["mana"] / 8,
            sum(1 for t in tokens if not t["up"]) / 10,
            sum(t["level"] * t.get("count", 1) for t in tokens if t["up"] and t["kind"] == "monster") / 10,
            sum(engine.attack(state, s) for s in living) / (n - 1) / 10, state["keys_found"] / 3, held,
            sum(1 for t in tiles if t["key"] and t["up"] and not t["removed"]) / 3,
            sum(t["drop"]["keys"] for t in tiles if not t["removed"]) / 3, len(state["wizard"]["hand"]) / 6,
            min((heroes[s]["hp"] for s in living), default=0) / 10, rounds * held, dist * held, far, to_door, apart)


def evaluate(engine, state: dict[str, Any], seat: int) -> float:
    """A playout cut short: the heroes' chance of winning, a logistic fit over ``features`` on
    normal-bot games; the wizard's chance is the rest."""
    from bot.search.logistic import chance
    heroes_win = chance(_BIAS, _WEIGHTS, features(engine, state))
    return 1 - heroes_win if seat == 0 else heroes_win
