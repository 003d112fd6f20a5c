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
from itertools import combinations_with_replacement
from typing import Any

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


# A team's value depends only on what its cards are (kind, value, class), not which copy of a card it holds
# nor in which order it was hired, so it is memoised by that "look": a team is the sorted tuple of its cards'
# look numbers. Its Shapeshifter outcomes (noise, treasure) are kept per floor rule, its value per floor rule
# and tracker risk, and for each team a row of what it is worth with one more card of each look: the same
# numbers, worked out in the same order, so the same decisions, several times faster.
_LOOKS: list[tuple[Any, ...]] = sorted(set(_SIGNATURE))
LOOK_ID: list[int] = [_LOOKS.index(signature) for signature in _SIGNATURE]
_EFFECT_KEYS: dict[int, tuple[dict[str, Any], str]] = {}
_OUTCOMES: dict[tuple[tuple[int, ...], str], list[tuple[int, int]]] = {}
_VALUERS: dict[tuple[str, int, float], _Valuer] = {}
_CACHE_LIMIT = 200_000  # team values (and outcomes) kept in all; past it that cache starts afresh
_cached = _outcomes_cached = 0


def _effect_key(effect: dict[str, Any]) -> str:
    """A floor rule as a text, to key the cache (worked out once per rule dict)."""
    known = _EFFECT_KEYS.get(id(effect))
    if known is None or known[0] is not effect:  # keep the dict alive so its id is never reused
        known = (effect, json.dumps(effect, sort_keys=True))
        _EFFECT_KEYS[id(effect)] = known
    return known[1]


def team_looks(team: list[int]) -> tuple[int, ...]:
    """A team as the cache knows it: its cards' look numbers, sorted."""
    return tuple(sorted(LOOK_ID[card_id] for card_id in team))


_SHAPESHIFTER = next(look for look, (kind, _, _) in enumerate(_LOOKS) if kind == "shapeshifter")


def _outcomes(looks: tuple[int, ...], effect: dict[str, Any], key: str) -> list[tuple[int, int]]:
    """The team's sensible Shapeshifter outcomes (noise, floor treasure), best noise first: as
    ``scoring.copy_options`` has them, worked out by look."""
    global _outcomes_cached
    found = _OUTCOMES.get((looks, key))
    if found is None:
        shifters = looks.count(_SHAPESHIFTER)
        if shifters:
            # Each Shapeshifter copies nothing (a blank) or a card of the team that is not a Bard:
            # every assignment's outcome, then only those no other outcome beats (quieter and richer).
            others = [look for look in looks if look != _SHAPESHIFTER]
            targets = [_SHAPESHIFTER] + sorted({look for look in others if _LOOKS[look][0] != "bard"})
            every = {_plain_outcome(others + list(combo), effect)
                     for combo in combinations_with_replacement(targets, shifters)}
            found = []
            for outcome in sorted(every, key=lambda outcome: (outcome[0], -outcome[1])):
                if not any(better[0] <= outcome[0] and better[1] >= outcome[1] for better in found):
                    found.append(outcome)
        else:
            found = [_plain_outcome(looks, effect)]
        if _outcomes_cached >= _CACHE_LIMIT:
            _OUTCOMES.clear()
            _outcomes_cached = 0
        _OUTCOMES[(looks, key)] = found
        _outcomes_cached += 1
    return found


def _plain_outcome(looks: Any, effect: dict[str, Any]) -> tuple[int, int]:
    """(noise, floor treasure) of a team as its cards count (a Shapeshifter's look here is one that copies
    nothing): ``scoring``'s rules, by look."""
    scores = []
    rogues = bards = 0
    values: dict[int, int] = {}
    for look in looks:
        kind, value, _ = _LOOKS[look]
        if kind == "rogue":
            rogues += 1
        elif kind == "bard":
            bards += 1
        elif kind != "shapeshifter":
            values[value] = values.get(value, 0) + 1
    for look in looks:
        kind, value, _ = _LOOKS[look]
        if kind == "shapeshifter":
            scores.append(0)  # copies nothing: hides behind the Bards
        elif kind == "rogue":
            scores.append(int(effect.get("rogue_score", 1)) if rogues == 1 else int(effect.get("rogue_group_score", 10)))
        elif kind == "bard":
            scores.append(0 if effect.get("bards_cancel") and bards >= 2 else value)
        elif values[value] >= 2:
            scores.append(0)
        else:
            scores.append(int(effect.get("slime_score", 10)) if kind == "slime" else value)
    noise = sum(scores) + (max(scores) if effect.get("loudest_double") and scores else 0)
    bonus = 0
    for class_name, amount in effect.get("class_bonus", {}).items():
        bonus += amount * sum(1 for look in looks if _LOOKS[look][2] == class_name)
    value_bonus = effect.get("value_bonus")
    if value_bonus:
        bonus += value_bonus["treasure"] * sum(1 for look in looks if _LOOKS[look][0] != "shapeshifter"
                                               and _LOOKS[look][1] >= value_bonus["min"])
    return noise, bonus


class _Valuer:
    """Team values under one floor rule and one tracker risk, memoised."""

    def __init__(self, effect: dict[str, Any], key: str, risk: Risk) -> None:
        self.effect, self.key, self.risk = effect, key, risk
        self.values: dict[tuple[int, ...], float] = {}
        self.rows: dict[tuple[int, ...], list[float | None]] = {}

    def value(self, looks: tuple[int, ...]) -> float:
        """How good a team is for this seat: its best Shapeshifter option's noise, risk and floor treasure."""
        value = self.values.get(looks)
        if value is None:
            global _cached
            risk, size = self.risk, len(looks)
            value = max(-noise - risk.cost(noise, size) + BONUS_WEIGHT * bonus
                        for noise, bonus in _outcomes(looks, self.effect, self.key))
            self.values[looks] = value
            _cached += 1
        return value

    def row(self, looks: tuple[int, ...]) -> list[float | None]:
        """The team's values with one more card, by the look added (None where not worked out yet)."""
        row = self.rows.get(looks)
        if row is None:
            row = self.rows[looks] = [None] * len(_LOOKS)
        return row

    def with_one_more(self, looks: tuple[int, ...], look: int) -> float:
        """The value of the team with one more card of ``look``."""
        row = self.row(looks)
        value = row[look]
        if value is None:
            value = row[look] = self.value(tuple(sorted(looks + (look,))))
        return value

    def gain(self, looks: tuple[int, ...], card_id: int) -> float:
        """How much adding ``card_id`` improves the team of ``looks``."""
        return self.with_one_more(looks, LOOK_ID[card_id]) - self.value(looks)

    def expected_gain(self, team: list[int], pool: list[int]) -> float:
        """The average gain of hiring one card drawn at random from ``pool``."""
        # The team may already hold a card of the pool (a hypothetical earlier hire): that one can't come again.
        pool = [card_id for card_id in pool if card_id not in team]
        if not pool:
            return -6.0
        looks = team_looks(team)
        base = self.value(looks)
        row = self.row(looks)
        total = 0.0
        for card_id in pool:
            look = LOOK_ID[card_id]
            value = row[look]
            if value is None:
                value = self.with_one_more(looks, look)
            total += value - base
        return total / len(pool)


def _valuer(effect: dict[str, Any], risk: Risk) -> _Valuer:
    """The memo of team values for this floor rule and tracker risk."""
    global _cached
    key = _effect_key(effect)
    found = _VALUERS.get((key, risk.budget, risk.pace))
    if found is None:
        if _cached >= _CACHE_LIMIT:
            _VALUERS.clear()
            _cached = 0
        found = _VALUERS[(key, risk.budget, risk.pace)] = _Valuer(effect, key, risk)
    return found


def gain(team: list[int], card_id: int, effect: dict[str, Any], risk: Risk = NO_RISK) -> float:
    """How much adding ``card_id`` improves the team (positive = quieter/richer, and safer on the tracker)."""
    if card_id in team or len(set(team)) != len(team):
        raise ValueError("a team holds each card once")
    return _valuer(effect, risk).gain(team_looks(team), card_id)


def expected_gain(team: list[int], pool: list[int], effect: dict[str, Any], risk: Risk = NO_RISK) -> float:
    """The average gain of hiring one card drawn at random from ``pool`` (cards alike are scored once)."""
    return _valuer(effect, risk).expected_gain(team, pool)


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
        self.valuer = _valuer(effect, risk)
        self.team = [card["id"] for card in view["teams"][private["seat"]]["cards"]]
        self.pool = unseen_pool(view)
        self.hand = private["hand"]
        self._cache: dict[tuple[int, ...], float] = {}

    def slot_gain(self, held: HandCardView, base: list[int]) -> float:
        """What hiring this hand card onto ``base`` gains (its expectation when the seat hasn't peeked at it)."""
        if held["known"]:
            return self.valuer.gain(team_looks(base), held["card"]["id"])
        return self.unknown_gain_for(base)

    def unknown_gain_for(self, base: list[int]) -> float:
        """The expected gain of hiring an unseen card onto ``base``."""
        key = tuple(base)
        if key not in self._cache:
            self._cache[key] = self.valuer.expected_gain(base, self.pool)
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
            return self.valuer.gain(team_looks(team), card_id) + KEEP_WEIGHT * self.keep_value(team + [card_id], rest)
        if action["type"] == "hire_deck":
            return self.blind(kinds, hand, drop_worst=True)
        card_id = action["card"]
        new_team = team + [card_id]
        if len(hand) > 1:
            worst = min(hand, key=lambda held: self.slot_gain(held, new_team))
            rest = [entry for entry in hand if entry is not worst]
        else:
            rest = []
        return self.valuer.gain(team_looks(team), card_id) + KEEP_WEIGHT * self.keep_value(new_team, rest)

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
            now = self.valuer.gain(team_looks(self.team), card_id)
            rest = rest_of_hand
            if drop_worst and len(rest) > 1:
                worst = min(rest, key=lambda held: self.slot_gain(held, new_team))
                rest = [other for other in rest if other is not worst]
            elif drop_worst:
                rest = []
            total += len(members) * (now + KEEP_WEIGHT * self.keep_value(new_team, rest))
        return total / len(self.pool)
