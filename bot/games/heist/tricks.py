"""HEIST: the active player's tricks after the tokens are drawn (one handler per trick effect)."""
from __future__ import annotations

from typing import Any, Callable

from bot.engine import Action, Event, State

from . import cards
from .board import distinct_cards, total
from .cards import RESOURCE
from .supply import draw_token


def trick_actions(state: State, seat: int) -> list[Action]:
    """Each kind of trick in hand (once per drawn token that still counts, for a trick that aims at
    one; two tokens alike, e.g. both purple -3, are one option: the first), then resolving the test."""
    test = state["test"]
    actions: list[Action] = []
    live = [index for index, token in enumerate(test["tokens"]) if not token["ignored"] and _first_alike(test, index) == index]
    for card_id in distinct_cards([card for card in state["hands"][seat] if cards.is_trick(card)]):
        card = RESOURCE[card_id]
        if card["target"]:
            for index in live:
                actions.append({"type": "trick", "card": card_id, "token": index})
        elif card["effect"]["do"] == "clean_exit" and test["clean_exit"]:
            continue
        else:
            actions.append({"type": "trick", "card": card_id})
    actions.append({"type": "resolve"})
    return actions


def _first_alike(test: dict[str, Any], index: int) -> int:
    """The first drawn token that still counts and shows the same colour and face as token ``index``."""
    token = test["tokens"][index]
    return next(first for first, other in enumerate(test["tokens"])
                if not other["ignored"] and (other["colour"], other["face"]) == (token["colour"], token["face"]))


def aimed_at_a_twin(state: State, action: Any) -> Action | None:
    """For a trick aimed at a drawn token alike an earlier one (a move logged when both were offered), the offered
    move it equals in effect (aimed at the earlier token); else None."""
    if (state["phase"] != "tricks" or not isinstance(action, dict) or set(action) != {"type", "card", "token"}
            or action["type"] != "trick" or not isinstance(action["card"], str) or type(action["token"]) is not int):
        return None
    test: dict[str, Any] = state["test"]
    if not 0 <= action["token"] < len(test["tokens"]) or test["tokens"][action["token"]]["ignored"]:
        return None
    first = _first_alike(test, action["token"])
    return {"type": "trick", "card": action["card"], "token": first} if first != action["token"] else None


# Each handler changes the test and says what the trick did ("flips red -4 to red -2").
TrickHandler = Callable[[State, dict[str, Any], Action, dict[str, Any], list[Event]], str]


def _flip(state: State, test: dict[str, Any], action: Action, card: dict[str, Any], events: list[Event]) -> str:
    token = test["tokens"][action["token"]]
    before = cards.token_label(token)
    token["face"] ^= 1
    return f"flips {before} to {cards.token_label(token)}"


def _flip_all(state: State, test: dict[str, Any], action: Action, card: dict[str, Any], events: list[Event]) -> str:
    for token in test["tokens"]:
        if not token["ignored"]:
            token["face"] ^= 1
    return "flips every token"


def _redraw(state: State, test: dict[str, Any], action: Action, card: dict[str, Any], events: list[Event]) -> str:
    old = test["tokens"][action["token"]]
    state["bag"][old["colour"]] += 1
    new = draw_token(state, events)
    assert new is not None  # the bag holds at least the returned token
    test["tokens"][action["token"]] = new
    return f"puts {cards.token_label(old)} back and draws {cards.token_label(new)}"


def _bonus(state: State, test: dict[str, Any], action: Action, card: dict[str, Any], events: list[Event]) -> str:
    test["bonus"] += card["effect"]["n"]
    return f"adds {card['effect']['n']:+d}"


def _extra(state: State, test: dict[str, Any], action: Action, card: dict[str, Any], events: list[Event]) -> str:
    new = draw_token(state, events)
    if new is not None:
        test["tokens"].append(new)
    return f"draws {cards.token_label(new)}" if new else "finds no token to draw"


def _ignore(state: State, test: dict[str, Any], action: Action, card: dict[str, Any], events: list[Event]) -> str:
    token = test["tokens"][action["token"]]
    token["ignored"] = True
    return f"ignores {cards.token_label(token)}"


def _lucky(state: State, test: dict[str, Any], action: Action, card: dict[str, Any], events: list[Event]) -> str:
    new = draw_token(state, events)
    if new is not None:
        test["tokens"].append(new)
    live = [token for token in test["tokens"] if not token["ignored"]]
    if not live:
        return "finds no token"
    low = min(live, key=cards.token_value)
    low["ignored"] = True
    return (f"draws {cards.token_label(new)} and " if new else "") + f"ignores {cards.token_label(low)}"


def _double(state: State, test: dict[str, Any], action: Action, card: dict[str, Any], events: list[Event]) -> str:
    test["double"] += 1
    return "makes the highest token count twice"


def _clean_exit(state: State, test: dict[str, Any], action: Action, card: dict[str, Any], events: list[Event]) -> str:
    test["clean_exit"] = True
    return "plans a clean exit (no failure effect)"


def _favour(state: State, test: dict[str, Any], action: Action, card: dict[str, Any], events: list[Event]) -> str:
    test["favour"] += 1
    return f"calls in a favour (+{len(test['assists'])})"


TRICKS: dict[str, TrickHandler] = {
    "flip": _flip, "flip_all": _flip_all, "redraw": _redraw, "bonus": _bonus, "extra": _extra,
    "ignore": _ignore, "lucky": _lucky, "double": _double, "clean_exit": _clean_exit, "favour": _favour,
}


def play_trick(state: State, seat: int, action: Action) -> list[Event]:
    """The active player plays a trick from hand onto the test; the event gives the new total."""
    test = state["test"]
    card_id = action["card"]
    card = RESOURCE[card_id]
    state["hands"][seat].remove(card_id)
    test["tricks"].append(card_id)
    events: list[Event] = []
    handler = TRICKS.get(card["effect"]["do"])
    what = handler(state, test, action, card, events) if handler else ""
    numbers = total(state)
    events.append({"type": "trick", "text": f"{state['names'][seat]} plays {card['name']}: {what}. "
                   f"Total {numbers['total']} against {numbers['target']}."})
    return events
