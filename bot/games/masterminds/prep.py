"""Masterminds: the PREP turn (recruit phase, plan phase) and the card effects it triggers."""
from __future__ import annotations

from collections import Counter

from bot.rng import Rng

from .cards import ABILITIES, PREP, TALENTS, prep_name
from .constants import STEP_LETTERS


class PrepMixin:
    """Recruiting, drawing, action cards, gear and gems."""

    def _recruit(self, state, seat: int, tid: str, replace: str | None, events) -> None:
        name = self._name(state, seat)
        team = state["teams"][seat]
        text = f"{name} recruits {self._tname(tid)}"
        if replace:
            self._discard_recruit(state, seat, replace)
            text += f", replacing {self._tname(replace)}"
        team.append({"card": tid, "gear": None, "tapped": False, "injured": False})
        events.append({"type": "recruit", "text": text + "."})
        self._stat(state, "used", "talent:" + self._tname(tid))
        self._stat(state, "available", "ability:" + ABILITIES[TALENTS[tid]["ability"]]["name"])
        if TALENTS[tid]["ability"] == "scout":
            self._stat(state, "used", "ability:Scout")
            events.append({"type": "ability", "text": f"{self._tname(tid)} (Scout) brings a Prep card."})
            self._draw_prep(state, seat, 1, events)

    def _discard_recruit(self, state, seat: int, tid: str) -> None:
        team = state["teams"][seat]
        for i, e in enumerate(team):
            if e["card"] == tid:
                if e["gear"]:
                    state["prep_discard"].append(e["gear"])
                state["talent_discard"].append(tid)
                del team[i]
                return

    def _start_plan(self, state, events) -> None:
        state["phase"] = "plan"
        state["plan_left"] = 2

    def _plan_done(self, state, events) -> None:
        state["plan_left"] -= 1
        if state["plan_left"] <= 0:
            self._upkeep(state, events)
        else:
            state["phase"] = "plan"

    def _draw_prep(self, state, seat: int, count: int, events, ctx: dict | None = None) -> None:
        """Draw ``count`` Prep cards; immediate cards resolve at once (one reshuffle per draw effect)."""
        ctx = ctx if ctx is not None else {"reshuffled": False}
        name = self._name(state, seat)
        drawn: list[str] = []
        for _ in range(count):
            if state["phase"] == "over" or state.get("end_reason"):
                break
            if not state["prep_deck"]:
                if ctx["reshuffled"] or not state["prep_discard"]:
                    events.append({"type": "draw", "text": "The Prep deck is empty."})
                    break
                ctx["reshuffled"] = True
            pid = self._draw_from(state, "prep_deck", "prep_discard", events, "Prep")
            if pid is None:
                break
            p = PREP[pid]
            if p["kind"] == "immediate":
                if drawn:
                    self._draw_event(state, seat, drawn, events)
                    drawn = []
                events.append({"type": "immediate", "text": f"{name} draws {p['name']} and must play it at once: {p['text'].split(': ', 1)[-1]}"})
                state["prep_discard"].append(pid)
                self._stat(state, "used", "prep:" + p["name"])
                self._immediate(state, seat, p["effect"], events, ctx)
            else:
                self._stat(state, "available", "prep:" + p["name"])
                state["hands"][seat].append(pid)
                drawn.append(pid)
        if drawn:
            self._draw_event(state, seat, drawn, events)

    def _draw_event(self, state, seat, drawn, events) -> None:
        n = len(drawn)
        events.append({"type": "draw", "text": f"{self._name(state, seat)} draws {n} Prep card{'s' if n > 1 else ''}."})
        events.append({"type": "draw", "to": seat, "text": "You draw " + ", ".join(prep_name(p) for p in drawn) + "."})

    def _immediate(self, state, seat: int, effect: str, events, ctx) -> None:
        if effect == "windfall":
            self._take_gems(state, seat, 1, events, "Windfall")
        elif effect == "tip":
            self._draw_prep(state, seat, 2, events, ctx)
        elif effect == "rivals":
            self._burn_and_refill(state, events)
        elif effect == "lockdown":
            for slot, h in enumerate(state["heists"]):
                if h is not None and slot != state.get("completing"):
                    self._pop_last_die(state, h, events)
            if state.get("completing") is not None:
                events.append({"type": "immediate", "text": "The heist being completed is already cracked: "
                               "Lockdown doesn't touch its dice."})

    def _burn_and_refill(self, state, events) -> None:
        state["talent_discard"].extend(state["pool"])
        state["pool"].clear()
        self._refresh_pool(state, events)
        events.append({"type": "pool", "text": "The Talent Pool is burned and refilled: "
                       + (", ".join(self._tname(t) for t in state["pool"]) or "nobody") + "."})

    def _pop_last_die(self, state, h, events) -> None:
        k = self._next_step(h) - 1
        if k < 0:
            return
        d = h["dice"][k]
        h["dice"][k] = None
        state["dice"][d["seat"]] += 1
        events.append({"type": "die", "text": f"{self._name(state, d['seat'])}'s die on {self._heist_name(h)} step {STEP_LETTERS[k]} goes back to them."})

    def _take_gems(self, state, seat: int, count: int, events, reason: str) -> None:
        rng = Rng(state)
        got: Counter = Counter()
        colours = self._gem_colours(state)
        for _ in range(count):
            total = sum(state["bag"].values())
            if total == 0:
                break
            r = rng.below(total)
            for c in colours:
                if r < state["bag"][c]:
                    state["bag"][c] -= 1
                    state["gems"][seat][c] += 1
                    got[c] += 1
                    break
                r -= state["bag"][c]
        left = sum(state["bag"].values())
        if got:
            desc = ", ".join(f"{n} {c}" for c, n in got.items())
            events.append({"type": "gems", "text": f"{self._name(state, seat)} takes {sum(got.values())} gem{'s' if sum(got.values()) > 1 else ''} from the bag ({reason}): {desc}. Bag: {left} left."})
        if left == 0:
            events.append({"type": "end", "text": "The last gem has been taken from the bag!"})
            state["end_reason"] = "bag"

    def _give_gem(self, state, seat: int, colour: str, events) -> None:
        state["gems"][seat][colour] -= 1
        state["bag"][colour] += 1
        events.append({"type": "gems", "text": f"{self._name(state, seat)} returns a {colour} gem to the bag."})

    def _play_action(self, state, seat: int, pid: str, gem: str | None, events) -> None:
        p = PREP[pid]
        name = self._name(state, seat)
        state["hands"][seat].remove(pid)
        state["prep_discard"].append(pid)
        self._stat(state, "used", "prep:" + p["name"])
        if any(state["gems"][seat].values()):
            self._stat(state, "available", "mechanic:gem bonus")
        text = f"{name} plays {p['name']}"
        if gem:
            self._stat(state, "used", "mechanic:gem bonus")
            state["gems"][seat][gem] -= 1
            state["bag"][gem] += 1
            text += f", spending a {gem} gem ({p['gem_text'].rstrip('.')})"
        else:
            text += f" ({p['text'].rstrip('.')})"
        events.append({"type": "action", "text": text + "."})
        eff = p["effect"]
        targets = self._action_targets(state, seat, pid, gem)
        if targets is not None:
            state["pending"] = {"card": pid, "gem": gem, "targets": targets}
            if len(targets) == 1:
                self._resolve_target(state, seat, targets[0], events)
            else:
                state["phase"] = "target"
            return
        if eff == "intel":
            state["intel"][seat] += 4 if gem else 2
            events.append({"type": "intel", "text": f"{name} now has {state['intel'][seat]} Intel for the next heist attempt."})
        elif eff == "draw":
            self._draw_prep(state, seat, 3 if gem else 2, events)
        elif eff == "blackmarket":
            self._draw_prep(state, seat, 3 if gem else 1, events)
            if not gem:
                state["intel"][seat] += 1
                events.append({"type": "intel", "text": f"{name} now has {state['intel'][seat]} Intel for the next heist attempt."})
        elif eff == "headhunt":
            self._burn_and_refill(state, events)
            if gem and state["pool"]:
                state["phase"] = "hire"
                state["pending"] = {"card": pid}
                return
        self._plan_done(state, events)

    def _resolve_target(self, state, seat: int, action, events) -> None:
        pend = state["pending"]
        state["pending"] = None
        eff = PREP[pend["card"]]["effect"]
        gem = pend["gem"]
        rng = Rng(state)
        if eff == "sabotage":
            victim = action["seat"]
            hand = state["hands"][victim]
            lost = []
            for _ in range(2 if gem else 1):
                if hand:
                    lost.append(hand.pop(rng.below(len(hand))))
            state["prep_discard"].extend(lost)
            events.append({"type": "sabotage", "text": f"{self._name(state, victim)} discards "
                           + ", ".join(prep_name(p) for p in lost) + " at random."})
        elif eff == "doublecross" and gem:
            self._pop_last_die(state, state["heists"][action["heist"]], events)
        elif eff == "doublecross":
            owner, e = self._entry(state, action["recruit"])
            g = e["gear"]
            e["gear"] = None
            state["prep_discard"].append(g)
            events.append({"type": "gear", "text": f"{self._name(state, owner)}'s {self._tname(e['card'])} loses {prep_name(g)}."})
        self._plan_done(state, events)

    def _play_gear(self, state, seat: int, pid: str, tid: str, events) -> None:
        state["hands"][seat].remove(pid)
        self._stat(state, "used", "prep:" + prep_name(pid))
        _, e = self._entry(state, tid)
        e["gear"] = pid
        events.append({"type": "gear", "text": f"{self._name(state, seat)} equips {self._tname(tid)} with {prep_name(pid)} ({PREP[pid]['text'].rstrip('.')})."})

    def _trade(self, state, seat: int, a: str, b: str, events) -> None:
        self._stat(state, "used", "mechanic:trade gear")
        _, ea = self._entry(state, a)
        _, eb = self._entry(state, b)
        ea["gear"], eb["gear"] = eb["gear"], ea["gear"]
        verb = "swaps gear between" if ea["gear"] and eb["gear"] else "moves gear from"
        sep = "and" if ea["gear"] and eb["gear"] else "to"
        events.append({"type": "trade", "text": f"{self._name(state, seat)} {verb} {self._tname(a)} {sep} {self._tname(b)}."})

    # ------------------------------------------------------------------ actions of the recruit phase
    def _act_recruit(self, state, seat: int, action, events) -> None:
        """PREP: recruit a Talent from the pool, then plan."""
        events.append({"type": "prep", "text": f"{self._name(state, seat)} chooses PREP."})
        state["pool"].remove(action["card"])
        self._recruit(state, seat, action["card"], action["replace"], events)
        self._start_plan(state, events)

    def _act_burn(self, state, seat: int, action, events) -> None:
        """PREP: burn the pool and draw the top Talent (hire it or pool it next), or plan if the deck is empty."""
        name = self._name(state, seat)
        events.append({"type": "prep", "text": f"{name} chooses PREP and burns the Talent Pool."})
        self._stat(state, "used", "mechanic:burn")
        state["talent_discard"].extend(state["pool"])
        state["pool"].clear()
        tid = self._draw_from(state, "talent_deck", "talent_discard", events, "Talent")
        if tid is None:
            events.append({"type": "burn", "text": "The Talent deck is empty."})
            self._start_plan(state, events)
        else:
            events.append({"type": "burn", "text": f"{name} draws {self._tname(tid)} from the Talent deck."})
            state["pending"] = {"card": tid}
            state["phase"] = "burned"
            self._stat(state, "available", "talent:" + self._tname(tid))

    def _act_hire(self, state, seat: int, action, events) -> None:
        """After a burn: hire the drawn Talent, then plan."""
        tid = state["pending"]["card"]
        state["pending"] = None
        self._recruit(state, seat, tid, action["replace"], events)
        self._start_plan(state, events)

    def _act_to_pool(self, state, seat: int, action, events) -> None:
        """After a burn: the drawn Talent goes into the pool, then plan."""
        tid = state["pending"]["card"]
        state["pending"] = None
        state["pool"].append(tid)
        events.append({"type": "pool", "text": f"{self._name(state, seat)} puts {self._tname(tid)} into the Talent Pool."})
        self._start_plan(state, events)

    def _act_draw_prep(self, state, seat: int, action, events) -> None:
        """PREP without recruiting: draw a Prep card, then plan."""
        events.append({"type": "prep", "text": f"{self._name(state, seat)} chooses PREP and skips recruiting to draw a Prep card."})
        self._draw_prep(state, seat, 1, events)
        self._start_plan(state, events)

    # ------------------------------------------------------------------ actions of the plan phase
    def _act_draw(self, state, seat: int, action, events) -> None:
        """Plan action: draw a Prep card."""
        self._draw_prep(state, seat, 1, events)
        self._plan_done(state, events)

    def _act_action(self, state, seat: int, action, events) -> None:
        """Plan action: play an action card (with or without a gem)."""
        self._play_action(state, seat, action["card"], action["gem"], events)

    def _act_target(self, state, seat: int, action, events) -> None:
        """The target of the action card being played."""
        self._resolve_target(state, seat, action, events)

    def _act_gear(self, state, seat: int, action, events) -> None:
        """Plan action: equip a Gear card; a second one may follow if a recruit is still bare."""
        self._play_gear(state, seat, action["card"], action["recruit"], events)
        bare = [e for e in state["teams"][seat] if not e["gear"]]
        if bare and any(PREP[p]["kind"] == "gear" for p in state["hands"][seat]):
            state["phase"] = "gear2"
            state["pending"] = {"first": action["card"]}
        else:
            self._plan_done(state, events)

    def _act_second_gear(self, state, seat: int, action, events) -> None:
        """The second Gear card of the same plan action."""
        self._play_gear(state, seat, action["card"], action["recruit"], events)
        state["pending"] = None
        self._plan_done(state, events)

    def _act_gear_done(self, state, seat: int, action, events) -> None:
        """No second Gear card."""
        state["pending"] = None
        self._plan_done(state, events)

    def _act_trade(self, state, seat: int, action, events) -> None:
        """Plan action: move or swap gear between two of your recruits."""
        self._trade(state, seat, action["from"], action["to"], events)
        self._plan_done(state, events)

    def _act_end_plan(self, state, seat: int, action, events) -> None:
        """End the plan phase early: upkeep."""
        events.append({"type": "plan", "text": f"{self._name(state, seat)} ends the plan phase."})
        state["plan_left"] = 0
        self._upkeep(state, events)

    def _act_hire_pool(self, state, seat: int, action, events) -> None:
        """Headhunter with a gem: recruit from the fresh pool."""
        state["pool"].remove(action["card"])
        self._recruit(state, seat, action["card"], action["replace"], events)
        state["pending"] = None
        self._plan_done(state, events)

    def _act_hire_skip(self, state, seat: int, action, events) -> None:
        """Headhunter with a gem: recruit nobody."""
        state["pending"] = None
        self._plan_done(state, events)
