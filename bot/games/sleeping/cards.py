"""Sleeping Wizard data: the 52 adventurers, the 20 floor cards and the noise
tracker's bonus table, loaded once from ``data/sleeping/``."""
from __future__ import annotations

import json
from bot.paths import DATA_DIR
from typing import Any

DATA = DATA_DIR / "sleeping"


def _load(name: str) -> Any:
    with open(DATA / name, encoding="utf-8") as handle:
        return json.load(handle)


_ADV = _load("adventurers.json")
CARDS: list[dict[str, Any]] = _ADV["adventurers"]
CLASSES: list[str] = _ADV["classes"]
DECK_SIZE = len(CARDS)
assert [c["id"] for c in CARDS] == list(range(DECK_SIZE))

_FLOORS = _load("floors.json")
FIXED_FLOORS: list[dict[str, Any]] = _FLOORS["fixed"]
RANDOM_FLOORS: list[dict[str, Any]] = _FLOORS["random"]
FLOORS: dict[str, dict[str, Any]] = {f["key"]: f for f in FIXED_FLOORS + RANDOM_FLOORS}
RANDOM_KEYS: list[str] = [f["key"] for f in RANDOM_FLOORS]

_TRACK = _load("tracker.json")
WAKE_AT: int = _TRACK["wake_at"]
BANDS: list[dict[str, int]] = _TRACK["bands"]

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


def short(cid: int) -> str:
    """'Tansy (2 Healer)'."""
    card = CARDS[cid]
    return f"{card['name']} ({label(card)} {card['class']})"


def card_view(cid: int) -> dict[str, Any]:
    card = CARDS[cid]
    return {"id": cid, "name": card["name"], "class": card["class"], "kind": card["kind"],
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
    return SLOTS[slot]
