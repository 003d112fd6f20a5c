"""Masterminds: the legal actions of each phase."""
from __future__ import annotations

from itertools import combinations
from typing import Any

from . import calc
from .cards import PREP, TALENTS
from .constants import MAX_ACTIVATE, TEAM_LIMIT


class OptionsMixin:
    """What a seat may do in each phase (the engine's ``PHASES`` table points here)."""

    def _hiring_options(self, state, seat: int, kind: str, extra: dict[str, Any]) -> list[dict[str, Any]]:
        """Hiring a Talent: into a team with room it simply joins, or (``swap``) it replaces one of yours,
        whom you pick next; into a full team it must replace someone, picked next."""
        team = len(state["teams"][seat])
        swap = [{"type": kind, **extra, "swap": True}] if 0 < team < TEAM_LIMIT else []
        return [{"type": kind, **extra}, *swap]

    def _replace_options(self, state, seat: int) -> list[dict[str, Any]]:
        """The second half of hiring a Talent in place of someone: which recruit leaves (discarded with their
        gear), or back to the choice before."""
        return [{"type": "replace", "recruit": entry["card"]} for entry in state["teams"][seat]] + [{"type": "back"}]

    def _step_options(self, state, seat: int, slots) -> list[dict[str, Any]]:
        """First half of a heist attempt: which step (heist + skill). Needs a free die and a fresh recruit."""
        if state["dice"][seat] <= 0 or not any(not entry["tapped"] for entry in state["teams"][seat]):
            return []
        out = []
        for slot in slots:
            heist = state["heists"][slot]
            if heist is None:
                continue
            step_index = self._next_step(heist)
            if step_index == 3 and not self._inside(state, heist, seat):
                continue  # inside job (tuned): only a player with a die on the heist may attempt its step D
            for skill in self._steps(heist)[step_index]["skills"]:
                out.append({"type": "heist", "heist": slot, "skill": skill})
                out.append({"type": "heist", "heist": slot, "skill": skill,
                            "recruits": self.suggested_crew(state, seat, slot, skill)})
        return out

    def _inside(self, state, heist: dict[str, Any], seat: int) -> bool:
        """Whether ``seat`` may attempt step D of ``heist``. Tuned: the inside job, only with a die of theirs
        on steps A-C. Rulebook: anyone ("choose a Heist Step that you want your TEAM to attempt")."""
        return self._rulebook(state) or any(die and die["seat"] == seat for die in heist["dice"][:3])

    def suggested_crew(self, state, seat: int, slot: int, skill: str) -> list[str]:
        """The one-click crew offered next to each step: the best chance to beat the step,
        then the fewest recruits, then the least overkill (public facts only)."""
        heist = state["heists"][slot]
        number = self._steps(heist)[self._next_step(heist)]["number"]
        best, key = [], None
        for option in self._crew_options(state, seat):
            tids = option["recruits"]
            total, _ = self.attempt_total(state, seat, skill, tids)
            clutch = any(TALENTS[talent]["ability"] == "clutch" for talent in tids)
            rank = (-calc.p_beat(total, number, clutch), len(tids), total)
            if key is None or rank < key:
                best, key = tids, rank
        return best

    def _crew_options(self, state, seat: int) -> list[dict[str, Any]]:
        """Second half: which 1-3 untapped recruits attempt the chosen step."""
        untapped = [entry["card"] for entry in state["teams"][seat] if not entry["tapped"]]
        return [{"type": "crew", "recruits": list(crew)}
                for size in range(1, min(MAX_ACTIVATE, len(untapped)) + 1) for crew in combinations(untapped, size)]

    def _unique_cards(self, hand: list[str], kind: str) -> list[str]:
        seen, out = set(), []
        for pid in hand:
            card = PREP[pid]
            if card["kind"] == kind and card["name"] not in seen:
                seen.add(card["name"])
                out.append(pid)
        return out

    def _action_targets(self, state, seat: int, pid: str, gem: str | bool | None) -> list[dict[str, Any]] | None:
        """Targets for an action card (None = needs no target)."""
        effect = PREP[pid]["effect"]
        players = len(state["names"])
        if effect == "sabotage":
            return [{"type": "target", "seat": other} for other in range(players) if other != seat and state["hands"][other]]
        if effect == "doublecross":
            if gem:
                return [{"type": "target", "heist": i} for i, heist in enumerate(state["heists"])
                        if heist is not None and self._next_step(heist) > 0]
            return [{"type": "target", "recruit": entry["card"]} for other in range(players) if other != seat
                    for entry in state["teams"][other] if entry["gear"]]
        return None

    def _plan_options(self, state, seat: int) -> list[dict[str, Any]]:
        hand = state["hands"][seat]
        team = state["teams"][seat]
        out: list[dict[str, Any]] = [{"type": "draw"}]
        held = [colour for colour in self._gem_colours(state) if state["gems"][seat][colour] > 0]
        for pid in self._unique_cards(hand, "action"):
            for gem in (False, True) if held else (False,):  # with a gem: which colour is the next step
                targets = self._action_targets(state, seat, pid, gem)
                if targets is not None and not targets:
                    continue
                out.append({"type": "action", "card": pid, "gem": gem})
        bare = [entry["card"] for entry in team if not entry["gear"]]
        for pid in self._unique_cards(hand, "gear"):
            for tid in bare:
                out.append({"type": "gear", "card": pid, "recruit": tid})
        geared = [entry["card"] for entry in team if entry["gear"]]
        for geared_tid in geared:
            for entry in team:
                if entry["card"] != geared_tid:
                    out.append({"type": "trade", "from": geared_tid, "to": entry["card"]})
        out.append({"type": "end_plan"})
        return out

    def _interrupt_ok(self, state, seat: int, pid: str, kind: str) -> bool:
        card = PREP[pid]
        if card["kind"] != "interrupt" or kind not in card["when"]:
            return False
        actor = state["turn"]
        if card["who"] == "self":
            return seat == actor
        if card["who"] == "other":
            return seat != actor
        return True

    # ------------------------------------------------------------------ one per phase
    def _turn_options(self, state, seat: int) -> list[dict[str, Any]]:
        """The start of a turn: PREP (recruit from the pool, burn it, or draw) or the step of a heist."""
        out: list[dict[str, Any]] = [option for tid in state["pool"]
                                     for option in self._hiring_options(state, seat, "recruit", {"card": tid})]
        out.append({"type": "burn"})
        out.append({"type": "draw_prep"})
        out.extend(self._step_options(state, seat, (0, 1)))
        return out

    def _crew_phase_options(self, state, seat: int) -> list[dict[str, Any]]:
        """After picking a step: the crews that may attempt it, or back."""
        return self._crew_options(state, seat) + [{"type": "back"}]

    def _burned_options(self, state, seat: int) -> list[dict[str, Any]]:
        """After a burn: hire the drawn Talent (then who, if anyone, it replaces) or put it into the pool."""
        return self._hiring_options(state, seat, "hire", {}) + [{"type": "to_pool"}]

    def _second_gear_options(self, state, seat: int) -> list[dict[str, Any]]:
        """The optional second Gear card of a "play two gear" plan action."""
        bare = [entry["card"] for entry in state["teams"][seat] if not entry["gear"]]
        return [{"type": "gear", "card": pid, "recruit": tid}
                for pid in self._unique_cards(state["hands"][seat], "gear") for tid in bare] + [{"type": "gear_done"}]

    def _target_options(self, state, seat: int) -> list[dict[str, Any]]:
        """The targets the action card being played offered."""
        return list(state["pending"]["targets"])

    def _hire_options(self, state, seat: int) -> list[dict[str, Any]]:
        """Headhunter with a gem: recruit from the fresh pool (then who, if anyone, it replaces), or nobody."""
        return [option for tid in state["pool"]
                for option in self._hiring_options(state, seat, "hire_pool", {"card": tid})] + [{"type": "hire_skip"}]

    def _pay_options(self, state, seat: int) -> list[dict[str, Any]]:
        """An action card played with its gem bonus: the colour of the gem that goes back to the bag."""
        return [{"type": "pay", "colour": colour} for colour in self._gem_colours(state) if state["gems"][seat][colour] > 0]

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
        return [{"type": "give_gem", "colour": colour} for colour in self._gem_colours(state) if state["gems"][seat][colour] > 0]

    def _continue_options(self, state, seat: int) -> list[dict[str, Any]]:
        """After a success: the next step of the same heist, or hold."""
        return self._step_options(state, seat, (state["run"]["heist"],)) + [{"type": "hold"}]

    def _retire_options(self, state, seat: int) -> list[dict[str, Any]]:
        """After completing a heist: any recruit on the team retires."""
        return [{"type": "retire", "recruit": entry["card"]} for entry in state["teams"][seat]]

    def _discard_options(self, state, seat: int) -> list[dict[str, Any]]:
        """Upkeep over the hand limit: discard one card (one action per card name)."""
        seen, out = set(), []
        for pid in state["hands"][seat]:
            if PREP[pid]["name"] not in seen:
                seen.add(PREP[pid]["name"])
                out.append({"type": "discard", "card": pid})
        return out
