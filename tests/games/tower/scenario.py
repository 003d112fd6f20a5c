"""Readable Wizard's Tower set-ups for rules tests: say what the table looks like, not which
state keys to poke. Floors and slots are counted as the engine and its moves count them
(floor 0 is the top, 7 the bottom; ``claim(f, s)`` uses the same numbers).

    st = (TowerTable(3).tower({(3, 0): "Amulet of Nae"})
          .holds(1, "Ruby Slippers").secret(1, "Dragon Skull").on_bridge(1).state)
"""
from __future__ import annotations

from typing import Any

from bot.games.tower import ENGINE, cards

NAMES = ["Ann", "Ben", "Cat", "Dan", "Eve"]
BRIDGE = [8, -1]


class TowerTable:
    """One game's state with set-up verbs; every verb returns the table, so they chain."""

    def __init__(self, players: int = 3, options: dict[str, Any] | None = None, seed: int = 1) -> None:
        self.state = ENGINE.setup(NAMES[:players], ENGINE.meta.resolve_options(options or {}), seed)

    def tower(self, layout: dict[tuple[int, int], str]) -> TowerTable:
        """The tower holds exactly ``{(floor, slot): card name}``; every other space is empty."""
        self.state["tower"] = [[None] * 5 for _ in range(8)]
        for (f, s), name in layout.items():
            self.state["tower"][f][s] = cards.BY_NAME[name]
        return self

    def holds(self, seat: int, *names: str) -> TowerTable:
        """Player ``seat``'s face-up haul is exactly these cards."""
        self.state["hauls"][seat] = [cards.BY_NAME[name] for name in names]
        return self

    def secret(self, seat: int, name: str | None) -> TowerTable:
        """Player ``seat``'s face-down card (None: they have none)."""
        self.state["secret"][seat] = cards.BY_NAME[name] if name else None
        return self

    def pawn(self, seat: int, floor: int, slot: int) -> TowerTable:
        self.state["pawns"][seat] = [floor, slot]
        return self

    def on_bridge(self, seat: int) -> TowerTable:
        """Player ``seat`` has left the tower (next in the exit order)."""
        self.state["pawns"][seat] = list(BRIDGE)
        self.state["exits"].append(seat)
        return self

    def sand_under(self, name: str) -> TowerTable:
        """The Sand of Illusion lies under this card of its owner's haul."""
        self.state["sand_target"] = cards.BY_NAME[name]
        return self

    def turn(self, seat: int) -> TowerTable:
        self.state["turn"] = seat
        return self
