"""Who a new board pings (issue 30: a timed window that needs no answer does not ping, e.g. Masterminds' interrupt
windows, 37 of 44 of which offered only "Pass"; and who is pinged never tells the table what a hand holds)."""
from __future__ import annotations

import random

from bot.games import get_engine
from bot.storage import GameRow
from cogs.boards import pinged


def game_row(key: str, state: dict, humans: int = 4) -> GameRow:
    seats = [{"user_id": 500 + i, "name": f"p{i}"} for i in range(humans)]
    return GameRow(id=1, guild_id=1, channel_id=2, game_key=key, status="running", host_id=500, options={},
                   seed=1, seats=seats, state=state, version=0)


def play_until(engine, state, rng, wanted, check, limit: int = 3000) -> None:
    """Play bot moves, calling ``check(state)`` at each position, until ``wanted()`` or the game ends."""
    for _ in range(limit):
        if engine.is_terminal(state) or wanted():
            return
        check(state)
        seat = engine.to_act(state)[0]
        engine.apply(state, seat, engine.bot_action(state, seat, rng))


def test_a_timed_window_pings_nobody_whatever_the_seats_hold_and_a_turn_pings_its_player():
    """Masterminds' interrupt windows close by themselves: nobody is pinged, neither the seats whose only move is
    to pass nor those holding an interrupt (pinging only those would show the table who holds one)."""
    engine = get_engine("masterminds")
    options = engine.meta.resolve_options({})
    state = engine.setup(["a", "b", "c", "d"], options, 3)
    seen = {"window, pass only": 0, "window, a real choice": 0, "turn": 0}

    def check(state):
        users = pinged(game_row("masterminds", state), engine)
        waiting = engine.to_act(state)
        if engine.window_seconds(state, options) is not None:
            assert users == []
            for seat in waiting:
                seen["window, pass only" if len(engine.legal_actions(state, seat)) == 1 else "window, a real choice"] += 1
        else:
            assert users == [500 + seat for seat in waiting]
            seen["turn"] += 1

    play_until(engine, state, random.Random(3), lambda: min(seen.values()) >= 3, check)
    assert min(seen.values()) >= 3, seen


def test_a_decision_with_one_option_that_hangs_on_a_hidden_hand_is_pinged_like_the_others():
    """HEIST's assists: the seats asked to assist are pinged alike, those who can only answer "No assist" too
    (the table waits for them, and leaving them out would show who holds nothing that helps)."""
    engine = get_engine("heist")
    options = engine.meta.resolve_options({})
    state = engine.setup(["a", "b", "c", "d"], options, 5)
    seen = []

    def check(state):
        waiting = engine.to_act(state)
        counts = {len(engine.legal_actions(state, seat)) for seat in waiting}
        if len(waiting) > 1 and 1 in counts and len(counts) > 1:  # one seat with a single option, another with more
            assert pinged(game_row("heist", state), engine) == [500 + seat for seat in waiting]
            seen.append(state)

    play_until(engine, state, random.Random(5), lambda: len(seen) >= 2, check)
    assert len(seen) >= 2, "no assist step mixed seats with one option and seats with several"


def test_bots_and_players_away_are_never_pinged():
    engine = get_engine("dummy")
    state = engine.setup(["a", "b"], engine.meta.resolve_options({"pile": 9}), 1)
    game = game_row("dummy", state, humans=2)
    turn = engine.to_act(state)[0]
    assert pinged(game, engine) == [500 + turn]
    game.seats[turn]["away"] = True
    assert pinged(game, engine) == []
