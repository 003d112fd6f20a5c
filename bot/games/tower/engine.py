"""10 Minute Heist: The Wizard's Tower -- the rules engine.

This module is the face of the game: ``TowerEngine`` keeps the engine contract and hands each concern to
its own module, and the moments of play are a table of handlers (``PHASES``):

  board.py     the tower's shape and shared lookups: the face-down bottom card, card labels, whose move it is
  opening.py   a new game: the floors dealt, secret cards dealt or set aside for the Master Thief draft
  claiming.py  which cards may be claimed, taking one, and the power it triggers
  powers.py    the pending power choices (and the two-player discard): their options and resolution (``STEPS``)
  turns.py     the draft, a claim or the exit, the queue of choices, the next thief
  scoring.py   the end of the game, final scores and ranks
  views.py     what each seat may see (shapes declared in viewtypes.py)
  texts.py     rules summary, status line, move labels and groups, refusals, the DM text
  teach.py     how to play, the glossary, a help line per kind of move, the tutorial (bot/teach.py's contract)

State (plain JSON):
  tower[floor][slot]  card id or None (floor 0 = top, floor 7 = bottom; tower[7][4] is face-down while it is there)
  pawns[seat]   [floor, slot]; floor -1 = balcony, floor 8 = bridge
  hauls[seat]   face-up cards; secret[seat] the face-down card (None once revealed by the Codex)
  queue         pending steps of the current turn (card powers, the 2-player discard); queue[0] is decided now
  box / box_unseen  cards returned to the box face-up / unseen; out_of_play: the special set not used
  draft         the Master Thief draft (hand passed from seat n-1 down to seat 0)
"""
from __future__ import annotations

import random
from typing import Any, Callable, NamedTuple

from bot.engine import RULES_OPTION, Action, Engine, Event, GameMeta, Option, State

from . import board, scoring, texts, turns, views
from .board import BALCONY, BRIDGE, FLOORS, HIDDEN, SLOTS
from .opening import new_state
from .powers import FORCED_STEPS
from .texts import SUMMARY
from .viewtypes import TowerView

__all__ = ["BALCONY", "BRIDGE", "ENGINE", "FLOORS", "FORCED_STEPS", "HIDDEN", "PHASES", "Phase", "SLOTS", "SUMMARY",
           "TowerEngine"]


class Phase(NamedTuple):
    """One moment of play: its legal actions for a seat, and how each kind of action applies."""
    legal: Callable[[State, int], list[Action]]
    apply: dict[str, Callable[[State, int, Action], list[Event]]]


# The answers a pending power step may be given (see powers.STEPS for which step offers which).
PENDING_ANSWERS = ("discard_tower", "give", "sand", "discard_haul", "take", "peek", "skip", "swap", "swap_take")

PHASES: dict[str, Phase] = {
    "draft": Phase(turns.draft_actions, {"draft": turns.draft}),
    "pending": Phase(turns.pending_actions, dict.fromkeys(PENDING_ANSWERS, turns.answer_pending)),
    "turn": Phase(turns.turn_actions, {"claim": turns.claim_turn, "exit": turns.exit_turn}),
}


def moment(state: State) -> str:
    """Which entry of ``PHASES`` applies now: the draft, a pending power choice, a thief's turn (or "over")."""
    if state["phase"] in ("draft", "over"):
        return str(state["phase"])
    return "pending" if state["queue"] else "turn"


class TowerEngine(Engine):
    """10 Minute Heist: The Wizard's Tower: claim cards floor by floor, never climbing back, then the best haul wins."""
    meta = GameMeta(
        key="tower",
        name="The Wizard's Tower (10 Minute Heist)",
        min_players=2,
        max_players=5,
        blurb="Loot a wizard's tower floor by floor; you can never climb back up.",
        summary=SUMMARY,
        revision=2,  # 2: the rules option (tuned or rulebook), teaching, this session's rule changes
        options=(
            RULES_OPTION,
            Option("special_set", "Special cards", "A", "Which 8 special Dark cards are used: set A (basic) or set B.",
                   choices=("A", "B")),
            Option("master_thief", "Master Thief variant", False,
                   "Draft the secret cards after the tower is built instead of dealing them."),
        ),
    )

    # ------------------------------------------------------------------ contract
    def setup(self, names: list[str], options: dict[str, Any], seed: int) -> State:
        """A new game: eight floors dealt (light on top, dark below), pawns on the balcony, secrets or the draft."""
        self.meta.check_players(len(names))
        return new_state(names, self.meta.resolve_options(options), seed)

    def to_act(self, state: State) -> list[int]:
        """One seat at a time: the drafter, else whoever owes a card power's choice, else the thief whose turn it is."""
        return board.to_act(state)

    def is_terminal(self, state: State) -> bool:
        """Over once every pawn has left by the bridge."""
        return bool(state["phase"] == "over")

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        """The draft pick, a pending power's choices, or a turn's claims and the exit."""
        if seat not in self.to_act(state):
            return []
        return PHASES[moment(state)].legal(state, seat)

    def _apply(self, state: State, seat: int, action: Action) -> list[Event]:
        """Hand a legal action to its moment's handler, then keep the last public lines for the board."""
        events = PHASES[moment(state)].apply[action["type"]](state, seat, action)
        public = [e["text"] for e in events if "to" not in e]
        state["recent"] = (state["recent"] + public)[-6:]
        return events

    # ------------------------------------------------------------------ views and words
    # ``view`` returns a TypedDict where the contract says dict: a typed form of the same thing.
    def view(self, state: State, viewer: int | None) -> TowerView:  # type: ignore[override]
        """The public table (``viewer`` None), plus ``private`` for a seat."""
        return views.view(state, viewer)

    def status_line(self, state: State) -> str:
        """Whose turn it is and what they must decide (or who won with how much prestige)."""
        return texts.status_line(state)

    def scores(self, state: State) -> list[dict[str, Any]]:
        """Each player's total prestige (cards and scoring tiles), ranked, with the tiles in the detail."""
        return scoring.scores(state)

    def describe_action(self, state: State, seat: int, action: Action) -> str:
        """An action in words for the move list and the log ("Claim Ruby Slippers (floor 3)")."""
        return texts.describe_action(state, seat, action)

    def action_group(self, state: State, seat: int, action: Action) -> str:
        """The heading an action is listed under in the move panel (its floor, or the power it belongs to)."""
        return texts.action_group(action)

    def private_text(self, view: dict[str, Any]) -> str:
        """A player's private view in words: their face-down card, the draft, what they peeked at, their totals."""
        return texts.private_text(view)

    def illegal_message(self, state: State, seat: int, action: Action) -> str:
        """Why an action is refused (floor above the pawn, power that can't be completed, pending choice first, ...)."""
        return texts.illegal_message(state, seat, action)

    # ------------------------------------------------------------------ bot / seats
    def bot_action(self, state: State, seat: int, rng: random.Random) -> Action:
        """The bot's move for ``seat``, from that seat's view only."""
        from .bot_player import choose
        return choose(self, state, seat, rng)




ENGINE = TowerEngine()
