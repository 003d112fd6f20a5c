"""The pending decisions of card powers (and the two-player discard): each kind's choices and how a choice resolves.

A step in ``state["queue"]`` is ``{"k": kind, "seat": who decides, ...}``; ``STEPS`` maps each kind to its
options and its resolution, so a new power is one entry here.
"""
from __future__ import annotations

from typing import Any, Callable, NamedTuple

from bot.engine import Action, Event, State

from . import cards
from .board import (
    SLOTS,
    card_label,
    discard_from_tower,
    floor_label,
    is_hidden,
    player_name,
    remove_from_haul,
    tower_cards,
)
from .cards import brief, name
from .claiming import claim, claimable

Step = dict[str, Any]

# Steps played without asking when they have a single option (a choice that tells nobody anything new).
FORCED_STEPS = ("amulet_discard", "amulet_give", "sand", "tales", "cloak", "distill", "crown", "row_discard",
                "vamp_take")


def _discard_any_options(state: State, step: Step) -> list[Action]:
    """Amulet of Nae: any card in the tower may go to the box."""
    return [{"type": "discard_tower", "floor": f, "slot": slot} for f, slot, _ in tower_cards(state)]


def _row_discard_options(state: State, step: Step) -> list[Action]:
    """Two players: any card left on the claimer's floor."""
    f = step["floor"]
    return [{"type": "discard_tower", "floor": f, "slot": slot} for slot in range(SLOTS)
            if state["tower"][f][slot] is not None]


def _give_options(state: State, step: Step) -> list[Action]:
    """Amulet of Nae: any other player receives it."""
    return [{"type": "give", "to": o} for o in range(state["n"]) if o != step["seat"]]


def _sand_options(state: State, step: Step) -> list[Action]:
    """Sand of Illusion: under any face-up 3, 4 or 5 of the claimer's haul."""
    return [{"type": "sand", "card": c} for c in state["hauls"][step["seat"]] if cards.sand_target_ok(c)]


def _discard_haul_options(state: State, step: Step) -> list[Action]:
    """Tales of Myth & Magic, Bone Crown: any curse-free face-up card of the player's haul."""
    return [{"type": "discard_haul", "card": c} for c in state["hauls"][step["seat"]] if cards.curse_free(c)]


def _cloak_options(state: State, step: Step) -> list[Action]:
    """Thief's Portal Cloak: any claimable card anywhere in the tower."""
    return [{"type": "take", "floor": f, "slot": slot} for f, slot, _ in tower_cards(state)
            if claimable(state, step["seat"], f, slot)]


def _peek_options(state: State, step: Step) -> list[Action]:
    """Distillation of Prescience: any other player who still has a face-down card."""
    seat = step["seat"]
    return [{"type": "peek", "seat": o} for o in range(state["n"]) if o != seat and state["secret"][o] is not None]


def _vamp_options(state: State, step: Step) -> list[Action]:
    """Vampire's Blood: skip, or give any curse-free haul card (when a curse-free tower card can be taken back)."""
    mine = [c for c in state["hauls"][step["seat"]] if cards.curse_free(c)]
    if not mine or not vamp_tower(state):
        return []
    return [{"type": "skip"}] + [{"type": "swap", "card": c} for c in mine]


def _vamp_take_options(state: State, step: Step) -> list[Action]:
    """Vampire's Blood, second half: the face-up curse-free tower card taken in exchange."""
    return [{"type": "swap_take", "floor": f, "slot": slot} for f, slot in vamp_tower(state)]


def vamp_tower(state: State) -> list[tuple[int, int]]:
    """The tower spaces Vampire's Blood may swap with: face-up, curse-free cards."""
    return [(f, slot) for f, slot, c in tower_cards(state) if not is_hidden(f, slot) and cards.curse_free(c)]


def _discard_tower(state: State, step: Step, action: Action, events: list[Event]) -> None:
    """A tower card goes to the box (the face-down one unseen)."""
    f, slot = action["floor"], action["slot"]
    label = card_label(state, f, slot)
    discard_from_tower(state, f, slot)
    why = "Amulet of Nae: " if step["k"] == "amulet_discard" else ""
    rule = " (two-player rule)" if step["k"] == "row_discard" else ""
    unseen = " unseen" if is_hidden(f, slot) else ""
    events.append({"type": "discard", "text": f"{why}{player_name(state, step['seat'])} sends {label} to the "
                                              f"box{unseen}{rule}."})


def _give(state: State, step: Step, action: Action, events: list[Event]) -> None:
    """The Amulet moves from the claimer's haul to the chosen player's."""
    seat, to = step["seat"], action["to"]
    remove_from_haul(state, seat, step["card"])
    state["hauls"][to].append(step["card"])
    events.append({"type": "power", "text": f"Amulet of Nae: {player_name(state, seat)} puts the Amulet into "
                                            f"{player_name(state, to)}'s haul."})


def _sand(state: State, step: Step, action: Action, events: list[Event]) -> None:
    """The Sand goes under the chosen card, which then counts twice."""
    state["sand_target"] = action["card"]
    events.append({"type": "power", "text": f"Sand of Illusion: {player_name(state, step['seat'])} puts the Sand "
                                            f"under **{name(action['card'])}** {brief(cards.CARDS[action['card']])}, which now counts twice."})


def _discard_haul(state: State, step: Step, action: Action, events: list[Event]) -> None:
    """A haul card goes back to the box (Tales of Myth & Magic, Bone Crown)."""
    cid = action["card"]
    remove_from_haul(state, step["seat"], cid)
    state["box"].append(cid)
    why = "Tales of Myth & Magic" if step["k"] == "tales" else "Bone Crown"
    events.append({"type": "discard", "text": f"{why}: {player_name(state, step['seat'])} returns **{name(cid)}** "
                                              f"{brief(cards.CARDS[cid])} from their haul to the box."})


def _take(state: State, step: Step, action: Action, events: list[Event]) -> None:
    """The Portal Cloak claims a second card without moving the pawn."""
    claim(state, step["seat"], action["floor"], action["slot"], False, events)


def _peek(state: State, step: Step, action: Action, events: list[Event]) -> None:
    """The claimer secretly learns another player's face-down card."""
    seat, target = step["seat"], action["seat"]
    cid = state["secret"][target]
    state["seen"][seat].append([target, cid])
    events.append({"type": "power", "text": f"Distillation of Prescience: {player_name(state, seat)} secretly "
                                            f"looks at {player_name(state, target)}'s face-down card."})
    events.append({"type": "peek", "to": seat, "text": f"{player_name(state, target)}'s face-down card is "
                                                       f"**{name(cid)}** {brief(cards.CARDS[cid])}."})


def _vamp(state: State, step: Step, action: Action, events: list[Event]) -> None:
    """Skip the swap, or name the haul card to give: the tower card to take is asked next."""
    if action["type"] == "skip":
        events.append({"type": "power", "text": f"Vampire's Blood: {player_name(state, step['seat'])} keeps their "
                                                "haul as it is."})
    else:
        state["queue"].insert(0, {"k": "vamp_take", "seat": step["seat"], "give": action["card"]})


def _vamp_take(state: State, step: Step, action: Action, events: list[Event]) -> None:
    """The haul card and the tower card change places."""
    seat = step["seat"]
    f, slot = action["floor"], action["slot"]
    give = step["give"]
    take = state["tower"][f][slot]
    remove_from_haul(state, seat, give)
    state["tower"][f][slot] = give
    state["hauls"][seat].append(take)
    events.append({"type": "power", "text": f"Vampire's Blood: {player_name(state, seat)} swaps **{name(give)}** "
                                            f"{brief(cards.CARDS[give])} from their haul for **{name(take)}** "
                                            f"{brief(cards.CARDS[take])} from {floor_label(f)}."})


class StepKind(NamedTuple):
    """One kind of pending decision: its options, and how the chosen one resolves."""
    options: Callable[[State, Step], list[Action]]
    resolve: Callable[[State, Step, Action, list[Event]], None]


STEPS: dict[str, StepKind] = {
    "amulet_discard": StepKind(_discard_any_options, _discard_tower),
    "row_discard": StepKind(_row_discard_options, _discard_tower),
    "amulet_give": StepKind(_give_options, _give),
    "sand": StepKind(_sand_options, _sand),
    "tales": StepKind(_discard_haul_options, _discard_haul),
    "crown": StepKind(_discard_haul_options, _discard_haul),
    "cloak": StepKind(_cloak_options, _take),
    "distill": StepKind(_peek_options, _peek),
    "vamp": StepKind(_vamp_options, _vamp),
    "vamp_take": StepKind(_vamp_take_options, _vamp_take),
}


def step_options(state: State, step: Step) -> list[Action]:
    """The choices of a pending step ([] when none is possible)."""
    return STEPS[step["k"]].options(state, step)


def resolve_step(state: State, step: Step, action: Action, events: list[Event]) -> None:
    """Carry out the choice made for a pending step (already taken off the queue)."""
    STEPS[step["k"]].resolve(state, step, action, events)


def skip_note(state: State, step: Step, events: list[Event]) -> None:
    """Say why a step with no possible choice is skipped (the two-player discard of an empty floor too)."""
    who = player_name(state, step["seat"])
    text = {
        "amulet_discard": "Amulet of Nae: the tower is empty, nothing to discard.",
        "sand": f"Sand of Illusion: {who} has no face-up 3, 4 or 5 card, so the Sand stays loose.",
        "tales": f"Tales of Myth & Magic: {who} has no face-up curse-free card to discard.",
        "cloak": "Thief's Portal Cloak: no other card can be taken from the tower.",
        "distill": "Distillation of Prescience: no other player has a face-down card.",
        "crown": f"Bone Crown: {who} has no face-up curse-free card to discard.",
        "row_discard": f"No card is left on {floor_label(step.get('floor', 0))} to discard.",
        "vamp": f"Vampire's Blood: no swap is possible for {who}.",
    }.get(step["k"])
    if text:
        events.append({"type": "power", "text": text})
