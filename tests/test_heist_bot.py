"""The HEIST bot decides from its seat's view and the legal actions only: it is
handed ``engine.view(state, seat)``, never the state."""
from __future__ import annotations

import json
import random

from bot.games.heist import ENGINE as E
from bot.games.heist import bot_player


def test_bot_action_hands_the_bot_only_its_seats_view(monkeypatch) -> None:
    calls = []
    real = bot_player.choose

    def spy(view, legal, rng):
        calls.append((view, legal))
        return real(view, legal, rng)

    monkeypatch.setattr(bot_player, "choose", spy)
    rng = random.Random(2)
    for players in (2, 4):
        st = E.setup([f"P{i}" for i in range(players)], {}, 11 + players)
        while not E.is_terminal(st):
            seat = E.to_act(st)[0]
            before = len(calls)
            action = E.bot_action(st, seat, rng)
            legal = E.legal_actions(st, seat)
            assert action in legal
            if len(legal) > 1:
                assert len(calls) == before + 1
                view, given = calls[-1]
                assert view == E.view(st, seat) and given == legal
                assert view["private"]["seat"] == seat
                for key in ("hands", "rng", "identities", "piles"):
                    assert key not in view
            E.apply(st, seat, action)
    assert calls


def test_bot_plays_from_a_json_view_without_the_engine() -> None:
    rng = random.Random(5)
    st = E.setup(["A", "B", "C"], {}, 9)
    while not E.is_terminal(st):
        seat = E.to_act(st)[0]
        legal = E.legal_actions(st, seat)
        view = json.loads(json.dumps(E.view(st, seat)))
        action = bot_player.choose(view, legal, rng) if len(legal) > 1 else legal[0]
        assert action in legal
        E.apply(st, seat, action)
