"""Claiming a tower card: which cards may be claimed, taking one into a haul, and what its power does at once."""
from __future__ import annotations

from bot.engine import Event, State

from . import cards
from .board import floor_label, is_hidden, player_name, tower_cards
from .cards import CARDS, brief, name


def power_ok(state: State, seat: int, cid: int, at: tuple[int, int] | None) -> bool:
    """Can ``seat`` complete the power of ``cid`` if it claimed it now (from tower space ``at``)?"""
    power = CARDS[cid]["power"]
    if power == "sand":
        return any(cards.sand_target_ok(c) for c in state["hauls"][seat])
    if power == "tales":
        return any(cards.curse_free(c) for c in state["hauls"][seat])
    if power == "distill":
        return any(state["secret"][o] is not None for o in range(state["n"]) if o != seat)
    if power == "cloak":
        for floor, slot, other in tower_cards(state):
            if (floor, slot) == at:
                continue
            if is_hidden(floor, slot) or power_ok(state, seat, other, (floor, slot)):
                return True
        return False
    return True


def claimable(state: State, seat: int, floor: int, slot: int) -> bool:
    """Whether ``seat`` may claim the card on this space (ignoring where its pawn is)."""
    cid = state["tower"][floor][slot]
    if cid is None:
        return False
    if is_hidden(floor, slot):
        return True  # nobody knows what it is: it may always be claimed (see docs, Decisions)
    return power_ok(state, seat, cid, (floor, slot))


def claim(state: State, seat: int, floor: int, slot: int, move: bool, events: list[Event]) -> None:
    """``seat`` takes the card into its haul (moving its pawn there unless the Portal Cloak takes it); its power follows."""
    cid = state["tower"][floor][slot]
    hidden = is_hidden(floor, slot)
    state["tower"][floor][slot] = None
    if move:
        state["pawns"][seat] = [floor, slot]
    state["hauls"][seat].append(cid)
    who = player_name(state, seat)
    how = "" if move else " with the Portal Cloak"
    if hidden:
        events.append({"type": "claim", "text": f"{who} claims the face-down card of {floor_label(floor)}{how}: "
                                                f"it is **{name(cid)}** {brief(CARDS[cid])}!"})
    else:
        events.append({"type": "claim", "text": f"{who} claims **{name(cid)}** {brief(CARDS[cid])} from "
                                                f"{floor_label(floor)}{how}."})
    queue_power(state, seat, cid, events)


def queue_power(state: State, seat: int, cid: int, events: list[Event]) -> None:
    """A claimed card's power: the choices it asks for go first in the queue; the Hourglass and Codex act at once."""
    power = CARDS[cid]["power"]
    steps: list[dict[str, int | str]] = []
    if power == "amulet":
        steps = [{"k": "amulet_discard", "seat": seat}, {"k": "amulet_give", "seat": seat, "card": cid}]
    elif power in ("sand", "tales", "cloak", "distill"):
        steps = [{"k": power, "seat": seat}]
    elif power == "vampire":
        steps = [{"k": "vamp", "seat": seat}]
    elif power == "crown":
        players = state["n"]
        steps = [{"k": "crown", "seat": (seat + i) % players, "by": seat} for i in range(1, players)]
    elif power == "hourglass":
        state["extra"] = True
        events.append({"type": "power", "text": f"Serpent's Hourglass: {player_name(state, seat)} will take "
                                                "another turn."})
    elif power == "codex":
        _reveal_own_secret(state, seat, events)
    state["queue"][0:0] = steps


def _reveal_own_secret(state: State, seat: int, events: list[Event]) -> None:
    """Codex of Truth: the claimer's face-down card joins its face-up haul."""
    who = player_name(state, seat)
    secret = state["secret"][seat]
    if secret is None:
        events.append({"type": "power", "text": f"Codex of Truth: {who} has no face-down card to reveal."})
        return
    state["secret"][seat] = None
    state["revealed"][seat] = secret
    state["hauls"][seat].append(secret)
    events.append({"type": "power", "text": f"Codex of Truth: {who} reveals their face-down card: "
                                            f"**{name(secret)}** {brief(CARDS[secret])}."})
