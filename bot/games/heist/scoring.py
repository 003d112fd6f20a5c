"""HEIST: secrets (one check per kind of condition), final scores and ranks, the balance report."""
from __future__ import annotations

from typing import Any, Callable

from bot.engine import State, competition_ranks

from . import cards, rules
from .board import obstacles_left, skill, skills
from .cards import OBSTACLE, RESOURCE
from .viewtypes import ScoreView


def _obstacles(state: State, seat: int) -> list[str]:
    return [card for card in state["piles"][seat] if card in OBSTACLE]


def _top_skill(state: State, seat: int, check: dict[str, Any], others: list[int]) -> bool:
    mine = skill(state, seat, check["skill"])
    if not others:
        return bool(mine >= check["solo"])
    if check.get("ties", True):
        return all(mine >= skill(state, other, check["skill"]) for other in others)
    return all(mine > skill(state, other, check["skill"]) for other in others)


def _all_skills(state: State, seat: int, check: dict[str, Any], others: list[int]) -> bool:
    """The lowest skill reaches n, the other two reach "two"."""
    low, mid, _ = sorted(skills(state, seat).values())
    return bool(low >= check["n"] and mid >= check.get("two", check["n"]))


def _upgrades(state: State, seat: int, check: dict[str, Any], others: list[int]) -> bool:
    return bool(len(state["upgrades"][seat]) >= check["n"])


def _distinct_jobs(state: State, seat: int, check: dict[str, Any], others: list[int]) -> bool:
    obstacles = _obstacles(state, seat)
    return bool(len({OBSTACLE[obstacle]["job"] for obstacle in obstacles}) >= check["n"]
                and len(obstacles) >= check["total"])


def _best_job(state: State, seat: int) -> tuple[int, int]:
    """How many of ``seat``'s obstacles come from the job it holds most of, and how many it holds in all."""
    obstacles = _obstacles(state, seat)
    counts: dict[str, int] = {}
    for obstacle in obstacles:
        counts[OBSTACLE[obstacle]["job"]] = counts.get(OBSTACLE[obstacle]["job"], 0) + 1
    return max(counts.values(), default=0), len(obstacles)


def _same_job(state: State, seat: int, check: dict[str, Any], others: list[int]) -> bool:
    best, held = _best_job(state, seat)
    # "most": that job also holds more of your obstacles than all the others together
    return bool(best >= check["n"] and (not check.get("most") or 2 * best > held))


def _most_obstacles(state: State, seat: int, check: dict[str, Any], others: list[int]) -> bool:
    mine = len(_obstacles(state, seat))
    if not others:
        return bool(mine >= check["solo"])
    theirs = [len(_obstacles(state, other)) for other in others]
    return all(mine >= count if check["ties"] else mine > count for count in theirs)


def _kept_assists(state: State, seat: int) -> int:
    """Team Player's count: ``seat``'s assists in its score pile or on its identity (a Double Cross doesn't count)."""
    return sum(1 for card in state["piles"][seat] + state["upgrades"][seat]
               if card in cards.ASSISTS and RESOURCE[card]["special"] != "double_cross")


def _banked_tricks(state: State, seat: int) -> int:
    """Sore Loser's count: the tricks in ``seat``'s score pile."""
    return sum(1 for card in state["piles"][seat] if card in cards.TRICKS)


def _assists_kept(state: State, seat: int, check: dict[str, Any], others: list[int]) -> bool:
    return bool(_kept_assists(state, seat) >= check["n"])


def _tricks_kept(state: State, seat: int, check: dict[str, Any], others: list[int]) -> bool:
    return bool(_banked_tricks(state, seat) >= check["n"])


def _failed_share(state: State, seat: int, check: dict[str, Any], others: list[int]) -> bool:
    return bool(state["tests"] > 0 and 100 * state["failed"] >= check["n"] * state["tests"])


def _jobs_completed(state: State, seat: int, check: dict[str, Any], others: list[int]) -> bool:
    return bool(len(state["completed"]) >= check["n"])


def _bag_diff(state: State, seat: int, check: dict[str, Any], others: list[int]) -> bool:
    bag = state["bag"]
    return bool(sum(bag[colour] for colour in check["plus"]) - sum(bag[colour] for colour in check["minus"])
                >= check["n"])


SecretCheck = Callable[[State, int, dict[str, Any], list[int]], bool]

SECRET_CHECKS: dict[str, SecretCheck] = {
    "top_skill": _top_skill, "all_skills": _all_skills, "upgrades": _upgrades, "distinct_jobs": _distinct_jobs,
    "same_job": _same_job, "most_obstacles": _most_obstacles, "assists_kept": _assists_kept,
    "tricks_kept": _tricks_kept, "failed_share": _failed_share, "jobs_completed": _jobs_completed,
    "bag_diff": _bag_diff,
}


def secret_met(state: State, seat: int) -> bool:
    """Whether ``seat``'s secret condition holds now (at the end: whether it scores)."""
    check = cards.secret_check(state["secrets"][seat], state["n"], rules.of(state).printed)
    others = [other for other in range(state["n"]) if other != seat]
    handler = SECRET_CHECKS.get(check["kind"])
    if handler is None:  # pragma: no cover
        raise ValueError(check["kind"])
    return handler(state, seat, check, others)


def final_bag(state: State) -> dict[str, int]:
    """The bag as it will be at the end if no card or obstacle changes it any more: this round's drawn tokens back
    in it, and the heat track's tokens still to come (the bag secrets are checked on the final bag)."""
    bag = dict(state["bag"])
    test = state["test"]
    for token in state["spent"] + (test["tokens"] if test else []):
        bag[token["colour"]] += 1
    for space in state["heat"]:
        if not space["done"]:
            bag[space["colour"]] += space["count"]
    return bag


def _count(have: int, need: int, what: str) -> str:
    return f"{have}/{need} {what}"


def _progress_top_skill(state: State, seat: int, check: dict[str, Any], others: list[int]) -> str:
    name = cards.SKILL_NAME[check["skill"]]
    mine = skill(state, seat, check["skill"])
    if not others:
        return _count(mine, check["solo"], name)
    best = max(skill(state, other, check["skill"]) for other in others)
    return f"your {name} {mine}, the best of the others {best}"


def _progress_all_skills(state: State, seat: int, check: dict[str, Any], others: list[int]) -> str:
    values = sorted(skills(state, seat).values())
    two = check.get("two", check["n"])
    parts = [_count(sum(v >= check["n"] for v in values), 3, f"skills at {check['n']}+")]
    if two > check["n"]:
        parts.append(_count(min(2, sum(v >= two for v in values)), 2, f"at {two}+"))
    return ", ".join(parts)


def _progress_distinct_jobs(state: State, seat: int, check: dict[str, Any], others: list[int]) -> str:
    obstacles = _obstacles(state, seat)
    jobs = len({OBSTACLE[obstacle]["job"] for obstacle in obstacles})
    return f"{_count(len(obstacles), check['total'], 'obstacles')}, {_count(jobs, check['n'], 'jobs')}"


def _progress_same_job(state: State, seat: int, check: dict[str, Any], others: list[int]) -> str:
    best, held = _best_job(state, seat)
    text = _count(best, check["n"], "obstacles from one job")
    if check.get("most"):
        text += f" ({held - best} from the others)"
    return text


def _progress_most_obstacles(state: State, seat: int, check: dict[str, Any], others: list[int]) -> str:
    mine = len(_obstacles(state, seat))
    if not others:
        return _count(mine, check["solo"], "obstacles")
    return f"your obstacles {mine}, the most of the others {max(len(_obstacles(state, o)) for o in others)}"


def _progress_failed_share(state: State, seat: int, check: dict[str, Any], others: list[int]) -> str:
    share = round(100 * state["failed"] / state["tests"]) if state["tests"] else 0
    return f"{state['failed']} of {state['tests']} tests failed ({share}%/{check['n']}%)"


def _progress_bag_diff(state: State, seat: int, check: dict[str, Any], others: list[int]) -> str:
    bag = final_bag(state)
    diff = sum(bag[colour] for colour in check["plus"]) - sum(bag[colour] for colour in check["minus"])
    return f"{diff}/{check['n']} in the final bag as it stands"


def _progress_count(key: str, what: str) -> Callable[[State, int, dict[str, Any], list[int]], str]:
    """A secret that counts cards: how many of ``what`` against its threshold."""
    counts: dict[str, Callable[[State, int], int]] = {
        "upgrades": lambda state, seat: len(state["upgrades"][seat]),
        "assists_kept": _kept_assists,
        "tricks_kept": _banked_tricks,
        "jobs_completed": lambda state, seat: len(state["completed"]),
    }
    return lambda state, seat, check, others: _count(counts[key](state, seat), check["n"], what)


SECRET_PROGRESS: dict[str, Callable[[State, int, dict[str, Any], list[int]], str]] = {
    "top_skill": _progress_top_skill, "all_skills": _progress_all_skills,
    "upgrades": _progress_count("upgrades", "upgrade cards"), "distinct_jobs": _progress_distinct_jobs,
    "same_job": _progress_same_job, "most_obstacles": _progress_most_obstacles,
    "assists_kept": _progress_count("assists_kept", "assists kept"),
    "tricks_kept": _progress_count("tricks_kept", "tricks banked"), "failed_share": _progress_failed_share,
    "jobs_completed": _progress_count("jobs_completed", "jobs completed"), "bag_diff": _progress_bag_diff,
}


def secret_met_now(state: State, seat: int) -> bool:
    """Whether ``seat``'s secret would be met if the game ended as it stands (a bag secret: on the final bag as it
    stands, with the drawn tokens and the heat still to come)."""
    check = cards.secret_check(state["secrets"][seat], state["n"], rules.of(state).printed)
    if check["kind"] != "bag_diff":
        return secret_met(state, seat)
    bag = final_bag(state)
    return sum(bag[c] for c in check["plus"]) - sum(bag[c] for c in check["minus"]) >= check["n"]


def secret_progress(state: State, seat: int) -> str:
    """How far ``seat`` is towards its secret, as counts ("3/5 upgrade cards"; a bag secret counts the final bag as
    it stands)."""
    check = cards.secret_check(state["secrets"][seat], state["n"], rules.of(state).printed)
    others = [other for other in range(state["n"]) if other != seat]
    return SECRET_PROGRESS[check["kind"]](state, seat, check, others)


def _score_row(state: State, seat: int) -> dict[str, Any]:
    """One seat's score and how it is made up."""
    pile = state["piles"][seat]
    obstacles = [card for card in pile if card in OBSTACLE]
    obstacle_cheese = sum(OBSTACLE[card]["cheese"] for card in obstacles)
    assist_cheese = sum(RESOURCE[card]["cheese"] for card in pile if card in cards.ASSISTS)
    trick_cheese = sum(RESOURCE[card]["cheese"] for card in pile if card in cards.TRICKS)
    bonus = sum(1 for card in obstacles if OBSTACLE[card]["job"] in state["completed"])
    met = secret_met(state, seat)
    secret = cards.SECRET[state["secrets"][seat]]
    secret_cheese = secret["cheese"] if met else 0
    head = rules.of(state).head_start[state["n"]] if seat == state["start"] else 0
    score = obstacle_cheese + assist_cheese + trick_cheese + bonus + secret_cheese + head
    detail = (f"obstacles {obstacle_cheese} ({len(obstacles)} beaten), assists {assist_cheese}, tricks {trick_cheese}, "
              f"job bonus {bonus}, secret {secret['name']} {secret_cheese}")
    if head:
        detail += f", start player's head start {head}"
    if seat == state["start"] and rules.of(state).start_wins_ties[state["n"]]:
        detail += ", start player: wins ties on cheese"
    if state["n"] == 1:
        detail += f"; target {cards.SOLO_TARGET}, rating: {cards.solo_rating(score)}"
    return {"seat": seat, "score": score, "obstacles": len(obstacles), "secret_met": met,
            "secret": secret["id"], "detail": detail}


def final_rows(state: State) -> list[dict[str, Any]]:
    """Every seat's final score, secret, rank and whether it won (solo: against the target)."""
    rows = [_score_row(state, seat) for seat in range(state["n"])]
    start_wins = rules.of(state).start_wins_ties[state["n"]]
    keys = [(-row["score"], -(start_wins and row["seat"] == state["start"]), -row["obstacles"]) for row in rows]
    for row, rank in zip(rows, competition_ranks(keys)):
        row["rank"] = rank
        row["won"] = rank == 1
    if state["n"] == 1:  # solo: beat the target score
        rows[0]["won"] = rows[0]["score"] >= cards.SOLO_TARGET
        rows[0]["rating"] = cards.solo_rating(rows[0]["score"])
    return rows


def scores(state: State) -> list[ScoreView]:
    """The contract's result per seat: score, rank, won and the score's make-up."""
    final = state["final"] or final_rows(state)
    return [{"seat": row["seat"], "score": row["score"], "rank": row["rank"], "won": row["won"],
             "detail": row["detail"]} for row in final]


def _mechanics(state: State, trace: list[dict[str, Any]], available: set[str], used: set[str]) -> None:
    """The mechanics (paying to move, failure upgrades, an "or" obstacle's second skill) that could
    have been used this game, and those that were."""
    kinds = {step["action"].get("type") for step in trace}
    if state["n"] > 1:
        available.add("mechanic: pay a card to move and assist")
        if any(step["action"].get("type") == "pay" or "pay" in step["action"] for step in trace):
            used.add("mechanic: pay a card to move and assist")
    if kinds & {"upgrade", "no_upgrade"}:
        available.add("mechanic: failure upgrade")
        if "upgrade" in kinds:
            used.add("mechanic: failure upgrade")
    choices = [step["action"] for step in trace if step["action"].get("type") == "choose"]
    if choices:
        available.add("mechanic: second skill of an 'or' obstacle")
        if any(choice["option"] == 1 for choice in choices):
            used.add("mechanic: second skill of an 'or' obstacle")


def balance_tally(state: State, trace: list[dict[str, Any]]) -> dict[str, Any]:
    """How the game ended, seat order from the start player, cards and mechanics held
    and used, and each dealt secret's goal."""
    count = state["n"]
    start = state["start"]
    roles = [f"{(seat - start) % count + 1}. in turn order" for seat in range(count)]
    used = {cards.card_name(step["action"]["card"]) for step in trace
            if step["action"].get("type") in ("assist", "trick")}
    available = set(state.get("held", []))
    if count == 1:  # nobody to assist (so Call in a Favour can only add 0)
        available -= {cards.card_name(card) for card in cards.ASSISTS}
        available -= {cards.card_name(card) for card in cards.TRICKS if RESOURCE[card]["effect"]["do"] == "favour"}
    _mechanics(state, trace, available, used)
    final = state["final"] or final_rows(state)
    if state["completed"]:
        end = "heat track done, job completed" if obstacles_left(state) else "every job emptied"
    else:
        end = "heat track done, no job completed"
    return {"end": end, "roles": roles, "available": sorted(available), "used": sorted(used & available),
            "goals": {cards.SECRET[row["secret"]]["name"]: row["secret_met"] for row in final}}
