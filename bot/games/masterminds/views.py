"""Masterminds: what each seat may see (the public board and the viewer's hand)."""
from __future__ import annotations

import copy
from typing import Any

from . import calc
from .cards import FAILURES, HEISTS, prep_name, prep_public, talent_public
from .constants import PUBLIC_KEYS, STEP_LETTERS
from .viewtypes import (
    AttemptView,
    FailureTestView,
    HeistView,
    MastermindsPrivate,
    MastermindsView,
    PickingView,
    PlayerView,
    RecruitView,
    WindowView,
)


class ViewsMixin:
    """``view(state, viewer)``: the board everyone sees, plus the viewer's own hand."""

    def _heist_view(self, state: dict[str, Any], slot: int) -> HeistView | None:
        """A heist on the table with its steps and the dice on them (None: an empty slot)."""
        heist = state["heists"][slot]
        if heist is None:
            return None
        steps = self._steps(heist)
        next_index = self._next_step(heist)
        shown: HeistView = {
            "slot": slot, "name": self._heist_name(heist), "take": HEISTS[heist["b"]]["take"], "next": next_index,
            "steps": [{"letter": STEP_LETTERS[i], "skills": list(step["skills"]), "number": step["number"],
                       "die": heist["dice"][i]} for i, step in enumerate(steps)],
        }
        return shown

    def _picking_view(self, state: dict[str, Any]) -> PickingView | None:
        """The step chosen in the first half of an attempt (phase ``crew``)."""
        if state["phase"] != "crew":
            return None
        pending = state["pending"]
        heist = state["heists"][pending["heist"]]
        step_index = self._next_step(heist)
        picking: PickingView = {"heist": pending["heist"], "name": self._heist_name(heist), "step": step_index,
                                "letter": STEP_LETTERS[step_index], "skill": pending["skill"], "number": self._steps(heist)[step_index]["number"]}
        return picking

    @staticmethod
    def _public_table(state: dict[str, Any]) -> dict[str, Any]:
        """Every public fact of the state, as stored (for the search bot's sampler): the keys listed in
        ``PUBLIC_KEYS`` only (an allowlist: a key not listed there never reaches a view), and the window's
        public part (who is asked, never what they chose)."""
        table = {key: copy.deepcopy(value) for key, value in state.items() if key in PUBLIC_KEYS}
        window = state.get("window")
        table["window"] = {"kind": window["kind"], "seats": list(window["seats"])} if window else None
        return table

    def view(self, state: dict[str, Any], viewer: int | None) -> MastermindsView:
        """The public board (``viewer`` None), plus ``private`` (the hand) for a seat."""
        view: MastermindsView = {
            "game": "masterminds",
            "names": list(state["names"]),
            "colours": list(state["colours"]),
            "status": self.status_line(state),
            "phase": state["phase"],
            "turn": state["turn"],
            "round": state["round"],
            "round_limit": state["options"]["round_limit"],
            "completed": state["completed"],
            "target": state["target"],
            "bag": sum(state["bag"].values()),
            "decks": {"talent": len(state["talent_deck"]), "talent_discard": len(state["talent_discard"]),
                      "prep": len(state["prep_deck"]), "prep_discard": len(state["prep_discard"]),
                      "heist": len(state["heist_deck"]), "failure": len(state["failure_deck"]),
                      "failure_discard": len(state["failure_discard"])},
            "prep_discard_top": prep_name(state["prep_discard"][-1]) if state["prep_discard"] else None,
            "pool": [talent_public(talent) for talent in state["pool"]],
            "heists": [self._heist_view(state, 0), self._heist_view(state, 1)],
            "players": [self._player_view(state, seat) for seat in range(len(state["names"]))],
            "plan_left": state["plan_left"] if state["phase"] in ("plan", "gear2", "target", "hire") else 0,
            "attempt": self._attempt_view(state),
            "test": self._test_view(state),
            "window": self._window_view(state),
            "burned": talent_public(state["pending"]["card"]) if state["phase"] == "burned" else None,
            "hiring": talent_public(state["pending"]["card"]) if state["phase"] == "replace" else None,
            "rules": "rulebook" if self._rulebook(state) else "tuned",
            "picking": self._picking_view(state),
            "recent": list(state.get("recent", [])),
            "last_roll": state.get("last_roll"),
            "first_rolls": state["first_rolls"],
            "first": state["first"],
            "over": state["phase"] == "over",
            "table": self._public_table(state),
        }
        if state.get("final"):
            final = state["final"]
            view["final"] = {"values": dict(final["values"]), "reason": final["reason"], "scores": self.scores(state)}
        if viewer is not None:
            view["private"] = self._private_view(state, viewer)
        return view

    def _player_view(self, state: dict[str, Any], seat: int) -> PlayerView:
        """A player as everyone sees them: gems, counts, heists done and the team with its values."""
        team: list[RecruitView] = []
        for entry in state["teams"][seat]:
            team.append({
                **talent_public(entry["card"]),
                "tapped": entry["tapped"], "injured": entry["injured"],
                "gear": prep_public(entry["gear"]) if entry["gear"] else None,
                "values": calc.recruit_values(entry["card"], entry["gear"]),
            })
        return {
            "seat": seat, "name": state["names"][seat], "colour": state["colours"][seat],
            "gems": dict(state["gems"][seat]), "gem_count": sum(state["gems"][seat].values()),
            "hand": len(state["hands"][seat]), "dice_free": state["dice"][seat], "intel": state["intel"][seat],
            "heists": [HEISTS[card_id]["name"] for card_id in state["mementos"][seat]], "team": team,
        }

    def _attempt_view(self, state: dict[str, Any]) -> AttemptView | None:
        """The heist step being attempted (or last attempted this turn)."""
        attempt = state.get("attempt")
        if not attempt:
            return None
        shown: AttemptView = {
            "seat": attempt["seat"], "heist": attempt["heist"], "step": attempt["step"], "skill": attempt["skill"],
            "number": attempt["number"], "base": attempt["base"], "mods": attempt["mods"], "two_dice": attempt["two_dice"],
            "no_perfect": attempt["no_perfect"], "cover": attempt["cover"], "played": attempt["played"], "roll": attempt["roll"],
            "result": attempt["result"], "parts": attempt["parts"],
            "recruits": [self._talent_name(tid) for tid in attempt["recruits"]],
            "recruit_ids": list(attempt["recruits"]),
            "failure": FAILURES[attempt["failure"]]["name"] if attempt.get("failure") else None}
        return shown

    def _test_view(self, state: dict[str, Any]) -> FailureTestView | None:
        """The Failure test a recruit must pass, while it is open."""
        if not state.get("test"):
            return None
        test = state["test"]
        shown: FailureTestView = {"recruit": self._talent_name(test["recruit"]), "recruit_id": test["recruit"],
                                 "skill": test["skill"], "number": test["number"], "card": FAILURES[test["card"]]["name"],
                                 "mods": test["mods"], "two_dice": test["two_dice"]}
        return shown

    def _window_view(self, state: dict[str, Any]) -> WindowView | None:
        """The open interrupt window: who is asked and who has decided (never what)."""
        if not state.get("window"):
            return None
        window = state["window"]
        return {"kind": window["kind"], "seats": list(window["seats"]), "decided": [seat for seat in window["seats"] if str(seat) in window["done"]]}

    def _private_view(self, state: dict[str, Any], viewer: int) -> MastermindsPrivate:
        """The viewer's own hand, and the interrupt they committed in an open window."""
        private: MastermindsPrivate = {"seat": viewer, "hand": [prep_public(card) for card in state["hands"][viewer]]}
        if state.get("window") and state["window"]["done"].get(str(viewer)):
            private["committed"] = prep_name(state["window"]["done"][str(viewer)])
            private["committed_id"] = state["window"]["done"][str(viewer)]
        return private
