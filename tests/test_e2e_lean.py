"""The bot's work and REST requests per move, through the fake Discord: what a player sees stays the same while
the bot asks Discord (and its engines) for less (issue 16: the bot process's CPU per move)."""
from __future__ import annotations

import asyncio

from bot.games import get_engine
from tests.conftest import ADMIN
from tests.e2e_helpers import callback_text, latest_board, open_and_start, press

PLAYERS = [ADMIN, 101, 102]


def dm_channels_opened(fake) -> int:
    return sum(1 for r in fake.requests if r["method"] == "POST" and r["path"].rstrip("/") == "users/@me/channels")


async def test_a_players_dm_channel_is_opened_once_however_many_players(harness):
    # discord.py keeps only the last 128 DM channels it opened: with more players than that, each DM to an
    # older one opened the channel again (one more request per DM under load, with 450 players).
    h = harness
    users = list(range(30_000, 30_130))
    for uid in users:
        h.fake.add_user(uid, f"player{uid}")
    for uid in [*users, users[0], users[1]]:
        assert await h.bot.ui.tell(uid, f"Hello {uid}")
    assert dm_channels_opened(h.fake) == len(users)
    # each player still has one DM channel, holding every message sent to them
    assert [m.content for m in h.fake.dms(users[0])] == [f"Hello {users[0]}"] * 2
    assert [m.content for m in h.fake.dms(users[2])] == [f"Hello {users[2]}"]


async def test_a_moves_views_are_computed_once_and_its_dms_show_them(harness, monkeypatch):
    # The change detection computes every seat's private view of the new state; the DMs of the seats whose view
    # changed, and the board, used to compute theirs again.
    h = harness
    game = await open_and_start(h, "tower", PLAYERS)
    engine = get_engine("tower")
    real = engine.view
    calls: list[int | None] = []

    def counting(state, seat):
        calls.append(seat)
        return real(state, seat)

    monkeypatch.setattr(engine, "view", counting)
    dms_before = {uid: len(h.fake.dms(uid, include_deleted=True)) for uid in PLAYERS}
    edits_before = {uid: sum(len(m.history) for m in h.fake.dms(uid)) for uid in PLAYERS}
    seat = engine.to_act(game.state)[0]
    rec = await press(h, game.seats[seat]["user_id"], 0, game)
    assert "✅" in callback_text(rec)
    await h.settle(dms=True)
    game = await h.bot.tables.get(game.id)
    changed = [uid for uid in PLAYERS if len(h.fake.dms(uid, include_deleted=True)) > dms_before[uid]
               or sum(len(m.history) for m in h.fake.dms(uid)) > edits_before[uid]]
    assert changed, "the move should change someone's private view (else this test shows nothing)"
    # each seat's view once (the change detection), the public view once (the board)
    assert sorted(calls, key=lambda s: -1 if s is None else s) == [None, *range(len(PLAYERS))], calls
    # and each DM shows the player's private view of the state now
    for uid in changed:
        seat = next(i for i, s in enumerate(game.seats) if s["user_id"] == uid)
        text = engine.private_text(real(game.state, seat))
        assert text in h.fake.dms(uid)[-1].content


async def test_a_players_dm_shows_their_latest_hand_when_an_older_one_was_slow_to_draw(harness, monkeypatch):
    # Two moves change Bob's secret word; the picture of the first DM is slow to draw (a busy drawing worker).
    # Each move's DM was sent on its own: the older one, sent last, became Bob's latest DM. A player's DMs now
    # go one at a time, and the one after shows the latest hand with every note since.
    import cogs.dms
    from cogs.boards import TableUI

    h = harness
    users = [ADMIN, 101]
    game = await open_and_start(h, "dummy", users, options="pile=20")
    engine = get_engine("dummy")
    bob = 1 if game.seats[1]["user_id"] == 101 else 0
    assert engine.to_act(game.state) == [1 - bob], "Ann moves first in this test"
    real_render, real_deliver = cogs.dms.render_file, TableUI.deliver_private
    release = asyncio.Event()
    renders: list[int] = []
    delivered: list[int] = []

    async def slow_first(*args, **kwargs):
        renders.append(1)
        if len(renders) == 1:
            await release.wait()
        return await real_render(*args, **kwargs)

    async def deliver(self, *args, **kwargs):
        delivered.append(1)
        third = len(delivered) == 3
        await real_deliver(self, *args, **kwargs)
        if third:  # the third move's DMs are out (or folded into the ones being sent)
            release.set()

    monkeypatch.setattr(cogs.dms, "render_file", slow_first)
    monkeypatch.setattr(TableUI, "deliver_private", deliver)
    for _ in range(3):  # Ann, Bob, Ann: the first and the third change Bob's word
        game = await h.bot.tables.get(game.id)
        seat = engine.to_act(game.state)[0]
        rec = await press(h, game.seats[seat]["user_id"], 0, game)
        assert "✅" in callback_text(rec)
    await h.settle()
    game = await h.bot.tables.get(game.id)
    word = engine.view(game.state, bob)["private"]["word"]
    latest = h.fake.dms(101)[-1].content
    assert f"Your secret word: **{word}**" in latest, latest
    # and both notes (the first and the third move gave Bob a new word) are on his hand's one message
    assert latest.count("• Your word is now") == 2 and len(h.fake.dms(101)) == 1


async def test_discord_pys_rate_limit_buckets_are_swept_now_and_then_not_at_every_new_one(harness, monkeypatch):
    # discord.py walked every bucket (one per route and channel: thousands under load) each time it made a new one.
    import discord.http

    http = harness.bot.http
    walked: list[int] = []
    real = discord.http.Ratelimit.is_inactive

    def counting(self):
        walked.append(1)
        return real(self)

    monkeypatch.setattr(discord.http.Ratelimit, "is_inactive", counting)
    for i in range(1000):
        http.get_ratelimit(f"POST /channels/{{channel_id}}/messages:{i}")
    assert len(walked) <= 1000, len(walked)  # at most one walk (before: 471,870 steps, a walk at each new bucket past 256)


async def test_idle_rate_limit_buckets_are_still_forgotten():
    import discord.http

    from bot.app import sweep_ratelimits_lazily

    now = [0.0]
    http = discord.http.HTTPClient(asyncio.get_running_loop())
    sweep_ratelimits_lazily(http, every=60, clock=lambda: now[0])
    for i in range(300):
        http.get_ratelimit(f"k{i}")
    for bucket in http._buckets.values():
        bucket._last_request -= 400  # idle for over 5 minutes
    http.get_ratelimit("new")
    assert len(http._buckets) == 301  # swept at the 256th bucket a moment ago: not yet again
    now[0] += 61
    http.get_ratelimit("newer")
    assert set(http._buckets) == {"new", "newer"}
    await http.close()


async def test_the_bots_messages_leave_no_views_in_discord_pys_store(harness):
    # Every click comes to the one router. discord.py also kept each view the bot sent (panels,
    # boards, lobbies), to dispatch clicks to its buttons (which do nothing): the boards' and lobbies' for ever
    # (no timeout), and each panel with a 15-minute timer task, one more task at each click on it.
    h = harness
    engine = get_engine("dummy")
    game = await open_and_start(h, "dummy", [ADMIN, 101])
    for _ in range(4):
        game = await h.bot.tables.get(game.id)
        rec = await press(h, game.seats[engine.to_act(game.state)[0]]["user_id"], 0, game)
        assert "✅" in callback_text(rec)
        await h.settle()
    store = h.bot._connection._view_store
    assert not store._synced_message_views and not store._views, (store._synced_message_views, store._views)
    assert [t for t in asyncio.all_tasks() if "timeout_task_impl" in repr(t.get_coro())] == []
    assert not store._dynamic_items  # (clicks come to the router from the interaction event)


async def test_a_boards_buttons_are_built_once_per_game_and_stay_the_same(harness):
    from cogs.embeds import _new_board_view, board_view

    h = harness
    game = await open_and_start(h, "dummy", [ADMIN, 101])
    assert board_view(game) is board_view(game)
    posted = [m for m in h.fake.public_messages(game.channel_id) if m.components][-1]
    assert posted.components == _new_board_view(game.id, "dummy").to_components()  # a first-round board
    assert "hc:play:" in str(posted.components)


async def test_a_click_is_routed_without_rebuilding_the_clicked_messages_view(harness, monkeypatch):
    # A DynamicItem made discord.py rebuild the clicked message's whole view (every button, every option of a
    # panel's selects) before the router saw the click.
    import discord

    h = harness
    engine = get_engine("dummy")
    game = await open_and_start(h, "dummy", [ADMIN, 101])
    rebuilt: list[int] = []
    real = discord.ui.View.from_message.__func__

    def counting(cls, *args, **kwargs):
        rebuilt.append(1)
        return real(cls, *args, **kwargs)

    monkeypatch.setattr(discord.ui.View, "from_message", classmethod(counting))
    rec = await press(h, game.seats[engine.to_act(game.state)[0]]["user_id"], 0, game)
    assert "✅" in callback_text(rec)
    hand = await h.click(ADMIN, latest_board(h), h.fake.find_component(latest_board(h), label="Show my hand")["custom_id"])
    assert "Your secret word" in callback_text(hand)
    await h.settle()
    assert rebuilt == []


async def test_a_click_on_a_damaged_heistcord_id_or_one_not_ours_is_answered(harness):
    import discord

    from cogs import customid
    from cogs.embeds import new_view
    from tests.conftest import CHANNEL

    h = harness
    view = new_view()
    view.add_item(discord.ui.Button(label="Old", custom_id="hc:zap:12"))
    view.add_item(discord.ui.Button(label="Not ours", custom_id="other:play:1"))
    message = await h.bot.get_channel(CHANNEL).send("A message an older version posted", view=view)
    recorded = h.fake.messages[message.id]
    old = await h.click(101, recorded, "hc:zap:12")
    assert customid.DAMAGED in callback_text(old)
    other = await h.click(101, recorded, "other:play:1")
    # Not ours (the bot's every button is "hc:"): answered all the same, or Discord says the interaction failed.
    assert customid.DAMAGED in callback_text(other) and other.callback["data"]["flags"] & 64
