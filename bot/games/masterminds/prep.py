"""Masterminds: the PREP turn (recruit phase, plan phase) and the card effects it triggers."""
from __future__ import annotations

from collections import Counter

from bot.rng import Rng

from .cards import ABILITIES, PREP, TALENTS, prep_name
from .constants import STEP_LETTERS, TEAM_LIMIT


class PrepMixin:
    """Recruiting, drawing, action cards, gear and gems."""

    def _recruit(self, state, seat: int, tid: str, replace: str | None, events) -> None:
        name = self._seat_name(state, seat)
        team = state["teams"][seat]
        text = f"{name} recruits {self._talent_name(tid)}"
        if replace:
            self._discard_recruit(state, seat, replace)
            text += f", replacing {self._talent_name(replace)}"
        team.append({"card": tid, "gear": None, "tapped": False, "injured": False})
        events.append({"type": "recruit", "text": text + "."})
        self._tally(state, "used", "talent:" + self._talent_name(tid))
        self._tally(state, "available", "ability:" + ABILITIES[TALENTS[tid]["ability"]]["name"])
        if TALENTS[tid]["ability"] == "scout":
            self._tally(state, "used", "ability:Scout")
            events.append({"type": "ability", "text": f"{self._talent_name(tid)} (Scout) brings a Prep card."})
            self._draw_prep(state, seat, 1, events)

    def _discard_recruit(self, state, seat: int, tid: str) -> None:
        team = state["teams"][seat]
        for i, entry in enumerate(team):
            if entry["card"] == tid:
                if entry["gear"]:
                    state["prep_discard"].append(entry["gear"])
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
        name = self._seat_name(state, seat)
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
            card = PREP[pid]
            if card["kind"] == "immediate":
                if drawn:
                    self._draw_event(state, seat, drawn, events)
                    drawn = []
                events.append({"type": "immediate", "text": f"{name} draws {card['name']} and must play it at once: {card['text'].split(': ', 1)[-1]}"})
                state["prep_discard"].append(pid)
                self._tally(state, "used", "prep:" + card["name"])
                self._immediate(state, seat, card["effect"], events, ctx)
            else:
                self._tally(state, "available", "prep:" + card["name"])
                state["hands"][seat].append(pid)
                drawn.append(pid)
        if drawn:
            self._draw_event(state, seat, drawn, events)

    def _draw_event(self, state, seat, drawn, events) -> None:
        count = len(drawn)
        events.append({"type": "draw", "text": f"{self._seat_name(state, seat)} draws {count} Prep card{'s' if count > 1 else ''}."})
        events.append({"type": "draw", "to": seat, "text": "You draw " + "; ".join(
            f"{prep_name(card)} ({PREP[card]['kind']}: {PREP[card]['text'].rstrip('.')})" for card in drawn) + "."})

    def _immediate(self, state, seat: int, effect: str, events, ctx) -> None:
        if effect == "windfall":
            self._take_gems(state, seat, 1, events, "Windfall")
        elif effect == "tip":
            self._draw_prep(state, seat, 2, events, ctx)
        elif effect == "rivals":
            self._burn_and_refill(state, events)
        elif effect == "lockdown":
            for slot, heist in enumerate(state["heists"]):
                if heist is not None and slot != state.get("completing"):
                    self._pop_last_die(state, heist, events)
            if state.get("completing") is not None:
                events.append({"type": "immediate", "text": "The heist being completed is already cracked: "
                               "Lockdown doesn't touch its dice."})

    def _burn_and_refill(self, state, events) -> None:
        state["talent_discard"].extend(state["pool"])
        state["pool"].clear()
        self._refresh_pool(state, events)
        events.append({"type": "pool", "text": "The Talent Pool is burned and refilled: "
                       + (", ".join(self._talent_name(tid) for tid in state["pool"]) or "nobody") + "."})

    def _pop_last_die(self, state, heist, events) -> None:
        step_index = self._next_step(heist) - 1
        if step_index < 0:
            return
        die = heist["dice"][step_index]
        heist["dice"][step_index] = None
        state["dice"][die["seat"]] += 1
        events.append({"type": "die", "text": f"{self._seat_name(state, die['seat'])}'s die on {self._heist_name(heist)} step {STEP_LETTERS[step_index]} goes back to them."})

    def _take_gems(self, state, seat: int, count: int, events, reason: str) -> None:
        rng = Rng(state)
        got: Counter = Counter()
        colours = self._gem_colours(state)
        for _ in range(count):
            total = sum(state["bag"].values())
            if total == 0:
                break
            pick = rng.below(total)
            for colour in colours:
                if pick < state["bag"][colour]:
                    state["bag"][colour] -= 1
                    state["gems"][seat][colour] += 1
                    got[colour] += 1
                    break
                pick -= state["bag"][colour]
        left = sum(state["bag"].values())
        if got:
            gained = ", ".join(f"{count} {colour}" for colour, count in got.items())
            events.append({"type": "gems", "text": f"{self._seat_name(state, seat)} takes {sum(got.values())} gem{'s' if sum(got.values()) > 1 else ''} from the bag ({reason}): {gained}. Bag: {left} left."})
        if left == 0:
            events.append({"type": "end", "text": "The last gem has been taken from the bag!"})
            state["end_reason"] = "bag"

    def _give_gem(self, state, seat: int, colour: str, events) -> None:
        state["gems"][seat][colour] -= 1
        state["bag"][colour] += 1
        events.append({"type": "gems", "text": f"{self._seat_name(state, seat)} returns a {colour} gem to the bag."})

    def _play_action(self, state, seat: int, pid: str, gem: str | None, events, in_hand: bool = True) -> None:
        card = PREP[pid]
        name = self._seat_name(state, seat)
        if in_hand:  # (else it is already on the table, waiting for its gem: phase ``pay``)
            state["hands"][seat].remove(pid)
        state["prep_discard"].append(pid)
        self._tally(state, "used", "prep:" + card["name"])
        if any(state["gems"][seat].values()):
            self._tally(state, "available", "mechanic:gem bonus")
        text = f"{name} plays {card['name']}"
        if gem:
            self._tally(state, "used", "mechanic:gem bonus")
            state["gems"][seat][gem] -= 1
            state["bag"][gem] += 1
            text += f", spending a {gem} gem ({card['gem_text'].rstrip('.')})"
        else:
            text += f" ({card['text'].rstrip('.')})"
        events.append({"type": "action", "text": text + "."})
        effect = card["effect"]
        targets = self._action_targets(state, seat, pid, gem)
        if targets is not None:
            state["pending"] = {"card": pid, "gem": gem, "targets": targets}
            if len(targets) == 1:
                self._resolve_target(state, seat, targets[0], events)
            else:
                state["phase"] = "target"
            return
        if effect == "intel":
            state["intel"][seat] += 4 if gem else 2
            events.append({"type": "intel", "text": f"{name} now has {state['intel'][seat]} Intel for the next heist attempt."})
        elif effect == "draw":
            self._draw_prep(state, seat, 3 if gem else 2, events)
        elif effect == "blackmarket":
            self._draw_prep(state, seat, 3 if gem else 1, events)
            if not gem:
                state["intel"][seat] += 1
                events.append({"type": "intel", "text": f"{name} now has {state['intel'][seat]} Intel for the next heist attempt."})
        elif effect == "headhunt":
            self._burn_and_refill(state, events)
            if gem and state["pool"]:
                state["phase"] = "hire"
                state["pending"] = {"card": pid}
                return
        self._plan_done(state, events)

    def _resolve_target(self, state, seat: int, action, events) -> None:
        pending = state["pending"]
        state["pending"] = None
        effect = PREP[pending["card"]]["effect"]
        gem = pending["gem"]
        rng = Rng(state)
        if effect == "sabotage":
            victim = action["seat"]
            hand = state["hands"][victim]
            lost = []
            for _ in range(2 if gem else 1):
                if hand:
                    lost.append(hand.pop(rng.below(len(hand))))
            state["prep_discard"].extend(lost)
            events.append({"type": "sabotage", "text": f"{self._seat_name(state, victim)} discards "
                           + ", ".join(prep_name(card) for card in lost) + " at random."})
        elif effect == "doublecross" and gem:
            self._pop_last_die(state, state["heists"][action["heist"]], events)
        elif effect == "doublecross":
            owner, entry = self._entry(state, action["recruit"])
            gear = entry["gear"]
            entry["gear"] = None
            state["prep_discard"].append(gear)
            events.append({"type": "gear", "text": f"{self._seat_name(state, owner)}'s {self._talent_name(entry['card'])} loses {prep_name(gear)}."})
        self._plan_done(state, events)

    def _play_gear(self, state, seat: int, pid: str, tid: str, events) -> None:
        state["hands"][seat].remove(pid)
        self._tally(state, "used", "prep:" + prep_name(pid))
        _, entry = self._entry(state, tid)
        entry["gear"] = pid
        events.append({"type": "gear", "text": f"{self._seat_name(state, seat)} equips {self._talent_name(tid)} with {prep_name(pid)} ({PREP[pid]['text'].rstrip('.')})."})

    def _trade(self, state, seat: int, from_tid: str, to_tid: str, events) -> None:
        self._tally(state, "used", "mechanic:trade gear")
        _, giver = self._entry(state, from_tid)
        _, taker = self._entry(state, to_tid)
        giver["gear"], taker["gear"] = taker["gear"], giver["gear"]
        verb = "swaps gear between" if giver["gear"] and taker["gear"] else "moves gear from"
        sep = "and" if giver["gear"] and taker["gear"] else "to"
        events.append({"type": "trade", "text": f"{self._seat_name(state, seat)} {verb} {self._talent_name(from_tid)} {sep} {self._talent_name(to_tid)}."})

    # ------------------------------------------------------------------ hiring: the Talent, then who it replaces
    def _hiring(self, state, seat: int, tid: str, source: str, swap: bool, events) -> None:
        """A Talent is chosen (from the pool, the Talent deck after a burn, or Headhunter's fresh pool): it joins
        at once a team with room, unless it is to replace someone (``swap``, or a full team): then the player
        picks who leaves next."""
        if len(state["teams"][seat]) < TEAM_LIMIT and not swap:
            self._hired(state, seat, tid, source, None, events)
            return
        state["pending"] = {"card": tid, "from": source, "back": {"phase": state["phase"], "pending": state["pending"]}}
        state["phase"] = "replace"

    def _hired(self, state, seat: int, tid: str, source: str, replace: str | None, events) -> None:
        """The Talent joins the team (replacing ``replace``), then the turn goes on where it came from."""
        if source == "pool":
            events.append({"type": "prep", "text": f"{self._seat_name(state, seat)} chooses PREP."})
        if source in ("pool", "hire"):
            state["pool"].remove(tid)
        state["pending"] = None
        self._recruit(state, seat, tid, replace, events)
        if source == "hire":
            self._plan_done(state, events)
        else:
            self._start_plan(state, events)

    def _act_replace(self, state, seat: int, action, events) -> None:
        """Who leaves the team for the Talent being hired."""
        pending = state["pending"]
        self._hired(state, seat, pending["card"], pending["from"], action["recruit"], events)

    def _act_back_from_replace(self, state, seat: int, action, events) -> None:
        """Back from choosing who leaves: to the choice of Talent (nothing has happened yet)."""
        back = state["pending"]["back"]
        state["phase"], state["pending"] = back["phase"], back["pending"]

    # ------------------------------------------------------------------ actions of the recruit phase
    def _act_recruit(self, state, seat: int, action, events) -> None:
        """PREP: recruit a Talent from the pool (then who it replaces, if anyone), then plan."""
        self._hiring(state, seat, action["card"], "pool", bool(action.get("swap")), events)

    def _act_burn(self, state, seat: int, action, events) -> None:
        """PREP: burn the pool and draw the top Talent (hire it or pool it next), or plan if the deck is empty."""
        name = self._seat_name(state, seat)
        events.append({"type": "prep", "text": f"{name} chooses PREP and burns the Talent Pool."})
        self._tally(state, "used", "mechanic:burn")
        state["talent_discard"].extend(state["pool"])
        state["pool"].clear()
        tid = self._draw_from(state, "talent_deck", "talent_discard", events, "Talent")
        if tid is None:
            events.append({"type": "burn", "text": "The Talent deck is empty."})
            self._start_plan(state, events)
        else:
            events.append({"type": "burn", "text": f"{name} draws {self._talent_name(tid)} from the Talent deck."})
            state["pending"] = {"card": tid}
            state["phase"] = "burned"
            self._tally(state, "available", "talent:" + self._talent_name(tid))

    def _act_hire(self, state, seat: int, action, events) -> None:
        """After a burn: hire the drawn Talent (then who it replaces, if anyone), then plan."""
        self._hiring(state, seat, state["pending"]["card"], "burned", bool(action.get("swap")), events)

    def _act_to_pool(self, state, seat: int, action, events) -> None:
        """After a burn: the drawn Talent goes into the pool, then plan."""
        tid = state["pending"]["card"]
        state["pending"] = None
        state["pool"].append(tid)
        events.append({"type": "pool", "text": f"{self._seat_name(state, seat)} puts {self._talent_name(tid)} into the Talent Pool."})
        self._start_plan(state, events)

    def _act_draw_prep(self, state, seat: int, action, events) -> None:
        """PREP without recruiting: draw a Prep card, then plan."""
        events.append({"type": "prep", "text": f"{self._seat_name(state, seat)} chooses PREP and skips recruiting to draw a Prep card."})
        self._draw_prep(state, seat, 1, events)
        self._start_plan(state, events)

    # ------------------------------------------------------------------ actions of the plan phase
    def _act_draw(self, state, seat: int, action, events) -> None:
        """Plan action: draw a Prep card."""
        self._draw_prep(state, seat, 1, events)
        self._plan_done(state, events)

    def _act_action(self, state, seat: int, action, events) -> None:
        """Plan action: play an action card; with its gem bonus, the gem's colour is asked next (unless the
        player holds one colour only)."""
        if not action["gem"]:
            self._play_action(state, seat, action["card"], None, events)
            return
        held = [colour for colour in self._gem_colours(state) if state["gems"][seat][colour] > 0]
        if len(held) == 1:
            self._play_action(state, seat, action["card"], held[0], events)
            return
        state["hands"][seat].remove(action["card"])  # on the table now, waiting for the gem
        state["pending"] = {"card": action["card"]}
        state["phase"] = "pay"

    def _act_pay(self, state, seat: int, action, events) -> None:
        """The colour of the gem spent on the action card's bonus: the card is played."""
        pid = state["pending"]["card"]
        state["pending"] = None
        self._play_action(state, seat, pid, action["colour"], events, in_hand=False)

    def _act_target(self, state, seat: int, action, events) -> None:
        """The target of the action card being played."""
        self._resolve_target(state, seat, action, events)

    def _act_gear(self, state, seat: int, action, events) -> None:
        """Plan action: equip a Gear card; a second one may follow if a recruit is still bare."""
        self._play_gear(state, seat, action["card"], action["recruit"], events)
        bare = [entry for entry in state["teams"][seat] if not entry["gear"]]
        if bare and any(PREP[card]["kind"] == "gear" for card in state["hands"][seat]):
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
        events.append({"type": "plan", "text": f"{self._seat_name(state, seat)} ends the plan phase."})
        state["plan_left"] = 0
        self._upkeep(state, events)

    def _act_hire_pool(self, state, seat: int, action, events) -> None:
        """Headhunter with a gem: recruit from the fresh pool (then who it replaces, if anyone)."""
        self._hiring(state, seat, action["card"], "hire", bool(action.get("swap")), events)

    def _act_hire_skip(self, state, seat: int, action, events) -> None:
        """Headhunter with a gem: recruit nobody."""
        state["pending"] = None
        self._plan_done(state, events)
