"""Drive a whole game through the fake Discord server as its players would:
open the table, join, start, then for every move click **Play** on the latest
board and press the button (or pick the select option) of the chosen move."""
from __future__ import annotations

import random
from typing import Callable

from cogs import customid
from tests.conftest import CHANNEL, Harness


def record_pictures(monkeypatch, note: Callable[[], object] = lambda: None) -> list[tuple[str, object]]:
    """Record every picture the cogs ask for, ``(kind, note())`` at the moment it is asked, and draw it as usual."""
    import cogs.boards
    import cogs.embeds

    asked: list[tuple[str, object]] = []
    real = cogs.embeds.render_async

    async def recording(key, kind, *args, **kwargs):
        asked.append((kind, note()))
        return await real(key, kind, *args, **kwargs)

    monkeypatch.setattr(cogs.boards, "render_async", recording)
    monkeypatch.setattr(cogs.embeds, "render_async", recording)
    return asked


def callback_text(rec) -> str:
    """What the user saw: the reply, or the message a deferred reply was filled with."""
    data = (rec.callback or {}).get("data") or {}
    text = (data.get("content") or "") + "".join(str(e) for e in data.get("embeds") or [])
    if rec.message is not None:
        text += "\n" + (rec.message.content or "") + rec.message.embed_texts
    return text


def button_id(fake, message, label: str) -> str:
    """The custom id of the button labelled ``label`` on ``message``."""
    return fake.find_component(message, label=label)["custom_id"]


def play_boards(fake, channel: int) -> list:
    """The channel's public messages with a Play button (the boards a player can act from), oldest first."""
    return [m for m in fake.public_messages(channel)
            if any(customid.kind_of(c.get("custom_id", "")) == "play" for c in fake.find_components(m, type=2))]


def latest_board(h: Harness):
    boards = play_boards(h.fake, CHANNEL)
    assert boards, "no board message with a Play button was posted"
    return boards[-1]


async def open_and_start(h: Harness, key: str, users: list[int], options: str | None = None, bots: int = 0):
    args = {"game": key}
    if options:
        args["options"] = options
    rec = await h.slash(users[0], "game new", args)
    assert rec.callback["type"] == 4, callback_text(rec)
    lobby = rec.message
    for uid in users[1:]:
        join = await h.click(uid, lobby, h.fake.find_component(lobby, label="Join")["custom_id"])
        assert join.callback["type"] == 7, callback_text(join)
    for _ in range(bots):
        await h.click(users[0], lobby, h.fake.find_component(lobby, label="Add bot")["custom_id"])
    start = await h.click(users[0], lobby, h.fake.find_component(lobby, label="Start")["custom_id"])
    assert start.callback["type"] == 7, callback_text(start)
    await h.settle()
    return await h.table()


async def press(h: Harness, user: int, index: int, game):
    """Open the panel from the latest board and press move ``index``."""
    board = latest_board(h)
    panel = await h.click(user, board, h.fake.find_component(board, label="Play")["custom_id"])
    assert panel.callback["data"]["flags"] & 64, "the panel must be ephemeral"
    message = panel.message
    wanted = customid.encode("act", game.id, game.version, index)
    buttons = [c for c in h.fake.find_components(message, type=2) if c.get("custom_id") == wanted]
    if buttons:
        return await h.click(user, message, wanted)
    for select in h.fake.find_components(message, type=3):
        if any(o["value"] == str(index) for o in select["options"]):
            rec = await h.fake.select(user, message, select["custom_id"], [str(index)])
            await rec.response(timeout=10)
            return rec
    raise AssertionError(f"move {index} is not on the panel: {callback_text(panel)}")


async def play_to_end(h: Harness, choose: Callable | None = None, seed: int = 0, max_moves: int = 2000,
                      after_move: Callable | None = None):
    """Human seats play by clicking; ``choose(engine, state, seat, rng)`` picks the
    action (by default the game's own bot logic). Returns the finished game."""
    rng = random.Random(seed)
    game = await h.table()
    engine = h.bot.tables.engine(game)
    moves = 0
    while game.status == "running":
        seat = engine.to_act(game.state)[0]
        user = game.seats[seat]["user_id"]
        legal = engine.legal_actions(game.state, seat)
        action = (choose or (lambda e, s, p, r: e.bot_action(s, p, r)))(engine, game.state, seat, rng)
        rec = await press(h, user, legal.index(action), game)
        assert "✅" in callback_text(rec), callback_text(rec)
        await h.settle()
        if after_move:
            await after_move(game)
        moves += 1
        assert moves < max_moves, "the game did not end"
        game = await h.bot.tables.get(game.id)
    await h.settle(dms=True)  # the hands' last catch-up DMs too
    return game


async def learn_through_discord(h: Harness, user: int, key: str):
    """Play a game's whole lesson (``/game learn``) through the fake Discord as a learner who reads each step and
    presses what it asks, first trying a wrong move wherever there is one; returns the lesson message at its end.
    A shadow ``TutorialRun`` (the same steps, bots seeded alike) says which moves each step wants."""
    from bot.games import get_engine
    from bot.teach import TutorialRun

    fake = h.fake
    engine = get_engine(key)
    tutorial = engine.tutorial()
    assert tutorial is not None, f"{key} has no tutorial"
    rec = await h.slash(user, "game learn", {"game": key})
    await h.settle()
    lessons = [m for m in fake.dms(user) if "lesson" in m.content] or [rec.message]
    message = lessons[-1]
    shadow = TutorialRun.begin(engine)
    total = len(tutorial.steps)

    async def press(index: int):
        ids = [c for c in fake.find_components(message) if customid.kind_of(c.get("custom_id", "")) in ("tact", "tsel")]
        for component in ids:
            parts = customid.parse(component["custom_id"])
            if parts.kind == "tact" and parts.n == index:
                return await h.click(user, message, component["custom_id"])
            if parts.kind == "tsel" and any(o["value"] == str(index) for o in component["options"]):
                rec = await fake.select(user, message, component["custom_id"], [str(index)])
                await rec.response(timeout=10)
                return rec
        raise AssertionError(f"{key}: move {index} is not on the lesson's panel: {message.content}")

    for number, step in enumerate(tutorial.steps):
        message = fake.get_message(message.id)
        assert f"step {number + 1} of {total}" in message.content, message.content
        if step.expect is None:
            await h.click(user, message, fake.find_component(message, label="Next")["custom_id"])
            shadow.next()
        else:
            legal = shadow.legal()
            wrong = [a for a in legal if step.expect and a not in step.expect]
            if wrong:
                await press(legal.index(wrong[0]))
                message = fake.get_message(message.id)
                assert "❌" in message.content and f"step {number + 1} of {total}" in message.content, message.content
            right = (step.expect or legal)[0]
            await press(legal.index(right))
            assert shadow.answer(right).right
        await h.settle()
    message = fake.get_message(message.id)
    assert tutorial.outro in message.content, message.content
    return message
