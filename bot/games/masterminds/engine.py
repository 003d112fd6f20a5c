"""Masterminds: Heist Society -- the rules engine (pure, deterministic, JSON state).

This module is the face of the game: ``MastermindsEngine`` keeps the engine contract and hands each
concern to its own module of plain functions over the JSON state, and the phases are a table of handlers
(``PHASES``):

  constants.py  numbers of the rules, the state keys a view may show (an allowlist) and those it never shows
  board.py      shared lookups on the table (names, team entries, heist steps, decks, gems, refills)
  opening.py    a new game: decks, gems, opening hands, the roll for the first player
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
from typing import Any, Callable

from bot.engine import RULES_OPTION, Action, Engine, Event, GameMeta, Option, Phase, PhaseTable, State

from . import board, bot_player, opening, options, texts, upkeep, views
from . import heist as heist_turn
from . import prep as prep_turn
from .board import recruit_value, seat_order
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
from .texts import SUMMARY
from .viewtypes import MastermindsView

__all__ = ["DICE_PER_PLAYER", "HAND_LIMIT", "MAX_ACTIVATE", "ENGINE", "PERFECT_FACE", "PHASES", "PUBLIC_KEYS", "RECENT", "SECRET_KEYS",
           "MastermindsEngine", "STEP_LETTERS", "SUMMARY", "TEAM_LIMIT", "recruit_value", "seat_order"]


class MastermindsEngine(Engine[MastermindsView]):
    """Masterminds: Heist Society: the engine contract, each hook handed to the module of its concern."""

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
    def setup(self, names: list[str], options: dict[str, Any], seed: int) -> dict[str, Any]:
        """A new game: shuffled decks, the gem bag, four Prep cards each, the pool, two heists, the first player."""
        self.meta.check_players(len(names))
        return opening.new_state(names, self.meta.resolve_options(options), seed)

    def to_act(self, state) -> list[int]:
        """Who must act: every seat still to answer an interrupt window, else the player whose turn it is."""
        return board.seats_to_act(state)

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
        return PHASES.legal_actions(state, seat)

    def _apply(self, state, seat: int, action: dict[str, Any]) -> list[dict[str, Any]]:
        events = PHASES.apply(state, seat, action)
        if state.get("end_reason") and state["phase"] != "over":
            upkeep._finish(state, events)
        recent = state.setdefault("recent", [])
        recent.extend(event["text"] for event in events if "to" not in event)
        del recent[:-RECENT]
        return events

    def scores(self, state) -> list[dict[str, Any]]:
        """Each seat's gems' worth, ranked (see ``upkeep.scores``)."""
        return upkeep.scores(state)

    def balance_tally(self, state, trace: list[dict[str, Any]]) -> dict[str, Any]:
        """How the game ended and which cards and mechanics were available and used."""
        return upkeep.balance_tally(state, trace)

    # ------------------------------------------------------------------ views and words
    def view(self, state, viewer: int | None) -> MastermindsView:
        """The public table (``viewer`` None), plus ``private`` for a seat."""
        return views.view(state, viewer)

    def status_line(self, state) -> str:
        """Whose turn it is and what they are deciding (or the final standings)."""
        return texts.status_line(state)

    def describe_action(self, state, seat: int, action: dict[str, Any]) -> str:
        """One line (at most 80 characters) saying what ``action`` does, for buttons and the log."""
        return texts.describe_action(state, seat, action)

    def action_group(self, state, seat: int, action: dict[str, Any]) -> str:
        """The heading a move is listed under in the move panel."""
        return texts.action_group(state, seat, action)

    def illegal_message(self, state, seat: int, action: dict[str, Any]) -> str:
        """Why a move is refused, in a sentence the player can read."""
        return texts.illegal_message(state, seat, action)

    def private_text(self, view: dict[str, Any]) -> str:
        """Markdown for a seat's DM: its hand, gems and team."""
        return texts.private_text(view)


ENGINE = MastermindsEngine()


def _collecting(handler: Callable[[State, int, Action, list[Event]], None]) -> Callable[[State, int, Action],
                                                                                           list[Event]]:
    """A handler that appends its events to a list, as one that returns them."""
    def run(state: State, seat: int, action: Action) -> list[Event]:
        events: list[Event] = []
        handler(state, seat, action, events)
        return events
    return run


def _phase(legal: Callable[[State, int], list[Action]],
           handlers: dict[str, Callable[[State, int, Action, list[Event]], None]]) -> Phase:
    """A phase whose handlers append their events to a list they are given."""
    return Phase(legal, {kind: _collecting(handler) for kind, handler in handlers.items()})


PHASES = PhaseTable({
    "turn": _phase(options._turn_options, {
        "recruit": prep_turn._act_recruit, "burn": prep_turn._act_burn, "draw_prep": prep_turn._act_draw_prep,
        "heist": heist_turn._act_heist}),
    "crew": _phase(options._crew_phase_options, {"crew": heist_turn._act_crew, "back": heist_turn._act_back}),
    "burned": _phase(options._burned_options, {"hire": prep_turn._act_hire, "to_pool": prep_turn._act_to_pool}),
    "replace": _phase(options._replace_options, {
        "replace": prep_turn._act_replace, "back": prep_turn._act_back_from_replace}),
    "pay": _phase(options._pay_options, {"pay": prep_turn._act_pay}),
    "plan": _phase(options._plan_options, {
        "draw": prep_turn._act_draw, "action": prep_turn._act_action, "gear": prep_turn._act_gear,
        "trade": prep_turn._act_trade, "end_plan": prep_turn._act_end_plan}),
    "gear2": _phase(options._second_gear_options, {
        "gear": prep_turn._act_second_gear, "gear_done": prep_turn._act_gear_done}),
    "target": _phase(options._target_options, {"target": prep_turn._act_target}),
    "hire": _phase(options._hire_options, {"hire_pool": prep_turn._act_hire_pool, "hire_skip": prep_turn._act_hire_skip}),
    "window": _phase(options._window_options, {
        "pass": heist_turn._window_commit, "interrupt": heist_turn._window_commit}),
    "suffer": _phase(options._suffer_options, {"suffer": heist_turn._act_suffer}),
    "lose_gem": _phase(options._lose_gem_options, {"give_gem": heist_turn._act_give_gem}),
    "continue": _phase(options._continue_options, {"heist": heist_turn._act_heist, "hold": heist_turn._act_hold}),
    "retire": _phase(options._retire_options, {"retire": heist_turn._act_retire}),
    "discard": _phase(options._discard_options, {"discard": upkeep._act_discard}),
})
