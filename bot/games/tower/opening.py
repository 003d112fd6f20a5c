"""A new game of the Wizard's Tower: eight floors dealt, secret cards dealt or set aside for the draft."""
from __future__ import annotations

from typing import Any

from bot.engine import RULEBOOK, TUNED, State
from bot.rng import Rng

from . import cards
from .board import BALCONY, FLOORS, SLOTS

HEAD_START = 2  # tuned, two players: the second player's prestige for playing second (see docs/rules/tower.md)


def head_start(players: int, rules: str) -> list[int]:
    """Each seat's prestige before the game: at two players under the tuned rules the second player (seat 1)
    starts with ``HEAD_START``; the printed rules give nobody any."""
    return [0, HEAD_START] if players == 2 and rules != RULEBOOK else [0] * players


def new_state(names: list[str], opts: dict[str, Any], seed: int) -> State:
    """Two light floors on top, six dark floors below, pawns on the balcony, then secrets or the draft."""
    players = len(names)
    state = _empty_table(names, opts, seed)
    rng = Rng(state)
    light = list(cards.LIGHT)
    rng.shuffle(light)
    master_thief = state["options"]["master_thief"]
    if master_thief:
        remove = {2: 3, 3: 2}.get(players, 1)
        state["box_unseen"] += light[:remove]
        light = light[remove:]
    for floor in range(2):
        state["tower"][floor] = light[:SLOTS]
        light = light[SLOTS:]
    used, unused = (cards.SET_A, cards.SET_B) if opts["special_set"] == "A" else (cards.SET_B, cards.SET_A)
    state["out_of_play"] = list(unused)
    if not master_thief:
        for seat in range(players):
            state["secret"][seat] = light.pop(0)
        state["box_unseen"] += light
        light = []
    _deal_dark(state, rng, used)
    if master_thief:
        state["phase"] = "draft"
        state["draft"] = {"order": list(range(players - 1, -1, -1)), "pos": 0, "hand": light}
    return state


def _empty_table(names: list[str], opts: dict[str, Any], seed: int) -> State:
    """The state before any card is dealt: an empty tower, pawns on the balcony, empty hauls."""
    players = len(names)
    return {
        "names": list(names), "rng": Rng.seed_state(seed), "n": players,
        "options": {"special_set": opts["special_set"], "master_thief": bool(opts["master_thief"]),
                    "rules": opts.get("rules", TUNED)},
        "head_start": head_start(players, opts.get("rules", TUNED)),
        "phase": "play", "tower": [[None] * SLOTS for _ in range(FLOORS)],
        "pawns": [[BALCONY, -1] for _ in range(players)], "hauls": [[] for _ in range(players)],
        "secret": [None] * players, "revealed": [None] * players, "sand_target": None,
        "box": [], "box_unseen": [], "out_of_play": [], "draft": None, "offered": [[] for _ in range(players)],
        "seen": [[] for _ in range(players)], "turn": 0, "exits": [], "queue": [], "extra": False,
        "recent": [], "bonus": False,
    }


def _deal_dark(state: State, rng: Rng, used: list[int]) -> None:
    """The plain dark cards and the special set in play, shuffled onto floors 3 to 8; the rest go to the box unseen."""
    dark = list(cards.DARK_PLAIN) + list(used)
    rng.shuffle(dark)
    for floor in range(2, FLOORS):
        state["tower"][floor] = dark[:SLOTS]
        dark = dark[SLOTS:]
    state["box_unseen"] += dark
