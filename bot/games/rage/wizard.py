"""Wizard's Rage: the wizard's turn (the rage, drawing, playing monster, trap and spell cards)."""
from __future__ import annotations

from typing import Any, Callable

from bot.engine import RuleError
from bot.rng import Rng

from . import cards as C
from .constants import AMBUSH_LEVEL, DIR_NAMES, TRAP_DAMAGE


class WizardTurnMixin:
    """What the wizard may do on their turn, and what it does."""

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
        for cid in instants:  # set aside only when there is an ``ev`` to report them in
            assert ev is not None
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

    def _wizard_phase_options(self, state: dict, seat: int) -> list[dict]:
        return self._wizard_actions(state)

    def _apply_wizard_phase(self, state: dict, seat: int, action: dict) -> list[dict]:
        return self._apply_wizard(state, action)

    def _apply_wizard(self, state: dict, action: dict) -> list[dict]:
        handler = WIZARD_ACTIONS.get(action["type"])
        if handler is None:
            raise RuleError("That move isn't allowed right now.")
        return handler(self, state, action)

    def _do_remove(self, state: dict, action: dict) -> list[dict]:
        """The rage, one decision: the wizard picks where the world breaks; the crack spreads to the safe
        tiles nearest to it (ties by the game's dice) until as many tiles as players are gone."""
        i = action["tile"]
        ev = self._remove_tile(state, i)
        rng = Rng(state)
        r0, c0 = self.rc(state, i)
        for _ in range(state["pending"]["left"] - 1):
            safe = self.safe_removals(state)
            if not safe:
                break
            dist = {j: abs(self.rc(state, j)[0] - r0) + abs(self.rc(state, j)[1] - c0) for j in safe}
            near = [j for j in safe if dist[j] == min(dist.values())]
            ev.extend(self._remove_tile(state, near[rng.below(len(near))]))
        state["pending"] = None
        ev.extend(self._wizard_draw(state))
        return ev

    def _do_discard(self, state: dict, action: dict) -> list[dict]:
        w = state["wizard"]
        cid = action["card"]
        w["hand"].remove(cid)
        w["discard"].append(cid)
        return [self._e("discard", "The wizard discards a card down to the hand limit."),
                self._e("discard", f"You discard {self.wdef(state, cid)['name']}.", to=0)]

    def _do_end_turn(self, state: dict, action: dict) -> list[dict]:
        ev = [self._e("end", "The wizard ends the turn. Heroes, commit your moves!")]
        ev.extend(self._start_hero_phase(state))
        return ev

    def _do_play(self, state: dict, action: dict) -> list[dict]:
        w = state["wizard"]
        cid = action["card"]
        d = self.wdef(state, cid)
        w["hand"].remove(cid)
        w["spent"] += d["cost"]
        w["pending_card"] = cid
        if d["kind"] in ("monster", "trap"):
            total = 1 + d["decoys"]
            state["pending"] = {"kind": "place", "trap": d["kind"] == "trap", "total": total}
            return [self._e("play", f"The wizard plays a card ({d['cost']} mana): {total} face-down "
                                    "tokens will appear."),
                    self._e("play", f"You play {d['name']}: pick the tile for the {self._real_word(d)}; "
                                    f"its {d['decoys']} decoy{'s' if d['decoys'] != 1 else ''} land on "
                                    "random tiles just as far from the nearest hero.", to=0)]
        ev = [self._e("spell", f"The wizard casts **{d['name']}** ({d['cost']} mana): {d['text']}")]
        eff = d["effect"]
        if eff in ("frost", "fireball", "ambush"):
            state["pending"] = {"kind": "target", "effect": eff}
            return ev
        if eff == "turn_tower":
            state["pending"] = {"kind": "turn_tower"}
            return ev
        ev.extend(self._play_at_once(state, d))
        self._finish_card(state)
        return ev

    def _play_at_once(self, state: dict, d: dict) -> list[dict]:
        """A played spell without a target: Dark Surge, Ley Tap, Scrying Pool."""
        eff = d["effect"]
        ev: list[dict] = []
        if eff == "surge":
            state["wizard"]["spent"] -= d["amount"]
            ev.append(self._e("spell", f"The wizard has {self.mana_left(state)} mana left this turn."))
        elif eff == "wheel":
            ev.extend(self._spin(state, d["amount"]))
        elif eff == "scry":
            drawn = self._draw_wizard(state, d["amount"], ev)
            ev.append(self._e("draw", f"The wizard draws {len(drawn)} cards."))
            if drawn:
                ev.append(self._e("draw", "You draw " + ", ".join(self.wdef(state, c)["name"] for c in drawn)
                                  + ".", to=0))
        return ev

    def _do_place(self, state: dict, action: dict) -> list[dict]:
        ev = self._place_card(state, action["tile"])
        self._finish_card(state)
        return ev

    def _do_target(self, state: dict, action: dict) -> list[dict]:
        ev = self._cast(state, state["pending"]["effect"], action["tile"])
        self._finish_card(state)
        ev.extend(self._check_wizard_win(state))
        if state["phase"] != "over":
            ev.extend(self._settle_drops(state))
        return ev

    def _do_turn_tower(self, state: dict, action: dict) -> list[dict]:
        state["entrance"] = action["dir"]
        ev = [self._e("spell", f"The tower turns: its door now faces {DIR_NAMES[action['dir']]} "
                               f"({self.label(state, self.entrance_tile(state))}).")]
        self._finish_card(state)
        return ev

    @staticmethod
    def _real_word(d: dict) -> str:
        if d["kind"] == "trap":
            return "trap"
        return "monsters" if d.get("monsters", 1) > 1 else "monster"

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


WIZARD_ACTIONS: dict[str, Callable[[Any, dict, dict], list[dict]]] = {
    "remove": WizardTurnMixin._do_remove,
    "discard": WizardTurnMixin._do_discard,
    "end_turn": WizardTurnMixin._do_end_turn,
    "play": WizardTurnMixin._do_play,
    "place": WizardTurnMixin._do_place,
    "target": WizardTurnMixin._do_target,
    "entrance": WizardTurnMixin._do_turn_tower,  # the Turn Tower spell
}
