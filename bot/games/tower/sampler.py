"""The Wizard's Tower: a full state consistent with one seat's view, for the search bot.

Hidden from a seat: the other thieves' face-down secrets (Light cards) it has not peeked
at, the face-down bottom card (a Dark card), the cards returned to the box unseen and,
in the Master Thief draft, the hand another seat is drafting from. They are dealt at
random from the cards this seat has not seen, Light where only Light can be, Dark where
only Dark can be. What other seats peeked at is not known and left empty.
"""
from __future__ import annotations

import random
from typing import Any

from . import cards
from .bot_player import reckon, tile_plan
from .engine import BALCONY, BRIDGE, HIDDEN
from .scoring import head_start


def _queue(view: dict[str, Any]) -> list[dict[str, Any]] | None:
    pending = view["pending"]
    if pending is None:
        return []
    kind, seat = pending["kind"], pending["seat"]
    if kind == "amulet_discard":
        return [{"k": kind, "seat": seat}, {"k": "amulet_give", "seat": seat, "card": cards.AMULET}]
    if kind == "amulet_give":
        return [{"k": kind, "seat": seat, "card": cards.AMULET}]
    if kind == "row_discard":
        return [{"k": kind, "seat": seat, "floor": pending["floor"]}]
    if kind == "vamp_take":
        return [{"k": kind, "seat": seat, "give": pending["give"]}]
    if kind == "crown":  # every other seat in turn from the crown's owner; ``seat`` is deciding now
        by, n = view["turn"], view["n"]
        order = [(by + i) % n for i in range(1, n)]
        return [{"k": "crown", "seat": s, "by": by} for s in order[order.index(seat):]]
    if kind in ("sand", "tales", "cloak", "distill", "vamp"):
        return [{"k": kind, "seat": seat}]
    return None  # a step this sampler does not know: not searchable now


def _tower_cards(view: dict[str, Any], known: set[int]) -> tuple[list[list[int | None]], bool]:
    """The tower's face-up cards (noted as seen) and whether the face-down bottom card is on it."""
    tower: list[list[int | None]] = []
    hidden_slot = False
    for f, row in enumerate(view["tower"]):
        out: list[int | None] = []
        for s, cell in enumerate(row):
            if cell is None:
                out.append(None)
            elif "card" in cell:
                out.append(cell["card"]["id"])
                known.add(cell["card"]["id"])
            else:
                hidden_slot = (f, s) == HIDDEN
                out.append(None)
        tower.append(out)
    return tower, hidden_slot


def _secrets(view: dict[str, Any], seat: int) -> tuple[list[int | None], list[list[int]]]:
    """The secrets the seat knows (its own and those it peeked at) and its peeks as (seat, card) pairs."""
    priv = view["private"]
    secret: list[int | None] = [None] * view["n"]
    if priv["secret"] is not None:
        secret[seat] = priv["secret"]["id"]
    seen_by_me = []
    for s in priv["seen"]:
        seen_by_me.append([s["seat"], s["card"]["id"]])
        if view["hauls"][s["seat"]]["secret"] is not None:
            secret[s["seat"]] = s["card"]["id"]
    return secret, seen_by_me


def _draft(view: dict[str, Any], known: set[int]) -> dict[str, Any] | None:
    """The Master Thief draft as the seat knows it (the hand only if it is the seat's, noted as seen)."""
    if view["phase"] != "draft":
        return None
    d = view["draft"]
    hand: list[int] | None = None
    if view["private"]["draft_hand"] is not None:
        hand = [c["id"] for c in view["private"]["draft_hand"]]
        known.update(hand)
    return {"order": list(d["order"]), "pos": d["order"].index(d["seat"]), "hand": hand, "size": d["hand_size"]}


def _deal_unseen(view: dict[str, Any], used: list[int], known: set[int], secret: list[int | None],
                 draft: dict[str, Any] | None, tower: list[list[int | None]], hidden_slot: bool,
                 rng: random.Random) -> list[int] | None:
    """Deal the unseen Light cards to secrets and the draft hand, a Dark one to the bottom; the rest is the box."""
    light = [c for c in cards.LIGHT if c not in known]
    dark = [c for c in list(cards.DARK_PLAIN) + list(used) if c not in known]
    rng.shuffle(light)
    rng.shuffle(dark)
    for s in range(view["n"]):
        if view["hauls"][s]["secret"] is not None and secret[s] is None:
            if not light:
                return None
            secret[s] = light.pop()
    if draft is not None and draft["hand"] is None:
        if len(light) < draft["size"]:
            return None
        draft["hand"] = sorted(light[:draft["size"]])
        light = light[draft["size"]:]
    if hidden_slot:
        if not dark:
            return None
        tower[HIDDEN[0]][HIDDEN[1]] = dark.pop()
    box_unseen = light + dark
    rng.shuffle(box_unseen)
    if len(box_unseen) != view["box_unseen_count"]:
        return None  # the view and the card list disagree: do not guess
    return box_unseen


def _pawns(view: dict[str, Any]) -> list[list[int]]:
    """Each pawn's place as the state stores it: on the balcony, the bridge or a floor's slot."""
    return [[BALCONY, -1] if p["where"] == "balcony" else [BRIDGE, -1] if p["where"] == "bridge"
            else [p["floor"], p["slot"]] for p in view["pawns"]]


def sample_state(engine, view: dict[str, Any], seat: int, rng: random.Random) -> dict[str, Any] | None:
    """A full state the seat cannot tell from the true one, what it cannot see dealt with ``rng``
    (None where this moment cannot be searched)."""
    if view["phase"] == "over" or "private" not in view:
        return None
    queue = _queue(view)
    if queue is None:
        return None
    n, priv = view["n"], view["private"]
    options = {key: view["options"][key] for key in ("special_set", "master_thief", "rules") if key in view["options"]}
    used, unused = (cards.SET_A, cards.SET_B) if options["special_set"] == "A" else (cards.SET_B, cards.SET_A)
    known: set[int] = set(unused)
    tower, hidden_slot = _tower_cards(view, known)
    hauls = [[c["id"] for c in h["cards"]] for h in view["hauls"]]
    for h in hauls:
        known.update(h)
    box = [c["id"] for c in view["box"]]
    known.update(box)
    secret, seen_by_me = _secrets(view, seat)
    known.update(c for c in secret if c is not None)
    offered: list[list[Any]] = [[] for _ in range(n)]
    offered[seat] = [c["id"] for c in priv["draft_offered"]]
    draft = _draft(view, known)
    box_unseen = _deal_unseen(view, used, known, secret, draft, tower, hidden_slot, rng)
    if box_unseen is None:
        return None
    if draft is not None:
        draft.pop("size")
    sand = [h["sand_under"] for h in view["hauls"] if h["sand_under"] is not None]
    seen: list[list[Any]] = [[] for _ in range(n)]
    seen[seat] = seen_by_me
    return {
        "names": list(view["names"]), "rng": rng.getrandbits(64), "n": n, "options": options,
        "phase": view["phase"], "tower": tower, "pawns": _pawns(view), "hauls": hauls, "secret": secret,
        "revealed": [h["revealed"] for h in view["hauls"]], "sand_target": sand[0] if sand else None,
        "box": box, "box_unseen": box_unseen, "out_of_play": list(unused), "draft": draft, "offered": offered,
        "seen": seen, "turn": view["turn"], "exits": list(view["exits"]), "queue": queue,
        "extra": view["extra_turn"], "recent": list(view["recent"]),
        "bonus": "extra turn from the Hourglass" in (view.get("status") or ""),
        **({"head_start": list(view["head_start"])} if "head_start" in view else {}),
    }


# Logistic weights for a seat's chance of winning over ``features``, fit on 91,365 seat-moments of 2,000
# seeded normal-bot games (3 and 4 players; ``python -m tools.fit_tower``): held-out log-loss 0.506,
# against 0.645 for the hauls as they stand (``hauls_evaluate``), 0.539 for a fit on the score lead
# alone, 0.570 for the base rate and 0.693 for a coin.
_WEIGHTS = (-0.507, 2.749, 0.084, 1.859, 0.291, -0.344, -0.312, 0.803, 0.2, 3.51, 0.013)
_BIAS = -1.414
FEATURES = ("score lead", "score lead late", "expected lead", "expected lead late", "in the tower", "rivals in the tower",
            "cards within reach", "reach over the rival", "to act", "one in n", "first exit open")

_EXIT_TILES = {t["key"]: t["prestige"] for t in cards.TILES if t["kind"] == "exit"}


def _expected(state: dict[str, Any], hauls: list[list[int]]) -> list[float]:
    """Each seat's prestige as the heuristic bot reckons it: its cards' own, each scoring tile times a smooth
    chance of leading it, and the exit tiles taken so far (the last one to whoever alone is still inside)."""
    n = state["n"]
    figures = [cards.haul_figures(tuple(h), state["sand_target"]) for h in hauls]
    plan = tile_plan(n)
    start = head_start(state)
    out = [reckon(figures[s], [f[0] for i, f in enumerate(figures) if i != s], plan) + start[s] for s in range(n)]
    in_play = {t["key"] for t in cards.tiles_in_play(n)}
    exits = state["exits"]
    for place, key in enumerate(("first", "second")):
        if len(exits) > place and key in in_play:
            out[exits[place]] += _EXIT_TILES[key]
    inside = [s for s in range(n) if state["pawns"][s][0] != BRIDGE]
    if len(inside) == 1 and "last" in in_play:
        out[inside[0]] += _EXIT_TILES["last"]
    return out


def table_features(engine, state: dict[str, Any]) -> list[tuple[float, ...]]:
    """``features`` of every seat, worked out together (names in ``FEATURES``)."""
    n = state["n"]
    hauls = [list(state["hauls"][s]) + ([state["secret"][s]] if state["secret"][s] is not None else [])
             for s in range(n)]
    totals = cards.final_scores(hauls, state["sand_target"], state["exits"], head_start(state))["totals"]
    expected = _expected(state, hauls)
    counts = [sum(1 for c in row if c is not None) for row in state["tower"]]
    left = sum(counts)
    late = 1 - left / 40
    inside = [state["pawns"][s][0] != BRIDGE for s in range(n)]
    reach = [sum(counts[max(state["pawns"][s][0], 0):]) if inside[s] else 0 for s in range(n)]
    acting = engine.to_act(state)
    rows: list[tuple[float, ...]] = []
    for s in range(n):
        others = [o for o in range(n) if o != s]
        rival = max(others, key=lambda o: (expected[o], -o))
        lead = (expected[s] - expected[rival]) / 10
        score = (totals[s] - max(totals[o] for o in others)) / 10
        rows.append((score, score * late, lead, lead * late, float(inside[s]),
                     sum(inside[o] for o in others) / (n - 1), reach[s] / 20, (reach[s] - reach[rival]) / 20,
                     1.0 if acting and acting[0] == s else 0.0, 1 / n,
                     1.0 if inside[s] and not state["exits"] else 0.0))
    return rows


def features(engine, state: dict[str, Any], seat: int) -> tuple[float, ...]:
    """What ``seat``'s chance is judged on, each scaled to about -1..1 (names in ``FEATURES``): its lead in
    prestige over the best other haul as the game stands and as the heuristic reckons it (worth more as the
    tower empties), whether it and its rivals are still inside, the cards still within its reach and its
    rival's, whether it acts now, the table's size and whether the first exit tile is still on offer."""
    return table_features(engine, state)[seat]


def chances(engine, state: dict[str, Any]) -> list[float]:
    """Every seat's chance of winning from the fit, normalised to sum to 1 (one winner, ties aside)."""
    from bot.search.logistic import shared_chances
    return shared_chances(_BIAS, _WEIGHTS, table_features(engine, state))


def evaluate(engine, state: dict[str, Any], seat: int) -> float:
    """A playout cut short: ``seat``'s chance of winning, a logistic fit over ``features`` on normal-bot
    games (3-4 players), normalised across the seats."""
    return chances(engine, state)[seat]


def hauls_evaluate(engine, state: dict[str, Any], seat: int) -> float:
    """The judgement before the fit: the hauls scored as if the game ended now (cards, scoring tiles, the
    exits so far), turned into a chance of winning for ``seat``."""
    from bot.search import lead_value
    hauls = [list(state["hauls"][s]) + ([state["secret"][s]] if state["secret"][s] is not None else [])
             for s in range(state["n"])]
    final = cards.final_scores(hauls, state["sand_target"], state["exits"], head_start(state))
    return lead_value([float(t) for t in final["totals"]], seat, 3.0)
