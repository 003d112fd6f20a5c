"""A sensible bot for Masterminds: Heist Society.

It only reads what its seat may know: the public board (heists, dice, teams, gear,
gem counts, Intel) and its own hand. It never looks at decks, other hands or the
hidden interrupt commits of other players.
"""
from __future__ import annotations

import random
from collections import Counter
from typing import Any

from .cards import CLEAR, PREP, TALENTS


def recruit_value(entry: dict[str, Any], skill: str) -> int:
    from .engine import recruit_value as value  # late import: engine imports this module
    return value(entry, skill)


def talent_worth(tid: str) -> float:
    t = TALENTS[tid]
    stats = t["stats"]
    if t["ability"] == "allrounder":
        stats = [max(2, s) for s in stats]
    return sum(stats) + 1.5 * max(stats)


def p_success(total: int, number: int, clutch: bool = False) -> float:
    """Chance that total + d6 beats ``number`` (1.0 when already greater)."""
    if total > number:
        return 1.0
    need = number - total + (0 if clutch else 1)  # minimum die face that succeeds
    return max(0, min(6, 7 - need)) / 6


def _attempt_score(engine, state, seat: int, a: dict[str, Any]) -> tuple[float, float]:
    h = state["heists"][a["heist"]]
    k = engine._next_step(h)
    number = engine._steps(h)[k]["number"]
    total, _ = engine.attempt_total(state, seat, a["skill"], a["recruits"])
    clutch = any(TALENTS[t]["ability"] == "clutch" for t in a["recruits"])
    p = p_success(total, number, clutch)
    score = p * 10 + k * 1.5 - 0.6 * len(a["recruits"])
    if total > number:
        score += 1.0 - 0.4 * max(0, total - number - 1)  # don't waste recruits on overkill
    own = sum(1 for d in h["dice"] if d and d["seat"] == seat)
    score += own * 0.8
    return score, p


def _best_attempt(engine, state, seat, legal, min_p: float):
    best, best_score = None, -1e9
    for a in legal:
        if a["type"] != "attempt":
            continue
        score, p = _attempt_score(engine, state, seat, a)
        if p < min_p:
            continue
        if score > best_score:
            best, best_score = a, score
    return best


def _leader(state, seat: int) -> int | None:
    others = [s for s in range(len(state["names"])) if s != seat]
    if not others:
        return None
    return max(others, key=lambda s: (sum(state["gems"][s].values()) + 3 * len(state["mementos"][s]), -s))


def choose(engine, state, seat: int, rng: random.Random) -> dict[str, Any]:
    legal = engine.legal_actions(state, seat)
    if not legal:
        raise ValueError("bot asked to act with no legal action")
    phase = state["phase"]
    hand = state["hands"][seat]
    team = state["teams"][seat]

    def first(kind: str, pred=lambda a: True):
        for a in legal:
            if a["type"] == kind and pred(a):
                return a
        return None

    if phase == "turn":
        attempt = _best_attempt(engine, state, seat, legal, 0.66)
        if attempt is not None:
            return attempt
        pool_best = max(state["pool"], key=talent_worth, default=None)
        if pool_best is not None:
            if len(team) < 4:
                return {"type": "recruit", "card": pool_best, "replace": None}
            weakest = min(team, key=lambda e: talent_worth(e["card"]))
            if talent_worth(pool_best) > talent_worth(weakest["card"]) + 2.5:
                return {"type": "recruit", "card": pool_best, "replace": weakest["card"]}
        if len(team) < 3 and state["pool"] and rng.random() < 0.5:
            return {"type": "burn"}
        return {"type": "draw_prep"}

    if phase in ("burned", "hire"):
        if phase == "burned":
            tid = state["pending"]["card"]
            opts = [a for a in legal if a["type"] == "hire"]
        else:
            tid = max(state["pool"], key=talent_worth)
            opts = [a for a in legal if a["type"] == "hire_pool" and a["card"] == tid]
        if len(team) < 4:
            pick = next((a for a in opts if a["replace"] is None), None)
            if pick:
                return pick
        weakest = min(team, key=lambda e: talent_worth(e["card"]), default=None)
        if weakest and talent_worth(tid) > talent_worth(weakest["card"]) + 1:
            pick = next((a for a in opts if a["replace"] == weakest["card"]), None)
            if pick:
                return pick
        return first("to_pool") or first("hire_skip") or legal[-1]

    if phase in ("plan", "gear2"):
        gear_moves = [a for a in legal if a["type"] == "gear"]
        if gear_moves:
            def gear_fit(a):
                g = PREP[a["card"]]
                tid = a["recruit"]
                stats = TALENTS[tid]["stat"]
                base = max(stats.values()) if g["skill"] == "all" else stats[g["skill"]]
                return base + g["bonus"] + (1 if TALENTS[tid]["ability"] == "gearhead" else 0)
            return max(gear_moves, key=gear_fit)
        if phase == "gear2":
            return {"type": "gear_done"}
        actions = [a for a in legal if a["type"] == "action"]
        plain = {PREP[a["card"]]["effect"]: a for a in actions if a["gem"] is None}
        leader = _leader(state, seat)
        # A rival one step from finishing a heist: spend a gem to knock their die off.
        for a in actions:
            if PREP[a["card"]]["effect"] == "doublecross" and a["gem"] == CLEAR:
                for h in state["heists"]:
                    if h and engine._next_step(h) == 3 and h["dice"][2]["seat"] != seat:
                        return a
        if "intel" in plain and team:
            return plain["intel"]
        if "draw" in plain and len(hand) <= 4:
            return plain["draw"]
        if "sabotage" in plain and leader is not None and state["hands"][leader]:
            return plain["sabotage"]
        if "doublecross" in plain:
            return plain["doublecross"]
        if "headhunt" in plain and len(team) < 3:
            return plain["headhunt"]
        if len(hand) < 6:
            return {"type": "draw"}
        if "blackmarket" in plain:
            return plain["blackmarket"]
        return {"type": "end_plan"}

    if phase == "target":
        leader = _leader(state, seat)
        for a in legal:
            if a.get("seat") == leader:
                return a
        if any("heist" in a for a in legal):
            def danger(a):
                h = state["heists"][a["heist"]]
                k = engine._next_step(h)
                d = h["dice"][k - 1]
                return (d["seat"] != seat, k)
            return max((a for a in legal), key=danger)
        if any("recruit" in a for a in legal):
            def hurt(a):
                owner, e = engine._entry(state, a["recruit"])
                return (owner == leader, PREP[e["gear"]]["bonus"])
            return max(legal, key=hurt)
        return legal[0]

    if phase == "window":
        w = state["window"]
        actor = state["turn"]
        cards = {PREP[a["card"]]["effect"]: a for a in legal if a["type"] == "interrupt"}
        if w["kind"] == "test":
            te = state["test"]
            if seat == actor:  # help our own recruit; never waste cards on a rival's test
                _, e = engine._entry(state, te["recruit"])
                v = recruit_value(e, te["skill"]) + (3 if TALENTS[te["recruit"]]["ability"] == "slippery" else 0)
                if p_success(v, te["number"]) < 0.7:
                    if "plus2" in cards:
                        return cards["plus2"]
                    if "twodice" in cards:
                        return cards["twodice"]
            return {"type": "pass"}
        at = state["attempt"]
        total = at["base"] + at["mods"]
        p = p_success(total, at["number"])
        if seat == actor:
            if total > at["number"]:
                return {"type": "pass"}
            if "plus2" in cards and p_success(total + 2, at["number"]) > p:
                return cards["plus2"]
            if "twodice" in cards and p < 0.9:
                return cards["twodice"]
            if "cover" in cards and p < 0.6:
                return cards["cover"]
            return {"type": "pass"}
        important = at["step"] >= 2 or actor == _leader(state, seat)
        if "minus2" in cards and p > 0.3 and p_success(total - 2, at["number"]) < p and (important or rng.random() < 0.3):
            return cards["minus2"]
        if "noperfect" in cards and total > at["number"] and important:
            return cards["noperfect"]
        return {"type": "pass"}

    if phase == "face":
        at = state["attempt"]
        h = state["heists"][at["heist"]]
        own = Counter(d["value"] for d in h["dice"] if d and d["seat"] == seat)
        value = max(own, key=lambda v: (own[v], v)) if own else 6
        return {"type": "face", "value": value}

    if phase == "suffer":
        at = state["attempt"]
        return {"type": "suffer", "recruit": min(at["recruits"], key=talent_worth)}

    if phase == "continue":
        at = state["attempt"]
        h = state["heists"][at["heist"]]
        k = engine._next_step(h)
        need = 0.5 if k == 3 else 0.75
        attempt = _best_attempt(engine, state, seat, legal, need)
        return attempt or {"type": "hold"}

    if phase == "lose_gem":
        return first("give_gem", lambda a: a["colour"] == CLEAR) or legal[0]

    if phase == "retire":
        return min(legal, key=lambda a: talent_worth(a["recruit"]))

    if phase == "discard":
        order = {"immediate": 0, "action": 1, "interrupt": 2, "gear": 3}
        return min(legal, key=lambda a: (order[PREP[a["card"]]["kind"]], a["card"]))

    return legal[0]
