"""Shared helpers for the Sleeping Wizard tests, plus the data checks."""
from __future__ import annotations

import json
from typing import Any

from bot.games.sleeping import ENGINE
from bot.games.sleeping.cards import CARDS, DECK_SIZE, FLOORS, RANDOM_KEYS

ID = {c["name"]: c["id"] for c in CARDS}


def ids(*names: str) -> list[int]:
    return [ID[n] for n in names]


def new_game(n: int = 3, seed: int = 1, floors: bool = True) -> dict[str, Any]:
    return ENGINE.setup([f"P{i + 1}" for i in range(n)], ENGINE.meta.resolve_options({"floors": floors}), seed)


def place_floor(state: dict[str, Any], key: str, rnd: int = 2) -> None:
    """Put floor ``key`` at round ``rnd``'s level of the tower (keeping the tower a set of distinct cards)."""
    tower = state["tower"]
    if key in tower:
        j = tower.index(key)
        tower[j] = tower[rnd - 1]
    tower[rnd - 1] = key


def start_round(state: dict[str, Any], rnd: int, floor: str | None = None) -> list[dict[str, Any]]:
    if floor is not None and floor != "ground":
        place_floor(state, floor, rnd)
    for seat in range(len(state["names"])):
        state["teams"][seat] = []
    return ENGINE._start_round(state, rnd)


def arrange(state: dict[str, Any], hands: list[list[str]] | None = None, market: list[str] | None = None,
            teams: list[list[str]] | None = None, deck_top: list[str] | None = None) -> None:
    """Put named cards where a test wants them. Places not given keep their cards, minus the named
    ones (a hand gets a free card instead); every other card goes to the deck (conservation kept)."""
    n = len(state["names"])
    explicit: list[int] = []
    for group in (hands or []) + [market or []] + (teams or []) + [deck_top or []]:
        explicit += ids(*group)
    assert len(set(explicit)) == len(explicit), "a card was placed twice"
    named = set(explicit)
    if hands is not None:
        state["hands"] = [ids(*h) + [None] * (4 - len(h)) for h in hands]
        state["known"] = [[] for _ in range(n)]
    if market is not None:
        state["market"] = ids(*market)
    else:
        state["market"] = [c for c in state["market"] if c not in named]
    if teams is not None:
        state["teams"] = [ids(*t) for t in teams]
    else:
        state["teams"] = [[c for c in t if c not in named] for t in state["teams"]]
    if hands is None:
        taken = set(named) | set(state["market"]) | {c for t in state["teams"] for c in t}
        taken |= {c for h in state["hands"] for c in h if c is not None}
        free = [c for c in range(DECK_SIZE) if c not in taken]
        for seat, hand in enumerate(state["hands"]):
            for i, cid in enumerate(hand):
                if cid is not None and cid in named:
                    hand[i] = free.pop(0)
            state["known"][seat] = [c for c in state["known"][seat] if c in hand]
    used = list(state["market"]) + [c for h in state["hands"] for c in h if c is not None]
    used += [c for t in state["teams"] for c in t]
    top = ids(*(deck_top or []))
    rest = [c for c in range(DECK_SIZE) if c not in used and c not in top]
    state["deck"] = rest + list(reversed(top))  # the deck's top is the end of the list
    check_conservation(state)


def check_conservation(state: dict[str, Any]) -> None:
    places: list[int] = list(state["deck"]) + list(state["market"])
    for hand in state["hands"]:
        places += [c for c in hand if c is not None]
    for team in state["teams"]:
        places += team
    assert sorted(places) == list(range(DECK_SIZE)), "every adventurer is exactly once in deck, market, hands or teams"
    for seat, known in enumerate(state["known"]):
        assert set(known) <= set(c for c in state["hands"][seat] if c is not None)
    if state.get("pending"):
        assert state["pending"]["card"] in state["teams"][state["pending"]["seat"]]
    assert len(set(state["tower"])) == len(state["tower"])


def secrets_of(state: dict[str, Any], seat: int) -> list[int]:
    """Cards in ``seat``'s hand that ``seat`` has not peeked at."""
    return [c for c in state["hands"][seat] if c is not None and c not in state["known"][seat]]


def check_privacy(state: dict[str, Any]) -> None:
    n = len(state["names"])
    public = ENGINE.view(state, None)
    assert "private" not in public
    public_json = json.dumps(public)
    for seat in range(n):
        for cid in state["hands"][seat]:
            if cid is not None:
                assert CARDS[cid]["name"] not in public_json, "a hand card shows in the public view"
    hidden_floors = [k for i, k in enumerate(state["tower"]) if k != "attic" and i >= state["round"]]
    for key in hidden_floors:
        assert FLOORS[key]["name"] not in public_json, "a face-down floor shows in the public view"
        assert f'"{key}"' not in public_json
    for seat in range(n):
        view = ENGINE.view(state, seat)
        text = json.dumps(view)
        private = ENGINE.private_text(view)
        for cid in secrets_of(state, seat):
            name = CARDS[cid]["name"]
            assert name not in text, f"seat {seat} sees its own unpeeked {name} in its view"
            assert name not in private, f"seat {seat} sees its own unpeeked {name} in private_text"
        shown = card_ids_in(view)
        assert not shown & set(secrets_of(state, seat)), "an unpeeked own card's id shows in the owner's view"
        for h in view["private"]["hand"]:
            if not h["known"]:
                assert set(h) == {"slot", "letter", "known"}, "an unpeeked own card carries more than its slot"
        if seat in ENGINE.to_act(state):
            for action in ENGINE.legal_actions(state, seat):
                label = ENGINE.describe_action(state, seat, action)
                assert len(label) <= 80
                for cid in secrets_of(state, seat):
                    assert CARDS[cid]["name"] not in label


def card_ids_in(obj: Any) -> set[int]:
    """Ids of every card dict (one with "id" and "name") anywhere in a view."""
    found: set[int] = set()
    if isinstance(obj, dict):
        if "id" in obj and "name" in obj:
            found.add(obj["id"])
        for value in obj.values():
            found |= card_ids_in(value)
    elif isinstance(obj, list):
        for value in obj:
            found |= card_ids_in(value)
    return found


def check(state: dict[str, Any]) -> None:
    check_conservation(state)
    check_privacy(state)


__all__ = ["ENGINE", "ID", "ids", "new_game", "start_round", "arrange", "check", "check_conservation",
           "check_privacy", "secrets_of", "RANDOM_KEYS", "place_floor"]


# --------------------------------------------------------------------------- data
def test_deck_composition():
    from collections import Counter
    assert len(CARDS) == 52
    kinds = Counter(c["kind"] for c in CARDS)
    assert kinds == {"shapeshifter": 4, "rogue": 4, "regular": 32, "slime": 8, "bard": 4}
    values = Counter(c["value"] for c in CARDS if c["kind"] == "regular")
    assert values == {v: 4 for v in range(2, 10)}
    for v in range(2, 10):
        assert sorted(c["class"] for c in CARDS if c["value"] == v) == ["Healer", "Mage", "Ranger", "Warrior"]
    assert all(c["value"] == 10 for c in CARDS if c["kind"] == "slime")
    assert sorted(c["value"] for c in CARDS if c["kind"] == "bard") == [11, 12, 13, 14]
    assert all(c["value"] == 1 for c in CARDS if c["kind"] == "rogue")


def test_names_are_unique_and_never_inside_other_text():
    names = [c["name"] for c in CARDS]
    assert len(set(names)) == len(names)
    others = [f["name"] + " " + f["text"] for f in FLOORS.values()] + ["Healer Mage Warrior Ranger Rogue Slime Bard Shapeshifter"]
    for name in names:
        assert not any(name in other for other in names if other != name), name
        assert not any(name in text for text in others), name
    # the fixed words of private_text never contain a name either
    text = ENGINE.private_text(ENGINE.view(new_game(3), 0))
    assert "unseen (it faces away from you)" in text


def test_twenty_floors_ground_attic_and_eighteen_random():
    assert len(FLOORS) == 20
    assert len(RANDOM_KEYS) == 18
    assert "ground" in FLOORS and "attic" in FLOORS and "ground" not in RANDOM_KEYS
    state = new_game(4, seed=9)
    assert state["tower"][0] == "ground" and state["tower"][-1] == "attic"
    assert len(state["tower"]) == 6 and len(set(state["tower"])) == 6
    assert all(k in RANDOM_KEYS for k in state["tower"][1:5])
