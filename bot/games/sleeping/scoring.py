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
    return [cid for cid in team if CARDS[cid]["kind"] not in ("bard", "shapeshifter")]


def shapeshifters(team: list[int]) -> list[int]:
    return sorted(cid for cid in team if CARDS[cid]["kind"] == "shapeshifter")


def effective(team: list[int], copies: dict[int, int] | None = None) -> dict[int, dict[str, Any]]:
    copies = copies or {}
    eff: dict[int, dict[str, Any]] = {}
    for cid in team:
        card = CARDS[cid]
        if card["kind"] == "shapeshifter":
            target = copies.get(cid)
            if target is None:
                eff[cid] = {"kind": "blank", "value": None, "class": "Shapeshifter"}
            else:
                t = CARDS[target]
                eff[cid] = {"kind": t["kind"], "value": t["value"], "class": t["class"]}
        else:
            eff[cid] = {"kind": card["kind"], "value": card["value"], "class": card["class"]}
    return eff


def card_scores(team: list[int], copies: dict[int, int] | None, effect: dict[str, Any]) -> dict[int, int]:
    """Each team card's noise this round."""
    eff = effective(team, copies)
    scores: dict[int, int] = {}
    rogues = [cid for cid in team if eff[cid]["kind"] == "rogue"]
    for cid in rogues:
        scores[cid] = int(effect.get("rogue_score", 1)) if len(rogues) == 1 else int(effect.get("rogue_group_score", 10))
    bards = [cid for cid in team if eff[cid]["kind"] == "bard"]
    for cid in bards:
        scores[cid] = 0 if effect.get("bards_cancel") and len(bards) >= 2 else eff[cid]["value"]
    groups: dict[int, list[int]] = {}
    for cid in team:
        if eff[cid]["kind"] in ("regular", "slime"):
            groups.setdefault(eff[cid]["value"], []).append(cid)
    for value, members in groups.items():
        for cid in members:
            if len(members) >= 2:
                scores[cid] = 0
            elif eff[cid]["kind"] == "slime":
                scores[cid] = int(effect.get("slime_score", 10))
            else:
                scores[cid] = value
    for cid in team:
        if eff[cid]["kind"] == "blank":
            scores[cid] = 0  # a Shapeshifter with nothing to copy hides behind the Bards
    if effect.get("loudest_double") and team:
        loudest = max(team, key=lambda c: (scores[c], -team.index(c)))
        scores[loudest] *= 2
    return scores


def noise(team: list[int], copies: dict[int, int] | None, effect: dict[str, Any]) -> int:
    return sum(card_scores(team, copies, effect).values())


def floor_bonus(team: list[int], copies: dict[int, int] | None, effect: dict[str, Any]) -> int:
    """Extra treasure the floor pays this team (quiet or not)."""
    eff = effective(team, copies)
    total = 0
    for cls, amount in effect.get("class_bonus", {}).items():
        total += amount * sum(1 for cid in team if eff[cid]["class"] == cls)
    vb = effect.get("value_bonus")
    if vb:
        total += vb["treasure"] * sum(1 for cid in team if eff[cid]["value"] is not None and eff[cid]["value"] >= vb["min"])
    return total


def copy_options(team: list[int], effect: dict[str, Any]) -> list[dict[str, Any]]:
    """The sensible ways to set the team's Shapeshifters, best noise first.

    Copying is optional (the rulebook says a Shapeshifter *can* copy): a Shapeshifter that copies
    nothing scores 0. Every assignment is tried; outcomes are (noise, floor treasure) and only the
    Pareto-optimal ones are kept (lower noise and more treasure are never worse), one assignment per
    outcome, preferring the one with the fewest copies. One option left means the choice is automatic.
    """
    ss = shapeshifters(team)
    targets: list[int | None] = [None] + copy_targets(team)
    outcomes: dict[tuple[int, int], dict[int, int]] = {}
    for combo in combinations_with_replacement(targets, len(ss)):
        copies = {s: t for s, t in zip(ss, combo) if t is not None}
        key = (noise(team, copies, effect), floor_bonus(team, copies, effect))
        outcomes.setdefault(key, copies)
    keys = sorted(outcomes, key=lambda k: (k[0], -k[1]))
    kept: list[tuple[int, int]] = []
    for key in keys:
        if not any(o[0] <= key[0] and o[1] >= key[1] for o in kept):
            kept.append(key)
    return [{"copies": outcomes[k], "noise": k[0], "bonus": k[1]} for k in kept]


def best_copies(team: list[int], effect: dict[str, Any]) -> dict[int, int]:
    """The quietest assignment (most floor treasure among equally quiet ones)."""
    return copy_options(team, effect)[0]["copies"]
