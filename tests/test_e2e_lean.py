"""The bot's work and REST requests per move, through the fake Discord: what a player sees stays the same while
the bot asks Discord (and its engines) for less (issue 16: the bot process's CPU per move)."""
from __future__ import annotations

from bot.games import get_engine
from tests.conftest import ADMIN
from tests.e2e_helpers import callback_text, open_and_start, press

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
    await h.settle()
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
