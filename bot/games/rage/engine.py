"""Wizard's Rage: one wizard (seat 0) against 2-4 heroes (seats 1..4).

State layout (plain JSON):
  tiles[i]      one dict per grid square i = row * size + col (see _new_tile)
  tokens        {"<id>": {"kind": monster|trap|blank, "up": bool, "card": key, "level": int, "count": int}}
                (a monster token is the card's whole gang: ``count`` monsters of ``level``, ``damage`` each)
  wcards/lcards card id -> card key, for the wizard deck and the loot deck
  wizard        deck / hand / discard (wizard card ids), mana (the wheel), spent (this turn)
  loot          deck / discard (loot card ids)
  heroes[seat]  None for the wizard seat; else pos, hp, alive, hand, equip, keys, ...
  commits       {"<seat>": action} hidden simultaneous hero moves
  pending       the wizard's open multi-step decision (placing tokens, spell target, rage)
"""
from __future__ import annotations

import itertools
import random
from collections import deque
from typing import Any

from bot.engine import Engine, GameMeta, Option, RuleError
from bot.rng import Rng

from . import cards as C

DIRS = {"N": (-1, 0), "E": (0, 1), "S": (1, 0), "W": (0, -1)}
DIR_NAMES = {"N": "north", "E": "east", "S": "south", "W": "west"}
GRID = {3: 5, 4: 6, 5: 7}
AUTO_ROUNDS = {3: 16, 4: 16, 5: 15}
HERO_HP = 10
TRAP_SAVE = 10
TRAP_DAMAGE = 2
FREE_LIMIT = 8  # free actions (potions, gifts, equipping) per hero per hero phase
AMBUSH_LEVEL = 3
SCOUT_RANGE = {3: 2, 4: 2, 5: 2}  # scouting: a revealed room senses how many key vaults lie this many steps away
START_MANA_BONUS = {3: 0, 4: 1, 5: 1}  # against 3-4 heroes the Mana Wheel starts one higher (balance report)
SPRINT_STEPS = 3  # a Sprint card runs up to this many tiles

SUMMARY = """**Wizard's Rage** - the first seat (seat 0) is the **Wizard**, everyone else is a **hero** (10 hit points, starting in a corner camp).
The board is a face-down grid (5x5 / 6x6 / 7x7 for 3 / 4 / 5 players) with the wizard's tower in the centre. The wizard secretly hid **3 key tiles**.

**Round** = the wizard's turn, then all heroes move at once.
**Wizard turn:** (after the keys are all found: the *rage* - pick a tile; it and the safe tiles nearest it crumble, as many as there are players) draw 1 card (+1 if the Mana Wheel is at its maximum 8), then play cards with mana up to the wheel's value; the turn ends when you end it or nothing is playable. A monster or trap card is one decision: pick the tile for its real token; its blank decoys land on random tiles just as far from the nearest hero, and everyone sees only the set of tiles (max tokens per tile = number of players; never on a hero's tile; the tower only after all keys were found). Ley Tap, Dark Surge and Scrying Pool act when drawn. Hand limit 6.
**Heroes:** before committing you may drink potions, equip, or give cards/keys to heroes on your tile (even when frozen). Then commit a move: 1 tile, stay, quick march (2 tiles over a token-free first room, 3 over known safe rooms) or Sprint (a card: 2-3 tiles through anything, even when frozen). Moves are secret until everyone has committed.
- Entering a face-down tile flips it: its card-draw and mana values apply to the wizard. **Scouting:** the room shows how many key vaults lie within 2 steps.
- Tokens on your tile flip: decoys vanish; **traps**: d20 + save bonus 10+ or take 2 damage; **monsters** fight.
- An empty room you enter for the first time gives 1 loot card.
- **Combat:** wizard rolls d20 + all monster levels; heroes roll d20 each, keep the best, add all their equipment. Ties go to the heroes. Win: monsters removed, 1 loot (2 on the room's first victory). Lose: step back and take each monster's damage (1 for small ones, 2-3 for big ones).
- Standing on tokens at the start of your turn (Ambush!) means you can't move: you fight where you are.
- Equipment: 2 swords, 1 boots, 1 shield. A dead hero drops everything on the tile, for the next hero standing there.
**Keys:** taken from an empty (or cleared) key tile. Heroes on the tile north/east/south/west of the tower that the entrance faces, holding all 3 keys between them, may enter the tower (the keys are used; it stays open). Beat the tower's monsters (or find none) and the heroes win.
The wizard wins when every hero is dead - or when the round limit runs out."""


def _new_tile(key: str | None) -> dict:
    return {"id": key, "up": False, "removed": False, "tokens": [], "searched": False,
            "conquered": False, "key": False, "key_tile": False, "camp": False,
            "drop": {"cards": [], "keys": 0}}


class RageEngine(Engine):
    meta = GameMeta(
        key="rage",
        name="Wizard's Rage",
        min_players=3,
        max_players=5,
        blurb="One wizard against 2-4 heroes: find three keys, storm the tower before the world crumbles.",
        summary=SUMMARY,
        options=(
            Option("lone_hero", "Last-hero boost", False,
                   "When only one hero is alive, that hero rolls two d20 in combat and adds them (playtest suggestion)."),
            Option("round_limit", "Round limit", 0,
                   "After this many rounds the world collapses and the wizard wins "
                   "(0 = automatic: 16 / 16 / 15 rounds for 3 / 4 / 5 players).", minimum=0, maximum=60),
        ),
        hidden_information=True,
        simultaneous=True,
        seat_roles=("Wizard", "Hero", "Hero", "Hero", "Hero"),
    )

    # ------------------------------------------------------------------ setup
    def setup(self, names: list[str], options: dict[str, Any], seed: int) -> dict:
        n = len(names)
        self.meta.check_players(n)
        opts = self.meta.resolve_options(options)
        size = GRID[n]
        state: dict[str, Any] = {
            "names": list(names), "rng": Rng.seed_state(seed), "options": opts, "n": n, "size": size,
            "phase": "tower", "round": 0, "round_limit": opts["round_limit"] or AUTO_ROUNDS[n], "tower": None, "entrance": None, "tower_open": False,
            "keys_found": False, "keys_taken": 0, "keys_hidden": 0, "keys_used": 0,
            "tokens": {}, "next_token": 1, "commits": {}, "pending": None,
            "winner": None, "end_reason": "", "end": "", "held": {"w": [], "l": []},
        }
        rng = Rng(state)
        tiles = [_new_tile(None) for _ in range(size * size)]
        state["tiles"] = tiles
        corners = [0, size * size - 1, size - 1, size * (size - 1)]
        heroes: list[Any] = [None]
        for seat in range(1, n):
            pos = corners[seat - 1]
            t = tiles[pos]
            t.update(id=C.CAMP_KEY, up=True, camp=True, searched=True)
            heroes.append({"pos": pos, "prev": pos, "hp": HERO_HP, "alive": True, "hand": [], "equip": [],
                           "keys": 0, "frozen": False, "thawed": False, "strength": 0, "ward": False, "free": 0})
        state["heroes"] = heroes
        bag = list(C.TILE_BAG)
        rng.shuffle(bag)
        for i, t in enumerate(tiles):
            if t["id"] is None:
                t["id"] = bag.pop()
        state["unused_tiles"] = bag  # room tiles not on this smaller grid
        wdeck = list(C.WIZARD_DECK)
        state["wcards"] = wdeck
        ids = list(range(len(wdeck)))
        rng.shuffle(ids)
        ldeck = list(C.LOOT_DECK)
        state["lcards"] = ldeck
        lids = list(range(len(ldeck)))
        rng.shuffle(lids)
        state["wizard"] = {"deck": ids, "hand": [], "discard": [], "opening": [],
                           "mana": C.MANA_START + START_MANA_BONUS[n],
                           "spent": 0, "pending_card": None}
        state["loot"] = {"deck": lids, "discard": []}
        # The wizard's opening draw (5, keep 3) is drawn now and chosen after the keys are hidden.
        w = state["wizard"]
        w["opening"] = [w["deck"].pop() for _ in range(5)]
        if size % 2 == 1:
            self._place_tower(state, (size // 2) * size + size // 2)
            state["phase"] = "entrance"
        return state

    def _place_tower(self, state: dict, idx: int) -> None:
        t = state["tiles"][idx]
        state["unused_tiles"].append(t["id"])
        t.update(id=C.TOWER_KEY, up=True, searched=True)
        state["tower"] = idx

    # ------------------------------------------------------------------ geometry
    def rc(self, state: dict, i: int) -> tuple[int, int]:
        return divmod(i, state["size"])

    def label(self, state: dict, i: int) -> str:
        r, c = divmod(i, state["size"])
        return f"{chr(65 + c)}{r + 1}"

    def _step(self, state: dict, i: int, d: str) -> int | None:
        size = state["size"]
        r, c = divmod(i, size)
        dr, dc = DIRS[d]
        r, c = r + dr, c + dc
        if 0 <= r < size and 0 <= c < size:
            return r * size + c
        return None

    def adjacent(self, state: dict, i: int) -> list[int]:
        """Orthogonal neighbours that still exist (the tower included)."""
        out = []
        for d in "NESW":
            j = self._step(state, i, d)
            if j is not None and not state["tiles"][j]["removed"]:
                out.append(j)
        return out

    def entrance_tile(self, state: dict) -> int | None:
        if state["tower"] is None or state["entrance"] is None:
            return None
        return self._step(state, state["tower"], state["entrance"])

    def ring(self, state: dict) -> set[int]:
        size = state["size"]
        tr, tc = divmod(state["tower"], size)
        return {(tr + dr) * size + tc + dc for dr in (-1, 0, 1) for dc in (-1, 0, 1) if dr or dc}

    def component(self, state: dict, start: int, without: int | None = None) -> set[int]:
        """Tiles reachable from ``start`` over existing non-tower tiles (``without`` treated as removed)."""
        return set(self.distances(state, start, without))

    def distances(self, state: dict, start: int, without: int | None = None) -> dict[int, int]:
        tiles = state["tiles"]
        tower = state["tower"]
        dist = {start: 0}
        queue = deque([start])
        while queue:
            i = queue.popleft()
            for d in "NESW":
                j = self._step(state, i, d)
                if j is None or j in dist or j == tower or j == without or tiles[j]["removed"]:
                    continue
                dist[j] = dist[i] + 1
                queue.append(j)
        return dist

    # ------------------------------------------------------------------ helpers
    def living(self, state: dict) -> list[int]:
        return [s for s in range(1, state["n"]) if state["heroes"][s]["alive"]]

    def heroes_on(self, state: dict, i: int) -> list[int]:
        return [s for s in self.living(state) if state["heroes"][s]["pos"] == i]

    def wdef(self, state: dict, cid: int) -> dict:
        return C.WIZARD_DEFS[state["wcards"][cid]]

    def ldef(self, state: dict, cid: int) -> dict:
        return C.LOOT_DEFS[state["lcards"][cid]]

    def tdef(self, state: dict, i: int) -> dict:
        return C.TILE_DEFS[state["tiles"][i]["id"]]

    def tok(self, state: dict, tid: int) -> dict:
        return state["tokens"][str(tid)]

    def face_up_monsters(self, state: dict, i: int) -> list[int]:
        return [tid for tid in state["tiles"][i]["tokens"] if self.tok(state, tid)["up"]
                and self.tok(state, tid)["kind"] == "monster"]

    def monster_power(self, state: dict, mons: list[int]) -> tuple[int, int]:
        """(total level, damage on a win) of monster tokens: a gang token counts each of its monsters."""
        toks = [self.tok(state, m) for m in mons]
        return (sum(t["level"] * t.get("count", 1) for t in toks),
                sum(t.get("damage", 1) * t.get("count", 1) for t in toks))

    def hidden_tokens(self, state: dict, i: int) -> list[int]:
        return [tid for tid in state["tiles"][i]["tokens"] if not self.tok(state, tid)["up"]]

    def attack(self, state: dict, seat: int) -> int:
        h = state["heroes"][seat]
        return sum(self.ldef(state, c)["attack"] for c in h["equip"]) + h["strength"]

    def _save(self, state: dict, seat: int, rng: Rng) -> tuple[int, int, bool]:
        """A save against a trap or a blast: d20 + the hero's save bonus, TRAP_SAVE or more is safe."""
        roll, bonus = rng.die(20), self.save_bonus(state, seat)
        return roll, bonus, roll + bonus >= TRAP_SAVE

    def save_bonus(self, state: dict, seat: int) -> int:
        h = state["heroes"][seat]
        return sum(self.ldef(state, c)["save"] for c in h["equip"])

    def slot_count(self, state: dict, seat: int, slot: str) -> int:
        return sum(1 for c in state["heroes"][seat]["equip"] if self.ldef(state, c)["slot"] == slot)

    def mana_left(self, state: dict) -> int:
        w = state["wizard"]
        return w["mana"] - w["spent"]

    def cap(self, state: dict) -> int:
        return state["n"]

    def can_place(self, state: dict, i: int, trap_card: bool) -> bool:
        t = state["tiles"][i]
        if t["removed"] or len(t["tokens"]) >= self.cap(state) or self.heroes_on(state, i):
            return False
        if i == state["tower"]:
            return state["keys_found"] and not trap_card
        return True

    def keys_on_tile(self, state: dict, i: int) -> int:
        return sum(state["heroes"][s]["keys"] for s in self.heroes_on(state, i))

    # ------------------------------------------------------------------ contract
    def to_act(self, state: dict) -> list[int]:
        phase = state["phase"]
        if phase == "over":
            return []
        if phase == "heroes":
            return [s for s in self.living(state) if str(s) not in state["commits"]]
        return [0]

    def is_terminal(self, state: dict) -> bool:
        return state["phase"] == "over"

    def legal_actions(self, state: dict, seat: int) -> list[dict]:
        if seat not in self.to_act(state):
            return []
        phase = state["phase"]
        if phase == "tower":
            size = state["size"]
            h = size // 2
            return [{"type": "tower", "tile": r * size + c} for r in (h - 1, h) for c in (h - 1, h)]
        if phase == "entrance":
            return [{"type": "entrance", "dir": d} for d in "NESW"]
        if phase == "keys":
            return [{"type": "hide_key", "tile": i} for i, t in enumerate(state["tiles"])
                    if i != state["tower"] and not t["camp"] and not t["key_tile"]]
        if phase == "keep":
            return self._keep_options(state)
        if phase == "wizard":
            return self._wizard_actions(state)
        if phase == "heroes":
            return self._hero_actions(state, seat)
        return []

    def _keep_options(self, state: dict) -> list[dict]:
        opening = state["wizard"]["opening"]
        seen = set()
        out = []
        for combo in itertools.combinations(sorted(opening), 3):
            sig = tuple(sorted(state["wcards"][c] for c in combo))
            if sig in seen:
                continue
            seen.add(sig)
            out.append({"type": "keep", "cards": list(combo)})
        return out

    # ------------------------------------------------------------------ wizard actions
    def _wizard_actions(self, state: dict) -> list[dict]:
        p = state["pending"]
        if p:
            kind = p["kind"]
            if kind == "rage":
                return [{"type": "remove", "tile": i} for i in self.safe_removals(state)]
            if kind == "place":
                return [{"type": "place", "tile": i} for i in range(len(state["tiles"]))
                        if self.can_place(state, i, p["trap"])]
            if kind == "target":
                return [{"type": "target", "tile": i} for i in self.spell_targets(state, p["effect"])]
            if kind == "turn_tower":
                return [{"type": "entrance", "dir": d} for d in "NESW" if d != state["entrance"]]
            return []
        w = state["wizard"]
        out = []
        seen = set()
        for cid in sorted(w["hand"]):
            key = state["wcards"][cid]
            if key in seen:
                continue
            seen.add(key)
            if self.playable(state, cid):
                out.append({"type": "play", "card": cid})
        if len(w["hand"]) > C.HAND_LIMIT:
            seen = set()
            for cid in sorted(w["hand"]):
                key = state["wcards"][cid]
                if key not in seen:
                    seen.add(key)
                    out.append({"type": "discard", "card": cid})
        else:
            out.append({"type": "end_turn"})
        return out

    def playable(self, state: dict, cid: int) -> bool:
        d = self.wdef(state, cid)
        if d["cost"] > self.mana_left(state):
            return False
        if d["kind"] in ("monster", "trap"):
            trap = d["kind"] == "trap"
            room = sum(self.cap(state) - len(t["tokens"]) for i, t in enumerate(state["tiles"])
                       if self.can_place(state, i, trap))
            return room >= 1 + d["decoys"]
        eff = d["effect"]
        if eff in ("frost", "fireball", "ambush"):
            return bool(self.spell_targets(state, eff))
        return True

    def spell_targets(self, state: dict, effect: str) -> list[int]:
        tiles = sorted({state["heroes"][s]["pos"] for s in self.living(state)})
        if effect == "ambush":  # never on the tower, never on a tile that already has tokens
            tiles = [i for i in tiles if i != state["tower"] and not state["tiles"][i]["tokens"]]
        if effect == "frost":  # a hero who just thawed can't be frozen again at once
            tiles = [i for i in tiles if any(not state["heroes"][s]["frozen"] and not state["heroes"][s]["thawed"]
                                             for s in self.heroes_on(state, i))]
        return tiles

    def safe_removals(self, state: dict) -> list[int]:
        """Tiles the rage may remove: not the tower or its ring, no hero or dropped items on it,
        and every living hero still reaches the tower entrance and every dropped key."""
        ent = self.entrance_tile(state)
        ring = self.ring(state)
        heroes = [state["heroes"][s]["pos"] for s in self.living(state)]
        key_drops = [i for i, t in enumerate(state["tiles"]) if t["drop"]["keys"] and not t["removed"]]
        out = []
        for i, t in enumerate(state["tiles"]):
            if t["removed"] or i == state["tower"] or i in ring or i in heroes:
                continue
            if t["drop"]["cards"] or t["drop"]["keys"]:
                continue
            comp = self.component(state, ent, without=i)
            if all(h in comp for h in heroes) and all(k in comp for k in key_drops):
                out.append(i)
        return out

    # ------------------------------------------------------------------ hero actions
    def stuck(self, state: dict, seat: int) -> bool:
        h = state["heroes"][seat]
        return bool(state["tiles"][h["pos"]]["tokens"])

    def move_targets(self, state: dict, seat: int) -> list[int]:
        h = state["heroes"][seat]
        out = []
        for j in self.adjacent(state, h["pos"]):
            if j == state["tower"]:
                if h["pos"] != self.entrance_tile(state):
                    continue
                if not state["tower_open"] and self.keys_on_tile(state, h["pos"]) < 3:
                    continue
            out.append(j)
        return out

    def sprint_paths(self, state: dict, seat: int) -> list[list[int]]:
        """A Sprint card: 2 or up to SPRINT_STEPS tiles through anything but a room with known monsters
        (the run may end on one) and the tower."""
        h = state["heroes"][seat]
        tower = state["tower"]
        paths: list[list[int]] = []

        def extend(path: list[int]) -> None:
            if len(path) >= 2:
                paths.append(list(path))
            if len(path) == SPRINT_STEPS or self.face_up_monsters(state, path[-1]):
                return
            for nxt in self.adjacent(state, path[-1]):
                if nxt != tower and nxt != h["pos"] and nxt not in path:
                    extend(path + [nxt])

        for a in self.adjacent(state, h["pos"]):
            if a != tower and not self.face_up_monsters(state, a):
                extend([a])
        return paths

    def march_paths(self, state: dict, seat: int) -> list[list[int]]:
        """Quick march: two steps when the first room has no tokens (face up or down); three steps
        when the first two rooms are both face up with no tokens (known safe ground)."""
        h = state["heroes"][seat]
        tower = state["tower"]
        paths = []
        for a in self.move_targets(state, seat):
            ta = state["tiles"][a]
            if a == tower or ta["tokens"]:
                continue
            for b in self.adjacent(state, a):
                if b == h["pos"] or b == tower:
                    continue
                paths.append([a, b])
                tb = state["tiles"][b]
                if not (ta["up"] and tb["up"]) or tb["tokens"]:
                    continue
                for c in self.adjacent(state, b):
                    if c not in (h["pos"], a, tower):
                        paths.append([a, b, c])
        return paths

    def _hero_actions(self, state: dict, seat: int) -> list[dict]:
        h = state["heroes"][seat]
        out: list[dict] = []
        stuck = self.stuck(state, seat)
        if h["frozen"]:  # no move; items still work ("consumables can be played at any time"): a Sprint breaks free
            out.append({"type": "stay"})
            if not stuck:
                out.extend(self._sprints(state, seat))
            return out + (self._free_actions(state, seat) if h["free"] < FREE_LIMIT else [])
        if not stuck:
            out.extend({"type": "move", "to": j} for j in self.move_targets(state, seat))
            out.extend({"type": "march", "path": p} for p in self.march_paths(state, seat))
        out.append({"type": "stay"})
        if not stuck:
            out.extend(self._sprints(state, seat))
        if h["free"] < FREE_LIMIT:
            out.extend(self._free_actions(state, seat))
        return out

    def _sprints(self, state: dict, seat: int) -> list[dict]:
        cid = next((c for c in sorted(state["heroes"][seat]["hand"]) if self.ldef(state, c)["kind"] == "consumable"
                    and self.ldef(state, c)["effect"] == "sprint"), None)
        if cid is None:
            return []
        return [{"type": "sprint", "card": cid, "path": p} for p in self.sprint_paths(state, seat)]

    def _free_actions(self, state: dict, seat: int) -> list[dict]:
        h = state["heroes"][seat]
        out: list[dict] = []
        mates = [s for s in self.heroes_on(state, h["pos"]) if s != seat]
        keys_seen: set[str] = set()
        for cid in sorted(h["hand"]):
            d = self.ldef(state, cid)
            key = d["key"]
            if key in keys_seen:
                continue
            keys_seen.add(key)
            if d["kind"] == "consumable":
                eff = d["effect"]
                if eff == "heal" and h["hp"] < HERO_HP:
                    out.append({"type": "use", "card": cid})
                elif eff == "heal_all" and any(state["heroes"][s]["hp"] < HERO_HP
                                               for s in self.heroes_on(state, h["pos"])):
                    out.append({"type": "use", "card": cid})
                elif eff == "strength" and h["strength"] == 0:
                    out.append({"type": "use", "card": cid})
                elif eff == "ward" and not h["ward"]:
                    out.append({"type": "use", "card": cid})
                elif eff == "banish":
                    for j in [h["pos"]] + self.adjacent(state, h["pos"]):
                        if j != state["tower"] and state["tiles"][j]["tokens"]:
                            out.append({"type": "banish", "card": cid, "tile": j})
            else:
                slot = d["slot"]
                if self.slot_count(state, seat, slot) < C.SLOTS[slot]:
                    out.append({"type": "equip", "card": cid})
                else:
                    for eid in h["equip"]:
                        if self.ldef(state, eid)["slot"] == slot:
                            out.append({"type": "equip", "card": cid, "replace": eid})
        for m in mates:
            for cid in sorted(h["hand"]):
                out.append({"type": "give", "card": cid, "to": m})
            if h["keys"]:
                out.append({"type": "give_key", "to": m})
        return out

    # ------------------------------------------------------------------ apply
    def _apply(self, state: dict, seat: int, action: dict) -> list[dict]:
        phase = state["phase"]
        ev: list[dict] = []
        if phase == "tower":
            self._place_tower(state, action["tile"])
            state["phase"] = "entrance"
            ev.append(self._e("setup", f"The wizard raises the tower on {self.label(state, action['tile'])}."))
        elif phase == "entrance":
            state["entrance"] = action["dir"]
            state["phase"] = "keys"
            ev.append(self._e("setup", f"The tower door faces {DIR_NAMES[action['dir']]} "
                                       f"({self.label(state, self.entrance_tile(state))})."))
        elif phase == "keys":
            i = action["tile"]
            t = state["tiles"][i]
            state["unused_tiles"].append(t["id"])
            t.update(id=C.VAULT_KEY, key_tile=True, key=True)
            state["keys_hidden"] += 1
            ev.append(self._e("setup", f"The heroes close their eyes: the wizard hides key {state['keys_hidden']}."))
            ev.append(self._e("setup", f"Key {state['keys_hidden']} is hidden on {self.label(state, i)}.", to=0))
            if state["keys_hidden"] == 3:
                state["phase"] = "keep"
        elif phase == "keep":
            w = state["wizard"]
            keep = action["cards"]
            back = [c for c in w["opening"] if c not in keep]
            w["hand"] = list(keep)
            for c in keep:
                self._note_held(state, "w", state["wcards"][c])
            w["deck"].extend(back)
            w["opening"] = []
            Rng(state).shuffle(w["deck"])
            ev.append(self._e("setup", "The wizard keeps 3 of 5 opening cards and shuffles 2 back."))
            ev.append(self._e("setup", "You keep " + ", ".join(self.wdef(state, c)["name"] for c in keep) + ".",
                              to=0))
            state["round"] = 1
            ev.extend(self._start_wizard_turn(state))
        elif phase == "wizard":
            ev.extend(self._apply_wizard(state, action))
        elif phase == "heroes":
            ev.extend(self._apply_hero(state, seat, action))
        p = state["pending"]
        if state["phase"] == "wizard" and p and p["kind"] == "target" and len(self._wizard_actions(state)) == 1:
            ev.extend(self._apply_wizard(state, self._wizard_actions(state)[0]))  # a spell with one possible target
        if state["phase"] == "wizard" and not state["pending"] and \
                self._wizard_actions(state) == [{"type": "end_turn"}]:
            # Nothing left to play or discard: the turn ends by itself (no empty decision for the wizard).
            ev.append(self._e("end", "The wizard ends the turn. Heroes, commit your moves!"))
            ev.extend(self._start_hero_phase(state))
        public = [e["text"] for e in ev if "to" not in e]
        if public:  # what just happened, for the board and its description
            state["recent"] = [t if len(t) <= 240 else t[:239] + "…" for t in public[-4:]]
        return ev

    @staticmethod
    def _e(typ: str, text: str, to: int | None = None) -> dict:
        e = {"type": typ, "text": text}
        if to is not None:
            e["to"] = to
        return e

    # ------------------------------------------------------------------ wizard turn
    def _start_wizard_turn(self, state: dict) -> list[dict]:
        state["phase"] = "wizard"
        state["wizard"]["spent"] = -state["wizard"].pop("bonus", 0)  # a Dark Surge drawn on the heroes' turn
        ev = [self._e("turn", f"Round {state['round']}: {state['names'][0]}, the wizard, takes a turn.")]
        if state["keys_found"]:
            left = state["n"]
            if self.safe_removals(state):
                state["pending"] = {"kind": "rage", "left": left}
                ev.append(self._e("rage", f"The wizard rages: the world shakes and {left} tiles will crumble."))
                return ev
            ev.append(self._e("rage", "The wizard rages, but no tile can crumble."))
        ev.extend(self._wizard_draw(state))
        return ev

    def _wizard_draw(self, state: dict) -> list[dict]:
        w = state["wizard"]
        k = 2 if w["mana"] >= C.MANA_MAX else 1
        ev: list[dict] = []
        drawn = self._draw_wizard(state, k, ev)
        extra = " (the Mana Wheel is full: +1)" if k == 2 else ""
        ev.insert(0, self._e("draw", f"The wizard draws {len(drawn)} card{'s' if len(drawn) != 1 else ''}{extra}."))
        if drawn:
            ev.append(self._e("draw", "You draw " + ", ".join(self.wdef(state, c)["name"] for c in drawn) + ".",
                              to=0))
        return ev

    def _draw_wizard(self, state: dict, k: int, ev: list[dict] | None = None) -> list[int]:
        """Draw k cards into the wizard's hand; returns those that stay there. An *instant* card (Ley
        Tap, Dark Surge) acts at once when drawn and is discarded -- its events go to ``ev``."""
        w = state["wizard"]
        drawn = []
        instants = []
        for _ in range(k):
            if not w["deck"]:
                if not w["discard"]:
                    break
                w["deck"] = w["discard"]
                w["discard"] = []
                Rng(state).shuffle(w["deck"])
            cid = w["deck"].pop()
            self._note_held(state, "w", state["wcards"][cid])
            if self.wdef(state, cid).get("instant") and ev is not None:
                w["discard"].append(cid)
                instants.append(cid)
                continue
            w["hand"].append(cid)
            drawn.append(cid)
        for cid in instants:
            ev.extend(self._instant(state, cid))
        return drawn

    def _instant(self, state: dict, cid: int) -> list[dict]:
        d = self.wdef(state, cid)
        w = state["wizard"]
        acted = state.setdefault("acted", [])
        if d["key"] not in acted:
            acted.append(d["key"])
        ev = [self._e("spell", f"The wizard draws **{d['name']}**, which acts at once: {d['text']}")]
        if d["effect"] == "wheel":
            ev.extend(self._spin(state, d["amount"]))
        elif d["effect"] == "surge":
            if state["phase"] == "wizard":
                w["spent"] -= d["amount"]
                ev.append(self._e("spell", f"The wizard has {self.mana_left(state)} mana left this turn."))
            else:
                w["bonus"] = w.get("bonus", 0) + d["amount"]
        elif d["effect"] == "scry":
            drawn = self._draw_wizard(state, d["amount"], ev)
            if drawn:
                ev.append(self._e("draw", "You draw " + ", ".join(self.wdef(state, c)["name"] for c in drawn) + ".",
                                  to=0))
        return ev

    @staticmethod
    def _note_held(state: dict, side: str, key: str) -> None:
        """Card keys that reached a hand this game (for the balance report's "available")."""
        held = state.setdefault("held", {"w": [], "l": []})[side]
        if key not in held:
            held.append(key)

    def _apply_wizard(self, state: dict, action: dict) -> list[dict]:
        typ = action["type"]
        w = state["wizard"]
        p = state["pending"]
        ev: list[dict] = []
        if typ == "remove":
            # One decision: the wizard picks where the world breaks; the crack spreads to the safe
            # tiles nearest to it (ties by the game's dice) until as many tiles as players are gone.
            i = action["tile"]
            ev.extend(self._remove_tile(state, i))
            rng = Rng(state)
            r0, c0 = self.rc(state, i)
            for _ in range(p["left"] - 1):
                safe = self.safe_removals(state)
                if not safe:
                    break
                dist = {j: abs(self.rc(state, j)[0] - r0) + abs(self.rc(state, j)[1] - c0) for j in safe}
                near = [j for j in safe if dist[j] == min(dist.values())]
                ev.extend(self._remove_tile(state, near[rng.below(len(near))]))
            state["pending"] = None
            ev.extend(self._wizard_draw(state))
            return ev
        if typ == "discard":
            cid = action["card"]
            w["hand"].remove(cid)
            w["discard"].append(cid)
            ev.append(self._e("discard", "The wizard discards a card down to the hand limit."))
            ev.append(self._e("discard", f"You discard {self.wdef(state, cid)['name']}.", to=0))
            return ev
        if typ == "end_turn":
            ev.append(self._e("end", "The wizard ends the turn. Heroes, commit your moves!"))
            ev.extend(self._start_hero_phase(state))
            return ev
        if typ == "play":
            cid = action["card"]
            d = self.wdef(state, cid)
            w["hand"].remove(cid)
            w["spent"] += d["cost"]
            w["pending_card"] = cid
            if d["kind"] in ("monster", "trap"):
                total = 1 + d["decoys"]
                state["pending"] = {"kind": "place", "trap": d["kind"] == "trap", "total": total}
                ev.append(self._e("play", f"The wizard plays a card ({d['cost']} mana): {total} face-down "
                                          "tokens will appear."))
                ev.append(self._e("play", f"You play {d['name']}: pick the tile for the {self._real_word(d)}; "
                                          f"its {d['decoys']} decoy{'s' if d['decoys'] != 1 else ''} land on "
                                          "random tiles just as far from the nearest hero.", to=0))
                return ev
            ev.append(self._e("spell", f"The wizard casts **{d['name']}** ({d['cost']} mana): {d['text']}"))
            eff = d["effect"]
            if eff in ("frost", "fireball", "ambush"):
                state["pending"] = {"kind": "target", "effect": eff}
                return ev
            if eff == "turn_tower":
                state["pending"] = {"kind": "turn_tower"}
                return ev
            if eff == "surge":
                w["spent"] -= d["amount"]
                ev.append(self._e("spell", f"The wizard has {self.mana_left(state)} mana left this turn."))
            elif eff == "wheel":
                ev.extend(self._spin(state, d["amount"]))
            elif eff == "scry":
                drawn = self._draw_wizard(state, d["amount"], ev)
                ev.append(self._e("draw", f"The wizard draws {len(drawn)} cards."))
                if drawn:
                    ev.append(self._e("draw", "You draw " + ", ".join(self.wdef(state, c)["name"] for c in drawn)
                                      + ".", to=0))
            self._finish_card(state)
            return ev
        if typ == "place":
            ev.extend(self._place_card(state, action["tile"]))
            self._finish_card(state)
            return ev
        if typ == "target":
            i = action["tile"]
            eff = p["effect"]
            ev.extend(self._cast(state, eff, i))
            self._finish_card(state)
            ev.extend(self._check_wizard_win(state))
            if state["phase"] != "over":
                ev.extend(self._settle_drops(state))
            return ev
        if typ == "entrance":
            state["entrance"] = action["dir"]
            ev.append(self._e("spell", f"The tower turns: its door now faces {DIR_NAMES[action['dir']]} "
                                       f"({self.label(state, self.entrance_tile(state))})."))
            self._finish_card(state)
            return ev
        raise RuleError("That move isn't allowed right now.")

    @staticmethod
    def _real_word(d: dict) -> str:
        if d["kind"] == "trap":
            return "trap"
        return "monsters" if d.get("monsters", 1) > 1 else "monster"

    def _new_token(self, state: dict, i: int, token: dict) -> int:
        tid = state["next_token"]
        state["next_token"] += 1
        state["tokens"][str(tid)] = token
        state["tiles"][i]["tokens"].append(tid)
        return tid

    def hero_distance(self, state: dict, i: int) -> int:
        """Steps (Manhattan, public geometry) from tile i to the nearest living hero."""
        r0, c0 = self.rc(state, i)
        return min((abs(r0 - r) + abs(c0 - c) for r, c in (self.rc(state, state["heroes"][s]["pos"])
                                                          for s in self.living(state))), default=0)

    def decoy_tiles(self, state: dict, real: int, count: int, trap: bool) -> list[int]:
        """Where a card's decoys go once the wizard put its real token on ``real``: random legal tiles
        (game RNG), each as far from the nearest hero as ``real`` is (else as close to that as possible),
        different tiles while there are enough. So the set of tiles says nothing about which one is real."""
        rng = Rng(state)
        want = self.hero_distance(state, real)
        room = {i: self.cap(state) - len(t["tokens"]) for i, t in enumerate(state["tiles"])
                if self.can_place(state, i, trap)}
        room[real] = room.get(real, 1) - 1
        out: list[int] = []
        for _ in range(count):
            cands = [i for i, r in room.items() if r > 0 and i != real and i not in out]
            if not cands:
                cands = [i for i, r in room.items() if r > 0]
            if not cands:
                break
            best = min(abs(self.hero_distance(state, i) - want) for i in cands)
            pool = [i for i in cands if abs(self.hero_distance(state, i) - want) == best]
            pick = pool[rng.below(len(pool))]
            room[pick] -= 1
            out.append(pick)
        return out

    def _place_card(self, state: dict, real: int) -> list[dict]:
        """One decision: the card's real token (a monster gang or a trap) on ``real``, its decoys scattered.
        The public learns only the set of tiles, listed in board order."""
        d = self.wdef(state, state["wizard"]["pending_card"])
        trap = d["kind"] == "trap"
        if trap:
            token = {"kind": "trap", "up": False, "card": d["key"], "level": 0}
        else:
            token = {"kind": "monster", "up": False, "card": d["key"], "level": d["level"],
                     "count": d.get("monsters", 1), "damage": d.get("damage", 1)}
        decoys = self.decoy_tiles(state, real, d["decoys"], trap)
        self._new_token(state, real, token)
        for i in decoys:
            self._new_token(state, i, {"kind": "blank", "up": False, "card": "blank", "level": 0})
        spots = sorted([real] + decoys)
        counted = []
        for i in sorted(set(spots)):
            k = spots.count(i)
            counted.append(self.label(state, i) + (f" (x{k})" if k > 1 else ""))
        where = ", ".join(counted[:-1]) + " and " + counted[-1] if len(counted) > 1 else counted[0]
        ev = [self._e("place", f"The wizard places {len(spots)} face-down token{'s' if len(spots) != 1 else ''}"
                               f" on {where}.")]
        decoy_text = ", ".join(self.label(state, i) for i in decoys) or "nowhere (no room)"
        ev.append(self._e("place", f"You place {d['name']} on {self.label(state, real)}; decoys on "
                                   f"{decoy_text}.", to=0))
        return ev

    def _finish_card(self, state: dict) -> None:
        w = state["wizard"]
        if w["pending_card"] is not None:
            w["discard"].append(w["pending_card"])
            w["pending_card"] = None
        state["pending"] = None

    def _spin(self, state: dict, amount: int) -> list[dict]:
        w = state["wizard"]
        before = w["mana"]
        if amount > 0 and before >= C.MANA_MAX:
            ev = [self._e("mana", "The Mana Wheel is already full: the wizard draws a card instead.")]
            drawn = self._draw_wizard(state, 1, ev)
            if drawn:
                ev.append(self._e("draw", f"You draw {self.wdef(state, drawn[0])['name']}.", to=0))
            return ev
        w["mana"] = max(0, min(C.MANA_MAX, before + amount))
        return [self._e("mana", f"The Mana Wheel turns to {w['mana']}.")]

    def _cast(self, state: dict, eff: str, i: int) -> list[dict]:
        ev = []
        lab = self.label(state, i)
        victims = self.heroes_on(state, i)
        names = ", ".join(state["names"][s] for s in victims)
        if eff == "frost":
            victims = [s for s in victims if not state["heroes"][s]["thawed"]]
            names = ", ".join(state["names"][s] for s in victims)
            for s in victims:
                state["heroes"][s]["frozen"] = True
            ev.append(self._e("spell", f"Frost bolt on {lab}: {names} will skip their next move."))
        elif eff == "fireball":
            rng = Rng(state)
            for s in victims:
                roll, bonus, safe = self._save(state, s, rng)
                if safe:
                    ev.append(self._e("save", f"Fireball on {lab}: {state['names'][s]} rolls {roll}+{bonus} and dodges."))
                else:
                    ev.append(self._e("save", f"Fireball on {lab}: {state['names'][s]} rolls {roll}+{bonus} "
                                              f"and takes {TRAP_DAMAGE} damage."))
                    ev.extend(self._damage(state, s, TRAP_DAMAGE))
        elif eff == "ambush":
            self._new_token(state, i, {"kind": "monster", "up": True, "card": "ambush", "level": AMBUSH_LEVEL})
            ev.append(self._e("spell", f"Ambush! A level {AMBUSH_LEVEL} monster leaps onto {lab}: "
                                       f"{names} can't move and must fight."))
        return ev

    def _remove_tile(self, state: dict, i: int) -> list[dict]:
        t = state["tiles"][i]
        t["removed"] = True
        for tid in t["tokens"]:
            state["tokens"].pop(str(tid))
        n_tok = len(t["tokens"])
        t["tokens"] = []
        t["key"] = False
        extra = f" taking {n_tok} token{'s' if n_tok != 1 else ''} with it" if n_tok else ""
        return [self._e("rage", f"{self.label(state, i)} crumbles into the void{extra}.")]

    # ------------------------------------------------------------------ hero phase
    def _start_hero_phase(self, state: dict) -> list[dict]:
        state["phase"] = "heroes"
        state["commits"] = {}
        for s in self.living(state):
            h = state["heroes"][s]
            h["free"] = 0
        return []

    def _apply_hero(self, state: dict, seat: int, action: dict) -> list[dict]:
        typ = action["type"]
        h = state["heroes"][seat]
        name = state["names"][seat]
        ev: list[dict] = []
        if typ in ("move", "stay", "sprint", "march"):
            state["commits"][str(seat)] = action
            ev.append(self._e("commit", f"{name} has committed a move."))
            ev.append(self._e("commit", f"Your move: {self.describe_action(state, seat, action)}.", to=seat))
            if not self.to_act(state):
                ev.extend(self._resolve(state))
            return ev
        h["free"] += 1
        if typ == "use":
            cid = action["card"]
            d = self.ldef(state, cid)
            h["hand"].remove(cid)
            state["loot"]["discard"].append(cid)
            eff = d["effect"]
            if eff == "heal":
                before = h["hp"]
                h["hp"] = min(HERO_HP, h["hp"] + d["amount"])
                ev.append(self._e("use", f"{name} drinks {d['name']}: {before} -> {h['hp']} hit points."))
            elif eff == "heal_all":
                for s in self.heroes_on(state, h["pos"]):
                    hh = state["heroes"][s]
                    hh["hp"] = min(HERO_HP, hh["hp"] + d["amount"])
                ev.append(self._e("use", f"{name} opens a {d['name']}: every hero on "
                                         f"{self.label(state, h['pos'])} heals {d['amount']}."))
            elif eff == "strength":
                h["strength"] = d["amount"]
                ev.append(self._e("use", f"{name} drinks a {d['name']}: +{d['amount']} in combat this turn."))
            elif eff == "ward":
                h["ward"] = True
                ev.append(self._e("use", f"{name} raises a {d['name']}: traps can't hurt them this turn."))
            return ev
        if typ == "banish":
            cid = action["card"]
            h["hand"].remove(cid)
            state["loot"]["discard"].append(cid)
            i = action["tile"]
            t = state["tiles"][i]
            shown = [self._token_name(state, tid) for tid in t["tokens"]]
            for tid in t["tokens"]:
                state["tokens"].pop(str(tid))
            t["tokens"] = []
            ev.append(self._e("use", f"{name} reads a Banish Scroll on {self.label(state, i)}: "
                                     f"{', '.join(shown)} vanish."))
            return ev
        if typ == "equip":
            cid = action["card"]
            h["hand"].remove(cid)
            rep = action.get("replace")
            if rep is not None:
                h["equip"].remove(rep)
                h["hand"].append(rep)
            h["equip"].append(cid)
            d = self.ldef(state, cid)
            extra = f" instead of {self.ldef(state, rep)['name']}" if rep is not None else ""
            ev.append(self._e("equip", f"{name} equips {d['name']}{extra}."))
            return ev
        if typ == "give":
            cid = action["card"]
            to = action["to"]
            h["hand"].remove(cid)
            self._gain_card(state, to, cid)
            ev.append(self._e("give", f"{name} gives a card to {state['names'][to]}."))
            ev.append(self._e("give", f"You give {self.ldef(state, cid)['name']} to {state['names'][to]}.", to=seat))
            ev.append(self._e("give", f"{name} gives you {self.ldef(state, cid)['name']}.", to=to))
            return ev
        if typ == "give_key":
            to = action["to"]
            h["keys"] -= 1
            state["heroes"][to]["keys"] += 1
            ev.append(self._e("give", f"{name} gives a key to {state['names'][to]}."))
            return ev
        raise RuleError("That move isn't allowed right now.")

    def _token_name(self, state: dict, tid: int) -> str:
        t = self.tok(state, tid)
        if t["kind"] == "blank":
            return "a decoy"
        if t["kind"] == "trap":
            return "a trap"
        if t.get("count", 1) > 1:
            return f"{self._monster_name(t)} ({t['count']} x level {t['level']})"
        return f"{self._monster_name(t)} (level {t['level']})"

    @staticmethod
    def _monster_name(t: dict) -> str:
        if t["card"] == "ambush":
            return "Ambusher"
        return C.WIZARD_DEFS[t["card"]]["name"]

    def _gain_card(self, state: dict, seat: int, cid: int) -> str:
        """A hero receives a loot card; equipment goes straight on when its slot is free."""
        h = state["heroes"][seat]
        d = self.ldef(state, cid)
        self._note_held(state, "l", d["key"])
        if d["kind"] == "equipment" and self.slot_count(state, seat, d["slot"]) < C.SLOTS[d["slot"]]:
            h["equip"].append(cid)
            return "equipped"
        h["hand"].append(cid)
        return "hand"

    def _draw_loot(self, state: dict) -> int | None:
        L = state["loot"]
        if not L["deck"]:
            if not L["discard"]:
                return None
            L["deck"] = L["discard"]
            L["discard"] = []
            Rng(state).shuffle(L["deck"])
        return L["deck"].pop()

    def _loot_order(self, state: dict, seats: list[int]) -> list[int]:
        """Who gets the next loot card among heroes sharing a room: fewest cards, then lowest HP, then seat."""
        def key(s: int) -> tuple:
            h = state["heroes"][s]
            return (len(h["hand"]) + len(h["equip"]), h["hp"], s)
        return sorted(seats, key=key)

    def _give_loot(self, state: dict, seats: list[int], count: int, where: str) -> list[dict]:
        ev = []
        for _ in range(count):
            seats_alive = [s for s in seats if state["heroes"][s]["alive"]]
            if not seats_alive:
                break
            cid = self._draw_loot(state)
            if cid is None:
                ev.append(self._e("loot", "The loot deck is empty."))
                break
            s = self._loot_order(state, seats_alive)[0]
            how = self._gain_card(state, s, cid)
            d = self.ldef(state, cid)
            if d["kind"] == "equipment":
                ev.append(self._e("loot", f"{state['names'][s]} loots {d['name']} in {where}"
                                          f"{' and equips it' if how == 'equipped' else ''}."))
            else:
                ev.append(self._e("loot", f"{state['names'][s]} loots a card in {where}."))
                ev.append(self._e("loot", f"You loot {d['name']}: {d['text']}", to=s))
        return ev

    def _damage(self, state: dict, seat: int, amount: int) -> list[dict]:
        h = state["heroes"][seat]
        if not h["alive"]:
            return []
        h["hp"] -= amount
        if h["hp"] > 0:
            return []
        h["hp"] = 0
        h["alive"] = False
        t = state["tiles"][h["pos"]]
        dropped = len(h["hand"]) + len(h["equip"])
        t["drop"]["cards"].extend(h["hand"] + h["equip"])
        t["drop"]["keys"] += h["keys"]
        keys = h["keys"]
        h["hand"], h["equip"], h["keys"] = [], [], 0
        h["frozen"] = False
        text = f"{state['names'][seat]} falls on {self.label(state, h['pos'])}"
        if dropped or keys:
            text += f", dropping {dropped} card{'s' if dropped != 1 else ''}"
            if keys:
                text += f" and {keys} key{'s' if keys != 1 else ''}"
        return [self._e("death", text + ".")]

    def _flip(self, state: dict, i: int) -> list[dict]:
        """A hero reaches tile i: flip the tile (wizard draw/mana) and every face-down token on it."""
        ev = []
        t = state["tiles"][i]
        lab = self.label(state, i)
        if not t["up"]:
            t["up"] = True
            d = self.tdef(state, i)
            ev.append(self._e("flip", f"{lab} is revealed: **{d['name']}** (cards {d['draw']:+d}, "
                                      f"mana {d['mana']:+d})."))
            w = state["wizard"]
            if d["draw"] > 0:
                drawn = self._draw_wizard(state, d["draw"], ev)
                ev.append(self._e("draw", f"The wizard draws {len(drawn)}."))
                if drawn:
                    ev.append(self._e("draw", "You draw " + ", ".join(self.wdef(state, c)["name"] for c in drawn)
                                      + ".", to=0))
            elif d["draw"] < 0:
                k = min(-d["draw"], len(w["hand"]))
                rng = Rng(state)
                lost = []
                for _ in range(k):
                    cid = w["hand"].pop(rng.below(len(w["hand"])))
                    w["discard"].append(cid)
                    lost.append(cid)
                ev.append(self._e("draw", f"The wizard discards {k} card{'s' if k != 1 else ''} at random."))
                if lost:
                    ev.append(self._e("draw", "You lose " + ", ".join(self.wdef(state, c)["name"] for c in lost)
                                      + ".", to=0))
            if d["mana"] > 0 and w["mana"] >= C.MANA_MAX:
                ev.append(self._e("mana", "The Mana Wheel is already full."))
            elif d["mana"]:
                ev.extend(self._spin(state, d["mana"]))
            ev.extend(self._scout(state, i))
        hidden = self.hidden_tokens(state, i)
        if hidden:
            names = [self._token_name(state, tid) for tid in hidden]
            ev.append(self._e("tokens", f"Tokens flip on {lab}: {', '.join(names)}."))
            here = self.heroes_on(state, i)
            rng = Rng(state)
            for tid in hidden:
                tk = self.tok(state, tid)
                tk["up"] = True
                if tk["kind"] == "monster":
                    continue
                if tk["kind"] == "trap":
                    for s in here:
                        hh = state["heroes"][s]
                        if not hh["alive"]:
                            continue
                        if hh["ward"]:
                            ev.append(self._e("save", f"{state['names'][s]}'s ward charm turns the trap aside."))
                            continue
                        roll, bonus, safe = self._save(state, s, rng)
                        if safe:
                            ev.append(self._e("save", f"Trap! {state['names'][s]} rolls {roll}+{bonus}: safe."))
                        else:
                            ev.append(self._e("save", f"Trap! {state['names'][s]} rolls {roll}+{bonus}: "
                                                      f"{TRAP_DAMAGE} damage."))
                            ev.extend(self._damage(state, s, TRAP_DAMAGE))
                t["tokens"].remove(tid)
                state["tokens"].pop(str(tid))
        return ev

    def _scout(self, state: dict, i: int) -> list[dict]:
        """Scouting (house rule): a revealed room senses how many key vaults (found or not) lie within
        SCOUT_RANGE steps of it. The number is public and stays on the room; which tiles they are is not."""
        t = state["tiles"][i]
        rng_ = SCOUT_RANGE[state["n"]]
        if not rng_ or t["key_tile"]:
            return []
        r0, c0 = self.rc(state, i)
        near = sum(1 for j, u in enumerate(state["tiles"]) if u["key_tile"] and j != i
                   and abs(self.rc(state, j)[0] - r0) + abs(self.rc(state, j)[1] - c0) <= rng_)
        t["sense"] = near
        if not near:
            return [self._e("flip", f"Scouting from {self.label(state, i)}: no key vault within {rng_} steps.")]
        state["scouted"] = state.get("scouted", 0) + 1
        return [self._e("flip", f"Scouting from {self.label(state, i)}: {near} key vault{'s' if near > 1 else ''} "
                                f"within {rng_} steps!")]

    def _collect(self, state: dict, i: int, visitors: list[int]) -> list[dict]:
        """Visitors of a monster-free tile: first search loot, a hidden key, dropped items."""
        ev = []
        t = state["tiles"][i]
        seats = [s for s in visitors if state["heroes"][s]["alive"]]
        if not seats or self.face_up_monsters(state, i) or i == state["tower"]:
            return ev
        lab = self.label(state, i)
        if not t["searched"]:
            t["searched"] = True
            ev.extend(self._give_loot(state, seats, 1, lab))
        ev.extend(self._pickup(state, i, seats))
        return ev

    def _pickup(self, state: dict, i: int, seats: list[int]) -> list[dict]:
        ev = []
        t = state["tiles"][i]
        lab = self.label(state, i)
        seats = [s for s in seats if state["heroes"][s]["alive"]]
        if not seats:
            return ev
        keeper = sorted(seats, key=lambda s: (-state["heroes"][s]["keys"], s))[0]
        if t["key"]:
            t["key"] = False
            state["heroes"][keeper]["keys"] += 1
            state["keys_taken"] += 1
            ev.append(self._e("key", f"{state['names'][keeper]} takes the key from {lab}! "
                                     f"({state['keys_taken']}/3 found)"))
            if state["keys_taken"] == 3 and not state["keys_found"]:
                state["keys_found"] = True
                ev.append(self._e("rage", "All three keys are found! The wizard's rage begins: "
                                          "from now on the world crumbles every wizard turn."))
        if t["drop"]["keys"]:
            state["heroes"][keeper]["keys"] += t["drop"]["keys"]
            ev.append(self._e("key", f"{state['names'][keeper]} picks up {t['drop']['keys']} dropped key(s) on {lab}."))
            t["drop"]["keys"] = 0
        if t["drop"]["cards"]:
            cards = t["drop"]["cards"]
            t["drop"]["cards"] = []
            for cid in cards:
                s = self._loot_order(state, seats)[0]
                self._gain_card(state, s, cid)
                ev.append(self._e("loot", f"{state['names'][s]} picks up {self.ldef(state, cid)['name']} on {lab}."))
        return ev

    def _settle_drops(self, state: dict) -> list[dict]:
        """Dropped items go to the next hero who stands on their tile with no monsters -- also a hero who
        was already there when their friend fell (e.g. to a fireball), or who stays there."""
        ev = []
        for i, t in enumerate(state["tiles"]):
            if (t["drop"]["cards"] or t["drop"]["keys"]) and not t["removed"] and i != state["tower"] \
                    and not self.face_up_monsters(state, i) and self.heroes_on(state, i):
                ev.extend(self._pickup(state, i, self.heroes_on(state, i)))
        return ev

    def _combat(self, state: dict, i: int, fighters: list[int], movers: dict[int, int]) -> list[dict]:
        ev = []
        rng = Rng(state)
        mons = self.face_up_monsters(state, i)
        level, hits = self.monster_power(state, mons)
        lab = "the tower" if i == state["tower"] else self.label(state, i)
        wroll = rng.die(20)
        bonus = sum(self.attack(state, s) for s in fighters)
        lone = state["options"].get("lone_hero") and len(self.living(state)) == 1
        if lone:
            a, b = rng.die(20), rng.die(20)
            hroll = a + b
            rolls = f"{a}+{b} (last-hero boost)"
        else:
            rolls_list = [rng.die(20) for _ in fighters]
            hroll = max(rolls_list)
            rolls = "/".join(str(r) for r in rolls_list)
        names = ", ".join(state["names"][s] for s in fighters)
        mnames = ", ".join(self._monster_name(self.tok(state, m)) for m in mons)
        hero_total = hroll + bonus
        wiz_total = wroll + level
        heroes_win = hero_total >= wiz_total
        ev.append(self._e("combat", f"Combat in {lab}: {names} roll {rolls} +{bonus} = {hero_total} against "
                                    f"{mnames} {wroll}+{level} = {wiz_total}: "
                                    f"{'the heroes win' if heroes_win else 'the monsters win'}!"))
        t = state["tiles"][i]
        if heroes_win:
            for m in mons:
                t["tokens"].remove(m)
                state["tokens"].pop(str(m))
            if i == state["tower"]:
                state["phase"] = "over"
                state["winner"] = "heroes"
                state["end"] = "heroes stormed the tower"
                state["end_reason"] = "The heroes defeat the tower's guardians and cut down the wizard!"
                ev.append(self._e("win", state["end_reason"]))
                return ev
            count = 1 if t["conquered"] else 2
            t["conquered"] = True
            t["searched"] = True
            ev.extend(self._give_loot(state, fighters, count, lab))
            ev.extend(self._pickup(state, i, fighters))
        else:
            for s in fighters:
                if s in movers:
                    state["heroes"][s]["pos"] = movers[s]
                ev.append(self._e("damage", f"{state['names'][s]} is driven back to "
                                            f"{self.label(state, state['heroes'][s]['pos'])} and takes {hits} "
                                            f"damage."))
                ev.extend(self._damage(state, s, hits))
        return ev

    def _resolve(self, state: dict) -> list[dict]:
        ev: list[dict] = []
        commits = {int(k): v for k, v in state["commits"].items()}
        state["commits"] = {}
        order = sorted(commits)
        # 1. reveal
        parts = []
        for s in order:
            parts.append(f"{state['names'][s]}: {self._public_move(state, s, commits[s])}")
        ev.append(self._e("reveal", "Moves revealed - " + "; ".join(parts) + "."))
        tower = state["tower"]
        # 2. the tower door
        if not state["tower_open"] and any(commits[s].get("to") == tower for s in order):
            ent = self.entrance_tile(state)
            for s in self.heroes_on(state, ent):
                state["keys_used"] += state["heroes"][s]["keys"]
                state["heroes"][s]["keys"] = 0
            state["tower_open"] = True
            ev.append(self._e("tower", "The three keys turn in the lock: the tower door swings open!"))
        # 3. first step (and the stuck heroes' own tiles)
        start = {s: state["heroes"][s]["pos"] for s in order}
        came_from: dict[int, int] = {}
        visited: dict[int, list[int]] = {}
        paths: dict[int, list[int]] = {}
        for s in order:
            a = commits[s]
            if a["type"] == "move":
                paths[s] = [a["to"]]
            elif a["type"] == "march":
                paths[s] = list(a["path"])
            elif a["type"] == "sprint":
                paths[s] = list(a["path"])
                h = state["heroes"][s]
                h["hand"].remove(a["card"])
                state["loot"]["discard"].append(a["card"])
        touched: list[int] = []
        for s in order:
            if s in paths:
                state["heroes"][s]["pos"] = paths[s][0]
                came_from[s] = start[s]
                visited.setdefault(paths[s][0], []).append(s)
                if paths[s][0] not in touched:
                    touched.append(paths[s][0])
            elif state["tiles"][start[s]]["tokens"] and start[s] not in touched:
                touched.append(start[s])
        for i in touched:
            ev.extend(self._flip(state, i))
        # 4. sprinters' and marchers' further steps (stopped by monsters on the tile they stand on)
        for k in (1, 2):
            step = []
            for s in order:
                if s in paths and len(paths[s]) > k and state["heroes"][s]["alive"]:
                    a, b = paths[s][k - 1], paths[s][k]
                    if state["heroes"][s]["pos"] != a:
                        continue
                    if self.face_up_monsters(state, a):
                        ev.append(self._e("move", f"{state['names'][s]} is stopped by monsters on {self.label(state, a)}."))
                        continue
                    ev.extend(self._collect(state, a, [s]))
                    state["heroes"][s]["pos"] = b
                    came_from[s] = a
                    visited.setdefault(b, []).append(s)
                    if b not in step:
                        step.append(b)
            for i in step:
                ev.extend(self._flip(state, i))
        # 5. looting empty rooms, keys and dropped items
        for i in sorted(visited):
            here = [s for s in visited[i] if state["heroes"][s]["alive"] and state["heroes"][s]["pos"] == i]
            ev.extend(self._collect(state, i, here))
        # 6. combat
        fought = []
        for i in sorted({state["heroes"][s]["pos"] for s in self.living(state)}):
            if self.face_up_monsters(state, i):
                fighters = self.heroes_on(state, i)
                fought.append(i)
                ev.extend(self._combat(state, i, fighters, {s: came_from[s] for s in fighters if s in came_from}))
                if state["phase"] == "over":
                    return ev
        ev.extend(self._settle_drops(state))
        # 7. tower with no monster left inside
        inside = self.heroes_on(state, tower)
        if inside:
            state["phase"] = "over"
            state["winner"] = "heroes"
            state["end"] = "heroes stormed the tower"
            state["end_reason"] = "The heroes storm the empty tower and cut down the wizard!"
            ev.append(self._e("win", state["end_reason"]))
            return ev
        ev.extend(self._check_wizard_win(state))
        if state["phase"] == "over":
            return ev
        # 8. end of round
        for s in range(1, state["n"]):
            h = state["heroes"][s]
            h["strength"] = 0
            h["ward"] = False
            h["thawed"] = h["frozen"] and s in commits
            if s in commits:
                h["frozen"] = False
        if state["round"] >= state["round_limit"]:
            state["phase"] = "over"
            state["winner"] = "wizard"
            state["end"] = "round limit"
            state["end_reason"] = (f"Round {state['round']} ends and the world collapses: "
                                   "the heroes ran out of time and the wizard wins.")
            ev.append(self._e("win", state["end_reason"]))
            return ev
        state["round"] += 1
        ev.extend(self._start_wizard_turn(state))
        return ev

    def _check_wizard_win(self, state: dict) -> list[dict]:
        if state["phase"] != "over" and not self.living(state):
            state["phase"] = "over"
            state["winner"] = "wizard"
            state["end"] = "all heroes dead"
            state["end_reason"] = "Every hero has fallen: the wizard wins!"
            state["pending"] = None
            w = state["wizard"]
            if w["pending_card"] is not None:
                w["discard"].append(w["pending_card"])
                w["pending_card"] = None
            return [self._e("win", state["end_reason"])]
        return []

    def _public_move(self, state: dict, seat: int, a: dict) -> str:
        if a["type"] == "stay":
            return "stays"
        if a["type"] == "move":
            if a["to"] == state["tower"]:
                return "enters the tower"
            return f"moves to {self.label(state, a['to'])}"
        verb = "sprints" if a["type"] == "sprint" else "marches"
        return f"{verb} " + " -> ".join(self.label(state, i) for i in a["path"])

    # ------------------------------------------------------------------ views
    def view(self, state: dict, viewer: int | None) -> dict:
        tiles = []
        for i, t in enumerate(state["tiles"]):
            v: dict[str, Any] = {"i": i, "label": self.label(state, i), "removed": t["removed"], "up": t["up"],
                                 "tower": i == state["tower"], "camp": t["camp"],
                                 "hidden_tokens": len(self.hidden_tokens(state, i)),
                                 "monsters": [{"name": self._monster_name(self.tok(state, m)),
                                               "level": self.tok(state, m)["level"],
                                               "damage": self.tok(state, m).get("damage", 1)}
                                              for m in self.face_up_monsters(state, i)
                                              for _ in range(self.tok(state, m).get("count", 1))],
                                 "searched": t["searched"], "conquered": t["conquered"],
                                 "drop": {"cards": [self.ldef(state, c)["name"] for c in t["drop"]["cards"]],
                                          "keys": t["drop"]["keys"]}}
            if t["up"] and not t["removed"]:
                d = self.tdef(state, i)
                v.update(name=d["name"], draw=d["draw"], mana=d["mana"], key_tile=t["key_tile"], key=t["key"],
                         sense=t.get("sense"))
            tiles.append(v)
        heroes = []
        for s in range(1, state["n"]):
            h = state["heroes"][s]
            heroes.append({"seat": s, "name": state["names"][s], "hp": h["hp"], "alive": h["alive"],
                           "pos": h["pos"], "pos_label": self.label(state, h["pos"]),
                           "keys": h["keys"], "frozen": h["frozen"], "hand_count": len(h["hand"]),
                           "equip": [self._card_view(state, c) for c in h["equip"]],
                           "attack": self.attack(state, s), "save": self.save_bonus(state, s),
                           "committed": str(s) in state["commits"], "strength": h["strength"], "ward": h["ward"]})
        w = state["wizard"]
        p = state["pending"]
        pub_pending = None
        if p:
            if p["kind"] == "place":
                pub_pending = {"kind": "place", "left": p.get("total") or sum(p.get("left", {}).values())}
            elif p["kind"] == "rage":
                pub_pending = {"kind": "rage", "left": p["left"]}
            elif p["kind"] == "target":
                pub_pending = {"kind": "target", "effect": p["effect"]}
            else:
                pub_pending = {"kind": p["kind"]}
        out: dict[str, Any] = {
            "game": "rage", "names": list(state["names"]), "n": state["n"], "size": state["size"],
            "phase": state["phase"], "round": state["round"], "round_limit": state["round_limit"],
            "options": dict(state["options"]),
            "tower": state["tower"], "entrance": state["entrance"], "entrance_tile": self.entrance_tile(state),
            "tower_open": state["tower_open"], "keys_found": state["keys_found"],
            "keys_taken": state["keys_taken"], "keys_hidden": state["keys_hidden"],
            "tiles": tiles, "heroes": heroes, "token_cap": self.cap(state), "scout_range": SCOUT_RANGE[state["n"]],
            "wizard": {"seat": 0, "name": state["names"][0], "mana": w["mana"], "mana_max": C.MANA_MAX,
                       "mana_left": self.mana_left(state) if state["phase"] == "wizard" else None,
                       "hand_count": len(w["hand"]), "deck_count": len(w["deck"]),
                       "discard_count": len(w["discard"])},
            "loot": {"deck_count": len(state["loot"]["deck"]), "discard_count": len(state["loot"]["discard"])},
            "pending": pub_pending, "winner": state["winner"], "end_reason": state["end_reason"],
            "recent": list(state.get("recent", [])),
            "status": self.status_line(state),
        }
        if viewer is None:
            return out
        if viewer == 0:
            tok_map: dict[str, list] = {}
            for i, t in enumerate(state["tiles"]):
                hid = self.hidden_tokens(state, i)
                if hid:
                    tok_map[str(i)] = [self._token_private(state, tid) for tid in hid]
            priv: dict[str, Any] = {
                "role": "wizard",
                "hand": [self._wcard_view(state, c) for c in sorted(w["hand"], key=lambda c: state["wcards"][c])],
                "opening": [self._wcard_view(state, c) for c in w["opening"]],
                "tokens": tok_map,
                "keys": [i for i, t in enumerate(state["tiles"]) if t["key"]],
                "mana_left": self.mana_left(state),
                "pending": dict(p) if p else None,
                "playing": self._wcard_view(state, w["pending_card"]) if w["pending_card"] is not None else None,
            }
        else:
            h = state["heroes"][viewer]
            c = state["commits"].get(str(viewer))
            priv = {
                "role": "hero", "seat": viewer, "hp": h["hp"], "keys": h["keys"],
                "hand": [self._card_view(state, cid) for cid in sorted(h["hand"])],
                "equip": [self._card_view(state, cid) for cid in h["equip"]],
                "commit": c, "commit_text": self.describe_action(state, viewer, c) if c else None,
            }
        out["private"] = priv
        return out

    def _card_view(self, state: dict, cid: int) -> dict:
        d = self.ldef(state, cid)
        v = {"id": cid, "name": d["name"], "kind": d["kind"], "text": d["text"]}
        if d["kind"] == "equipment":
            v.update(slot=d["slot"], attack=d["attack"], save=d["save"])
        return v

    def _wcard_view(self, state: dict, cid: int) -> dict:
        d = self.wdef(state, cid)
        return {"id": cid, "name": d["name"], "kind": d["kind"], "cost": d["cost"], "text": d["text"],
                "level": d.get("level")}

    def _token_private(self, state: dict, tid: int) -> dict:
        t = self.tok(state, tid)
        if t["kind"] == "monster":
            return {"kind": "monster", "name": self._monster_name(t), "level": t["level"], "count": t.get("count", 1)}
        return {"kind": t["kind"]}

    # ------------------------------------------------------------------ text
    def status_line(self, state: dict) -> str:
        phase = state["phase"]
        names = state["names"]
        wiz = names[0]
        if phase == "over":
            return state["end_reason"] or "Game over."
        if phase == "tower":
            return f"{wiz} (wizard) chooses where the tower stands."
        if phase == "entrance":
            return f"{wiz} (wizard) chooses which way the tower door faces."
        if phase == "keys":
            return f"{wiz} (wizard) hides key {state['keys_hidden'] + 1} of 3 - heroes, close your eyes!"
        if phase == "keep":
            return f"{wiz} (wizard) keeps 3 of 5 opening cards."
        if phase == "wizard":
            p = state["pending"]
            base = f"Round {state['round']}/{state['round_limit']}: {wiz} (wizard)"
            if p and p["kind"] == "rage":
                return f"{base} rages: pick where {p['left']} tiles crumble."
            if p and p["kind"] == "place":
                return f"{base} places {p.get('total') or sum(p.get('left', {}).values())} face-down tokens."
            if p:
                return f"{base} picks a target."
            return f"{base} plays cards ({self.mana_left(state)} mana left)."
        waiting = [names[s] for s in self.to_act(state)]
        return f"Round {state['round']}/{state['round_limit']}: heroes move - waiting for " + \
            ", ".join(waiting) + "."

    def describe_action(self, state: dict, seat: int, action: dict) -> str:
        typ = action["type"]
        lab = lambda i: self.label(state, i)  # noqa: E731
        if typ == "tower":
            return f"Raise the tower on {lab(action['tile'])}"
        if typ == "entrance":
            ent = self._step(state, state["tower"], action["dir"]) if state["tower"] is not None else None
            return f"Door faces {DIR_NAMES[action['dir']]}" + (f" ({lab(ent)})" if ent is not None else "")
        if typ == "hide_key":
            return f"Hide a key on {lab(action['tile'])}"
        if typ == "keep":
            return "Keep " + ", ".join(self.wdef(state, c)["name"] for c in action["cards"])
        if typ == "remove":
            return f"Crumble {lab(action['tile'])} (and the safe tiles nearest it)"
        if typ == "discard":
            return f"Discard {self.wdef(state, action['card'])['name']}"
        if typ == "end_turn":
            return "End turn"
        if typ == "play":
            d = self.wdef(state, action["card"])
            return f"Play {d['name']} ({d['cost']} mana)"[:80]
        if typ == "place":
            cid = state["wizard"]["pending_card"]
            name = self.wdef(state, cid)["name"] if cid is not None else "the card"
            return f"Put {name} on {lab(action['tile'])} (decoys scatter)"[:80]
        if typ == "target":
            return f"Target {lab(action['tile'])}"
        if typ == "move":
            if action["to"] == state["tower"]:
                return "Enter the tower!"
            h = state["heroes"][seat]
            d = self._dir_between(state, h["pos"], action["to"])
            return f"Move {d} to {lab(action['to'])}"
        if typ == "stay":
            return "Stay (fight here)" if seat and self.stuck(state, seat) else "Stay where you are"
        if typ == "sprint":
            return "Sprint " + " -> ".join(lab(i) for i in action["path"])
        if typ == "march":
            return "March " + " -> ".join(lab(i) for i in action["path"])
        if typ == "use":
            return f"Use {self.ldef(state, action['card'])['name']}"
        if typ == "banish":
            return f"Banish Scroll on {lab(action['tile'])}"
        if typ == "equip":
            d = self.ldef(state, action["card"])
            if action.get("replace") is not None:
                return f"Equip {d['name']} instead of {self.ldef(state, action['replace'])['name']}"[:80]
            return f"Equip {d['name']}"
        if typ == "give":
            return f"Give {self.ldef(state, action['card'])['name']} to {state['names'][action['to']]}"[:80]
        if typ == "give_key":
            return f"Give a key to {state['names'][action['to']]}"[:80]
        return typ

    def _dir_between(self, state: dict, a: int, b: int) -> str:
        for d in "NESW":
            if self._step(state, a, d) == b:
                return DIR_NAMES[d]
        return ""

    def action_group(self, state: dict, seat: int, action: dict) -> str:
        typ = action["type"]
        if typ == "place":
            return "Place the card's real token"
        return {"tower": "Tower", "entrance": "Door", "hide_key": "Hide a key", "keep": "Opening hand",
                "remove": "Rage: crumble a tile", "discard": "Discard", "end_turn": "Turn", "play": "Play a card",
                "target": "Target", "move": "Move", "stay": "Move", "sprint": "Sprint", "march": "Quick march", "use": "Items",
                "banish": "Items", "equip": "Items", "give": "Give", "give_key": "Give"}.get(typ, "Moves")

    def illegal_message(self, state: dict, seat: int, action: dict) -> str:
        typ = action.get("type") if isinstance(action, dict) else None
        phase = state["phase"]
        if phase == "heroes" and seat:
            h = state["heroes"][seat]
            if h["frozen"] and typ in ("move", "march"):
                return "You are frozen by a Frost Bolt: you can't move this turn (items, even a Sprint, still work)."
            if typ in ("move", "sprint", "march") and self.stuck(state, seat):
                return "You can't move: there are tokens on your tile, so you fight where you stand."
            if typ == "move" and action.get("to") == state["tower"]:
                return ("The tower opens only from the tile its door faces, for heroes there holding all 3 keys "
                        "between them.")
            if typ == "move":
                return "You can move one tile north, east, south or west onto a tile that still exists."
            if typ in ("give", "give_key"):
                return "You can only give cards or keys to a living hero on your own tile."
            if typ in ("use", "banish", "equip", "give", "give_key") and h["free"] >= FREE_LIMIT:
                return f"You have used your {FREE_LIMIT} item actions this turn: commit a move."
        if phase == "wizard":
            p = state["pending"]
            if typ == "play":
                cid = action.get("card")
                if cid in state["wizard"]["hand"] and self.wdef(state, cid)["cost"] > self.mana_left(state):
                    return f"Not enough mana: you have {self.mana_left(state)} left this turn."
                return "You can't play that card now (no legal place or target for it)."
            if typ == "place":
                return ("Tokens go on an existing tile without heroes, at most "
                        f"{self.cap(state)} per tile; the tower only after all keys are found (never traps).")
            if typ == "remove":
                return ("The rage can't remove the tower's ring, a hero's tile, a tile with dropped items, "
                        "or a tile that would cut a hero off from the tower or a dropped key.")
            if typ == "end_turn" and p:
                return "Finish the current card first."
            if typ == "end_turn":
                return f"Discard down to {C.HAND_LIMIT} cards before ending your turn."
        return "That move isn't allowed right now."

    def private_text(self, view: dict) -> str:
        p = view.get("private") or {}
        if p.get("role") == "wizard":
            lines = [f"**You are the wizard.** Mana Wheel {view['wizard']['mana']}/{view['wizard']['mana_max']}, "
                     f"{p['mana_left']} mana left this turn."]
            if p["opening"]:
                lines.append("**Opening draw (keep 3):** " + ", ".join(c["name"] for c in p["opening"]))
            lines.append("**Hand:** " + (", ".join(f"{c['name']} ({c['cost']})" for c in p["hand"]) or "empty"))
            if p.get("playing"):
                lines.append(f"**Playing:** {p['playing']['name']}")
            labels = {t["i"]: t["label"] for t in view["tiles"]}
            if p["keys"]:
                lines.append("**Keys hidden on:** " + ", ".join(labels[i] for i in p["keys"]))
            if p["tokens"]:
                parts = []
                for i, toks in sorted(p["tokens"].items(), key=lambda kv: int(kv[0])):
                    names = [f"{t['name']} L{t['level']}" if t["kind"] == "monster" else t["kind"].replace(
                        "blank", "decoy") for t in toks]
                    parts.append(f"{labels[int(i)]}: {', '.join(names)}")
                lines.append("**Your face-down tokens:** " + "; ".join(parts))
            return "\n".join(lines)
        lines = [f"**Hit points:** {p.get('hp')}  **Keys:** {p.get('keys')}"]
        lines.append("**Equipped:** " + (", ".join(c["name"] for c in p.get("equip", [])) or "nothing"))
        lines.append("**Hand:** " + (", ".join(f"{c['name']} ({c['text']})" for c in p.get("hand", [])) or "empty"))
        if p.get("commit_text"):
            lines.append(f"**Committed move:** {p['commit_text']}")
        return "\n".join(lines)

    def scores(self, state: dict) -> list[dict]:
        winner = state["winner"]
        out = []
        for s in range(state["n"]):
            if s == 0:
                won = winner == "wizard"
                detail = f"Wizard - Mana Wheel {state['wizard']['mana']}"
            else:
                h = state["heroes"][s]
                won = winner == "heroes"
                detail = f"Hero - {'alive, ' + str(h['hp']) + ' HP' if h['alive'] else 'fallen'}"
            out.append({"seat": s, "score": 1 if won else 0, "rank": 1 if won else 2, "won": won, "detail": detail})
        return out

    # ------------------------------------------------------------------ balance report
    def balance_tally(self, state: dict, trace: list[dict]) -> dict:
        """Roles, how the game ended, and which cards and mechanics were available / used.
        A card is available once it reached a hand; Wizard's Rage has no secret goals."""
        held = state.get("held", {"w": [], "l": []})
        available = {C.WIZARD_DEFS[k]["name"] for k in held["w"]}
        available |= {C.LOOT_DEFS[k]["name"] for k in held["l"] if C.LOOT_DEFS[k]["kind"] == "consumable"}
        available.add("quick march")
        if SCOUT_RANGE[state["n"]]:
            available.add("scouting")
        if state["keys_found"]:
            available.add("rage")
        if state["n"] > 2:
            available.add("give")
        used: set[str] = set()
        for step in trace:
            a = step["action"]
            typ = a.get("type")
            if typ == "play":
                used.add(C.WIZARD_DEFS[state["wcards"][a["card"]]]["name"])
            elif typ in ("use", "banish", "sprint"):
                used.add(C.LOOT_DEFS[state["lcards"][a["card"]]]["name"])
            if typ == "march":
                used.add("quick march")
            elif typ == "remove":
                used.add("rage")
            elif typ in ("give", "give_key"):
                used.add("give")
        if state.get("scouted"):
            used.add("scouting")
        used |= {C.WIZARD_DEFS[k]["name"] for k in state.get("acted", [])}  # instants act when drawn
        return {"end": state.get("end") or "unfinished", "roles": ["wizard"] + ["hero"] * (state["n"] - 1),
                "available": sorted(available), "used": sorted(used & available), "goals": {}}

    # ------------------------------------------------------------------ bot
    def bot_action(self, state: dict, seat: int, rng: random.Random) -> dict:
        from .bot_player import choose
        return choose(self, state, seat, rng)
