"""HEIST: getting help (every other player secretly commits an assist card or nothing; the reveal,
the assists' bag effects and the draw of the tokens)."""
from __future__ import annotations

from bot.engine import Action, Event, State

from . import cards
from .board import distinct_cards, other_seats, to_act, total
from .cards import RESOURCE
from .supply import apply_effect, draw_token


def assist_actions(state: State, seat: int) -> list[Action]:
    """A helper's choices, in two steps: each kind of assist card in hand, or nothing; then, for a helper whose
    pawn is at another job, which card to discard to walk there (or no assist after all)."""
    hand = state["hands"][seat]
    picked = picking(state, seat)
    if picked is not None:
        return [{"type": "pay", "card": card} for card in pay_choices(hand, picked)] + [{"type": "no_assist"}]
    here = state["locations"][seat] == state["test"]["job"]
    actions: list[Action] = [{"type": "assist", "card": card}
                             for card in distinct_cards([card for card in hand if cards.is_assist(card)])
                             if here or len(hand) > 1]  # away, the assist needs another card to pay with
    actions.append({"type": "no_assist"})
    return actions


def picking(state: State, seat: int) -> str | None:
    """The assist card ``seat`` has picked and is still to pay for (it is away from the job), if any."""
    picked: str | None = state["test"].get("picking", {}).get(str(seat))
    return picked


def pay_choices(hand: list[str], card: str) -> list[str]:
    """The cards that can pay for walking to the job with ``card``: one of each kind of the rest of the hand."""
    rest = list(hand)
    rest.remove(card)
    return distinct_cards(rest)


def pass_is_public(state: State, seat: int) -> str | None:
    """Why ``seat`` can't assist, when the public board already shows it (no card in
    hand, or a single card while away from the job, which can't pay to move); else None.
    A hand without assist cards is NOT public, so that seat is still asked."""
    hand = state["hands"][seat]
    if not hand:
        return "has no cards"
    if len(hand) == 1 and state["locations"][seat] != state["test"]["job"]:
        return "has one card and is away from the job, so can't pay to move"
    return None


def commit(state: State, seat: int, action: Action) -> list[Event]:
    """A helper commits an assist or nothing, in secret (an assist from another job takes a second step: the card
    to pay with); the last commit reveals them all."""
    test = state["test"]
    name = state["names"][seat]
    kind = action["type"]
    if kind == "assist" and state["locations"][seat] != test["job"]:
        test.setdefault("picking", {})[str(seat)] = action["card"]
        return [{"type": "commit_private", "to": seat,
                 "text": f"You pick {cards.card_name(action['card'])}. Your pawn is away from job {test['job']}: "
                         f"choose a card to discard to walk there."}]
    picked = test.get("picking", {}).pop(str(seat), None)
    if kind == "pay":
        promise: Action | None = {"type": "assist", "card": picked, "pay": action["card"]}
    else:
        promise = action if kind == "assist" else None
    test["commits"][str(seat)] = promise
    events: list[Event] = [{"type": "commit", "text": f"{name} has committed."}]
    events.append({"type": "commit_private", "to": seat,
                   "text": "You commit " + (commit_text(promise, test["job"]) if promise else "nothing") + "."})
    if not to_act(state):
        events += reveal(state)
    return events


def commit_text(promise: Action, job: str) -> str:
    """A committed assist in words, e.g. "Lookout (+2), discarding Tumble to walk to job B"."""
    card = RESOURCE[promise["card"]]
    text = card["name"] + (f" ({card['modifier']:+d})" if card["modifier"] else "")
    if "pay" in promise:
        text += f", discarding {cards.card_name(promise['pay'])} to walk to job {job}"
    return text


def _take_assists(state: State) -> list[str]:
    """Move each committed assist onto the table (paying to move first); one phrase per helper."""
    test = state["test"]
    phrases = []
    for seat in other_seats(state, state["active"]):
        promise = test["commits"].get(str(seat))
        name = state["names"][seat]
        if promise is None:
            phrases.append(f"{name}: nothing")
            continue
        card = promise["card"]
        hand = state["hands"][seat]
        text = f"{name}: {cards.card_name(card)}"
        if "pay" in promise:
            hand.remove(promise["pay"])
            state["discard"].append(promise["pay"])
            state["locations"][seat] = test["job"]
            text += f" (discards {cards.card_name(promise['pay'])} to walk there)"
        hand.remove(card)
        test["assists"].append({"seat": seat, "card": card})
        phrases.append(text)
    return phrases


def reveal(state: State) -> list[Event]:
    """All commits are revealed together, the assists' effects happen, then two tokens are drawn."""
    test = state["test"]
    active = state["active"]
    events: list[Event] = []
    phrases = _take_assists(state)
    test["revealed"] = True
    if phrases:
        events.append({"type": "reveal", "text": "Assists revealed: " + "; ".join(phrases) + "."})
    for assist in test["assists"]:
        card = RESOURCE[assist["card"]]
        for effect in card["effects"]:
            who = active if effect["do"] == "active_draw" else assist["seat"]
            apply_effect(state, who, effect, events, card["name"])
    drawn = []
    for _ in range(cards.DRAW_TOKENS):
        token = draw_token(state, events)
        if token is not None:
            test["tokens"].append(token)
            drawn.append(cards.token_label(token))
    numbers = total(state)
    events.append({"type": "tokens", "text": f"{state['names'][active]} draws "
                   f"{', '.join(drawn) if drawn else 'no token'}: total {numbers['total']} "
                   f"against {numbers['target']}."})
    state["phase"] = "tricks"
    return events
