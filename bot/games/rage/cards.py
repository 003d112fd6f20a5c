"""Wizard's Rage data: wizard cards, loot cards and room tiles (loaded once)."""
from __future__ import annotations

import json

from bot.paths import DATA_DIR

DATA = DATA_DIR / "rage"


def _load(name: str) -> dict:
    with open(DATA / f"{name}.json", encoding="utf-8") as fh:
        return json.load(fh)


_W = _load("wizard_cards")
_L = _load("loot_cards")
_T = _load("tiles")

WIZARD_DEFS: dict[str, dict] = {c["key"]: c for c in _W["cards"]}
LOOT_DEFS: dict[str, dict] = {c["key"]: c for c in _L["cards"]}
SLOTS: dict[str, int] = dict(_L["slots"])
TILE_DEFS: dict[str, dict] = {t["key"]: t for t in _T["tiles"]}
for _special in ("tower", "camp", "key_tile"):
    TILE_DEFS[_T[_special]["key"]] = _T[_special]
TOWER_KEY = _T["tower"]["key"]
CAMP_KEY = _T["camp"]["key"]
VAULT_KEY = _T["key_tile"]["key"]
MANA_START: int = _T["mana_start"]
MANA_MAX: int = _T["mana_max"]
HAND_LIMIT: int = _T["hand_limit"]


def expand(defs: list[dict]) -> list[str]:
    """One entry (the card key) per physical card, in data order."""
    out: list[str] = []
    for d in defs:
        out.extend([d["key"]] * d["count"])
    return out


WIZARD_DECK: list[str] = expand(_W["cards"])
LOOT_DECK: list[str] = expand(_L["cards"])
TILE_BAG: list[str] = expand(_T["tiles"])
