"""HEIST: a full state consistent with one seat's view, for the search bot.

Hidden from a seat: the other hands, the deck and the discard pile below its top card,
the other players' secrets and, before the reveal, what the others committed. Resource
cards are counted: every card not in sight (own hand, score piles, upgrades, the current
test, the discard's top card) is dealt at random to the other hands, the deck and the
discard. The other secrets are drawn from the secrets this seat does not hold. A seat that
has already committed is taken to have committed what the heuristic bot would commit from
its sampled hand. Cards named alike but printed with different upgrades (Second Chance,
Improvise) are told apart by the upgrade the view shows, or by the owner's skills.
"""
from __future__ import annotations

import random
from typing import Any

from . import cards, rules
from .cards import OBSTACLE, RESOURCE

_IDENTITY_BY_NAME = {i["name"]: i["id"] for i in cards.IDENTITIES}


def _token(label: str) -> dict[str, Any]:
    colour, value = label.split(" ")
    return {"colour": colour, "face": cards.TOKENS[colour]["faces"].index(int(value)), "ignored": False}


def _take(pool: set[str], name: str, upgrade: Any = "any", consume: bool = True) -> str | None:
    """An id of a card by that name (and upgrade), out of the unseen ones if ``consume``."""
    source = sorted(pool) if consume else cards.RESOURCE_IDS
    for cid in source:
        c = RESOURCE[cid]
        if c["name"] == name and (upgrade == "any" or c["upgrade"] == upgrade):
            if consume:
                pool.discard(cid)
            return cid
    return None


def _unseen_pool(hand: list[str], test_view: dict[str, Any] | None,
                 phase: str) -> tuple[set[str], list[str]] | None:
    """The resource cards not yet placed (all but the seat's hand and the test's tricks) and a failed test's cheese."""
    pool = set(cards.RESOURCE_IDS)
    if not set(hand) <= pool:
        return None
    pool.difference_update(hand)
    # The current test's tricks are those very cards (their ids are shown: a failure's upgrade
    # move names one); a failed test's cheese tricks already lie in the active player's pile.
    played = [t["id"] for t in test_view["tricks"]] if test_view else []
    banked = [t["id"] for t in test_view["tricks"] if t["cheese"]] if test_view and phase == "upgrade" else []
    if len(set(played)) != len(played) or not set(played) <= pool:
        return None
    pool.difference_update(played)
    return pool, banked


def _pile(view: dict[str, Any], p: dict[str, Any], pool: set[str], banked: list[str]) -> list[str] | None:
    """A player's score pile as card ids: a failed test's banked cheese tricks are those very cards."""
    pile = []
    for item in p["pile"]:
        mine = [b for b in banked if cards.card_name(b) == item] if p["seat"] == view["active"] else []
        if mine:
            cid: str | None = mine[0]
            banked.remove(mine[0])
        else:
            cid = item if item in OBSTACLE else _take(pool, item)
        if cid is None:
            return None
        pile.append(cid)
    return pile


def _upgrades(p: dict[str, Any], pool: set[str]) -> list[str] | None:
    """A player's upgrades as card ids, each name printed with several upgrades given a skill the board shows spare."""
    # Each upgrade adds 1 to its skill: names that are printed with several upgrades take
    # the skills the board shows are left over.
    spare = {s: p["skills"][s] - p["base"][s] for s in cards.SKILLS}
    fixed: dict[str, str] = {}
    for name in p["upgrades"]:
        skills = {RESOURCE[c]["upgrade"] for c in cards.RESOURCE_IDS if RESOURCE[c]["name"] == name}
        if len(skills) == 1:
            fixed[name] = skills.pop()
            spare[fixed[name]] -= 1
    ups = []
    for name in p["upgrades"]:
        skill: str | None = fixed.get(name)
        if skill is None:
            skill = next((s for s in cards.SKILLS if spare[s] > 0
                          and any(RESOURCE[c]["name"] == name and RESOURCE[c]["upgrade"] == s for c in pool)), None)
            if skill is None:
                return None
            spare[skill] -= 1
        cid = _take(pool, name, skill)
        if cid is None:
            return None
        ups.append(cid)
    return ups


def _players(view: dict[str, Any], pool: set[str],
             banked: list[str]) -> tuple[list[str], list[list[str]], list[list[str]]] | None:
    """Every player's identity, score pile and upgrades, as ids (cards taken from the unseen pool)."""
    piles: list[list[str]] = []
    upgrades: list[list[str]] = []
    identities = []
    for p in view["players"]:
        identities.append(_IDENTITY_BY_NAME[p["identity"]])
        pile = _pile(view, p, pool, banked)
        if pile is None:
            return None
        piles.append(pile)
        ups = _upgrades(p, pool)
        if ups is None:
            return None
        upgrades.append(ups)
    return identities, piles, upgrades


def _test(test_view: dict[str, Any], phase: str, pool: set[str]) -> dict[str, Any] | None:
    """The current test as stored (commits filled in later), its assists taken from the unseen pool."""
    resolved = phase == "upgrade"
    assists = []
    for a in test_view["assists"]:
        # after a failure the assists have gone (discard, pile, hand): counted there
        cid = _take(pool, a["name"], a["upgrade"], consume=not resolved)
        if cid is None:
            return None
        assists.append({"seat": a["seat"], "card": cid})
    tricks, leftover = [], []
    for t in test_view["tricks"]:
        cid = t["id"]
        tricks.append(cid)
        if resolved and not t["cheese"]:
            leftover.append(cid)
    effects = [RESOURCE[c]["effect"] for c in tricks]
    return {"job": test_view["job"], "obstacle": test_view["obstacle"]["id"], "option": test_view["option"],
            "commits": {}, "revealed": test_view["revealed"], "assists": assists,
            "tokens": [{"colour": t["colour"], "face": t["face"], "ignored": t["ignored"]}
                       for t in test_view["tokens"]],
            "tricks": tricks, "bonus": sum(e.get("n", 0) for e in effects if e["do"] == "bonus"),
            "double": sum(1 for e in effects if e["do"] == "double"),
            "favour": sum(1 for e in effects if e["do"] == "favour"),
            "clean_exit": any(e["do"] == "clean_exit" for e in effects),
            "leftover": leftover, "resolved": resolved}


def _deal(view: dict[str, Any], seat: int, hand: list[str], pool: set[str],
          rng: random.Random) -> tuple[list[list[str]], list[str], list[str]] | None:
    """The unseen cards dealt to the other hands, the discard pile (under its top card) and the deck."""
    n = view["n"]
    discard_top = None
    if view["discard_top"] is not None:
        discard_top = _take(pool, view["discard_top"])
        if discard_top is None:
            return None
    others = [s for s in range(n) if s != seat]
    unseen = sorted(pool)
    need = sum(view["players"][s]["hand"] for s in others) + view["deck"] + view["discard"] - (discard_top is not None)
    if len(unseen) != need:
        return None  # the view and the card count disagree: do not guess
    rng.shuffle(unseen)
    hands: list[list[str]] = [[] for _ in range(n)]
    hands[seat] = hand
    for s in others:
        hands[s] = [unseen.pop() for _ in range(view["players"][s]["hand"])]
    discard = [unseen.pop() for _ in range(view["discard"] - (discard_top is not None))]
    if discard_top is not None:
        discard.append(discard_top)
    return hands, discard, unseen


def _secrets(view: dict[str, Any], seat: int, rng: random.Random) -> list[str]:
    """Every player's secret: the seat's own, the others drawn from the secrets it does not hold."""
    n = view["n"]
    own = view["private"]["secret"]["id"]
    eligible = [s["id"] for s in cards.SECRETS if (n > 1 or s.get("solo", True)) and s["id"] != own]
    rng.shuffle(eligible)
    return [own if s == seat else eligible.pop() for s in range(n)]


def _last(view: dict[str, Any], pool: set[str]) -> dict[str, Any] | None:
    """The last test's outcome as stored, its cards named by a printed copy."""
    if not view["last"]:
        return None
    lv = view["last"]
    return {"seat": lv["seat"], "obstacle": lv["obstacle"],
            "option": next(i for i, o in enumerate(OBSTACLE[lv["obstacle"]]["test"])
                           if cards.test_label(o) == lv["label"]),
            "total": lv["total"], "target": lv["target"], "success": lv["success"],
            "tokens": [{"colour": t["colour"], "face": t["face"], "ignored": t["ignored"]} for t in lv["tokens"]],
            "assists": [{"seat": a["seat"], "card": _take(pool, a["name"], consume=False)} for a in lv["assists"]],
            "tricks": [_take(pool, name, consume=False) for name in lv["tricks"]]}


def _commit_others(engine, state: dict[str, Any], test_view: dict[str, Any], rng: random.Random) -> None:
    """The test's commits: public after the reveal, else a public pass or what the heuristic would commit."""
    test = state["test"]
    commits: dict[str, Any] = {}
    if test["revealed"]:
        commits = {str(s): None for s in test_view["committed"]}
        for a in test["assists"]:
            commits[str(a["seat"])] = {"type": "assist", "card": a["card"]}
    else:
        test["commits"] = commits
        guess = random.Random(rng.getrandbits(64))
        for s in test_view["committed"]:
            if engine._pass_is_public(state, s):
                commits[str(s)] = None
        for s in test_view["committed"]:
            if str(s) not in commits:  # what the heuristic would have committed from this hand
                action = engine.bot_action(state, s, guess)
                commits[str(s)] = action if action["type"] == "assist" else None
    test["commits"] = commits


def sample_state(engine, view: dict[str, Any], seat: int, rng: random.Random) -> dict[str, Any] | None:
    """A full state the seat cannot tell from the true one, what it cannot see dealt with ``rng``
    (None where this moment cannot be searched)."""
    if view["over"] or "private" not in view:
        return None
    n, phase, test_view = view["n"], view["phase"], view["test"]
    if test_view and seat in test_view["committed"] and not test_view["revealed"]:
        return None  # this seat has committed: it has nothing to decide until the reveal
    hand = [c["id"] for c in view["private"]["hand"]]
    unseen = _unseen_pool(hand, test_view, phase)
    if unseen is None:
        return None
    pool, banked = unseen
    players = _players(view, pool, banked)
    if players is None:
        return None
    test = _test(test_view, phase, pool) if test_view else None
    if test_view and test is None:
        return None
    identities, piles, upgrades = players
    dealt = _deal(view, seat, hand, pool, rng)
    if dealt is None:
        return None
    hands, discard, deck = dealt
    secrets = _secrets(view, seat, rng)
    rule_set = rules.of(view["options"])
    k = rule_set.job_length[n]
    leader = rule_set.leader(view["start"], view["round"], n)
    state: dict[str, Any] = {
        "names": list(view["names"]), "rng": rng.getrandbits(64), "options": dict(view["options"]), "n": n,
        "identities": identities, "box_identities": sorted(set(_IDENTITY_BY_NAME.values()) - set(identities)),
        "secrets": secrets, "box_secrets": sorted(set(cards.SECRET) - set(secrets)),
        "jobs": {j["letter"]: list(j["stack"]) for j in view["jobs"]},
        "unused": sorted(o["id"] for j in cards.JOBS for o in j["obstacles"][k:]),
        "finales": {j["letter"]: j["obstacles"][:k][-1]["id"] for j in cards.JOBS},
        "boxed": list(view["boxed"]), "tests": view["tests"], "failed": view["failed"],
        "completed": list(view["completed"]),
        "heat": [{"colour": h["colour"], "count": h["count"], "done": h["done"]} for h in view["heat"]],
        "bag": dict(view["bag"]), "supply": dict(view["supply"]),
        "spent": [_token(label) for label in view["spent"]],
        "deck": deck, "discard": discard, "hands": hands,
        "held": sorted({cards.card_name(c) for h in hands for c in h}),
        "upgrades": upgrades, "piles": piles, "locations": [p["location"] for p in view["players"]],
        "start": view["start"], "leader": leader, "active": view["active"], "round": view["round"],
        "turns": (view["active"] - leader) % n, "phase": phase, "test": test, "last": _last(view, pool),
        "final": None,
    }
    if test is not None:
        _commit_others(engine, state, test_view, rng)
        if "picking" in view["private"]:  # this seat picked an assist and is still to pay for it
            test["picking"] = {str(seat): view["private"]["picking"]}
    return state


def evaluate(engine, state: dict[str, Any], seat: int) -> float:
    """A playout cut short: each seat's cheese as the game stands (obstacles, kept cards, job
    bonus, head start) plus its secret's cheese weighted by how likely it is to hold at the end
    (held now: 70%, else 20%), turned into a chance of winning for ``seat`` (solo: of the target)."""
    from bot.search import lead_value

    from .scoring import _score_row
    points = []
    for s in range(state["n"]):
        row = _score_row(state, s)
        secret = cards.SECRET[state["secrets"][s]]["cheese"]
        banked = row["score"] - (secret if row["secret_met"] else 0)
        # ties go to more obstacles: a tenth of a point each keeps that order (where the start player wins ties on
        # cheese, half a point puts it first among equals)
        tie = 0.5 if s == state["start"] and rules.of(state).start_wins_ties[state["n"]] else 0.0
        points.append(banked + (0.7 if row["secret_met"] else 0.2) * secret + tie + 0.1 * row["obstacles"])
    if state["n"] == 1:
        return lead_value(points + [float(cards.SOLO_TARGET)], seat, 2.0)
    return lead_value(points, seat, 2.0)
