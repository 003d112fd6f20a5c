"""Tables in threads and the living board, through the real discord.py client and
the fake Discord server: a started game moves into a thread made from its lobby
message; the channel sees only the lobby, a pointer and the result; the board is
edited in place while the same player acts and posted anew when the turn passes;
every image carries alt text; archived threads and missing permissions don't
break a game."""
from __future__ import annotations

import io

from PIL import Image

from tests.conftest import ADMIN, CHANNEL, GUILD
from tests.e2e_helpers import button_id, callback_text, open_and_start, play_boards, play_to_end
from tests.fakediscord.server import CREATE_PUBLIC_THREADS

BOB, CID = 101, 102


def boards(h, channel):
    return [m for m in h.fake.public_messages(channel) if m.content.startswith("**Coin Pile** · table #")]


def live_board(h, channel):
    live = play_boards(h.fake, channel)
    assert len(live) == 1, f"exactly one board has buttons, not {len(live)}"
    return live[0]


async def start_table(h, options: str = "pile=9", players=(ADMIN, BOB, CID)):
    rec = await h.slash(players[0], "game new", {"game": "dummy", "options": options}, channel=CHANNEL)
    lobby = rec.message
    for uid in players[1:]:
        await h.click(uid, lobby, button_id(h.fake, lobby, "Join"))
    await h.click(players[0], lobby, button_id(h.fake, lobby, "Start"))
    await h.settle()
    return lobby


async def move(h, user, channel, label="Take 1"):
    board = live_board(h, channel)
    panel = await h.click(user, board, button_id(h.fake, board, "Play"))
    rec = await h.click(user, panel.message, button_id(h.fake, panel.message, label))
    assert "✅" in callback_text(rec), callback_text(rec)
    await h.settle()


def assert_alt_text(messages):
    """Every image the bot posted describes itself in words (Discord's 1,024-character limit)."""
    images = [a for m in messages for a in m.attachments if a["filename"].endswith((".png", ".gif"))]
    assert images
    for a in images:
        assert 20 <= len(a.get("description", "")) <= 1024, a


async def test_a_game_moves_into_its_own_thread_and_the_channel_stays_quiet(harness):
    h, fake = harness, harness.fake
    lobby = await start_table(h, "pile=7, streak=2")
    game = await h.table()
    thread = fake.channels[game.channel_id]
    # The thread is made from the lobby message (it shares its id), named for the game, with the players in it.
    assert thread.is_thread and thread.id == lobby.id and thread.parent_id == CHANNEL
    assert thread.name == f"Coin Pile · table #{game.id}"
    assert {ADMIN, BOB, CID} <= set(thread.thread_members)
    assert thread.auto_archive_duration == 10080
    # The channel is free for another table while this one runs.
    rec = await h.slash(BOB, "game new", {"game": "dummy"}, channel=CHANNEL)
    assert rec.callback["type"] == 4, callback_text(rec)
    other = await h.bot.tables.in_channel(CHANNEL)
    assert other is not None and other.id != game.id
    # /game commands in the thread act on the thread's table.
    rec = await h.slash(ADMIN, "game hand", channel=thread.id)
    assert "secret word" in callback_text(rec)

    # Each player moves twice in a row (streak=2): the second move edits the board, the next player gets a new one.
    posts = len(boards(h, thread.id))
    await move(h, ADMIN, thread.id)
    assert len(boards(h, thread.id)) == posts, "same player again: the board is edited, not posted"
    assert live_board(h, thread.id).edited
    await move(h, ADMIN, thread.id)
    assert len(boards(h, thread.id)) == posts + 1, "the turn passed: a new board"
    newest = live_board(h, thread.id)
    assert f"<@{BOB}>" in newest.content  # who is up is pinged on the new board
    assert all(m is newest or not fake.find_components(m, type=2) for m in boards(h, thread.id))
    while (await h.bot.tables.get(game.id)).status == "running":
        current = await h.bot.tables.get(game.id)
        await move(h, current.seats[current.state["turn"]]["user_id"], thread.id)

    # The channel itself: the lobby, one line pointing to the thread, the final result with its image.
    parent = fake.public_messages(CHANNEL, threads=False)
    mine = [m for m in parent if m.id == lobby.id or f"#{game.id}" in m.content or "Final scores" in m.content]
    assert len(mine) == 3, [m.content[:60] for m in mine]
    assert f"<#{thread.id}>" in mine[1].content
    assert "Final scores" in mine[2].content
    assert "SECRET" not in fake.public_text()


async def test_an_archived_thread_does_not_stop_the_game(harness):
    h, fake = harness, harness.fake
    await start_table(h, "pile=9, streak=2")
    game = await h.table()
    # Discord archives a quiet thread: the next move edits the board (refused in an archived
    # thread), so the bot unarchives it and edits again.
    await fake.archive_thread(game.channel_id)
    await h.settle()
    posts = len(boards(h, game.channel_id))
    await move(h, ADMIN, game.channel_id)
    thread = fake.channels[game.channel_id]
    assert not thread.archived and len(boards(h, game.channel_id)) == posts
    assert any(r["method"] == "PATCH" and r["path"] == f"channels/{thread.id}" for r in fake.requests)
    # Archived again before a turn passes: posting the new board unarchives it by itself.
    await fake.archive_thread(game.channel_id)
    await move(h, ADMIN, game.channel_id)
    assert not thread.archived and len(boards(h, game.channel_id)) == posts + 1


async def test_without_thread_permission_the_game_stays_in_the_channel_with_a_note(harness):
    h, fake = harness, harness.fake
    fake.guilds[GUILD].bot_permissions &= ~CREATE_PUBLIC_THREADS
    await start_table(h)
    game = await h.table()
    assert game.channel_id == CHANNEL and not fake.threads(CHANNEL)
    notes = [m for m in fake.public_messages(CHANNEL) if "couldn't open a thread" in m.content]
    assert len(notes) == 1 and "Create Public Threads" in notes[0].content
    await move(h, ADMIN, CHANNEL)  # the game goes on in the channel
    assert len(boards(h, CHANNEL)) == 2


async def test_a_server_can_turn_threads_off(harness):
    h, fake = harness, harness.fake
    rec = await h.slash(ADMIN, "gameadmin settings", {"threads": False}, channel=CHANNEL)
    assert "Games in threads: off" in callback_text(rec)
    await start_table(h)
    game = await h.table()
    assert game.channel_id == CHANNEL and not fake.threads(CHANNEL)
    assert not [m for m in fake.public_messages(CHANNEL) if "couldn't open a thread" in m.content]


async def test_every_image_has_alt_text_and_a_replay_is_one_animated_image(harness):
    h, fake = harness, harness.fake
    game = await open_and_start(h, "tower", [ADMIN], bots=1)
    game = await play_to_end(h)
    # Boards, the final scoreboard (in the thread and the channel) and every private picture describe themselves.
    assert_alt_text(fake.public_messages(CHANNEL))
    assert_alt_text(fake.dms(ADMIN))
    finals = [a for m in fake.public_messages(CHANNEL) for a in m.attachments if a["filename"] == "final.png"]
    assert len(finals) == 2 and all("Final scores" in a["description"] for a in finals)
    board_alt = [a["description"] for m in fake.public_messages(CHANNEL) for a in m.attachments
                 if a["filename"] == "board.png"]
    assert any("Just happened" in d for d in board_alt)

    rec = await h.slash(BOB, "game replay", {"id": game.id}, channel=CHANNEL)
    assert "the whole game" in rec.message.content
    (name, data), = rec.message.files
    assert name == f"replay-{game.id}.gif" and len(data) <= 8 * 1024 * 1024
    image = Image.open(io.BytesIO(data))
    turns = rec.message.content.split(": ")[1].split(" turns")[0]
    assert image.n_frames == int(turns) + 2  # the start, each turn, the final scores
    assert_alt_text([rec.message])


async def test_deleting_the_channel_ends_the_tables_in_its_threads(harness):
    h, fake = harness, harness.fake
    await start_table(h)
    game = await h.table()
    assert game.channel_id != CHANNEL
    await fake.delete_channel(CHANNEL)
    await fake.wait_for(lambda: any("its channel was deleted" in m.content for m in fake.dms(ADMIN)), timeout=5)
    assert (await h.bot.tables.get(game.id)).status == "ended"


def test_alt_text_does_not_repeat_what_the_game_already_described(monkeypatch):
    from bot.games import get_engine
    from bot.storage import GameRow
    from cogs import embeds

    engine = get_engine("dummy")
    state = engine.setup(["Ann", "Bob"], engine.meta.resolve_options({}), 1)
    game = GameRow(id=7, guild_id=1, channel_id=2, game_key="dummy", status="running", host_id=1, options={},
                   seed=1, seats=[{"name": "Ann"}, {"name": "Bob"}], state=state, version=0)
    view = engine.view(state, None)
    events = [{"type": "take", "text": "Ann takes 1 (pile 6)."}, {"type": "x", "text": "Bob frowns."}]
    monkeypatch.setattr(embeds, "renderer", lambda key: type("R", (), {"describe": staticmethod(
        lambda v: "Bob's turn. Just now: Ann takes 1 (pile 6).")}))
    text = embeds.alt_text(game, engine, "board", view, events)
    assert text.count("Ann takes 1") == 1 and "Just happened: Bob frowns." in text
