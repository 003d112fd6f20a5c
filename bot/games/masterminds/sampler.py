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

from .calc import gem_points
from .cards import CLEAR, FAILURES, HEISTS, PREP, TALENTS


def _unseen(all_ids, known: list[str], count: int, rng: random.Random) -> list[str] | None:
    rest = sorted(set(all_ids) - set(known))
    if len(rest) != count:
        return None  # the view and the card lists disagree: do not guess
    rng.shuffle(rest)
    return rest


def _known_talents(state: dict[str, Any]) -> list[str]:
    """The Talent cards every seat sees: the pool, the teams, the discard pile and a burned card."""
    known = list(state["pool"]) + list(state["talent_discard"])
    known += [e["card"] for team in state["teams"] for e in team]
    if state["phase"] in ("burned", "replace") and state.get("pending"):
        known.append(state["pending"]["card"])  # drawn after a burn, or being hired
    return known


def _known_heists(state: dict[str, Any]) -> list[str]:
    """The Heist cards every seat sees: on the board and kept as mementos."""
    known = [a for m in state["mementos"] for a in m]
    known += [h[k] for h in state["heists"] if h for k in ("a", "b")]
    return known


def _known_failures(state: dict[str, Any]) -> list[str]:
    """The Failure cards every seat sees: the discard pile and the one being resolved."""
    known = list(state["failure_discard"])
    if state.get("test"):
        known.append(state["test"]["card"])
    at = state.get("attempt")
    if at and at.get("failure") and at["failure"] not in known:
        known.append(at["failure"])
    return known


def _known_prep(state: dict[str, Any], own: list[str]) -> list[str]:
    """The Prep cards the seat sees: its hand, the discard pile, gear on the teams, a card awaiting its target
    or its gem."""
    known = own + list(state["prep_discard"])
    known += [e["gear"] for team in state["teams"] for e in team if e["gear"]]
    pend = state.get("pending") or {}
    for key in ("card", "first"):
        if pend.get(key) in PREP and pend[key] not in known:
            known.append(pend[key])
    return known


def _deal_hands(prep: list[str], own: list[str], sizes: list[int], seat: int) -> list[list[str]] | None:
    """Every seat's hand: the seat's own, the others dealt in order from the holdable unseen Prep cards."""
    holdable = [p for p in prep if PREP[p]["kind"] != "immediate"]
    hands: list[list[str]] = []
    for s in range(len(sizes)):
        if s == seat:
            hands.append(list(own))
            continue
        if len(holdable) < sizes[s]:
            return None
        hands.append(holdable[:sizes[s]])
        holdable = holdable[sizes[s]:]
    return hands


def _window(view: dict[str, Any], state: dict[str, Any], seat: int) -> dict[str, Any] | None:
    """The open interrupt window as the seat knows it: the others who decided are taken to have passed."""
    if not view.get("window"):
        return None
    w = state["window"]
    done: dict[str, str | None] = {str(s): None for s in view["window"]["decided"]}
    if str(seat) in done:
        done[str(seat)] = view["private"].get("committed_id")
    return {"kind": w["kind"], "seats": list(w["seats"]), "done": done}


def sample_state(engine, view: dict[str, Any], seat: int, rng: random.Random) -> dict[str, Any] | None:
    """A full state the seat cannot tell from the true one, what it cannot see dealt with ``rng``
    (None where this moment cannot be searched)."""
    if view.get("over") or "private" not in view or "table" not in view:
        return None
    state = copy.deepcopy(view["table"])
    n = len(state["names"])
    decks = view["decks"]
    own = [c["id"] for c in view["private"]["hand"]]
    talent = _unseen(TALENTS, _known_talents(state), decks["talent"], rng)
    heist = _unseen(HEISTS, _known_heists(state), decks["heist"], rng)
    failure = _unseen(FAILURES, _known_failures(state), decks["failure"], rng)
    sizes = [p["hand"] for p in view["players"]]
    prep = _unseen(PREP, _known_prep(state, own), decks["prep"] + sum(sizes) - sizes[seat], rng)
    if talent is None or heist is None or failure is None or prep is None:
        return None
    hands = _deal_hands(prep, own, sizes[:n], seat)
    if hands is None:
        return None
    dealt = {p for h in hands for p in h}
    prep_deck = [p for p in prep if p not in dealt]
    rng.shuffle(prep_deck)
    state.update({
        "rng": rng.getrandbits(64), "talent_deck": talent, "prep_deck": prep_deck, "heist_deck": heist,
        "failure_deck": failure, "hands": hands, "window": _window(view, state, seat),
        "stats": {"available": [], "used": [], "completions": [], "rolls": {}},
    })
    return state


def evaluate(engine, state: dict[str, Any], seat: int) -> float:
    """A playout cut short: each seat's gems at their expected end value (a colour is worth a d6,
    3.5 on average; Clear 2), turned into a chance of winning for ``seat``."""
    from bot.search import lead_value
    points = [gem_points(gems, CLEAR)[2] for gems in state["gems"]]
    return lead_value(points, seat, 4.0)
