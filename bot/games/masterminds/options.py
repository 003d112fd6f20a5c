"""Masterminds: the legal actions of each phase."""
from __future__ import annotations

from itertools import combinations
from typing import Any

from . import calc
from .cards import PREP, TALENTS
from .constants import MAX_ACTIVATE, TEAM_LIMIT


class OptionsMixin:
    """What a seat may do in each phase (the engine's ``PHASES`` table points here)."""

    def _hire_replacements(self, state, seat: int) -> list[str | None]:
        team = state["teams"][seat]
        opts: list[str | None] = [None] if len(team) < TEAM_LIMIT else []
        return opts + [e["card"] for e in team]

    def _step_options(self, state, seat: int, slots) -> list[dict[str, Any]]:
        """First half of a heist attempt: which step (heist + skill). Needs a free die and a fresh recruit."""
        if state["dice"][seat] <= 0 or not any(not e["tapped"] for e in state["teams"][seat]):
            return []
        out = []
        for slot in slots:
            h = state["heists"][slot]
            if h is None:
                continue
            k = self._next_step(h)
            if k == 3 and not any(d and d["seat"] == seat for d in h["dice"][:3]):
                continue  # inside job: only a player with a die on the heist may attempt its step D
            for skill in self._steps(h)[k]["skills"]:
                out.append({"type": "heist", "heist": slot, "skill": skill})
                out.append({"type": "heist", "heist": slot, "skill": skill,
                            "recruits": self.suggested_crew(state, seat, slot, skill)})
        return out

    def suggested_crew(self, state, seat: int, slot: int, skill: str) -> list[str]:
        """The one-click crew offered next to each step: the best chance to beat the step,
        then the fewest recruits, then the least overkill (public facts only)."""
        h = state["heists"][slot]
        number = self._steps(h)[self._next_step(h)]["number"]
        best, key = [], None
        for option in self._crew_options(state, seat):
            tids = option["recruits"]
            total, _ = self.attempt_total(state, seat, skill, tids)
            clutch = any(TALENTS[t]["ability"] == "clutch" for t in tids)
            k = (-calc.p_beat(total, number, clutch), len(tids), total)
            if key is None or k < key:
                best, key = tids, k
        return best

    def _crew_options(self, state, seat: int) -> list[dict[str, Any]]:
        """Second half: which 1-3 untapped recruits attempt the chosen step."""
        untapped = [e["card"] for e in state["teams"][seat] if not e["tapped"]]
        return [{"type": "crew", "recruits": list(c)}
                for k in range(1, min(MAX_ACTIVATE, len(untapped)) + 1) for c in combinations(untapped, k)]

    def _unique_cards(self, hand: list[str], kind: str) -> list[str]:
        seen, out = set(), []
        for pid in hand:
            p = PREP[pid]
            if p["kind"] == kind and p["name"] not in seen:
                seen.add(p["name"])
                out.append(pid)
        return out

    def _action_targets(self, state, seat: int, pid: str, gem: str | None) -> list[dict[str, Any]] | None:
        """Targets for an action card (None = needs no target)."""
        eff = PREP[pid]["effect"]
        n = len(state["names"])
        if eff == "sabotage":
            return [{"type": "target", "seat": s} for s in range(n) if s != seat and state["hands"][s]]
        if eff == "doublecross":
            if gem:
                return [{"type": "target", "heist": i} for i, h in enumerate(state["heists"])
                        if h is not None and self._next_step(h) > 0]
            return [{"type": "target", "recruit": e["card"]} for s in range(n) if s != seat
                    for e in state["teams"][s] if e["gear"]]
        return None

    def _plan_options(self, state, seat: int) -> list[dict[str, Any]]:
        hand = state["hands"][seat]
        team = state["teams"][seat]
        out: list[dict[str, Any]] = [{"type": "draw"}]
        held = [c for c in self._gem_colours(state) if state["gems"][seat][c] > 0]
        for pid in self._unique_cards(hand, "action"):
            for gem in [None, *held]:
                targets = self._action_targets(state, seat, pid, gem)
                if targets is not None and not targets:
                    continue
                out.append({"type": "action", "card": pid, "gem": gem})
        bare = [e["card"] for e in team if not e["gear"]]
        for pid in self._unique_cards(hand, "gear"):
            for tid in bare:
                out.append({"type": "gear", "card": pid, "recruit": tid})
        geared = [e["card"] for e in team if e["gear"]]
        for a in geared:
            for e in team:
                if e["card"] != a:
                    out.append({"type": "trade", "from": a, "to": e["card"]})
        out.append({"type": "end_plan"})
        return out

    def _interrupt_ok(self, state, seat: int, pid: str, kind: str) -> bool:
        p = PREP[pid]
        if p["kind"] != "interrupt" or kind not in p["when"]:
            return False
        actor = state["turn"]
        if p["who"] == "self":
            return seat == actor
        if p["who"] == "other":
            return seat != actor
        return True

    # ------------------------------------------------------------------ one per phase
    def _turn_options(self, state, seat: int) -> list[dict[str, Any]]:
        """The start of a turn: PREP (recruit from the pool, burn it, or draw) or the step of a heist."""
        out: list[dict[str, Any]] = []
        for tid in state["pool"]:
            for rep in self._hire_replacements(state, seat):
                out.append({"type": "recruit", "card": tid, "replace": rep})
        out.append({"type": "burn"})
        out.append({"type": "draw_prep"})
        out.extend(self._step_options(state, seat, (0, 1)))
        return out

    def _crew_phase_options(self, state, seat: int) -> list[dict[str, Any]]:
        """After picking a step: the crews that may attempt it, or back."""
        return self._crew_options(state, seat) + [{"type": "back"}]

    def _burned_options(self, state, seat: int) -> list[dict[str, Any]]:
        """After a burn: hire the drawn Talent (replacing anyone, or nobody if there is room) or pool it."""
        return [{"type": "hire", "replace": rep} for rep in self._hire_replacements(state, seat)] + [{"type": "to_pool"}]

    def _second_gear_options(self, state, seat: int) -> list[dict[str, Any]]:
        """The optional second Gear card of a "play two gear" plan action."""
        bare = [e["card"] for e in state["teams"][seat] if not e["gear"]]
        return [{"type": "gear", "card": pid, "recruit": tid}
                for pid in self._unique_cards(state["hands"][seat], "gear") for tid in bare] + [{"type": "gear_done"}]

    def _target_options(self, state, seat: int) -> list[dict[str, Any]]:
        """The targets the action card being played offered."""
        return list(state["pending"]["targets"])

    def _hire_options(self, state, seat: int) -> list[dict[str, Any]]:
        """Headhunter with a gem: recruit from the fresh pool, or nobody."""
        return [{"type": "hire_pool", "card": tid, "replace": rep}
                for tid in state["pool"] for rep in self._hire_replacements(state, seat)] + [{"type": "hire_skip"}]

    def _window_options(self, state, seat: int) -> list[dict[str, Any]]:
        """The interrupt window: pass, or one interrupt card in hand that fits this roll and this seat."""
        kind = state["window"]["kind"]
        cards = [pid for pid in self._unique_cards(state["hands"][seat], "interrupt") if self._interrupt_ok(state, seat, pid, kind)]
        return [{"type": "pass"}] + [{"type": "interrupt", "card": pid} for pid in cards]

    def _suffer_options(self, state, seat: int) -> list[dict[str, Any]]:
        """A FAILURE: any of the activated recruits may suffer the Failure card."""
        return [{"type": "suffer", "recruit": tid} for tid in state["attempt"]["recruits"]]

    def _lose_gem_options(self, state, seat: int) -> list[dict[str, Any]]:
        """A Failure consequence: any colour of gem the seat holds goes back to the bag."""
        return [{"type": "give_gem", "colour": c} for c in self._gem_colours(state) if state["gems"][seat][c] > 0]

    def _continue_options(self, state, seat: int) -> list[dict[str, Any]]:
        """After a success: the next step of the same heist, or hold."""
        return self._step_options(state, seat, (state["run"]["heist"],)) + [{"type": "hold"}]

    def _retire_options(self, state, seat: int) -> list[dict[str, Any]]:
        """After completing a heist: any recruit on the team retires."""
        return [{"type": "retire", "recruit": e["card"]} for e in state["teams"][seat]]

    def _discard_options(self, state, seat: int) -> list[dict[str, Any]]:
        """Upkeep over the hand limit: discard one card (one action per card name)."""
        seen, out = set(), []
        for pid in state["hands"][seat]:
            if PREP[pid]["name"] not in seen:
                seen.add(PREP[pid]["name"])
                out.append({"type": "discard", "card": pid})
        return out
