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


def _same_job(state: State, seat: int, check: dict[str, Any], others: list[int]) -> bool:
    obstacles = _obstacles(state, seat)
    counts: dict[str, int] = {}
    for obstacle in obstacles:
        counts[OBSTACLE[obstacle]["job"]] = counts.get(OBSTACLE[obstacle]["job"], 0) + 1
    best = max(counts.values(), default=0)
    # "most": that job also holds more of your obstacles than all the others together
    return bool(best >= check["n"] and (not check.get("most") or 2 * best > len(obstacles)))


def _most_obstacles(state: State, seat: int, check: dict[str, Any], others: list[int]) -> bool:
    mine = len(_obstacles(state, seat))
    if not others:
        return bool(mine >= check["solo"])
    theirs = [len(_obstacles(state, other)) for other in others]
    return all(mine >= count if check["ties"] else mine > count for count in theirs)


def _assists_kept(state: State, seat: int, check: dict[str, Any], others: list[int]) -> bool:
    kept = [card for card in state["piles"][seat] + state["upgrades"][seat]
            if card in cards.ASSISTS and RESOURCE[card]["special"] != "double_cross"]
    return bool(len(kept) >= check["n"])


def _tricks_kept(state: State, seat: int, check: dict[str, Any], others: list[int]) -> bool:
    return bool(sum(1 for card in state["piles"][seat] if card in cards.TRICKS) >= check["n"])


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
    detail = (f"obstacles {obstacle_cheese} ({len(obstacles)}), assists {assist_cheese}, tricks {trick_cheese}, "
              f"job bonus {bonus}, secret {secret['name']} {secret_cheese}")
    if head:
        detail += f", start player's head start {head}"
    if state["n"] == 1:
        detail += f"; target {cards.SOLO_TARGET}, rating: {cards.solo_rating(score)}"
    return {"seat": seat, "score": score, "obstacles": len(obstacles), "secret_met": met,
            "secret": secret["id"], "detail": detail}


def final_rows(state: State) -> list[dict[str, Any]]:
    """Every seat's final score, secret, rank and whether it won (solo: against the target)."""
    rows = [_score_row(state, seat) for seat in range(state["n"])]
    for row, rank in zip(rows, competition_ranks([(-row["score"], -row["obstacles"]) for row in rows])):
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
        if any("pay" in step["action"] for step in trace):
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
