"""Wizard's Rage: what each seat may see (the public view, and the wizard's or a hero's private part)."""
from __future__ import annotations


from . import cards as C
from .constants import SCOUT_RANGE
from .viewtypes import (HeroPrivate, HeroView, LootCardView, PendingPublic, RageView, TileView, TokenPrivate,
                        WizardCardView, WizardPrivate)


class ViewsMixin:
    """``view(state, viewer)``: the board everyone sees, plus the viewer's own secrets."""

    # ------------------------------------------------------------------ views
    def view(self, state: dict, viewer: int | None) -> RageView:
        """The public board (``viewer`` None), plus ``private`` for the wizard (0) or a hero."""
        w = state["wizard"]
        out: RageView = {
            "game": "rage", "names": list(state["names"]), "n": state["n"], "size": state["size"],
            "phase": state["phase"], "round": state["round"], "round_limit": state["round_limit"],
            "options": dict(state["options"]),
            "tower": state["tower"], "entrance": state["entrance"], "entrance_tile": self.entrance_tile(state),
            "tower_open": state["tower_open"], "keys_found": state["keys_found"],
            "keys_taken": state["keys_taken"], "keys_hidden": state["keys_hidden"],
            "tiles": [self._tile_view(state, i) for i in range(len(state["tiles"]))],
            "heroes": [self._hero_public(state, s) for s in range(1, state["n"])],
            "token_cap": self.cap(state), "scout_range": SCOUT_RANGE[state["n"]],
            "wizard": {"seat": 0, "name": state["names"][0], "mana": w["mana"], "mana_max": C.MANA_MAX,
                       "mana_left": self.mana_left(state) if state["phase"] == "wizard" else None,
                       "hand_count": len(w["hand"]), "deck_count": len(w["deck"]),
                       "discard_count": len(w["discard"])},
            "loot": {"deck_count": len(state["loot"]["deck"]), "discard_count": len(state["loot"]["discard"])},
            "pending": self._pending_public(state["pending"]), "winner": state["winner"],
            "end_reason": state["end_reason"],
            "recent": list(state.get("recent", [])),
            "status": self.status_line(state),
        }
        if viewer is None:
            return out
        out["private"] = self._wizard_private(state) if viewer == 0 else self._hero_private(state, viewer)
        return out

    def _tile_view(self, state: dict, i: int) -> TileView:
        """One square as everyone sees it (a face-down room shows no name or values)."""
        t = state["tiles"][i]
        v: TileView = {"i": i, "label": self.label(state, i), "removed": t["removed"], "up": t["up"],
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
            v["name"], v["draw"], v["mana"] = d["name"], d["draw"], d["mana"]
            v["key_tile"], v["key"], v["sense"] = t["key_tile"], t["key"], t.get("sense")
        return v

    def _hero_public(self, state: dict, s: int) -> HeroView:
        h = state["heroes"][s]
        return {"seat": s, "name": state["names"][s], "hp": h["hp"], "alive": h["alive"],
                "pos": h["pos"], "pos_label": self.label(state, h["pos"]),
                "keys": h["keys"], "frozen": h["frozen"], "hand_count": len(h["hand"]),
                "equip": [self._card_view(state, c) for c in h["equip"]],
                "attack": self.attack(state, s), "save": self.save_bonus(state, s),
                "committed": str(s) in state["commits"], "strength": h["strength"], "ward": h["ward"]}

    @staticmethod
    def _pending_public(p: dict | None) -> PendingPublic | None:
        """The wizard's open decision as the heroes see it (not whether a placed card is a trap)."""
        if not p:
            return None
        if p["kind"] == "place":
            return {"kind": "place", "left": p.get("total") or sum(p.get("left", {}).values())}
        if p["kind"] == "rage":
            return {"kind": "rage", "left": p["left"]}
        if p["kind"] == "target":
            return {"kind": "target", "effect": p["effect"]}
        return {"kind": p["kind"]}

    def _wizard_private(self, state: dict) -> WizardPrivate:
        w = state["wizard"]
        p = state["pending"]
        tok_map: dict[str, list[TokenPrivate]] = {}
        for i, t in enumerate(state["tiles"]):
            hid = self.hidden_tokens(state, i)
            if hid:
                tok_map[str(i)] = [self._token_private(state, tid) for tid in hid]
        return {
            "role": "wizard",
            "hand": [self._wcard_view(state, c) for c in sorted(w["hand"], key=lambda c: state["wcards"][c])],
            "opening": [self._wcard_view(state, c) for c in w["opening"]],
            "tokens": tok_map,
            "keys": [i for i, t in enumerate(state["tiles"]) if t["key"]],
            "mana_left": self.mana_left(state),
            "pending": dict(p) if p else None,
            "playing": self._wcard_view(state, w["pending_card"]) if w["pending_card"] is not None else None,
        }

    def _hero_private(self, state: dict, viewer: int) -> HeroPrivate:
        h = state["heroes"][viewer]
        c = state["commits"].get(str(viewer))
        return {
            "role": "hero", "seat": viewer, "hp": h["hp"], "keys": h["keys"],
            "hand": [self._card_view(state, cid) for cid in sorted(h["hand"])],
            "equip": [self._card_view(state, cid) for cid in h["equip"]],
            "commit": c, "commit_text": self.describe_action(state, viewer, c) if c else None,
        }

    def _card_view(self, state: dict, cid: int) -> LootCardView:
        d = self.ldef(state, cid)
        v: LootCardView = {"id": cid, "name": d["name"], "kind": d["kind"], "text": d["text"]}
        if d["kind"] == "equipment":
            v["slot"], v["attack"], v["save"] = d["slot"], d["attack"], d["save"]
        return v

    def _wcard_view(self, state: dict, cid: int) -> WizardCardView:
        d = self.wdef(state, cid)
        return {"id": cid, "name": d["name"], "kind": d["kind"], "cost": d["cost"], "text": d["text"],
                "level": d.get("level")}

    def _token_private(self, state: dict, tid: int) -> TokenPrivate:
        t = self.tok(state, tid)
        if t["kind"] == "monster":
            return {"kind": "monster", "name": self._monster_name(t), "level": t["level"], "count": t.get("count", 1)}
        return {"kind": t["kind"]}

