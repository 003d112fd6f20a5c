"""A greedy bot for The Wizard's Tower.

It works from ``engine.view(state, seat)`` only (its own secret, what it peeked at,
the face-up tower and hauls), never from the full state. Each option is scored by a
smooth estimate of the final prestige: for every scoring tile, the chance of leading
it (a logistic curve of the margin over the best rival), times the tile's prestige,
plus card prestige, minus the cards it could no longer reach after moving down."""
from __future__ import annotations

import math
import random
from typing import Any, Callable

from . import cards
from .cards import CARDS

SCALE = {"suit": 2.5, "number": 0.8, "curses": 0.8}
FORGONE = 0.12      # cost of each tower card left above the pawn for good
STAY_BONUS = 0.9    # rough value of still being in the tower with cards to take
EXIT_BASE = 0.15    # leave when the best claim is worth less than this ...
EXIT_TILE_WEIGHT = 0.6  # ... plus this share of the exit tile still on offer


def _sig(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-x))


class _Worth(dict):
    """One scoring tile's expected prestige by margin over the best rival: its prestige times the
    chance of leading it (a logistic curve), worked out once per margin (margins are few)."""

    def __init__(self, tile: dict[str, Any]) -> None:
        super().__init__()
        self.prestige = tile["prestige"]
        self.scale = SCALE[tile["metric"]]

    def __missing__(self, margin: int) -> float:
        worth = self[margin] = self.prestige * _sig((margin - 0.5) / self.scale)
        return worth


_WORTH = {t["key"]: _Worth(t) for t in cards.SCORING_TILES}


Plan = list[tuple[bool, bool, "_Worth | None"]]


def tile_plan(players: int) -> Plan:
    """Every tile of ``cards.SCORING_TILES`` as (most or fewest, a suit, its worth; None when out of play)."""
    in_play = {t["key"] for t in cards.tiles_in_play(players)}
    return [(t["kind"] == "most", t["metric"] == "suit", _WORTH[t["key"]] if t["key"] in in_play else None)
            for t in cards.SCORING_TILES]


def reckon(mine: tuple[tuple[int, ...], int], others: list[tuple[int, ...]], plan: Plan) -> float:
    """The prestige a haul with figures ``mine`` (``cards.haul_figures``) can expect against hauls with figures
    ``others``: its cards' own, plus each scoring tile's prestige times the chance of leading it."""
    figures, prestige = mine
    total = float(prestige)
    for (most, suit, worth), m, best, least in zip(plan, figures, map(max, zip(*others)), map(min, zip(*others))):
        if worth is None:
            continue
        margin = m - best if most else least - m
        if suit and not m and margin <= 0:
            continue
        total += worth[margin]
    return total


class Model:
    """What one seat believes about every haul."""

    def __init__(self, view: dict[str, Any], seat: int) -> None:
        self.v = view
        self.seat = seat
        self.n = view["n"]
        priv = view["private"]
        self.hauls: list[list[int]] = [[c["id"] for c in h["cards"]] for h in view["hauls"]]
        if priv["secret"]:
            self.hauls[seat].append(priv["secret"]["id"])
        for s in priv["seen"]:
            if view["hauls"][s["seat"]]["secret"] is not None:
                self.hauls[s["seat"]].append(s["card"]["id"])
        sand = [h["sand_under"] for h in view["hauls"] if h["sand_under"] is not None]
        self.sand = sand[0] if sand else None
        self.tiles = [t for t in cards.tiles_in_play(self.n) if t["kind"] != "exit"]
        self.plan = tile_plan(self.n)
        self.active = [p["where"] != "bridge" for p in view["pawns"]]
        self._base: list[tuple[tuple[int, ...], int]] | None = None

    def value(self, hauls: list[list[int]] | None = None, sand: int | None = -1, who: int | None = None) -> float:
        """The prestige ``who`` can expect: their cards' own plus each scoring tile times their chance to win it."""
        who = self.seat if who is None else who
        if hauls is None and sand == -1:
            figures = self._figures()
        else:
            hauls = self.hauls if hauls is None else hauls
            sand = self.sand if sand == -1 else sand
            figures = [cards.haul_figures(tuple(h), sand) for h in hauls]
        return self._score(figures[who], [f[0] for i, f in enumerate(figures) if i != who])

    def value_with(self, seat: int, cid: int, remove: int | None = None, who: int | None = None) -> float:
        """``value(with_card(seat, cid, remove), who=who)``, rescoring only the haul that changed."""
        who = self.seat if who is None else who
        haul = self.hauls[seat] + [cid]
        if remove is not None and remove in haul:
            haul.remove(remove)
        changed = cards.haul_figures(tuple(haul), self.sand)
        figures = self._figures()
        if seat == who:
            return self._score(changed, [f[0] for i, f in enumerate(figures) if i != who])
        return self._score(figures[who], [changed[0] if i == seat else f[0] for i, f in enumerate(figures)
                                          if i != who])

    def _figures(self) -> list[tuple[tuple[int, ...], int]]:
        """Every haul's figures as this seat believes them (worked out once)."""
        if self._base is None:
            self._base = [cards.haul_figures(tuple(h), self.sand) for h in self.hauls]
        return self._base

    def _score(self, mine: tuple[tuple[int, ...], int], others: list[tuple[int, ...]]) -> float:
        """The expected prestige of a haul with figures ``mine`` against hauls with figures ``others``."""
        return reckon(mine, others, self.plan)

    def with_card(self, seat: int, cid: int, remove: int | None = None) -> list[list[int]]:
        """The hauls if ``seat`` took card ``cid`` (and gave up ``remove``); only that seat's list is new."""
        hauls = list(self.hauls)
        mine = hauls[seat] = self.hauls[seat] + [cid]
        if remove is not None and remove in mine:
            mine.remove(remove)
        return hauls


def _unknown_dark(view: dict, model: Model) -> list[int]:
    """Dark cards of the set in play this seat has not seen anywhere (candidates for the face-down card)."""
    used = cards.SET_A if view["options"]["special_set"] == "A" else cards.SET_B
    seen = set()
    for row in view["tower"]:
        for cell in row:
            if cell and "card" in cell:
                seen.add(cell["card"]["id"])
    for h in model.hauls:
        seen.update(h)
    seen.update(c["id"] for c in view["box"])
    return [c for c in list(cards.DARK_PLAIN) + list(used) if c not in seen]


def _claim_value(model: Model, view: dict, cid: int | None, unknown: list[int]) -> float:
    """Estimated value after adding ``cid`` (None = the face-down card) to our haul, powers included."""
    me = model.seat
    if cid is None:
        if not unknown:
            return model.value()
        sample = unknown[:: max(1, len(unknown) // 8)]
        return sum(model.value_with(me, c) for c in sample) / len(sample)
    power = CARDS[cid]["power"]
    if power == "amulet":
        best = -1e9
        for other in range(model.n):
            if other != me:
                best = max(best, model.value_with(other, cid))
        return best
    if power == "sand":
        hauls = model.with_card(me, cid)
        targets = [c for c in hauls[me] if cards.sand_target_ok(c)]
        return max((model.value(hauls, t) for t in targets), default=model.value(hauls))
    if power == "tales":
        hauls = model.with_card(me, cid)
        return max((model.value_with(me, cid, remove=c) for c in hauls[me] if cards.curse_free(c)),
                   default=model.value(hauls))
    if power == "cloak":
        hauls = model.with_card(me, cid)
        best = model.value(hauls)
        for row in view["tower"]:
            for cell in row:
                if cell and "card" in cell and cell["card"]["id"] != cid and not cell["card"]["power"]:
                    h2 = [list(h) for h in hauls]
                    h2[me].append(cell["card"]["id"])
                    best = max(best, model.value(h2))
        return best
    bonus = 1.0 if power == "hourglass" else 0.0
    return model.value_with(me, cid) + bonus


def choose(engine, state: dict, seat: int, rng: random.Random) -> dict:
    """The bot's action for ``seat``, decided from its view and legal actions: the claim or choice worth most to it."""
    legal = engine.legal_actions(state, seat)
    if len(legal) == 1:
        return legal[0]
    view = engine.view(state, seat)
    model = Model(view, seat)
    kind = legal[0]["type"]
    if kind == "draft":
        return max(legal, key=lambda a: (model.value_with(seat, a["card"]), -a["card"]))
    pending = view["pending"]
    if pending is None:
        return _turn(view, model, legal, rng)
    return _decide(view, model, pending, legal)


def _tower_counts(view: dict) -> list[int]:
    return [sum(1 for cell in row if cell) for row in view["tower"]]


def _turn(view: dict, model: Model, legal: list[dict], rng: random.Random) -> dict:
    me = model.seat
    pawn = view["pawns"][me]
    pf = pawn["floor"] if pawn["where"] == "tower" else -1
    counts = _tower_counts(view)
    base = model.value()
    unknown = _unknown_dark(view, model)
    best, best_score = None, -1e9
    for action in legal:
        if action["type"] != "claim":
            continue
        floor = action["floor"]
        cell = view["tower"][floor][action["slot"]]
        cid = cell["card"]["id"] if "card" in cell else None
        gain = _claim_value(model, view, cid, unknown) - base
        forgone = sum(counts[max(pf, 0):floor])
        remaining = sum(counts[floor:]) - 1
        score = gain - FORGONE * forgone + (STAY_BONUS if remaining > 0 else 0.0) * min(1.0, remaining / 6)
        score += rng.random() * 1e-6
        if score > best_score:
            best, best_score = action, score
    exits = len(view["exits"])
    players = model.n
    exit_score = 0.0
    if exits == 0:
        exit_score = 2.0
    elif exits == 1 and players > 2 and players - exits > 1:
        exit_score = 1.0
    if best is None or best_score < EXIT_BASE + EXIT_TILE_WEIGHT * exit_score:
        return {"type": "exit"}
    return best


def _tower_card(view: dict, action: dict) -> int | None:
    """The id of the face-up tower card an action names (None for the face-down card)."""
    cell = view["tower"][action["floor"]][action["slot"]]
    return cell["card"]["id"] if cell and "card" in cell else None


def _discard_from_tower(view: dict, model: Model, pending: dict, legal: list[dict]) -> dict:
    """Deny the card a rival would gain most from (unknown face-down card: a middling guess)."""
    me = model.seat

    def denial(action: dict) -> float:
        cid = _tower_card(view, action)
        if cid is None:
            return 0.3
        best = 0.0
        for other in range(model.n):
            if other != me and model.active[other]:
                best = max(best, model.value_with(other, cid, who=other) - model.value(who=other))
        mine = model.value_with(me, cid) - model.value() if model.active[me] else 0.0
        return best - 0.5 * mine
    return max(legal, key=denial)


def _give_amulet(view: dict, model: Model, pending: dict, legal: list[dict]) -> dict:
    """Give the Amulet to whoever it leaves us best off against."""
    cid = cards.AMULET
    hauls_wo = [list(hauls_after) for hauls_after in model.hauls]
    if cid in hauls_wo[model.seat]:
        hauls_wo[model.seat].remove(cid)

    def after_give(action: dict) -> float:
        hauls_after = [list(x) for x in hauls_wo]
        hauls_after[action["to"]].append(cid)
        return model.value(hauls_after)
    return max(legal, key=after_give)


def _place_sand(view: dict, model: Model, pending: dict, legal: list[dict]) -> dict:
    """Put the Sand under the card it doubles best."""
    return max(legal, key=lambda action: model.value(None, action["card"]))


def _discard_from_haul(view: dict, model: Model, pending: dict, legal: list[dict]) -> dict:
    """Give up the haul card we miss least."""
    return max(legal, key=lambda action: _without(model, model.seat, action["card"]))


def _cloak_take(view: dict, model: Model, pending: dict, legal: list[dict]) -> dict:
    """Take the tower card worth most with the Portal Cloak."""
    unknown = _unknown_dark(view, model)
    return max(legal, key=lambda action: _claim_value(model, view, _tower_card(view, action), unknown))


def _first(view: dict, model: Model, pending: dict, legal: list[dict]) -> dict:
    """The first choice offered (whose face-down card to look at: nothing tells them apart)."""
    return legal[0]


def _vamp_swap(view: dict, model: Model, pending: dict, legal: list[dict]) -> dict:
    """Swap away the haul card whose exchange for a curse-free tower card gains most, or skip."""
    me = model.seat
    base = model.value()
    best, best_gain = {"type": "skip"}, 0.05
    takes = [(f, s, cell["card"]["id"]) for f, row in enumerate(view["tower"]) for s, cell in enumerate(row)
             if cell and "card" in cell and cards.curse_free(cell["card"]["id"])]
    for action in legal:
        if action["type"] != "swap":
            continue
        for _, _, t in takes:
            hauls_after = [list(x) for x in model.hauls]
            hauls_after[me].remove(action["card"])
            hauls_after[me].append(t)
            gain = model.value(hauls_after) - base
            if gain > best_gain:
                best, best_gain = action, gain
    return best


def _vamp_take(view: dict, model: Model, pending: dict, legal: list[dict]) -> dict:
    """Take the tower card that is best in exchange for the card given."""
    me = model.seat
    give = pending.get("give")

    def swap_val(action: dict) -> float:
        hauls_after = [list(x) for x in model.hauls]
        if give in hauls_after[me]:
            hauls_after[me].remove(give)
        take = _tower_card(view, action)
        assert take is not None  # Vampire's Blood swaps face-up cards only
        hauls_after[me].append(take)
        return model.value(hauls_after)
    return max(legal, key=swap_val)


# How the bot answers each kind of pending power choice.
DECISIONS: dict[str, Callable[[dict, Model, dict, list[dict]], dict]] = {
    "amulet_discard": _discard_from_tower,
    "row_discard": _discard_from_tower,
    "amulet_give": _give_amulet,
    "sand": _place_sand,
    "tales": _discard_from_haul,
    "crown": _discard_from_haul,
    "cloak": _cloak_take,
    "distill": _first,
    "vamp": _vamp_swap,
    "vamp_take": _vamp_take,
}


def _decide(view: dict, model: Model, pending: dict, legal: list[dict]) -> dict:
    """The answer to a pending power choice, by its kind."""
    return DECISIONS.get(pending["kind"], _first)(view, model, pending, legal)


def _without(model: Model, seat: int, cid: int) -> float:
    hauls = [list(x) for x in model.hauls]
    hauls[seat].remove(cid)
    sand = model.sand if model.sand != cid else None
    return model.value(hauls, sand, who=seat)
