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
