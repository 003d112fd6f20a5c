"""HEIST end to end: a 3-player game through the fake Discord server. Assists are
committed secretly by everyone else with a visible "waiting for" list, and
revealed all at once; secrets and hands never reach the channel."""
from __future__ import annotations

from bot.games.heist.cards import RESOURCE, SECRET
from tests.conftest import ADMIN
from tests.e2e_helpers import latest_board, open_and_start, play_to_end

USERS = [ADMIN, 101, 102]


async def test_three_player_game_with_simultaneous_assist_reveals(harness):
    h, fake = harness, harness.fake
    game = await open_and_start(h, "heist", USERS)
    engine = h.bot.tables.engine(game)
    seen = [0]
    stats = {"partial": 0, "reveals": 0, "assists_revealed": 0}

    def choose(engine, state, seat, rng):
        if state["phase"] == "assist":  # prefer a real assist, so reveals have something in them
            for action in engine.legal_actions(state, seat):
                if action["type"] == "assist" and not action.get("pay"):
                    return action
        return engine.bot_action(state, seat, rng)

    async def check(current):
        g = await h.bot.tables.get(current.id)
        text = fake.public_text(since=seen[0])  # everything published since the last move, edits included
        seen[0] = fake.public_mark()
        if g.status == "running":
            # Nobody's secret and no card in a hand is ever named in the channel.
            for seat in range(3):
                assert SECRET[g.state["secrets"][seat]]["name"] not in text
            test = g.state.get("test") or {}
            if g.state["phase"] == "assist" and test.get("commits"):
                board = latest_board(h)  # the living board as it reads now
                stats["partial"] += 1
                waiting = engine.to_act(g.state)
                assert "Waiting for" in board.content
                assert all(f"<@{USERS[s]}>" in board.content for s in waiting)
                for seat, commit in test["commits"].items():
                    assert f"<@{USERS[int(seat)]}>" not in board.content.split("Waiting for")[-1]
                    if commit:
                        card = commit["card"] if isinstance(commit, dict) else commit
                        assert RESOURCE[card]["name"] not in text, "a committed assist was shown before the reveal"
        if "Assists revealed" in text:
            stats["reveals"] += 1
            stats["assists_revealed"] += text.count(": nothing") < 2

    game = await play_to_end(h, choose=choose, after_move=check)
    assert game.status == "finished"
    assert stats["partial"] > 5 and stats["reveals"] > 5 and stats["assists_revealed"] > 0
    # Each player got their secret by DM.
    for seat, uid in enumerate(USERS):
        assert any("Your secret" in m.content for m in fake.dms(uid))
    assert fake.unhandled == []
