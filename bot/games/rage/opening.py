"""Wizard's Rage: setting up a game and the wizard's opening phases (tower, door, keys, opening hand)."""
from __future__ import annotations

import itertools
from typing import Any

from bot.engine import plays_rulebook
from bot.rng import Rng

from . import cards
from .constants import AUTO_ROUNDS, AUTO_ROUNDS_RULEBOOK, DIR_NAMES, GRID, HERO_HP, START_MANA_BONUS, new_tile


class OpeningMixin:
    """``setup`` and the phases before round 1."""

    def setup(self, names: list[str], options: dict[str, Any], seed: int) -> dict:
        """A new game: the grid of face-down rooms, heroes in the corners, both decks shuffled, the wizard to set up."""
        n = len(names)
        self.meta.check_players(n)
        opts = self.meta.resolve_options(options)
        size = GRID[n]
        state: dict[str, Any] = {
            "names": list(names), "rng": Rng.seed_state(seed), "options": opts, "n": n, "size": size,
            "phase": "tower", "round": 0, "round_limit": opts["round_limit"] or (AUTO_ROUNDS_RULEBOOK if plays_rulebook(opts) else AUTO_ROUNDS[n]), "tower": None, "entrance": None, "tower_open": False,
            "keys_found": False, "keys_taken": 0, "keys_hidden": 0, "keys_used": 0,
            "tokens": {}, "next_token": 1, "commits": {}, "pending": None,
            "winner": None, "end_reason": "", "end": "", "held": {"w": [], "l": []},
        }
        rng = Rng(state)
        tiles = [new_tile(None) for _ in range(size * size)]
        state["tiles"] = tiles
        corners = [0, size * size - 1, size - 1, size * (size - 1)]
        heroes: list[Any] = [None]
        for seat in range(1, n):
            pos = corners[seat - 1]
            tile = tiles[pos]
            tile.update(id=cards.CAMP_KEY, up=True, camp=True, searched=True)
            heroes.append({"pos": pos, "prev": pos, "hp": HERO_HP, "alive": True, "hand": [], "equip": [],
                           "keys": 0, "frozen": False, "thawed": False, "strength": 0, "ward": False, "free": 0})
        state["heroes"] = heroes
        bag = list(cards.TILE_BAG)
        rng.shuffle(bag)
        for i, tile in enumerate(tiles):
            if tile["id"] is None:
                tile["id"] = bag.pop()
        state["unused_tiles"] = bag  # room tiles not on this smaller grid
        wdeck = list(cards.WIZARD_DECK)
        state["wcards"] = wdeck
        ids = list(range(len(wdeck)))
        rng.shuffle(ids)
        ldeck = list(cards.LOOT_DECK)
        state["lcards"] = ldeck
        lids = list(range(len(ldeck)))
        rng.shuffle(lids)
        state["wizard"] = {"deck": ids, "hand": [], "discard": [], "opening": [],
                           "mana": cards.MANA_START + START_MANA_BONUS[n],
                           "spent": 0, "pending_card": None}
        state["loot"] = {"deck": lids, "discard": []}
        # The wizard's opening draw (5, keep 3) is drawn now and chosen after the keys are hidden.
        wizard = state["wizard"]
        wizard["opening"] = [wizard["deck"].pop() for _ in range(5)]
        if size % 2 == 1:
            self._place_tower(state, (size // 2) * size + size // 2)
            state["phase"] = "entrance"
        return state

    def _place_tower(self, state: dict, idx: int) -> None:
        tile = state["tiles"][idx]
        state["unused_tiles"].append(tile["id"])
        tile.update(id=cards.TOWER_KEY, up=True, searched=True)
        state["tower"] = idx

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


    # ------------------------------------------------------------------ legal actions by phase
    def _tower_options(self, state: dict, seat: int) -> list[dict]:
        """On an even grid the wizard raises the tower on one of the four centre tiles."""
        size = state["size"]
        h = size // 2
        return [{"type": "tower", "tile": r * size + c} for r in (h - 1, h) for c in (h - 1, h)]

    def _entrance_options(self, state: dict, seat: int) -> list[dict]:
        return [{"type": "entrance", "dir": d} for d in "NESW"]

    def _key_options(self, state: dict, seat: int) -> list[dict]:
        return [{"type": "hide_key", "tile": i} for i, tile in enumerate(state["tiles"])
                if i != state["tower"] and not tile["camp"] and not tile["key_tile"]]

    def _keep_phase_options(self, state: dict, seat: int) -> list[dict]:
        return self._keep_options(state)

    # ------------------------------------------------------------------ apply by phase
    def _apply_tower(self, state: dict, seat: int, action: dict) -> list[dict]:
        self._place_tower(state, action["tile"])
        state["phase"] = "entrance"
        return [self._event("setup", f"The wizard raises the tower on {self.label(state, action['tile'])}.")]

    def _apply_entrance(self, state: dict, seat: int, action: dict) -> list[dict]:
        state["entrance"] = action["dir"]
        state["phase"] = "keys"
        return [self._event("setup", f"The tower door faces {DIR_NAMES[action['dir']]} "
                                 f"({self.label(state, self.entrance_tile(state))}).")]

    def _apply_hide_key(self, state: dict, seat: int, action: dict) -> list[dict]:
        i = action["tile"]
        tile = state["tiles"][i]
        state["unused_tiles"].append(tile["id"])
        tile.update(id=cards.VAULT_KEY, key_tile=True, key=True)
        state["keys_hidden"] += 1
        events = [self._event("setup", f"The heroes close their eyes: the wizard hides key {state['keys_hidden']}."),
              self._event("setup", f"Key {state['keys_hidden']} is hidden on {self.label(state, i)}.", to=0)]
        if state["keys_hidden"] == 3:
            state["phase"] = "keep"
        return events

    def _apply_keep(self, state: dict, seat: int, action: dict) -> list[dict]:
        wizard = state["wizard"]
        keep = action["cards"]
        back = [c for c in wizard["opening"] if c not in keep]
        wizard["hand"] = list(keep)
        for c in keep:
            self._note_held(state, "w", state["wcards"][c])
        wizard["deck"].extend(back)
        wizard["opening"] = []
        Rng(state).shuffle(wizard["deck"])
        events = [self._event("setup", "The wizard keeps 3 of 5 opening cards and shuffles 2 back."),
              self._event("setup", "You keep " + ", ".join(self.wizard_card(state, c)["name"] for c in keep) + ".", to=0)]
        state["round"] = 1
        events.extend(self._start_wizard_turn(state))
        return events
