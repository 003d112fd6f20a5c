"""Sharding: the shard settings, the fake Discord gateway's sharding (as Discord does it),
and the bot run sharded through it: two shards in one process with games in servers on
both shards (and a DM button, which Discord delivers on shard 0), and two bot instances
running shard 0 and shard 1 of 2 against one fake server, each with its own database."""
from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from pathlib import Path

import aiohttp
import discord
import pytest

from bot.app import HeistBot
from bot.config import Config, ConfigError
from bot.storage import Storage
from tests.conftest import MANAGE_GUILD, MEMBER_PERMS
from tests.e2e_helpers import callback_text, play_boards
from tests.fakediscord.fixtures import start_client, stop_client

ROOT = Path(__file__).resolve().parent.parent
EVEN, ODD = (10 << 22) | 7, (11 << 22) | 7  # on shard 0 and shard 1 of 2: (guild_id >> 22) % 2
CHANNELS = {EVEN: 7001, ODD: 7002}
HOST, GUEST = 100, 101
INTENT_GUILD_MESSAGES, INTENT_DM_MESSAGES = 1 << 9, 1 << 12


# ---------------------------------------------------------------------------- settings
@pytest.mark.parametrize("ids, expected", [("0-3", [0, 1, 2, 3]), ("0,1,2", [0, 1, 2]), (" 1 , 3-4 ", [1, 3, 4]),
                                           ("5", [5]), ("", None)])
def test_shard_ids_are_ranges_or_lists(ids, expected):
    config = Config.from_env({"HEISTCORD_SHARD_COUNT": "6", "HEISTCORD_SHARD_IDS": ids}, None)
    assert config.shard_count == 6 and config.shard_ids == expected


def test_shard_count_is_automatic_by_default():
    config = Config.from_env({}, None)
    assert config.shard_count is None and config.shard_ids is None
    bot = HeistBot(config)
    assert bot.shard_count is None and bot.shard_ids is None  # asks Discord's /gateway/bot at login


@pytest.mark.parametrize("env, words", [
    ({"HEISTCORD_SHARD_IDS": "0-1"}, "needs HEISTCORD_SHARD_COUNT"),
    ({"HEISTCORD_SHARD_COUNT": "2", "HEISTCORD_SHARD_IDS": "0-2"}, "shard 2 does not exist"),
    ({"HEISTCORD_SHARD_COUNT": "4", "HEISTCORD_SHARD_IDS": "3-1"}, "runs backwards"),
    ({"HEISTCORD_SHARD_COUNT": "4", "HEISTCORD_SHARD_IDS": "0,1,1"}, "twice"),
    ({"HEISTCORD_SHARD_COUNT": "4", "HEISTCORD_SHARD_IDS": "one"}, "such as '0-3'"),
    ({"HEISTCORD_SHARD_COUNT": "4", "HEISTCORD_SHARD_IDS": "-1"}, "such as '0-3'"),
    ({"HEISTCORD_SHARD_COUNT": "4", "HEISTCORD_SHARD_IDS": "0-"}, "such as '0-3'"),
    ({"HEISTCORD_SHARD_COUNT": "0"}, "1 or more"),
    ({"HEISTCORD_SHARD_COUNT": "two"}, "1 or more"),
])
def test_bad_shard_settings_are_refused_clearly(env, words):
    with pytest.raises(ConfigError, match=words):
        Config.from_env(env, None)


def test_the_bot_stops_with_one_line_on_bad_shard_settings(tmp_path):
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "HEISTCORD_"))}
    env.update(PYTHONPATH=str(ROOT), DISCORD_TOKEN="x", HEISTCORD_SHARD_COUNT="2", HEISTCORD_SHARD_IDS="0-3")
    result = subprocess.run([sys.executable, "-m", "bot"], cwd=tmp_path, env=env, capture_output=True, text=True,
                            timeout=60)
    assert result.returncode == 2
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and "HEISTCORD_SHARD_IDS" in lines[0] and "0 to 1" in lines[0], result.stderr


# ---------------------------------------------------------------------------- the fake's gateway
def world(fake) -> None:
    for guild_id, name in ((EVEN, "Even Heists"), (ODD, "Odd Heists")):
        fake.add_guild(guild_id, name=name, owner_id=HOST)
        fake.add_channel(guild_id, CHANNELS[guild_id], "heists")
        for uid, name in ((HOST, "Ann"), (GUEST, "Bob")):
            fake.add_user(uid, name)
            fake.add_member(guild_id, uid, permissions=MEMBER_PERMS | (MANAGE_GUILD if uid == HOST else 0))


async def identify(fake, session: aiohttp.ClientSession, shard: list | None):
    """A raw gateway client: HELLO, IDENTIFY (with ``shard`` unless None); returns the socket."""
    ws = await session.ws_connect(fake.gateway_url)
    hello = await ws.receive_json(timeout=5)
    assert hello["op"] == 10
    d = {"token": "fake-token", "intents": INTENT_GUILD_MESSAGES | INTENT_DM_MESSAGES | 1,
         "properties": {"os": "linux", "browser": "test", "device": "test"}}
    if shard is not None:
        d["shard"] = shard
    await ws.send_json({"op": 2, "d": d})
    return ws


async def events(ws, until: str | None = None, quiet: float = 0.3) -> list[dict]:
    """Dispatches received until ``until`` arrives, or until the socket is quiet."""
    got = []
    while True:
        try:
            msg = await ws.receive(timeout=quiet)
        except asyncio.TimeoutError:
            return got
        if msg.type != aiohttp.WSMsgType.TEXT:
            got.append({"closed": ws.close_code})
            return got
        payload = json.loads(msg.data)
        if payload["op"] == 0:
            got.append(payload)
            if payload["t"] == until:
                return got


async def test_the_fake_gateway_shards_as_discord_does(fake_discord):
    fake = fake_discord
    world(fake)
    async with aiohttp.ClientSession() as http:
        async with http.get(f"{fake.base_url}/api/v10/gateway/bot", headers={"Authorization": "Bot fake-token"}) as resp:
            info = await resp.json()
        assert info["shards"] == 1 and info["session_start_limit"]["max_concurrency"] >= 1
        fake.recommended_shards = 2
        async with http.get(f"{fake.base_url}/api/v10/gateway/bot", headers={"Authorization": "Bot fake-token"}) as resp:
            assert (await resp.json())["shards"] == 2

        # Each shard gets the guilds with (guild_id >> 22) % num_shards == shard_id, in READY and GUILD_CREATE.
        shard0, shard1 = await identify(fake, http, [0, 2]), await identify(fake, http, [1, 2])
        for ws, mine in ((shard0, EVEN), (shard1, ODD)):
            got = await events(ws)
            ready = got[0]
            assert ready["t"] == "READY" and [g["id"] for g in ready["d"]["guilds"]] == [str(mine)]
            assert [e["d"]["id"] for e in got if e["t"] == "GUILD_CREATE"] == [str(mine)]
        # Guild events go to the guild's shard only; DMs to shard 0 only.
        await fake.send_user_message(GUEST, CHANNELS[ODD], "hello odd")
        await fake.send_user_message(GUEST, CHANNELS[EVEN], "hello even")
        await fake.send_user_message(GUEST, fake.dm_channel_id(GUEST), "hello by DM")
        seen0 = [e["d"]["channel_id"] for e in await events(shard0) if e["t"] == "MESSAGE_CREATE"]
        seen1 = [e["d"]["channel_id"] for e in await events(shard1) if e["t"] == "MESSAGE_CREATE"]
        assert seen0 == [str(CHANNELS[EVEN]), str(fake.dm_channel_id(GUEST))] and seen1 == [str(CHANNELS[ODD])]
        # An unsharded session gets every guild.
        whole = await identify(fake, http, None)
        assert sorted(g["id"] for g in (await events(whole, "READY"))[0]["d"]["guilds"]) == sorted([str(EVEN), str(ODD)])

        # A shard that doesn't exist is refused with 4010 (Invalid shard).
        for bad in ([2, 2], [0, 0], [-1, 2], ["0", 2], [0]):
            ws = await identify(fake, http, bad)
            assert (await events(ws)) == [{"closed": 4010}], bad
        for ws in (shard0, shard1, whole):
            await ws.close()


async def test_the_fake_refuses_an_unsharded_bot_in_more_than_2500_guilds(fake_discord):
    fake = fake_discord
    for i in range(2501):
        fake.add_guild(((i + 1) << 22) | 5, name=f"G{i}", owner_id=HOST)
    async with aiohttp.ClientSession() as http:
        ws = await identify(fake, http, None)
        assert (await events(ws)) == [{"closed": 4011}]  # Sharding required
        ws = await identify(fake, http, [0, 2])  # 1,250 or 1,251 guilds per shard: fine
        assert (await events(ws, "READY"))[-1]["t"] == "READY"
        await ws.close()


# ---------------------------------------------------------------------------- the bot, sharded
def spy_on_dispatches(fake) -> list[tuple[tuple[int, int], str, str | None]]:
    """(session's shard, event, guild id) of every dispatch the fake sends."""
    sent: list[tuple[tuple[int, int], str, str | None]] = []
    original = fake._send

    async def send(s, op, d, t=None):
        if op == 0 and isinstance(d, dict):
            sent.append((s.shard, t, d.get("guild_id")))
        return await original(s, op, d, t)

    fake._send = send
    return sent


async def start_for_guilds(bot, fake, guild_ids: set[int], timeout: float = 20.0) -> None:
    """Like ``start_client``, for a bot that runs only some shards: ready with its guilds."""
    bot._connection.guild_ready_timeout = 0.05
    task = asyncio.create_task(bot.start("fake-token"))
    bot._fake_discord_task = task
    fake._started_clients = [*getattr(fake, "_started_clients", []), bot]
    async with asyncio.timeout(timeout):
        while not (bot.is_ready() and guild_ids <= {g.id for g in bot.guilds if not g.unavailable}):
            if task.done():
                raise RuntimeError(f"bot stopped before becoming ready: {task.exception()!r}")
            await asyncio.sleep(0.01)


def make_bot(db: Path, **config) -> HeistBot:
    seeds = iter(range(5000, 6000))
    return HeistBot(Config(token="fake-token", db_path=str(db), **config), seed_source=lambda: next(seeds))


def board_of(fake, channel_id: int):
    return play_boards(fake, channel_id)[-1]


async def settle(fake, *bots) -> None:
    for bot in bots:
        await bot.idle()
    await fake.settle(quiet=0.05)


async def open_and_start(fake, bots, guild_id: int) -> int:
    """Ann opens a Coin Pile table of 3 coins in the guild's channel, Bob joins, Ann starts."""
    channel = CHANNELS[guild_id]
    rec = await fake.slash(HOST, channel, "game new", {"game": "dummy", "options": "pile=3"})
    await rec.wait_done(timeout=10)
    lobby = rec.message
    assert lobby is not None, callback_text(rec)
    await (await fake.click(GUEST, lobby, fake.find_component(lobby, label="Join")["custom_id"])).response(timeout=10)
    await (await fake.click(HOST, lobby, fake.find_component(lobby, label="Start")["custom_id"])).response(timeout=10)
    await settle(fake, *bots)
    return int(fake.find_component(board_of(fake, channel), label="Play")["custom_id"].split(":")[2])


async def take_one(fake, bots, message, user: int) -> None:
    """``user`` clicks Play on ``message`` and takes one coin on the panel."""
    panel = await fake.click(user, message, fake.find_component(message, label="Play")["custom_id"])
    await panel.response(timeout=10)
    assert panel.message is not None and panel.callback["data"]["flags"] & 64, callback_text(panel)
    move = await fake.click(user, panel.message, fake.find_component(panel.message, label="Take 1")["custom_id"])
    await move.response(timeout=10)
    await settle(fake, *bots)


async def play_to_the_end(fake, bots, guild_id: int) -> None:
    channel = CHANNELS[guild_id]
    for user in (HOST, GUEST, HOST):  # 3 coins, one at a time: Ann takes the last one
        await take_one(fake, bots, board_of(fake, channel), user)
    assert any("wins" in (m.content + m.embed_texts).lower() or "won" in (m.content + m.embed_texts).lower()
               for m in fake.public_messages(channel)[-3:]), [m.content for m in fake.public_messages(channel)[-3:]]


async def send_dm_with_play_button(bot: HeistBot, fake, user_id: int, game_id: int, custom_id: str):
    """The bot DMs a player a message with the game's Play button (through its own REST client)."""
    view = discord.ui.View()
    view.add_item(discord.ui.Button(label="Play", custom_id=custom_id))
    dm = await (await bot.fetch_user(user_id)).create_dm()
    with discord.http.handle_message_parameters(content=f"Your move in table #{game_id}.", view=view) as params:
        data = await bot.http.send_message(dm.id, params=params)
    return fake.messages[int(data["id"])]


async def test_two_shards_in_one_process_play_on_both_and_dm_buttons_work(fake_discord, tmp_path, errors):
    fake = fake_discord
    world(fake)
    fake.recommended_shards = 2  # the shard count is automatic: Discord's recommendation
    sent = spy_on_dispatches(fake)
    bot = make_bot(tmp_path / "heistcord.db")
    await start_client(bot, fake, timeout=30)  # the second shard identifies 5 s after the first
    try:
        assert bot.shard_count == 2 and sorted(bot.shards) == [0, 1]
        assert sorted(s.shard for s in fake._live_sessions()) == [(0, 2), (1, 2)]
        assert bot.get_guild(EVEN).shard_id == 0 and bot.get_guild(ODD).shard_id == 1

        games = {guild_id: await open_and_start(fake, [bot], guild_id) for guild_id in (EVEN, ODD)}
        await take_one(fake, [bot], board_of(fake, CHANNELS[EVEN]), HOST)

        # A DM button for the game on shard 1: Discord delivers DM interactions on shard 0.
        odd_play = fake.find_component(board_of(fake, CHANNELS[ODD]), label="Play")["custom_id"]
        dm = await send_dm_with_play_button(bot, fake, HOST, games[ODD], odd_play)
        before = len(fake.public_messages(CHANNELS[ODD]))
        await take_one(fake, [bot], dm, HOST)
        assert len(fake.public_messages(CHANNELS[ODD])) > before, "the move made by DM was not posted"
        row = await bot.storage.get_game(games[ODD])
        assert row.state["pile"] == 2

        await take_one(fake, [bot], board_of(fake, CHANNELS[EVEN]), GUEST)
        await take_one(fake, [bot], board_of(fake, CHANNELS[EVEN]), HOST)
        await take_one(fake, [bot], board_of(fake, CHANNELS[ODD]), GUEST)
        await take_one(fake, [bot], board_of(fake, CHANNELS[ODD]), HOST)
        for guild_id, game_id in games.items():
            assert (await bot.storage.get_game(game_id)).status == "finished"
    finally:
        await stop_client(bot)

    interactions = [(shard, guild) for shard, event, guild in sent if event == "INTERACTION_CREATE"]
    assert (((1, 2), str(ODD)) in interactions and ((0, 2), str(EVEN)) in interactions
            and ((0, 2), None) in interactions)
    for shard, guild in interactions:  # each on its guild's shard; the DM ones on shard 0
        assert shard == ((0, 2) if guild is None or int(guild) == EVEN else (1, 2))


async def test_two_bot_instances_run_one_shard_each_with_their_own_database(fake_discord, tmp_path, errors):
    fake = fake_discord
    world(fake)
    sent = spy_on_dispatches(fake)
    first = make_bot(tmp_path / "shard0.db", shard_count=2, shard_ids=[0])
    second = make_bot(tmp_path / "shard1.db", shard_count=2, shard_ids=[1])
    bots = [first, second]
    await start_for_guilds(first, fake, {EVEN})
    await start_for_guilds(second, fake, {ODD})
    try:
        assert {g.id for g in first.guilds} == {EVEN} and {g.id for g in second.guilds} == {ODD}
        assert sorted(s.shard for s in fake._live_sessions()) == [(0, 2), (1, 2)]
        games = {guild_id: await open_and_start(fake, bots, guild_id) for guild_id in (EVEN, ODD)}
        for guild_id in (EVEN, ODD):
            await play_to_the_end(fake, bots, guild_id)
    finally:
        for bot in bots:
            await stop_client(bot)

    # Each instance stored only the games of its own shard's servers, in its own database.
    for path, guild_id in ((tmp_path / "shard0.db", EVEN), (tmp_path / "shard1.db", ODD)):
        storage = await Storage(str(path)).open()
        try:
            rows = [await storage.get_game(i) for i in range(1, 4)]
            stored = [(r.guild_id, r.status) for r in rows if r is not None]
            assert stored == [(guild_id, "finished")], (path.name, stored)
            assert games[guild_id] == 1
        finally:
            await storage.close()
    for shard, event, guild in sent:
        if guild is not None:
            assert shard == ((0, 2) if int(guild) == EVEN else (1, 2)), (shard, event, guild)
