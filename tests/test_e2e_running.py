"""Running games for real, through the fake Discord server: leaving, players who
leave the server, spectators, the log, replays, missed turns and rejoining."""
from __future__ import annotations

import asyncio

from tests.conftest import ADMIN, CHANNEL, GUILD, OUTSIDER
from tests.e2e_helpers import callback_text, latest_board, open_and_start, play_to_end

BOB, CID = 101, 102


async def test_leaving_a_running_game_hands_the_seat_to_a_bot(harness):
    h, fake = harness, harness.fake
    game = await open_and_start(h, "dummy", [ADMIN, BOB, CID])
    rec = await h.slash(BOB, "game leave")
    assert "You left" in callback_text(rec)
    await h.settle()
    game = await h.bot.tables.get(game.id)
    assert game.seats[1]["bot"] and game.seats[1]["user_id"] is None and game.status == "running"
    assert any("a bot plays their seat" in m.content for m in fake.public_messages(CHANNEL))
    rec = await h.click(BOB, latest_board(h), fake.find_component(latest_board(h), label="Play")["custom_id"])
    assert "not playing in this game" in callback_text(rec)
    game = await play_to_end(h)
    assert game.status == "finished"


async def test_a_player_who_leaves_the_server_is_replaced(harness):
    h, fake = harness, harness.fake
    await h.restart(members_intent=True)
    game = await open_and_start(h, "dummy", [ADMIN, BOB, CID], options="pile=20")
    await fake.remove_member(GUILD, CID)
    await fake.wait_for(lambda: any("Cid left" in m.content for m in fake.public_messages(CHANNEL)), timeout=5)
    await h.settle()
    game = await h.bot.tables.get(game.id)
    assert game.seats[2]["bot"] and game.status == "running"


async def test_the_server_can_choose_to_end_games_when_someone_leaves(harness):
    h, fake = harness, harness.fake
    await h.slash(ADMIN, "gameadmin settings", {"on_leave": "end"})
    game = await open_and_start(h, "dummy", [ADMIN, BOB, CID])
    await h.slash(BOB, "game leave")
    await h.settle()
    game = await h.bot.tables.get(game.id)
    assert game.status == "ended" and "Bob left" in game.ended_reason
    assert any("Game ended" in m.content for m in fake.public_messages(CHANNEL))


async def test_spectators_see_the_board_and_log_but_cannot_act(harness):
    h, fake = harness, harness.fake
    game = await open_and_start(h, "dummy", [ADMIN, BOB], options="pile=9")
    board = latest_board(h)
    panel = await h.click(ADMIN, board, fake.find_component(board, label="Play")["custom_id"])
    await h.click(ADMIN, panel.message, fake.find_component(panel.message, label="Take 2")["custom_id"])
    await h.settle()
    rec = await h.slash(OUTSIDER, "game status")
    assert "Coin Pile" in rec.message.content and f"<@{BOB}>" in rec.message.content and not rec.message.ephemeral
    rec = await h.slash(OUTSIDER, "game log")
    assert "Ann takes 2" in callback_text(rec)
    rec = await h.slash(OUTSIDER, "game move", {"move": "Take 1"})
    assert "not playing in this game" in callback_text(rec)
    rec = await h.slash(OUTSIDER, "game hand")
    assert "no hand here" in callback_text(rec)
    # Replays are for finished games.
    rec = await h.slash(OUTSIDER, "game replay", {"id": game.id})
    assert "finished games" in callback_text(rec)
    game = await play_to_end(h)
    rec = await h.slash(OUTSIDER, "game replay", {"id": game.id, "move": 1})
    assert "after move 1 of" in rec.message.content
    rec = await h.slash(OUTSIDER, "game replay", {"id": game.id, "move": 99})
    assert "has moves 0 to" in callback_text(rec)


async def test_three_missed_turns_bench_a_player_until_rejoin(harness, monkeypatch):
    h, fake = harness, harness.fake
    game = await open_and_start(h, "dummy", [ADMIN, BOB], options="pile=30, turn_minutes=1")
    publish = h.bot.ui.publish

    async def slow_publish(*args, **kwargs):  # a loaded machine: the board comes well after the timer's note
        await asyncio.sleep(0.2)
        return await publish(*args, **kwargs)

    monkeypatch.setattr(h.bot.ui, "publish", slow_publish)

    def ran_out() -> int:
        return sum("ran out" in m.content for m in fake.public_messages(CHANNEL))

    for missed in range(1, 7):  # both players miss three turns in a row
        h.clock.now += 61
        h.bot.wake_timers()
        # The timer's note, not just any message: a board still on its way from the turn before would do too.
        await fake.wait_for(lambda: ran_out() == missed, timeout=5)
    await fake.wait_for(lambda: any(m.content.startswith("**Final scores**") for m in fake.public_messages(CHANNEL)))
    await h.settle()
    game = await h.bot.tables.get(game.id)
    assert all(s.get("away") for s in game.seats)
    assert any("missed three turns in a row" in m.content for m in fake.public_messages(CHANNEL))
    # With both seats benched the bots play the game out.
    assert game.status == "finished"
    rec = await h.slash(ADMIN, "game rejoin")
    assert "no game in this channel" in callback_text(rec)


async def test_rejoin_takes_the_seat_back(harness):
    h, fake = harness, harness.fake
    game = await open_and_start(h, "dummy", [ADMIN, BOB, CID], options="pile=30, turn_minutes=1")
    def ran_out() -> int:
        return sum("ran out" in m.content for m in fake.public_messages(CHANNEL))

    for _ in range(9):
        count = ran_out()
        h.clock.now += 61
        h.bot.wake_timers()
        await fake.wait_for(lambda: ran_out() > count, timeout=5)
        await h.settle()
        game = await h.bot.tables.get(game.id)
        if game.seats[0].get("away"):
            break
    assert game.seats[0].get("away")
    rec = await h.slash(ADMIN, "game rejoin")
    assert "Welcome back" in callback_text(rec)
    game = await h.bot.tables.get(game.id)
    assert not game.seats[0].get("away") and game.seats[0]["missed"] == 0
