"""Masterminds: the shape of what ``view`` returns, shared by the engine (``views.py``, ``cards.py``)
and the renderer (``rendering/masterminds.py``). A renamed or missing field is an error for the type
checker (``tests/test_typecheck.py``), not a blank spot on a board. (No ``from __future__ import
annotations``: NotRequired must be seen at run time for the required keys to be right.)"""

from typing import Any, NotRequired, TypedDict, final


@final
class TalentCardView(TypedDict):
    """A Talent card's public face; ``stats`` are the values that count in play (All-Rounder: at least 2)."""
    id: str
    name: str
    stats: list[int]
    ability: str
    ability_text: str


class PrepCardView(TypedDict):
    """A Prep card's face; an action card with a gem bonus also shows its ``gem_text``."""
    id: str
    name: str
    kind: str
    text: str
    gem_text: NotRequired[str]


@final
class RecruitView(TypedDict):
    """A Talent on a team: its card's face, tapped or injured, its gear, and its skill values with that gear.
    (Its own type rather than a subclass, so a renderer can tell the two apart by their keys.)"""
    id: str
    name: str
    stats: list[int]
    ability: str
    ability_text: str
    tapped: bool
    injured: bool
    gear: PrepCardView | None
    values: list[int]


class DieView(TypedDict):
    """A die placed on a heist step: whose it is and the face it shows."""
    seat: int
    value: int


class StepView(TypedDict):
    """One step (A-D) of a heist: the skills that may attempt it, the number to beat, the die on it."""
    letter: str
    skills: list[str]
    number: int
    die: DieView | None


class HeistView(TypedDict):
    """A heist on the table: its name, the take in gems, the next open step (4: none) and the steps."""
    slot: int
    name: str
    take: int
    next: int
    steps: list[StepView]


class PlayerView(TypedDict):
    """A player as everyone sees them (the hand only as a count)."""
    seat: int
    name: str
    colour: str
    gems: dict[str, int]
    gem_count: int
    hand: int
    dice_free: int
    intel: int
    heists: list[str]
    team: list[RecruitView]


class AttemptView(TypedDict):
    """The heist step being attempted this turn: the crew, its total and parts, interrupts, the roll."""
    seat: int
    heist: int
    step: int
    skill: str
    number: int
    base: int
    mods: int
    two_dice: bool
    no_perfect: bool
    cover: bool
    played: list[str]
    roll: int | None
    result: str | None
    parts: list[str]
    recruits: list[str]
    recruit_ids: list[str]
    failure: str | None


class FailureTestView(TypedDict):
    """The Failure test a recruit must pass: skill, number to beat, the card, interrupts on it."""
    recruit: str
    recruit_id: str
    skill: str
    number: int
    card: str
    mods: int
    two_dice: bool


class WindowView(TypedDict):
    """An open interrupt window: for a roll (``step``) or a Failure ``test``, who is asked, who has decided."""
    kind: str
    seats: list[int]
    decided: list[int]


class PickingView(TypedDict):
    """The step picked in the first half of an attempt, while the crew is chosen."""
    heist: int
    name: str
    step: int
    letter: str
    skill: str
    number: int


class DecksView(TypedDict):
    """How many cards each deck and discard pile holds."""
    talent: int
    talent_discard: int
    prep: int
    prep_discard: int
    heist: int
    failure: int
    failure_discard: int


class FinalView(TypedDict):
    """The end: the rolled gem values, why the game ended, the scores."""
    values: dict[str, int]
    reason: str | None
    scores: list[dict[str, Any]]


class MastermindsPrivate(TypedDict):
    """A seat's own secrets: its hand, and the interrupt it committed in an open window."""
    seat: int
    hand: list[PrepCardView]
    committed: NotRequired[str]
    committed_id: NotRequired[str]


class MastermindsView(TypedDict):
    """``view(state, viewer)``: the public board, plus ``private`` when a seat looks."""
    game: str
    names: list[str]
    colours: list[str]
    status: str
    phase: str
    turn: int
    round: int
    round_limit: int
    completed: int
    target: int
    bag: int
    decks: DecksView
    prep_discard_top: str | None
    pool: list[TalentCardView]
    heists: list[HeistView | None]
    players: list[PlayerView]
    plan_left: int
    attempt: AttemptView | None
    test: FailureTestView | None
    window: WindowView | None
    burned: TalentCardView | None
    hiring: TalentCardView | None  # the Talent being hired while its player chooses who it replaces
    rules: str  # the rule set the table plays: "tuned" or "rulebook"
    picking: PickingView | None
    recent: list[str]
    last_roll: str | None
    first_rolls: list[list[list[int]]]
    first: int
    over: bool
    table: dict[str, Any]
    final: NotRequired[FinalView]
    private: NotRequired[MastermindsPrivate]
