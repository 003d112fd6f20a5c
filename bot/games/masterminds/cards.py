"""Card data for Masterminds: Heist Society, loaded once at import.

Every physical card gets a string id: talents ``T01``.., prep cards ``P01``.. (one
id per copy), heist cards ``H01``.., failure cards ``F01``... The ids say nothing
about a card beyond its deck, so public views may list public ids freely.
"""
from __future__ import annotations

import json
from typing import Any

from bot.paths import DATA_DIR

from .viewtypes import PrepCardView, TalentCardView

_DATA = json.loads((DATA_DIR / "masterminds" / "cards.json").read_text("utf-8"))

SKILLS: list[str] = _DATA["skills"]
COLOURS: list[str] = _DATA["colours"]
CLEAR = "Clear"  # the colourless gems ("diamonds"), always worth 2
ABILITIES: dict[str, dict[str, str]] = _DATA["abilities"]
CONSEQUENCES: dict[str, str] = _DATA["consequences"]

TALENTS: dict[str, dict[str, Any]] = {}
for i, t in enumerate(_DATA["talents"], 1):
    TALENTS[f"T{i:02d}"] = dict(t, id=f"T{i:02d}", stat=dict(zip(SKILLS, t["stats"])))

PREP: dict[str, dict[str, Any]] = {}
_n = 0
for p in _DATA["prep"]:
    for _ in range(p["count"]):
        _n += 1
        PREP[f"P{_n:02d}"] = {k: v for k, v in p.items() if k != "count"} | {"id": f"P{_n:02d}"}

HEISTS: dict[str, dict[str, Any]] = {}
for i, h in enumerate(_DATA["heists"], 1):
    HEISTS[f"H{i:02d}"] = dict(h, id=f"H{i:02d}")

FAILURES: dict[str, dict[str, Any]] = {}
for i, f in enumerate(_DATA["failures"], 1):
    FAILURES[f"F{i:02d}"] = dict(f, id=f"F{i:02d}")

assert len(SKILLS) == 5 and len(TALENTS) == 24 and len(PREP) == 46 and len(HEISTS) == 12 and len(FAILURES) == 16
for _t in TALENTS.values():
    assert _t["ability"] in ABILITIES
for _f in FAILURES.values():
    assert _f["consequence"] in CONSEQUENCES and all(s in SKILLS for s in _f["triggers"])
for _h in HEISTS.values():
    assert len(_h["b"]) == 3 and all(s in SKILLS for st in [_h["a"], *_h["b"]] for s in st["skills"])


def talent(tid: str) -> dict[str, Any]:
    """The printed data of a Talent card."""
    return TALENTS[tid]


def prep(pid: str) -> dict[str, Any]:
    """The printed data of a Prep card."""
    return PREP[pid]


def prep_name(pid: str) -> str:
    """A Prep card's name."""
    return PREP[pid]["name"]


def effective_stats(tid: str) -> list[int]:
    """A talent's stats as they count in play: an All-Rounder is at least 2 everywhere."""
    talent = TALENTS[tid]
    if talent["ability"] == "allrounder":
        return [max(2, v) for v in talent["stats"]]
    return list(talent["stats"])


def talent_public(tid: str) -> TalentCardView:
    """A Talent card's public face (what the pool, the teams and the bot see)."""
    talent = TALENTS[tid]
    ability = ABILITIES[talent["ability"]]
    # ``stats`` are the values that count in play (an All-Rounder's printed 1s count as 2).
    return {"id": tid, "name": talent["name"], "stats": effective_stats(tid), "ability": ability["name"], "ability_text": ability["text"]}


def prep_public(pid: str) -> PrepCardView:
    """A Prep card's face (in a hand, or as gear on a recruit)."""
    card = PREP[pid]
    out: PrepCardView = {"id": pid, "name": card["name"], "kind": card["kind"], "text": card["text"]}
    if card.get("gem_text"):
        out["gem_text"] = card["gem_text"]
    return out


def prep_line(pid: str) -> str:
    """A Prep card as one line of Discord text: bold name, kind, effect and gem bonus."""
    card = PREP[pid]
    line = f"**{card['name']}** ({card['kind']}): {card['text']}"
    if card.get("gem_text"):
        line += f" 💎 {card['gem_text']}"
    return line


def heist_steps(a_id: str, b_id: str) -> list[dict[str, Any]]:
    """The four steps of a heist built from card ``a_id`` (A side) and ``b_id`` (B side)."""
    return [HEISTS[a_id]["a"], *HEISTS[b_id]["b"]]


def step_label(step: dict[str, Any]) -> str:
    """A heist step in words: its skills and the number to beat ("Stealth or Hacking 9")."""
    return " or ".join(step["skills"]) + f" {step['number']}"
