"""The Wizard's Tower in words: the rules summary, the status line, move labels and groups, refusals, the DM text."""
from __future__ import annotations

import re
from typing import Any, Callable

from bot.engine import Action, State

from .board import BALCONY, FLOORS, SLOTS, card_label, floor_label, is_hidden, player_name
from .cards import CARDS, brief, curse_words, named
from .scoring import final, winners

SUMMARY = """**Goal:** leave the tower with the most **prestige** (★). Prestige comes from the scoring tiles (each goes to the one player who leads it at the end) and a few cards.

**Setup:** 8 floors of 5 cards: 2 floors of Light cards on top, 6 of Dark cards below; the last card of the bottom floor is face-down. Each thief gets one secret face-down Light card that counts for them at the end. All thieves start on the balcony above floor 1. Seat 1 (the host) starts; play goes in seat order.

**Your turn:** claim one card on your thief's floor **or below**: it joins your haul (your cards, face-up) and your thief moves to its space. You may move sideways or skip floors, **never up**: cards above your thief are gone for you. A card's power (✦) happens at once; a card whose power you can't complete can't be claimed. Or **exit** by the bridge: 1st out gets *1st to Exit* (+2), 2nd *2nd to Exit* (+1), the last one *Last to Exit* (-1); then you stop playing. The game ends when every thief is out.

**Scoring:** secret cards are revealed. Each tile goes to the single leader; **a tie gives it to nobody**.
• Most Potion +3, Fossil +4, Artifact +4, Jewel +5, Tome +6: the sum of the values of your cards of that suit (an any-suit card counts in all five, a two-suit card in both).
• Most 3s +5, 4s +4, 5s +3: how many of your cards show that number.
• Most curses (☠) -3, fewest curses +1 (Radiant Hamsa -2, never below 0).
Add the prestige printed on cards. Ties: fewest curses, then most tiles, else a shared win.

**Special set A (default):** Amulet of Nae (send any tower card to the box, then give the Amulet and its 2 curses to another player), Haunted Nesting Dolls (a 3, 4 and 5), Radiant Hamsa (a 5, -2 curses), Sand of Illusion (goes under a face-up 3/4/5 card of yours and doubles it), Serpent's Hourglass (any suit 1, extra turn), Tales of Myth & Magic (Jewel+Tome 6; pay a curse-free card of yours to claim it), Thief's Portal Cloak (also claim any one tower card without moving), Forged Certificate (+2 prestige).
**Set B (option):** Distillation of Prescience (peek at a secret card), Philosopher's Stone (any suit 3), Boots/Pouch/Blade (+1 prestige each), Codex of Truth (reveal your secret), Bone Crown (each other player discards a curse-free card), Vampire's Blood (may swap a curse-free card of yours with one in the tower).

**Master Thief variant:** secret cards are drafted after the tower is built, from the seat before the starting player backwards.
**Two players:** no 2nd/Last to Exit or Fewest Curses tiles; after each claim you must send a card of your thief's floor to the box (the face-down card goes unseen). Tuned rules (the default): the second player starts with +2 prestige; `rules: rulebook` plays without it."""


PENDING_TEXTS = {
    "amulet_discard": "{who} picks a tower card to send to the box (Amulet of Nae)",
    "amulet_give": "{who} picks who gets the Amulet of Nae and its 2 curses",
    "sand": "{who} picks a haul card to put the Sand of Illusion under (it will count twice)",
    "tales": "{who} pays for Tales of Myth & Magic: a curse-free haul card goes to the box",
    "cloak": "{who} picks any tower card to take with the Portal Cloak, without moving",
    "distill": "{who} picks whose face-down card to look at (Distillation of Prescience)",
    "crown": "Bone Crown: {who} must send a curse-free haul card to the box",
    "row_discard": "{who} must send a card of {floor} to the box (two-player rule)",
    "vamp": "Vampire's Blood: {who} may swap a curse-free haul card for one in the tower",
    "vamp_take": "Vampire's Blood: {who} picks the tower card to take in the swap",
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


def exit_tile(state: State) -> tuple[str, int] | None:
    """The exit tile the thief whose turn it is would take by leaving now (label, prestige), or None."""
    exited = len(state["exits"])
    players = state["n"]
    left = players - exited
    if exited == 0:
        return "1st to Exit", 2
    if exited == 1 and players > 2 and left > 1:
        return "2nd to Exit", 1
    if left == 1 and players > 2:
        return "Last to Exit", -1
    return None


def _exit_label(state: State, action: Action) -> str:
    """The exit, with the exit tile it would take."""
    tile = exit_tile(state)
    took = f": take {tile[0]} ({tile[1]:+d} prestige)" if tile else ""
    return f"Leave by the bridge{took}; no more turns"


def _space(state: State, floor: int, slot: int) -> str:
    """A tower card with its brief ("Ruby Slippers (Jewel 4)"; the face-down card unnamed)."""
    if is_hidden(floor, slot):
        return "the face-down card (a Dark card nobody has seen)"
    return named(state["tower"][floor][slot])


def _claim_label(state: State, action: Action) -> str:
    """A claim: the card, what it is worth, and where the thief goes (for good: never back up)."""
    return f"Claim {_space(state, action['floor'], action['slot'])}, move to {floor_label(action['floor'])}"


def _discard_label(state: State, action: Action) -> str:
    """A tower card sent to the box."""
    floor, slot = action["floor"], action["slot"]
    if is_hidden(floor, slot):
        return f"Discard the face-down card unseen ({floor_label(floor)})"
    return f"Discard {_space(state, floor, slot)} from {floor_label(floor)}"


LABELS: dict[str, Callable[[State, Action], str]] = {
    "claim": _claim_label,
    "take": lambda state, action: f"Take {_space(state, action['floor'], action['slot'])} without moving",
    "discard_tower": _discard_label,
    "swap_take": lambda state, action: f"Swap for {_space(state, action['floor'], action['slot'])} "
                                       f"({floor_label(action['floor'])})",
    "exit": _exit_label,
    "draft": lambda state, action: f"Keep {named(action['card'])} face-down",
    "give": lambda state, action: f"Give the Amulet (2 curses) to {player_name(state, action['to'])}",
    "sand": lambda state, action: f"Put the Sand under {named(action['card'])}",
    "discard_haul": lambda state, action: f"Discard {named(action['card'])} from your haul",
    "peek": lambda state, action: f"Look at {player_name(state, action['seat'])}'s face-down card",
    "swap": lambda state, action: f"Swap away {named(action['card'])}",
    "skip": lambda state, action: "Don't swap",
}


def describe_action(state: State, seat: int, action: Action) -> str:
    """An action in words for the move list and the log ("Claim Ruby Slippers (Jewel 4), move to floor 3"),
    at most 80 characters (a longer label drops its brief, then is cut at a word)."""
    label = LABELS.get(action["type"])
    if label is None:
        return str(action["type"])
    text = label(state, action)
    if len(text) > 80:
        text = re.sub(r" \([^()]*\)", "", text, count=1)
    return text if len(text) <= 80 else text[:79].rsplit(" ", 1)[0] + "…"


GROUPS = {"exit": "Leave the tower", "draft": "Your secret card", "give": "Amulet of Nae",
          "sand": "Sand of Illusion", "discard_haul": "Discard from your haul", "peek": "Distillation of Prescience",
          "swap": "Vampire's Blood", "skip": "Vampire's Blood"}
SPACE_GROUPS = {"claim": "Floor {n}: claim and move there (never back up)", "take": "Portal Cloak: floor {n}",
                "discard_tower": "Send to the box: floor {n}", "swap_take": "Vampire's Blood: floor {n}"}


def action_group(action: Action) -> str:
    """The heading an action is listed under in the move panel (its floor, or the power it belongs to)."""
    kind = action["type"]
    if kind in SPACE_GROUPS:
        return SPACE_GROUPS[kind].format(n=action["floor"] + 1)
    return GROUPS.get(kind, kind.capitalize())


def totals_words(totals: dict[str, Any]) -> str:
    """A haul's figures for the scoring tiles in words: suit sums, cards showing 3, 4 and 5, curses."""
    suits = ", ".join(f"{k} {v}" for k, v in totals["suits"].items())
    numbers = totals["numbers"]
    return (f"suit values {suits}; cards showing a 3: {numbers['3']}, a 4: {numbers['4']}, a 5: {numbers['5']}; "
            f"{curse_words(totals['curses'])}")


def leads_words(standing: dict[str, Any], seat: int) -> str:
    """The scoring tiles ``seat`` leads in a standing ("Most Tome (+6), Most 4s (+4)"; "none")."""
    led = [f"{a['label']} ({a['prestige']:+d})" for a in standing["awards"] if a["seat"] == seat]
    return ", ".join(led) or "none"


def private_text(view: dict[str, Any]) -> str:
    """A player's private view in words: their face-down card, the draft, what they peeked at, their totals and
    the scoring tiles they would win if the game ended now."""
    private = view.get("private") or {}
    lines = []
    if private.get("secret"):
        secret = private["secret"]
        lines.append(f"Your face-down card: **{secret['name']}** {brief(secret)}. Only you see it; it counts for "
                     "you at the end.")
    else:
        lines.append("You have no face-down card.")
    if private.get("draft_hand"):
        lines.append("Choose your secret card from: " + ", ".join(
            f"**{c['name']}** {brief(c)}" for c in private["draft_hand"]))
    elif private.get("draft_offered"):
        lines.append("Cards you saw in the draft: " + ", ".join(f"{c['name']} {brief(c)}"
                                                                for c in private["draft_offered"]))
    for peeked in private.get("seen", []):
        lines.append(f"You looked at {peeked['name']}'s face-down card: **{peeked['card']['name']}** "
                     f"{brief(peeked['card'])}")
    totals = private.get("my_totals")
    if totals:
        lines.append(f"Your haul with your face-down card: {totals_words(totals)}; prestige on your cards "
                     f"{totals['card_prestige']:+d}.")
    standing = private.get("standing")
    if standing and view.get("phase") not in ("over", "draft"):
        seat = private["seat"]
        lines.append(f"If the game ended now (counting what you know of face-down cards) you would take: "
                     f"{leads_words(standing, seat)}; your prestige: {standing['totals'][seat]}.")
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
    return f"You can't claim {named(cid)}: {reason}."
