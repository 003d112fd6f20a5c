"""Seeded random playouts of HEIST for 1-6 players and both option sets, with
conservation and secrecy checks after every action; bot games."""
from __future__ import annotations

import json
import random

import pytest

from bot.games.heist import ENGINE, cards
from tests.playout import random_playout


def conservation(state: dict) -> None:
    n = state["n"]
    test = state["test"]
    # Resource cards: each of the 78 is in exactly one place.
    places: list[str] = list(state["deck"]) + list(state["discard"])
    for s in range(n):
        places += state["hands"][s] + state["upgrades"][s] + [c for c in state["piles"][s] if c in cards.RESOURCE]
    if test:
        if test.get("resolved"):
            places += test["leftover"]
        else:
            places += [a["card"] for a in test["assists"]] + test["tricks"]
    assert sorted(places) == sorted(cards.RESOURCE_IDS), "resource cards not conserved"
    # Obstacles: in a job stack, in the box or in a score pile.
    obs = [o for stack in state["jobs"].values() for o in stack] + state["boxed"] + state["unused"]
    for s in range(n):
        obs += [c for c in state["piles"][s] if c in cards.OBSTACLE]
    assert sorted(obs) == sorted(cards.OBSTACLE), "obstacles not conserved"
    for letter, stack in state["jobs"].items():
        assert stack == sorted(stack, key=lambda o: int(o[1:])), "a job's stack lost its order"
    # Tokens: supply + bag + in front of players + current test + heat track.
    for colour in cards.COLOURS:
        count = state["supply"][colour] + state["bag"][colour]
        count += sum(1 for t in state["spent"] if t["colour"] == colour)
        if test:
            count += sum(1 for t in test["tokens"] if t["colour"] == colour)
        count += sum(h["count"] for h in state["heat"] if h["colour"] == colour)
        assert count == cards.TOKEN_TOTAL[colour], f"{colour} tokens not conserved"
        assert state["bag"][colour] >= 0 and state["supply"][colour] >= 0
    assert sorted(state["identities"] + state["box_identities"]) == sorted(i["id"] for i in cards.IDENTITIES)
    assert sorted(state["secrets"] + state["box_secrets"]) == sorted(s["id"] for s in cards.SECRETS)
    assert len(set(state["identities"])) == n
    # Hands never exceed 5 + a few (draw effects), and refill happens at turn end.
    for s in range(n):
        assert len(state["hands"][s]) <= 8
    # Public view: no private key, no secrets, no hidden commits, no hand card ids.
    public = ENGINE.view(state, None)
    assert "private" not in public
    dump = json.dumps(public)
    if state["phase"] != "over":
        for s in range(n):
            assert cards.SECRET[state["secrets"][s]]["name"] not in dump
    for sid in state["box_secrets"]:
        assert cards.SECRET[sid]["name"] not in dump
    for s in range(n):
        for cid in state["hands"][s]:
            assert f'"{cid}"' not in dump
    for cid in state["deck"]:
        assert f'"{cid}"' not in dump
    if test and not test["revealed"]:
        assert "commit" not in dump.replace("committed", "")
        for s, commit in test["commits"].items():
            if commit:
                assert f'"{commit["card"]}"' not in dump
    # A seat's own view shows its own hand and secret only.
    for s in ENGINE.to_act(state)[:1]:
        own = ENGINE.view(state, s)
        assert sorted(c["id"] for c in own["private"]["hand"]) == sorted(state["hands"][s])
        other = json.dumps({k: v for k, v in own.items() if k != "private"})
        assert other == dump or json.loads(other)["status"] == public["status"]


@pytest.mark.parametrize("players", [1, 2, 3, 4, 5, 6])
@pytest.mark.parametrize("faces", ["random", "front"])
def test_random_playouts(players: int, faces: str) -> None:
    for seed in range(20):
        state, log = random_playout(ENGINE, players, seed * 31 + players, {"token_faces": faces},
                                    check=conservation, check_every=1 if seed < 3 else 5)
        assert state["phase"] == "over"
        assert state["round"] == 5 or ENGINE.obstacles_left(state) == 0
        assert all(h["done"] for h in state["heat"]) or ENGINE.obstacles_left(state) == 0
        conservation(state)
        # Every player took one turn per round played.
        chooses = [s for s, a in log if a["type"] == "choose"]
        assert len(chooses) == players * state["round"] or ENGINE.obstacles_left(state) == 0


@pytest.mark.parametrize("players", [1, 2, 3, 4, 5, 6])
def test_bot_games(players: int) -> None:
    for seed in range(8):
        state = ENGINE.setup([f"B{i}" for i in range(players)], {}, 1000 + seed)
        rng = random.Random(seed)
        steps = 0
        while not ENGINE.is_terminal(state):
            seat = ENGINE.to_act(state)[0]
            action = ENGINE.bot_action(state, seat, rng)
            assert action in ENGINE.legal_actions(state, seat)
            ENGINE.apply(state, seat, action)
            steps += 1
            assert steps < 5000
        conservation(state)
        assert len(ENGINE.scores(state)) == players


def _average_score(players: int, bot_seat_is_bot: bool, games: int) -> float:
    total = 0.0
    for seed in range(games):
        state = ENGINE.setup([f"B{i}" for i in range(players)], {}, 5000 + seed)
        rng = random.Random(seed)
        while not ENGINE.is_terminal(state):
            for seat in ENGINE.to_act(state)[:1]:
                if seat == 0 and bot_seat_is_bot:
                    action = ENGINE.bot_action(state, seat, rng)
                elif seat == 0:
                    action = rng.choice(ENGINE.legal_actions(state, seat))
                else:
                    action = ENGINE.bot_action(state, seat, rng)
                ENGINE.apply(state, seat, action)
        total += next(r["score"] for r in ENGINE.scores(state) if r["seat"] == 0)
    return total / games


def test_bot_beats_random() -> None:
    bot = _average_score(3, True, 30)
    rand = _average_score(3, False, 30)
    assert bot > rand + 1.0, (bot, rand)


def test_timeout_is_no_assist() -> None:
    state = ENGINE.setup(["A", "B", "C"], {}, 3)
    seat = state["active"]
    ENGINE.apply(state, seat, ENGINE.legal_actions(state, seat)[0])
    for other in ENGINE.to_act(state):
        assert ENGINE.timeout_action(state, other, random.Random(0)) == {"type": "no_assist"}


def test_timeout_in_tricks_resolves_and_upgrade_is_legal() -> None:
    state = ENGINE.setup(["A", "B"], {}, 5)
    seat = state["active"]
    ENGINE.apply(state, seat, ENGINE.legal_actions(state, seat)[0])
    ENGINE.apply(state, 1 - seat, {"type": "no_assist"})
    assert ENGINE.timeout_action(state, seat, random.Random(0)) == {"type": "resolve"}
    ENGINE.apply(state, seat, {"type": "resolve"})
    if state["phase"] == "upgrade":
        assert ENGINE.timeout_action(state, seat, random.Random(0)) in ENGINE.legal_actions(state, seat)
