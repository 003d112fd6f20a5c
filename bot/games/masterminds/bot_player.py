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
from typing import Any, Callable, Mapping

from .calc import crew_total, p_beat, recruit_value
from .cards import CLEAR, PREP, TALENTS, effective_stats

MAX_ACTIVATE = 3
ATTEMPT_P = 0.42   # start a heist step when at least this likely to succeed
CONTINUE_P = 0.75  # press on within a run (a FAILURE busts the dice placed this run)
FINISH_P = 0.5     # go for step D


ABILITY_WORTH = {"fixer": 2.5, "scout": 1.0, "fence": 1.5, "slippery": 1.0, "leader": 2.0, "perfectionist": 1.5,
                 "clutch": 1.0, "lucky": 1.0, "gearhead": 1.0, "solo": 1.0, "allrounder": 3.0}


def talent_worth(tid: str) -> float:
    """How much a Talent is worth to any team: its stats, its best skill and its ability."""
    stats = effective_stats(tid)
    return sum(stats) + 1.5 * max(stats) + ABILITY_WORTH[TALENTS[tid]["ability"]]


def fit_worth(tid: str, team: list[dict[str, Any]]) -> float:
    """A talent's worth to this team: its own worth plus the skills it adds where the team is weak."""
    best = [max((entry["values"][i] for entry in team if entry["id"] != tid), default=0) for i in range(5)]
    return talent_worth(tid) + 0.8 * sum(max(0, value - best_value) for value, best_value in zip(effective_stats(tid), best))


def _gear_id(entry: dict[str, Any]) -> str | None:
    return entry["gear"]["id"] if entry.get("gear") else None


def _leader(view: Mapping[str, Any], me: int) -> int | None:
    others = [player for player in view["players"] if player["seat"] != me]
    if not others:
        return None
    return max(others, key=lambda player: (player["gem_count"] + 3 * len(player["heists"]), -player["seat"]))["seat"]


def _crews(team: list[dict[str, Any]]) -> list[list[dict[str, Any]]]:
    fresh = [entry for entry in team if not entry["tapped"]]
    return [list(crew) for size in range(1, min(MAX_ACTIVATE, len(fresh)) + 1) for crew in combinations(fresh, size)]


def _score(view, me: int, slot: int, skill: str, crew: list[dict[str, Any]]) -> tuple[float, float]:
    """How good sending ``crew`` at the next step of heist ``slot`` is, and its success chance."""
    heist = view["heists"][slot]
    step_index = heist["next"]
    number = heist["steps"][step_index]["number"]
    total, _ = crew_total([(entry["id"], _gear_id(entry)) for entry in crew], skill, view["players"][me]["intel"])
    clutch = any(TALENTS[entry["id"]]["ability"] == "clutch" for entry in crew)
    chance = p_beat(total, number, clutch)
    score = chance * 10 + step_index * 1.5 - 0.6 * len(crew)
    if total > number:
        score += 1.0 - 0.4 * max(0, total - number - 1)  # don't waste recruits on overkill
    own = sum(1 for step in heist["steps"] if step["die"] and step["die"]["seat"] == me)
    score += own * 0.8
    return score, chance


def _best(view, me: int, steps: list[dict[str, Any]], min_p: float):
    """The best (step action, crew) over the offered steps, or (None, None)."""
    team = view["players"][me]["team"]
    best: tuple[dict[str, Any] | None, list[dict[str, Any]] | None] = (None, None)
    best_score = -1e9
    for step in steps:
        if "recruits" in step:
            continue
        for crew in _crews(team):
            score, chance = _score(view, me, step["heist"], step["skill"], crew)
            if chance >= min_p and score > best_score:
                best, best_score = (step, crew), score
    return best


def choose(view: Mapping[str, Any], legal: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    """The bot's move for its seat, from that seat's view and legal actions only: the handler of the phase."""
    if not legal:
        raise ValueError("bot asked to act with no legal action")
    if len(legal) == 1:
        return legal[0]
    decide = PHASE_DECISIONS.get(view["phase"])
    return decide(view, legal, rng) if decide else legal[0]


Decision = Callable[[Mapping[str, Any], list[dict[str, Any]], random.Random], dict[str, Any]]


def _seat(view: Mapping[str, Any]) -> int:
    """The bot's own seat."""
    return int(view["private"]["seat"])


def _team(view: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The bot's own recruits."""
    return list(view["players"][_seat(view)]["team"])


def _first(legal: list[dict[str, Any]], kind: str,
           pred: Callable[[dict[str, Any]], bool] = lambda action: True) -> dict[str, Any] | None:
    """The first legal action of this kind (that ``pred`` accepts), if any."""
    for action in legal:
        if action["type"] == kind and pred(action):
            return action
    return None


def _turn(view: Mapping[str, Any], legal: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    """A turn (or going on within a run): a heist step likely enough to succeed, else recruit, burn or draw."""
    me, team = _seat(view), _team(view)
    if view["phase"] == "turn":
        need = ATTEMPT_P
    else:
        need = FINISH_P if view["heists"][view["attempt"]["heist"]]["next"] == 3 else CONTINUE_P
    step, crew = _best(view, me, [action for action in legal if action["type"] == "heist"], need)
    if step is not None and crew is not None:
        quick = dict(step, recruits=[e["id"] for e in crew])
        return quick if quick in legal else step
    if view["phase"] == "continue":
        return {"type": "hold"}
    pool = [talent["id"] for talent in view["pool"]]
    pool_best = max(pool, key=lambda talent: fit_worth(talent, team), default=None)
    if pool_best is not None and _worth_hiring(pool_best, team, 2.5):
        return {"type": "recruit", "card": pool_best}  # who leaves, if anyone: ``_replace``
    if len(team) < 3 and pool and rng.random() < 0.5:
        return {"type": "burn"}
    return {"type": "draw_prep"}


def _crew(view: Mapping[str, Any], legal: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    """Picking the crew for the chosen step: the best crew, else back out."""
    pick = view["picking"]
    step = {"type": "heist", "heist": pick["heist"], "skill": pick["skill"]}
    _, crew = _best(view, _seat(view), [step], 0.0)
    if crew is not None:
        want = {"type": "crew", "recruits": [e["id"] for e in crew]}
        if want in legal:
            return want
    return _first(legal, "back") or legal[0]


def _weakest(team: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The recruit worth least to this team (the one a new hire replaces when the team is full)."""
    return min(team, key=lambda e: fit_worth(e["id"], team), default=None)


def _worth_hiring(tid: str, team: list[dict[str, Any]], margin: float) -> bool:
    """Into a free place always; into a full team only over a recruit worth ``margin`` less."""
    weakest = _weakest(team)
    return len(team) < 4 or weakest is not None and fit_worth(tid, team) > fit_worth(weakest["id"], team) + margin


def _hire(view: Mapping[str, Any], legal: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    """Hiring the burned talent (or the pool's best): into a free place, or over a clearly weaker recruit."""
    team = _team(view)
    if view["phase"] == "burned":
        if _worth_hiring(view["burned"]["id"], team, 1):
            return {"type": "hire"}
        return _first(legal, "to_pool") or legal[-1]
    tid = max((talent["id"] for talent in view["pool"]), key=lambda talent: fit_worth(talent, team))
    if _worth_hiring(tid, team, 1):
        return {"type": "hire_pool", "card": tid}
    return _first(legal, "hire_skip") or legal[-1]


def _replace(view: Mapping[str, Any], legal: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    """Who leaves the team for a hire: the recruit worth least to the team."""
    weakest = _weakest(_team(view))
    return {"type": "replace", "recruit": weakest["id"]} if weakest else legal[0]


def _pay(view: Mapping[str, Any], legal: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    """The gem spent on an action card's bonus: a Clear one if we can (its worth is known and small)."""
    return _first(legal, "pay", lambda action: action["colour"] == CLEAR) or legal[0]


def _plan(view: Mapping[str, Any], legal: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    """Planning (or the second gear step): fit gear first, then play the most useful prep card."""
    gear_moves = [action for action in legal if action["type"] == "gear"]
    if gear_moves:
        return max(gear_moves, key=_gear_fit)
    if view["phase"] == "gear2":
        return {"type": "gear_done"}
    return _prep_action(view, legal)


def _gear_fit(action: dict[str, Any]) -> float:
    """How much a gear card adds on this recruit: its bonus on the recruit's skill (more for a gearhead)."""
    gear = PREP[action["card"]]
    stats = dict(zip(("Driving", "Stealth", "Hacking", "Muscle", "Charm"), effective_stats(action["recruit"])))
    base = max(stats.values()) if gear["skill"] == "all" else stats[gear["skill"]]
    return float(base + gear["bonus"] + (1 if TALENTS[action["recruit"]]["ability"] == "gearhead" else 0))


def _prep_action(view: Mapping[str, Any], legal: list[dict[str, Any]]) -> dict[str, Any]:
    """The prep card to play in the plan phase, in order of use (or draw, or end the plan)."""
    me, team = _seat(view), _team(view)
    hand = [card["id"] for card in view["private"]["hand"]]
    actions = [action for action in legal if action["type"] == "action"]
    plain = {PREP[action["card"]]["effect"]: action for action in actions if not action["gem"]}
    leader = _leader(view, me)
    # A rival one step from finishing a heist: spend a (Clear) gem to knock their die off.
    for action in actions:
        if PREP[action["card"]]["effect"] == "doublecross" and action["gem"] and view["players"][me]["gems"].get(CLEAR):
            for heist in view["heists"]:
                if heist and heist["next"] == 3 and heist["steps"][2]["die"]["seat"] != me:
                    return action
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
    return _first(legal, "end_plan") or legal[-1]


def _target(view: Mapping[str, Any], legal: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    """A prep card's target: the leader, else the most advanced rival heist, else the leader's best-geared recruit."""
    me = _seat(view)
    leader = _leader(view, me)
    for action in legal:
        if action.get("seat") == leader:
            return action
    if any("heist" in action for action in legal):
        def danger(action: dict[str, Any]) -> tuple[bool, int]:
            heist = view["heists"][action["heist"]]
            die = heist["steps"][heist["next"] - 1]["die"]
            return (die["seat"] != me, heist["next"])
        return max(legal, key=danger)
    if any("recruit" in action for action in legal):
        owner_of = {member["id"]: (player["seat"], member) for player in view["players"] for member in player["team"]}

        def hurt(action: dict[str, Any]) -> tuple[bool, int]:
            owner, member = owner_of[action["recruit"]]
            return (owner == leader, PREP[member["gear"]["id"]]["bonus"])
        return max(legal, key=hurt)
    return legal[0]


def _window(view: Mapping[str, Any], legal: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    """An interrupt window: on a recruit's test, or on a heist roll."""
    cards = {PREP[action["card"]]["effect"]: action for action in legal if action["type"] == "interrupt"}
    if view["window"]["kind"] == "test":
        return _window_test(view, cards)
    return _window_roll(view, cards, rng)


def _window_test(view: Mapping[str, Any], cards: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """Help our own recruit's test when it is unlikely to pass; never waste cards on a rival's test."""
    test = view["test"]
    if _seat(view) == view["turn"]:
        entry = next(member for member in _team(view) if member["id"] == test["recruit_id"])
        value = recruit_value(entry["id"], _gear_id(entry), test["skill"])
        value += 3 if TALENTS[entry["id"]]["ability"] == "slippery" else 0
        if p_beat(value, test["number"]) < 0.7:
            if "plus2" in cards:
                return cards["plus2"]
            if "twodice" in cards:
                return cards["twodice"]
    return {"type": "pass"}


def _window_roll(view: Mapping[str, Any], cards: dict[str, dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    """On our own roll: boost a doubtful one. On a rival's: spoil it when it matters."""
    me, actor = _seat(view), view["turn"]
    attempt = view["attempt"]
    total = attempt["base"] + attempt["mods"]
    chance = p_beat(total, attempt["number"])
    if me == actor:
        if total > attempt["number"]:
            return {"type": "pass"}
        if "plus2" in cards and p_beat(total + 2, attempt["number"]) > chance:
            return cards["plus2"]
        if "twodice" in cards and chance < 0.9:
            return cards["twodice"]
        if "cover" in cards and chance < 0.6:
            return cards["cover"]
        return {"type": "pass"}
    important = attempt["step"] >= 2 or actor == _leader(view, me)
    if "minus2" in cards and chance > 0.3 and p_beat(total - 2, attempt["number"]) < chance and (important or rng.random() < 0.3):
        return cards["minus2"]
    if "noperfect" in cards and total > attempt["number"] and important:
        return cards["noperfect"]
    return {"type": "pass"}


def _least_worth(view: Mapping[str, Any], legal: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    """Losing (or retiring) a recruit: the one worth least."""
    return min(legal, key=lambda action: talent_worth(action["recruit"]))


def _lose_gem(view: Mapping[str, Any], legal: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    """Giving up a gem: a clear one if we can."""
    return _first(legal, "give_gem", lambda action: action["colour"] == CLEAR) or legal[0]


def _discard(view: Mapping[str, Any], legal: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    """Over the hand limit: drop immediate cards first, gear last."""
    order = {"immediate": 0, "action": 1, "interrupt": 2, "gear": 3}
    return min(legal, key=lambda action: (order[PREP[action["card"]]["kind"]], action["card"]))


# How the bot decides in each phase (anything else: the first legal action).
PHASE_DECISIONS: dict[str, Decision] = {
    "turn": _turn, "continue": _turn,
    "crew": _crew,
    "burned": _hire, "hire": _hire, "replace": _replace, "pay": _pay,
    "plan": _plan, "gear2": _plan,
    "target": _target,
    "window": _window,
    "suffer": _least_worth, "retire": _least_worth,
    "lose_gem": _lose_gem,
    "discard": _discard,
}
