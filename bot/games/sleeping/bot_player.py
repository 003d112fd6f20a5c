"""The Sleeping Wizard bot: reasons only from one seat's view.

It knows what that seat sees: the other hands, its own peeked cards, the market
and the hired teams. Every card it cannot see (the deck and its own unpeeked
cards) is equally likely to be any adventurer not in view, and it scores each
move by the expected change of its team's noise (plus the floor's treasure),
keeping its best hand cards as options for later turns.
"""
from __future__ import annotations

import json
import random
from typing import Any

from bot.games.sleeping import scoring
from bot.games.sleeping.cards import CARDS, DECK_SIZE, FLOORS, ROUNDS, TEAM_SIZE, WAKE_AT

BONUS_WEIGHT = 4.0  # one floor treasure is worth about this much noise
KEEP_WEIGHT = 1.0  # value of keeping a good card in hand for later
TRACKER_WEIGHT = 0.1  # treasure lost per point of noise on the tracker (end bonus, wake risk)
FUTURE_NOISE = 2.0  # noise a hire still to come adds, on average (a bot team makes about 7 a round)
WAKE_PENALTY = 60.0  # a team that surely takes the guild to 48 (it can't win any more)
WAKE_SLOPE = 3.0  # per point the team is projected to go over what the tracker has left
PACE_SLOPE = 0.5  # per point over this round's fair share of what the tracker has left


class Risk:
    """How much noise this seat's guild can still afford: 48 on the tracker wakes the wizard."""

    def __init__(self, total: int = 0, rnd: int = 1) -> None:
        self.budget = WAKE_AT - 1 - total  # the most noise this round that is still safe
        self.pace = self.budget / max(1, ROUNDS - rnd + 1)

    def cost(self, noise: int, cards: int) -> float:
        projected = noise + FUTURE_NOISE * max(0, TEAM_SIZE - cards)
        cost = WAKE_SLOPE * max(0.0, projected - self.budget) + PACE_SLOPE * max(0.0, projected - self.pace)
        if noise > self.budget:
            cost += WAKE_PENALTY
        return cost


NO_RISK = Risk(-10_000)  # a guild so far from 48 that the tracker never matters
_SIGNATURE = [(c["kind"], c["value"] if c["value"] is not None else -1, c["class"]) for c in CARDS]


def unseen_pool(view: dict[str, Any]) -> list[int]:
    p = view["private"]
    seen: set[int] = {c["id"] for c in view["market"]}
    for team in view["teams"]:
        seen.update(c["id"] for c in team["cards"])
    for other in p["others"]:
        seen.update(c["card"]["id"] for c in other["cards"])
    seen.update(h["card"]["id"] for h in p["hand"] if h["known"])
    return [cid for cid in range(DECK_SIZE) if cid not in seen]


# A team's value depends only on what its cards are (kind, value, class), not which copy of a card it holds,
# so it is memoised by that signature: the same decisions, several times faster.
_VALUE_CACHE: dict[tuple, float] = {}
_EFFECT_KEYS: dict[int, tuple[dict[str, Any], str]] = {}
_CACHE_LIMIT = 200_000


def _effect_key(effect: dict[str, Any]) -> str:
    known = _EFFECT_KEYS.get(id(effect))
    if known is None or known[0] is not effect:  # keep the dict alive so its id is never reused
        known = (effect, json.dumps(effect, sort_keys=True))
        _EFFECT_KEYS[id(effect)] = known
    return known[1]


def _value(team: list[int], effect: dict[str, Any], risk: Risk) -> float:
    if len(set(team)) != len(team):
        raise ValueError("a team holds each card once")
    key = (tuple(sorted(_SIGNATURE[cid] for cid in team)), _effect_key(effect), risk.budget, risk.pace)
    value = _VALUE_CACHE.get(key)
    if value is None:
        options = scoring.copy_options(team, effect)
        value = max(-o["noise"] - risk.cost(o["noise"], len(team)) + BONUS_WEIGHT * o["bonus"] for o in options)
        if len(_VALUE_CACHE) >= _CACHE_LIMIT:
            _VALUE_CACHE.clear()
        _VALUE_CACHE[key] = value
    return value


def gain(team: list[int], cid: int, effect: dict[str, Any], risk: Risk = NO_RISK) -> float:
    """How much adding ``cid`` improves the team (positive = quieter/richer, and safer on the tracker)."""
    return _value(team + [cid], effect, risk) - _value(team, effect, risk)


def expected_gain(team: list[int], pool: list[int], effect: dict[str, Any], risk: Risk = NO_RISK) -> float:
    # The team may already hold a card of the pool (a hypothetical earlier hire): that one can't come again.
    pool = [cid for cid in pool if cid not in team]
    if not pool:
        return -6.0
    cache: dict[tuple, float] = {}
    total = 0.0
    for cid in pool:
        c = CARDS[cid]
        key = (c["kind"], c["value"], c["class"])
        if key not in cache:
            cache[key] = gain(team, cid, effect, risk)
        total += cache[key]
    return total / len(pool)


def choose(view: dict[str, Any], legal: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    kind = legal[0]["type"]
    effect = FLOORS[view["floor"]["key"]]["effect"]
    p = view["private"]
    me = p["seat"]
    risk = Risk(view["noise"][me], view["round"])
    if kind == "copy":
        others = [t["noise"] for t in view["teams"] if t["seat"] != me]
        best_other = min(others) if others else 99
        reward = int(effect.get("lowest_reward", 2))
        scored = []
        for action, option in zip(legal, p["copy_options"]):
            value = option["bonus"] + (reward if option["noise"] <= best_other else 0) - TRACKER_WEIGHT * option["noise"]
            value -= risk.cost(option["noise"], TEAM_SIZE) / BONUS_WEIGHT
            scored.append((value, -option["noise"], action))
        return max(scored, key=lambda x: (x[0], x[1]))[2]

    team = [c["id"] for c in view["teams"][me]["cards"]]
    pool = unseen_pool(view)

    def slot_gain(h: dict[str, Any], base: list[int]) -> float:
        return gain(base, h["card"]["id"], effect, risk) if h["known"] else unknown_gain_for(base)

    cache: dict[tuple, float] = {}

    def unknown_gain_for(base: list[int]) -> float:
        key = tuple(base)
        if key not in cache:
            cache[key] = expected_gain(base, pool, effect, risk)
        return cache[key]

    hand = p["hand"]
    if kind == "push":
        # Push the card we'd least like to hire later.
        by_slot = {h["slot"]: h for h in hand}
        scored = [(slot_gain(by_slot[a["slot"]], team), rng.random(), a) for a in legal]
        return min(scored, key=lambda x: (x[0], x[1]))[2]

    def keep_value(new_team: list[int], remaining: list[dict[str, Any]]) -> float:
        if len(new_team) >= 4 or not remaining:
            return 0.0
        return max(slot_gain(h, new_team) for h in remaining)

    kinds: dict[tuple, list[int]] = {}
    for cid in pool:
        c = CARDS[cid]
        kinds.setdefault((c["kind"], c["value"], c["class"]), []).append(cid)

    def blind(rest_of_hand: list[dict[str, Any]], drop_worst: bool) -> float:
        """Expected value of hiring an unseen card (deck top or own unpeeked card): its gain now plus what the
        hand left over (less the card pushed, if one must be pushed) is worth for the next hires."""
        if not pool:
            return -6.0
        total = 0.0
        for members in kinds.values():
            cid = members[0]
            new_team = team + [cid]
            now = gain(team, cid, effect, risk)
            rest = rest_of_hand
            if drop_worst and len(rest) > 1:
                worst = min(rest, key=lambda h: slot_gain(h, new_team))
                rest = [x for x in rest if x is not worst]
            elif drop_worst:
                rest = []
            total += len(members) * (now + KEEP_WEIGHT * keep_value(new_team, rest))
        return total / len(pool)

    scored = []
    for action in legal:
        if action["type"] == "hire_hand":
            h = next(x for x in hand if x["slot"] == action["slot"])
            rest = [x for x in hand if x["slot"] != action["slot"]]
            if h["known"]:
                cid = h["card"]["id"]
                value = gain(team, cid, effect, risk) + KEEP_WEIGHT * keep_value(team + [cid], rest)
            else:
                value = blind(rest, drop_worst=False)
        elif action["type"] == "hire_deck":
            value = blind(hand, drop_worst=True)
        else:
            cid = action["card"]
            new_team = team + [cid]
            if len(hand) > 1:
                worst = min(hand, key=lambda h: slot_gain(h, new_team))
                rest = [x for x in hand if x is not worst]
            else:
                rest = []
            value = gain(team, cid, effect, risk) + KEEP_WEIGHT * keep_value(new_team, rest)
        scored.append((value, rng.random(), action))
    return max(scored, key=lambda x: (x[0], x[1]))[2]
