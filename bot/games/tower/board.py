"""Shared lookups of the tower: its shape, the face-down bottom card, card labels, whose move it is."""
from __future__ import annotations

from collections.abc import Iterator

from bot.engine import State

from .cards import named

FLOORS, SLOTS = 8, 5
BALCONY, BRIDGE = -1, 8
HIDDEN = (7, 4)


def player_name(state: State, seat: int) -> str:
    """The name of the player in ``seat``."""
    return str(state["names"][seat])


def floor_label(floor: int) -> str:
    """A floor as players count them ("floor 1" is the top)."""
    return f"floor {floor + 1}"


def hidden_there(state: State) -> bool:
    """Whether the face-down bottom card is still in the tower."""
    return state["tower"][HIDDEN[0]][HIDDEN[1]] is not None


def is_hidden(floor: int, slot: int) -> bool:
    """Whether this space is the face-down bottom card's."""
    return (floor, slot) == HIDDEN


def tower_cards(state: State) -> Iterator[tuple[int, int, int]]:
    """Every card still in the tower, as (floor, slot, card id), top floor first."""
    for floor in range(FLOORS):
        row = state["tower"][floor]
        for slot in range(SLOTS):
            if row[slot] is not None:
                yield floor, slot, row[slot]


def card_label(state: State, floor: int, slot: int) -> str:
    """A tower card in words, its floor included (the face-down card is not named)."""
    if is_hidden(floor, slot):
        return f"the face-down card on {floor_label(floor)}"
    return f"{named(state['tower'][floor][slot])} on {floor_label(floor)}"


def on_bridge(state: State, seat: int) -> bool:
    """Whether ``seat``'s thief has left the tower."""
    return bool(state["pawns"][seat][0] == BRIDGE)


def remove_from_haul(state: State, seat: int, cid: int) -> None:
    """Take a card out of a face-up haul (the Sand of Illusion stays, then duplicating nothing)."""
    state["hauls"][seat].remove(cid)
    if state["sand_target"] == cid:
        state["sand_target"] = None


def discard_from_tower(state: State, floor: int, slot: int) -> tuple[int, bool]:
    """Send a tower card to the box (the face-down card unseen); returns it and whether it was face-down."""
    cid = state["tower"][floor][slot]
    hidden = is_hidden(floor, slot)
    state["tower"][floor][slot] = None
    (state["box_unseen"] if hidden else state["box"]).append(cid)
    return cid, hidden


def to_act(state: State) -> list[int]:
    """One seat at a time: the drafter, else whoever owes a card power's choice, else the thief whose turn it is."""
    if state["phase"] == "over":
        return []
    if state["phase"] == "draft":
        draft = state["draft"]
        return [draft["order"][draft["pos"]]]
    if state["queue"]:
        return [state["queue"][0]["seat"]]
    return [state["turn"]]

