"""Wizard's Rage: board geometry and the small lookups every phase shares (tiles, tokens, cards, heroes),
and what hurts a hero down here (saving throws, damage, the wizard's win when the last hero falls)."""
from __future__ import annotations

from collections import deque
from typing import Any

from bot.engine import plays_rulebook
from bot.rng import Rng

from . import cards
from .constants import DIRS, SCOUT_RANGE, TRAP_DAMAGE, TRAP_SAVE

_GRIDS: dict[int, list[tuple[int, ...]]] = {}


def grid_neighbours(size: int) -> list[tuple[int, ...]]:
    """Each square's orthogonal neighbours on a ``size`` x ``size`` grid, in N, E, S, W order (computed once a size)."""
    table = _GRIDS.get(size)
    if table is None:
        table = []
        for i in range(size * size):
            r, c = divmod(i, size)
            table.append(tuple((r + dr) * size + c + dc for dr, dc in (DIRS[d] for d in "NESW")
                               if 0 <= r + dr < size and 0 <= c + dc < size))
        _GRIDS[size] = table
    return table


# Geometry of the grid and read-only helpers over the JSON state.


def row_col(state: dict, i: int) -> tuple[int, int]:
    """The (row, column) of tile ``i``."""
    return divmod(i, state["size"])


def label(state: dict, i: int) -> str:
    """Tile ``i``'s name on the board: column letter, row number ("B3")."""
    r, c = divmod(i, state["size"])
    return f"{chr(65 + c)}{r + 1}"


def _step(state: dict, i: int, d: str) -> int | None:
    size = state["size"]
    r, c = divmod(i, size)
    dr, dc = DIRS[d]
    r, c = r + dr, c + dc
    if 0 <= r < size and 0 <= c < size:
        return r * size + c
    return None


def adjacent(state: dict, i: int) -> list[int]:
    """Orthogonal neighbours that still exist (the tower included)."""
    tiles = state["tiles"]
    return [j for j in grid_neighbours(state["size"])[i] if not tiles[j]["removed"]]


def entrance_tile(state: dict) -> int | None:
    """The tile in front of the tower's door (None before the tower and its door are placed)."""
    if state["tower"] is None or state["entrance"] is None:
        return None
    return _step(state, state["tower"], state["entrance"])


def door(state: dict) -> int:
    """The tile in front of the tower's door, once the opening has placed both (every phase after it)."""
    tile = entrance_tile(state)
    assert tile is not None, "the tower and its door are placed in the opening"
    return tile


def ring(state: dict) -> set[int]:
    """The eight tiles around the tower."""
    size = state["size"]
    tr, tc = divmod(state["tower"], size)
    return {(tr + dr) * size + tc + dc for dr in (-1, 0, 1) for dc in (-1, 0, 1) if dr or dc}


def component(state: dict, start: int, without: int | None = None) -> set[int]:
    """Tiles reachable from ``start`` over existing non-tower tiles (``without`` treated as removed)."""
    return set(distances(state, start, without))


def distances(state: dict, start: int, without: int | None = None) -> dict[int, int]:
    """Steps from ``start`` to each tile reachable over existing non-tower tiles (``without`` as removed)."""
    tiles = state["tiles"]
    tower = state["tower"]
    around = grid_neighbours(state["size"])
    dist = {start: 0}
    queue = deque([start])
    while queue:
        i = queue.popleft()
        for j in around[i]:
            if j in dist or j == tower or j == without or tiles[j]["removed"]:
                continue
            dist[j] = dist[i] + 1
            queue.append(j)
    return dist


def cut_tiles(state: dict, start: int) -> set[int]:
    """The tiles of ``start``'s component (as ``distances`` walks it) whose removal would split it:
    every other tile can go and leave the rest connected (Tarjan's articulation points)."""
    tiles = state["tiles"]
    tower = state["tower"]
    around = grid_neighbours(state["size"])

    def links(i: int) -> list[int]:
        return [j for j in around[i] if j != tower and not tiles[j]["removed"]]

    order = {start: 0}
    low = {start: 0}
    cuts: set[int] = set()
    root_children = 0
    stack = [(start, -1, iter(links(start)))]
    while stack:
        i, parent, rest = stack[-1]
        for j in rest:
            if j not in order:
                order[j] = low[j] = len(order)
                stack.append((j, i, iter(links(j))))
                break
            if j != parent:
                low[i] = min(low[i], order[j])
        else:
            stack.pop()
            if parent == -1:
                continue
            low[parent] = min(low[parent], low[i])
            if parent == start:
                root_children += 1
            elif low[i] >= order[parent]:
                cuts.add(parent)
    if root_children > 1:
        cuts.add(start)
    return cuts


# ------------------------------------------------------------------ helpers
def rulebook(state: dict) -> bool:
    """Whether the table plays the printed rules (``rules: rulebook``) rather than the tuned ones."""
    return plays_rulebook(state.get("options"))


def damage_of(state: dict, token: dict) -> int:
    """What each monster of a token hits for when the monsters win: 1 by the rulebook ("take 1 damage
    for each monster in the room"); tuned, the big monsters hit harder (the card's ``damage``)."""
    return 1 if rulebook(state) else token.get("damage", 1)


def seats_to_act(state: dict) -> list[int]:
    """The wizard alone, except in the heroes' phase: every living hero who hasn't committed a move yet."""
    phase = state["phase"]
    if phase == "over":
        return []
    if phase == "heroes":
        return [s for s in living(state) if str(s) not in state["commits"]]
    return [0]


def living(state: dict) -> list[int]:
    """The seats of the heroes still alive."""
    return [s for s in range(1, state["n"]) if state["heroes"][s]["alive"]]


def heroes_on(state: dict, i: int) -> list[int]:
    """The living heroes standing on tile ``i``."""
    return [s for s in living(state) if state["heroes"][s]["pos"] == i]


def wizard_card(state: dict, cid: int) -> dict:
    """The printed wizard card behind the card id ``cid``."""
    return cards.WIZARD_DEFS[state["wcards"][cid]]


def loot_card(state: dict, cid: int) -> dict:
    """The printed loot card behind the card id ``cid``."""
    return cards.LOOT_DEFS[state["lcards"][cid]]


def room_tile(state: dict, i: int) -> dict:
    """The printed room of tile ``i`` (its name, card draw and mana values)."""
    return cards.TILE_DEFS[state["tiles"][i]["id"]]


def token(state: dict, tid: int) -> dict:
    """The token with id ``tid`` (monster, trap or decoy; face up or down)."""
    return state["tokens"][str(tid)]


def face_up_monsters(state: dict, i: int) -> list[int]:
    """The face-up monster tokens on tile ``i``: the heroes there must fight them."""
    return [tid for tid in state["tiles"][i]["tokens"] if token(state, tid)["up"]
            and token(state, tid)["kind"] == "monster"]


def monster_power(state: dict, mons: list[int]) -> tuple[int, int]:
    """(total level, damage on a win) of monster tokens: a gang token counts each of its monsters."""
    toks = [token(state, m) for m in mons]
    return (sum(token["level"] * token.get("count", 1) for token in toks),
            sum(damage_of(state, token) * token.get("count", 1) for token in toks))


def hidden_tokens(state: dict, i: int) -> list[int]:
    """The face-down tokens on tile ``i``: they flip when a hero enters."""
    return [tid for tid in state["tiles"][i]["tokens"] if not token(state, tid)["up"]]


def attack(state: dict, seat: int) -> int:
    """A hero's combat bonus: their equipment's attack plus a Strength Draught's boost."""
    hero = state["heroes"][seat]
    return sum(loot_card(state, c)["attack"] for c in hero["equip"]) + hero["strength"]


def _saving_throw(state: dict, seat: int, rng: Rng, cause: str, safe: str, hurt: str) -> list[dict]:
    """A hero's save against a trap or a fireball: d20 + their save bonus, TRAP_SAVE or more is safe, less
    costs TRAP_DAMAGE. The event reads ``{cause}{name} rolls {roll}+{bonus}`` and then ``safe`` or ``hurt``."""
    roll, bonus = rng.die(20), save_bonus(state, seat)
    said = f"{cause}{state['names'][seat]} rolls {roll}+{bonus}"
    if roll + bonus >= TRAP_SAVE:
        return [_event("save", said + safe)]
    return [_event("save", said + hurt), *_damage(state, seat, TRAP_DAMAGE)]


def save_bonus(state: dict, seat: int) -> int:
    """What a hero adds to a saving throw: their equipment's save values."""
    hero = state["heroes"][seat]
    return sum(loot_card(state, c)["save"] for c in hero["equip"])


def slot_count(state: dict, seat: int, slot: str) -> int:
    """How many items a hero has equipped in ``slot``."""
    return sum(1 for c in state["heroes"][seat]["equip"] if loot_card(state, c)["slot"] == slot)


def mana_left(state: dict) -> int:
    """The mana the wizard may still spend this turn."""
    wizard = state["wizard"]
    return wizard["mana"] - wizard["spent"]


def tile_capacity(state: dict) -> int:
    """The most tokens a tile may hold: the number of players."""
    return state["n"]


def counted_tokens(state: dict, i: int) -> int:
    """The tokens on tile ``i`` that count towards its limit: all of them by the rulebook ("a maximum number of
    tokens on a single tile"); tuned, the monsters and traps only (the decoys gather where the real tokens go,
    and counted they would crowd the real monsters off the keys)."""
    ids = state["tiles"][i]["tokens"]
    if rulebook(state):
        return len(ids)
    tokens = state["tokens"]
    return sum(1 for tid in ids if tokens[str(tid)]["kind"] != "blank")


def can_place(state: dict, i: int, trap_card: bool) -> bool:
    """Whether a token may go on tile ``i``: not removed or full, no hero; the tower after the keys, no trap."""
    tile = state["tiles"][i]
    if tile["removed"] or counted_tokens(state, i) >= tile_capacity(state) or heroes_on(state, i):
        return False
    if i == state["tower"]:
        return state["keys_found"] and not trap_card
    return True


def placeable(state: dict, trap_card: bool) -> list[int]:
    """Every tile where ``can_place`` allows a token, in board order (the heroes' squares looked up once)."""
    cap = tile_capacity(state)
    heroes = state["heroes"]
    occupied = {heroes[s]["pos"] for s in range(1, state["n"]) if heroes[s]["alive"]}
    tower = state["tower"]
    tower_ok = bool(state["keys_found"]) and not trap_card
    return [i for i, tile in enumerate(state["tiles"])
            if not tile["removed"] and i not in occupied and (i != tower or tower_ok)
            and counted_tokens(state, i) < cap]


def keys_on_tile(state: dict, i: int) -> int:
    """The keys carried by the heroes on tile ``i`` (three open the tower's door)."""
    return sum(state["heroes"][s]["keys"] for s in heroes_on(state, i))


def _event(typ: str, text: str, to: int | None = None) -> dict:
    e: dict[str, Any] = {"type": typ, "text": text}
    if to is not None:
        e["to"] = to
    return e


def _note_held(state: dict, side: str, key: str) -> None:
    """Card keys that reached a hand this game (for the balance report's "available")."""
    held = state.setdefault("held", {"w": [], "l": []})[side]
    if key not in held:
        held.append(key)


def _new_token(state: dict, i: int, token: dict) -> int:
    tid = state["next_token"]
    state["next_token"] += 1
    state["tokens"][str(tid)] = token
    state["tiles"][i]["tokens"].append(tid)
    return tid


def hero_distance(state: dict, i: int) -> int:
    """Steps (Manhattan, public geometry) from tile i to the nearest living hero."""
    r0, c0 = row_col(state, i)
    return min((abs(r0 - r) + abs(c0 - c) for r, c in (row_col(state, state["heroes"][s]["pos"])
                                                      for s in living(state))), default=0)


def _token_name(state: dict, tid: int) -> str:
    tok = token(state, tid)
    if tok["kind"] == "blank":
        return "a decoy"
    if tok["kind"] == "trap":
        return "a trap"
    if tok.get("count", 1) > 1:
        return f"{_monster_name(tok)} ({tok['count']} x level {tok['level']})"
    return f"{_monster_name(tok)} (level {tok['level']})"


def _monster_name(t: dict) -> str:
    if t["card"] == "ambush":
        return "Ambusher"
    return cards.WIZARD_DEFS[t["card"]]["name"]


def stuck(state: dict, seat: int) -> bool:
    """Whether a hero stands on a tile with tokens (monsters hold them: they must fight)."""
    hero = state["heroes"][seat]
    return bool(state["tiles"][hero["pos"]]["tokens"])


def scout_range(state: dict) -> int:
    """How far a revealed room senses key vaults: tuned only (a new rule; 0 under the rulebook)."""
    return 0 if rulebook(state) else SCOUT_RANGE[state["n"]]


def _damage(state: dict, seat: int, amount: int) -> list[dict]:
    hero = state["heroes"][seat]
    if not hero["alive"]:
        return []
    hero["hp"] -= amount
    if hero["hp"] > 0:
        return []
    hero["hp"] = 0
    hero["alive"] = False
    tile = state["tiles"][hero["pos"]]
    dropped = len(hero["hand"]) + len(hero["equip"])
    tile["drop"]["cards"].extend(hero["hand"] + hero["equip"])
    tile["drop"]["keys"] += hero["keys"]
    keys = hero["keys"]
    hero["hand"], hero["equip"], hero["keys"] = [], [], 0
    hero["frozen"] = False
    text = f"{state['names'][seat]} falls on {label(state, hero['pos'])}"
    if dropped or keys:
        text += f", dropping {dropped} card{'s' if dropped != 1 else ''}"
        if keys:
            text += f" and {keys} key{'s' if keys != 1 else ''}"
    return [_event("death", text + ".")]


def _check_wizard_win(state: dict) -> list[dict]:
    if state["phase"] != "over" and not living(state):
        state["phase"] = "over"
        state["winner"] = "wizard"
        state["end"] = "all heroes dead"
        state["end_reason"] = "Every hero has fallen: the wizard wins!"
        state["pending"] = None
        wizard = state["wizard"]
        if wizard["pending_card"] is not None:
            wizard["discard"].append(wizard["pending_card"])
            wizard["pending_card"] = None
        return [_event("win", state["end_reason"])]
    return []
