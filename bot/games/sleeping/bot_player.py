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
from bot.games.sleeping.viewtypes import HandCardView, SleepingView

BONUS_WEIGHT = 4.0  # one floor treasure is worth about this much noise
KEEP_WEIGHT = 1.0  # value of keeping a good card in hand for later
TRACKER_WEIGHT = 0.1  # treasure lost per point of noise on the tracker (end bonus, wake risk)
FUTURE_NOISE = 2.0  # noise a hire still to come adds, on average (a bot team makes about 7 a round)
WAKE_PENALTY = 60.0  # a team that surely takes the guild to 48 (it can't win any more)
WAKE_SLOPE = 3.0  # per point the team is projected to go over what the tracker has left
PACE_SLOPE = 0.5  # per point over this round's fair share of what the tracker has left


class Risk:
    """How much noise this seat's guild can still afford: 48 on the tracker wakes the wizard."""

    def __init__(self, total: int = 0, round_number: int = 1) -> None:
        self.budget = WAKE_AT - 1 - total  # the most noise this round that is still safe
        self.pace = self.budget / max(1, ROUNDS - round_number + 1)

    def cost(self, noise: int, cards: int) -> float:
        """The penalty for a team with ``noise`` after ``cards`` hires: projected over what the tracker can take."""
        projected = noise + FUTURE_NOISE * max(0, TEAM_SIZE - cards)
        cost = WAKE_SLOPE * max(0.0, projected - self.budget) + PACE_SLOPE * max(0.0, projected - self.pace)
        if noise > self.budget:
            cost += WAKE_PENALTY
        return cost


NO_RISK = Risk(-10_000)  # a guild so far from 48 that the tracker never matters
_SIGNATURE = [(card["kind"], card["value"] if card["value"] is not None else -1, card["class"]) for card in CARDS]


def unseen_pool(view: SleepingView) -> list[int]:
    """The adventurers the seat cannot see anywhere: the deck and its own unpeeked cards are among these."""
    private = view["private"]
    seen: set[int] = {card["id"] for card in view["market"]}
    for team in view["teams"]:
        seen.update(card["id"] for card in team["cards"])
    for other in private["others"]:
        seen.update(held["card"]["id"] for held in other["cards"])
    seen.update(held["card"]["id"] for held in private["hand"] if held["known"])
    return [card_id for card_id in range(DECK_SIZE) if card_id not in seen]


# A team's value depends only on what its cards are (kind, value, class), not which copy of a card it holds,
# so it is memoised by that signature: the same decisions, several times faster.
_VALUE_CACHE: dict[tuple[Any, ...], float] = {}
_EFFECT_KEYS: dict[int, tuple[dict[str, Any], str]] = {}
_CACHE_LIMIT = 200_000


def _effect_key(effect: dict[str, Any]) -> str:
    """A floor rule as a text, to key the cache (worked out once per rule dict)."""
    known = _EFFECT_KEYS.get(id(effect))
    if known is None or known[0] is not effect:  # keep the dict alive so its id is never reused
        known = (effect, json.dumps(effect, sort_keys=True))
        _EFFECT_KEYS[id(effect)] = known
    return known[1]


def _value(team: list[int], effect: dict[str, Any], risk: Risk) -> float:
    """How good a team is for this seat: its best Shapeshifter option's noise, risk and floor treasure."""
    if len(set(team)) != len(team):
        raise ValueError("a team holds each card once")
    key = (tuple(sorted(_SIGNATURE[card_id] for card_id in team)), _effect_key(effect), risk.budget, risk.pace)
    value = _VALUE_CACHE.get(key)
    if value is None:
        options = scoring.copy_options(team, effect)
        value = max(-option["noise"] - risk.cost(option["noise"], len(team)) + BONUS_WEIGHT * option["bonus"]
                    for option in options)
        if len(_VALUE_CACHE) >= _CACHE_LIMIT:
            _VALUE_CACHE.clear()
        _VALUE_CACHE[key] = value
    return value


def gain(team: list[int], card_id: int, effect: dict[str, Any], risk: Risk = NO_RISK) -> float:
    """How much adding ``card_id`` improves the team (positive = quieter/richer, and safer on the tracker)."""
    return _value(team + [card_id], effect, risk) - _value(team, effect, risk)


def expected_gain(team: list[int], pool: list[int], effect: dict[str, Any], risk: Risk = NO_RISK) -> float:
    """The average gain of hiring one card drawn at random from ``pool`` (cards alike are scored once)."""
    # The team may already hold a card of the pool (a hypothetical earlier hire): that one can't come again.
    pool = [card_id for card_id in pool if card_id not in team]
    if not pool:
        return -6.0
    cache: dict[tuple[str, int | None, str], float] = {}
    total = 0.0
    for card_id in pool:
        card = CARDS[card_id]
        look = (card["kind"], card["value"], card["class"])
        if look not in cache:
            cache[look] = gain(team, card_id, effect, risk)
        total += cache[look]
    return total / len(pool)


def choose(view: SleepingView, legal: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    """The bot's move among ``legal``, from the seat's view only (``rng`` breaks ties)."""
    kind = legal[0]["type"]
    effect = FLOORS[view["floor"]["key"]]["effect"]
    me = view["private"]["seat"]
    risk = Risk(view["noise"][me], view["round"])
    if kind == "copy":
        return _choose_copy(view, legal, effect, risk)
    plan = _HirePlan(view, effect, risk)
    if kind == "push":
        return plan.push(legal, rng)
    return plan.hire(legal, rng)


def _choose_copy(view: SleepingView, legal: list[dict[str, Any]], effect: dict[str, Any], risk: Risk) -> dict[str, Any]:
    """The Shapeshifter's copy: the floor bonus, the lowest-noise reward and the tracker's cost weighed together."""
    private = view["private"]
    me = private["seat"]
    others = [team["noise"] for team in view["teams"] if team["seat"] != me]
    best_other = min(others) if others else 99
    reward = int(effect.get("lowest_reward", 2))
    options_scored = []
    for action, option in zip(legal, private["copy_options"]):
        value = option["bonus"] + (reward if option["noise"] <= best_other else 0) - TRACKER_WEIGHT * option["noise"]
        value -= risk.cost(option["noise"], TEAM_SIZE) / BONUS_WEIGHT
        options_scored.append((value, -option["noise"], action))
    return max(options_scored, key=lambda entry: (entry[0], entry[1]))[2]


class _HirePlan:
    """What hires are worth to this seat now: its team, the cards it cannot see, the floor's effect, the risk."""

    def __init__(self, view: SleepingView, effect: dict[str, Any], risk: Risk) -> None:
        private = view["private"]
        self.effect, self.risk = effect, risk
        self.team = [card["id"] for card in view["teams"][private["seat"]]["cards"]]
        self.pool = unseen_pool(view)
        self.hand = private["hand"]
        self._cache: dict[tuple[int, ...], float] = {}

    def slot_gain(self, held: HandCardView, base: list[int]) -> float:
        """What hiring this hand card onto ``base`` gains (its expectation when the seat hasn't peeked at it)."""
        return gain(base, held["card"]["id"], self.effect, self.risk) if held["known"] else self.unknown_gain_for(base)

    def unknown_gain_for(self, base: list[int]) -> float:
        """The expected gain of hiring an unseen card onto ``base``."""
        key = tuple(base)
        if key not in self._cache:
            self._cache[key] = expected_gain(base, self.pool, self.effect, self.risk)
        return self._cache[key]

    def keep_value(self, new_team: list[int], remaining: list[HandCardView]) -> float:
        """What the hand left over is worth for the next hire (the best of it), once ``new_team`` is hired."""
        if len(new_team) >= 4 or not remaining:
            return 0.0
        return max(self.slot_gain(held, new_team) for held in remaining)

    def push(self, legal: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
        """Push the card we'd least like to hire later."""
        by_slot = {held["slot"]: held for held in self.hand}
        pushes = [(self.slot_gain(by_slot[action["slot"]], self.team), rng.random(), action) for action in legal]
        return min(pushes, key=lambda entry: (entry[0], entry[1]))[2]

    def hire(self, legal: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
        """The hire (from hand, deck or market) worth most now and for the hires after it."""
        kinds: dict[tuple[str, int | None, str], list[int]] = {}
        for card_id in self.pool:
            card = CARDS[card_id]
            kinds.setdefault((card["kind"], card["value"], card["class"]), []).append(card_id)
        scored = []
        for action in legal:
            scored.append((self.hire_value(action, kinds), rng.random(), action))
        return max(scored, key=lambda entry: (entry[0], entry[1]))[2]

    def hire_value(self, action: dict[str, Any], kinds: dict[tuple[str, int | None, str], list[int]]) -> float:
        """One hire's value: its gain now plus what the hand left over is worth (less the card it must push)."""
        team, hand = self.team, self.hand
        if action["type"] == "hire_hand":
            held = next(entry for entry in hand if entry["slot"] == action["slot"])
            rest = [entry for entry in hand if entry["slot"] != action["slot"]]
            if not held["known"]:
                return self.blind(kinds, rest, drop_worst=False)
            card_id = held["card"]["id"]
            return gain(team, card_id, self.effect, self.risk) + KEEP_WEIGHT * self.keep_value(team + [card_id], rest)
        if action["type"] == "hire_deck":
            return self.blind(kinds, hand, drop_worst=True)
        card_id = action["card"]
        new_team = team + [card_id]
        if len(hand) > 1:
            worst = min(hand, key=lambda held: self.slot_gain(held, new_team))
            rest = [entry for entry in hand if entry is not worst]
        else:
            rest = []
        return gain(team, card_id, self.effect, self.risk) + KEEP_WEIGHT * self.keep_value(new_team, rest)

    def blind(self, kinds: dict[tuple[str, int | None, str], list[int]], rest_of_hand: list[HandCardView],
              drop_worst: bool) -> float:
        """Expected value of hiring an unseen card (deck top or own unpeeked card): its gain now plus what the
        hand left over (less the card pushed, if one must be pushed) is worth for the next hires."""
        if not self.pool:
            return -6.0
        total = 0.0
        for members in kinds.values():
            card_id = members[0]
            new_team = self.team + [card_id]
            now = gain(self.team, card_id, self.effect, self.risk)
            rest = rest_of_hand
            if drop_worst and len(rest) > 1:
                worst = min(rest, key=lambda held: self.slot_gain(held, new_team))
                rest = [other for other in rest if other is not worst]
            elif drop_worst:
                rest = []
            total += len(members) * (now + KEEP_WEIGHT * self.keep_value(new_team, rest))
        return total / len(self.pool)
