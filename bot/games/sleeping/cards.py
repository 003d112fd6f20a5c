"""Sleeping Wizard data: the 52 adventurers, the 20 floor cards and the noise
tracker's bonus table, loaded once from ``data/sleeping/``."""
from __future__ import annotations

import json
from typing import Any

from bot.games.sleeping.viewtypes import BandView, CardView
from bot.paths import DATA_DIR

DATA = DATA_DIR / "sleeping"


def _load(name: str) -> Any:
    with open(DATA / name, encoding="utf-8") as handle:
        return json.load(handle)


_ADVENTURERS = _load("adventurers.json")
CARDS: list[dict[str, Any]] = _ADVENTURERS["adventurers"]
CLASSES: list[str] = _ADVENTURERS["classes"]
DECK_SIZE = len(CARDS)
assert [card["id"] for card in CARDS] == list(range(DECK_SIZE))

_FLOORS = _load("floors.json")
FIXED_FLOORS: list[dict[str, Any]] = _FLOORS["fixed"]
RANDOM_FLOORS: list[dict[str, Any]] = _FLOORS["random"]
FLOORS: dict[str, dict[str, Any]] = {f["key"]: f for f in FIXED_FLOORS + RANDOM_FLOORS}
RANDOM_KEYS: list[str] = [f["key"] for f in RANDOM_FLOORS]

_TRACKER = _load("tracker.json")
WAKE_AT: int = _TRACKER["wake_at"]
BANDS: list[BandView] = _TRACKER["bands"]

HAND_SIZE = 4
TEAM_SIZE = 4
ROUNDS = 5
SLOTS = "ABCD"


def label(card: dict[str, Any]) -> str:
    """The number printed at the top of the card: '?', '1*', '2'..'14'."""
    if card["kind"] == "shapeshifter":
        return "?"
    if card["kind"] == "rogue":
        return "1*"
    return str(card["value"])


def short(card_id: int) -> str:
    """A card in words: 'Tansy (2 Healer)'."""
    card = CARDS[card_id]
    return f"{card['name']} ({label(card)} {card['class']})"


def card_view(card_id: int) -> CardView:
    """An adventurer face up, as views show it."""
    card = CARDS[card_id]
    return {"id": card_id, "name": card["name"], "class": card["class"], "kind": card["kind"],
            "value": card["value"], "label": label(card)}


def tracker_bonus(space: int) -> int:
    """Bonus treasure at game end for a guild token on ``space`` (0 at or past the wake space)."""
    if space >= WAKE_AT:
        return 0
    for band in BANDS:
        if band["from"] <= space <= band["to"]:
            return band["treasure"]
    return 0


def slot_name(slot: int) -> str:
    """A hand slot as players see it: 0-3 are the cards A-D."""
    return SLOTS[slot]
