"""HEIST: a semi-cooperative game of jobs, obstacles and a bag of modifier tokens.

A turn: the active player chooses the top obstacle of a job (and, for an "or"
obstacle, which skill to test); every other player secretly commits an assist
card or nothing, all revealed at once; two tokens come out of the bag; the
active player plays tricks; the test resolves; a failure may upgrade a skill
with a trick; the active player refills to 5 cards. Five rounds on the heat
track, then secrets are checked against the final bag and the cheese counted.

This module is the face of the game: ``HeistEngine`` keeps the engine contract and hands each
concern to its own module, and the phases are a table of handlers (``PHASES``):

  board.py       shared lookups: whose move, skills, the current test's numbers, jobs
  supply.py      the resource deck and the token bag; printed effects
  opening.py     a new game
  choosing.py    the start of a turn: choosing an obstacle
  assists.py     getting help: secret commits, the reveal, the tokens drawn
  tricks.py      the active player's tricks
  resolution.py  success or failure, the failure upgrade, the end of a turn, a round, the game
  scoring.py     secrets, final scores, the balance report
  views.py       what each seat may see
  texts.py       rules summary, status line, DM text, move labels, refusals

State layout (plain JSON):
  jobs          {"A": [obstacle ids, top first], ...}; finales: each job's last obstacle in play
  bag / supply  token counts by colour; heat: one space per round {colour, count, done}
  spent         tokens drawn earlier this round (back in the bag at the round's end)
  deck / discard / hands[seat] / upgrades[seat] / piles[seat]   resource card ids (piles also obstacles)
  identities / secrets / locations   per seat (a location is a job letter or None: the hideout)
  test          the obstacle being faced: job, obstacle, option, commits {"<seat>": action or None},
                revealed, assists [{seat, card}], tokens [{colour, face, ignored}], tricks, bonus,
                double, favour, clean_exit, leftover (played tricks after a failure), resolved
  last          the previous test, for the board; final: the score rows once the game is over
"""
from __future__ import annotations

import json
import random
from typing import Any, Callable, NamedTuple, cast

from bot.engine import RULES_OPTION, Action, Engine, Event, GameMeta, Option, RuleError, State

from . import board, scoring, texts, views
from .assists import assist_actions, commit, pass_is_public, pay_choices, reveal
from .board import ROUNDS
from .choosing import choose, choose_actions
from .opening import new_state
from .resolution import resolve, upgrade, upgrade_actions
from .texts import SUMMARY
from .tricks import aimed_at_a_twin, play_trick, trick_actions
from .viewtypes import HeistView, ScoreView

__all__ = ["HeistEngine", "PHASES", "Phase", "ROUNDS", "SUMMARY"]


class Phase(NamedTuple):
    """One phase of a turn: its legal actions for a seat, and how each kind of action applies."""
    legal: Callable[[State, int], list[Action]]
    apply: dict[str, Callable[[State, int, Action], list[Event]]]


PHASES: dict[str, Phase] = {
    "choose": Phase(choose_actions, {"choose": choose}),
    "assist": Phase(assist_actions, {"assist": commit, "pay": commit, "no_assist": commit}),
    "tricks": Phase(trick_actions, {"trick": play_trick, "resolve": lambda state, seat, action: resolve(state)}),
    "upgrade": Phase(upgrade_actions, {"upgrade": upgrade, "no_upgrade": upgrade}),
}


class HeistEngine(Engine):
    """The HEIST engine: the contract's hooks, each handed to the module of its concern."""

    meta = GameMeta(
        key="heist",
        name="HEIST",
        min_players=1,
        max_players=6,
        blurb="Semi-cooperative jobs: assist each other, draw tokens, keep your secret.",
        summary=SUMMARY,
        revision=2,  # 2: the rules option (tuned or rulebook), teaching, this session's rule changes
        options=(
            RULES_OPTION,
            Option("token_faces", "Drawn token faces", "random",
                   "random: a drawn token lands on either face; front: always its first (printed) face.",
                   choices=("random", "front")),
        ),
    )

    # Lookups and scoring, also used by tests and the search bot's sampler.
    skill = staticmethod(board.skill)
    skills = staticmethod(board.skills)
    option_of = staticmethod(board.current_option)
    total = staticmethod(board.total)
    mandatory = staticmethod(board.mandatory)
    obstacles_left = staticmethod(board.obstacles_left)
    secret_met = staticmethod(scoring.secret_met)
    _pass_is_public = staticmethod(pass_is_public)

    # ------------------------------------------------------------------ contract
    def setup(self, names: list[str], options: dict[str, Any], seed: int) -> State:
        """A new game: identities, secrets, jobs, bag, heat track and hands dealt."""
        self.meta.check_players(len(names))
        return new_state(names, self.meta.resolve_options(options), seed)

    def to_act(self, state: State) -> list[int]:
        """The helpers still to commit during the assist step, else the active player."""
        return board.to_act(state)

    def is_terminal(self, state: State) -> bool:
        """The game is over once the heat track is done or every job is empty."""
        return bool(state["phase"] == "over")

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        """The moves of the current phase for a seat that may act now."""
        if seat not in self.to_act(state):
            return []
        phase = PHASES.get(state["phase"])
        return phase.legal(state, seat) if phase else []

    def apply(self, state: State, seat: int, action: Action) -> list[Event]:
        """The contract's ``apply``; it also takes the shapes of moves logged before (an assist with its payment in
        one action, see below; a trick aimed at the second of two alike tokens, offered once now)."""
        if _one_step_assist(action):
            return self._apply_one_step_assist(state, seat, action)
        twin = aimed_at_a_twin(state, action)  # a logged trick aimed at the second of two alike tokens
        if (twin is not None and not self.is_terminal(state) and type(seat) is int and seat in self.to_act(state)
                and twin in self.legal_actions(state, seat)):
            return self._apply(state, seat, action)
        return super().apply(state, seat, action)

    def _apply_one_step_assist(self, state: State, seat: int, action: Action) -> list[Event]:
        """An assist with its payment in one action, as the logs of games played before they were two steps hold
        it: a replay applies it as the card, then the payment. Both are checked before anything changes."""
        pick = {"type": "assist", "card": action["card"]}
        if (not self.is_terminal(state) and seat in self.to_act(state) and pick in self.legal_actions(state, seat)
                and state["locations"][seat] != state["test"]["job"]
                and action["pay"] in pay_choices(state["hands"][seat], action["card"])):
            return super().apply(state, seat, pick) + super().apply(state, seat, {"type": "pay", "card": action["pay"]})
        return super().apply(state, seat, action)  # refused, with the contract's reason

    def _apply(self, state: State, seat: int, action: Action) -> list[Event]:
        action = self._exact_legal(state, seat, action)
        handler = PHASES[state["phase"]].apply[action["type"]]
        return handler(state, seat, action) + self._skip_forced(state)

    def _exact_legal(self, state: State, seat: int, action: Any) -> Action:
        """The legal action equal to ``action`` in value AND type, or RuleError. Everything a
        move needs is checked here, before anything in the state changes."""
        key = _canonical(action)
        legal_keys = {_canonical(legal): legal for legal in self.legal_actions(state, seat)}
        if key is not None and key in legal_keys:
            return legal_keys[key]
        twin = aimed_at_a_twin(state, action)  # a logged trick aimed at the second of two alike tokens
        if twin is not None and _canonical(twin) in legal_keys:
            return dict(action)
        raise RuleError(self.illegal_message(state, seat, action))

    def _skip_forced(self, state: State) -> list[Event]:
        """Play the prompts whose only answer is forced and whose being forced tells nobody
        anything new (the public board shows it); prompts that would reveal a hidden hand
        are still asked."""
        events: list[Event] = []
        while True:
            phase = state["phase"]
            if phase == "assist":
                stuck = [(seat, why) for seat in self.to_act(state) if (why := pass_is_public(state, seat))]
                if not stuck:
                    break
                for seat, why in stuck:
                    state["test"]["commits"][str(seat)] = None
                    events.append({"type": "commit", "text": f"{state['names'][seat]} {why}: no assist."})
                if self.to_act(state):
                    break
                events += reveal(state)
            elif phase == "tricks" and not state["hands"][state["active"]]:
                events.append({"type": "auto", "text": f"{state['names'][state['active']]} has no cards left "
                               "to play tricks with."})
                events += resolve(state)
            elif phase == "choose" and len(actions := self.legal_actions(state, state["active"])) == 1:
                events += choose(state, state["active"], actions[0])
            else:
                break
        return events

    def scores(self, state: State) -> list[ScoreView]:  # type: ignore[override]  # (typed rows, see ``view``)
        """Each seat's cheese, rank and whether it won (ties: most obstacles, then shared)."""
        return scoring.scores(state)

    def balance_tally(self, state: State, trace: list[dict[str, Any]]) -> dict[str, Any]:
        """How the game ended, seat order, cards and mechanics held and used, secrets met."""
        return scoring.balance_tally(state, trace)

    # ------------------------------------------------------------------ views and words
    # ``view`` and ``scores`` return TypedDicts where the contract says dict: a typed form of the same thing.
    def view(self, state: State, viewer: int | None) -> HeistView:  # type: ignore[override]
        """The public board (``viewer`` None), plus ``private`` for a seat."""
        return views.view(state, viewer)

    def status_line(self, state: State) -> str:
        """One public line: the round, whose turn, what is being decided."""
        return texts.status_line(state)

    def private_text(self, view: dict[str, Any]) -> str:
        """Markdown for a seat's DM: its secret, identity, skills and hand."""
        return texts.private_text(cast(HeistView, view))

    def describe_action(self, state: State, seat: int, action: Action) -> str:
        """A button label for a move (at most 80 characters)."""
        return texts.describe_action(state, seat, action)

    def action_group(self, state: State, seat: int, action: Action) -> str:
        """The panel's group for a move: Obstacles, Assist, Tricks, Resolve or Upgrade."""
        return texts.action_group(action)

    def illegal_message(self, state: State, seat: int, action: Action) -> str:
        """Why a move is refused, in a sentence the player can read."""
        return texts.illegal_message(state, seat, action)

    # ------------------------------------------------------------------ timeouts and the bot
    def timeout_action(self, state: State, seat: int, rng: random.Random) -> Action:
        """A helper who runs out of time commits nothing; an active player resolves (or the bot plays)."""
        phase = state["phase"]
        if phase == "assist":
            return {"type": "no_assist"}  # also after picking a card, before paying for it
        if phase == "tricks":
            return {"type": "resolve"}
        return self.bot_action(state, seat, rng)

    def bot_action(self, state: State, seat: int, rng: random.Random) -> Action:
        """The bot's move, decided from this seat's view and legal actions only."""
        from .bot_player import choose as bot_choose

        legal = self.legal_actions(state, seat)
        if len(legal) == 1:
            return legal[0]
        return bot_choose(self.view(state, seat), legal, rng)


def _one_step_assist(action: Any) -> bool:
    """Whether ``action`` is an assist with its payment in one, the shape of games logged before the two steps."""
    return (isinstance(action, dict) and action.get("type") == "assist" and set(action) == {"type", "card", "pay"}
            and isinstance(action["card"], str) and isinstance(action["pay"], str))


def _canonical(action: Any) -> str | None:
    """A type-exact key for an action (2.0 is not 2, True is not 1), or None if it isn't JSON."""
    try:
        return json.dumps(action, sort_keys=True, allow_nan=False)
    except (TypeError, ValueError):
        return None
