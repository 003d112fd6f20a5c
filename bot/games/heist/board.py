"""HEIST: shared lookups on the state (whose move it is, skills, the current test's numbers, jobs)."""
from __future__ import annotations

from typing import Any

from bot.engine import State

from . import cards
from .cards import OBSTACLE, RESOURCE
from .viewtypes import TotalsView

ROUNDS = len(cards.HEAT_TRACK)


def other_seats(state: State, active: int) -> list[int]:
    """Every seat but ``active``, clockwise from the one after it."""
    count = state["n"]
    return [(active + step) % count for step in range(1, count)]


def to_act(state: State) -> list[int]:
    """Seats that may act now: the helpers still to commit, else the active player."""
    phase = state["phase"]
    if phase == "over":
        return []
    if phase == "assist":
        commits = state["test"]["commits"]
        return [seat for seat in range(state["n"]) if seat != state["active"] and str(seat) not in commits]
    return [state["active"]]


def skill(state: State, seat: int, name: str) -> int:
    """A seat's skill: its identity's value plus one per upgrade card of that skill."""
    base: int = cards.IDENTITY[state["identities"][seat]]["skills"][name]
    return base + sum(1 for card in state["upgrades"][seat] if RESOURCE[card]["upgrade"] == name)


def skills(state: State, seat: int) -> dict[str, int]:
    """All three skills of a seat."""
    return {name: skill(state, seat, name) for name in cards.SKILLS}


def current_option(state: State) -> dict[str, Any]:
    """The skill test the active player picked for the current obstacle."""
    test = state["test"]
    option: dict[str, Any] = OBSTACLE[test["obstacle"]]["test"][test["option"]]
    return option


def total(state: State) -> TotalsView:
    """The current test's numbers (all public once assists are revealed)."""
    test = state["test"]
    option = current_option(state)
    skill_sum = sum(skill(state, state["active"], name) for name in option["skills"])
    assists = sum(RESOURCE[assist["card"]]["modifier"] for assist in test["assists"])
    counted = [cards.token_value(token) for token in test["tokens"] if not token["ignored"]]
    tokens = sum(counted)
    double = test["double"] * max(counted) if counted else 0
    favour = test["favour"] * len(test["assists"])
    tricks = test["bonus"] + favour + double
    grand = skill_sum + assists + tokens + tricks
    return {"skill": skill_sum, "assists": assists, "tokens": tokens, "tricks": tricks,
            "total": grand, "target": option["target"], "success": grand >= option["target"]}


def mandatory(state: State, obstacle: str) -> bool:
    """Printed Mandatory, or the finale (last obstacle in play) of its job."""
    return bool(OBSTACLE[obstacle]["mandatory"]) or state["finales"][OBSTACLE[obstacle]["job"]] == obstacle


def obstacles_left(state: State) -> int:
    """How many obstacles are still stacked on the jobs."""
    return sum(len(stack) for stack in state["jobs"].values())


def distinct_cards(ids: list[str]) -> list[str]:
    """One id per kind of card (identical cards are offered once), in id order."""
    seen: set[str] = set()
    out = []
    for card in sorted(ids):
        signature = cards.card_signature(card)
        if signature not in seen:
            seen.add(signature)
            out.append(card)
    return out

