"""What a game teaches a newcomer: how to play, a glossary, a line of help per kind of move on offer, a tutorial.

Pure data, no discord and no Pillow. Each game provides it in its own package, in ``bot/games/<key>/teach.py``:

  HOW_TO_PLAY                         a ``HowToPlay``: the goal, how you win and score, a turn, reading the board
  GLOSSARY                            ``{term: one plain sentence}`` for every word of the game's own jargon
  action_help(state, seat, legal)     ``{action type: one plain line}`` for every kind of option in ``legal``
                                      (what it does, what it costs, what it can win), with a preview where a
                                      number decides ("your total 4 + a die vs 7: you need a 4 or better")
  REFERENCE_SECTIONS                  ``{rules doc heading: why no tutorial step teaches it}`` (card lists...)
  PROPER_NAMES                        names (cards, places) whose every appearance carries its description
  tutorial()                          a ``Tutorial``: a scripted position and the steps that teach it

The engine hands these out (``Engine.how_to_play``, ``glossary``, ``action_help``, ``tutorial``); the cogs
show them and ``rendering/<key>.py`` may draw the how-to-play picture (``render_howto(view)``, a board with
labels) from ``HowToPlay.example``. Words a player reads about a game come from here, never from the cogs.
"""
from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

State = dict[str, Any]
Action = dict[str, Any]


@dataclass(frozen=True)
class HowToPlay:
    """A few lines that get a newcomer playing: shown privately from the lobby and the first board."""

    goal: str  # what you are trying to do, in a sentence or two
    winning: str  # how you win and how you score (when the game ends, what counts)
    turn: str  # what a turn looks like: the choices you will be offered
    board: str  # how to read the board: what each labelled part of the picture means
    # A seeded position to draw the labelled picture from: ``example()`` returns ``(state, viewer)`` and the
    # platform draws ``render_howto(engine.view(state, viewer))`` (None: no picture).
    example: Callable[[], tuple[State, int | None]] | None = None

    def text(self) -> str:
        """The four parts as Markdown, for a private message."""
        return (f"**Goal.** {self.goal}\n\n**Winning.** {self.winning}\n\n**Your turn.** {self.turn}\n\n"
                f"**Reading the board.** {self.board}")


@dataclass(frozen=True)
class TutorialStep:
    """One step of a tutorial: explain one rule, ask for one move, explain a wrong one.

    ``expect``: the moves that count as right (each exactly one of the learner's legal actions at this step);
    ``()``: any legal move is right (a "try it" step); ``None``: no move is asked, the learner reads and
    presses Next.
    """

    section: str  # the heading (a "## " line, without the hashes) of docs/rules/<key>.md this step teaches
    say: str  # what the step explains, shown before the move is asked for
    expect: tuple[Action, ...] | None = ()
    hint: str = ""  # what to do, shown beside the move panel ("Claim the Tome on floor 3")
    wrong: str = "Not quite: that isn't the move this step is about. Try again."  # a wrong move, in general
    wrong_by_type: tuple[tuple[str, str], ...] = ()  # (action type, why that kind of move is wrong here)
    after: str = ""  # what the right move just did, shown once it is made
    # Moves of the other seats after the learner's, in order, each (seat, action); with none, the other seats
    # play their normal bot's move (``Engine.bot_action`` with a random.Random seeded from the step's number)
    # until it is the learner's turn again or the game is over.
    then: tuple[tuple[int, Action], ...] = ()
    # Jump to another scripted position before this step ("Let's skip ahead to the last round"); None: carry on.
    position: Callable[[], State] | None = None

    def wrong_text(self, action: Action) -> str:
        """Why ``action`` is not this step's move."""
        return dict(self.wrong_by_type).get(str(action.get("type")), self.wrong)


@dataclass(frozen=True)
class Tutorial:
    """A private lesson against bots, from a scripted position (``start()``), one rule per step."""

    seat: int  # the learner's seat in the scripted games
    start: Callable[[], State]  # the opening position (a full state of the engine, e.g. built by its setup)
    steps: tuple[TutorialStep, ...]
    intro: str = ""  # shown before the first step
    outro: str = "You're ready: open a real table with `/game new`."
    minutes: float = field(default=0.0)  # the expected length, filled in by ``estimate_minutes`` when 0

    def estimated_minutes(self) -> float:
        """Reading at 200 words a minute plus 15 seconds a move asked: the target is 10 minutes at most."""
        if self.minutes:
            return self.minutes
        words = len(self.intro.split()) + len(self.outro.split())
        moves = 0
        for step in self.steps:
            words += len(step.say.split()) + len(step.hint.split()) + len(step.after.split())
            moves += step.expect is not None
        return words / 200 + moves * 0.25


@dataclass
class StepResult:
    """What one answer to a tutorial step did: right (the move was made, the others moved, the next step began)
    or wrong (nothing changed), and the words to show for it."""

    right: bool
    text: str  # the step's ``after`` (right) or why the move is wrong; may be empty
    events: list[dict[str, Any]] = field(default_factory=list)  # public and the learner's own events, in order


class TutorialRun:
    """A learner's way through a game's tutorial: which step, which position. Pure and synchronous: the cogs
    show it and keep it (``to_json``/``from_json``), the tests drive it. The other seats play the step's
    scripted moves, else their normal bot (seeded by the step's number, so every run is the same)."""

    def __init__(self, engine: Any, tutorial: Tutorial, index: int = 0, state: State | None = None) -> None:
        self.engine = engine
        self.tutorial = tutorial
        self.index = index
        self.state: State = state if state is not None else tutorial.start()
        if state is None:
            self._enter()

    @classmethod
    def begin(cls, engine: Any) -> TutorialRun:
        """A new run of ``engine``'s tutorial from its first step (ValueError if the game has none)."""
        tutorial = engine.tutorial()
        if tutorial is None:
            raise ValueError(f"{engine.meta.name} has no tutorial")
        return cls(engine, tutorial)

    def to_json(self) -> dict[str, Any]:
        """What to store to carry on later: the step's number and the position."""
        return {"game": self.engine.meta.key, "index": self.index, "state": self.state}

    @classmethod
    def from_json(cls, engine: Any, data: dict[str, Any]) -> TutorialRun:
        """A run carried on from ``to_json``."""
        tutorial = engine.tutorial()
        if tutorial is None:
            raise ValueError(f"{engine.meta.name} has no tutorial")
        return cls(engine, tutorial, int(data["index"]), data["state"])

    @property
    def finished(self) -> bool:
        """Whether every step is done (then show ``tutorial.outro``)."""
        return self.index >= len(self.tutorial.steps)

    @property
    def step(self) -> TutorialStep | None:
        """The step being taught now (None once finished)."""
        return None if self.finished else self.tutorial.steps[self.index]

    def legal(self) -> list[Action]:
        """The learner's legal moves now ([] for a reading step or once finished)."""
        step = self.step
        if step is None or step.expect is None or self.tutorial.seat not in self.engine.to_act(self.state):
            return []
        return self.engine.legal_actions(self.state, self.tutorial.seat)

    def view(self) -> dict[str, Any]:
        """The learner's own view of the position."""
        return self.engine.view(self.state, self.tutorial.seat)

    def next(self) -> StepResult:
        """Past a reading step (``expect is None``)."""
        step = self.step
        if step is None or step.expect is not None:
            raise ValueError("this step asks for a move, not Next")
        self.index += 1
        self._enter()
        return StepResult(True, step.after)

    def answer(self, action: Action) -> StepResult:
        """The learner's move: if it is one this step wants, it is made, the other seats move and the next step
        begins; otherwise nothing changes and the step says why."""
        step = self.step
        if step is None or step.expect is None:
            raise ValueError("no move is asked now")
        legal = self.legal()
        if action not in legal:
            return StepResult(False, "That move isn't possible right now. " + step.wrong)
        if step.expect and action not in step.expect:
            return StepResult(False, step.wrong_text(action))
        events = self._mine(self.engine.apply(self.state, self.tutorial.seat, action))
        events += self._others(step)
        self.index += 1
        self._enter()
        return StepResult(True, step.after, events)

    def _enter(self) -> None:
        step = self.step
        if step is not None and step.position is not None:
            self.state = step.position()

    def _mine(self, events: list[dict[str, Any]]) -> list[dict[str, Any]]:
        return [e for e in events if e.get("to", self.tutorial.seat) == self.tutorial.seat]

    def _others(self, step: TutorialStep) -> list[dict[str, Any]]:
        events: list[dict[str, Any]] = []
        for seat, action in step.then:
            events += self._mine(self.engine.apply(self.state, seat, action))
        if step.then:
            return events
        rng = random.Random(self.index)
        for _ in range(500):  # a bound: a tutorial's bots never play a whole game between two steps
            if self.engine.is_terminal(self.state):
                break
            acting = [s for s in self.engine.to_act(self.state) if s != self.tutorial.seat]
            if not acting:  # the learner's turn (alone, or the last to answer a simultaneous choice)
                break
            seat = acting[0]
            events += self._mine(self.engine.apply(self.state, seat, self.engine.bot_action(self.state, seat, rng)))
        return events
