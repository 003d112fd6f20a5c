"""Hardening items 8, 9 and 11: /game replay errors stay private and the server
check comes first; strange typed moves, button ids and select values get a clear
private error (no traceback); only Manage Server changes server settings."""
from __future__ import annotations

import copy

import pytest

from cogs import customid
from cogs.router import OWN_SEAT_KINDS
from tests.conftest import ADMIN, CHANNEL, GUILD, MEMBER_PERMS
from tests.e2e_helpers import callback_text

BOB, CID = 101, 102
OTHER_GUILD, OTHER_GUILD_CHANNEL = 6000, 6001


def is_private(rec) -> bool:
    return bool((rec.callback["data"] or {}).get("flags", 0) & 64) and (rec.message is None or rec.message.ephemeral)


async def running_game(h):
    await h.slash(ADMIN, "game new", {"game": "dummy", "options": "pile=20"})
    await h.slash(BOB, "game join")
    await h.slash(ADMIN, "game start")
    await h.settle()
    return await h.table()


# --- item 9 ---------------------------------------------------------------------------------
@pytest.mark.parametrize("move", ["²:0", "0:²", "1" * 5000 + ":0", "0:" + "9" * 5000, "٣:0", "1" * 5000])
async def test_typed_moves_that_int_refuses(harness, move):
    await running_game(harness)
    rec = await harness.slash(ADMIN, "game move", {"move": move})
    text = callback_text(rec)
    assert "isn't one of your moves" in text and is_private(rec), text
    assert "Something went wrong" not in text


@pytest.mark.parametrize("make", [
    lambda g: f"hc:act:{g.id}:{g.version}:1:2",          # one part too many
    lambda g: f"hc:act:{g.id}:{g.version}:",             # index missing
    lambda g: f"hc:act:{g.id}:{g.version}",              # index missing, no colon
    lambda g: f"hc:act:{g.id}:{'9' * 60}:0",            # a version no int of the bot's has
    lambda g: f"hc:play:{'9' * 90}",                     # a game id too big for SQLite
    lambda g: f"hc:play:{g.id}:3:4",                     # parts on a button that takes none
    lambda g: f"hc:zap:{g.id}",                          # an unknown kind
])
async def test_malformed_button_ids(harness, make):
    game = await running_game(harness)
    old = harness.fake.post_as_bot(CHANNEL, {"content": "an old panel", "components": [
        {"type": 1, "components": [{"type": 2, "style": 1, "label": "Take 1", "custom_id": make(game)}]}]})
    rec = await harness.fake.click(ADMIN, old, make(game))
    await rec.response(timeout=10)
    text = callback_text(rec)
    assert is_private(rec) and "Something went wrong" not in text, text
    assert "older version of the bot" in text


@pytest.mark.parametrize("custom_id", ["xx:play:1", "play:1", "HC:play:1", "heistcord", "x" * 100])
async def test_button_ids_without_our_prefix_are_answered_privately(harness, custom_id):
    """Issue 27, item 10: a click on a button the bot did not make (or one damaged past its prefix) is answered
    (before: no reply at all, and Discord showed "This interaction failed")."""
    await running_game(harness)
    old = harness.fake.post_as_bot(CHANNEL, {"content": "an old panel", "components": [
        {"type": 1, "components": [{"type": 2, "style": 1, "label": "Take 1", "custom_id": custom_id}]}]})
    rec = await harness.fake.click(ADMIN, old, custom_id)
    await rec.response(timeout=5)
    text = callback_text(rec)
    assert is_private(rec) and "older version of the bot" in text, text


@pytest.mark.parametrize("value", ["x", "²", "-1", "9" * 90, "1:2"])
async def test_malformed_select_values(harness, value):
    game = await running_game(harness)
    select = f"hc:sel:{game.id}:{game.version}:0"
    old = harness.fake.post_as_bot(CHANNEL, {"content": "an old panel", "components": [
        {"type": 1, "components": [{"type": 3, "custom_id": select, "options": [{"label": "Take 1", "value": value}]}]}]})
    rec = await harness.fake.select(ADMIN, old, select, [value])
    await rec.response(timeout=10)
    text = callback_text(rec)
    assert is_private(rec) and "Something went wrong" not in text, text
    assert (await harness.bot.tables.get(game.id)).version == game.version


# --- item 11 -------------------------------------------------------------------------------
async def test_manager_role_cannot_change_server_settings(harness):
    h, fake = harness, harness.fake
    fake.add_role(GUILD, 777, "Game Master")
    rec = await h.slash(ADMIN, "gameadmin settings", {"manager_role": 777})
    assert "<@&777>" in callback_text(rec)
    fake.add_member(GUILD, CID, permissions=MEMBER_PERMS, roles=[777])
    await h.restart()  # the bot learns of the new role when it connects
    # The manager role manages games ...
    rec = await h.slash(CID, "gameadmin list")
    assert "No games are open" in callback_text(rec)
    # ... but it can't hand itself to everyone, nor change any other server setting.
    rec = await h.slash(CID, "gameadmin settings", {"manager_role": GUILD})
    assert "Manage Server" in callback_text(rec) and is_private(rec)
    rec = await h.slash(CID, "gameadmin maintenance", {"paused": True})
    assert "Manage Server" in callback_text(rec)
    settings = await h.bot.storage.settings(GUILD)
    assert settings.manager_role_id == 777 and not settings.maintenance
    # Nobody makes @everyone the manager role: that would let anyone end any game.
    rec = await h.slash(ADMIN, "gameadmin settings", {"manager_role": GUILD})
    assert "@everyone" in callback_text(rec)
    assert (await h.bot.storage.settings(GUILD)).manager_role_id == 777
    await running_game(h)
    rec = await h.slash(103, "game end")
    assert "Only the host or a game manager" in callback_text(rec)


# --- item 8 --------------------------------------------------------------------------------
async def finished_game_elsewhere(h):
    """A finished game on another server (its moves are that server's business)."""
    tables = h.bot.tables
    game = await tables.open(OTHER_GUILD, OTHER_GUILD_CHANNEL, "dummy", CID, "Cid", {"pile": "5"})
    await tables.join(game.id, 103, "Dee")
    game = (await tables.start(game.id, CID)).game
    while game.status == "running":
        seat = game.state["turn"]
        game = (await tables.act(game.id, game.seats[seat]["user_id"], version=game.version, index=0)).game
    return game


async def test_replay_errors_are_private_and_the_server_check_comes_first(harness):
    h = harness
    other = await finished_game_elsewhere(h)
    moves = len(await h.bot.storage.actions(other.id))
    for args in ({"id": 999}, {"id": other.id}, {"id": other.id, "move": moves + 5}):
        rec = await h.slash(ADMIN, "game replay", args)
        text = callback_text(rec)
        assert is_private(rec), f"{args}: the error went public: {text}"
        assert f"moves 0 to {moves}" not in text
    rec = await h.slash(ADMIN, "game replay", {"id": other.id, "move": moves + 5})
    assert "There is no game" in callback_text(rec)
    game = await running_game(h)
    rec = await h.slash(BOB, "game replay", {"id": game.id})  # a running game: its secrets would show
    assert is_private(rec) and "finished games" in callback_text(rec)
    assert not [m for m in h.fake.public_messages(CHANNEL) if "There is no game" in m.content
                or "finished games" in m.content]


# --- issue 27, item 7: a custom id naming another server's game ---------------------------------------------------
@pytest.mark.parametrize("kind", ["join", "leave", "bot", "start", "end", "play", "hand", "dm", "act", "help"])
async def test_a_button_naming_a_game_of_another_server_is_refused(harness, kind):
    """If one were ever delivered (a forged id, a bug), it must not join, start or end that server's game, nor
    show a hand: the interaction's server is checked against the game's."""
    h, fake = harness, harness.fake
    tables = h.bot.tables
    lobby = await tables.open(OTHER_GUILD, OTHER_GUILD_CHANNEL, "dummy", CID, "Cid", {"pile": "9"})
    playing = await tables.open(OTHER_GUILD, OTHER_GUILD_CHANNEL + 1, "dummy", CID, "Cid", {"pile": "9"})
    await tables.join(playing.id, BOB, "Bob")
    await tables.start(playing.id, CID)
    game = lobby if kind in ("join", "leave", "bot", "start") else playing
    before = copy.deepcopy(await h.bot.storage.get_game(game.id))
    custom_id = customid.encode(kind, game.id, game.version, 0) if kind == "act" else customid.encode(kind, game.id)
    # Cid hosts it, on the other server; in a DM a player's own seat may be played (the bot DMs Play buttons).
    places = [(CHANNEL, "another server")] + ([] if kind in OWN_SEAT_KINDS else [(fake.dm_channel_id(CID), "direct")])
    for channel, refusal in places:
        forged = fake.post_as_bot(channel, {"content": "a forged button", "components": [
            {"type": 1, "components": [{"type": 2, "style": 1, "label": "Go", "custom_id": custom_id}]}]})
        rec = await fake.click(CID, forged, custom_id)
        await rec.response(timeout=5)
        text = callback_text(rec)
        assert is_private(rec) and refusal in text, (channel, text)
    await h.settle()
    after = await h.bot.storage.get_game(game.id)
    assert (after.status, after.seats, after.version, after.rev) == (before.status, before.seats, before.version,
                                                                     before.rev)
    assert "SECRET" not in "".join(m.content for m in fake.dms(CID))
