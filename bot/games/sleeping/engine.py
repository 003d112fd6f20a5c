"""Sleeping Wizard: hire quiet teams of adventurers you can't see in your own hand.

This module is the face of the game: ``SleepingEngine`` is built in layers, one module per concern,
each layer a class on top of the one before (so every call between them is checked by the type
checker), and the phases are a table of handlers (``PHASES``):

  cards.py      the adventurers, the floors, the tracker (data) and card words
  scoring.py    a team's noise and floor treasure (pure functions of card ids)
  table.py      shared lookups: the round's floor, whose turn it is, hand slots, Shapeshifter copies
  dealing.py    ``setup`` and the start of a round (deal, turn order, the automatic peek)
  round_end.py  the Shapeshifter step, scoring a round, the end of the game, scores, balance report
  hiring.py     the hiring turns: hire from hand, deck or market; push a hand card to the market
  texts.py      rules summary, status line, move labels, refusals, the private hand text
  views.py      what each seat may see

State layout (plain JSON):
  tower          floor keys, Ground Floor first and Attic last (just those two with the floors option off)
  round, phase   1-5; "turns" (hiring), "push" (after a deck or market hire), "copy" (Shapeshifters), "over"
  deck, market   card ids; the deck's top card is the end of its list
  hands[seat]    4 slots (A-D), a card id or None once hired or pushed
  known[seat]    the card ids of its own hand that the seat has peeked at
  teams[seat]    the card ids hired this round
  order, turn    this round's seat order, and how many hires were made (turn % players says whose turn)
  pending        {"seat", "card"}: the deck or market hire waiting for its push
  copy_wait      seats with a real Shapeshifter choice; copy_choice[seat] their choice ({"<id>": id} or None)
  noise, treasure  each guild's tracker space and treasure; history, last_round and final for the boards
"""
from __future__ import annotations

import random
from typing import Any, Callable, NamedTuple

from bot.engine import RULES_OPTION, Action, Event, GameMeta, Option, RuleError, State, exact_form
from bot.games.sleeping.hiring import HiringMixin
from bot.games.sleeping.round_end import RoundEndMixin
from bot.games.sleeping.table import public_events
from bot.games.sleeping.texts import SUMMARY
from bot.games.sleeping.views import ViewsMixin

__all__ = ["META", "PHASES", "Phase", "SUMMARY", "SleepingEngine"]

META = GameMeta(
    key="sleeping",
    name="Sleeping Wizard",
    min_players=2,
    max_players=8,
    blurb="Hire quiet adventurers from a hand you can't see; don't wake the wizard.",
    summary=SUMMARY,
    options=(
        RULES_OPTION,
        Option("floors", "Tower floors", True,
               "Reveal a random floor card with its own rule in rounds 2-5 (off: every round plays like the Ground Floor)."),
    ),
    revision=2,  # 2: the rules option (tuned or rulebook) kept in the state, the reasons in the texts
)


class SleepingEngine(ViewsMixin):
    """The Sleeping Wizard engine: the contract of ``bot.engine.Engine`` over the layers above."""

    meta = META

    def to_act(self, state: State) -> list[int]:
        """The hiring (or pushing) seat; in the Shapeshifter step every seat still to choose."""
        phase = state["phase"]
        if phase in ("turns", "push"):
            seat = self.current_seat(state)
            return [] if seat is None else [seat]
        if phase == "copy":
            return [seat for seat in state["copy_wait"] if state["copy_choice"][seat] is None]
        return []

    def is_terminal(self, state: State) -> bool:
        """The game is over (after round 5, or when a guild woke the wizard)."""
        return bool(state["phase"] == "over")

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        """``seat``'s moves in the current phase (none when it is not theirs to move)."""
        if seat not in self.to_act(state):
            return []
        phase = PHASES.get(state["phase"])
        return phase.legal(self, state, seat) if phase else []

    def apply(self, state: State, seat: int, action: Action) -> list[Event]:
        """Apply one move (see ``Engine.apply``) and keep the board's "what just happened" lines."""
        round_number = state["round"]
        events = super().apply(state, seat, action)
        state["recent"] = self._recent(events, new_round=state["round"] != round_number)
        return events

    @staticmethod
    def _recent(events: list[Event], new_round: bool) -> list[str]:
        """The last public sentences, for the board ("what just happened"). Once a new round is dealt, the
        hire and push lines of the old round go: they name cards that may now sit, unpeeked, in a hand."""
        kept = [event for event in public_events(events) if not (new_round and event["type"] in ("hire", "push"))]
        return [event["text"] for event in kept][-4:]

    def _legal_match(self, state: State, seat: int, action: Any) -> Action:
        """The legal action ``action`` is, matched exactly (1.0 is not 1, True is not 1), or RuleError.

        Everything below works on the engine's own copy, so a look-alike value can never get into
        the state or crash a move half-way."""
        wanted = exact_form(action)
        for legal in self.legal_actions(state, seat):
            if exact_form(legal) == wanted:
                return legal
        raise RuleError(self.illegal_message(state, seat, action))

    def _apply(self, state: State, seat: int, action: Action) -> list[Event]:
        """Dispatch a legal move to its phase's handler."""
        action = self._legal_match(state, seat, action)
        return PHASES[state["phase"]].apply(self, state, seat, action)

    def bot_action(self, state: State, seat: int, rng: random.Random) -> Action:
        """The bot's move, decided from ``seat``'s view and legal actions only."""
        from bot.games.sleeping.bot_player import choose

        legal = self.legal_actions(state, seat)
        if len(legal) == 1:
            return legal[0]
        return choose(self.view(state, seat), legal, rng)


class Phase(NamedTuple):
    """One phase of a round: its legal actions and how an action in it applies."""

    legal: Callable[[Any, State, int], list[Action]]
    apply: Callable[[Any, State, int, Action], list[Event]]


PHASES: dict[str, Phase] = {
    "turns": Phase(HiringMixin._hire_options, HiringMixin._apply_hire),
    "push": Phase(HiringMixin._push_options, HiringMixin._apply_push),
    "copy": Phase(RoundEndMixin._copy_options, RoundEndMixin._apply_copy),
}
