"""The Wizard's Tower: the shape of what ``view`` returns, shared by the engine and the renderer
(``rendering/tower.py``), so the type checker (``tests/test_typecheck.py``) catches a renamed field."""

from typing import Any, Literal, NotRequired, TypedDict


class CardView(TypedDict):
    """A face-up card (``_card_view``)."""
    id: int
    name: str
    suits: list[str]
    values: list[int]
    curses: int
    prestige: int
    power: str | None
    set: str | None
    deck: str


class CellView(TypedDict):
    """A tower space with a card: face up (``card``, ``was_face_down`` once the bottom card is shown),
    or the face-down bottom card's ``back``."""
    card: NotRequired[CardView]
    was_face_down: NotRequired[bool]
    back: NotRequired[str]


class TowerPawn(TypedDict):
    """A pawn still inside the tower: its floor and space."""
    seat: int
    where: Literal["tower"]
    floor: int
    slot: int


class OffTowerPawn(TypedDict):
    """A pawn on the balcony (not yet in) or the bridge (out)."""
    seat: int
    where: Literal["balcony", "bridge"]
    floor: None
    slot: None


PawnView = TowerPawn | OffTowerPawn


class VisibleTotals(TypedDict):
    """A haul's figures as everyone sees them (face-up cards only)."""
    suits: dict[str, int]
    numbers: dict[str, int]
    curses: int
    prestige: int


class HaulView(TypedDict):
    """A player's face-up haul (and whether a face-down card lies beside it)."""
    seat: int
    name: str
    cards: list[CardView]
    sand_under: int | None
    secret: CardView | Literal["back"] | None
    revealed: bool
    visible: VisibleTotals


class ScoringTileView(TypedDict):
    """A scoring tile: its prestige, whether it is in play and who holds it now."""
    key: str
    label: str
    prestige: int
    in_play: bool
    holder: int | None


class PendingView(TypedDict):
    """A card power that waits for a decision."""
    seat: int
    kind: str
    text: str
    give: NotRequired[int]
    floor: NotRequired[int]


class DraftView(TypedDict):
    """The secret-card draft as everyone sees it: who picks, in what order, how many cards are left."""
    seat: int
    order: list[int]
    hand_size: int


class FinalView(TypedDict):
    """The end of the game: the awards, each player's total, rank, tiles and figures."""
    awards: Any
    totals: list[int]
    ranks: list[int]
    tiles: list[list[str]]
    stats: list[dict[str, Any]]
    winners: list[int]
    bottom_card: CardView | None


class StandingAward(TypedDict):
    """A scoring tile as it would go if the game ended now: the leader (None: a tie, or not yet decided for an
    exit tile) and everyone's figure (None for an exit tile)."""
    tile: str
    label: str
    prestige: int
    seat: int | None
    values: list[int] | None


class StandingView(TypedDict):
    """If the game ended now: each scoring tile's leader and every player's prestige."""
    awards: list[StandingAward]
    totals: list[int]


class SeenView(TypedDict):
    """A face-down card this player has peeked at, and whose it is."""
    seat: int
    name: str
    card: CardView


class TowerPrivate(TypedDict):
    """What only this player sees: their face-down card, what they peeked at, the draft hands."""
    seat: int
    secret: CardView | None
    seen: list[SeenView]
    draft_offered: list[CardView]
    draft_hand: list[CardView] | None
    my_totals: NotRequired[dict[str, Any]]
    standing: NotRequired[StandingView]


class TowerView(TypedDict):
    """``view(state, viewer)``: the public table, plus ``private`` when a seat looks."""
    game: str
    names: list[str]
    n: int
    phase: str
    status: str
    turn: int
    to_act: list[int]
    options: dict[str, Any]
    tower: list[list[CellView | None]]
    pawns: list[PawnView]
    hauls: list[HaulView]
    exits: list[int]
    tiles: list[ScoringTileView]
    pending: PendingView | None
    draft: DraftView | None
    box: list[CardView]
    box_unseen_count: int
    extra_turn: Any
    recent: list[str]
    head_start: NotRequired[list[int]]
    standing: NotRequired[StandingView]
    final: NotRequired[FinalView]
    private: NotRequired[TowerPrivate]
