"""Inside Discord's rate limits, through the real discord.py client and the throttling fake Discord
(``tests/fakediscord/ratelimits.py``): many tables moving at once, many tables opening at once, and what
the bot does when Discord says "slow down" anyway. Any 429 the fake answers fails a test (the fixture),
unless the test provokes it."""
from __future__ import annotations

import asyncio

from tests.conftest import ADMIN, CHANNEL, GUILD, MEMBER_PERMS
from tests.e2e_helpers import button_id, callback_text

CHANNELS = list(range(6100, 6112))
PLAYERS = list(range(400, 448))  # 48 more members


def add_world(fake, channels=CHANNELS, players=PLAYERS):
    for cid in channels:
        fake.add_channel(GUILD, cid, f"tables-{cid}")
    for uid in players:
        fake.add_user(uid, f"player{uid}")
        fake.add_member(GUILD, uid, permissions=MEMBER_PERMS)


async def open_table(h, channel: int, players: list[int], options: str = "pile=30", start: bool = True):
    """A Coin Pile lobby in ``channel`` with ``players`` seated; started unless ``start`` is False."""
    rec = await h.slash(players[0], "game new", {"game": "dummy", "options": options}, channel=channel)
    assert rec.callback["type"] == 4, callback_text(rec)
    lobby = rec.message
    for uid in players[1:]:
        await h.click(uid, lobby, button_id(h.fake, lobby, "Join"))
    if start:
        await h.click(players[0], lobby, button_id(h.fake, lobby, "Start"))
    return lobby


async def typed_move(h, game_id: int, moves: int) -> None:
    """The players of one table type ``/game move`` as fast as Discord answers them, ``moves`` times."""
    for _ in range(moves):
        game = await h.bot.tables.get(game_id)
        if game.status != "running":
            return
        user = game.seats[game.state["turn"]]["user_id"]
        rec = await h.fake.slash(user, game.channel_id, "game move", {"move": "Take 1"})
        await rec.wait_done(timeout=10)
        assert "✅" in callback_text(rec), callback_text(rec)


async def test_four_tables_in_one_channel_moving_quickly_draw_no_429(harness, monkeypatch):
    h, fake = harness, harness.fake
    add_world(fake)
    games = []
    for n in range(4):  # four tables opened in one channel, each playing in its own thread
        await open_table(h, CHANNEL, PLAYERS[4 * n:4 * n + 4])
        await h.settle()
        games.append((await h.bot.tables.in_channel(fake.threads(CHANNEL)[-1].id)).id)
    await asyncio.gather(*(typed_move(h, game_id, 24) for game_id in games))
    await h.settle()
    for game_id in games:  # every move reached its table's board
        game = await h.bot.tables.get(game_id)
        board = fake.get_message(game.board_message_id)
        assert f"pile {game.state['pile']})" in board.content, board.content
    assert not fake.rate_limited


async def test_many_tables_opening_at_once_draw_no_429_and_every_hand_arrives(harness):
    h, fake = harness, harness.fake
    add_world(fake)
    lobbies = [await open_table(h, cid, PLAYERS[4 * n:4 * n + 4], start=False) for n, cid in enumerate(CHANNELS)]
    starts = [fake.click(PLAYERS[4 * n], lobby, button_id(fake, lobby, "Start")) for n, lobby in enumerate(lobbies)]
    for rec in await asyncio.gather(*starts):
        await rec.wait_done(timeout=10)
    await h.settle()
    for uid in PLAYERS:  # every player's hand reached them, and no one was told their DMs are closed
        assert any("secret word" in m.content for m in fake.dms(uid)), uid
    assert not any("DMs are closed" in m.content for m in fake.public_messages(CHANNEL))
    for cid in CHANNELS:
        assert not any("DMs are closed" in m.content for m in fake.public_messages(cid))
    assert not fake.rate_limited


async def test_a_dm_that_discord_keeps_refusing_with_429_is_sent_later_and_dms_stay_open(harness):
    h, fake = harness, harness.fake
    add_world(fake, channels=[], players=[])
    fake.expect_rate_limits = True
    # Discord says "slow down" to DMs more times than discord.py retries (5): the DM must wait and go out later,
    # and nobody is told their DMs are closed (only 50007 means that).
    dm = fake.dm_channel_id(101)
    fake.throttle.force("POST", rf"channels/{dm}/messages", 6, scope="global", retry_after=0.01)
    await open_table(h, CHANNEL, [ADMIN, 101])
    await h.settle()
    await fake.wait_for(lambda: any("secret word" in m.content for m in fake.dms(101)), timeout=10)
    assert not any("DMs are closed" in m.content for m in fake.public_messages(CHANNEL))
    assert h.bot.refusals.dm_allowed(101)
    game = await h.table()
    assert not game.seats[1].get("dm_closed")


async def test_a_moves_board_rides_its_interaction_and_only_dms_count_against_the_global_limit(harness):
    h, fake = harness, harness.fake
    await open_table(h, CHANNEL, [ADMIN, 101, 102], options="pile=14, streak=2")
    await h.settle(dms=True)
    game = await h.table()
    thread, start_board = game.channel_id, game.board_message_id
    first = len(fake.requests)
    while (game := await h.bot.tables.get(game.id)).status == "running":
        user = game.seats[game.state["turn"]]["user_id"]
        rec = await fake.slash(user, thread, "game move", {"move": "Take 1"})
        await rec.wait_done(timeout=10)
        await h.settle()
    await h.settle(dms=True)
    during = fake.requests[first:]
    # New boards are follow-ups of the moves' interactions, the living board is edited through the token that
    # posted it, old boards lose their buttons the same way: nothing in the thread counted against the limit but
    # the edits of the first board, which the start posted (its Start click was in the channel, not the thread).
    in_thread = [r for r in during if r["path"].startswith(f"channels/{thread}")]
    assert {(r["method"], r["path"]) for r in in_thread} <= {("PATCH", f"channels/{thread}/messages/{start_board}")}
    assert any(r["method"] == "POST" and r["path"].startswith("webhooks/") for r in during)
    assert any(r["method"] == "PATCH" and r["path"].startswith("webhooks/") for r in during)
    counted = {(r["method"], r["path"].split("/")[0]) for r in during if r["global"]}
    dm_channels = {str(c) for c in fake.dm_channels.values()}
    for r in during:
        if r["global"] and r not in in_thread:  # what else counted: DMs, the final scores in the table's channel
            assert r["path"].split("/")[1] in dm_channels | {str(CHANNEL)} or r["path"] == "users/@me/channels", \
                (r["method"], r["path"], counted)
    boards = [m for m in fake.public_messages(thread) if m.content.startswith("**Coin Pile**")]
    assert len(boards) > 3 and all(m.kind == "followup" for m in boards if m.id != start_board)
    assert sum(1 for m in boards if fake.find_components(m, type=2)) == 0  # the game is over: no buttons left


async def test_a_players_own_move_shows_in_its_reply_and_their_dm_catches_up_later(harness):
    from tests.e2e_helpers import press

    h, fake = harness, harness.fake
    game = await open_and_start_tower(h)
    engine = h.bot.tables.engine(game)
    await h.settle(dms=True)
    seat = engine.to_act(game.state)[0]
    user = game.seats[seat]["user_id"]
    hand = fake.dms(user)[-1]
    edits = len(hand.history)
    rec = await press(h, user, 0, game)
    await h.settle()
    game = await h.bot.tables.get(game.id)
    mine = engine.private_text(h.bot.tables.view(game, seat))
    assert mine in callback_text(rec), "the reply shows the player's hand as their move left it"
    assert len(hand.history) == edits, "their DM waits: the reply told them already"
    await h.settle(dms=True)  # (a real table: within two minutes)
    assert len(hand.history) == edits + 1 and mine in hand.content


async def open_and_start_tower(h):
    from tests.e2e_helpers import open_and_start

    return await open_and_start(h, "tower", [ADMIN, 101, 102])


async def test_try_dms_again_can_be_pressed_three_times_a_minute(harness):
    h, fake = harness, harness.fake
    fake.set_dms_closed(102)
    await open_table(h, CHANNEL, [ADMIN, 102])
    await h.settle(dms=True)
    note = next(m for m in fake.public_messages(CHANNEL) if "couldn't DM you" in m.content)
    button = button_id(fake, note, "Try DMs again")
    for _ in range(3):
        rec = await h.click(102, note, button)
        assert "still closed" in callback_text(rec)
    again = await h.click(102, note, button)
    assert "please wait" in callback_text(again) and again.message.ephemeral
    assert sum(1 for uid, _ in fake.blocked_dms if uid == 102) == 4  # the game's first DM and three retries


async def test_operators_see_the_budget_in_gameadmin_status_and_on_the_metrics_endpoint(harness):
    import aiohttp

    h, fake = harness, harness.fake
    await open_table(h, CHANNEL, [ADMIN, 101])
    await h.settle(dms=True)
    game = await h.table()
    rec = await fake.slash(game.seats[game.state["turn"]]["user_id"], game.channel_id, "game move", {"move": "Take 1"})
    await rec.wait_done(timeout=10)
    await h.settle()
    status = callback_text(await h.slash(ADMIN, "gameadmin status", channel=CHANNEL))
    assert "Discord's global limit: 40 requests a second" in status and "in use over the last 10 s" in status
    assert "Told to slow down (429) since start: none" in status and "Waiting for the budget" in status
    h.bot.metrics.serve(0, addr="127.0.0.1")
    try:
        async with aiohttp.ClientSession() as session:
            async with session.get(f"http://127.0.0.1:{h.bot.metrics.port}/metrics") as response:
                text = await response.text()
    finally:
        h.bot.metrics.close()
    assert 'heistcord_requests_total{kind="global"}' in text and 'heistcord_requests_total{kind="interaction"}' in text
    assert "heistcord_moves_total 1.0" in text  # and two boards: the Start click's, the move's
    assert "heistcord_click_to_board_seconds_count 2.0" in text
    assert 'heistcord_rate_limited_total{scope="global"} 0.0' in text and "heistcord_budget_in_use_ratio" in text


async def test_slash_commands_are_synced_only_when_they_changed(harness):
    from discord import app_commands

    h, fake = harness, harness.fake

    def syncs() -> int:
        return sum(1 for r in fake.requests if r["method"] == "PUT" and r["path"].endswith("/commands"))

    assert syncs() == 1  # the first start
    await h.restart()
    assert syncs() == 1, "the same commands: not synced again (a rate-limited route)"
    assert await h.bot.sync_commands(force=True)  # what `heistcord sync` does
    assert syncs() == 2

    @app_commands.command(name="ping", description="A command that wasn't there")
    async def ping(interaction) -> None:
        await interaction.response.send_message("pong")

    h.bot.tree.add_command(ping)
    assert await h.bot.sync_commands()  # a changed set is synced (once)
    assert not await h.bot.sync_commands()
    assert syncs() == 3 and "ping" in {c["name"] for c in fake.guild_commands[GUILD]}


async def test_one_user_joining_and_leaving_again_and_again_is_slowed_down(harness):
    h = harness
    await h.slash(ADMIN, "game new", {"game": "dummy"}, channel=CHANNEL)
    answers = []
    for n in range(7):  # each /game join or leave edits the lobby: a request against the global limit
        rec = await h.slash(101, "game join" if n % 2 == 0 else "game leave", channel=CHANNEL)
        answers.append(callback_text(rec))
    assert all("please wait" not in a for a in answers[:6]) and "please wait" in answers[6]
    rec = await h.slash(102, "game join", channel=CHANNEL)  # someone else is not held back
    assert "You joined" in callback_text(rec)


async def test_thirty_tables_opened_at_once_all_get_their_lobby(harness):
    """30 people type ``/game new`` in 30 channels at the same moment (the benchmark's bot got "database is
    locked" from 10 such at once, and told the players the database wasn't answering)."""
    fake = harness.fake
    channels = list(range(6200, 6230))
    add_world(fake, channels, PLAYERS[:30])
    recs = await asyncio.gather(*(fake.slash(uid, cid, "game new", {"game": "dummy"})
                                  for uid, cid in zip(PLAYERS[:30], channels)))
    for rec in recs:
        await rec.wait_done(timeout=20)
    texts = [callback_text(rec) for rec in recs]
    assert not [t for t in texts if "database" in t or "couldn't" in t], texts
    for rec, cid in zip(recs, channels):
        assert rec.message is not None and button_id(fake, rec.message, "Join"), (cid, callback_text(rec))
    assert not fake.rate_limited
