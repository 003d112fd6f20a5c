"""Don't knock on closed doors: requests Discord will keep refusing are made once,
remembered (DMs across games and restarts), and the people concerned are told in
words. Everything goes through the fake Discord, which answers as Discord does
(403 50007 for closed DMs, 404 10003 for a deleted channel, 403 50013 for a
missing permission)."""
from __future__ import annotations

import asyncio
import logging

from cogs.refusals import DM_BACKOFF
from tests.conftest import ADMIN, CHANNEL, GUILD
from tests.e2e_helpers import callback_text, latest_board, open_and_start, play_boards, play_to_end, press
from tests.fakediscord.records import MANAGE_THREADS

BOB, CID = 101, 102


def refused_dms(fake, user: int) -> int:
    return sum(1 for uid, _ in fake.blocked_dms if uid == user)


def dm_notes(fake) -> list:
    return [m for m in fake.public_messages(CHANNEL) if "couldn't DM you" in m.content]


async def test_a_closed_dm_player_is_tried_once_per_back_off(harness):
    h, fake = harness, harness.fake
    fake.set_dms_closed(CID)
    await open_and_start(h, "dummy", [ADMIN, BOB, CID], options="pile=30")
    await play_to_end(h)
    # Cid played the whole game through "Show my hand"; the bot knocked once.
    assert refused_dms(fake, CID) == 1
    notes = dm_notes(fake)
    assert len(notes) == 1 and f"<@{CID}>" in notes[0].content and "Try DMs again" in notes[0].content
    assert fake.find_component(notes[0], label="Try DMs again")
    assert any(len(fake.dms(uid)) for uid in (ADMIN, BOB))  # open DMs still work

    # The next game (after a restart: the refusal is stored): no DM attempt, one note telling how to get them back.
    await h.restart()
    await open_and_start(h, "dummy", [ADMIN, BOB, CID], options="pile=12")
    await play_to_end(h)
    assert refused_dms(fake, CID) == 1
    assert len(dm_notes(fake)) == 2

    # A day later the back-off is over: one more knock, then quiet again.
    h.clock.now += DM_BACKOFF + 1
    await open_and_start(h, "dummy", [ADMIN, BOB, CID], options="pile=12")
    await play_to_end(h)
    assert refused_dms(fake, CID) == 2


async def test_try_dms_again_button_and_game_hand(harness):
    h, fake = harness, harness.fake
    fake.set_dms_closed(CID)
    game = await open_and_start(h, "dummy", [ADMIN, BOB, CID], options="pile=30")
    assert refused_dms(fake, CID) == 1
    note = dm_notes(fake)[0]
    button = fake.find_component(note, label="Try DMs again")["custom_id"]
    # Still closed: one more knock, and the reply says what to do.
    rec = await h.click(CID, note, button)
    await rec.wait_done(timeout=10)
    assert "still closed" in callback_text(rec) and rec.message.ephemeral
    assert refused_dms(fake, CID) == 2
    # Moves go on without knocking.
    await press(h, ADMIN, 0, game)
    await h.settle()
    assert refused_dms(fake, CID) == 2
    # Cid opens his DMs and presses the button: his hand arrives.
    fake.set_dms_closed(CID, False)
    rec = await h.click(CID, note, button)
    await rec.wait_done(timeout=10)
    assert "check your DMs" in callback_text(rec)
    assert any("SECRET" in m.content for m in fake.dms(CID))
    # Closed again, and Cid deleted his hand's message (else the bot keeps editing it, which needs no new DM):
    # one refusal, then `/game hand` (asking for the hand) earns one more try.
    fake.set_dms_closed(CID)
    for message in fake.dms(CID):
        await fake.delete_message(message.id)
    game = await h.bot.tables.get(game.id)
    while CID not in [game.seats[s]["user_id"] for s in h.bot.tables.engine(game).to_act(game.state)]:
        seat = game.state["turn"]
        await press(h, game.seats[seat]["user_id"], 0, game)
        await h.settle()
        game = await h.bot.tables.get(game.id)
    refused = refused_dms(fake, CID)
    assert refused in (2, 3)
    rec = await h.slash(CID, "game hand")
    assert "SECRET" in callback_text(rec)
    await press(h, CID, 0, game)
    await h.settle(dms=True)
    game = await h.bot.tables.get(game.id)
    for _ in range(4):
        seat = game.state["turn"]
        await press(h, game.seats[seat]["user_id"], 0, game)
        await h.settle(dms=True)
        game = await h.bot.tables.get(game.id)
    assert refused_dms(fake, CID) == refused + 1  # /game hand earned exactly one more try


async def test_a_deleted_channel_ends_its_table_without_further_requests(harness):
    h, fake = harness, harness.fake
    game = await open_and_start(h, "dummy", [ADMIN, BOB], options="pile=30, turn_minutes=2")
    where = game.channel_id  # the table's thread
    # The channel is deleted while the bot is away (it never hears of it): the next thing it
    # posts there (the turn reminder) is refused once, and that is the last request to it.
    await fake.delete_channel(where, dispatch=False)
    before = len(fake.requests_to_channel(where))
    h.clock.now += 100
    h.bot.wake_timers()
    await fake.wait_for(lambda: len(fake.requests_to_channel(where)) > before, timeout=5)
    await h.settle()
    game = await h.bot.tables.get(game.id)
    assert game.status == "ended" and "deleted" in game.ended_reason
    assert any("has ended: its thread was deleted" in m.content for m in fake.dms(ADMIN))
    h.clock.now += 1000
    h.bot.wake_timers()
    await h.settle()
    assert len(fake.requests_to_channel(where)) == before + 1
    assert await h.bot.tables.in_channel(where) is None


async def test_a_channel_deleted_while_the_bot_watches(harness):
    h, fake = harness, harness.fake
    game = await open_and_start(h, "dummy", [ADMIN, BOB], options="pile=30")
    where = game.channel_id  # the table's thread
    before = len(fake.requests_to_channel(where))
    await fake.delete_channel(where)
    await fake.wait_for(lambda: any("its thread was deleted" in m.content for m in fake.dms(ADMIN)), timeout=5)
    await h.settle()
    assert (await h.bot.tables.get(game.id)).status == "ended"
    assert len(fake.requests_to_channel(where)) == before


async def test_missing_permissions_pause_the_channel_and_tell_the_host_once(harness):
    h, fake = harness, harness.fake
    game = await open_and_start(h, "dummy", [ADMIN, BOB], options="pile=30")
    where = game.channel_id  # the table's thread
    board = latest_board(h)
    fake.deny_bot(where)
    before = len(fake.requests_to_channel(where))
    for _ in range(3):  # moves still work (interaction replies need no channel permission)
        seat = game.state["turn"]
        rec = await press(h, game.seats[seat]["user_id"], 0, game)
        assert "✅" in callback_text(rec)
        await h.settle()
        game = await h.bot.tables.get(game.id)
    assert len(fake.requests_to_channel(where)) == before + 1  # one refused board, then nothing
    told = [m for m in fake.dms(ADMIN) if "missing permissions" in m.content]
    assert len(told) == 1 and f"<#{where}>" in told[0].content
    # The players are told too, on their private move panel.
    panel = await h.click(game.seats[game.state["turn"]]["user_id"], board,
                          fake.find_component(board, label="Play")["custom_id"])
    assert "won't let me post in this channel" in callback_text(panel)
    # An admin fixes the permissions: boards come back with the next move.
    await fake.allow_bot(where)
    await fake.settle()
    seat = game.state["turn"]
    await press(h, game.seats[seat]["user_id"], 0, game)
    await h.settle()
    assert latest_board(h) is not board


async def test_refusals_are_counted_logged_and_shown_to_admins(harness, caplog):
    h, fake = harness, harness.fake
    fake.set_dms_closed(CID)
    await open_and_start(h, "dummy", [ADMIN, BOB, CID], options="pile=30")
    rec = await h.slash(ADMIN, "gameadmin status")
    text = callback_text(rec)
    assert "403 50007 Cannot send messages to this user: 1" in text and rec.message.ephemeral
    assert "Invalid requests (401/403/429) in the last 10 minutes: **1** of 10,000" in text
    assert "DMs paused for 1 player" in text
    with caplog.at_level(logging.INFO, logger="heistcord.refusals"):
        assert h.bot.refusals.log_summary()
        assert not h.bot.refusals.log_summary()  # nothing new: nothing logged
    assert any("50007 Cannot send messages to this user: 1" in r.getMessage() for r in caplog.records)
    rec = await h.slash(BOB, "gameadmin status")
    assert "Only server managers" in callback_text(rec)


async def test_a_deleted_lobby_message_is_not_edited_again(harness):
    h, fake = harness, harness.fake
    rec = await h.slash(ADMIN, "game new", {"game": "dummy"})
    lobby = rec.message
    await h.settle()
    await fake.delete_message(lobby.id)
    for uid in (BOB, CID):
        await h.slash(uid, "game join")
    await h.settle()
    edits = [r for r in fake.requests_to_channel(CHANNEL) if r["method"] == "PATCH"]
    assert len(edits) == 1  # refused once (10008), then forgotten
    assert len([m for m in fake.public_messages(CHANNEL) if "lobby of table" in m.content]) == 1
    rec = await h.slash(ADMIN, "game status")
    assert "Coin Pile" in rec.message.embed_texts
    await h.settle()  # the reposted lobby's id stored
    await h.slash(103, "game join")
    await h.settle()
    assert f"<@{103}>" in rec.message.embed_texts  # the new lobby is kept up to date



async def test_a_deleted_lobby_message_is_refused_once_while_the_database_is_slow(harness, monkeypatch):
    """The next player joins while the first refusal is still being stored (a busy database):
    the lobby refreshes of one table don't overlap, so the deleted message is refused once."""
    h, fake = harness, harness.fake
    rec = await h.slash(ADMIN, "game new", {"game": "dummy"})
    await h.settle()
    await fake.delete_message(rec.message.id)
    real = h.bot.tables.set_message

    async def slow_set_message(*args, **kwargs):
        await asyncio.sleep(0.5)
        return await real(*args, **kwargs)

    monkeypatch.setattr(h.bot.tables, "set_message", slow_set_message)
    for uid in (BOB, CID, 103):
        await h.slash(uid, "game join")
    await h.settle()
    edits = [r for r in fake.requests_to_channel(CHANNEL) if r["method"] == "PATCH"]
    assert len(edits) == 1  # refused once (10008), then forgotten
    assert len([m for m in fake.public_messages(CHANNEL) if "lobby of table" in m.content]) == 1


async def test_a_locked_thread_is_left_alone_the_host_told_once_and_a_fresh_board_posted_when_unlocked(harness):
    h, fake = harness, harness.fake
    game = await open_and_start(h, "dummy", [ADMIN, BOB], options="pile=30")
    where = game.channel_id  # the table's thread
    fake.guilds[GUILD].bot_permissions &= ~MANAGE_THREADS  # as invited (docs/admin.md): it may not post in a locked thread
    stale = latest_board(h)
    await fake.lock_thread(where)
    await fake.settle()
    before = len(fake.requests_to_channel(where))
    for _ in range(3):  # moves still work (interaction replies need no permission in the thread)
        seat = game.state["turn"]
        rec = await press(h, game.seats[seat]["user_id"], 0, game)
        assert "✅" in callback_text(rec)
        await h.settle()
        game = await h.bot.tables.get(game.id)
    refused = [r for r in fake.requests_to_channel(where)[before:]]
    assert len(refused) == 1, refused  # one board refused (403, 160005), then nothing more asked of the thread
    told = [m for m in fake.dms(ADMIN) if "locked" in m.content]
    assert len(told) == 1 and f"<#{where}>" in told[0].content, [m.content for m in fake.dms(ADMIN)]
    # A moderator unlocks it: a fresh board at once, naming the player whose turn it is.
    await fake.lock_thread(where, locked=False)
    await fake.wait_for(lambda: len(fake.requests_to_channel(where)) > before + 1, timeout=5)
    await h.settle()
    boards = play_boards(fake, CHANNEL)
    up = game.seats[game.state["turn"]]["user_id"]
    assert len(boards) == 1 and boards[0].id != stale.id  # the stale board retired
    assert f"Waiting for: <@{up}>" in boards[0].content, boards[0].content
