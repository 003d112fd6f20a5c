"""Wizard's Rage: the shape of what ``view`` returns, shared by the engine (``views.py``) and the
renderer (``rendering/rage.py``). A renamed or missing field is an error for the type checker
(``tests/test_typecheck.py``), not a blank spot on a board. (No ``from __future__ import annotations``:
NotRequired must be seen at run time for the required keys to be right.)"""

from typing import Any, Literal, NotRequired, TypedDict


class MonsterView(TypedDict):
    """One face-up monster (a gang token shows one entry per monster)."""
    name: str
    level: int
    damage: int


class DropView(TypedDict):
    """What a fallen hero left on a tile: card names and a number of keys."""
    cards: list[str]
    keys: int


class TileView(TypedDict):
    """One square of the grid as everyone sees it; a face-up room also shows its name and values."""
    i: int
    label: str
    removed: bool
    up: bool
    tower: bool
    camp: bool
    hidden_tokens: int
    monsters: list[MonsterView]
    searched: bool
    conquered: bool
    drop: DropView
    name: NotRequired[str]
    draw: NotRequired[int]
    mana: NotRequired[int]
    key_tile: NotRequired[bool]
    key: NotRequired[bool]
    sense: NotRequired[int | None]


class LootCardView(TypedDict):
    """A loot card; equipment also shows its slot and bonuses."""
    id: int
    name: str
    kind: str
    text: str
    slot: NotRequired[str]
    attack: NotRequired[int]
    save: NotRequired[int]


class WizardCardView(TypedDict):
    """A wizard card as its holder sees it."""
    id: int
    name: str
    kind: str
    cost: int
    text: str
    level: int | None


class HeroView(TypedDict):
    """A hero as everyone sees them (not their hand)."""
    seat: int
    name: str
    hp: int
    alive: bool
    pos: int
    pos_label: str
    keys: int
    frozen: bool
    hand_count: int
    equip: list[LootCardView]
    attack: int
    save: int
    committed: bool
    strength: int
    ward: bool
    thawed: bool  # frozen last round and moved: Frost Bolt cannot freeze them again at once


class WizardPublic(TypedDict):
    """What everyone sees of the wizard: the Mana Wheel and the sizes of their hand, deck and discard pile."""
    seat: int
    name: str
    mana: int
    mana_max: int
    mana_left: int | None
    hand_count: int
    deck_count: int
    discard_count: int


class LootPublic(TypedDict):
    """The loot deck's and discard pile's sizes."""
    deck_count: int
    discard_count: int


class PendingPublic(TypedDict):
    """The wizard's open decision as the heroes see it."""
    kind: str
    left: NotRequired[int]
    effect: NotRequired[str]


class TokenPrivate(TypedDict):
    """A face-down token as the wizard knows it."""
    kind: str
    name: NotRequired[str]
    level: NotRequired[int]
    count: NotRequired[int]


class WizardPrivate(TypedDict):
    """What only the wizard sees: their hand, opening choice, where the face-down tokens really are, the keys."""
    role: Literal["wizard"]
    hand: list[WizardCardView]
    opening: list[WizardCardView]
    tokens: dict[str, list[TokenPrivate]]
    keys: list[int]
    mana_left: int
    pending: dict[str, Any] | None
    playing: WizardCardView | None
    habit: list[float]  # monster cards whose real token went on a key vault, of as many as could have


class HeroPrivate(TypedDict):
    """What only a hero sees: their hit points, keys, cards, committed move and free actions left this turn."""
    role: Literal["hero"]
    seat: int
    hp: int
    keys: int
    hand: list[LootCardView]
    equip: list[LootCardView]
    commit: dict[str, Any] | None
    commit_text: str | None
    free_left: int
    route_to: int | None  # the tile chosen at the move's first step, the way to it not yet (None: not moving yet)


class RageView(TypedDict):
    """``view(state, viewer)``: the public board, plus ``private`` when a seat looks."""
    game: str
    names: list[str]
    n: int
    size: int
    phase: str
    round: int
    round_limit: int
    options: dict[str, Any]
    tower: int | None
    entrance: str | None
    entrance_tile: int | None
    tower_open: bool
    keys_found: bool
    keys_taken: int
    keys_hidden: int
    tiles: list[TileView]
    heroes: list[HeroView]
    token_cap: int
    scout_range: int
    wizard: WizardPublic
    loot: LootPublic
    pending: PendingPublic | None
    winner: str | None
    end_reason: str
    recent: list[str]
    status: str
    private: NotRequired[WizardPrivate | HeroPrivate]
