"""Sleeping Wizard: hire quiet teams of adventurers you can't see in your own hand.

This module is the face of the game: ``SleepingEngine`` keeps the engine contract and hands each concern to
its own module of plain functions over the JSON state, and the phases are a table of handlers (``PHASES``).
Each module imports only those above it in this list (no import circle):

  cards.py      the adventurers, the floors, the tracker (data) and card words
  scoring.py    a team's noise and floor treasure (pure functions of card ids)
  table.py      shared lookups: the round's floor, whose turn it is, hand slots, Shapeshifter copies
  dealing.py    a new game (``new_state``) and the start of a round (deal, turn order, the automatic peek)
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
from typing import Any

from bot.engine import (
    RULES_OPTION,
    Action,
    Engine,
    Event,
    GameMeta,
    Option,
    Phase,
    PhaseTable,
    RuleError,
    State,
    exact_form,
)
from bot.games.sleeping import dealing, hiring, round_end, table, texts, views
from bot.games.sleeping.table import public_events
from bot.games.sleeping.texts import SUMMARY
from bot.games.sleeping.viewtypes import SleepingView

__all__ = ["META", "PHASES", "SUMMARY", "SleepingEngine"]

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

PHASES = PhaseTable({
    "turns": Phase(hiring.hire_options, dict.fromkeys(("hire_hand", "hire_deck", "hire_market"), hiring.apply_hire)),
    "push": Phase(hiring.push_options, {"push": hiring.apply_push}),
    "copy": Phase(round_end.copy_options, {"copy": round_end.apply_copy}),
})


class SleepingEngine(Engine[SleepingView]):
    """The Sleeping Wizard engine: the contract of ``bot.engine.Engine`` over the modules above."""

    meta = META

    def setup(self, names: list[str], options: dict[str, Any], seed: int) -> State:
        """A new game: the tower's floors drawn face down, then round 1 dealt on the Ground Floor."""
        self.meta.check_players(len(names))
        return dealing.new_state(names, options, seed)

    def to_act(self, state: State) -> list[int]:
        """The hiring (or pushing) seat; in the Shapeshifter step every seat still to choose."""
        return table.seats_to_act(state)

    def is_terminal(self, state: State) -> bool:
        """The game is over (after round 5, or when a guild woke the wizard)."""
        return bool(state["phase"] == "over")

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        """``seat``'s moves in the current phase (none when it is not theirs to move)."""
        if seat not in self.to_act(state):
            return []
        return PHASES.legal_actions(state, seat)

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
        return PHASES.apply(state, seat, self._legal_match(state, seat, action))

    def scores(self, state: State) -> list[dict[str, Any]]:
        """Each seat's total treasure, rank and whether it won (before the end: a provisional standing)."""
        return round_end.scores(state)

    def balance_tally(self, state: State, trace: list[dict[str, Any]]) -> dict[str, Any]:
        """How the game ended, and which classes, hires, floors and choices were available / used."""
        return round_end.balance_tally(state, trace)

    # ------------------------------------------------------------ views and words
    def view(self, state: State, viewer: int | None) -> SleepingView:
        """The public board (``viewer`` None), plus ``private`` for a seat."""
        return views.view(state, viewer)

    def status_line(self, state: State) -> str:
        """One line for the board: whose move it is and what they must do, or who won."""
        return texts.status_line(state)

    def illegal_message(self, state: State, seat: int, action: Action) -> str:
        """Why a move is refused, in a sentence the player can act on."""
        return texts.illegal_message(state, seat, action)

    def describe_action(self, state: State, seat: int, action: Action) -> str:
        """A move's button label (at most 80 characters)."""
        return texts.describe_action(state, seat, action)

    def action_group(self, state: State, seat: int, action: Action) -> str:
        """The heading a move is listed under when the moves don't fit on buttons."""
        return texts.action_group(state, seat, action)

    def private_text(self, view: dict[str, Any]) -> str:
        """The seat's hand, the others' hands and any Shapeshifter choices, as a DM."""
        return texts.private_text(view)

    def bot_action(self, state: State, seat: int, rng: random.Random) -> Action:
        """The bot's move, decided from ``seat``'s view and legal actions only."""
        from bot.games.sleeping.bot_player import choose

        legal = self.legal_actions(state, seat)
        if len(legal) == 1:
            return legal[0]
        return choose(self.view(state, seat), legal, rng)
