"""Masterminds: Heist Society -- the rules engine (pure, deterministic, JSON state).

This module is the face of the game: ``MastermindsEngine`` is put together from one mixin per
concern, each in its own module, and the phases are a table of handlers (``PHASES``):

  constants.py  numbers of the rules, the state keys a view may show (an allowlist) and those it never shows
  board.py      shared lookups on the table (names, team entries, heist steps, decks, gems, refills)
  opening.py    ``setup``: decks, gems, opening hands, the roll for the first player
  options.py    the legal actions of each phase
  prep.py       the PREP turn: recruit phase, plan phase, card effects, gems
  heist.py      the HEIST turn: attempts, the interrupt window, rolls, failures, completing a heist
  upkeep.py     upkeep, the next turn, the end of the game, scores and balance facts
  views.py      what each seat may see
  texts.py      rules summary, status line, move descriptions, hand text, refusals

Flow of a turn (``state["phase"]``):

* ``turn``      the active player picks a PREP recruit-phase action (recruit / burn /
                draw) or a HEIST step (``heist``: heist slot + skill).
* ``crew``      after picking a step: choose 1-3 untapped recruits (``crew``) or go ``back``.
* ``burned``    after a burn: hire the drawn Talent or put it into the pool.
* ``replace``   hiring a Talent into a full team (or in place of someone): who leaves, or ``back``.
* ``plan``      two plan actions (draw, play an action, play gear, trade gear, end).
* ``gear2``     the optional second Gear card of a "play two gear" plan action.
* ``pay``       an action card played with its gem bonus: the colour of the gem spent.
* ``target``    an action card asks for its target.
* ``hire``      Headhunter (with a gem) lets you recruit from the fresh pool.
* ``window``    the interrupt window before a roll: EVERY seat commits one interrupt or
                passes, simultaneously and hidden (who is asked never depends on hands).
* ``suffer``    a FAILURE: choose which activated recruit suffers the Failure card.
* ``lose_gem``  a Failure consequence: choose a gem to return to the bag.
* ``continue``  after a success: pick the next step of that heist (then a crew) or hold.
* ``retire``    after completing a heist: choose the recruit who retires.
* ``discard``   upkeep: discard down to the hand limit of 6.
* ``over``      the game has ended; ``state["final"]`` holds the gem values.
"""
from __future__ import annotations

import random
from typing import Any, Callable, NamedTuple

from bot.engine import RULES_OPTION, Engine, GameMeta, Option, RuleError

from . import bot_player
from .board import BoardMixin, recruit_value, seat_order
from .constants import (
    DICE_PER_PLAYER,
    HAND_LIMIT,
    MAX_ACTIVATE,
    PERFECT_FACE,
    PUBLIC_KEYS,
    RECENT,
    SECRET_KEYS,
    STEP_LETTERS,
    TEAM_LIMIT,
)
from .heist import HeistMixin
from .opening import OpeningMixin
from .options import OptionsMixin
from .prep import PrepMixin
from .texts import SUMMARY, TextsMixin
from .upkeep import UpkeepMixin
from .views import ViewsMixin

__all__ = ["DICE_PER_PLAYER", "HAND_LIMIT", "MAX_ACTIVATE", "PERFECT_FACE", "PHASES", "Phase", "PUBLIC_KEYS", "RECENT", "SECRET_KEYS",
           "MastermindsEngine", "STEP_LETTERS", "SUMMARY", "TEAM_LIMIT", "recruit_value", "seat_order"]

class MastermindsEngine(BoardMixin, OpeningMixin, OptionsMixin, PrepMixin, HeistMixin, UpkeepMixin,  # type: ignore[misc]
                        ViewsMixin, TextsMixin, Engine):  # (``view`` returns a MastermindsView, a TypedDict)
    """Masterminds: Heist Society, one mixin per concern behind the engine contract."""

    meta = GameMeta(
        key="masterminds",
        name="Masterminds: Heist Society",
        min_players=2,
        max_players=5,
        blurb="Recruit a crew, gear up and push your luck through four-step heists for gems.",
        summary=SUMMARY,
        revision=2,  # 2: the rules option (tuned or rulebook), teaching, this session's rule changes
        options=(
            RULES_OPTION,
            Option("round_limit", "Round limit", 25, "The game also ends after this many rounds (anti-stall).",
                   minimum=8, maximum=60),
            Option("gems_per_colour", "Gems per colour", 5, "Gems of each mastermind colour put in the bag.",
                   minimum=3, maximum=10),
            Option("interrupt_seconds", "Interrupt window (seconds)", 20,
                   "How long everyone gets to play an interrupt or pass before a roll (then they pass).",
                   minimum=5, maximum=300),
        ),
    )

    # ------------------------------------------------------------------ contract
    def to_act(self, state) -> list[int]:
        """Who must act: every seat still to answer an interrupt window, else the player whose turn it is."""
        if state["phase"] == "over":
            return []
        if state["phase"] == "window":
            window = state["window"]
            return [seat for seat in window["seats"] if str(seat) not in window["done"]]
        return [state["turn"]]

    def turn_seats(self, state) -> list[int]:
        """An interrupt window is part of the rolling player's turn (the board is edited, not posted anew)."""
        return [] if state["phase"] == "over" else [state["turn"]]

    def is_terminal(self, state) -> bool:
        """Whether the game is over."""
        return state["phase"] == "over"

    def window_seconds(self, state, options: dict[str, Any]) -> int | None:
        """The interrupt window is real-time: a short deadline of its own, then "pass"."""
        if state["phase"] == "window":
            return int(options.get("interrupt_seconds", 20))
        return None

    def timeout_action(self, state, seat: int, rng: random.Random) -> dict[str, Any]:
        """The move made for a seat that ran out of time: pass an interrupt window, else play as the bot."""
        if state["phase"] == "window":
            return {"type": "pass"}
        return self.bot_action(state, seat, rng)

    def bot_action(self, state, seat: int, rng: random.Random) -> dict[str, Any]:
        """The bot sees what its seat sees: its view and its legal actions, nothing else."""
        return bot_player.choose(self.view(state, seat), self.legal_actions(state, seat), rng)

    def legal_actions(self, state, seat: int) -> list[dict[str, Any]]:
        """What ``seat`` may do now: the options of the current phase, if it is to act."""
        if seat not in self.to_act(state):
            return []
        phase = PHASES.get(state["phase"])
        return phase.legal(self, state, seat) if phase else []

    def _apply(self, state, seat: int, action: dict[str, Any]) -> list[dict[str, Any]]:
        events: list[dict[str, Any]] = []
        phase = PHASES.get(state["phase"])
        handler = phase.actions.get(action["type"]) if phase else None
        if handler is None:  # pragma: no cover - legal_actions guards this
            raise RuleError("That move isn't part of this game.")
        handler(self, state, seat, action, events)
        if state.get("end_reason") and state["phase"] != "over":
            self._finish(state, events)
        recent = state.setdefault("recent", [])
        recent.extend(event["text"] for event in events if "to" not in event)
        del recent[:-RECENT]
        return events


Handler = Callable[[Any, dict[str, Any], int, dict[str, Any], list[dict[str, Any]]], None]


class Phase(NamedTuple):
    """One phase of a turn: its legal actions, and the handler of each action type it offers."""
    legal: Callable[[Any, dict[str, Any], int], list[dict[str, Any]]]
    actions: dict[str, Handler]


PHASES: dict[str, Phase] = {
    "turn": Phase(OptionsMixin._turn_options, {
        "recruit": PrepMixin._act_recruit, "burn": PrepMixin._act_burn, "draw_prep": PrepMixin._act_draw_prep,
        "heist": HeistMixin._act_heist}),
    "crew": Phase(OptionsMixin._crew_phase_options, {"crew": HeistMixin._act_crew, "back": HeistMixin._act_back}),
    "burned": Phase(OptionsMixin._burned_options, {"hire": PrepMixin._act_hire, "to_pool": PrepMixin._act_to_pool}),
    "replace": Phase(OptionsMixin._replace_options, {"replace": PrepMixin._act_replace,
                                                     "back": PrepMixin._act_back_from_replace}),
    "pay": Phase(OptionsMixin._pay_options, {"pay": PrepMixin._act_pay}),
    "plan": Phase(OptionsMixin._plan_options, {
        "draw": PrepMixin._act_draw, "action": PrepMixin._act_action, "gear": PrepMixin._act_gear,
        "trade": PrepMixin._act_trade, "end_plan": PrepMixin._act_end_plan}),
    "gear2": Phase(OptionsMixin._second_gear_options, {"gear": PrepMixin._act_second_gear,
                                                       "gear_done": PrepMixin._act_gear_done}),
    "target": Phase(OptionsMixin._target_options, {"target": PrepMixin._act_target}),
    "hire": Phase(OptionsMixin._hire_options, {"hire_pool": PrepMixin._act_hire_pool,
                                               "hire_skip": PrepMixin._act_hire_skip}),
    "window": Phase(OptionsMixin._window_options, {"pass": HeistMixin._window_commit,
                                                   "interrupt": HeistMixin._window_commit}),
    "suffer": Phase(OptionsMixin._suffer_options, {"suffer": HeistMixin._act_suffer}),
    "lose_gem": Phase(OptionsMixin._lose_gem_options, {"give_gem": HeistMixin._act_give_gem}),
    "continue": Phase(OptionsMixin._continue_options, {"heist": HeistMixin._act_heist, "hold": HeistMixin._act_hold}),
    "retire": Phase(OptionsMixin._retire_options, {"retire": HeistMixin._act_retire}),
    "discard": Phase(OptionsMixin._discard_options, {"discard": UpkeepMixin._act_discard}),
}
