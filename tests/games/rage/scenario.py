"""Readable Wizard's Rage set-ups for rules tests: say what the table looks like, not which
state keys to poke.

    table = RageTable.ready().heroes_turn()
    table.hero(1, at="A2", hp=2, keys=1, holds=["short_sword", "potion"])
    table.token("A2", "trap")
    st = table.state
"""
from __future__ import annotations

from typing import Any, Iterable

from bot.games.rage import ENGINE, loot
from bot.games.rage import heroes as hero_turn


def tile_index(state: dict, label: str) -> int:
    """``"B2"`` -> the tile's index (column letter, row number from 1)."""
    return (int(label[1:]) - 1) * state["size"] + ord(label[0]) - 65


def commit(state: dict, seat: int, action: dict) -> list[dict]:
    """A hero's move (a step, a march, a Sprint) through the panel's steps: where to (``go``) first when there is
    more than one way to that tile, then the way."""
    events: list[dict] = []
    if action not in ENGINE.legal_actions(state, seat) and action["type"] in ("move", "march", "sprint"):
        events += ENGINE.apply(state, seat, {"type": "go", "to": hero_turn.route_end(action)})
    return events + ENGINE.apply(state, seat, action)


class RageTable:
    """One game's state with set-up verbs; every verb returns the table, so they chain."""

    def __init__(self, players: int = 3, seed: int = 1, options: dict[str, Any] | None = None) -> None:
        self.state = ENGINE.setup([f"P{i}" for i in range(players)], ENGINE.meta.resolve_options(options or {}), seed)

    @classmethod
    def of(cls, state: dict) -> RageTable:
        """A table around a state a test already has."""
        table = cls.__new__(cls)
        table.state = state
        return table

    @classmethod
    def ready(cls, players: int = 3, seed: int = 1, keys: Iterable[int] | None = None, entrance: str = "N",
              options: dict[str, Any] | None = None) -> RageTable:
        """Past the set-up: the wizard's round-1 turn, the key vaults on ``keys`` (default: far tiles)."""
        table = cls(players, seed, options)
        st = table.state
        if st["phase"] == "tower":
            ENGINE.apply(st, 0, ENGINE.legal_actions(st, 0)[0])
        ENGINE.apply(st, 0, {"type": "entrance", "dir": entrance})
        size = st["size"]
        for k in keys or [size - 2, size * 2, size * size - 2]:
            ENGINE.apply(st, 0, {"type": "hide_key", "tile": k})
        ENGINE.apply(st, 0, ENGINE.legal_actions(st, 0)[0])
        assert st["phase"] == "wizard"
        return table

    def at(self, where: int | str) -> int:
        return tile_index(self.state, where) if isinstance(where, str) else where

    def heroes_turn(self) -> RageTable:
        """The wizard ends the turn (if it isn't over already): heroes commit next."""
        if {"type": "end_turn"} in ENGINE.legal_actions(self.state, 0):
            ENGINE.apply(self.state, 0, {"type": "end_turn"})
        assert self.state["phase"] == "heroes"
        return self

    def hero(self, seat: int, *, at: int | str | None = None, hp: int | None = None, keys: int | None = None,
             holds: Iterable[str] = (), free: int | None = None) -> RageTable:
        """Hero ``seat`` stands on ``at``, has ``hp`` hit points and ``keys`` keys, has used ``free``
        item actions, and receives the loot cards ``holds`` (equipment goes on as when looted)."""
        h = self.state["heroes"][seat]
        for name, value in (("pos", at), ("hp", hp), ("keys", keys), ("free", free)):
            if value is not None:
                h[name] = self.at(value) if name == "pos" else value
        for key in holds:
            self.gives(seat, key)
        return self

    def gives(self, seat: int, key: str) -> int:
        """Hero ``seat`` receives a loot card ``key`` from the deck or discard; its card id."""
        st = self.state
        for pile in (st["loot"]["deck"], st["loot"]["discard"]):
            for cid in pile:
                if st["lcards"][cid] == key:
                    pile.remove(cid)
                    loot._gain_card(st, seat, cid)
                    return cid
        raise AssertionError(f"no loot card {key!r} left to give")

    def wizard_holds(self, key: str) -> int:
        """The wizard has a card ``key`` in hand (taken from the deck or discard); its card id."""
        w = self.state["wizard"]
        for pile in (w["deck"], w["discard"]):
            for cid in pile:
                if self.state["wcards"][cid] == key:
                    pile.remove(cid)
                    w["hand"].append(cid)
                    return cid
        for cid in w["hand"]:
            if self.state["wcards"][cid] == key:
                return cid
        raise AssertionError(f"no wizard card {key!r}")

    def wizard(self, *, holds: Iterable[str] = (), mana: int | None = None, empty_hand: bool = False) -> RageTable:
        """The wizard's hand (emptied first with ``empty_hand``) and Mana Wheel."""
        if empty_hand:
            self.state["wizard"]["hand"] = []
        for key in holds:
            self.wizard_holds(key)
        if mana is not None:
            self.state["wizard"]["mana"] = mana
        return self

    def token(self, where: int | str, kind: str, level: int = 0, up: bool = False, card: str | None = None) -> int:
        """A token on a tile (face down unless ``up``); its token id."""
        st = self.state
        tid = st["next_token"]
        st["next_token"] += 1
        st["tokens"][str(tid)] = {"kind": kind, "up": up, "card": card or ("orc" if kind == "monster" else kind),
                                  "level": level}
        st["tiles"][self.at(where)]["tokens"].append(tid)
        return tid
