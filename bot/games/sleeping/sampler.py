"""Sleeping Wizard: a full state consistent with one seat's view, for the search bot.

Hidden from a seat: its own unpeeked hand cards, the deck, the floors not yet revealed,
which of their own cards the other seats peeked at, and (in the Shapeshifter step) what
the seats that already chose made their Shapeshifters copy. Every round starts from the
whole 52-card deck, so the unseen cards are all cards minus the market, the teams, the
other hands and the seat's own peeked cards; they are dealt at random to the seat's
unpeeked slots and the deck. Each other seat is taken to know as many of its hand cards
as the floor let it peek at (at most its hand), picked at random; a seat that already
set its Shapeshifters is taken to have chosen the quietest copies (the first choice).
"""
from __future__ import annotations

import json
import random
from typing import Any

from . import scoring, table
from .cards import DECK_SIZE, FLOORS, HAND_SIZE, RANDOM_KEYS, ROUNDS, TEAM_SIZE, WAKE_AT, tracker_bonus


def _deal_hands(view: dict[str, Any], seat: int, market: list[int], teams: list[list[int]],
                rng: random.Random) -> tuple[list[list[int | None]], list[int], list[int]] | None:
    """Every hand as the seat knows it, its unpeeked slots dealt from the unseen cards: (hands, its peeked cards, deck)."""
    n = len(view["names"])
    priv = view["private"]
    hands: list[list[int | None]] = [[None] * HAND_SIZE for _ in range(n)]
    seen: set[int] = set(market)
    for t in teams:
        seen.update(t)
    for other in priv["others"]:
        for c in other["cards"]:
            hands[other["seat"]][c["slot"]] = c["card"]["id"]
            seen.add(c["card"]["id"])
    mine_known = []
    unknown_slots = []
    for h in priv["hand"]:
        if h["known"]:
            hands[seat][h["slot"]] = h["card"]["id"]
            mine_known.append(h["card"]["id"])
            seen.add(h["card"]["id"])
        else:
            unknown_slots.append(h["slot"])
    unseen = [c for c in range(DECK_SIZE) if c not in seen]
    if len(unseen) != len(unknown_slots) + view["deck_count"]:
        return None  # the view and the card list disagree: do not guess
    rng.shuffle(unseen)
    for slot in unknown_slots:
        hands[seat][slot] = unseen.pop()
    return hands, mine_known, unseen


def _tower(view: dict[str, Any], rng: random.Random) -> list[Any] | None:
    """The tower: revealed floors as shown, the hidden ones drawn from the floors not in sight."""
    tower_view = view["tower"]
    if len(tower_view) <= 2:
        return [e["key"] for e in tower_view]
    shown = {e["key"] for e in tower_view if e["revealed"]}
    pool = [k for k in RANDOM_KEYS if k not in shown]
    hidden = [i for i, e in enumerate(tower_view) if not e["revealed"]]
    if len(pool) < len(hidden):
        return None
    drawn = rng.sample(pool, len(hidden))
    tower = [e.get("key") for e in tower_view]
    for i, key in zip(hidden, drawn):
        tower[i] = key
    return tower


def _known(view: dict[str, Any], seat: int, hands: list[list[int | None]], mine_known: list[int],
           rng: random.Random) -> list[list[int]]:
    """Which hand cards each seat peeked at: the seat's own, and for the others as many as the floor let them, at random."""
    n = len(view["names"])
    peek = max(0, min(HAND_SIZE, view["peek_count"]))
    known: list[list[int]] = [[] for _ in range(n)]
    known[seat] = mine_known
    for s in range(n):
        if s != seat:
            cards = [c for c in hands[s] if c is not None]
            known[s] = sorted(rng.sample(cards, min(peek, len(cards))))
    return known


def _copy_step(view: dict[str, Any], teams: list[list[int]]) -> tuple[list[int], list[Any]]:
    """The Shapeshifter step: who must choose, and the quietest copies for those who already chose."""
    n = len(view["names"])
    copy_wait: list[int] = []
    copy_choice: list[Any] = [None] * n
    if view["phase"] == "copy":
        effect = FLOORS[view["floor"]["key"]]["effect"]
        copy_wait = [s for s in range(n) if len(scoring.copy_options(teams[s], effect)) > 1]
        waiting = set(view["copy_wait"])
        for s in copy_wait:
            if s not in waiting:
                first = scoring.copy_options(teams[s], effect)[0]["copies"]
                copy_choice[s] = {str(c): t for c, t in first.items() if t is not None}
    return copy_wait, copy_choice


def sample_state(engine, view: dict[str, Any], seat: int, rng: random.Random) -> dict[str, Any] | None:
    """A full state the seat cannot tell from the true one, what it cannot see dealt with ``rng``
    (None where this moment cannot be searched)."""
    if view["phase"] == "over" or "private" not in view:
        return None
    market = [c["id"] for c in view["market"]]
    teams = [[c["id"] for c in t["cards"]] for t in view["teams"]]
    dealt = _deal_hands(view, seat, market, teams, rng)
    if dealt is None:
        return None
    hands, mine_known, deck = dealt
    tower = _tower(view, rng)
    if tower is None:
        return None
    known = _known(view, seat, hands, mine_known, rng)
    copy_wait, copy_choice = _copy_step(view, teams)
    pending = view["pending"]
    return {
        "names": list(view["names"]), "rng": rng.getrandbits(64),
        "options": {"floors": len(view["tower"]) > 2}, "round": view["round"], "phase": view["phase"],
        "noise": list(view["noise"]), "treasure": list(view["treasure"]),
        "history": [dict(h) for h in view["history"]], "stats": {"used": []},
        "last_round": view["last_round"], "final": view["final"], "tower": tower,
        "market": market, "hands": hands, "deck": deck, "teams": teams, "known": known,
        "pending": {"seat": pending["seat"], "card": pending["card"]["id"]} if pending else None,
        "copy_wait": copy_wait, "copy_choice": copy_choice, "turn": view["turn"],
        "order": list(view["order"]), "recent": list(view["recent"]),
    }


def alike(view: dict[str, Any], seat: int, action: dict[str, Any]) -> Any:
    """What a move comes to for the seat, as far as it can tell: hiring (or pushing) any of its own cards it
    has not seen is the same blind move, and cards it has seen count by their kind, value and class."""
    if action["type"] not in ("hire_hand", "push"):
        return json.dumps(action, sort_keys=True)
    held = next(h for h in view["private"]["hand"] if h["slot"] == action["slot"])
    card = held["card"] if held["known"] else None
    what = (card["kind"], card["value"], card["class"]) if card else "unseen"
    return action["type"], what


# A guild's round adds about this much noise to the tracker (normal bots, 2 and 4 players: 6.0-6.3 on
# average, spread 6.8), and each card still to hire this round about CARD_NOISE (spread 2).
ROUND_NOISE, ROUND_SPREAD, CARD_NOISE, CARD_SPREAD = 6.2, 6.8, 1.5, 2.0
WAKE_COST = 10.0  # treasure a sure wake-up is worth (beyond losing the tracker bonus)
# Five points of a normal spread (mean, one and two spreads either side) and their weights.
_SPREAD = ((-2.0, 0.054), (-1.0, 0.242), (0.0, 0.408), (1.0, 0.242), (2.0, 0.054))


def end_of_game(noise: int, rounds_left: int, cards_left: int) -> tuple[float, float]:
    """A guild at ``noise`` on the tracker with whole rounds and hires still to play: its expected
    tracker bonus at the end of the game and its chance of waking the wizard."""
    if not rounds_left and not cards_left:
        return float(tracker_bonus(noise)), float(noise >= WAKE_AT)
    mean = noise + ROUND_NOISE * rounds_left + CARD_NOISE * cards_left
    spread = (ROUND_SPREAD ** 2 * rounds_left + CARD_SPREAD ** 2 * cards_left) ** 0.5
    bonus = wake = 0.0
    for z, weight in _SPREAD:
        space = round(mean + z * spread)
        bonus += weight * tracker_bonus(space)
        wake += weight * (space >= WAKE_AT)
    return bonus, wake


def expected_points(engine, state: dict[str, Any]) -> tuple[list[float], list[float], int]:
    """Every guild's treasure expected at the end as things stand: its round scored as if its team so far
    were complete (its quietest way to copy; the quietest team takes the round's reward), plus the tracker
    bonus it can expect at the end of the game, its noise projected over the rounds (and hires) still to
    come, less the chance of waking the wizard (a guild that woke it cannot win). Returns (points, each
    guild's chance of waking the wizard, whole rounds left)."""
    effect = table.effect(state)
    reward = int(effect.get("lowest_reward", 2))
    started = any(state["teams"])  # judged at the start of a round: nobody has hired yet
    teams = []
    for team in state["teams"]:
        best = scoring.copy_options(team, effect)[0] if team else {"noise": 0, "bonus": 0}
        teams.append((best["noise"], best["bonus"]))
    low = min(noise for noise, _ in teams)
    rounds_left = ROUNDS - state["round"] + (0 if started else 1)
    points, wakes = [], []
    for s, (noise, bonus) in enumerate(teams):
        total = state["noise"][s] + noise
        cards_left = TEAM_SIZE - len(state["teams"][s]) if started else 0
        end_bonus, wake = end_of_game(total, rounds_left, cards_left)
        gained = bonus + (reward if started and noise == low else 0)
        points.append(state["treasure"][s] + gained + end_bonus - WAKE_COST * wake
                      - (100 if total >= WAKE_AT else 0))
        wakes.append(wake)
    return points, wakes, rounds_left


def lead_judge(engine, state: dict[str, Any], seat: int) -> float:
    """The hand-set judge (heads-up, and the fitted one's yardstick): a chance of winning from the seat's
    expected points against the best of the others', the less sure the further the end."""
    from bot.search import lead_value
    points, _, rounds_left = expected_points(engine, state)
    return lead_value(points, seat, 1.5 + 1.5 * rounds_left ** 0.5)


# Logistic weights of "this guild wins" over ``features``, fit on every guild at the start of rounds 2-5 of
# 160 seeded normal-bot games at 3 and 4 players (``python -m bot.games.sleeping.fit``). Held-out log-loss per
# guild (461 moments of 120 later games, chances shared out to add up to one): 0.4210, against 0.4221 for a
# fit on 520 games (more games barely help), 0.4387 for the hand-set lead judge and 0.5623 for an even share.
_WEIGHTS = (2.382, -3.616, 1.139, 0.928, 2.001, -2.077, -0.611)
_BIAS = -0.155
FEATURES = ("lead", "lead early", "ahead of the field", "waking chance", "treasure lead", "noise over the quietest",
            "rivals (log)")


def features(points: list[float], wakes: list[float], rounds_left: int, state: dict[str, Any],
             seat: int) -> tuple[float, ...]:
    """What a guild's chance is judged on (names in ``FEATURES``), about 0-1 each: its expected points
    ahead of the best other guild's (and that lead early in the game, when it is less sure), ahead of the
    others' mean, its chance of waking the wizard, its treasure in hand ahead of the best other's, its
    noise over the quietest other guild's (ties go to the quieter) and how many rivals it has."""
    import math
    others = [s for s in range(len(points)) if s != seat]
    lead = (points[seat] - max(points[s] for s in others)) / 10
    field = (points[seat] - sum(points[s] for s in others) / len(others)) / 10
    treasure = (state["treasure"][seat] - max(state["treasure"][s] for s in others)) / 10
    quiet = (state["noise"][seat] - min(state["noise"][s] for s in others)) / WAKE_AT
    return (lead, lead * rounds_left / ROUNDS, field, wakes[seat], treasure, quiet, math.log(len(others)))


def chances(engine, state: dict[str, Any]) -> list[float]:
    """Every guild's chance of winning from here (3+ players): the fitted chance of each, shared out so
    that they add up to one."""
    from bot.search.logistic import shared_chances
    points, wakes, rounds_left = expected_points(engine, state)
    return shared_chances(_BIAS, _WEIGHTS, [features(points, wakes, rounds_left, state, seat)
                                            for seat in range(len(points))])


def evaluate(engine, state: dict[str, Any], seat: int) -> float:
    """A playout cut short, as a chance of winning for ``seat``: at 3+ players the fitted chances
    (``chances``), heads-up the hand-set ``lead_judge``."""
    if len(state["names"]) < 3:
        return lead_judge(engine, state, seat)
    return chances(engine, state)[seat]
