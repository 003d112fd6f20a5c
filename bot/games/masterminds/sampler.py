"""Masterminds: a full state consistent with one seat's view, for the search bot.

The view carries every public fact of the state as stored (``view["table"]``). Hidden from a
seat: the other players' hands (only their sizes are public), the order and content of the
Talent, Prep, Heist and Failure decks, and which interrupt another seat committed in an open
window. Unseen cards are dealt at random from all cards minus those the seat can see (its
hand, the discard piles, the board, the teams' gear, the mementos); a hand never holds an
"immediate" Prep card (those are played when drawn). Another seat that has decided in an open
window is taken to have passed: its choice is secret and most choices are passes.
"""
from __future__ import annotations

import copy
import random
from typing import Any

from .cards import CLEAR, FAILURES, HEISTS, PREP, TALENTS


def _unseen(all_ids, known: list[str], count: int, rng: random.Random) -> list[str] | None:
    rest = sorted(set(all_ids) - set(known))
    if len(rest) != count:
        return None  # the view and the card lists disagree: do not guess
    rng.shuffle(rest)
    return rest


def sample_state(engine, view: dict[str, Any], seat: int, rng: random.Random) -> dict[str, Any] | None:
    """A full state the seat cannot tell from the true one, what it cannot see dealt with ``rng``
    (None where this moment cannot be searched)."""
    if view.get("over") or "private" not in view or "table" not in view:
        return None
    state = copy.deepcopy(view["table"])
    n = len(state["names"])
    decks = view["decks"]
    priv = view["private"]
    own = [c["id"] for c in priv["hand"]]

    # Talents: the pool, the teams, the discard pile and a burned card are seen.
    known_t = list(state["pool"]) + list(state["talent_discard"])
    known_t += [e["card"] for team in state["teams"] for e in team]
    if state["phase"] == "burned" and state.get("pending"):
        known_t.append(state["pending"]["card"])
    talent = _unseen(TALENTS, known_t, decks["talent"], rng)
    # Heists: on the board and kept as mementos.
    known_h = [a for m in state["mementos"] for a in m]
    known_h += [h[k] for h in state["heists"] if h for k in ("a", "b")]
    heist = _unseen(HEISTS, known_h, decks["heist"], rng)
    # Failure cards: the discard pile and the one being resolved.
    known_f = list(state["failure_discard"])
    if state.get("test"):
        known_f.append(state["test"]["card"])
    at = state.get("attempt")
    if at and at.get("failure") and at["failure"] not in known_f:
        known_f.append(at["failure"])
    failure = _unseen(FAILURES, known_f, decks["failure"], rng)
    # Prep cards: my hand, the discard pile, gear on the teams, a card waiting for its target.
    known_p = own + list(state["prep_discard"])
    known_p += [e["gear"] for team in state["teams"] for e in team if e["gear"]]
    pend = state.get("pending") or {}
    for key in ("card", "first"):
        if pend.get(key) in PREP and pend[key] not in known_p:
            known_p.append(pend[key])
    sizes = [p["hand"] for p in view["players"]]
    prep = _unseen(PREP, known_p, decks["prep"] + sum(sizes) - sizes[seat], rng)
    if talent is None or heist is None or failure is None or prep is None:
        return None
    holdable = [p for p in prep if PREP[p]["kind"] != "immediate"]
    hands: list[list[str]] = []
    for s in range(n):
        if s == seat:
            hands.append(list(own))
            continue
        if len(holdable) < sizes[s]:
            return None
        hands.append(holdable[:sizes[s]])
        holdable = holdable[sizes[s]:]
    dealt = {p for h in hands for p in h}
    prep_deck = [p for p in prep if p not in dealt]
    rng.shuffle(prep_deck)

    window = None
    if view.get("window"):
        w = state["window"]
        done: dict[str, str | None] = {str(s): None for s in view["window"]["decided"]}
        if str(seat) in done:
            done[str(seat)] = priv.get("committed_id")
        window = {"kind": w["kind"], "seats": list(w["seats"]), "done": done}
    state.update({
        "rng": rng.getrandbits(64), "talent_deck": talent, "prep_deck": prep_deck, "heist_deck": heist,
        "failure_deck": failure, "hands": hands, "window": window,
        "stats": {"available": [], "used": [], "completions": [], "rolls": {}},
    })
    return state


def evaluate(engine, state: dict[str, Any], seat: int) -> float:
    """A playout cut short: each seat's gems at their expected end value (a colour is worth a d6,
    3.5 on average; Clear 2), turned into a chance of winning for ``seat``."""
    from bot.search import lead_value
    points = [sum(count * (2.0 if colour == CLEAR else 3.5) for colour, count in gems.items())
              for gems in state["gems"]]
    return lead_value(points, seat, 4.0)
