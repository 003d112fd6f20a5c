"""Masterminds: the set-up (decks, gems, opening hands, the roll for the first player)."""
from __future__ import annotations

from typing import Any

from bot.rng import Rng

from . import board
from .cards import CLEAR, COLOURS, FAILURES, HEISTS, PREP, TALENTS
from .constants import DICE_PER_PLAYER

# A new game ready for the first player's turn.


def new_state(names: list[str], resolved: dict[str, Any], seed: int) -> dict[str, Any]:
    """A new game (``resolved``: the table's options): shuffled decks, the gem bag, four Prep cards each, the
    pool, two heists, the first player."""
    players = len(names)
    state: dict[str, Any] = {
        "names": list(names),
        "rng": Rng.seed_state(seed),
        "options": resolved,
        "colours": COLOURS[:players],
    }
    rng = Rng(state)
    talent = sorted(TALENTS)
    prep = sorted(PREP)
    heist = sorted(HEISTS)
    failure = sorted(FAILURES)
    for deck in (talent, prep, heist, failure):
        rng.shuffle(deck)
    # Decks: the top card is the END of the list.
    state.update({
        "talent_deck": talent, "talent_discard": [],
        "prep_deck": prep, "prep_discard": [],
        "heist_deck": heist,
        "failure_deck": failure, "failure_discard": [],
        "bag": {colour: resolved["gems_per_colour"] for colour in state["colours"]} | {CLEAR: 10},
        "gems": [{colour: 0 for colour in state["colours"]} | {CLEAR: 1} for _ in range(players)],
        "gem_total": {colour: resolved["gems_per_colour"] for colour in state["colours"]} | {CLEAR: 10 + players},
        "dice": [DICE_PER_PLAYER] * players,
        "hands": [[] for _ in range(players)],
        "teams": [[] for _ in range(players)],
        "intel": [0] * players,
        "mementos": [[] for _ in range(players)],
        "pool": [],
        "heists": [None, None],
        "completed": 0,
        "target": players + 1,
        "round": 1,
        "phase": "turn",
        "plan_left": 0,
        "pending": None,
        "attempt": None,
        "test": None,
        "window": None,
        "run": None,
        "end_reason": None,
        "final": None,
        "last_roll": None,
        "recent": [],
        "stats": {"available": [], "used": [], "completions": [], "rolls": {}},
    })
    _deal_opening_hands(state, rng)
    events: list[dict[str, Any]] = []
    board._refresh_pool(state, events)
    board._refresh_heists(state, events)
    _roll_for_first(state, rng)
    return state


def _deal_opening_hands(state, rng: Rng) -> None:
    """Deal 4 Prep cards each; "play immediately" cards are set aside and shuffled back."""
    aside = []
    for _ in range(4):
        for seat in range(len(state["names"])):
            while True:
                pid = state["prep_deck"].pop()
                if PREP[pid]["kind"] == "immediate":
                    aside.append(pid)
                    continue
                state["hands"][seat].append(pid)
                board._tally(state, "available", "prep:" + PREP[pid]["name"])
                break
    state["prep_deck"].extend(aside)
    rng.shuffle(state["prep_deck"])


def _roll_for_first(state, rng: Rng) -> None:
    """Highest roll starts; ties roll off among the tied seats (every roll-off is kept for the board)."""
    contenders = list(range(len(state["names"])))
    rolloffs = []
    while True:
        rolls = [[seat, rng.die(6)] for seat in contenders]
        rolloffs.append(rolls)
        best = max(roll for _, roll in rolls)
        contenders = [seat for seat, roll in rolls if roll == best]
        if len(contenders) == 1:
            break
    state["first_rolls"] = rolloffs
    state["first"] = contenders[0]
    state["turn"] = contenders[0]
