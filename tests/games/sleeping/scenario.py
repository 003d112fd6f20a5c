"""Readable Sleeping Wizard set-ups for rules tests: say what the table looks like, not which state
keys to poke. Cards are named (``"Tansy"``); seats are counted from 0.

    table = (SleepingTable(3, seed=12).round(2, floor="cellar")
             .hands(["Tansy", "Goop", "Clover", "Poppy"], ["Pebble", "Blorp", "Brickle", "Bastion"],
                    ["Flicker", "Oozle", "Emberly", "Zapwick"])
             .market("Salvia", "Quasar", "Squelch").deck_top("Ironhide"))
    events = table.play(0, {"type": "hire_deck"})
    st = table.state

Every verb that sets the table up returns the table, so they chain; the cards it moves come from
wherever they were, and whatever it displaces goes back to the deck (every adventurer stays exactly
once in the deck, the market, a hand or a team).
"""
from __future__ import annotations

from typing import Any

from bot.games.sleeping import hiring
from tests.games.sleeping.test_helpers import ENGINE, arrange, new_game, start_round


class SleepingTable:
    """One game's state with set-up verbs; ``events`` holds what the last round start or move said."""

    def __init__(self, players: int = 3, seed: int = 1, floors: bool = True) -> None:
        self.state: dict[str, Any] = new_game(players, seed=seed, floors=floors)
        self.events: list[dict[str, Any]] = []

    @classmethod
    def of(cls, state: dict[str, Any]) -> SleepingTable:
        """A table around a state a test already has."""
        table = cls.__new__(cls)
        table.state = state
        table.events = []
        return table

    @property
    def players(self) -> int:
        return len(self.state["names"])

    # ------------------------------------------------------------ the round
    def round(self, number: int, floor: str | None = None) -> SleepingTable:
        """Round ``number`` is dealt now, on ``floor`` (a floor key; default: the tower's own)."""
        self.events = start_round(self.state, number, floor)
        return self

    def in_round(self, number: int) -> SleepingTable:
        """The game is in round ``number`` (nothing dealt again: for the last round, or the wake-up)."""
        self.state["round"] = number
        return self

    def noise(self, *spaces: int) -> SleepingTable:
        """Each guild's space on the noise tracker, by seat."""
        self.state["noise"] = list(spaces)
        return self

    def treasure(self, *amounts: int) -> SleepingTable:
        """Each guild's treasure so far, by seat."""
        self.state["treasure"] = list(amounts)
        return self

    # ------------------------------------------------------------ the cards
    def hands(self, *hands: list[str]) -> SleepingTable:
        """Every seat's hand, slot A first (a short hand leaves its last slots empty); nobody has peeked."""
        arrange(self.state, hands=list(hands))
        return self

    def market(self, *names: str) -> SleepingTable:
        """The market holds exactly these cards, in this order."""
        arrange(self.state, market=list(names))
        return self

    def deck_top(self, *names: str) -> SleepingTable:
        """These cards are on top of the deck, the first named on top."""
        arrange(self.state, deck_top=list(names))
        return self

    def teams(self, *teams: list[str]) -> SleepingTable:
        """Every seat's team hired so far this round."""
        arrange(self.state, teams=list(teams))
        return self

    def empty_deck(self) -> SleepingTable:
        """The deck has run out: its cards lie in the market."""
        self.state["market"] += self.state["deck"]
        self.state["deck"] = []
        return self

    # ------------------------------------------------------------ playing
    def play(self, seat: int, action: dict[str, Any]) -> list[dict[str, Any]]:
        """``seat`` makes a move (through the engine's checks); its events."""
        self.events = ENGINE.apply(self.state, seat, action)
        return self.events

    def hire_from_hands(self) -> SleepingTable:
        """Everyone hires their own hand cards A, B, C, D in turn, to the end of this round's turns."""
        number = self.state["round"]
        while self.state["phase"] == "turns" and self.state["round"] == number:
            seat = ENGINE.to_act(self.state)[0]
            action = next(a for a in ENGINE.legal_actions(self.state, seat) if a["type"] == "hire_hand")
            self.events = ENGINE.apply(self.state, seat, action)
        return self

    def finish_round(self, *teams: list[str]) -> list[dict[str, Any]]:
        """Every seat has hired ``teams`` (hands empty) and the last turn ends: the Shapeshifter step or the
        round's score follows. Its events."""
        arrange(self.state, hands=[[] for _ in range(self.players)], teams=list(teams))
        self.state["phase"] = "turns"
        self.state["turn"] = 4 * self.players - 1
        self.events = hiring.next_turn(self.state)
        return self.events
