"""The HEIST bot decides from its seat's view and the legal actions only: it is
handed ``engine.view(state, seat)``, never the state."""
from __future__ import annotations

import json
import random

from bot.games.heist import ENGINE, bot_player
from tests.games.heist.scenario import HeistTable


def test_bot_action_hands_the_bot_only_its_seats_view(monkeypatch) -> None:
    calls = []
    real = bot_player.choose

    def spy(view, legal, rng):
        calls.append((view, legal))
        return real(view, legal, rng)

    monkeypatch.setattr(bot_player, "choose", spy)
    rng = random.Random(2)
    for players in (2, 4):
        st = ENGINE.setup([f"P{i}" for i in range(players)], {}, 11 + players)
        while not ENGINE.is_terminal(st):
            seat = ENGINE.to_act(st)[0]
            before = len(calls)
            action = ENGINE.bot_action(st, seat, rng)
            legal = ENGINE.legal_actions(st, seat)
            assert action in legal
            if len(legal) > 1:
                assert len(calls) == before + 1
                view, given = calls[-1]
                assert view == ENGINE.view(st, seat) and given == legal
                assert view["private"]["seat"] == seat
                for key in ("hands", "rng", "identities", "piles"):
                    assert key not in view
            ENGINE.apply(st, seat, action)
    assert calls


def test_bot_plays_from_a_json_view_without_the_engine() -> None:
    rng = random.Random(5)
    st = ENGINE.setup(["A", "B", "C"], {}, 9)
    while not ENGINE.is_terminal(st):
        seat = ENGINE.to_act(st)[0]
        legal = ENGINE.legal_actions(st, seat)
        view = json.loads(json.dumps(ENGINE.view(st, seat)))
        action = bot_player.choose(view, legal, rng) if len(legal) > 1 else legal[0]
        assert action in legal
        ENGINE.apply(st, seat, action)


# ------------------------------------------------------------------ playing for its secret
def _choice(secret: str, n: int = 3, pile: tuple[str, ...] = (), tops: dict | None = None) -> str:
    """The job the active bot picks, with ``secret``, on a board whose jobs' tops are ``tops``."""
    table = HeistTable(n, seed=3)
    st, seat = table.state, table.active
    table.secret(seat, secret).identity(seat, "fixer").bag(yellow=3, red=1, purple=1)  # fixer: 1/1/1
    for letter in "ABCD":
        stack = st["jobs"][letter]
        table.job(letter, *(stack[stack.index(tops[letter]):] if tops and letter in tops else []))
    table.scored(seat, *pile)
    legal = ENGINE.legal_actions(st, seat)
    return bot_player.choose(ENGINE.view(st, seat), legal, random.Random(1))["job"]


def test_bot_with_a_bag_secret_goes_for_the_obstacle_that_moves_the_bag_its_way() -> None:
    tops = {"C": "C1", "D": "D1"}  # C1 Charm 3, success: add a green token; D1 Dexterity 4 for 2 cheese
    assert _choice("well_trained", tops=tops) == "D"
    assert _choice("guardian_angel", tops=tops) == "C"  # wants green in the final bag


def test_specialist_bot_stays_on_the_job_it_started() -> None:
    tops = {"A": "A2", "D": "D3"}  # A2 Charm 3 for 1 cheese; D3 Agility 6 for 3 cheese
    assert _choice("well_trained", n=5, pile=("A1",), tops=tops) == "D"
    assert _choice("specialist", n=5, pile=("A1",), tops=tops) == "A"  # a second Museum obstacle


def test_jack_of_all_trades_bot_wants_the_skills_that_close_its_goal() -> None:
    skills = {"agility": 2, "charm": 0, "dexterity": 1}
    assert sorted(bot_player.jack_wants(skills, {"n": 1, "two": 2})) == ["charm", "dexterity"]
    assert sorted(bot_player.jack_wants(skills, {"n": 2})) == ["charm", "dexterity"]
    assert bot_player.jack_wants({"agility": 2, "charm": 1, "dexterity": 2}, {"n": 1, "two": 2}) == []
    assert bot_player.jack_wants({"agility": 2, "charm": 1, "dexterity": 2}, {"n": 2}) == ["charm"]


def test_the_view_the_bot_gets_holds_nothing_hidden_from_its_seat() -> None:
    """What the bot is given (its seat's view) never names another seat's secret, hand cards,
    hidden commit or the deck's cards, at any decision of a seeded 4-player game."""
    rng = random.Random(8)
    st = ENGINE.setup([f"P{i}" for i in range(4)], {}, 31)
    checked = 0
    while not ENGINE.is_terminal(st):
        seat = ENGINE.to_act(st)[0]
        text = json.dumps(ENGINE.view(st, seat))
        for other in range(4):
            if other == seat:
                continue
            assert f'"{st["secrets"][other]}"' not in text
            assert all(f'"{cid}"' not in text for cid in st["hands"][other])
        assert all(f'"{cid}"' not in text for cid in st["deck"])
        assert all(f'"{cid}"' in text for cid in st["hands"][seat])  # ids are how a view would leak them
        assert f'"{st["secrets"][seat]}"' in text
        test = st.get("test") or {}
        for other, commit in (test.get("commits") or {}).items():
            if int(other) != seat and isinstance(commit, dict) and commit.get("card"):
                assert f'"{commit["card"]}"' not in text
        checked += 1
        ENGINE.apply(st, seat, ENGINE.bot_action(st, seat, rng))
    assert checked > 50
