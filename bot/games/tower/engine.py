"""10 Minute Heist: The Wizard's Tower -- the rules engine.

State (plain JSON):
  tower[floor][slot]  card id or None (floor 0 = top, floor 7 = bottom; tower[7][4] is face-down while it is there)
  pawns[seat]   [floor, slot]; floor -1 = balcony, floor 8 = bridge
  hauls[seat]   face-up cards; secret[seat] the face-down card (None once revealed by the Codex)
  queue         pending steps of the current turn (card powers, the 2-player discard); queue[0] is decided now
  box / box_unseen  cards returned to the box face-up / unseen; out_of_play: the special set not used
  draft         the Master Thief draft (hand passed from seat n-1 down to seat 0)
"""
from __future__ import annotations

import random
from typing import Any

from bot.engine import Engine, GameMeta, Option
from bot.rng import Rng

from . import cards
from .cards import CARDS, name
from .viewtypes import (
    CardView,
    CellView,
    DraftView,
    HaulView,
    PawnView,
    PendingView,
    ScoringTileView,
    TowerPrivate,
    TowerView,
)

FLOORS, SLOTS = 8, 5
BALCONY, BRIDGE = -1, 8
HIDDEN = (7, 4)
FORCED_STEPS = ("amulet_discard", "amulet_give", "sand", "tales", "cloak", "distill", "crown", "row_discard",
                "vamp_take")

SUMMARY = """**Goal:** leave the tower with the best haul. Prestige comes from the 13 scoring tiles and a few cards.

**Setup:** 2 floors of Light cards (face-up), 6 floors of Dark cards below (the very last card of the bottom floor is face-down). Each thief gets one secret face-down Light card. All pawns start on the balcony above floor 1. Seat 1 (the host) starts; play goes in seat order.

**Your turn:** claim one card on your pawn's floor **or below** and move your pawn to its space (you may skip floors and move sideways, never up). Its power happens at once; a card whose power you can't complete can't be claimed. The face-down bottom card is revealed when claimed, then its power happens. Or **exit** to the bridge: 1st out gets *1st to Exit* (+2), 2nd *2nd to Exit* (+1), the last one *Last to Exit* (-1). You then stop playing. The game ends when every pawn is on the bridge.

**Scoring:** secret cards are revealed. Each tile goes to the single leader; **a tie awards nobody**.
• Most Potion +3, Fossil +4, Artifact +4, Jewel +5, Tome +6: sum of values of your cards of that suit (Wild counts for all five, two-suit cards for both).
• Most 3s +5, 4s +4, 5s +3: number of your cards showing that number.
• Most curses -3, fewest curses +1 (Radiant Hamsa -2, never below 0).
Add card prestige. Ties: fewest curses, then most tiles, else shared win.

**Special set A (default):** Amulet of Nae (send any tower card to the box, then give the Amulet to another player), Haunted Nesting Dolls (a 3, 4 and 5), Radiant Hamsa (a 5, -2 curses), Sand of Illusion (goes under a face-up 3/4/5 card of yours and doubles it), Serpent's Hourglass (Wild 1, extra turn), Tales of Myth & Magic (Jewel+Tome 6; discard a curse-free card of yours to claim it), Thief's Portal Cloak (also claim any one tower card without moving), Forged Certificate (+2 prestige).
**Set B (option):** Distillation of Prescience (peek at a secret card), Philosopher's Stone (Wild 3), Boots/Pouch/Blade (+1 prestige each), Codex of Truth (reveal your secret), Bone Crown (each other player discards a curse-free card), Vampire's Blood (may swap a curse-free card of yours with one in the tower).

**Master Thief variant:** secret cards are drafted after the tower is built, from the seat before the starting player backwards.
**Two players:** no 2nd/Last to Exit or Fewest Curses tiles; after each claim you must discard a card from the floor your pawn is on (the face-down card goes unseen)."""


def _card_view(cid: int) -> CardView:
    card = CARDS[cid]
    return {"id": cid, "name": card["name"], "suits": card["suits"], "values": card["values"], "curses": card["curses"],
            "prestige": card["prestige"], "power": card["power"], "set": card["set"], "deck": card["deck"]}


def _floor_label(f: int) -> str:
    return f"floor {f + 1}"


class TowerEngine(Engine):
    """10 Minute Heist: The Wizard's Tower: claim cards floor by floor, never climbing back, then the best haul wins."""
    meta = GameMeta(
        key="tower",
        name="The Wizard's Tower (10 Minute Heist)",
        min_players=2,
        max_players=5,
        blurb="Loot a wizard's tower floor by floor; you can never climb back up.",
        summary=SUMMARY,
        options=(
            Option("special_set", "Special cards", "A", "Which 8 special Dark cards are used: set A (basic) or set B.",
                   choices=("A", "B")),
            Option("master_thief", "Master Thief variant", False,
                   "Draft the secret cards after the tower is built instead of dealing them."),
        ),
    )

    # ------------------------------------------------------------------ setup
    def setup(self, names: list[str], options: dict[str, Any], seed: int) -> dict:
        """A new game: eight floors dealt (light on top, dark below), pawns on the balcony, secrets or the draft."""
        players = len(names)
        self.meta.check_players(players)
        opts = self.meta.resolve_options(options)
        state: dict[str, Any] = {
            "names": list(names), "rng": Rng.seed_state(seed), "n": players,
            "options": {"special_set": opts["special_set"], "master_thief": bool(opts["master_thief"])},
            "phase": "play", "tower": [[None] * SLOTS for _ in range(FLOORS)],
            "pawns": [[BALCONY, -1] for _ in range(players)], "hauls": [[] for _ in range(players)],
            "secret": [None] * players, "revealed": [None] * players, "sand_target": None,
            "box": [], "box_unseen": [], "out_of_play": [], "draft": None, "offered": [[] for _ in range(players)],
            "seen": [[] for _ in range(players)], "turn": 0, "exits": [], "queue": [], "extra": False,
            "recent": [], "bonus": False,
        }
        rng = Rng(state)
        light = list(cards.LIGHT)
        rng.shuffle(light)
        if state["options"]["master_thief"]:
            remove = {2: 3, 3: 2}.get(players, 1)
            state["box_unseen"] += light[:remove]
            light = light[remove:]
        for floor in range(2):
            state["tower"][floor] = light[:SLOTS]
            light = light[SLOTS:]
        used, unused = (cards.SET_A, cards.SET_B) if opts["special_set"] == "A" else (cards.SET_B, cards.SET_A)
        state["out_of_play"] = list(unused)
        if not state["options"]["master_thief"]:
            for seat in range(players):
                state["secret"][seat] = light.pop(0)
            state["box_unseen"] += light
            light = []
        dark = list(cards.DARK_PLAIN) + list(used)
        rng.shuffle(dark)
        for floor in range(2, FLOORS):
            state["tower"][floor] = dark[:SLOTS]
            dark = dark[SLOTS:]
        state["box_unseen"] += dark
        if state["options"]["master_thief"]:
            state["phase"] = "draft"
            state["draft"] = {"order": list(range(players - 1, -1, -1)), "pos": 0, "hand": light}
        return state

    # ------------------------------------------------------------------ helpers
    def _name(self, state, seat: int) -> str:
        return state["names"][seat]

    @staticmethod
    def _hidden_there(state) -> bool:
        return state["tower"][HIDDEN[0]][HIDDEN[1]] is not None

    @staticmethod
    def _is_hidden(f: int, slot: int) -> bool:
        return (f, slot) == HIDDEN

    def _tower_cards(self, state):
        for floor in range(FLOORS):
            row = state["tower"][floor]
            for slot in range(SLOTS):
                if row[slot] is not None:
                    yield floor, slot, row[slot]

    def _card_label(self, state, f: int, slot: int) -> str:
        if self._is_hidden(f, slot):
            return f"the face-down card ({_floor_label(f)})"
        return f"{name(state['tower'][f][slot])} ({_floor_label(f)})"

    def _power_ok(self, state, seat: int, cid: int, at: tuple[int, int] | None) -> bool:
        """Can ``seat`` complete the power of ``cid`` if it claimed it now (from tower space ``at``)?"""
        power = CARDS[cid]["power"]
        if power == "sand":
            return any(cards.sand_target_ok(c) for c in state["hauls"][seat])
        if power == "tales":
            return any(cards.curse_free(c) for c in state["hauls"][seat])
        if power == "distill":
            return any(state["secret"][o] is not None for o in range(state["n"]) if o != seat)
        if power == "cloak":
            for f, slot, other in self._tower_cards(state):
                if (f, slot) == at:
                    continue
                if self._is_hidden(f, slot) or self._power_ok(state, seat, other, (f, slot)):
                    return True
            return False
        return True

    def _claimable(self, state, seat: int, f: int, slot: int) -> bool:
        cid = state["tower"][f][slot]
        if cid is None:
            return False
        if self._is_hidden(f, slot):
            return True  # nobody knows what it is: it may always be claimed (see docs, Decisions)
        return self._power_ok(state, seat, cid, (f, slot))

    def _remove_from_haul(self, state, seat: int, cid: int) -> None:
        state["hauls"][seat].remove(cid)
        if state["sand_target"] == cid:
            state["sand_target"] = None  # Sand of Illusion stays, now duplicating nothing

    def _on_bridge(self, state, seat: int) -> bool:
        return state["pawns"][seat][0] == BRIDGE

    # ------------------------------------------------------------------ contract
    def to_act(self, state) -> list[int]:
        """One seat at a time: the drafter, else whoever owes a card power's choice, else the thief whose turn it is."""
        if state["phase"] == "over":
            return []
        if state["phase"] == "draft":
            draft = state["draft"]
            return [draft["order"][draft["pos"]]]
        if state["queue"]:
            return [state["queue"][0]["seat"]]
        return [state["turn"]]

    def is_terminal(self, state) -> bool:
        """Over once every pawn has left by the bridge."""
        return state["phase"] == "over"

    def legal_actions(self, state, seat: int) -> list[dict]:
        """The draft pick, a pending power's choices, or a turn's claims and the exit."""
        if seat not in self.to_act(state):
            return []
        if state["phase"] == "draft":
            return [{"type": "draft", "card": c} for c in sorted(state["draft"]["hand"])]
        if state["queue"]:
            return self._step_options(state, state["queue"][0])
        actions = []
        low = max(0, state["pawns"][seat][0])
        for floor in range(low, FLOORS):
            for slot in range(SLOTS):
                if self._claimable(state, seat, floor, slot):
                    actions.append({"type": "claim", "floor": floor, "slot": slot})
        actions.append({"type": "exit"})
        return actions

    def _step_options(self, state, step: dict) -> list[dict]:
        k, seat = step["k"], step["seat"]
        hauls = state["hauls"][seat]
        if k in ("amulet_discard",):
            return [{"type": "discard_tower", "floor": f, "slot": slot} for f, slot, _ in self._tower_cards(state)]
        if k == "row_discard":
            f = step["floor"]
            return [{"type": "discard_tower", "floor": f, "slot": slot} for slot in range(SLOTS)
                    if state["tower"][f][slot] is not None]
        if k == "amulet_give":
            return [{"type": "give", "to": o} for o in range(state["n"]) if o != seat]
        if k == "sand":
            return [{"type": "sand", "card": c} for c in hauls if cards.sand_target_ok(c)]
        if k in ("tales", "crown"):
            return [{"type": "discard_haul", "card": c} for c in hauls if cards.curse_free(c)]
        if k == "cloak":
            return [{"type": "take", "floor": f, "slot": slot} for f, slot, _ in self._tower_cards(state)
                    if self._claimable(state, seat, f, slot)]
        if k == "distill":
            return [{"type": "peek", "seat": o} for o in range(state["n"])
                    if o != seat and state["secret"][o] is not None]
        if k == "vamp":
            mine = [c for c in hauls if cards.curse_free(c)]
            theirs = self._vamp_tower(state)
            if not mine or not theirs:
                return []
            return [{"type": "skip"}] + [{"type": "swap", "card": c} for c in mine]
        if k == "vamp_take":
            return [{"type": "swap_take", "floor": f, "slot": slot} for f, slot in self._vamp_tower(state)]
        raise AssertionError(k)

    def _vamp_tower(self, state) -> list[tuple[int, int]]:
        return [(f, slot) for f, slot, c in self._tower_cards(state) if not self._is_hidden(f, slot) and cards.curse_free(c)]

    # ------------------------------------------------------------------ apply
    def _apply(self, state, seat: int, action: dict) -> list[dict]:
        events: list[dict] = []
        kind = action["type"]
        if state["phase"] == "draft":
            self._draft(state, seat, action["card"], events)
        elif state["queue"]:
            step = state["queue"].pop(0)
            self._resolve_step(state, step, action, events)
            self._run_queue(state, events)
        elif kind == "exit":
            self._exit(state, seat, events)
            self._end_turn(state, events)
        else:  # claim
            self._claim(state, seat, action["floor"], action["slot"], True, events)
            if state["n"] == 2:
                state["queue"].append({"k": "row_discard", "seat": seat, "floor": state["pawns"][seat][0]})
            self._run_queue(state, events)
        public = [e["text"] for e in events if "to" not in e]
        state["recent"] = (state["recent"] + public)[-6:]
        return events

    def _draft(self, state, seat: int, cid: int, events: list) -> None:
        draft = state["draft"]
        state["offered"][seat] = sorted(draft["hand"])
        draft["hand"].remove(cid)
        state["secret"][seat] = cid
        draft["pos"] += 1
        events.append({"type": "draft", "to": seat, "text": f"You keep **{name(cid)}** as your secret card."})
        if draft["pos"] < len(draft["order"]):
            nxt = draft["order"][draft["pos"]]
            events.append({"type": "draft", "text": f"{self._name(state, seat)} keeps a secret card and passes "
                                                    f"{len(draft['hand'])} cards to {self._name(state, nxt)}."})
        else:
            left = len(draft["hand"])
            state["box_unseen"] += draft["hand"]
            state["draft"] = None
            state["phase"] = "play"
            state["turn"] = 0
            events.append({"type": "draft", "text": f"{self._name(state, seat)} keeps the last secret card; "
                                                    f"{left} card{'s' if left != 1 else ''} go back to the box unseen. "
                                                    f"{self._name(state, 0)} starts the heist."})

    def _claim(self, state, seat: int, f: int, slot: int, move: bool, events: list) -> None:
        cid = state["tower"][f][slot]
        hidden = self._is_hidden(f, slot)
        state["tower"][f][slot] = None
        if move:
            state["pawns"][seat] = [f, slot]
        state["hauls"][seat].append(cid)
        who = self._name(state, seat)
        how = "" if move else " with the Portal Cloak"
        if hidden:
            events.append({"type": "claim", "text": f"{who} claims the face-down card of {_floor_label(f)}{how}: "
                                                    f"it is **{name(cid)}**!"})
        else:
            events.append({"type": "claim", "text": f"{who} claims **{name(cid)}** ({_floor_label(f)}){how}."})
        self._power(state, seat, cid, events)

    def _power(self, state, seat: int, cid: int, events: list) -> None:
        power = CARDS[cid]["power"]
        who = self._name(state, seat)
        steps: list[dict] = []
        if power == "amulet":
            steps = [{"k": "amulet_discard", "seat": seat}, {"k": "amulet_give", "seat": seat, "card": cid}]
        elif power in ("sand", "tales", "cloak", "distill"):
            steps = [{"k": power, "seat": seat}]
        elif power == "vampire":
            steps = [{"k": "vamp", "seat": seat}]
        elif power == "crown":
            players = state["n"]
            steps = [{"k": "crown", "seat": (seat + i) % players, "by": seat} for i in range(1, players)]
        elif power == "hourglass":
            state["extra"] = True
            events.append({"type": "power", "text": f"Serpent's Hourglass: {who} will take another turn."})
        elif power == "codex":
            secret = state["secret"][seat]
            if secret is None:
                events.append({"type": "power", "text": f"Codex of Truth: {who} has no face-down card to reveal."})
            else:
                state["secret"][seat] = None
                state["revealed"][seat] = secret
                state["hauls"][seat].append(secret)
                events.append({"type": "power", "text": f"Codex of Truth: {who} reveals their face-down card: "
                                                        f"**{name(secret)}**."})
        state["queue"][0:0] = steps

    def _run_queue(self, state, events: list) -> None:
        """Resolve queued steps that need no decision; stop at the first real choice, else end the turn."""
        while state["queue"]:
            step = state["queue"][0]
            options = self._step_options(state, step)
            if not options:
                state["queue"].pop(0)
                self._skip_note(state, step, events)
                continue
            if len(options) == 1 and step["k"] in FORCED_STEPS:
                state["queue"].pop(0)
                self._resolve_step(state, step, options[0], events)
                continue
            return
        self._end_turn(state, events)

    def _skip_note(self, state, step: dict, events: list) -> None:
        who = self._name(state, step["seat"])
        power = step["k"]
        text = {
            "amulet_discard": "Amulet of Nae: the tower is empty, nothing to discard.",
            "sand": f"Sand of Illusion: {who} has no face-up 3, 4 or 5 card, so the Sand stays loose.",
            "tales": f"Tales of Myth & Magic: {who} has no face-up curse-free card to discard.",
            "cloak": "Thief's Portal Cloak: no other card can be taken from the tower.",
            "distill": "Distillation of Prescience: no other player has a face-down card.",
            "crown": f"Bone Crown: {who} has no face-up curse-free card to discard.",
            "row_discard": f"No card is left on {_floor_label(step.get('floor', 0))} to discard.",
            "vamp": f"Vampire's Blood: no swap is possible for {who}.",
        }.get(power)
        if text:
            events.append({"type": "power", "text": text})

    def _discard_tower(self, state, f: int, slot: int) -> tuple[int, bool]:
        cid = state["tower"][f][slot]
        hidden = self._is_hidden(f, slot)
        state["tower"][f][slot] = None
        (state["box_unseen"] if hidden else state["box"]).append(cid)
        return cid, hidden

    def _resolve_step(self, state, step: dict, action: dict, events: list) -> None:
        k, seat = step["k"], step["seat"]
        who = self._name(state, seat)
        if k in ("amulet_discard", "row_discard"):
            f, slot = action["floor"], action["slot"]
            label = self._card_label(state, f, slot)
            self._discard_tower(state, f, slot)
            why = "Amulet of Nae: " if k == "amulet_discard" else ""
            unseen = " unseen" if self._is_hidden(f, slot) else ""
            events.append({"type": "discard", "text": f"{why}{who} returns {label} to the box{unseen}."})
        elif k == "amulet_give":
            to = action["to"]
            self._remove_from_haul(state, seat, step["card"])
            state["hauls"][to].append(step["card"])
            events.append({"type": "power", "text": f"Amulet of Nae: {who} puts the Amulet into "
                                                    f"{self._name(state, to)}'s haul."})
        elif k == "sand":
            state["sand_target"] = action["card"]
            events.append({"type": "power", "text": f"Sand of Illusion: {who} tucks the Sand under "
                                                    f"**{name(action['card'])}**, which now counts twice."})
        elif k in ("tales", "crown"):
            cid = action["card"]
            self._remove_from_haul(state, seat, cid)
            state["box"].append(cid)
            why = "Tales of Myth & Magic" if k == "tales" else "Bone Crown"
            events.append({"type": "discard", "text": f"{why}: {who} returns **{name(cid)}** from their haul "
                                                      f"to the box."})
        elif k == "cloak":
            self._claim(state, seat, action["floor"], action["slot"], False, events)
        elif k == "distill":
            target = action["seat"]
            cid = state["secret"][target]
            state["seen"][seat].append([target, cid])
            events.append({"type": "power", "text": f"Distillation of Prescience: {who} secretly looks at "
                                                    f"{self._name(state, target)}'s face-down card."})
            events.append({"type": "peek", "to": seat, "text": f"{self._name(state, target)}'s face-down card is "
                                                               f"**{name(cid)}**."})
        elif k == "vamp":
            if action["type"] == "skip":
                events.append({"type": "power", "text": f"Vampire's Blood: {who} keeps their haul as it is."})
            else:
                state["queue"].insert(0, {"k": "vamp_take", "seat": seat, "give": action["card"]})
        elif k == "vamp_take":
            f, slot = action["floor"], action["slot"]
            give = step["give"]
            take = state["tower"][f][slot]
            self._remove_from_haul(state, seat, give)
            state["tower"][f][slot] = give
            state["hauls"][seat].append(take)
            events.append({"type": "power", "text": f"Vampire's Blood: {who} swaps **{name(give)}** from their haul "
                                                    f"for **{name(take)}** ({_floor_label(f)})."})
        else:
            raise AssertionError(k)

    def _exit(self, state, seat: int, events: list) -> None:
        state["pawns"][seat] = [BRIDGE, -1]
        state["exits"].append(seat)
        n = len(state["exits"])
        who = self._name(state, seat)
        if n == 1:
            text = f"{who} escapes to the bridge first and takes **1st to Exit** (+2)."
        elif n == 2 and state["n"] > 2:
            text = f"{who} escapes to the bridge second and takes **2nd to Exit** (+1)."
        elif n == state["n"] and state["n"] > 2:
            text = f"{who} is the last thief out and takes **Last to Exit** (-1)."
        else:
            text = f"{who} escapes to the bridge."
        events.append({"type": "exit", "text": text})

    def _end_turn(self, state, events: list) -> None:
        players = state["n"]
        if all(self._on_bridge(state, seat) for seat in range(players)):
            self._finish(state, events)
            return
        seat = state["turn"]
        state["bonus"] = False
        if state["extra"] and not self._on_bridge(state, seat):
            state["extra"] = False
            state["bonus"] = True
            events.append({"type": "turn", "text": f"{self._name(state, seat)} takes another turn (Hourglass)."})
            return
        state["extra"] = False
        for i in range(1, players + 1):
            nxt = (seat + i) % players
            if not self._on_bridge(state, nxt):
                state["turn"] = nxt
                return

    def _finish(self, state, events: list) -> None:
        state["phase"] = "over"
        state["queue"] = []
        for seat in range(state["n"]):
            if state["secret"][seat] is not None:
                events.append({"type": "reveal", "text": f"{self._name(state, seat)} reveals their face-down card: "
                                                         f"**{name(state['secret'][seat])}**."})
        final = self._final(state)
        for a in final["awards"]:
            who = self._name(state, a["seat"]) if a["seat"] is not None else "nobody (tie)"
            if a["seat"] is None and a["tile"] in ("first", "second", "last"):
                continue
            events.append({"type": "tile", "text": f"{a['label']} ({a['prestige']:+d}): {who}"
                                                   + (f" [{a['note']}]" if a["values"] is not None else "")})
        winners = [seat for seat in range(state["n"]) if final["ranks"][seat] == 1]
        names = " and ".join(self._name(state, seat) for seat in winners)
        events.append({"type": "end", "text": f"Game over! {names} win{'s' if len(winners) == 1 else ''} with "
                                              f"{final['totals'][winners[0]]} prestige."})

    def _final(self, state) -> dict:
        hauls = [list(state["hauls"][seat]) + ([state["secret"][seat]] if state["secret"][seat] is not None else [])
                 for seat in range(state["n"])]
        return cards.final_scores(hauls, state["sand_target"], state["exits"])

    # ------------------------------------------------------------------ views
    def view(self, state, viewer: int | None) -> TowerView:  # type: ignore[override]
        """The public table (``viewer`` None), plus ``private`` for a seat."""
        players = state["n"]
        over = state["phase"] == "over"
        draft: DraftView | None = None
        if state["phase"] == "draft":
            d = state["draft"]
            draft = {"seat": d["order"][d["pos"]], "order": d["order"], "hand_size": len(d["hand"])}
        exits = list(state["exits"])
        v: TowerView = {
            "game": "tower", "names": list(state["names"]), "n": players, "phase": state["phase"],
            "status": self.status_line(state), "turn": state["turn"], "to_act": self.to_act(state),
            "options": {**state["options"], "two_player": players == 2},
            "tower": self._tower_view(state, over), "pawns": [self._pawn_view(state, seat) for seat in range(players)],
            "hauls": [self._haul_view(state, seat, over) for seat in range(players)], "exits": exits,
            "tiles": self._scoring_tiles_view(players, exits), "pending": self._pending_view(state, over),
            "draft": draft, "box": [_card_view(c) for c in state["box"]], "box_unseen_count": len(state["box_unseen"]),
            "extra_turn": state["extra"], "recent": list(state["recent"]),
        }
        if over:
            final = self._final(state)
            v["final"] = {"awards": final["awards"], "totals": final["totals"], "ranks": final["ranks"],
                          "tiles": final["tiles"], "stats": final["stats"],
                          "winners": [seat for seat in range(players) if final["ranks"][seat] == 1],
                          "bottom_card": _card_view(state["tower"][HIDDEN[0]][HIDDEN[1]]) if self._hidden_there(state)
                          else None}
        if viewer is not None:
            v["private"] = self._private_view(state, viewer, draft)
        return v

    def _tower_view(self, state, over: bool) -> list[list[CellView | None]]:
        """Floor by floor: empty spaces, the face-down bottom card's back, face-up cards."""
        tower: list[list[CellView | None]] = []
        for floor in range(FLOORS):
            row: list[CellView | None] = []
            for slot in range(SLOTS):
                cid = state["tower"][floor][slot]
                if cid is None:
                    row.append(None)
                elif self._is_hidden(floor, slot) and not over:
                    row.append({"back": "dark"})
                else:
                    cell: CellView = {"card": _card_view(cid)}
                    if self._is_hidden(floor, slot):
                        cell["was_face_down"] = True
                    row.append(cell)
            tower.append(row)
        return tower

    @staticmethod
    def _pawn_view(state, seat: int) -> PawnView:
        f, slot = state["pawns"][seat]
        if f == BALCONY or f == BRIDGE:
            return {"seat": seat, "where": "balcony" if f == BALCONY else "bridge", "floor": None, "slot": None}
        return {"seat": seat, "where": "tower", "floor": f, "slot": slot}

    @staticmethod
    def _haul_view(state, seat: int, over: bool) -> HaulView:
        face_up = state["hauls"][seat]
        st = cards.haul_stats(face_up, state["sand_target"])
        entry: HaulView = {
            "seat": seat, "name": state["names"][seat], "cards": [_card_view(c) for c in face_up],
            "sand_under": state["sand_target"] if cards.SAND in face_up and state["sand_target"] in face_up else None,
            "secret": None, "revealed": state["revealed"][seat],
            "visible": {"suits": st["suits"], "numbers": st["numbers"], "curses": st["raw_curses"],
                        "prestige": st["card_prestige"]}}
        if state["secret"][seat] is not None:
            entry["secret"] = _card_view(state["secret"][seat]) if over else "back"
        return entry

    @staticmethod
    def _scoring_tiles_view(n: int, exits: list[int]) -> list[ScoringTileView]:
        """The scoring tiles, with who holds the exit tiles so far."""
        tiles: list[ScoringTileView] = []
        for t in cards.TILES:
            in_play = not (n == 2 and t["key"] in cards.TWO_PLAYER_OUT)
            holder = None
            if t["key"] == "first" and exits:
                holder = exits[0]
            elif t["key"] == "second" and len(exits) >= 2 and n > 2:
                holder = exits[1]
            elif t["key"] == "last" and len(exits) == n and n > 2:
                holder = exits[-1]
            tiles.append({"key": t["key"], "label": t["label"], "prestige": t["prestige"], "in_play": in_play,
                          "holder": holder})
        return tiles

    def _pending_view(self, state, over: bool) -> PendingView | None:
        if not state["queue"] or over:
            return None
        step = state["queue"][0]
        pending: PendingView = {"seat": step["seat"], "kind": step["k"], "text": self._pending_text(state, step)}
        if step["k"] == "vamp_take":
            pending["give"] = step["give"]
        if step["k"] == "row_discard":
            pending["floor"] = step["floor"]
        return pending

    @staticmethod
    def _private_view(state, viewer: int, draft: DraftView | None) -> TowerPrivate:
        priv: TowerPrivate = {"seat": viewer,
                              "secret": _card_view(state["secret"][viewer]) if state["secret"][viewer] is not None
                              else None,
                              "seen": [{"seat": t, "name": state["names"][t], "card": _card_view(c)}
                                       for t, c in state["seen"][viewer]],
                              "draft_offered": [_card_view(c) for c in state["offered"][viewer]],
                              "draft_hand": None}
        if draft and draft["seat"] == viewer:
            priv["draft_hand"] = [_card_view(c) for c in sorted(state["draft"]["hand"])]
        mine = list(state["hauls"][viewer]) + ([state["secret"][viewer]] if state["secret"][viewer] is not None
                                               else [])
        priv["my_totals"] = cards.haul_stats(mine, state["sand_target"])
        return priv

    def _pending_text(self, state, step: dict) -> str:
        who = self._name(state, step["seat"])
        return {
            "amulet_discard": f"{who} chooses a tower card to send to the box (Amulet of Nae)",
            "amulet_give": f"{who} chooses who receives the Amulet of Nae",
            "sand": f"{who} chooses a card to put the Sand of Illusion under",
            "tales": f"{who} chooses a haul card to discard for Tales of Myth & Magic",
            "cloak": f"{who} chooses a tower card to take with the Portal Cloak",
            "distill": f"{who} chooses whose face-down card to look at",
            "crown": f"Bone Crown: {who} chooses a haul card to discard",
            "row_discard": f"{who} must discard a card from {_floor_label(step.get('floor', 0))}",
            "vamp": f"Vampire's Blood: {who} may swap a haul card with a tower card",
            "vamp_take": f"Vampire's Blood: {who} chooses the tower card to swap for",
        }[step["k"]]

    def status_line(self, state) -> str:
        """Whose turn it is and what they must decide (or who won with how much prestige)."""
        if state["phase"] == "over":
            final = self._final(state)
            winners = [seat for seat in range(state["n"]) if final["ranks"][seat] == 1]
            names = " and ".join(self._name(state, seat) for seat in winners)
            return f"Game over: {names} win{'s' if len(winners) == 1 else ''} with {final['totals'][winners[0]]} prestige."
        if state["phase"] == "draft":
            draft = state["draft"]
            return f"Master Thief draft: {self._name(state, draft['order'][draft['pos']])} is choosing a secret card."
        if state["queue"]:
            return self._pending_text(state, state["queue"][0]) + "."
        seat = state["turn"]
        floor = state["pawns"][seat][0]
        where = "on the balcony" if floor == BALCONY else f"on {_floor_label(floor)}"
        extra = " (extra turn from the Hourglass)" if state.get("bonus") else ""
        return f"{self._name(state, seat)}'s turn: thief {where}{extra}."

    # ------------------------------------------------------------------ results
    def scores(self, state) -> list[dict]:
        """Each player's total prestige (cards and scoring tiles), ranked, with the tiles in the detail."""
        final = self._final(state)
        out = []
        for seat in range(state["n"]):
            tiles = [cards.TILE_BY_KEY[k] for k in final["tiles"][seat]]
            tile_txt = ", ".join(f"{t['label']} {t['prestige']:+d}" for t in tiles) or "no tiles"
            cp = final["stats"][seat]["card_prestige"]
            detail = f"{tile_txt}; cards {cp:+d}; curses {final['stats'][seat]['curses']}"
            out.append({"seat": seat, "score": final["totals"][seat], "rank": final["ranks"][seat],
                        "won": final["ranks"][seat] == 1, "detail": detail})
        return out

    # ------------------------------------------------------------------ text
    def describe_action(self, state, seat: int, action: dict) -> str:
        """An action in words for the move list and the log ("Claim Ruby Slippers (floor 3)")."""
        kind = action["type"]
        if kind == "claim":
            return f"Claim {self._card_label(state, action['floor'], action['slot'])}"[:80]
        if kind == "take":
            return f"Take {self._card_label(state, action['floor'], action['slot'])}"[:80]
        if kind == "discard_tower":
            return f"Discard {self._card_label(state, action['floor'], action['slot'])}"[:80]
        if kind == "swap_take":
            return f"Swap for {self._card_label(state, action['floor'], action['slot'])}"[:80]
        if kind == "exit":
            exited = len(state["exits"])
            players = state["n"]
            left = players - exited
            if exited == 0:
                tile = " (1st to Exit, +2)"
            elif exited == 1 and players > 2 and left > 1:
                tile = " (2nd to Exit, +1)"
            elif left == 1 and players > 2:
                tile = " (Last to Exit, -1)"
            else:
                tile = ""
            return f"Exit to the bridge{tile}"
        if kind == "draft":
            return f"Keep {name(action['card'])} {self._card_brief(action['card'])}"[:80]
        if kind == "give":
            return f"Give the Amulet to {self._name(state, action['to'])}"[:80]
        if kind == "sand":
            return f"Put the Sand under {name(action['card'])}"[:80]
        if kind == "discard_haul":
            return f"Discard {name(action['card'])} from your haul"[:80]
        if kind == "peek":
            return f"Look at {self._name(state, action['seat'])}'s face-down card"[:80]
        if kind == "swap":
            return f"Swap away {name(action['card'])}"[:80]
        if kind == "skip":
            return "Don't swap"
        return kind

    @staticmethod
    def _card_brief(cid: int) -> str:
        card = CARDS[cid]
        suits = "Wild" if "Wild" in card["suits"] else "+".join(card["suits"]) or "no suit"
        vals = "/".join(str(v) for v in card["values"]) or "0"
        extra = ""
        if card["curses"]:
            extra += f", {card['curses']} curse" + ("s" if abs(card["curses"]) != 1 else "")
        return f"({suits} {vals}{extra})"

    def action_group(self, state, seat: int, action: dict) -> str:
        """The heading an action is listed under in the move panel (its floor, or the power it belongs to)."""
        kind = action["type"]
        if kind in ("claim", "take", "discard_tower", "swap_take"):
            return f"Floor {action['floor'] + 1}"
        return {"exit": "Exit", "draft": "Secret card", "give": "Amulet", "sand": "Sand of Illusion",
                "discard_haul": "Discard from haul", "peek": "Distillation", "swap": "Vampire's Blood",
                "skip": "Vampire's Blood"}.get(kind, kind.capitalize())

    def private_text(self, view: dict) -> str:
        """A player's private view in words: their face-down card, the draft, what they peeked at, their totals."""
        private = view.get("private") or {}
        lines = []
        if private.get("secret"):
            secret = private["secret"]
            lines.append(f"Your face-down card: **{secret['name']}** {self._card_brief(secret['id'])}")
        else:
            lines.append("You have no face-down card.")
        if private.get("draft_hand"):
            lines.append("Choose your secret card from: " + ", ".join(
                f"**{c['name']}** {self._card_brief(c['id'])}" for c in private["draft_hand"]))
        elif private.get("draft_offered"):
            lines.append("Cards you saw in the draft: " + ", ".join(c["name"] for c in private["draft_offered"]))
        for peeked in private.get("seen", []):
            lines.append(f"You looked at {peeked['name']}'s face-down card: **{peeked['card']['name']}**")
        totals = private.get("my_totals")
        if totals:
            suits = ", ".join(f"{k} {v}" for k, v in totals["suits"].items())
            nums = ", ".join(f"{k}s: {v}" for k, v in totals["numbers"].items())
            lines.append(f"Your haul with your secret: {suits}; {nums}; curses {totals['curses']}; "
                         f"card prestige {totals['card_prestige']}")
        return "\n".join(lines)

    def illegal_message(self, state, seat: int, action: dict) -> str:
        """Why an action is refused (floor above the pawn, power that can't be completed, pending choice first, ...)."""
        kind = action.get("type") if isinstance(action, dict) else None
        if state["phase"] == "draft":
            return "Choose one of the secret cards in the draft hand."
        if state["queue"]:
            return "First finish the current choice: " + self._pending_text(state, state["queue"][0]) + "."
        if kind == "claim":
            try:
                f, slot = int(action["floor"]), int(action["slot"])
            except (KeyError, TypeError, ValueError):
                return "Pick a card in the tower to claim."
            if not (0 <= f < FLOORS and 0 <= slot < SLOTS):
                return "There is no such space in the tower."
            cid = state["tower"][f][slot]
            if cid is None:
                return f"That space on {_floor_label(f)} is empty."
            pf = state["pawns"][seat][0]
            label = self._card_label(state, f, slot)
            if f < pf:
                return f"You can't move up the tower: {label} is above your thief ({_floor_label(pf)})."
            power = CARDS[cid]["power"]
            reason = {"sand": "you have no face-up 3, 4 or 5 card to put it under",
                      "tales": "you have no face-up card without a curse to discard",
                      "distill": "no other player has a face-down card",
                      "cloak": "there is no other card you could take with it"}.get(power, "its power can't be done")
            return f"You can't claim {name(cid)}: {reason}."
        return "That move isn't allowed right now."

    # ------------------------------------------------------------------ bot / seats
    def bot_action(self, state, seat: int, rng: random.Random) -> dict:
        """The bot's move for ``seat``, from that seat's view only."""
        from .bot_player import choose
        return choose(self, state, seat, rng)


ENGINE = TowerEngine()
