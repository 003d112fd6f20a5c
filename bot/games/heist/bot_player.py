"""The HEIST bot: plays from what its seat may know (the public board, its own
hand and secret), never from other hands, commits or the deck order."""
from __future__ import annotations

import random
from typing import Any

from . import cards as K
from .cards import OBSTACLE, RESOURCE


def token_sum_distribution(bag: dict[str, int], draws: int, front_only: bool = False) -> dict[int, float]:
    """Exact distribution of the sum of ``draws`` tokens drawn from ``bag``."""
    dist: dict[int, float] = {0: 1.0}
    # Enumerate draws without replacement (bags are small, draws is 2).
    def rec(bag: dict[str, int], left: int, acc: int, p: float) -> None:
        total = sum(bag.values())
        if left == 0 or total == 0:
            dist_out[acc] = dist_out.get(acc, 0.0) + p
            return
        for colour, count in bag.items():
            if not count:
                continue
            q = p * count / total
            bag[colour] -= 1
            faces = K.TOKENS[colour]["faces"][:1] if front_only else K.TOKENS[colour]["faces"]
            for value in faces:
                rec(bag, left - 1, acc + value, q / len(faces))
            bag[colour] += 1
    dist_out: dict[int, float] = {}
    rec(dict(bag), draws, 0, 1.0)
    return dist_out or dist


def p_at_least(dist: dict[int, float], need: float) -> float:
    return sum(p for v, p in dist.items() if v >= need)


def bag_mean(bag: dict[str, int], front_only: bool = False) -> float:
    total = sum(bag.values())
    if not total:
        return 0.0
    acc = 0.0
    for colour, count in bag.items():
        faces = K.TOKENS[colour]["faces"][:1] if front_only else K.TOKENS[colour]["faces"]
        acc += count * sum(faces) / len(faces)
    return acc / total


def _assist_value(cid: str) -> float:
    c = RESOURCE[cid]
    if c["special"] == "double_cross":
        return -10.0
    return c["modifier"] + 2.0 * bool(c["upgrade"]) + 1.5 * c["cheese"]


def _keep_value(cid: str) -> float:
    """How much the bot likes keeping a card (lowest is paid away first)."""
    c = RESOURCE[cid]
    if c["kind"] == "assist":
        return _assist_value(cid)
    return 1.0 + c["cheese"] + 1.5 * bool(c["upgrade"])


def success_chance(engine, state: dict[str, Any], seat: int, option: dict[str, Any], helpers: float) -> float:
    skill = sum(engine.skill(state, seat, s) for s in option["skills"])
    front = state["options"].get("token_faces") == "front"
    dist = token_sum_distribution(state["bag"], K.DRAW_TOKENS, front)
    return p_at_least(dist, option["target"] - skill - helpers)


def choose_action(engine, state: dict[str, Any], seat: int, rng: random.Random) -> dict[str, Any]:
    legal = engine.legal_actions(state, seat)
    phase = state["phase"]
    if phase == "choose":
        return _choose(engine, state, seat, legal, rng)
    if phase == "assist":
        return _assist(engine, state, seat, legal, rng)
    if phase == "tricks":
        return _tricks(engine, state, seat, legal)
    if phase == "upgrade":
        return _upgrade(engine, state, seat, legal)
    return legal[0]


def _choose(engine, state, seat, legal, rng):
    hand = state["hands"][seat]
    tricks = sum(1 for c in hand if K.is_trick(c))
    helpers = 1.2 * (state["n"] - 1) + 0.8 * min(tricks, 2)
    secret = K.SECRET[state["secrets"][seat]]["check"]["kind"]
    mine = [o for o in state["piles"][seat] if o in OBSTACLE]
    have_jobs = {OBSTACLE[o]["job"] for o in mine}
    best, best_score = legal[0], -1e9
    for action in legal:
        ob = OBSTACLE[state["jobs"][action["job"]][0]]
        option = ob["test"][action["option"]]
        p = success_chance(engine, state, seat, option, helpers)
        penalty = 1.0 if ob["failure"] else 0.0
        if ob["mandatory"]:
            penalty += 0.5
        value = ob["cheese"] + 1.0
        if secret == "distinct_jobs" and ob["job"] not in have_jobs:
            value += 1.5
        if secret == "same_job":
            value += 0.8 * sum(1 for o in mine if OBSTACLE[o]["job"] == ob["job"])
        if secret == "jobs_completed":
            value += 0.3 * (7 - len(state["jobs"][ob["job"]]))
        score = p * value - (1 - p) * penalty + rng.random() * 0.05
        if score > best_score:
            best, best_score = action, score
    return best


def _assist(engine, state, seat, legal, rng):
    test = state["test"]
    active = state["active"]
    option = OBSTACLE[test["obstacle"]]["test"][test["option"]]
    p = success_chance(engine, state, active, option, 0.8 * (state["n"] - 2))
    secret = state["secrets"][seat]
    saboteur = secret in ("saboteur", "heat_seeker")
    best, best_value = {"type": "no_assist"}, 0.0
    hand = state["hands"][seat]
    for action in legal:
        if action["type"] != "assist":
            continue
        cid = action["card"]
        c = RESOURCE[cid]
        if c["special"] == "double_cross":
            value = 3.0 if (p < 0.3 or saboteur) else -1.0
        else:
            value = _assist_value(cid)
            if p > 0.97 and not c["upgrade"] and not c["cheese"]:
                value = 0.1
            if secret == "lone_wolf":
                value -= 0.5
        if "pay" in action:
            if len(hand) < 3:
                continue
            value -= 0.6 * _keep_value(action["pay"]) + 0.5
        if value > best_value:
            best, best_value = action, value
    return best


def _gain(engine, state, action) -> float:
    """Expected change of the total from one trick."""
    test = state["test"]
    c = RESOURCE[action["card"]]
    do = c["effect"]["do"]
    front = state["options"].get("token_faces") == "front"
    if do == "flip":
        t = test["tokens"][action["token"]]
        faces = K.TOKENS[t["colour"]]["faces"]
        return faces[1 - t["face"]] - faces[t["face"]]
    if do == "flip_all":
        return sum(K.TOKENS[t["colour"]]["faces"][1 - t["face"]] - K.token_value(t)
                   for t in test["tokens"] if not t["ignored"])
    if do == "redraw":
        return bag_mean(state["bag"], front) - K.token_value(test["tokens"][action["token"]])
    if do == "ignore":
        return -K.token_value(test["tokens"][action["token"]])
    if do == "bonus":
        return c["effect"]["n"]
    if do == "extra":
        return bag_mean(state["bag"], front)
    if do == "lucky":
        live = [K.token_value(t) for t in test["tokens"] if not t["ignored"]]
        return max(0.0, -min(live)) if live else 0.0
    if do == "double":
        live = [K.token_value(t) for t in test["tokens"] if not t["ignored"]]
        return max(live) if live else 0.0
    if do == "favour":
        return len(test["assists"])
    return 0.0


def _tricks(engine, state, seat, legal):
    numbers = engine.total(state)
    deficit = numbers["target"] - numbers["total"]
    if deficit <= 0:
        return {"type": "resolve"}
    scored = []
    for action in legal:
        if action["type"] != "trick":
            continue
        scored.append((_gain(engine, state, action), action))
    if not scored:
        return {"type": "resolve"}
    # Can the positive tricks in hand close the gap? Count each card once.
    best_per_card: dict[str, float] = {}
    for gain, action in scored:
        best_per_card[action["card"]] = max(best_per_card.get(action["card"], 0.0), gain)
    reachable = sum(g for g in best_per_card.values() if g > 0) >= deficit
    if reachable:
        gain, action = max(scored, key=lambda x: (x[0], -_keep_value(x[1]["card"])))
        if gain > 0:
            return action
    # Hopeless: play cheese tricks (they score on a failure); keep upgrade tricks.
    # (Sore Loser wants trick cards in the score pile anyway.)
    for gain, action in sorted(scored, key=lambda x: -x[0]):
        c = RESOURCE[action["card"]]
        if c["cheese"] and not c["upgrade"] and c["effect"]["do"] != "clean_exit":
            return action
    clean = [a for _, a in scored if RESOURCE[a["card"]]["effect"]["do"] == "clean_exit"]
    if clean and OBSTACLE[state["test"]["obstacle"]]["failure"]:
        return clean[0]
    return {"type": "resolve"}


def _upgrade(engine, state, seat, legal):
    test = state["test"]
    option = OBSTACLE[test["obstacle"]]["test"][test["option"]]
    secret = K.SECRET[state["secrets"][seat]]["check"]
    wanted = list(option["skills"])
    if secret["kind"] == "top_skill":
        wanted = [secret["skill"]]
    if secret["kind"] == "all_skills":
        skills = engine.skills(state, seat)
        wanted = [s for s in skills if skills[s] < secret["n"]] or wanted
    best, best_score = {"type": "no_upgrade"}, 0.0
    for action in legal:
        if action["type"] != "upgrade":
            continue
        c = RESOURCE[action["card"]]
        score = 1.0 + (2.0 if c["upgrade"] in wanted else 0.0)
        if action["card"] in test["leftover"]:
            score += 1.0  # free: it was going to the discard pile anyway
        if score > best_score:
            best, best_score = action, score
    return best
