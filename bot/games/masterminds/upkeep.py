"""Masterminds: upkeep, the next turn, the end of the game and its scores."""
from __future__ import annotations

from typing import Any

from bot.engine import competition_ranks
from bot.rng import Rng

from . import board, effects
from .cards import CLEAR, TALENTS, prep_name
from .constants import HAND_LIMIT

# The end of a turn and the end of the game.


def _upkeep(state, events) -> None:
    seat = state["turn"]
    state["phase"] = "upkeep"
    state["pending"] = None
    for entry in list(state["teams"][seat]):
        if TALENTS[entry["card"]]["ability"] == "fixer" and len(state["hands"][seat]) < 3:
            events.append({"type": "ability", "text": f"{board._talent_name(entry['card'])} (Fixer) finds a Prep card."})
            board._tally(state, "used", "ability:Fixer")
            effects._draw_prep(state, seat, 1, events)
    for entry in state["teams"][seat]:
        if entry["injured"]:
            entry["injured"] = False
        else:
            entry["tapped"] = False
    board._refresh_pool(state, events)
    board._refresh_heists(state, events)
    state["run"] = None
    if all(heist is None for heist in state["heists"]) and not state.get("end_reason"):
        state["end_reason"] = "heists"  # no heist left to attempt (unreachable with the designed deck)
    if len(state["hands"][seat]) > HAND_LIMIT and not state.get("end_reason"):
        state["phase"] = "discard"
        return
    _next_turn(state, events)


def _next_turn(state, events) -> None:
    if state.get("end_reason"):
        return
    players = len(state["names"])
    next_seat = (state["turn"] + 1) % players
    if next_seat == state["first"]:
        if state.get("final_round"):
            events.append({"type": "end", "text": "The last round is over: the game ends."})
            state["end_reason"] = "heists"
            return
        if state["round"] >= state["options"]["round_limit"]:  # the board then reads "round 25 of 25", not 26
            events.append({"type": "end", "text": f"Round {state['round']} was the last (the round limit): the game ends."})
            state["end_reason"] = "rounds"
            return
        state["round"] += 1
    state["turn"] = next_seat
    state["phase"] = "turn"
    state["plan_left"] = 0
    state["attempt"] = None
    events.append({"type": "turn", "text": f"{board._seat_name(state, next_seat)}'s turn."})


def _finish(state, events) -> None:
    rng = Rng(state)
    values = {colour: rng.die(6) for colour in state["colours"]}
    values[CLEAR] = 2
    state["phase"] = "over"
    state["window"] = None
    state["pending"] = None
    state["test"] = None
    rows = []
    for seat in range(len(state["names"])):
        points = sum(state["gems"][seat][colour] * values[colour] for colour in values)
        rows.append({"seat": seat, "score": points, "clear": state["gems"][seat][CLEAR], "heists": len(state["mementos"][seat])})
    for row, rank in zip(rows, competition_ranks([(-row["score"], -row["clear"], -row["heists"]) for row in rows])):
        row["rank"] = rank
        row["won"] = rank == 1
    state["final"] = {"values": values, "reason": state["end_reason"], "rows": rows}
    events.append({"type": "values", "text": "Gem values: " + ", ".join(
        f"{board._seat_name(state, seat)}'s {colour} = {values[colour]}" for seat, colour in enumerate(state["colours"])) + ", Clear = 2."})
    ranked = sorted(rows, key=lambda row: row["rank"])
    events.append({"type": "over", "text": "Final scores: " + "; ".join(
        f"{board._seat_name(state, row['seat'])} {row['score']}" for row in ranked) + ". "
        + " and ".join(board._seat_name(state, row["seat"]) for row in ranked if row["won"]) + " wins!"})


def scores(state) -> list[dict[str, Any]]:
    """The final result of each seat (points, rank, gems by colour); empty until the game is over."""
    if not state.get("final"):
        return []
    values = state["final"]["values"]
    out = []
    for row in state["final"]["rows"]:
        seat = row["seat"]
        detail = ", ".join(f"{state['gems'][seat][colour]}×{colour}({values[colour]})" for colour in board._gem_colours(state) if state["gems"][seat][colour])
        out.append({"seat": seat, "score": row["score"], "rank": row["rank"], "won": row["won"],
                    "detail": (detail or "no gems") + f"; {row['heists']} heist(s)"})
    return out


def balance_tally(state, trace) -> dict[str, Any]:
    """How the game ended, which cards and mechanics were available / used, snipes and roll results."""
    stats = state.get("stats") or {"available": [], "used": [], "completions": [], "rolls": {}}
    completions = stats["completions"]
    reason = (state.get("final") or {}).get("reason") or state.get("end_reason")
    return {
        "end": {"heists": "heists completed", "bag": "bag emptied", "rounds": "round limit"}.get(reason, str(reason)),
        "available": sorted(stats["available"]),
        "used": sorted(stats["used"]),
        "completions": len(completions),
        "snipes": sum(1 for completion in completions if completion["own"] == 0),
        "rolls": dict(stats["rolls"]),
    }


def _act_discard(state, seat: int, action, events) -> None:
    """Upkeep over the hand limit: discard one card; the turn passes once the hand fits."""
    state["hands"][seat].remove(action["card"])
    state["prep_discard"].append(action["card"])
    events.append({"type": "discard", "text": f"{board._seat_name(state, seat)} discards {prep_name(action['card'])} (hand limit)."})
    if len(state["hands"][seat]) <= HAND_LIMIT:
        _next_turn(state, events)
