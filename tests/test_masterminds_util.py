"""Shared helpers for the Masterminds tests: scenario building, dice rigging and
the conservation / secrecy check used after every action of the playouts."""
from __future__ import annotations

import json
from collections import Counter

from bot.games.masterminds import ENGINE
from bot.games.masterminds.cards import FAILURES, HEISTS, PREP, TALENTS
from bot.rng import Rng


def fresh(n: int = 2, seed: int = 1, **options) -> dict:
    state = ENGINE.setup([f"P{i + 1}" for i in range(n)], ENGINE.meta.resolve_options(options), seed)
    state["turn"] = 0
    state["first"] = 0
    return state


def tid(name: str) -> str:
    return next(k for k, t in TALENTS.items() if t["name"] == name)


def pids(name: str) -> list[str]:
    return [k for k, p in PREP.items() if p["name"] == name]


def hid(name: str) -> str:
    return next(k for k, h in HEISTS.items() if h["name"] == name)


def fid(name: str) -> str:
    return next(k for k, f in FAILURES.items() if f["name"] == name)


def _take_talent(state, t: str) -> None:
    for key in ("talent_deck", "talent_discard", "pool"):
        if t in state[key]:
            state[key].remove(t)
            return
    for team in state["teams"]:
        for i, e in enumerate(team):
            if e["card"] == t:
                if e["gear"]:
                    state["prep_discard"].append(e["gear"])
                del team[i]
                return
    raise AssertionError(f"talent {t} not found")


def _take_prep(state, name: str) -> str:
    for key in ("prep_deck", "prep_discard"):
        for p in state[key]:
            if PREP[p]["name"] == name:
                state[key].remove(p)
                return p
    for hand in state["hands"]:
        for p in hand:
            if PREP[p]["name"] == name:
                hand.remove(p)
                return p
    for team in state["teams"]:
        for e in team:
            if e["gear"] and PREP[e["gear"]]["name"] == name:
                p = e["gear"]
                e["gear"] = None
                return p
    raise AssertionError(f"no free copy of {name}")


def set_team(state, seat: int, names: list[str], gear: dict[str, str] | None = None) -> list[str]:
    """Give ``seat`` exactly these recruits (old ones go to the discard)."""
    for e in list(state["teams"][seat]):
        if e["gear"]:
            state["prep_discard"].append(e["gear"])
        state["talent_discard"].append(e["card"])
    state["teams"][seat] = []
    out = []
    for nm in names:
        t = tid(nm)
        _take_talent(state, t)
        g = _take_prep(state, gear[nm]) if gear and nm in gear else None
        state["teams"][seat].append({"card": t, "gear": g, "tapped": False, "injured": False})
        out.append(t)
    ENGINE._refresh_pool(state, [])
    return out


def set_hand(state, seat: int, names: list[str]) -> list[str]:
    state["prep_discard"].extend(state["hands"][seat])
    state["hands"][seat] = []
    for nm in names:
        state["hands"][seat].append(_take_prep(state, nm))
    return list(state["hands"][seat])


def clear_hands(state) -> None:
    for s in range(len(state["names"])):
        set_hand(state, s, [])


def set_heist(state, slot: int, a: str, b: str, dice=None) -> None:
    """Put heist ``a`` (A side) + ``b`` (B side) in ``slot``; dice = list of (seat, value) or None."""
    deck = state["heist_deck"]

    def free(i):
        h = state["heists"][i]
        if h:
            for d in h["dice"]:
                if d:
                    state["dice"][d["seat"]] += 1
            deck[:0] = [h["a"], h["b"]]
            state["heists"][i] = None

    free(slot)
    other = state["heists"][1 - slot]
    if other and {a, b} & {other["a"], other["b"]}:
        free(1 - slot)
    deck.remove(a)
    deck.remove(b)
    dice = list(dice or []) + [None] * (4 - len(dice or []))
    for d in dice:
        if d:
            state["dice"][d[0]] -= 1
    state["heists"][slot] = {"a": a, "b": b, "dice": [{"seat": d[0], "value": d[1]} if d else None for d in dice]}
    if state["heists"][1 - slot] is None:
        x, y = deck.pop(), deck.pop()
        state["heists"][1 - slot] = {"a": x, "b": y, "dice": [None] * 4}


def heist_state(n=2, seed=1, team=("Rosa Vance",), gear=None, a="The Crown Jewels", b="Casino Vault", dice=None):
    """Seat 0 to act, empty hands, a known heist in slot 0."""
    s = fresh(n, seed)
    clear_hands(s)
    set_team(s, 0, list(team), gear)
    set_heist(s, 0, hid(a), hid(b), dice)
    return s


def top_failure(state, name: str) -> None:
    f = fid(name)
    for key in ("failure_deck", "failure_discard"):
        if f in state[key]:
            state[key].remove(f)
    state["failure_deck"].append(f)


def top_prep(state, name: str) -> str:
    p = _take_prep(state, name)
    state["prep_deck"].append(p)
    return p


def rig(state, dice: list[int]) -> None:
    """Set the state's rng so that the next d6 rolls are ``dice``."""
    for seed in range(1, 10 ** 6):
        probe = {"rng": seed}
        r = Rng(probe)
        if all(r.die(6) == d for d in dice):
            state["rng"] = seed
            return
    raise AssertionError("could not rig dice")


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
    if state["phase"] == "burned" or (state["phase"] == "over" and state.get("pending") and "card" in (state["pending"] or {})):
        talents.append(state["pending"]["card"])
    assert Counter(talents) == Counter(list(TALENTS)), "talent cards not conserved"
    prep = list(state["prep_deck"]) + state["prep_discard"] + [p for h in state["hands"] for p in h]
    prep += [e["gear"] for team in state["teams"] for e in team if e["gear"]]
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
    assert state["round"] <= state["options"]["round_limit"] + 1
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
