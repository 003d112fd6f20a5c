"""The HEIST bot: decides from its seat's view (``engine.view(state, seat)``: the
public board plus its own hand and secret) and the legal actions only. It is never
given the state, so it cannot see other hands, commits or the deck order."""
from __future__ import annotations

import random
from typing import Any

from bot.engine import plays_rulebook

from . import cards
from .cards import OBSTACLE, RESOURCE
from .viewtypes import CurrentTestView, HeistView

SAME_JOB_NUDGE = 3.0  # Specialist: value per obstacle of that job already in the score pile (doubled when it needs 3+)
BAG_NUDGE = 1.5  # a bag secret: value per token an obstacle's effect moves towards it


def token_sum_distribution(bag: dict[str, int], draws: int, front_only: bool = False) -> dict[int, float]:
    """Exact distribution of the sum of ``draws`` tokens drawn from ``bag``."""
    certain: dict[int, float] = {0: 1.0}

    # Enumerate draws without replacement (bags are small, draws is 2).
    def spread(bag: dict[str, int], left: int, acc: int, chance: float) -> None:
        in_bag = sum(bag.values())
        if left == 0 or in_bag == 0:
            out[acc] = out.get(acc, 0.0) + chance
            return
        for colour, count in bag.items():
            if not count:
                continue
            colour_chance = chance * count / in_bag
            bag[colour] -= 1
            faces = cards.TOKENS[colour]["faces"][:1] if front_only else cards.TOKENS[colour]["faces"]
            for value in faces:
                spread(bag, left - 1, acc + value, colour_chance / len(faces))
            bag[colour] += 1
    out: dict[int, float] = {}
    spread(dict(bag), draws, 0, 1.0)
    return out or certain


def p_at_least(dist: dict[int, float], need: float) -> float:
    """The chance that a sum with this distribution reaches ``need``."""
    return sum(chance for value, chance in dist.items() if value >= need)


def bag_mean(bag: dict[str, int], front_only: bool = False) -> float:
    """The expected value of one token drawn from ``bag``."""
    in_bag = sum(bag.values())
    if not in_bag:
        return 0.0
    acc = 0.0
    for colour, count in bag.items():
        faces = cards.TOKENS[colour]["faces"][:1] if front_only else cards.TOKENS[colour]["faces"]
        acc += count * sum(faces) / len(faces)
    return acc / in_bag


def _assist_value(card_id: str) -> float:
    card = RESOURCE[card_id]
    if card["special"] == "double_cross":
        return -10.0
    return card["modifier"] + 2.0 * bool(card["upgrade"]) + 1.5 * card["cheese"]


def _keep_value(card_id: str) -> float:
    """How much the bot likes keeping a card (lowest is paid away first)."""
    card = RESOURCE[card_id]
    if card["kind"] == "assist":
        return _assist_value(card_id)
    return 1.0 + card["cheese"] + 1.5 * bool(card["upgrade"])


def _skill(view: HeistView, seat: int, option: dict[str, Any]) -> int:
    skills = view["players"][seat]["skills"]
    return sum(skills[s] for s in option["skills"])


def success_chance(view: HeistView, seat: int, option: dict[str, Any], helpers: float) -> float:
    """The chance that ``seat`` passes this skill test with ``helpers`` expected from assists and tricks."""
    front = view["options"].get("token_faces") == "front"
    dist = token_sum_distribution(view["bag"], cards.DRAW_TOKENS, front)
    return p_at_least(dist, option["target"] - _skill(view, seat, option) - helpers)


def _secret(view: HeistView) -> dict[str, Any]:
    """The seat's own secret condition at this player count."""
    return cards.secret_check(view["private"]["secret"]["id"], view["n"], plays_rulebook(view["options"]))


def jack_wants(skills: dict[str, int], goal: dict[str, Any]) -> list[str]:
    """For Jack of All Trades: the skills whose +1 brings the seat closer to the goal
    (the lowest skill at least ``n``, the other two at least ``two``)."""
    def short(values: dict[str, int]) -> int:
        low, mid, high = sorted(values.values())
        two = goal.get("two", goal["n"])
        return max(0, goal["n"] - low) + max(0, two - mid) + max(0, two - high)
    now = short(skills)
    return [s for s in skills if short({**skills, s: skills[s] + 1}) < now]


def _bag_shift(effects: list[dict[str, Any]], goal: dict[str, Any]) -> int:
    """How many tokens these effects move the final bag towards a bag secret (negative: away)."""
    if goal["kind"] != "bag_diff":
        return 0
    shift = 0
    for effect in effects:
        if effect["do"] in ("add", "remove"):
            sign = (effect["colour"] in goal["plus"]) - (effect["colour"] in goal["minus"])
            shift += sign * effect.get("n", 1) * (1 if effect["do"] == "add" else -1)
    return shift


def _current_test(view: HeistView) -> CurrentTestView:
    """The test being faced (the bot is asked to assist, play tricks or upgrade only during one)."""
    test = view["test"]
    assert test is not None
    return test


def _hand(view: HeistView) -> list[str]:
    return [card["id"] for card in view["private"]["hand"]]


def choose(view: HeistView, legal: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    """The bot's move for this phase, from its seat's view and the legal actions only."""
    phase = view["phase"]
    if phase == "choose":
        return _choose(view, legal, rng)
    if phase == "assist":
        return _assist(view, legal, rng)
    if phase == "tricks":
        return _tricks(view, legal)
    if phase == "upgrade":
        return _upgrade(view, legal)
    return legal[0]


def _choose(view: HeistView, legal: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    seat = view["private"]["seat"]
    hand = _hand(view)
    tricks = sum(1 for card in hand if cards.is_trick(card))
    helpers = 1.2 * (view["n"] - 1) + 0.8 * min(tricks, 2)
    goal = _secret(view)
    secret = goal["kind"]
    mine = view["players"][seat]["pile_obstacles"]
    have_jobs = {OBSTACLE[o]["job"] for o in mine}
    jobs = {j["letter"]: j for j in view["jobs"]}
    best, best_score = legal[0], -1e9
    for action in legal:
        job = jobs[action["job"]]
        top = job["top"]
        assert top is not None  # a job with no obstacle left can't be chosen
        obstacle = OBSTACLE[top["id"]]
        option = obstacle["test"][action["option"]]
        chance = success_chance(view, seat, option, helpers)
        penalty = 1.0 if obstacle["failure"] else 0.0
        if top["mandatory"]:
            penalty += 0.5
        value = obstacle["cheese"] + 1.0
        # a bag secret: a success that moves the final bag towards it is worth more
        value += BAG_NUDGE * _bag_shift(obstacle["success"], goal)
        if secret == "distinct_jobs" and obstacle["job"] not in have_jobs:
            value += 1.5
        if secret == "same_job":  # 3 from one job (4-5 players) is far off in five turns: stay on it harder
            nudge = SAME_JOB_NUDGE * (2 if goal["n"] >= 3 else 1)
            value += nudge * sum(1 for o in mine if OBSTACLE[o]["job"] == obstacle["job"])
        mine_here = sum(1 for o in mine if OBSTACLE[o]["job"] == obstacle["job"])
        if job["left"] == 1:  # the finale: completing the job pays +1 per obstacle of it held
            value += mine_here + 1 + (3.0 if secret == "jobs_completed" else 0.0)
        elif secret == "jobs_completed":
            value += 1.5 / job["left"]
        score = chance * value - (1 - chance) * penalty + rng.random() * 0.05
        if score > best_score:
            best, best_score = action, score
    return best


def _assist(view: HeistView, legal: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    if "picking" in view["private"]:  # the card is picked: pay with the card it likes least
        return _pay(legal)
    test = _current_test(view)
    active = view["active"]
    option = OBSTACLE[test["obstacle"]["id"]]["test"][test["option"]]
    chance = success_chance(view, active, option, 0.8 * (view["n"] - 2))
    secret = view["private"]["secret"]["id"]
    saboteur = secret in ("saboteur", "heat_seeker")
    best, best_value = {"type": "no_assist"}, 0.0
    hand = _hand(view)
    goal = _secret(view)
    seat = view["private"]["seat"]
    my_skills = view["players"][seat]["skills"]
    away = view["players"][seat]["location"] != test["job"]
    for action in legal:
        if action["type"] != "assist":
            continue
        card_id = action["card"]
        card = RESOURCE[card_id]
        if card["special"] == "double_cross":
            value = 3.0 if (chance < 0.3 or saboteur) else -1.0
        else:
            value = _assist_value(card_id)
            if chance > 0.97 and not card["upgrade"] and not card["cheese"]:
                value = 0.1
            if card["upgrade"] and goal["kind"] == "all_skills" and card["upgrade"] in jack_wants(my_skills, goal):
                value += 3.0
            if card["upgrade"] and goal["kind"] == "top_skill" and card["upgrade"] == goal["skill"]:
                value += 1.5
            value += _bag_value(view, card, goal)
        if away:  # the card to pay with comes next: the one it likes least among the rest
            if len(hand) < 3:
                continue
            value -= 0.6 * _keep_value(_cheapest_pay(hand, card_id)) + 0.5
        if value > best_value:
            best, best_value = action, value
    return best


def _cheapest_pay(hand: list[str], card_id: str) -> str:
    """The card of ``hand`` (other than ``card_id``) the bot minds discarding least (the first of equals by id)."""
    rest = sorted(hand)
    rest.remove(card_id)
    return min(rest, key=_keep_value)


def _pay(legal: list[dict[str, Any]]) -> dict[str, Any]:
    """The payment for an assist picked while away: the card the bot minds losing least."""
    pays = [action for action in legal if action["type"] == "pay"]
    return min(pays, key=lambda action: _keep_value(action["card"])) if pays else {"type": "no_assist"}


def _bag_value(view: HeistView, card: dict[str, Any], goal: dict[str, Any]) -> float:
    """What an assist's bag change is worth: the shift of the expected two-token sum,
    plus a nudge when the seat's secret counts that colour in the final bag."""
    value = 0.0
    front = view["options"].get("token_faces") == "front"
    for effect in card["effects"]:
        if effect["do"] not in ("add", "remove"):
            continue
        bag = dict(view["bag"])
        step = effect.get("n", 1) if effect["do"] == "add" else -min(effect.get("n", 1), bag[effect["colour"]])
        before = bag_mean(bag, front)
        bag[effect["colour"]] += step
        value += cards.DRAW_TOKENS * (bag_mean(bag, front) - before)
        if goal["kind"] == "bag_diff":
            sign = (effect["colour"] in goal["plus"]) - (effect["colour"] in goal["minus"])
            value += 1.0 * sign * (1 if step > 0 else -1 if step < 0 else 0)
    return value


def _gain(view: HeistView, action: dict[str, Any]) -> float:
    """Expected change of the total from one trick."""
    test = _current_test(view)
    card = RESOURCE[action["card"]]
    do = card["effect"]["do"]
    front = view["options"].get("token_faces") == "front"
    tokens = test["tokens"]
    if do == "flip":
        token = tokens[action["token"]]
        faces = cards.TOKENS[token["colour"]]["faces"]
        return faces[1 - token["face"]] - faces[token["face"]]
    if do == "flip_all":
        return sum(cards.TOKENS[token["colour"]]["faces"][1 - token["face"]] - token["value"]
                   for token in tokens if not token["ignored"])
    if do == "redraw":
        return bag_mean(view["bag"], front) - tokens[action["token"]]["value"]
    if do == "ignore":
        return -tokens[action["token"]]["value"]
    if do == "bonus":
        return card["effect"]["n"]
    if do == "extra":
        return bag_mean(view["bag"], front)
    live = [token["value"] for token in tokens if not token["ignored"]]
    if do == "lucky":
        return max(0.0, -min(live)) if live else 0.0
    if do == "double":
        return max(live) if live else 0.0
    if do == "favour":
        return len(test["assists"])
    return 0.0


def _tricks(view: HeistView, legal: list[dict[str, Any]]) -> dict[str, Any]:
    numbers = _current_test(view)["numbers"]
    deficit = numbers["target"] - numbers["total"]
    if deficit <= 0:
        return {"type": "resolve"}
    scored = []
    for action in legal:
        if action["type"] != "trick":
            continue
        scored.append((_gain(view, action), action))
    if not scored:
        return {"type": "resolve"}
    # Can the positive tricks in hand close the gap? Count each card once.
    best_per_card: dict[str, float] = {}
    for gain, action in scored:
        best_per_card[action["card"]] = max(best_per_card.get(action["card"], 0.0), gain)
    reachable = sum(g for g in best_per_card.values() if g > 0) >= deficit
    if reachable:
        gain, action = max(scored, key=lambda pair: (pair[0], -_keep_value(pair[1]["card"])))
        if gain > 0:
            return action
    # Hopeless: play cheese tricks (they score on a failure); keep upgrade tricks.
    # (Sore Loser wants trick cards in the score pile anyway.)
    for gain, action in sorted(scored, key=lambda pair: -pair[0]):
        card = RESOURCE[action["card"]]
        if card["cheese"] and not card["upgrade"] and card["effect"]["do"] != "clean_exit":
            return action
    clean = [a for _, a in scored if RESOURCE[a["card"]]["effect"]["do"] == "clean_exit"]
    if clean and OBSTACLE[_current_test(view)["obstacle"]["id"]]["failure"]:
        return clean[0]
    return {"type": "resolve"}


def _upgrade(view: HeistView, legal: list[dict[str, Any]]) -> dict[str, Any]:
    test = _current_test(view)
    seat = view["private"]["seat"]
    option = OBSTACLE[test["obstacle"]["id"]]["test"][test["option"]]
    secret = _secret(view)
    wanted = list(option["skills"])
    if secret["kind"] == "top_skill":
        wanted = [secret["skill"]]
    if secret["kind"] == "all_skills":
        skills = view["players"][seat]["skills"]
        wanted = jack_wants(skills, secret) or wanted
    hand = _hand(view)
    best, best_score = {"type": "no_upgrade"}, 0.0
    for action in legal:
        if action["type"] != "upgrade":
            continue
        card = RESOURCE[action["card"]]
        score = 1.0 + (2.0 if card["upgrade"] in wanted else 0.0)
        if action["card"] not in hand:
            score += 1.0  # a played trick: it was going to the discard pile anyway
        if score > best_score:
            best, best_score = action, score
    return best
