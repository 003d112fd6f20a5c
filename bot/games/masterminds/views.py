"""Masterminds: what each seat may see (the public board and the viewer's hand)."""
from __future__ import annotations

import copy
from typing import Any

from . import calc
from .cards import FAILURES, HEISTS, prep_name, prep_public, talent_public
from .constants import SECRET_KEYS, STEP_LETTERS
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
        h = state["heists"][slot]
        if h is None:
            return None
        steps = self._steps(h)
        nxt = self._next_step(h)
        heist: HeistView = {
            "slot": slot, "name": self._heist_name(h), "take": HEISTS[h["b"]]["take"], "next": nxt,
            "steps": [{"letter": STEP_LETTERS[i], "skills": list(s["skills"]), "number": s["number"],
                       "die": h["dice"][i]} for i, s in enumerate(steps)],
        }
        return heist

    def _picking_view(self, state: dict[str, Any]) -> PickingView | None:
        """The step chosen in the first half of an attempt (phase ``crew``)."""
        if state["phase"] != "crew":
            return None
        pend = state["pending"]
        h = state["heists"][pend["heist"]]
        k = self._next_step(h)
        picking: PickingView = {"heist": pend["heist"], "name": self._heist_name(h), "step": k,
                                "letter": STEP_LETTERS[k], "skill": pend["skill"], "number": self._steps(h)[k]["number"]}
        return picking

    @staticmethod
    def _public_table(state: dict[str, Any]) -> dict[str, Any]:
        """Every public fact of the state, as stored (for the search bot's sampler): all but the
        decks' orders, the hands, the window's hidden choices, the RNG and the balance tallies."""
        table = {k: copy.deepcopy(v) for k, v in state.items() if k not in SECRET_KEYS}
        w = state.get("window")
        table["window"] = {"kind": w["kind"], "seats": list(w["seats"])} if w else None
        return table

    def view(self, state: dict[str, Any], viewer: int | None) -> MastermindsView:
        """The public board (``viewer`` None), plus ``private`` (the hand) for a seat."""
        v: MastermindsView = {
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
            "pool": [talent_public(t) for t in state["pool"]],
            "heists": [self._heist_view(state, 0), self._heist_view(state, 1)],
            "players": [self._player_view(state, s) for s in range(len(state["names"]))],
            "plan_left": state["plan_left"] if state["phase"] in ("plan", "gear2", "target", "hire") else 0,
            "attempt": self._attempt_view(state),
            "test": self._test_view(state),
            "window": self._window_view(state),
            "burned": talent_public(state["pending"]["card"]) if state["phase"] == "burned" else None,
            "picking": self._picking_view(state),
            "recent": list(state.get("recent", [])),
            "last_roll": state.get("last_roll"),
            "first_rolls": state["first_rolls"],
            "first": state["first"],
            "over": state["phase"] == "over",
            "table": self._public_table(state),
        }
        if state.get("final"):
            f = state["final"]
            v["final"] = {"values": dict(f["values"]), "reason": f["reason"], "scores": self.scores(state)}
        if viewer is not None:
            v["private"] = self._private_view(state, viewer)
        return v

    def _player_view(self, state: dict[str, Any], seat: int) -> PlayerView:
        """A player as everyone sees them: gems, counts, heists done and the team with its values."""
        team: list[RecruitView] = []
        for e in state["teams"][seat]:
            team.append({
                **talent_public(e["card"]),
                "tapped": e["tapped"], "injured": e["injured"],
                "gear": prep_public(e["gear"]) if e["gear"] else None,
                "values": calc.recruit_values(e["card"], e["gear"]),
            })
        return {
            "seat": seat, "name": state["names"][seat], "colour": state["colours"][seat],
            "gems": dict(state["gems"][seat]), "gem_count": sum(state["gems"][seat].values()),
            "hand": len(state["hands"][seat]), "dice_free": state["dice"][seat], "intel": state["intel"][seat],
            "heists": [HEISTS[a]["name"] for a in state["mementos"][seat]], "team": team,
        }

    def _attempt_view(self, state: dict[str, Any]) -> AttemptView | None:
        """The heist step being attempted (or last attempted this turn)."""
        at = state.get("attempt")
        if not at:
            return None
        attempt: AttemptView = {
            "seat": at["seat"], "heist": at["heist"], "step": at["step"], "skill": at["skill"],
            "number": at["number"], "base": at["base"], "mods": at["mods"], "two_dice": at["two_dice"],
            "no_perfect": at["no_perfect"], "cover": at["cover"], "played": at["played"], "roll": at["roll"],
            "result": at["result"], "parts": at["parts"],
            "recruits": [self._tname(t) for t in at["recruits"]],
            "recruit_ids": list(at["recruits"]),
            "failure": FAILURES[at["failure"]]["name"] if at.get("failure") else None}
        return attempt

    def _test_view(self, state: dict[str, Any]) -> FailureTestView | None:
        """The Failure test a recruit must pass, while it is open."""
        if not state.get("test"):
            return None
        te = state["test"]
        test: FailureTestView = {"recruit": self._tname(te["recruit"]), "recruit_id": te["recruit"],
                                 "skill": te["skill"], "number": te["number"], "card": FAILURES[te["card"]]["name"],
                                 "mods": te["mods"], "two_dice": te["two_dice"]}
        return test

    def _window_view(self, state: dict[str, Any]) -> WindowView | None:
        """The open interrupt window: who is asked and who has decided (never what)."""
        if not state.get("window"):
            return None
        w = state["window"]
        return {"kind": w["kind"], "seats": list(w["seats"]), "decided": [s for s in w["seats"] if str(s) in w["done"]]}

    def _private_view(self, state: dict[str, Any], viewer: int) -> MastermindsPrivate:
        """The viewer's own hand, and the interrupt they committed in an open window."""
        priv: MastermindsPrivate = {"seat": viewer, "hand": [prep_public(p) for p in state["hands"][viewer]]}
        if state.get("window") and state["window"]["done"].get(str(viewer)):
            priv["committed"] = prep_name(state["window"]["done"][str(viewer)])
            priv["committed_id"] = state["window"]["done"][str(viewer)]
        return priv
