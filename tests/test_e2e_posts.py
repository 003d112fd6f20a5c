"""How many messages a whole game posts, one game of each title with four people
clicking through the fake Discord: the board lives in one message per turn (edited
while the same player keeps acting), so a game posts about one message per turn
change, and the channel it was opened in sees three. And nothing is lost from the
board: every public line of the game's log is in some public message."""
from __future__ import annotations

import pytest

from bot.games import get_engine, shipped
from bot.tables import engine_options
from bot.turns import turn_snapshots
from cogs.dms import NOTIFYING_DMS
from tests.conftest import ADMIN, CHANNEL
from tests.e2e_helpers import open_and_start, play_to_end

PLAYERS = [ADMIN, 101, 102, 103]
HANDFUL = 6  # the start, notes (closed DMs, timers), the final scores and its log


async def posts_of_a_game(h, key: str) -> tuple[int, int, int]:
    await open_and_start(h, key, PLAYERS)
    game = await play_to_end(h, seed=3)
    assert game.status == "finished"
    engine = get_engine(key)
    log = [(e["seat"], e["action"]) for e in await h.bot.storage.actions(game.id)]
    turns = len(turn_snapshots(engine, [s["name"] for s in game.seats], engine_options(game), game.seed, log)) - 1
    in_thread = len(h.fake.public_messages(game.channel_id))
    in_channel = len(h.fake.public_messages(CHANNEL, threads=False))
    missing = await lines_never_posted(h, game)
    assert not missing, f"{len(missing)} public lines never reached the thread, e.g. {missing[:3]}"
    notifying = {uid: len(h.fake.dms(uid)) for uid in PLAYERS}  # each new DM notifies; edits don't
    assert all(n <= NOTIFYING_DMS for n in notifying.values()), f"new DMs per player: {notifying}"
    return in_thread, turns, in_channel


async def lines_never_posted(h, game) -> list[str]:
    """The public lines of a game's log (replayed from its action log) that no public message's text holds
    (the final log file attached to the scores doesn't count: a player reads the thread)."""
    said = "\n".join(m.content for m in h.fake.public_messages(CHANNEL))
    return [line for _, line in await h.bot.tables.public_log(game.id) if line not in said]


@pytest.mark.parametrize("key", sorted(shipped()))
async def test_a_game_posts_about_one_message_per_turn_and_loses_no_line(harness, key):
    posts, turns, in_channel = await posts_of_a_game(harness, key)
    print(f"\n{key}: {posts} posts in the thread for {turns} turn changes; {in_channel} in the channel")
    assert in_channel <= 3
    assert posts <= turns + HANDFUL
