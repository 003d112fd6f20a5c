"""Masterminds: drawing Prep cards and what an immediate card does at once (gems from the bag, Rivals, Lockdown).

Below the turns that call it (prep, heist, upkeep): it imports none of them."""
from __future__ import annotations

from collections import Counter

from bot.rng import Rng

from . import board
from .cards import PREP, prep_name
from .constants import STEP_LETTERS


def _draw_prep(state, seat: int, count: int, events, ctx: dict | None = None) -> None:
    """Draw ``count`` Prep cards; immediate cards resolve at once (one reshuffle per draw effect)."""
    ctx = ctx if ctx is not None else {"reshuffled": False}
    name = board._seat_name(state, seat)
    drawn: list[str] = []
    for _ in range(count):
        if state["phase"] == "over" or state.get("end_reason"):
            break
        if not state["prep_deck"]:
            if ctx["reshuffled"] or not state["prep_discard"]:
                events.append({"type": "draw", "text": "The Prep deck is empty."})
                break
            ctx["reshuffled"] = True
        pid = board._draw_from(state, "prep_deck", "prep_discard", events, "Prep")
        if pid is None:
            break
        card = PREP[pid]
        if card["kind"] == "immediate":
            if drawn:
                _draw_event(state, seat, drawn, events)
                drawn = []
            events.append({"type": "immediate", "text": f"{name} draws {card['name']} and must play it at once: {card['text'].split(': ', 1)[-1]}"})
            state["prep_discard"].append(pid)
            board._tally(state, "used", "prep:" + card["name"])
            _immediate(state, seat, card["effect"], events, ctx)
        else:
            board._tally(state, "available", "prep:" + card["name"])
            state["hands"][seat].append(pid)
            drawn.append(pid)
    if drawn:
        _draw_event(state, seat, drawn, events)


def _draw_event(state, seat, drawn, events) -> None:
    count = len(drawn)
    events.append({"type": "draw", "text": f"{board._seat_name(state, seat)} draws {count} Prep card{'s' if count > 1 else ''}."})
    events.append({"type": "draw", "to": seat, "text": "You draw " + "; ".join(
        f"{prep_name(card)} ({PREP[card]['kind']}: {PREP[card]['text'].rstrip('.')})" for card in drawn) + "."})


def _immediate(state, seat: int, effect: str, events, ctx) -> None:
    if effect == "windfall":
        _take_gems(state, seat, 1, events, "Windfall")
    elif effect == "tip":
        _draw_prep(state, seat, 2, events, ctx)
    elif effect == "rivals":
        _burn_and_refill(state, events)
    elif effect == "lockdown":
        for slot, heist in enumerate(state["heists"]):
            if heist is not None and slot != state.get("completing"):
                _pop_last_die(state, heist, events)
        if state.get("completing") is not None:
            events.append({"type": "immediate", "text": "The heist being completed is already cracked: "
                           "Lockdown doesn't touch its dice."})


def _burn_and_refill(state, events) -> None:
    state["talent_discard"].extend(state["pool"])
    state["pool"].clear()
    board._refresh_pool(state, events)
    events.append({"type": "pool", "text": "The Talent Pool is burned and refilled: "
                   + (", ".join(board._talent_name(tid) for tid in state["pool"]) or "nobody") + "."})


def _pop_last_die(state, heist, events) -> None:
    step_index = board._next_step(heist) - 1
    if step_index < 0:
        return
    die = heist["dice"][step_index]
    heist["dice"][step_index] = None
    state["dice"][die["seat"]] += 1
    events.append({"type": "die", "text": f"{board._seat_name(state, die['seat'])}'s die on {board._heist_name(heist)} step {STEP_LETTERS[step_index]} goes back to them."})


def _take_gems(state, seat: int, count: int, events, reason: str) -> None:
    rng = Rng(state)
    got: Counter = Counter()
    colours = board._gem_colours(state)
    for _ in range(count):
        total = sum(state["bag"].values())
        if total == 0:
            break
        pick = rng.below(total)
        for colour in colours:
            if pick < state["bag"][colour]:
                state["bag"][colour] -= 1
                state["gems"][seat][colour] += 1
                got[colour] += 1
                break
            pick -= state["bag"][colour]
    left = sum(state["bag"].values())
    if got:
        gained = ", ".join(f"{count} {colour}" for colour, count in got.items())
        events.append({"type": "gems", "text": f"{board._seat_name(state, seat)} takes {sum(got.values())} gem{'s' if sum(got.values()) > 1 else ''} from the bag ({reason}): {gained}. Bag: {left} left."})
    if left == 0:
        events.append({"type": "end", "text": "The last gem has been taken from the bag!"})
        state["end_reason"] = "bag"


def _give_gem(state, seat: int, colour: str, events) -> None:
    state["gems"][seat][colour] -= 1
    state["bag"][colour] += 1
    events.append({"type": "gems", "text": f"{board._seat_name(state, seat)} returns a {colour} gem to the bag."})
