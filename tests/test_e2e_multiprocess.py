"""Two bot PROCESSES, shard 0 and shard 1 of 2, on one fake Discord and one PostgreSQL
database (issue 13): players in servers on both shards play; a DM button for a game of
shard 1's server is delivered to shard 0's process and works there; a turn's deadline
fires once although both processes watch the timers; shard 1's process is killed
(SIGKILL) right after acknowledging a move and restarted, and the move is not lost."""
from __future__ import annotations

import asyncio
import os
import signal
from pathlib import Path

import aiohttp

from bot.games import get_engine
from bot.storage_pg import PgStorage
from tests.botprocess import BotProcess, new_sessions_on
from tests.e2e_helpers import callback_text, play_boards
from tests.test_shards import CHANNELS, EVEN, GUEST, HOST, ODD, board_of, world

QUIET = 0.4  # seconds without a request to the fake: the bot processes are idle


def shard_bot(fake, url: str, shard: int, log_path: Path) -> BotProcess:
    """``tests/bench_botproc.py heistcord`` running shard ``shard`` of 2, on PostgreSQL."""
    return BotProcess(fake.base_url, log_path, guild=0, name=f"shard {shard}", args=[
        "--database-url", url, "--shard-count", "2", "--shard-ids", str(shard), "--timer-poll", "0.3",
        "--with-test-game", "--seed", str(1000 * (shard + 1)), "--quiet-signal"])


async def quiet(*bots: BotProcess) -> None:
    """Every bot has finished what it was doing and run two timer passes since now: a board a move (or a timer)
    would still post, it has posted. (Waited on, not slept: a check after a fixed sleep can't fail on a slow
    machine, where what it looks for comes after it.)"""
    marks = {bot.name: bot.log().count("QUIET after") for bot in bots}
    for bot in bots:
        os.kill(bot.pid, signal.SIGUSR1)
    await eventually(lambda: all(bot.log().count("QUIET after") > marks[bot.name] for bot in bots), timeout=30)


async def start_shard(fake, bot: BotProcess, shard: int) -> None:
    await bot.start(new_sessions_on(fake, (shard, 2)))
    await fake.settle(quiet=QUIET, timeout=20)  # its guild arrived, start-up recovery done


async def settle(fake) -> None:
    await fake.settle(quiet=QUIET, timeout=20)


async def eventually(check, timeout: float = 20.0):
    """Wait until ``check()`` is true (the bots work in other processes); returns its value."""
    async with asyncio.timeout(timeout):
        while not (value := check()):
            await asyncio.sleep(0.05)
    return value


def boards(fake, guild_id: int) -> list:
    return play_boards(fake, CHANNELS[guild_id])


async def open_and_start(fake, guild_id: int) -> int:
    channel = CHANNELS[guild_id]
    rec = await fake.slash(HOST, channel, "game new", {"game": "dummy", "options": "pile=5, turn_minutes=1"})
    await rec.wait_done(timeout=10)
    assert rec.message is not None, callback_text(rec)
    for user, label in ((GUEST, "Join"), (HOST, "Start")):
        click = await fake.click(user, rec.message, fake.find_component(rec.message, label=label)["custom_id"])
        await click.response(timeout=10)
    board = (await eventually(lambda: boards(fake, guild_id)))[-1]
    await settle(fake)
    return int(fake.find_component(board, label="Play")["custom_id"].split(":")[2])


async def take_one(fake, message, user: int, *, settle_after: bool = True):
    """``user`` presses Play on ``message`` and takes one coin; returns the move's interaction."""
    panel = await fake.click(user, message, fake.find_component(message, label="Play")["custom_id"])
    await panel.response(timeout=10)
    assert panel.message is not None, callback_text(panel)
    move = await fake.click(user, panel.message, fake.find_component(panel.message, label="Take 1")["custom_id"])
    await move.response(timeout=10)
    if settle_after:
        await settle(fake)
    return move


async def whose_turn(pg: PgStorage, game_id: int) -> int | None:
    game = await pg.get_game(game_id)
    if game.status != "running":
        return None
    return game.seats[get_engine("dummy").to_act(game.state)[0]]["user_id"]


async def play_out(fake, pg: PgStorage, guild_id: int, game_id: int) -> None:
    while (user := await whose_turn(pg, game_id)) is not None:
        latest = board_of(fake, CHANNELS[guild_id]).id
        await take_one(fake, board_of(fake, CHANNELS[guild_id]), user)
        if await whose_turn(pg, game_id) is not None:  # the move's board (a new one: the turn passed) is up
            await eventually(lambda: boards(fake, guild_id) and board_of(fake, CHANNELS[guild_id]).id != latest)


async def dm_play_button(fake, user_id: int, custom_id: str):
    """A DM from the bot (through Discord's REST API) carrying a table's Play button."""
    headers = {"Authorization": "Bot fake-token"}
    async with aiohttp.ClientSession() as http:
        async with http.post(f"{fake.base_url}/api/v10/users/@me/channels", json={"recipient_id": str(user_id)},
                             headers=headers) as resp:
            dm = await resp.json()
        body = {"content": "Your move.", "components": [
            {"type": 1, "components": [{"type": 2, "style": 1, "label": "Play", "custom_id": custom_id}]}]}
        async with http.post(f"{fake.base_url}/api/v10/channels/{dm['id']}/messages", json=body,
                             headers=headers) as resp:
            assert resp.status == 200, await resp.text()
            return fake.messages[int((await resp.json())["id"])]


def texts(fake, guild_id: int) -> list[str]:
    return [m.content for m in fake.public_messages(CHANNELS[guild_id])]


async def test_two_processes_on_one_postgres_database(fake_discord, pg_server, tmp_path):
    fake = fake_discord
    world(fake)
    url = await pg_server.fresh_database()
    pg = await PgStorage(url).open()  # the test's own look at the shared database
    bots = {shard: shard_bot(fake, url, shard, tmp_path / f"shard{shard}.log") for shard in (0, 1)}
    try:
        await asyncio.gather(*(start_shard(fake, b, shard) for shard, b in bots.items()))

        # Players in servers on both shards open and start tables: one set of game ids.
        games = {guild_id: await open_and_start(fake, guild_id) for guild_id in (EVEN, ODD)}
        assert sorted(games.values()) == [1, 2]
        assert "opened: dummy" in bots[0].log() and f"game {games[EVEN]} opened" in bots[0].log()
        assert f"game {games[ODD]} opened" in bots[1].log()

        # A DM button for shard 1's game arrives on shard 0: shard 0's process plays it and posts the board.
        await take_one(fake, board_of(fake, CHANNELS[EVEN]), HOST)
        odd_play = fake.find_component(board_of(fake, CHANNELS[ODD]), label="Play")["custom_id"]
        board_before = board_of(fake, CHANNELS[ODD]).id
        seen = {m.id for m in fake.public_messages(CHANNELS[ODD])}
        await take_one(fake, await dm_play_button(fake, HOST, odd_play), HOST)
        assert (await pg.get_game(games[ODD])).state["pile"] == 4
        assert f"game {games[ODD]} seat 0 ({HOST}) moved" in bots[0].log()
        await eventually(lambda: boards(fake, ODD) and board_of(fake, CHANNELS[ODD]).id != board_before)  # posted
        await quiet(*bots.values())
        await settle(fake)
        new_boards = [m for m in boards(fake, ODD) if m.id not in seen]
        assert len(new_boards) == 1, "the move's board was posted by more than one process"
        # Shard 1's process, whose copy of the game is now old, takes the next move correctly.
        await take_one(fake, board_of(fake, CHANNELS[ODD]), GUEST)
        assert (await pg.get_game(games[ODD])).state["pile"] == 3
        assert f"game {games[ODD]} seat 1 ({GUEST}) moved" in bots[1].log()

        # The one-minute turn timer of Bob's turn on shard 0's table: an hour passes (the
        # timers are moved back, as another program may change a row) and both processes
        # watch the timers. The deadline fires once.
        even = await pg.get_game(games[EVEN])
        assert even.deadline_at is not None and await whose_turn(pg, games[EVEN]) == GUEST
        await pg.pool.execute("UPDATE games SET deadline_at = deadline_at - 3600, reminder_at = reminder_at - 3600,"
                              " rev = rev + 1 WHERE id = $1", games[EVEN])
        async with asyncio.timeout(20):
            while (await pg.get_game(games[EVEN])).version == even.version:
                await asyncio.sleep(0.1)
        await quiet(*bots.values())  # more timer passes of both processes: a second firing would be done by now
        await settle(fake)
        timed_out = [a for a in await pg.actions(games[EVEN]) if a["user_id"] is None]
        assert len(timed_out) == 1 and timed_out[0]["seat"] == 1
        assert sum("Time ran out" in t for t in texts(fake, EVEN)) == 1, texts(fake, EVEN)

        # Shard 1's process is killed right after it acknowledged a move, then restarted.
        version = (await pg.get_game(games[ODD])).version
        move = await take_one(fake, board_of(fake, CHANNELS[ODD]), HOST, settle_after=False)
        assert move.callback is not None
        bots[1].kill9()
        assert (await pg.get_game(games[ODD])).version == version + 1  # acknowledged: stored
        await settle(fake)
        await start_shard(fake, bots[1], 1)
        await play_out(fake, pg, ODD, games[ODD])
        await play_out(fake, pg, EVEN, games[EVEN])
        for guild_id, game_id in games.items():
            game = await pg.get_game(game_id)
            assert game.status == "finished", (guild_id, game.status)
            log = await pg.actions(game_id)
            assert [a["seq"] for a in log] == list(range(1, len(log) + 1)) and len(log) == 5
            assert await pg.pool.fetchval("SELECT COUNT(*) FROM results WHERE game_id = $1", game_id) == 2
    finally:
        for b in bots.values():
            await b.stop()
        await pg.close()
    for b in bots.values():
        assert "Traceback" not in b.log() and " ERROR " not in b.log(), b.log()[-3000:]
