"""Who a new board pings (issue 30: a decision with a single option is not pinged; a timed window that needs no
answer, e.g. Masterminds' interrupt windows where the only move is to pass, does not ping)."""
from __future__ import annotations

import random

from bot.games import get_engine
from bot.storage import GameRow
from cogs.boards import pinged


def game_row(key: str, state: dict, humans: int = 4) -> GameRow:
    seats = [{"user_id": 500 + i, "name": f"p{i}"} for i in range(humans)]
    return GameRow(id=1, guild_id=1, channel_id=2, game_key=key, status="running", host_id=500, options={},
                   seed=1, seats=seats, state=state, version=0)


def test_a_pass_only_window_pings_nobody_and_a_real_choice_pings_its_player():
    engine = get_engine("masterminds")
    options = engine.meta.resolve_options({})
    state = engine.setup(["a", "b", "c", "d"], options, 3)
    rng = random.Random(3)
    seen = {"pass only": 0, "choice": 0}
    while not engine.is_terminal(state) and min(seen.values()) < 3:
        game = game_row("masterminds", state)
        users = set(pinged(game, engine))
        for seat in engine.to_act(state):
            legal = engine.legal_actions(state, seat)
            if len(legal) == 1:
                assert engine.window_seconds(state, options) is not None and legal[0]["type"] == "pass"
                seen["pass only"] += 1
                assert 500 + seat not in users, engine.describe_action(state, seat, legal[0])
            else:
                seen["choice"] += 1
                assert 500 + seat in users
        seat = engine.to_act(state)[0]
        engine.apply(state, seat, engine.bot_action(state, seat, rng))
    assert min(seen.values()) >= 3, seen


def test_bots_and_players_away_are_never_pinged():
    engine = get_engine("dummy")
    state = engine.setup(["a", "b"], engine.meta.resolve_options({"pile": 9}), 1)
    game = game_row("dummy", state, humans=2)
    turn = engine.to_act(state)[0]
    assert pinged(game, engine) == [500 + turn]
    game.seats[turn]["away"] = True
    assert pinged(game, engine) == []
