"""The Wizard's Tower in words: the rules summary, the status line, move labels and groups, refusals, the DM text."""
from __future__ import annotations

from typing import Any, Callable

from bot.engine import Action, State

from .board import BALCONY, FLOORS, SLOTS, card_label, floor_label, player_name
from .cards import CARDS, name
from .scoring import final, winners

SUMMARY = """**Goal:** leave the tower with the best haul. Prestige comes from the 13 scoring tiles and a few cards.

**Setup:** 2 floors of Light cards (face-up), 6 floors of Dark cards below (the very last card of the bottom floor is face-down). Each thief gets one secret face-down Light card. All pawns start on the balcony above floor 1. Seat 1 (the host) starts; play goes in seat order.

**Your turn:** claim one card on your pawn's floor **or below** and move your pawn to its space (you may skip floors and move sideways, never up). Its power happens at once; a card whose power you can't complete can't be claimed. The face-down bottom card is revealed when claimed, then its power happens. Or **exit** to the bridge: 1st out gets *1st to Exit* (+2), 2nd *2nd to Exit* (+1), the last one *Last to Exit* (-1). You then stop playing. The game ends when every pawn is on the bridge.

**Scoring:** secret cards are revealed. Each tile goes to the single leader; **a tie awards nobody**.
• Most Potion +3, Fossil +4, Artifact +4, Jewel +5, Tome +6: sum of values of your cards of that suit (Wild counts for all five, two-suit cards for both).
• Most 3s +5, 4s +4, 5s +3: number of your cards showing that number.
• Most curses -3, fewest curses +1 (Radiant Hamsa -2, never below 0).
Add card prestige. Ties: fewest curses, then most tiles, else shared win.

**Special set A (default):** Amulet of Nae (send any tower card to the box, then give the Amulet to another player), Haunted Nesting Dolls (a 3, 4 and 5), Radiant Hamsa (a 5, -2 curses), Sand of Illusion (goes under a face-up 3/4/5 card of yours and doubles it), Serpent's Hourglass (Wild 1, extra turn), Tales of Myth & Magic (Jewel+Tome 6; discard a curse-free card of yours to claim it), Thief's Portal Cloak (also claim any one tower card without moving), Forged Certificate (+2 prestige).
**Set B (option):** Distillation of Prescience (peek at a secret card), Philosopher's Stone (Wild 3), Boots/Pouch/Blade (+1 prestige each), Codex of Truth (reveal your secret), Bone Crown (each other player discards a curse-free card), Vampire's Blood (may swap a curse-free card of yours with one in the tower).

**Master Thief variant:** secret cards are drafted after the tower is built, from the seat before the starting player backwards.
**Two players:** no 2nd/Last to Exit or Fewest Curses tiles; after each claim you must discard a card from the floor your pawn is on (the face-down card goes unseen)."""


PENDING_TEXTS = {
    "amulet_discard": "{who} chooses a tower card to send to the box (Amulet of Nae)",
    "amulet_give": "{who} chooses who receives the Amulet of Nae",
    "sand": "{who} chooses a card to put the Sand of Illusion under",
    "tales": "{who} chooses a haul card to discard for Tales of Myth & Magic",
    "cloak": "{who} chooses a tower card to take with the Portal Cloak",
    "distill": "{who} chooses whose face-down card to look at",
    "crown": "Bone Crown: {who} chooses a haul card to discard",
    "row_discard": "{who} must discard a card from {floor}",
    "vamp": "Vampire's Blood: {who} may swap a haul card with a tower card",
    "vamp_take": "Vampire's Blood: {who} chooses the tower card to swap for",
}


def pending_text(state: State, step: dict[str, Any]) -> str:
    """What a pending power step waits for, in words ("Ann chooses who receives the Amulet of Nae")."""
    return PENDING_TEXTS[step["k"]].format(who=player_name(state, step["seat"]),
                                           floor=floor_label(step.get("floor", 0)))


def status_line(state: State) -> str:
    """Whose turn it is and what they must decide (or who won with how much prestige)."""
    if state["phase"] == "over":
        result = final(state)
        best = winners(state, result)
        names = " and ".join(player_name(state, seat) for seat in best)
        return f"Game over: {names} win{'s' if len(best) == 1 else ''} with {result['totals'][best[0]]} prestige."
    if state["phase"] == "draft":
        draft = state["draft"]
        return f"Master Thief draft: {player_name(state, draft['order'][draft['pos']])} is choosing a secret card."
    if state["queue"]:
        return pending_text(state, state["queue"][0]) + "."
    seat = state["turn"]
    floor = state["pawns"][seat][0]
    where = "on the balcony" if floor == BALCONY else f"on {floor_label(floor)}"
    extra = " (extra turn from the Hourglass)" if state.get("bonus") else ""
    return f"{player_name(state, seat)}'s turn: thief {where}{extra}."


def card_brief(cid: int) -> str:
    """A card's suits, values and curses in brackets ("(Jewel+Tome 6, 1 curse)")."""
    card = CARDS[cid]
    suits = "Wild" if "Wild" in card["suits"] else "+".join(card["suits"]) or "no suit"
    vals = "/".join(str(v) for v in card["values"]) or "0"
    extra = ""
    if card["curses"]:
        extra += f", {card['curses']} curse" + ("s" if abs(card["curses"]) != 1 else "")
    return f"({suits} {vals}{extra})"


def _exit_label(state: State, action: Action) -> str:
    """The exit, with the exit tile it would take."""
    exited = len(state["exits"])
    players = state["n"]
    left = players - exited
    if exited == 0:
        tile = " (1st to Exit, +2)"
    elif exited == 1 and players > 2 and left > 1:
        tile = " (2nd to Exit, +1)"
    elif left == 1 and players > 2:
        tile = " (Last to Exit, -1)"
    else:
        tile = ""
    return f"Exit to the bridge{tile}"


def _space_label(verb: str) -> Callable[[State, Action], str]:
    """A label for an action naming a tower space ("Claim", "Take", ...)."""
    return lambda state, action: f"{verb} {card_label(state, action['floor'], action['slot'])}"


LABELS: dict[str, Callable[[State, Action], str]] = {
    "claim": _space_label("Claim"),
    "take": _space_label("Take"),
    "discard_tower": _space_label("Discard"),
    "swap_take": _space_label("Swap for"),
    "exit": _exit_label,
    "draft": lambda state, action: f"Keep {name(action['card'])} {card_brief(action['card'])}",
    "give": lambda state, action: f"Give the Amulet to {player_name(state, action['to'])}",
    "sand": lambda state, action: f"Put the Sand under {name(action['card'])}",
    "discard_haul": lambda state, action: f"Discard {name(action['card'])} from your haul",
    "peek": lambda state, action: f"Look at {player_name(state, action['seat'])}'s face-down card",
    "swap": lambda state, action: f"Swap away {name(action['card'])}",
    "skip": lambda state, action: "Don't swap",
}


def describe_action(state: State, seat: int, action: Action) -> str:
    """An action in words for the move list and the log ("Claim Ruby Slippers (floor 3)"), at most 80 characters."""
    label = LABELS.get(action["type"])
    return label(state, action)[:80] if label else str(action["type"])


GROUPS = {"exit": "Exit", "draft": "Secret card", "give": "Amulet", "sand": "Sand of Illusion",
          "discard_haul": "Discard from haul", "peek": "Distillation", "swap": "Vampire's Blood",
          "skip": "Vampire's Blood"}


def action_group(action: Action) -> str:
    """The heading an action is listed under in the move panel (its floor, or the power it belongs to)."""
    kind = action["type"]
    if kind in ("claim", "take", "discard_tower", "swap_take"):
        return f"Floor {action['floor'] + 1}"
    return GROUPS.get(kind, kind.capitalize())


def private_text(view: dict[str, Any]) -> str:
    """A player's private view in words: their face-down card, the draft, what they peeked at, their totals."""
    private = view.get("private") or {}
    lines = []
    if private.get("secret"):
        secret = private["secret"]
        lines.append(f"Your face-down card: **{secret['name']}** {card_brief(secret['id'])}")
    else:
        lines.append("You have no face-down card.")
    if private.get("draft_hand"):
        lines.append("Choose your secret card from: " + ", ".join(
            f"**{c['name']}** {card_brief(c['id'])}" for c in private["draft_hand"]))
    elif private.get("draft_offered"):
        lines.append("Cards you saw in the draft: " + ", ".join(c["name"] for c in private["draft_offered"]))
    for peeked in private.get("seen", []):
        lines.append(f"You looked at {peeked['name']}'s face-down card: **{peeked['card']['name']}**")
    totals = private.get("my_totals")
    if totals:
        suits = ", ".join(f"{k} {v}" for k, v in totals["suits"].items())
        nums = ", ".join(f"{k}s: {v}" for k, v in totals["numbers"].items())
        lines.append(f"Your haul with your secret: {suits}; {nums}; curses {totals['curses']}; "
                     f"card prestige {totals['card_prestige']}")
    return "\n".join(lines)


def illegal_message(state: State, seat: int, action: Action) -> str:
    """Why an action is refused (floor above the pawn, power that can't be completed, pending choice first, ...)."""
    kind = action.get("type") if isinstance(action, dict) else None
    if state["phase"] == "draft":
        return "Choose one of the secret cards in the draft hand."
    if state["queue"]:
        return "First finish the current choice: " + pending_text(state, state["queue"][0]) + "."
    if kind == "claim":
        return _refused_claim(state, seat, action)
    return "That move isn't allowed right now."


CANT_CLAIM = {"sand": "you have no face-up 3, 4 or 5 card to put it under",
              "tales": "you have no face-up card without a curse to discard",
              "distill": "no other player has a face-down card",
              "cloak": "there is no other card you could take with it"}


def _refused_claim(state: State, seat: int, action: Action) -> str:
    """Why a claim is refused: no such space, an empty one, a floor above the pawn, or a power that can't be done."""
    try:
        f, slot = int(action["floor"]), int(action["slot"])
    except (KeyError, TypeError, ValueError):
        return "Pick a card in the tower to claim."
    if not (0 <= f < FLOORS and 0 <= slot < SLOTS):
        return "There is no such space in the tower."
    cid = state["tower"][f][slot]
    if cid is None:
        return f"That space on {floor_label(f)} is empty."
    pf = state["pawns"][seat][0]
    label = card_label(state, f, slot)
    if f < pf:
        return f"You can't move up the tower: {label} is above your thief ({floor_label(pf)})."
    reason = CANT_CLAIM.get(CARDS[cid]["power"], "its power can't be done")
    return f"You can't claim {name(cid)}: {reason}."
