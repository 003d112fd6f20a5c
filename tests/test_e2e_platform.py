"""The platform end to end through the real discord.py client and the fake
Discord server, with the small Coin Pile test game: lobby, private delivery,
turns, races, a restart mid-game, outsiders, the end, stats and admin."""
from __future__ import annotations

import asyncio

from tests.conftest import ADMIN, CHANNEL, GUILD, OUTSIDER
from tests.e2e_helpers import button_id, callback_text, latest_board

BOB, CID = 101, 102


async def open_table(h, options="pile=9"):
    rec = await h.slash(ADMIN, "game new", {"game": "dummy", "options": options})
    assert rec.callback["type"] == 4
    return rec.message


async def take(h, user, board, label="Take 1"):
    panel = await h.click(user, board, button_id(h.fake, board, "Play"))
    assert panel.callback["data"]["flags"] & 64, "the move panel is ephemeral"
    rec = await h.click(user, panel.message, button_id(h.fake, panel.message, label))
    await h.settle()
    return rec


async def test_a_whole_game_through_discord(harness):
    h, fake = harness, harness.fake
    fake.set_dms_closed(CID)
    lobby = await open_table(h)
    assert "Coin Pile" in lobby.embed_texts
    # Bob joins by button, Cid by command; a second table in the same channel is refused.
    rec = await h.click(BOB, lobby, button_id(fake, lobby, "Join"))
    assert rec.callback["type"] == 7 and f"<@{BOB}>" in callback_text(rec)
    rec = await h.slash(CID, "game join")
    assert "You joined" in callback_text(rec)
    rec = await h.slash(BOB, "game new", {"game": "dummy"})
    assert "already open" in callback_text(rec) and rec.callback["data"]["flags"] & 64
    rec = await h.click(BOB, lobby, button_id(fake, lobby, "Start"))
    assert "Only the host" in callback_text(rec)
    await h.click(ADMIN, lobby, button_id(fake, lobby, "Start"))
    await h.settle()

    # Secrets went by DM; Cid's DMs are closed, so the channel says so, without the secret.
    assert any("SECRET" in m.content for m in fake.dms(ADMIN))
    assert any("SECRET" in m.content for m in fake.dms(BOB))
    assert fake.blocked_dms and all(uid == CID for uid, _ in fake.blocked_dms)
    notices = [m for m in fake.public_messages(CHANNEL) if "couldn't DM you" in m.content]
    assert len(notices) == 1 and f"<@{CID}>" in notices[0].content

    board = latest_board(h)
    # An outsider and a player out of turn get clear private errors.
    rec = await h.click(OUTSIDER, board, button_id(fake, board, "Play"))
    assert "not playing in this game" in callback_text(rec) and rec.callback["data"]["flags"] & 64
    rec = await h.click(BOB, board, button_id(fake, board, "Play"))
    assert "not your turn" in callback_text(rec)
    # Cid uses the button fallback to see his hand privately.
    rec = await h.click(CID, board, button_id(fake, board, "Show my hand"))
    assert "SECRET" in callback_text(rec) and rec.callback["data"]["flags"] & 64

    # Two clicks on the same move race: exactly one is applied.
    panel = await h.click(ADMIN, board, button_id(fake, board, "Play"))
    button = button_id(fake, panel.message, "Take 1")
    first, second = await asyncio.gather(fake.click(ADMIN, panel.message, button),
                                         fake.click(ADMIN, panel.message, button))
    await first.response(timeout=10)
    await second.response(timeout=10)
    await h.settle()
    game = await h.table()
    assert len(await h.bot.storage.actions(game.id)) == 1
    assert any("out of date" in callback_text(r) or "not your turn" in callback_text(r) for r in (first, second))

    # The bot restarts; the board posted before the restart still works.
    old_board = latest_board(h)
    await h.restart()
    await take(h, BOB, old_board)
    game = await h.table()
    assert game.version == 2 and game.state["pile"] == 7

    # Typed moves with autocomplete.
    ac = await fake.autocomplete(CID, await h.where(), "game move", {"move": "take"}, focused="move")
    choices = ac.choices if hasattr(ac, "choices") else ac
    assert [c["name"] for c in choices] == ["Take 1", "Take 2"]
    rec = await h.slash(CID, "game move", {"move": choices[1]["value"]})
    assert "Take 2" in callback_text(rec)
    await h.settle()

    # Play to the end.
    order = [ADMIN, BOB, CID]
    turn = 0
    while (await h.bot.tables.get(game.id)).status == "running":
        game = await h.bot.tables.get(game.id)
        user = order[game.state["turn"]]
        await take(h, user, latest_board(h))
        turn += 1
        assert turn < 20
    # The final scores with the whole log in the game's thread, and once more in the channel it came from.
    final = [m for m in fake.public_messages(game.channel_id) if "Final scores" in m.content]
    assert len(final) == 1 and game.channel_id != CHANNEL
    assert [m for m in fake.public_messages(CHANNEL, threads=False) if "Final scores" in m.content]
    assert any(name.endswith("-log.txt") for name, _ in final[0].files)
    log_text = next(data for name, data in final[0].files if name.endswith("-log.txt")).decode()
    assert "takes the last coin" in log_text

    # Stats and leaderboard count the finished game (tests/test_e2e_ratings.py has the ratings).
    rec = await h.slash(ADMIN, "stats")
    assert "Coin Pile: 1 played" in callback_text(rec)
    rec = await h.slash(BOB, "leaderboard", {"game": "dummy"})
    assert rec.callback["type"] == 5  # deferred at once: the chart is drawn afterwards
    assert "ladder" in callback_text(rec) and [n for n, _ in rec.message.files] == ["leaderboard.png"]
    assert "ratings" in rec.message.attachments[0]["description"]

    # The channel is free again; no secret ever reached a public payload.
    assert await h.table() is None
    assert "SECRET" not in fake.public_text()
    assert fake.unhandled == []


async def test_wrong_moves_have_clear_errors(harness):
    h = harness
    rec = await h.slash(BOB, "game join")
    assert "no game in this channel" in callback_text(rec)
    rec = await h.slash(ADMIN, "game new", {"game": "dummy", "options": "pile=99"})
    assert "between 3 and 30" in callback_text(rec)
    rec = await h.slash(ADMIN, "game new", {"game": "dummy", "options": "pile"})
    assert "name=value" in callback_text(rec)
    await open_table(h)
    rec = await h.slash(ADMIN, "game start")
    assert "needs at least 2 players" in callback_text(rec)
    for uid in (BOB, CID, 103):
        await h.slash(uid, "game join")
    rec = await h.slash(104, "game join")
    assert "table is full" in callback_text(rec)
    rec = await h.slash(ADMIN, "game rules", {"game": "dummy"})
    assert "Take 1 or 2" in callback_text(rec)
    rec = await h.slash(BOB, "game end")
    assert "Only the host or a game manager" in callback_text(rec)
    rec = await h.slash(ADMIN, "game end")
    assert rec.callback["data"]["flags"] & 64
    rec = await h.click(ADMIN, rec.message, button_id(h.fake, rec.message, "End the game"))
    assert "ended" in callback_text(rec)
    assert await h.table() is None


async def test_admin_commands(harness):
    h, fake = harness, harness.fake
    rec = await h.slash(BOB, "gameadmin list")
    assert "Only server managers" in callback_text(rec)
    rec = await h.slash(ADMIN, "gameadmin maintenance", {"paused": True})
    assert "paused" in callback_text(rec)
    rec = await h.slash(BOB, "game new", {"game": "dummy"})
    assert "paused on this server for maintenance" in callback_text(rec)
    await h.slash(ADMIN, "gameadmin maintenance", {"paused": False})
    await open_table(h, "pile=20")
    await h.slash(BOB, "game join")
    await h.slash(CID, "game join")
    await h.slash(ADMIN, "game start")
    await h.settle()
    rec = await h.slash(ADMIN, "gameadmin list")
    assert "Coin Pile" in callback_text(rec) and "running" in callback_text(rec)
    rec = await h.slash(ADMIN, "gameadmin remove", {"player": BOB})
    assert "removed" in callback_text(rec)
    await h.settle()
    game = await h.table()
    assert game.seats[1]["bot"] and game.status == "running"
    assert any("a bot plays their seat" in m.content for m in fake.public_messages(CHANNEL))
    # A manager role lets a non-admin manage games.
    fake.add_role(GUILD, 777, "Game Master")
    rec = await h.slash(ADMIN, "gameadmin settings", {"manager_role": 777, "turn_minutes": 5})
    assert "<@&777>" in callback_text(rec) and "5 min" in callback_text(rec)
    # After a restart, a member with that role (and no Manage Server) may end someone else's game.
    await h.restart()
    fake.add_member(GUILD, 106, permissions=None, roles=[777])
    rec = await h.slash(106, "game end")
    assert "End Coin Pile" in callback_text(rec)
    rec = await h.slash(CID, "game end")
    assert "Only the host or a game manager" in callback_text(rec)
    rec = await h.slash(ADMIN, "gameadmin end", {"game_id": game.id})
    assert f"Game #{game.id} ended" in callback_text(rec)
    assert await h.table() is None


async def test_reminder_then_restart_then_deadline(harness):
    h, fake = harness, harness.fake
    await open_table(h, "pile=20, turn_minutes=2")
    await h.slash(BOB, "game join")
    await h.slash(ADMIN, "game start")
    await h.settle()
    h.clock.now += 100  # past 75% of two minutes
    h.bot.wake_timers()
    await fake.wait_for(lambda: any("it's your move" in m.content for m in fake.public_messages(CHANNEL)), timeout=5)
    reminder = next(m for m in fake.public_messages(CHANNEL) if "it's your move" in m.content)
    assert f"<@{ADMIN}>" in reminder.content
    await h.restart()
    h.clock.now += 30
    h.bot.wake_timers()
    await fake.wait_for(lambda: any("Time ran out" in m.content for m in fake.public_messages(CHANNEL)), timeout=5)
    await h.settle()
    game = await h.table()
    assert game.version == 1 and game.state["turn"] == 1
    assert game.seats[0]["missed"] == 1
    rec = await h.slash(ADMIN, "game log")
    assert "Ann takes" in callback_text(rec)


async def test_driver_plays_a_game_with_a_bot_seat(harness):
    from tests.e2e_helpers import open_and_start, play_to_end

    game = await open_and_start(harness, "dummy", [ADMIN, BOB], options="pile=12", bots=1)
    assert [s.get("bot", False) for s in game.seats] == [False, False, True]
    game = await play_to_end(harness)
    assert game.status == "finished"
    log = await harness.bot.storage.actions(game.id)
    assert {e["user_id"] for e in log} == {ADMIN, BOB, None}



async def test_dms_cost_no_extra_requests(harness):
    """Keeping hands up to date by DM: each player's DM channel is opened once (discord.py keeps it), and no
    user is fetched before each DM (that was one REST call per DM per move)."""
    import random

    from tests.e2e_helpers import open_and_start, press

    h, fake = harness, harness.fake
    game = await open_and_start(h, "sleeping", [ADMIN, BOB])
    engine, rng = h.bot.tables.engine(game), random.Random(3)
    for _ in range(6):
        seat = engine.to_act(game.state)[0]
        action = engine.bot_action(game.state, seat, rng)
        rec = await press(h, game.seats[seat]["user_id"], engine.legal_actions(game.state, seat).index(action), game)
        assert "✅" in callback_text(rec), callback_text(rec)
        await h.settle(dms=True)
        game = await h.bot.tables.get(game.id)
    dms = {fake.dm_channel_id(uid) for uid in (ADMIN, BOB)}
    dm_requests = [r for r in fake.requests if r["path"].split("/")[:2] in (["channels", str(c)] for c in dms)]
    assert sum(r["method"] == "PATCH" for r in dm_requests) >= 2, "hands were edited in place as the game went on"
    assert [r["path"] for r in fake.requests if r["method"] == "GET" and r["path"].startswith("users/")
            and r["path"] != "users/@me"] == []
    opened = [int(r["json"]["recipient_id"]) for r in fake.requests
              if r["method"] == "POST" and r["path"] == "users/@me/channels"]
    assert sorted(opened) == [ADMIN, BOB]


async def test_a_moves_board_is_drawn_before_its_dm_pictures(harness, monkeypatch):
    """The whole table waits for the board; a DMed hand nobody watches for. With the drawing worker free, the
    board's picture is asked for first (the DMs' pictures had been, as the DMs started before the board's task)."""
    import random

    from tests.e2e_helpers import open_and_start, press, record_pictures

    recorded = record_pictures(monkeypatch)
    h = harness
    game = await open_and_start(h, "heist", [ADMIN, BOB, CID])
    engine, rng = h.bot.tables.engine(game), random.Random(5)
    both = 0
    for _ in range(8):
        recorded.clear()
        seat = engine.to_act(game.state)[0]
        action = engine.bot_action(game.state, seat, rng)
        rec = await press(h, game.seats[seat]["user_id"], engine.legal_actions(game.state, seat).index(action), game)
        assert "✅" in callback_text(rec), callback_text(rec)
        await h.settle(dms=True)
        game = await h.bot.tables.get(game.id)
        asked = [kind for kind, _ in recorded]
        if "private" in asked and "board" in asked:
            both += 1
            assert asked[0] == "board", asked
    assert both >= 2
