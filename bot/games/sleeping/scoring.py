"""Noise and floor treasure for one team (pure functions of card ids).

A team is a list of card ids; ``copies`` maps a Shapeshifter's id to the id of
the team card it copies. A Shapeshifter takes the copied card's value, kind and
class (so a Shapeshifter copying a Rogue is a Rogue, copying a Mage is a Mage).
"""
from __future__ import annotations

from itertools import combinations_with_replacement
from typing import Any

from bot.games.sleeping.cards import CARDS


def copy_targets(team: list[int]) -> list[int]:
    """Team cards a Shapeshifter may copy: anything but Bards and Shapeshifters."""
    return [card_id for card_id in team if CARDS[card_id]["kind"] not in ("bard", "shapeshifter")]


def shapeshifters(team: list[int]) -> list[int]:
    """The team's Shapeshifters, by id."""
    return sorted(card_id for card_id in team if CARDS[card_id]["kind"] == "shapeshifter")


def effective(team: list[int], copies: dict[int, int] | None = None) -> dict[int, dict[str, Any]]:
    """What each team card counts as (kind, value, class): a Shapeshifter as the card it copies, or
    as a blank if it copies nothing."""
    copies = copies or {}
    counts_as: dict[int, dict[str, Any]] = {}
    for card_id in team:
        card = CARDS[card_id]
        if card["kind"] == "shapeshifter":
            target = copies.get(card_id)
            if target is None:
                counts_as[card_id] = {"kind": "blank", "value": None, "class": "Shapeshifter"}
            else:
                copied = CARDS[target]
                counts_as[card_id] = {"kind": copied["kind"], "value": copied["value"], "class": copied["class"]}
        else:
            counts_as[card_id] = {"kind": card["kind"], "value": card["value"], "class": card["class"]}
    return counts_as


def card_scores(team: list[int], copies: dict[int, int] | None, effect: dict[str, Any]) -> dict[int, int]:
    """Each team card's noise this round."""
    counts_as = effective(team, copies)
    scores: dict[int, int] = {}
    rogues = [card_id for card_id in team if counts_as[card_id]["kind"] == "rogue"]
    for card_id in rogues:
        scores[card_id] = (int(effect.get("rogue_score", 1)) if len(rogues) == 1
                           else int(effect.get("rogue_group_score", 10)))
    bards = [card_id for card_id in team if counts_as[card_id]["kind"] == "bard"]
    for card_id in bards:
        scores[card_id] = 0 if effect.get("bards_cancel") and len(bards) >= 2 else counts_as[card_id]["value"]
    groups: dict[int, list[int]] = {}
    for card_id in team:
        if counts_as[card_id]["kind"] in ("regular", "slime"):
            groups.setdefault(counts_as[card_id]["value"], []).append(card_id)
    for value, members in groups.items():
        for card_id in members:
            if len(members) >= 2:
                scores[card_id] = 0
            elif counts_as[card_id]["kind"] == "slime":
                scores[card_id] = int(effect.get("slime_score", 10))
            else:
                scores[card_id] = value
    for card_id in team:
        if counts_as[card_id]["kind"] == "blank":
            scores[card_id] = 0  # a Shapeshifter with nothing to copy hides behind the Bards
    if effect.get("loudest_double") and team:
        loudest = max(team, key=lambda card_id: (scores[card_id], -team.index(card_id)))
        scores[loudest] *= 2
    return scores


def noise(team: list[int], copies: dict[int, int] | None, effect: dict[str, Any]) -> int:
    """The team's noise this round: the sum of its cards' noise."""
    return sum(card_scores(team, copies, effect).values())


def floor_bonus(team: list[int], copies: dict[int, int] | None, effect: dict[str, Any]) -> int:
    """Extra treasure the floor pays this team (quiet or not)."""
    counts_as = effective(team, copies)
    total = 0
    for class_name, amount in effect.get("class_bonus", {}).items():
        total += amount * sum(1 for card_id in team if counts_as[card_id]["class"] == class_name)
    value_bonus = effect.get("value_bonus")
    if value_bonus:
        total += value_bonus["treasure"] * sum(1 for card_id in team if counts_as[card_id]["value"] is not None
                                               and counts_as[card_id]["value"] >= value_bonus["min"])
    return total


def copy_options(team: list[int], effect: dict[str, Any]) -> list[dict[str, Any]]:
    """The sensible ways to set the team's Shapeshifters, best noise first.

    Copying is optional (the rulebook says a Shapeshifter *can* copy): a Shapeshifter that copies
    nothing scores 0. Every assignment is tried; outcomes are (noise, floor treasure) and only the
    Pareto-optimal ones are kept (lower noise and more treasure are never worse), one assignment per
    outcome, preferring the one with the fewest copies. One option left means the choice is automatic.
    """
    shifters = shapeshifters(team)
    targets: list[int | None] = [None] + copy_targets(team)
    outcomes: dict[tuple[int, int], dict[int, int]] = {}
    for combo in combinations_with_replacement(targets, len(shifters)):
        copies = {shifter: target for shifter, target in zip(shifters, combo) if target is not None}
        outcome = (noise(team, copies, effect), floor_bonus(team, copies, effect))
        outcomes.setdefault(outcome, copies)
    ordered = sorted(outcomes, key=lambda outcome: (outcome[0], -outcome[1]))
    kept: list[tuple[int, int]] = []
    for outcome in ordered:
        if not any(better[0] <= outcome[0] and better[1] >= outcome[1] for better in kept):
            kept.append(outcome)
    return [{"copies": outcomes[outcome], "noise": outcome[0], "bonus": outcome[1]} for outcome in kept]


def best_copies(team: list[int], effect: dict[str, Any]) -> dict[int, int]:
    """The quietest assignment (most floor treasure among equally quiet ones)."""
    return copy_options(team, effect)[0]["copies"]


COUNT_WORDS = {2: "two", 3: "three", 4: "four"}


def team_why(reasons: dict[int, str]) -> str:
    """A team's reasons as one phrase, each once ("two 5s cancel, Rogue pack: 10 each"); '' when it has none."""
    return ", ".join(dict.fromkeys(reasons.values()))


def card_reasons(team: list[int], copies: dict[int, int] | None, effect: dict[str, Any]) -> dict[int, str]:
    """Why a team card scores other than its printed number, in a few words ("two 5s cancel", "Rogue pack",
    "copies nothing"), for each card whose score needs a reason (a plain card scoring its number has none)."""
    counts_as = effective(team, copies)
    scores = card_scores(team, copies, effect)
    groups: dict[int, int] = {}
    for card_id in team:
        if counts_as[card_id]["kind"] in ("regular", "slime"):
            groups[counts_as[card_id]["value"]] = groups.get(counts_as[card_id]["value"], 0) + 1
    rogues = sum(1 for card_id in team if counts_as[card_id]["kind"] == "rogue")
    bards = sum(1 for card_id in team if counts_as[card_id]["kind"] == "bard")
    doubled = None
    if effect.get("loudest_double") and team:
        doubled = max(team, key=lambda card_id: (scores[card_id], -team.index(card_id)))
    reasons: dict[int, str] = {}
    for card_id in team:
        kind, value = counts_as[card_id]["kind"], counts_as[card_id]["value"]
        if kind == "blank":
            reasons[card_id] = "copies nothing"
        elif kind in ("regular", "slime") and groups[value] >= 2:
            what = "Slimes" if kind == "slime" and all(counts_as[other]["kind"] == "slime" for other in team
                                                       if counts_as[other]["value"] == value) else f"{value}s"
            reasons[card_id] = f"{COUNT_WORDS.get(groups[value], str(groups[value]))} {what} cancel"
        elif kind == "rogue" and "rogue_score" in effect and scores[card_id] == 0:
            reasons[card_id] = "silent here"
        elif kind == "rogue" and rogues >= 2:
            reasons[card_id] = "Rogue pack: 10 each"
        elif kind == "bard" and effect.get("bards_cancel") and bards >= 2:
            reasons[card_id] = "Bards in harmony"
        elif kind == "slime" and "slime_score" in effect:
            reasons[card_id] = f"muffled: {effect['slime_score']}"
        if card_id == doubled and scores[card_id]:
            reasons[card_id] = (reasons[card_id] + ", " if card_id in reasons else "") + "loudest: double"
    return reasons
