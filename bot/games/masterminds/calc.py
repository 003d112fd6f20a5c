"""Pure arithmetic on public card facts, shared by the engine, the views and the bot.

Everything here works on card ids (public once a card is on the table or in your own
hand), never on the game state, so the bot can use it on what its seat sees.
"""
from __future__ import annotations

from .cards import PREP, SKILLS, TALENTS, effective_stats


def recruit_value(tid: str, gear: str | None, skill: str) -> int:
    """A recruit's value in ``skill``: effective stat plus gear (Gearhead: +1 more)."""
    value = effective_stats(tid)[SKILLS.index(skill)]
    if gear:
        gear_card = PREP[gear]
        if gear_card["skill"] in ("all", skill):
            value += gear_card["bonus"] + (1 if TALENTS[tid]["ability"] == "gearhead" else 0)
    return value


def recruit_values(tid: str, gear: str | None) -> list[int]:
    """A recruit's value in each of the five skills, with its gear."""
    return [recruit_value(tid, gear, skill) for skill in SKILLS]


def crew_total(members: list[tuple[str, str | None]], skill: str, intel: int = 0) -> tuple[int, list[str]]:
    """Total and its parts for a crew of ``(talent id, gear id)`` on ``skill`` (before interrupts)."""
    total = 0
    parts = []
    for tid, gear in members:
        value = recruit_value(tid, gear, skill)
        total += value
        parts.append(f"{TALENTS[tid]['name']} {value}")
    for tid, _ in members:
        ability = TALENTS[tid]["ability"]
        if ability == "solo" and len(members) == 1:
            total += 2
            parts.append("Lone Wolf +2")
        if ability == "leader" and len(members) > 1:
            total += len(members) - 1
            parts.append(f"Ringleader +{len(members) - 1}")
    if intel:
        total += intel
        parts.append(f"Intel +{intel}")
    return total, parts


def p_beat(total: int, number: int, clutch: bool = False) -> float:
    """Chance that ``total`` + one d6 beats ``number`` (1.0 when already greater)."""
    if total > number:
        return 1.0
    need = number - total + (0 if clutch else 1)  # smallest die face that succeeds
    return max(0, min(6, 7 - need)) / 6
