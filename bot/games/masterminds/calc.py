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


def need_on_die(total: int, number: int, clutch: bool = False) -> int:
    """The smallest die face with which ``total`` + the die beats ``number`` (Clutch: equals it):
    1 or less means any roll, 7 or more means no roll can."""
    return number - total + (0 if clutch else 1)


def chance_line(total: int, number: int, clutch: bool = False, perfection: bool = True) -> str:
    """The preview a player reads before sending a crew: "total 8 beats 7: no roll", "total 4 + a die vs 7:
    you need 4+ (50%)", "total 2 + a die can't beat 9". ``perfection`` False: a roll is needed even when ahead."""
    if total > number and perfection:
        return f"total {total} beats {number}: no roll (PERFECTION)"
    need = need_on_die(total, number, clutch)
    if need <= 1:
        return f"total {total} + a die vs {number}: any roll wins"
    if need > 6:
        return f"total {total} + a die can't beat {number}"
    return f"total {total} + a die vs {number}: you need {need}+ ({round(100 * (7 - need) / 6)}%)"


GEM_AVERAGE = 3.5  # a mastermind colour's gems are worth one die roll at the end: 1-6, 3.5 on average
CLEAR_POINTS = 2


def gem_points(gems: dict[str, int], clear: str) -> tuple[int, int, float]:
    """What a player's gems are worth during play: (points sure now from Clear gems, how many colour gems
    whose value is rolled at the end, the expected total with each colour at its average 3.5)."""
    sure = CLEAR_POINTS * gems.get(clear, 0)
    rolled = sum(count for colour, count in gems.items() if colour != clear)
    return sure, rolled, sure + GEM_AVERAGE * rolled
