"""HEIST: the resource deck and the token bag (drawing cards and tokens, card and obstacle effects)."""
from __future__ import annotations

from typing import Any, Callable

from bot.engine import Event, State
from bot.rng import Rng

from . import cards
from .cards import COLOURS


def draw_cards(state: State, seat: int, count: int, events: list[Event]) -> list[str]:
    """``seat`` draws up to ``count`` cards, shuffling the discard pile into a new deck when needed."""
    drawn = []
    for _ in range(count):
        if not state["deck"]:
            if not state["discard"]:
                break
            state["deck"] = state["discard"]
            state["discard"] = []
            Rng(state).shuffle(state["deck"])
            events.append({"type": "reshuffle", "text": "The discard pile is shuffled into a new resource deck."})
        card = state["deck"].pop()
        state["hands"][seat].append(card)
        drawn.append(card)
        if "held" in state and cards.card_name(card) not in state["held"]:
            state["held"] = sorted(state["held"] + [cards.card_name(card)])
    if drawn:
        events.append({"type": "draw", "to": seat,
                       "text": "You draw " + ", ".join(cards.card_name(card) for card in drawn) + "."})
    return drawn


def refill(state: State, seat: int, events: list[Event]) -> None:
    """The active player draws back up to a full hand at the end of the turn."""
    need = cards.HAND_SIZE - len(state["hands"][seat])
    if need > 0:
        got = draw_cards(state, seat, need, events)
        if got:
            events.append({"type": "refill", "text": f"{state['names'][seat]} draws {len(got)} card"
                           f"{'s' if len(got) != 1 else ''} back up to {len(state['hands'][seat])}."})


def draw_token(state: State, events: list[Event]) -> dict[str, Any] | None:
    """One token from the bag on a random face (or its front face), or None if the bag is empty.
    An empty bag first takes back the tokens drawn earlier this round."""
    bag = state["bag"]
    if sum(bag.values()) == 0 and state["spent"]:
        for token in state["spent"]:
            bag[token["colour"]] += 1
        state["spent"] = []
        events.append({"type": "bag", "text": "The bag is empty: this round's earlier tokens go back into it."})
    in_bag = sum(bag.values())
    if in_bag == 0:
        events.append({"type": "bag", "text": "The bag is empty: no token is drawn."})
        return None
    rng = Rng(state)
    pick = rng.below(in_bag)
    for colour in COLOURS:
        if pick < bag[colour]:
            break
        pick -= bag[colour]
    bag[colour] -= 1
    face = 0 if state["options"].get("token_faces") == "front" else rng.below(2)
    return {"colour": colour, "face": face, "ignored": False}


def _move_tokens(state: State, effect: dict[str, Any], events: list[Event], source: str, origin: str,
                 destination: str, done: str, missing: str) -> None:
    """Move up to the effect's count of its colour from ``origin`` to ``destination`` (bag or supply)."""
    colour, count = effect["colour"], effect.get("n", 1)
    got = min(count, state[origin][colour])
    state[origin][colour] -= got
    state[destination][colour] += got
    if got:
        text = f"{source}: {got} {colour} token{'s' if got > 1 else ''} {done}."
    else:
        text = f"{source}: {missing.format(colour=colour)}."
    events.append({"type": "bag", "text": text})


def _add_tokens(state: State, seat: int, effect: dict[str, Any], events: list[Event], source: str) -> None:
    _move_tokens(state, effect, events, source, "supply", "bag", "added to the bag", "no {colour} token is left to add")


def _remove_tokens(state: State, seat: int, effect: dict[str, Any], events: list[Event], source: str) -> None:
    _move_tokens(state, effect, events, source, "bag", "supply", "removed from the bag",
                 "there is no {colour} token in the bag to remove")


def _draw(state: State, seat: int, effect: dict[str, Any], events: list[Event], source: str) -> None:
    got = draw_cards(state, seat, effect.get("n", 1), events)
    events.append({"type": "draw", "text": f"{source}: {state['names'][seat]} draws {len(got)} "
                   f"card{'s' if len(got) != 1 else ''}."})


def _discard_random(state: State, seat: int, effect: dict[str, Any], events: list[Event], source: str) -> None:
    name = state["names"][seat]
    for _ in range(effect.get("n", 1)):
        hand = state["hands"][seat]
        if not hand:
            events.append({"type": "discard", "text": f"{source}: {name} has no card to discard."})
            break
        card = hand.pop(Rng(state).below(len(hand)))
        state["discard"].append(card)
        events.append({"type": "discard", "text": f"{source}: {name} discards {cards.card_name(card)} at random."})


EffectHandler = Callable[[State, int, dict[str, Any], list[Event], str], None]

EFFECTS: dict[str, EffectHandler] = {
    "add": _add_tokens,
    "remove": _remove_tokens,
    "draw": _draw,
    "active_draw": _draw,  # the caller passes the active player's seat
    "discard_random": _discard_random,
}


def apply_effect(state: State, seat: int, effect: dict[str, Any], events: list[Event], source: str) -> None:
    """Carry out one printed effect (bag tokens, card draws, random discards) for ``seat``;
    ``source`` names the card or obstacle in the events."""
    handler = EFFECTS.get(effect["do"])
    if handler is None:  # pragma: no cover - data is validated by tests
        raise ValueError(effect["do"])
    handler(state, seat, effect, events, source)
