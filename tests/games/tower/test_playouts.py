"""The Wizard's Tower: seeded random playouts (conservation of the 57 cards, secrecy of
the public view and of public events), bot games and renderer smoke tests."""
from __future__ import annotations

import copy
import json
import random

import pytest

from bot.games.tower import ENGINE, cards
from rendering import tower as tower_renderer
from rendering.common import to_png
from tests.playout import random_playout, roundtrip

OPTION_SETS = [{}, {"special_set": "B"}, {"master_thief": True}, {"special_set": "B", "master_thief": True}]


def hidden_ids(st: dict) -> set[int]:
    """Cards no one at the table may see in public right now."""
    if st["phase"] == "over":
        return set(st["box_unseen"])
    hidden = {c for c in st["secret"] if c is not None}
    hidden |= set(st["box_unseen"])
    if st["tower"][7][4] is not None:
        hidden.add(st["tower"][7][4])
    if st["draft"]:
        hidden |= set(st["draft"]["hand"])
    return hidden


_calls = [0]


def check(st: dict, every_private: int = 3) -> None:
    n = st["n"]
    _calls[0] += 1
    places = [c for row in st["tower"] for c in row if c is not None]
    for s in range(n):
        places += st["hauls"][s]
        if st["secret"][s] is not None:
            places.append(st["secret"][s])
    if st["draft"]:
        places += st["draft"]["hand"]
    places += st["box"] + st["box_unseen"] + st["out_of_play"]
    assert sorted(places) == list(range(cards.N_CARDS)), "a card is missing or duplicated"
    assert len(st["out_of_play"]) == 8
    # pawns: balcony, bridge or an empty tower space
    for s, (f, slot) in enumerate(st["pawns"]):
        assert f in (-1, 8) or (0 <= f < 8 and st["tower"][f][slot] is None)
    assert len(set(st["exits"])) == len(st["exits"])
    assert sum(1 for p in st["pawns"] if p[0] == 8) == len(st["exits"])
    if st["sand_target"] is not None:
        owner = [s for s in range(n) if cards.SAND in st["hauls"][s]]
        assert owner and st["sand_target"] in st["hauls"][owner[0]]
    # secrecy of the public view
    pub = ENGINE.view(st, None)
    assert "private" not in pub
    dump = json.dumps(pub)
    for cid in hidden_ids(st):
        assert cards.name(cid) not in dump, f"public view shows hidden {cards.name(cid)}"
    # private views: own secret, never another's (unless peeked at with the Distillation)
    if st["phase"] != "over" and (_calls[0] % every_private == 0 or st["draft"]):
        for s in range(n):
            pv = json.dumps(ENGINE.view(st, s)["private"])
            seen = {c for _, c in st["seen"][s]} | set(st["offered"][s])
            if st["draft"] and ENGINE.to_act(st) == [s]:
                seen |= set(st["draft"]["hand"])
            for o in range(n):
                c = st["secret"][o]
                if c is not None and o != s and c not in seen:
                    assert cards.name(c) not in pv
            if st["secret"][s] is not None:
                assert cards.name(st["secret"][s]) in pv


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("options", OPTION_SETS, ids=["A", "B", "A-master", "B-master"])
def test_random_playouts(players, options):
    for seed in range(125):  # 4 x 4 x 125 = 2000 games
        state, log = random_playout(ENGINE, players, seed, options, check=check)
        assert ENGINE.is_terminal(state)
        final = ENGINE.view(state, None)["final"]
        assert len(final["awards"]) == len(cards.tiles_in_play(players))


def greedy_random_playout(players: int, seed: int, options: dict) -> dict:
    """Random play that rarely exits, so the tower empties and every power comes up; checks event secrecy."""
    st = ENGINE.setup([f"P{i + 1}" for i in range(players)], ENGINE.meta.resolve_options(options), seed)
    rng = random.Random(seed)
    while not ENGINE.is_terminal(st):
        seat = rng.choice(ENGINE.to_act(st))
        legal = ENGINE.legal_actions(st, seat)
        non_exit = [a for a in legal if a["type"] != "exit"]
        action = rng.choice(non_exit if non_exit and rng.random() > 0.04 else legal)
        before = copy.deepcopy(st)
        events = ENGINE.apply(st, seat, action)
        hidden = hidden_ids(st) | (hidden_ids(before) & set(st["box_unseen"]))
        for ev in events:
            if "to" not in ev:
                for cid in hidden:
                    assert cards.name(cid) not in ev["text"], f"public event leaks {cards.name(cid)}: {ev['text']}"
            else:
                assert ev["to"] == seat or ev["type"] == "draft"
        check(st, every_private=1)
    return st


def test_power_heavy_playouts_keep_secrets():
    kinds: set[str] = set()
    for seed in range(240):
        players = 2 + seed % 4
        options = OPTION_SETS[seed % 4]
        st = greedy_random_playout(players, seed, options)
        for h in st["hauls"]:
            kinds |= {cards.card(c)["power"] for c in h if cards.card(c)["power"]}
        kinds |= {cards.card(c)["power"] for c in st["box"] if cards.card(c)["power"]}
    assert kinds >= {"amulet", "sand", "hourglass", "tales", "cloak", "distill", "codex", "crown", "vampire"}


def play_bots(players: int, seed: int, options: dict, bots: list[bool]) -> list[dict]:
    st = ENGINE.setup([f"P{i + 1}" for i in range(players)], ENGINE.meta.resolve_options(options), seed)
    rng = random.Random(seed)
    while not ENGINE.is_terminal(st):
        seat = ENGINE.to_act(st)[0]
        if bots[seat]:
            action = ENGINE.bot_action(st, seat, rng)
        else:
            action = rng.choice(ENGINE.legal_actions(st, seat))
        assert action in ENGINE.legal_actions(st, seat)
        ENGINE.apply(st, seat, action)
        st = roundtrip(st)
    return ENGINE.scores(st)


def test_bots_play_full_games():
    for seed in range(24):
        players = 2 + seed % 4
        scores = play_bots(players, 500 + seed, OPTION_SETS[seed % 4], [True] * players)
        assert any(r["won"] for r in scores)


def test_bot_beats_random_players():
    wins = 0
    games = 0
    for seed in range(40):
        players = 2 + seed % 4
        bot_seat = seed % players
        scores = play_bots(players, 900 + seed, OPTION_SETS[seed % 4], [s == bot_seat for s in range(players)])
        wins += scores[bot_seat]["won"]
        games += 1
    assert wins / games > 0.6


def test_bot_does_not_read_hidden_state():
    # Two states identical in everything the bot can see but the other secrets/bottom card: same choice.
    st = ENGINE.setup(["a", "b", "c"], ENGINE.meta.resolve_options({}), 77)
    other = copy.deepcopy(st)
    other["secret"][1], other["tower"][7][4] = other["tower"][7][4], other["secret"][1]
    for seed in range(5):
        assert ENGINE.bot_action(st, 0, random.Random(seed)) == ENGINE.bot_action(other, 0, random.Random(seed))


def test_renderer_smoke():
    for players, options in [(2, {}), (3, {"special_set": "B"}), (5, {"master_thief": True}), (4, {})]:
        st = ENGINE.setup([f"Thief number {i + 1}" for i in range(players)], ENGINE.meta.resolve_options(options), players)
        rng = random.Random(players)
        step = 0
        while True:
            if step % 9 == 0 or ENGINE.is_terminal(st):
                view = ENGINE.view(st, None)
                png = to_png(tower_renderer.render_board(view))
                assert len(png) < 400_000
                for s in range(players):
                    img = tower_renderer.render_private(ENGINE.view(st, s))
                    assert img is None or len(to_png(img)) < 400_000
            if ENGINE.is_terminal(st):
                break
            seat = ENGINE.to_act(st)[0]
            ENGINE.apply(st, seat, ENGINE.bot_action(st, seat, rng))
            step += 1
        final = tower_renderer.render_final(ENGINE.view(st, None), ENGINE.scores(st))
        assert len(to_png(final)) < 400_000 and final.size[0] >= 1000
