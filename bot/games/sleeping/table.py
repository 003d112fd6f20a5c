"""Sleeping Wizard: lookups on the table every other part of the engine shares (the round's floor
and its rule, whose turn it is, the cards left in a hand, a team's Shapeshifter copies)."""
from __future__ import annotations

from typing import Any

from bot.engine import Engine, Event, State
from bot.games.sleeping import scoring
from bot.games.sleeping.cards import FLOORS


def seat_names(state: State) -> list[str]:
    """The players' names, by seat."""
    names: list[str] = state["names"]
    return names


def public_events(events: list[Event]) -> list[Event]:
    """The events everyone may read (a private one carries ``to``: the seat it is for)."""
    return [event for event in events if "to" not in event]


class TableMixin(Engine):
    """The shared lookups: the bottom layer of ``SleepingEngine`` (see ``engine.py``)."""

    def floor_key(self, state: State, round_number: int | None = None) -> str:
        """The key of the floor a round plays on (this round's unless ``round_number`` is given)."""
        round_number = state["round"] if round_number is None else round_number
        tower = state["tower"]
        if len(tower) == 2:  # floors option off: every round is the Ground Floor
            return "ground"
        key: str = tower[round_number - 1]
        return key

    def floor(self, state: State) -> dict[str, Any]:
        """This round's floor card (name, text, category and effect)."""
        return FLOORS[self.floor_key(state)]

    def effect(self, state: State) -> dict[str, Any]:
        """This round's floor rule, as data (e.g. ``{"peek": 0}``; empty on the Ground Floor)."""
        effect: dict[str, Any] = self.floor(state)["effect"]
        return effect

    def peek_count(self, state: State) -> int:
        """How many of their own cards each player sees at the start of this round."""
        return int(self.effect(state).get("peek", 2))

    def current_seat(self, state: State) -> int | None:
        """The seat hiring (or pushing a card after a hire); None in the Shapeshifter step and at the end."""
        if state["phase"] == "turns":
            order = state["order"]
            seat: int = order[state["turn"] % len(order)]
            return seat
        if state["phase"] == "push":
            pusher: int = state["pending"]["seat"]
            return pusher
        return None

    def hand_slots(self, state: State, seat: int) -> list[int]:
        """The slots (0-3, shown as A-D) of ``seat``'s hand that still hold a card."""
        return [slot for slot, card in enumerate(state["hands"][seat]) if card is not None]

    def turns_taken(self, state: State, seat: int) -> int:
        """How many adventurers ``seat`` has hired this round."""
        return len(state["teams"][seat])

    def team_copies(self, state: State, seat: int) -> dict[int, int]:
        """What ``seat``'s Shapeshifters copy (Shapeshifter id -> copied card id): the seat's own choice
        once made, else the quietest copies."""
        choice = state["copy_choice"][seat] if state.get("copy_choice") else None
        if choice is not None:
            return {int(shifter): target for shifter, target in choice.items()}
        return scoring.best_copies(state["teams"][seat], self.effect(state))

    def team_now(self, state: State, seat: int, extra: int | None = None) -> tuple[int, int, dict[int, str]]:
        """``seat``'s team as it stands (with ``extra`` hired too): its noise and floor treasure with the quietest
        Shapeshifter copies, and why each card scores other than its number."""
        team = state["teams"][seat] + ([] if extra is None else [extra])
        effect = self.effect(state)
        copies = scoring.best_copies(team, effect)
        return (scoring.noise(team, copies, effect), scoring.floor_bonus(team, copies, effect),
                scoring.card_reasons(team, copies, effect))

    def hire_result(self, state: State, seat: int, card_id: int) -> str:
        """What a hire just did to the team, for its event: ' (two 5s cancel): team noise 3.'"""
        noise, bonus, reasons = self.team_now(state, seat)
        why = f" ({reasons[card_id]})" if card_id in reasons else ""
        pays = f", floor treasure {bonus}" if bonus else ""
        return f"{why}: team noise {noise}{pays}."

    @staticmethod
    def _note(state: State, *names: str) -> None:
        """Count a card or mechanic as used this game (for the balance report)."""
        used = state.setdefault("stats", {"used": []})["used"]
        used.extend(name for name in names if name not in used)

    @staticmethod
    def _forget(state: State, seat: int, card: int) -> None:
        """``seat`` no longer holds ``card``, so no longer knows it as a hand card."""
        if card in state["known"][seat]:
            state["known"][seat].remove(card)
