"""Shared helpers for the Masterminds tests: scenario building, dice rigging and
the conservation / secrecy check used after every action of the playouts."""
from __future__ import annotations

import json
from collections import Counter

from bot.games.masterminds import ENGINE
from bot.games.masterminds.cards import FAILURES, HEISTS, PREP, TALENTS
from bot.games.masterminds.scenario import MastermindsTable, fid, hid, pids, tid  # noqa: F401 (the tests import them from here)


def fresh(n: int = 2, seed: int = 1, **options) -> dict:
    return MastermindsTable(n, seed, **options).state


def set_team(state, seat: int, names: list[str], gear: dict[str, str] | None = None) -> list[str]:
    """Give ``seat`` exactly these recruits (old ones go to the discard); their ids."""
    MastermindsTable.of(state).team(seat, *names, gear=gear)
    return [tid(name) for name in names]


def set_hand(state, seat: int, names: list[str]) -> list[str]:
    MastermindsTable.of(state).hand(seat, *names)
    return list(state["hands"][seat])


def clear_hands(state) -> None:
    MastermindsTable.of(state).empty_hands()


def set_heist(state, slot: int, a: str, b: str, dice=None) -> None:
    """Put heist ``a`` (A side) + ``b`` (B side) in ``slot`` (card ids); dice = list of (seat, value) or None."""
    MastermindsTable.of(state).heist(slot, HEISTS[a]["name"], HEISTS[b]["name"], dice=dice or ())


def heist_state(n=2, seed=1, team=("Rosa Vance",), gear=None, a="The Crown Jewels", b="Casino Vault", dice=None):
    """Seat 0 to act, empty hands, a known heist in slot 0."""
    return MastermindsTable.at_a_heist(n, seed, team, gear, a, b, dice or ()).state


def top_failure(state, name: str) -> None:
    MastermindsTable.of(state).next_failure(name)


def top_prep(state, name: str) -> str:
    MastermindsTable.of(state).next_prep(name)
    return state["prep_deck"][-1]


def rig(state, dice: list[int]) -> None:
    """Set the state's rng so that the next d6 rolls are ``dice``."""
    MastermindsTable.of(state).dice(*dice)


def play(state, seat: int, action: dict) -> list[dict]:
    return ENGINE.apply(state, seat, action)


def texts(events) -> str:
    return " | ".join(e["text"] for e in events if "to" not in e)


# --------------------------------------------------------------------- check
def check(state) -> None:
    """Conservation of every card, die and gem, plus secrecy of the public view."""
    n = len(state["names"])
    talents = list(state["talent_deck"]) + state["talent_discard"] + state["pool"]
    talents += [e["card"] for team in state["teams"] for e in team]
    pending = state.get("pending") or {}
    if state["phase"] == "burned" or (state["phase"] == "over" and "card" in pending and pending["card"] in TALENTS):
        talents.append(pending["card"])
    if state["phase"] == "replace" and pending["from"] == "burned":
        talents.append(pending["card"])  # drawn from the Talent deck, not yet hired
    assert Counter(talents) == Counter(list(TALENTS)), "talent cards not conserved"
    prep = list(state["prep_deck"]) + state["prep_discard"] + [p for h in state["hands"] for p in h]
    prep += [e["gear"] for team in state["teams"] for e in team if e["gear"]]
    if state["phase"] == "pay":
        prep.append(pending["card"])  # an action card on the table, waiting for its gem
    assert Counter(prep) == Counter(list(PREP)), "prep cards not conserved"
    heists = list(state["heist_deck"]) + [m for ms in state["mementos"] for m in ms]
    heists += [x for h in state["heists"] if h for x in (h["a"], h["b"])]
    assert Counter(heists) == Counter(list(HEISTS)), "heist cards not conserved"
    assert Counter(state["failure_deck"] + state["failure_discard"]) == Counter(list(FAILURES)), "failure cards not conserved"
    for s in range(n):
        on_board = sum(1 for h in state["heists"] if h for d in h["dice"] if d and d["seat"] == s)
        assert state["dice"][s] >= 0 and state["dice"][s] + on_board == 5, "dice not conserved"
        assert len(state["teams"][s]) <= 4
        if state["phase"] != "over" and s != state["turn"]:
            assert len(state["hands"][s]) <= 6, "hand limit broken"
        assert not any(PREP[p]["kind"] == "immediate" for p in state["hands"][s]), "immediate card kept in hand"
    for h in state["heists"]:
        if h:
            filled = [d is not None for d in h["dice"]]
            assert filled == sorted(filled, reverse=True), "heist steps filled out of order"
            assert not all(filled)
    for c, total in state["gem_total"].items():
        held = sum(g[c] for g in state["gems"])
        assert state["bag"][c] >= 0 and all(g[c] >= 0 for g in state["gems"])
        assert state["bag"][c] + held == total, f"{c} gems not conserved"
    assert state["completed"] == sum(len(m) for m in state["mementos"])
    assert 1 <= state["round"] <= state["options"]["round_limit"]
    # Secrecy: nothing hidden in the public view.
    public = json.dumps(ENGINE.view(state, None))
    assert '"private"' not in public
    hidden = [p for h in state["hands"] for p in h] + state["prep_deck"] + state["talent_deck"]
    hidden += state["heist_deck"] + state["failure_deck"]
    for cid in hidden:
        assert f'"{cid}"' not in public, f"hidden card {cid} in the public view"
    for s in range(n):
        mine = ENGINE.view(state, s)
        assert {c["id"] for c in mine["private"]["hand"]} == set(state["hands"][s])
        others = json.dumps({k: v for k, v in mine.items() if k != "private"})
        assert others == public


def go(state, seat: int, slot: int, skill: str, recruits: list[str], resolve: bool = False) -> list[dict]:
    """Attempt the next step of heist ``slot`` with ``recruits`` (pick the step, then the crew);
    with ``resolve`` everyone passes in every interrupt window that opens. Returns all events."""
    events = ENGINE.apply(state, seat, {"type": "heist", "heist": slot, "skill": skill})
    events += ENGINE.apply(state, seat, {"type": "crew", "recruits": recruits})
    if resolve:
        events += pass_all(state)
    return events


def pass_all(state) -> list[dict]:
    """Everyone still to answer passes, in every interrupt window that opens in a row."""
    events: list[dict] = []
    while state["phase"] == "window":
        events += ENGINE.apply(state, ENGINE.to_act(state)[0], {"type": "pass"})
    return events
