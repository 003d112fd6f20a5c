"""Sleeping Wizard: the shape of what ``view`` returns, shared by the engine (``views.py``), its bot
(``bot_player.py``) and the renderer (``rendering/sleeping.py``). A renamed or missing field is an
error for the type checker (``tests/test_typecheck.py``), not a blank spot on a board. (No
``from __future__ import annotations``: NotRequired must be seen at run time for the required keys
to be right.) Keys that are Python words (``class``, ``from``) need the call form of TypedDict."""

from typing import NotRequired, TypedDict, final

# What every card face shows: "label" is the number printed on it ('?', '1*', '2'..'14'), "value" the
# number it scores by (None for a Shapeshifter).
CardFace = TypedDict("CardFace", {"label": str, "class": str, "kind": str, "value": int | None})


class CardView(CardFace):
    """An adventurer face up, with its name and id."""

    id: int
    name: str


class TeamCardView(CardView):
    """A hired adventurer: its noise this round, for a Shapeshifter the name of the card it copies, and why it
    scores other than its number ("two 5s cancel"), where it does."""

    score: int
    copies: NotRequired[str]
    why: NotRequired[str]


@final
class SummaryCardView(CardFace):
    """A card of a scored team in the round summary: anonymous (no name, no id), since it is back in the
    deck; ``copies`` is the label and class of what a Shapeshifter copied ('3 Mage'), ``why`` why the card
    scored other than its number ("two 5s cancel")."""

    score: int
    copies: NotRequired[str]
    why: NotRequired[str]

# One space band of the noise tracker and the bonus treasure it pays at the end.
BandView = TypedDict("BandView", {"from": int, "to": int, "treasure": int})


class FloorView(TypedDict):
    """The floor this round plays on, and its rule in words."""

    key: str
    name: str
    text: str
    category: str


class TowerLevelView(TypedDict):
    """One level of the tower, Ground Floor first: a face-down floor shows no key, name or rule."""

    level: int
    revealed: bool
    current: bool
    key: NotRequired[str]
    name: NotRequired[str]
    text: NotRequired[str]
    category: NotRequired[str]


class TeamView(TypedDict):
    """A seat's team hired this round, its noise so far and the floor treasure it would collect."""

    seat: int
    cards: list[TeamCardView]
    noise: int
    bonus: int


class PendingView(TypedDict):
    """A deck or market hire waiting for its hirer to push a hand card to the market."""

    seat: int
    card: CardView


class SummaryTeamView(TypedDict):
    """A team as the last round scored it: noise, treasure for being quietest (base) and from the floor."""

    seat: int
    cards: list[SummaryCardView]
    noise: int
    base: int
    bonus: int
    treasure: int
    total_noise: int


class LastRoundView(TypedDict):
    """The last scored round: its floor, the quietest noise and its reward, and every team."""

    round: int
    floor: str
    floor_name: str
    low: int
    reward: int
    teams: list[SummaryTeamView]


class HistoryView(TypedDict):
    """One past round: its floor, each seat's noise and the treasure each seat gained."""

    round: int
    floor: str
    noise: list[int]
    gained: list[int]


class FinalView(TypedDict):
    """A seat's final score: treasure plus tracker bonus; a guild at 48+ noise is not eligible to win."""

    seat: int
    treasure: int
    bonus: int
    total: int
    noise: int
    eligible: bool
    rank: int
    won: bool


class HandCardView(TypedDict):
    """A card of the viewer's own hand: named only if the viewer peeked at it."""

    slot: int
    letter: str
    known: bool
    card: NotRequired[CardView]


class SeenCardView(TypedDict):
    """A card of another seat's hand, which the viewer sees in full."""

    slot: int
    letter: str
    card: CardView


class OtherHandView(TypedDict):
    """Another seat's hand as the viewer sees it."""

    seat: int
    name: str
    cards: list[SeenCardView]


class CopyOptionView(TypedDict):
    """One way to set the viewer's Shapeshifters (Shapeshifter name -> copied card name or None) and its outcome."""

    noise: int
    bonus: int
    copies: dict[str, str | None]


class SleepingPrivate(TypedDict):
    """What only the viewing seat sees; the Shapeshifter parts only while it has a choice to make."""

    seat: int
    name: str
    hand: list[HandCardView]
    others: list[OtherHandView]
    copy_options: NotRequired[list[CopyOptionView]]
    copy_choice: NotRequired[dict[str, str] | None]


class SleepingView(TypedDict):
    """``view(state, viewer)``: the public board, plus ``private`` when a seat looks."""

    game: str
    names: list[str]
    round: int
    rounds: int
    phase: str
    tower: list[TowerLevelView]
    floor: FloorView
    peek_count: int
    market: list[CardView]
    deck_count: int
    hand_counts: list[int]
    teams: list[TeamView]
    noise: list[int]
    treasure: list[int]
    order: list[int]
    current: int | None
    turn: int
    copy_wait: list[int]
    pending: PendingView | None
    last_round: LastRoundView | None
    history: list[HistoryView]
    wake_at: int
    bands: list[BandView]
    final: list[FinalView] | None
    recent: list[str]
    status: str
    private: NotRequired[SleepingPrivate]
