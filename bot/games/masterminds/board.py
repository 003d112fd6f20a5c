"""Masterminds: shared lookups on the table (names, team entries, heist steps, decks, gems, balance facts, refills)."""
from __future__ import annotations

from typing import Any

from bot.engine import plays_rulebook
from bot.rng import Rng

from . import calc
from .cards import CLEAR, HEISTS, TALENTS, heist_steps, step_label
from .constants import STEP_LETTERS


def seat_order(start: int, count: int) -> list[int]:
    """The seats in play order, starting with ``start``."""
    return [(start + i) % count for i in range(count)]


def recruit_value(entry: dict[str, Any], skill: str) -> int:
    """A team entry's value in ``skill``: effective stat (All-Rounder: at least 2) plus gear."""
    return calc.recruit_value(entry["card"], entry.get("gear"), skill)

class BoardMixin:
    """Lookups and small moves on the table that every part of a turn shares."""

    @staticmethod
    def _rulebook(state) -> bool:
        """Whether this table plays the printed rules (``rules: rulebook``); a state stored before the option
        existed plays the tuned set."""
        return plays_rulebook(state.get("options"))

    def _seat_name(self, state, seat: int) -> str:
        return state["names"][seat]

    def _talent_name(self, tid: str) -> str:
        return TALENTS[tid]["name"]

    def _entry(self, state, tid: str) -> tuple[int, dict[str, Any]] | tuple[None, None]:
        for seat, team in enumerate(state["teams"]):
            for entry in team:
                if entry["card"] == tid:
                    return seat, entry
        return None, None

    def _next_step(self, heist: dict[str, Any]) -> int:
        for step_index, die in enumerate(heist["dice"]):
            if die is None:
                return step_index
        return 4

    def _steps(self, heist: dict[str, Any]) -> list[dict[str, Any]]:
        return heist_steps(heist["a"], heist["b"])

    def _heist_name(self, heist: dict[str, Any]) -> str:
        return HEISTS[heist["a"]]["name"]

    def _gem_colours(self, state) -> list[str]:
        return list(state["colours"]) + [CLEAR]

    def _draw_from(self, state, deck_key: str, discard_key: str | None, events, what: str) -> str | None:
        deck = state[deck_key]
        if not deck and discard_key and state[discard_key]:
            deck.extend(state[discard_key])
            state[discard_key].clear()
            Rng(state).shuffle(deck)
            events.append({"type": "reshuffle", "text": f"The {what} discard pile is shuffled into a new deck."})
        return deck.pop() if deck else None

    def attempt_total(self, state, seat: int, skill: str, tids: list[str], intel: bool = True) -> tuple[int, list[str]]:
        """Total and its parts for ``tids`` of ``seat`` on ``skill`` (before interrupts)."""
        team = {entry["card"]: entry for entry in state["teams"][seat]}
        members = [(tid, team[tid]["gear"]) for tid in tids]
        return calc.crew_total(members, skill, state["intel"][seat] if intel else 0)

    def _tally(self, state, key: str, name: str) -> None:
        """Remember for the balance report that ``name`` was available / used this game."""
        stats = state.setdefault("stats", {"available": [], "used": [], "completions": [], "rolls": {}})
        keys = ["available", "used"] if key == "used" else [key]
        for tally in keys:
            if name not in stats[tally]:
                stats[tally].append(name)

    def _refresh_pool(self, state, events) -> None:
        while len(state["pool"]) < 3:
            tid = self._draw_from(state, "talent_deck", "talent_discard", events, "Talent")
            if tid is None:
                break
            state["pool"].append(tid)
            self._tally(state, "available", "talent:" + self._talent_name(tid))

    def _refresh_heists(self, state, events) -> None:
        for slot in (0, 1):
            if state["heists"][slot] is None and len(state["heist_deck"]) >= 2:
                a_side = state["heist_deck"].pop()
                b_side = state["heist_deck"].pop()
                state["heists"][slot] = {"a": a_side, "b": b_side, "dice": [None] * 4}
                steps = heist_steps(a_side, b_side)
                events.append({"type": "heist", "text": f"New heist: {HEISTS[a_side]['name']} — "
                               + ", ".join(f"{STEP_LETTERS[i]}: {step_label(step)}" for i, step in enumerate(steps))
                               + f"; take {HEISTS[b_side]['take']} gems."})
