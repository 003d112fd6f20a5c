"""Masterminds: upkeep, the next turn, the end of the game and its scores."""
from __future__ import annotations

from typing import Any

from bot.engine import competition_ranks
from bot.rng import Rng

from .cards import CLEAR, TALENTS, prep_name
from .constants import HAND_LIMIT


class UpkeepMixin:
    """The end of a turn and the end of the game."""

    def _upkeep(self, state, events) -> None:
        seat = state["turn"]
        state["phase"] = "upkeep"
        state["pending"] = None
        for e in list(state["teams"][seat]):
            if TALENTS[e["card"]]["ability"] == "fixer" and len(state["hands"][seat]) < 3:
                events.append({"type": "ability", "text": f"{self._tname(e['card'])} (Fixer) finds a Prep card."})
                self._stat(state, "used", "ability:Fixer")
                self._draw_prep(state, seat, 1, events)
        for e in state["teams"][seat]:
            if e["injured"]:
                e["injured"] = False
            else:
                e["tapped"] = False
        self._refresh_pool(state, events)
        self._refresh_heists(state, events)
        state["run"] = None
        if all(h is None for h in state["heists"]) and not state.get("end_reason"):
            state["end_reason"] = "heists"  # no heist left to attempt (unreachable with the designed deck)
        if len(state["hands"][seat]) > HAND_LIMIT and not state.get("end_reason"):
            state["phase"] = "discard"
            return
        self._next_turn(state, events)

    def _next_turn(self, state, events) -> None:
        if state.get("end_reason"):
            return
        n = len(state["names"])
        nxt = (state["turn"] + 1) % n
        if nxt == state["first"]:
            if state.get("final_round"):
                events.append({"type": "end", "text": "The last round is over: the game ends."})
                state["end_reason"] = "heists"
                return
            state["round"] += 1
            if state["round"] > state["options"]["round_limit"]:
                events.append({"type": "end", "text": f"The round limit ({state['options']['round_limit']}) is reached: the game ends."})
                state["end_reason"] = "rounds"
                return
        state["turn"] = nxt
        state["phase"] = "turn"
        state["plan_left"] = 0
        state["attempt"] = None
        events.append({"type": "turn", "text": f"{self._name(state, nxt)}'s turn."})

    def _finish(self, state, events) -> None:
        rng = Rng(state)
        values = {c: rng.die(6) for c in state["colours"]}
        values[CLEAR] = 2
        state["phase"] = "over"
        state["window"] = None
        state["pending"] = None
        state["test"] = None
        rows = []
        for s in range(len(state["names"])):
            pts = sum(state["gems"][s][c] * values[c] for c in values)
            rows.append({"seat": s, "score": pts, "clear": state["gems"][s][CLEAR], "heists": len(state["mementos"][s])})
        for r, rank in zip(rows, competition_ranks([(-r["score"], -r["clear"], -r["heists"]) for r in rows])):
            r["rank"] = rank
            r["won"] = rank == 1
        state["final"] = {"values": values, "reason": state["end_reason"], "rows": rows}
        events.append({"type": "values", "text": "Gem values: " + ", ".join(
            f"{self._name(state, s)}'s {c} = {values[c]}" for s, c in enumerate(state["colours"])) + ", Clear = 2."})
        ranked = sorted(rows, key=lambda r: r["rank"])
        events.append({"type": "over", "text": "Final scores: " + "; ".join(
            f"{self._name(state, r['seat'])} {r['score']}" for r in ranked) + ". "
            + " and ".join(self._name(state, r["seat"]) for r in ranked if r["won"]) + " wins!"})

    def scores(self, state) -> list[dict[str, Any]]:
        if not state.get("final"):
            return []
        values = state["final"]["values"]
        out = []
        for r in state["final"]["rows"]:
            s = r["seat"]
            detail = ", ".join(f"{state['gems'][s][c]}×{c}({values[c]})" for c in self._gem_colours(state) if state["gems"][s][c])
            out.append({"seat": s, "score": r["score"], "rank": r["rank"], "won": r["won"],
                        "detail": (detail or "no gems") + f"; {r['heists']} heist(s)"})
        return out

    def balance_tally(self, state, trace) -> dict[str, Any]:
        stats = state.get("stats") or {"available": [], "used": [], "completions": [], "rolls": {}}
        comps = stats["completions"]
        reason = (state.get("final") or {}).get("reason") or state.get("end_reason")
        return {
            "end": {"heists": "heists completed", "bag": "bag emptied", "rounds": "round limit"}.get(reason, str(reason)),
            "available": sorted(stats["available"]),
            "used": sorted(stats["used"]),
            "completions": len(comps),
            "snipes": sum(1 for c in comps if c["own"] == 0),
            "rolls": dict(stats["rolls"]),
        }

    def _act_discard(self, state, seat: int, action, events) -> None:
        """Upkeep over the hand limit: discard one card; the turn passes once the hand fits."""
        state["hands"][seat].remove(action["card"])
        state["prep_discard"].append(action["card"])
        events.append({"type": "discard", "text": f"{self._name(state, seat)} discards {prep_name(action['card'])} (hand limit)."})
        if len(state["hands"][seat]) <= HAND_LIMIT:
            self._next_turn(state, events)
