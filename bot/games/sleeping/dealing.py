"""Sleeping Wizard: the set-up and the start of each round (the tower's floors, the deal, the turn
order and the automatic peek at your own cards)."""
from __future__ import annotations

from typing import Any

from bot.engine import TUNED, Event, State
from bot.games.sleeping.cards import DECK_SIZE, HAND_SIZE, RANDOM_KEYS, short, slot_name
from bot.games.sleeping.table import TableMixin, seat_names
from bot.rng import Rng


class DealingMixin(TableMixin):
    """``setup`` and ``_start_round``: everything dealt or revealed before the first hire of a round."""

    def setup(self, names: list[str], options: dict[str, Any], seed: int) -> State:
        """A new game: the tower's floors drawn face down, then round 1 dealt on the Ground Floor."""
        players = len(names)
        self.meta.check_players(players)
        state: State = {
            "names": list(names),
            "rng": Rng.seed_state(seed),
            # the rule set is kept for the record: every rule is the printed one, so both sets play alike
            "options": {"floors": bool(options.get("floors", True)), "rules": options.get("rules", TUNED)},
            "round": 0,
            "phase": "setup",
            "noise": [0] * players,
            "treasure": [0] * players,
            "history": [],
            "stats": {"used": []},  # for balance_tally only: never in a view
            "last_round": None,
            "final": None,
        }
        rng = Rng(state)
        if state["options"]["floors"]:
            middle = rng.sample(RANDOM_KEYS, 4)
        else:
            middle = []
        state["tower"] = ["ground"] + middle + ["attic"]
        self._start_round(state, 1)
        return state

    def _start_round(self, state: State, round_number: int) -> list[Event]:
        """Deal round ``round_number``: a fresh shuffled deck, the market, the hands, the turn order, the peeks."""
        state["round"] = round_number
        self._deal(state)
        first = self._first_seat(state, round_number)
        players = len(state["names"])
        state["order"] = [(first + offset) % players for offset in range(players)]
        events = [self._round_event(state, round_number, first)]
        state["phase"] = "turns"
        return events + self._peek(state)

    def _deal(self, state: State) -> None:
        """Shuffle all the adventurers into a new deck and deal the market and every hand; empty the teams."""
        players = len(state["names"])
        deck = list(range(DECK_SIZE))
        Rng(state).shuffle(deck)
        market_size = int(self.effect(state).get("market_size", 3))
        state["market"] = [deck.pop() for _ in range(market_size)]
        state["hands"] = [[deck.pop() for _ in range(HAND_SIZE)] for _ in range(players)]
        state["deck"] = deck  # the top card is the end of the list
        state["teams"] = [[] for _ in range(players)]
        state["known"] = [[] for _ in range(players)]
        state["pending"] = None
        state["copy_wait"] = []
        state["copy_choice"] = [None] * players
        state["turn"] = 0

    @staticmethod
    def _first_seat(state: State, round_number: int) -> int:
        """Who hires first: seat 0 in round 1, later the noisiest guild (ties: the earliest seat)."""
        if round_number == 1:
            return 0
        loudest = max(state["noise"])
        return min(seat for seat in range(len(state["names"])) if state["noise"][seat] == loudest)

    def _round_event(self, state: State, round_number: int, first: int) -> Event:
        """The public sentence that opens a round: its floor and who goes first."""
        names = seat_names(state)
        if round_number == 1:
            return {"type": "round", "text": f"Round 1 begins on the Ground Floor. {names[first]} goes first."}
        floor = self.floor(state)
        return {"type": "round", "text": f"Round {round_number}: the tower reveals **{floor['name']}** — "
                                         f"{floor['text']} {names[first]} (noisiest guild) goes first."}

    def _peek(self, state: State) -> list[Event]:
        """Every seat sees as many random cards of its own hand as the floor allows (told to that seat only).

        Peeking is automatic: a player can't tell their own cards apart, so "which cards?" is no choice."""
        peek = max(0, min(HAND_SIZE, self.peek_count(state)))
        rng = Rng(state)
        events: list[Event] = []
        for seat in range(len(state["names"])):
            hand = state["hands"][seat]
            slots = sorted(rng.sample(range(HAND_SIZE), peek)) if peek < HAND_SIZE else list(range(HAND_SIZE))
            state["known"][seat] = [hand[slot] for slot in slots]
            if slots:
                seen = ", ".join(f"card {slot_name(slot)} is {short(hand[slot])}" for slot in slots)
                what = "all your cards" if peek >= HAND_SIZE else f"your card{'s' if peek > 1 else ''}"
                events.append({"type": "peek", "to": seat,
                               "text": f"You peek at {what}: {seen}. The rest of your hand stays unseen."
                               if peek < HAND_SIZE else f"You peek at {what}: {seen}."})
        if peek <= 0:
            events.append({"type": "peek", "text": "Nobody may peek at their cards this round."})
        elif peek >= HAND_SIZE:
            events.append({"type": "peek", "text": "Everyone sees all 4 of their own cards this round."})
        else:
            everyone = f"Everyone peeks at {peek} of their own cards (their hands face away from them)."
            events.append({"type": "peek", "text": everyone})
        return events
