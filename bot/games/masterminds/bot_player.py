"""A sensible bot for Masterminds: Heist Society.

It decides from its seat's view (``engine.view(state, seat)``: the public board plus its
own hand) and the legal actions only -- it is never handed the game state, so it can't
peek at decks, rival hands or the hidden commits of an interrupt window. Card ids in the
view are public facts; their printed data comes from :mod:`.cards` and the arithmetic
from :mod:`.calc`.
"""
from __future__ import annotations

import random
from itertools import combinations
from typing import Any, Mapping

from .calc import crew_total, p_beat, recruit_value
from .cards import CLEAR, PREP, TALENTS, effective_stats

MAX_ACTIVATE = 3
ATTEMPT_P = 0.42   # start a heist step when at least this likely to succeed
CONTINUE_P = 0.75  # press on within a run (a FAILURE busts the dice placed this run)
FINISH_P = 0.5     # go for step D


ABILITY_WORTH = {"fixer": 2.5, "scout": 1.0, "fence": 1.5, "slippery": 1.0, "leader": 2.0, "perfectionist": 1.5,
                 "clutch": 1.0, "lucky": 1.0, "gearhead": 1.0, "solo": 1.0, "allrounder": 3.0}


def talent_worth(tid: str) -> float:
    stats = effective_stats(tid)
    return sum(stats) + 1.5 * max(stats) + ABILITY_WORTH[TALENTS[tid]["ability"]]


def fit_worth(tid: str, team: list[dict[str, Any]]) -> float:
    """A talent's worth to this team: its own worth plus the skills it adds where the team is weak."""
    best = [max((e["values"][i] for e in team if e["id"] != tid), default=0) for i in range(5)]
    return talent_worth(tid) + 0.8 * sum(max(0, v - b) for v, b in zip(effective_stats(tid), best))


def _gear_id(entry: dict[str, Any]) -> str | None:
    return entry["gear"]["id"] if entry.get("gear") else None


def _leader(view: Mapping[str, Any], me: int) -> int | None:
    others = [p for p in view["players"] if p["seat"] != me]
    if not others:
        return None
    return max(others, key=lambda p: (p["gem_count"] + 3 * len(p["heists"]), -p["seat"]))["seat"]


def _crews(team: list[dict[str, Any]]) -> list[list[dict[str, Any]]]:
    fresh = [e for e in team if not e["tapped"]]
    return [list(c) for k in range(1, min(MAX_ACTIVATE, len(fresh)) + 1) for c in combinations(fresh, k)]


def _score(view, me: int, slot: int, skill: str, crew: list[dict[str, Any]]) -> tuple[float, float]:
    """How good sending ``crew`` at the next step of heist ``slot`` is, and its success chance."""
    h = view["heists"][slot]
    k = h["next"]
    number = h["steps"][k]["number"]
    total, _ = crew_total([(e["id"], _gear_id(e)) for e in crew], skill, view["players"][me]["intel"])
    clutch = any(TALENTS[e["id"]]["ability"] == "clutch" for e in crew)
    p = p_beat(total, number, clutch)
    score = p * 10 + k * 1.5 - 0.6 * len(crew)
    if total > number:
        score += 1.0 - 0.4 * max(0, total - number - 1)  # don't waste recruits on overkill
    own = sum(1 for st in h["steps"] if st["die"] and st["die"]["seat"] == me)
    score += own * 0.8
    return score, p


def _best(view, me: int, steps: list[dict[str, Any]], min_p: float):
    """The best (step action, crew) over the offered steps, or (None, None)."""
    team = view["players"][me]["team"]
    best: tuple[dict[str, Any] | None, list[dict[str, Any]] | None] = (None, None)
    best_score = -1e9
    for a in steps:
        if "recruits" in a:
            continue
        for crew in _crews(team):
            score, p = _score(view, me, a["heist"], a["skill"], crew)
            if p >= min_p and score > best_score:
                best, best_score = (a, crew), score
    return best


def choose(view: Mapping[str, Any], legal: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    if not legal:
        raise ValueError("bot asked to act with no legal action")
    if len(legal) == 1:
        return legal[0]
    me = view["private"]["seat"]
    phase = view["phase"]
    hand = [c["id"] for c in view["private"]["hand"]]
    mine = view["players"][me]
    team = mine["team"]

    def first(kind: str, pred=lambda a: True):
        for a in legal:
            if a["type"] == kind and pred(a):
                return a
        return None

    if phase in ("turn", "continue"):
        if phase == "turn":
            need = ATTEMPT_P
        else:
            need = FINISH_P if view["heists"][view["attempt"]["heist"]]["next"] == 3 else CONTINUE_P
        step, crew = _best(view, me, [a for a in legal if a["type"] == "heist"], need)
        if step is not None:
            quick = dict(step, recruits=[e["id"] for e in crew])
            return quick if quick in legal else step
        if phase == "continue":
            return {"type": "hold"}
        pool = [t["id"] for t in view["pool"]]
        pool_best = max(pool, key=lambda t: fit_worth(t, team), default=None)
        if pool_best is not None:
            if len(team) < 4:
                return {"type": "recruit", "card": pool_best, "replace": None}
            weakest = min(team, key=lambda e: fit_worth(e["id"], team))
            if fit_worth(pool_best, team) > fit_worth(weakest["id"], team) + 2.5:
                return {"type": "recruit", "card": pool_best, "replace": weakest["id"]}
        if len(team) < 3 and pool and rng.random() < 0.5:
            return {"type": "burn"}
        return {"type": "draw_prep"}

    if phase == "crew":
        pick = view["picking"]
        step = {"type": "heist", "heist": pick["heist"], "skill": pick["skill"]}
        _, crew = _best(view, me, [step], 0.0)
        if crew is not None:
            want = {"type": "crew", "recruits": [e["id"] for e in crew]}
            if want in legal:
                return want
        return first("back") or legal[0]

    if phase in ("burned", "hire"):
        if phase == "burned":
            tid = view["burned"]["id"]
            opts = [a for a in legal if a["type"] == "hire"]
        else:
            tid = max((t["id"] for t in view["pool"]), key=lambda t: fit_worth(t, team))
            opts = [a for a in legal if a["type"] == "hire_pool" and a["card"] == tid]
        if len(team) < 4:
            pick = next((a for a in opts if a["replace"] is None), None)
            if pick:
                return pick
        weakest = min(team, key=lambda e: fit_worth(e["id"], team), default=None)
        if weakest and fit_worth(tid, team) > fit_worth(weakest["id"], team) + 1:
            pick = next((a for a in opts if a["replace"] == weakest["id"]), None)
            if pick:
                return pick
        return first("to_pool") or first("hire_skip") or legal[-1]

    if phase in ("plan", "gear2"):
        gear_moves = [a for a in legal if a["type"] == "gear"]
        if gear_moves:
            def gear_fit(a):
                g = PREP[a["card"]]
                stats = dict(zip(("Driving", "Stealth", "Hacking", "Muscle", "Charm"), effective_stats(a["recruit"])))
                base = max(stats.values()) if g["skill"] == "all" else stats[g["skill"]]
                return base + g["bonus"] + (1 if TALENTS[a["recruit"]]["ability"] == "gearhead" else 0)
            return max(gear_moves, key=gear_fit)
        if phase == "gear2":
            return {"type": "gear_done"}
        actions = [a for a in legal if a["type"] == "action"]
        plain = {PREP[a["card"]]["effect"]: a for a in actions if a["gem"] is None}
        leader = _leader(view, me)
        # A rival one step from finishing a heist: spend a gem to knock their die off.
        for a in actions:
            if PREP[a["card"]]["effect"] == "doublecross" and a["gem"] == CLEAR:
                for h in view["heists"]:
                    if h and h["next"] == 3 and h["steps"][2]["die"]["seat"] != me:
                        return a
        if "intel" in plain and team:
            return plain["intel"]
        if "draw" in plain and len(hand) <= 4:
            return plain["draw"]
        if "blackmarket" in plain and team and len(hand) <= 5:
            return plain["blackmarket"]
        if "sabotage" in plain and leader is not None and view["players"][leader]["hand"]:
            return plain["sabotage"]
        if "doublecross" in plain:
            return plain["doublecross"]
        if "headhunt" in plain and len(team) < 3:
            return plain["headhunt"]
        if len(hand) < 6 and {"type": "draw"} in legal:
            return {"type": "draw"}
        if "blackmarket" in plain:
            return plain["blackmarket"]
        return first("end_plan") or legal[-1]

    if phase == "target":
        leader = _leader(view, me)
        for a in legal:
            if a.get("seat") == leader:
                return a
        if any("heist" in a for a in legal):
            def danger(a):
                h = view["heists"][a["heist"]]
                d = h["steps"][h["next"] - 1]["die"]
                return (d["seat"] != me, h["next"])
            return max(legal, key=danger)
        if any("recruit" in a for a in legal):
            owner_of = {e["id"]: (p["seat"], e) for p in view["players"] for e in p["team"]}

            def hurt(a):
                owner, e = owner_of[a["recruit"]]
                return (owner == leader, PREP[e["gear"]["id"]]["bonus"])
            return max(legal, key=hurt)
        return legal[0]

    if phase == "window":
        actor = view["turn"]
        cards = {PREP[a["card"]]["effect"]: a for a in legal if a["type"] == "interrupt"}
        if view["window"]["kind"] == "test":
            te = view["test"]
            if me == actor:  # help our own recruit; never waste cards on a rival's test
                entry = next(e for e in team if e["id"] == te["recruit_id"])
                v = recruit_value(entry["id"], _gear_id(entry), te["skill"])
                v += 3 if TALENTS[entry["id"]]["ability"] == "slippery" else 0
                if p_beat(v, te["number"]) < 0.7:
                    if "plus2" in cards:
                        return cards["plus2"]
                    if "twodice" in cards:
                        return cards["twodice"]
            return {"type": "pass"}
        at = view["attempt"]
        total = at["base"] + at["mods"]
        p = p_beat(total, at["number"])
        if me == actor:
            if total > at["number"]:
                return {"type": "pass"}
            if "plus2" in cards and p_beat(total + 2, at["number"]) > p:
                return cards["plus2"]
            if "twodice" in cards and p < 0.9:
                return cards["twodice"]
            if "cover" in cards and p < 0.6:
                return cards["cover"]
            return {"type": "pass"}
        important = at["step"] >= 2 or actor == _leader(view, me)
        if "minus2" in cards and p > 0.3 and p_beat(total - 2, at["number"]) < p and (important or rng.random() < 0.3):
            return cards["minus2"]
        if "noperfect" in cards and total > at["number"] and important:
            return cards["noperfect"]
        return {"type": "pass"}

    if phase == "suffer":
        return min(legal, key=lambda a: talent_worth(a["recruit"]))

    if phase == "lose_gem":
        return first("give_gem", lambda a: a["colour"] == CLEAR) or legal[0]

    if phase == "retire":
        return min(legal, key=lambda a: talent_worth(a["recruit"]))

    if phase == "discard":
        order = {"immediate": 0, "action": 1, "interrupt": 2, "gear": 3}
        return min(legal, key=lambda a: (order[PREP[a["card"]]["kind"]], a["card"]))

    return legal[0]
