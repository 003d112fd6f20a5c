"""The flow of a turn: the Master Thief draft, a claim or the exit, the queue of power choices, the next thief."""
from __future__ import annotations

from bot.engine import Action, Event, State

from .board import BRIDGE, FLOORS, SLOTS, on_bridge, player_name
from .cards import CARDS, brief, name
from .claiming import claim, claimable
from .powers import FORCED_STEPS, resolve_step, skip_note, step_options
from .scoring import finish


def draft_actions(state: State, seat: int) -> list[Action]:
    """Master Thief draft: keep any card of the hand passed on."""
    return [{"type": "draft", "card": c} for c in sorted(state["draft"]["hand"])]


def draft(state: State, seat: int, action: Action) -> list[Event]:
    """Keep one card of the draft hand as the secret and pass the rest on; the last pick starts the heist."""
    cid = action["card"]
    hand = state["draft"]
    state["offered"][seat] = sorted(hand["hand"])
    hand["hand"].remove(cid)
    state["secret"][seat] = cid
    hand["pos"] += 1
    events: list[Event] = [{"type": "draft", "to": seat, "text": f"You keep **{name(cid)}** {brief(CARDS[cid])} as your secret card."}]
    who = player_name(state, seat)
    if hand["pos"] < len(hand["order"]):
        nxt = hand["order"][hand["pos"]]
        events.append({"type": "draft", "text": f"{who} keeps a secret card and passes "
                                                f"{len(hand['hand'])} cards to {player_name(state, nxt)}."})
        return events
    left = len(hand["hand"])
    state["box_unseen"] += hand["hand"]
    state["draft"] = None
    state["phase"] = "play"
    state["turn"] = 0
    events.append({"type": "draft", "text": f"{who} keeps the last secret card; "
                                            f"{left} card{'s' if left != 1 else ''} go back to the box unseen. "
                                            f"{player_name(state, 0)} starts the heist."})
    return events


def turn_actions(state: State, seat: int) -> list[Action]:
    """Every claimable card on the pawn's floor or below, then the exit."""
    actions: list[Action] = []
    low = max(0, state["pawns"][seat][0])
    for floor in range(low, FLOORS):
        for slot in range(SLOTS):
            if claimable(state, seat, floor, slot):
                actions.append({"type": "claim", "floor": floor, "slot": slot})
    actions.append({"type": "exit"})
    return actions


def claim_turn(state: State, seat: int, action: Action) -> list[Event]:
    """A claim: the card and its power, then (two players) a discard from the pawn's floor."""
    events: list[Event] = []
    claim(state, seat, action["floor"], action["slot"], True, events)
    if state["n"] == 2:
        state["queue"].append({"k": "row_discard", "seat": seat, "floor": state["pawns"][seat][0]})
    run_queue(state, events)
    return events


def exit_turn(state: State, seat: int, action: Action) -> list[Event]:
    """The thief leaves by the bridge and the turn passes."""
    events: list[Event] = []
    exit_tower(state, seat, events)
    end_turn(state, events)
    return events


def pending_actions(state: State, seat: int) -> list[Action]:
    """The choices of the power step decided now."""
    return step_options(state, state["queue"][0])


def answer_pending(state: State, seat: int, action: Action) -> list[Event]:
    """Resolve the step decided now, then whatever follows without a real choice."""
    events: list[Event] = []
    step = state["queue"].pop(0)
    resolve_step(state, step, action, events)
    run_queue(state, events)
    return events


def run_queue(state: State, events: list[Event]) -> None:
    """Resolve queued steps that need no decision; stop at the first real choice, else end the turn."""
    while state["queue"]:
        step = state["queue"][0]
        options = step_options(state, step)
        if not options:
            state["queue"].pop(0)
            skip_note(state, step, events)
            continue
        if len(options) == 1 and step["k"] in FORCED_STEPS:
            state["queue"].pop(0)
            resolve_step(state, step, options[0], events)
            continue
        return
    end_turn(state, events)


def exit_tower(state: State, seat: int, events: list[Event]) -> None:
    """Move the pawn to the bridge and say which exit tile it takes."""
    state["pawns"][seat] = [BRIDGE, -1]
    state["exits"].append(seat)
    out = len(state["exits"])
    who = player_name(state, seat)
    if out == 1:
        text = f"{who} leaves by the bridge first and takes **1st to Exit** (+2 prestige)."
    elif out == 2 and state["n"] > 2:
        text = f"{who} leaves by the bridge second and takes **2nd to Exit** (+1 prestige)."
    elif out == state["n"] and state["n"] > 2:
        text = f"{who} is the last thief out and takes **Last to Exit** (-1 prestige)."
    else:
        text = f"{who} leaves by the bridge."
    events.append({"type": "exit", "text": text})


def end_turn(state: State, events: list[Event]) -> None:
    """The game ends when all are out; else the Hourglass's extra turn, else the next thief still inside."""
    players = state["n"]
    if all(on_bridge(state, seat) for seat in range(players)):
        finish(state, events)
        return
    seat = state["turn"]
    state["bonus"] = False
    if state["extra"] and not on_bridge(state, seat):
        state["extra"] = False
        state["bonus"] = True
        events.append({"type": "turn", "text": f"{player_name(state, seat)} takes another turn (Hourglass)."})
        return
    state["extra"] = False
    for i in range(1, players + 1):
        nxt = (seat + i) % players
        if not on_bridge(state, nxt):
            state["turn"] = nxt
            return
