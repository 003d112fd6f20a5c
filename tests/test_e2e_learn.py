"""Teaching newcomers through the fake Discord (issue 30): How to play on the lobby and the first boards, the
first-table offer, ``/game learn`` played by DM (and privately in the channel when DMs are closed) and carried on
after a restart, a "?" on every move panel, "Locked in" after a simultaneous choice, and the rules set a table
plays (issue 29) in the lobby, ``/game rules`` and the final scores. The Coin Pile test game teaches itself
(tests/dummy_game.py); Secret Vote (tests/faults/vote_game.py) is a simultaneous game that teaches nothing."""
from __future__ import annotations

import pytest

from bot.games import register
from bot.paths import rules_doc
from cogs import customid
from tests.conftest import ADMIN, CHANNEL
from tests.e2e_helpers import button_id, callback_text, latest_board, learn_through_discord, open_and_start
from tests.faults.vote_game import ENGINE as VOTE
from tests.test_teach_coverage import GAMES

BOB, CID = 101, 102
EPHEMERAL = 64


@pytest.fixture
def vote():
    """Secret Vote in the registry (the fault tests keep it there too)."""
    register(VOTE)


def labels(fake, message) -> list[str]:
    return [c.get("label") for c in fake.find_components(message, type=2)]


def lesson_in(fake, user):
    """The user's lesson message in their DMs (the latest one)."""
    lessons = [m for m in fake.dms(user) if "lesson" in m.content]
    assert lessons, [m.content for m in fake.dms(user)]
    return lessons[-1]


async def test_the_lobby_and_the_first_boards_offer_how_to_play(harness):
    h, fake = harness, harness.fake
    rec = await h.slash(ADMIN, "game new", {"game": "dummy"})
    lobby = rec.message
    assert "How to play" in labels(fake, lobby)
    howto = await h.click(BOB, lobby, button_id(fake, lobby, "How to play"))
    assert howto.callback["type"] == 5 and howto.message.ephemeral  # thinking first: a picture may be drawn
    text = howto.message.embed_texts
    assert "Be the one who takes the last coin" in text and "Winning" in text and "Reading the board" in text
    assert "/game learn game:dummy" in text
    assert "Learn by playing" in labels(fake, howto.message)
    assert not [m for m in fake.public_messages(CHANNEL) if "Be the one who takes" in m.content + m.embed_texts]

    await h.click(BOB, lobby, button_id(fake, lobby, "Join"))
    await h.click(ADMIN, lobby, button_id(fake, lobby, "Start"))
    await h.settle()
    board = latest_board(h)
    assert "How to play" in labels(fake, board)  # the first board
    game = await h.table()
    for _ in range(2):  # once every seat has moved, the boards have Play and Show my hand only
        seat = game.state["turn"]
        panel = await h.click(game.seats[seat]["user_id"], latest_board(h), button_id(fake, latest_board(h), "Play"))
        await h.click(game.seats[seat]["user_id"], panel.message, button_id(fake, panel.message, "Take 1"))
        await h.settle()
        game = await h.table()
    assert labels(fake, latest_board(h)) == ["Play", "Show my hand"]


async def test_a_player_at_their_first_table_of_a_game_is_offered_the_lesson_once(harness):
    h, fake = harness, harness.fake
    rec = await h.slash(ADMIN, "game new", {"game": "dummy"})
    await h.settle()
    offers = [m for m in rec.followups if "First time at" in m.content]
    assert len(offers) == 1 and offers[0].ephemeral  # the host's own first table
    lobby = rec.message
    join = await h.click(BOB, lobby, button_id(fake, lobby, "Join"))
    assert join.callback["type"] == 7  # the lobby itself, updated
    await h.settle()
    (offer,) = join.followups
    assert offer.ephemeral and "First time at **Coin Pile**" in offer.content and "about 1 minute" in offer.content
    assert labels(fake, offer) == ["How to play", "Learn by playing"]
    learn = await h.click(BOB, offer, button_id(fake, offer, "Learn by playing"))
    assert "is in your DMs" in callback_text(learn)
    await h.click(BOB, lobby, button_id(fake, lobby, "Leave"))
    join = await h.click(BOB, lobby, button_id(fake, lobby, "Join"))  # he has started the lesson: no offer
    await h.settle()
    assert join.followups == []
    rec = await h.slash(CID, "game join")
    assert "You joined" in callback_text(rec) and "First time at" in callback_text(rec)


async def test_game_learn_by_dm_from_the_first_step_to_you_are_ready_across_a_restart(harness):
    h, fake = harness, harness.fake
    rec = await h.slash(BOB, "game learn", {"game": "dummy"})
    assert rec.message.ephemeral and "lesson of **Coin Pile** is in your DMs" in callback_text(rec)
    lesson = lesson_in(fake, BOB)
    assert "step 1 of 3" in lesson.content and "The goal" in lesson.content and "Coin Pile in three steps" in lesson.content
    assert labels(fake, lesson) == ["Next", "Start over", "Quit"]
    next_button = button_id(fake, lesson, "Next")
    await h.click(BOB, lesson, next_button)
    await h.settle()
    lesson = fake.get_message(lesson.id)
    assert "step 2 of 3" in lesson.content and "Press **Take 1**" in lesson.content
    assert labels(fake, lesson) == ["Take 1", "Take 2", "What do these do?", "Start over", "Quit"]

    # "?" explains the moves on offer, privately; a wrong move is explained and changes nothing.
    help_rec = await h.click(BOB, lesson, button_id(fake, lesson, "What do these do?"))
    assert help_rec.message.ephemeral and "Take coins from the pile (7 left)" in help_rec.message.embed_texts
    wrong = await h.click(BOB, lesson, button_id(fake, lesson, "Take 2"))
    assert wrong.callback["type"] == 7
    lesson = fake.get_message(lesson.id)
    assert "❌ This step is about taking one coin" in lesson.content and "step 2 of 3" in lesson.content
    row = await h.bot.storage.open_tutorial(BOB, "dummy")
    assert row.run["index"] == 1 and row.run["state"]["pile"] == 7

    await h.click(BOB, lesson, button_id(fake, lesson, "Take 1"))
    await h.settle()
    lesson = fake.get_message(lesson.id)
    assert "step 3 of 3" in lesson.content and "✅ You took one coin; the bot took its turn." in lesson.content
    assert "• Bot takes 1" in lesson.content

    await h.restart()  # the lesson is stored: its buttons still work
    await h.click(BOB, lesson, button_id(fake, lesson, "Take 2"))
    await h.settle()
    lesson = fake.get_message(lesson.id)
    assert "You took the last coin and won" in lesson.content and "You're ready" in lesson.content
    assert "/game new" in lesson.content and labels(fake, lesson) == ["Start over"]
    assert await h.bot.storage.open_tutorial(BOB, "dummy") is None  # finished
    assert await h.bot.storage.knows_game(BOB, "dummy")


async def test_a_whole_lesson_through_discord_with_a_wrong_move_at_every_step_that_has_one(harness):
    end = await learn_through_discord(harness, BOB, "dummy")
    assert "You're ready" in end.content


@pytest.mark.parametrize("key", GAMES)
async def test_every_games_lesson_through_discord(harness, key):
    end = await learn_through_discord(harness, BOB, key)
    assert "/game new" in end.content and [name for name, _ in end.files][:1] == ["board.png"]


async def test_a_click_on_an_old_step_shows_where_the_learner_is_and_counts_once(harness):
    h, fake = harness, harness.fake
    await h.slash(BOB, "game learn", {"game": "dummy"})
    lesson = lesson_in(fake, BOB)
    next_button = button_id(fake, lesson, "Next")
    await h.click(BOB, lesson, next_button)
    await h.settle()
    take_one = button_id(fake, fake.get_message(lesson.id), "Take 1")
    await h.click(BOB, lesson, take_one)
    await h.settle()
    again = await fake.click(BOB, lesson, take_one, force=True)  # the button of a step already done
    await again.response()
    await h.settle()
    lesson = fake.get_message(lesson.id)
    assert "already done" in lesson.content and "step 3 of 3" in lesson.content
    assert (await h.bot.storage.open_tutorial(BOB, "dummy")).run["index"] == 2  # counted once


async def test_two_clicks_at_once_on_a_lesson_count_once(harness):
    import asyncio

    h, fake = harness, harness.fake
    await h.slash(BOB, "game learn", {"game": "dummy"})
    lesson = lesson_in(fake, BOB)
    await h.click(BOB, lesson, button_id(fake, lesson, "Next"))
    await h.settle()
    take_one = button_id(fake, fake.get_message(lesson.id), "Take 1")
    clicks = await asyncio.gather(*(fake.click(BOB, lesson, take_one) for _ in range(2)))
    for click in clicks:
        await click.response()
    await h.settle()
    row = await h.bot.storage.open_tutorial(BOB, "dummy")
    assert row.run["index"] == 2 and row.rev == 2 and row.run["state"]["pile"] == 2  # step 3's position, once
    assert "step 3 of 3" in fake.get_message(lesson.id).content
    assert h.bot.get_cog("Lessons")._locks == {}


async def test_game_learn_runs_privately_in_the_channel_when_dms_are_closed(harness):
    h, fake = harness, harness.fake
    fake.set_dms_closed(CID)
    rec = await h.slash(CID, "game learn", {"game": "dummy"})
    message = rec.message
    assert message.ephemeral and "DMs are closed" in message.content and "step 1 of 3" in message.content
    assert not [m for m in fake.public_messages(CHANNEL) if "lesson" in m.content]
    await h.click(CID, message, button_id(fake, message, "Next"))
    await h.settle()
    message = fake.get_message(message.id)
    assert message.ephemeral and "step 2 of 3" in message.content
    # /game learn again carries on where they were; Quit closes it.
    rec = await h.slash(CID, "game learn", {"game": "dummy"})
    assert "Carrying on where you left off (step 2)" in rec.message.content
    await h.click(CID, rec.message, button_id(fake, rec.message, "Quit"))
    await h.settle()
    assert "Lesson closed" in fake.get_message(rec.message.id).content and not fake.get_message(rec.message.id).components
    assert await h.bot.storage.open_tutorial(CID, "dummy") is None
    stale = await h.click(CID, message, button_id(fake, message, "Take 1"))
    assert "This lesson is over" in callback_text(stale)


async def test_a_lesson_draws_the_learners_board_and_hand(harness, monkeypatch):
    # Coin Pile has no renderer: the drawing is stood in for, to see the pictures reach the lesson message.
    h, fake = harness, harness.fake
    learn = type(h.bot.get_cog("Lessons"))  # the module discord.py loaded the cog from
    import sys

    module = sys.modules[learn.__module__]
    drawn = []

    async def draw(key, kind, view, *extra, **kwargs):
        drawn.append((kind, "private" in view))
        return b"\x89PNG fake " + kind.encode()

    class Renderer:
        render_board = render_private = object()

        @staticmethod
        def describe(view):
            return f"{view['pile']} coins left"

    monkeypatch.setattr(module, "render_async", draw)
    monkeypatch.setattr(module, "renderer", lambda key: Renderer)
    await h.slash(BOB, "game learn", {"game": "dummy"})
    lesson = lesson_in(fake, BOB)
    assert [name for name, _ in lesson.files] == ["board.png", "private.png"]
    assert drawn == [("board", False), ("private", True)]  # the board from the public view, the hand from his
    alts = [a.get("description", "") for a in lesson.attachments]
    assert "7 coins left" in alts[0] and "secret word" in alts[1]


async def test_every_move_panel_has_a_question_mark_that_explains_the_moves(harness):
    h, fake = harness, harness.fake
    game = await open_and_start(h, "dummy", [ADMIN, BOB])
    board = latest_board(h)
    user = game.seats[game.state["turn"]]["user_id"]
    panel = await h.click(user, board, button_id(fake, board, "Play"))
    assert labels(fake, panel.message) == ["Take 1", "Take 2", "What do these do?"]
    rec = await h.click(user, panel.message, button_id(fake, panel.message, "What do these do?"))
    assert rec.callback["type"] == 4 and rec.message.ephemeral
    text = rec.message.embed_texts
    assert "**Take 1** · **Take 2**" in text and "Take coins from the pile (7 left)" in text


async def test_a_game_without_help_says_so_on_its_question_mark(harness, vote):
    h, fake = harness, harness.fake
    await open_and_start(h, "vote", [ADMIN, BOB])
    panel = await h.click(ADMIN, latest_board(h), button_id(fake, latest_board(h), "Play"))
    rec = await h.click(ADMIN, panel.message, button_id(fake, panel.message, "What do these do?"))
    assert "no help for its moves yet" in rec.message.embed_texts
    assert "**Pick 1** · **Pick 2** · **Pick 3**" in rec.message.embed_texts


async def test_after_a_simultaneous_choice_the_panel_says_locked_in_not_that_it_is_not_your_turn(harness, vote):
    h, fake = harness, harness.fake
    await open_and_start(h, "vote", [ADMIN, BOB, CID])
    panel = await h.click(ADMIN, latest_board(h), button_id(fake, latest_board(h), "Play"))
    rec = await h.click(ADMIN, panel.message, button_id(fake, panel.message, "Pick 1"))
    text = callback_text(rec)
    assert "✅ Pick 1" in text and "Locked in; waiting for Bob and Cid." in text, text
    assert "not your turn" not in text
    rec = await h.slash(BOB, "game move", {"move": "Pick 2"})  # typed: the same words
    assert "Locked in; waiting for Cid." in callback_text(rec)
    await h.settle()
    # The last to choose ends the round: the turn passes and a new round asks them again.
    panel = await h.click(CID, latest_board(h), button_id(fake, latest_board(h), "Play"))
    rec = await h.click(CID, panel.message, button_id(fake, panel.message, "Pick 2"))
    assert "Locked in" not in callback_text(rec) and "Pick 1" in labels(fake, rec.message)
    await h.settle()


@pytest.mark.parametrize("rules", ["tuned", "rulebook"])
async def test_the_lobby_and_game_rules_say_which_rules_set_the_table_plays(harness, rules):
    h, fake = harness, harness.fake
    rec = await h.slash(ADMIN, "game new", {"game": "tower", "options": f"rules={rules}"})
    text = rec.message.embed_texts
    assert f"**{rules}**: the " in text and "/game option rules" in text
    assert "Options" not in text or "Rules: " not in text  # said once, in its own field
    rec = await h.slash(BOB, "game rules", {"game": "tower"})
    text = rec.message.embed_texts
    assert "**tuned** (the default)" in text and "**rulebook**" in text
    assert f"The table here (#1) plays the **{rules}** rules." in text
    assert {"How to play", "Full rules"} <= set(labels(fake, rec.message))


async def test_full_rules_sends_the_games_rules_doc_as_a_file(harness):
    h, fake = harness, harness.fake
    rec = await h.slash(BOB, "game rules", {"game": "tower"})
    full = await h.click(BOB, rec.message, button_id(fake, rec.message, "Full rules"))
    assert full.callback["type"] == 4 and full.message.ephemeral
    ((name, data),) = full.message.files
    assert name == "tower-rules.md" and data == rules_doc("tower").read_bytes()
    # Coin Pile has no rules doc: no Full rules button, and a forged one is answered in a sentence.
    rec = await h.slash(BOB, "game rules", {"game": "dummy"})
    assert "Full rules" not in labels(fake, rec.message)
    forged = await fake.click(BOB, rec.message, customid.encode_key("rules", "dummy"), force=True)
    await forged.response()
    assert "has no rules document" in callback_text(forged)


async def test_the_final_scores_say_the_rules_set(harness):
    from cogs.embeds import results_text

    h = harness
    rec = await h.slash(ADMIN, "game new", {"game": "tower", "options": "rules=rulebook"})
    assert rec.callback["type"] == 4
    game = await h.table()
    results = [{"seat": 0, "rank": 1, "won": True, "score": 9, "detail": ""}]
    assert results_text(game, results).startswith("**Final scores** · rules: rulebook\n")


async def test_how_to_play_shows_the_labelled_picture_drawn_once_from_the_example(harness, monkeypatch):
    # Coin Pile draws nothing: a renderer with render_howto and an example position are stood in for.
    import dataclasses
    import sys

    from tests.dummy_game import ENGINE, HOW_TO_PLAY

    h, fake = harness, harness.fake
    module = sys.modules[type(h.bot.get_cog("Lessons")).__module__]
    drawn = []

    async def draw(key, kind, view, *extra, **kwargs):
        drawn.append((kind, view["pile"], view.get("private")))
        return b"\x89PNG howto"

    class Renderer:
        render_howto = object()

    example = dataclasses.replace(HOW_TO_PLAY, example=lambda: ({**ENGINE.setup(["A", "B"], {"pile": 4}, 1)}, None))
    monkeypatch.setattr(type(ENGINE), "how_to_play", lambda self: example)
    monkeypatch.setattr(module, "render_async", draw)
    monkeypatch.setattr(module, "renderer", lambda key: Renderer)
    rec = await h.slash(ADMIN, "game new", {"game": "dummy"})
    for user in (ADMIN, BOB):
        howto = await h.click(user, rec.message, button_id(fake, rec.message, "How to play"))
        message = howto.message
        assert [name for name, _ in message.files] == ["howto.png"]
        assert message.embeds[0]["image"]["url"] == "attachment://howto.png"
        assert "example board with labels" in message.attachments[0]["description"]
    assert drawn == [("howto", 4, None)]  # the public view of the example, drawn once for everyone


def test_how_to_play_is_on_the_first_board_however_many_moves_bots_made_before_it():
    from bot.storage import GameRow
    from cogs.embeds import board_view

    seats = [{"user_id": 1, "name": "Ann"}, {"name": "Bot 1", "bot": True}, {"name": "Bot 2", "bot": True}]

    def board(version, posted):
        game = GameRow(id=900, guild_id=1, channel_id=2, game_key="dummy", status="running", host_id=1, options={},
                       seed=1, seats=seats, state={}, version=version, board_message_id=posted)
        return [item.label for item in board_view(game).children]

    assert board(7, None) == ["Play", "Show my hand", "How to play"]  # the bots' opening moves, then the first board
    assert board(2, 555) == ["Play", "Show my hand", "How to play"]  # still the first round
    assert board(7, 555) == ["Play", "Show my hand"]


async def test_a_stored_lesson_that_can_no_longer_go_on_is_said_so_and_learn_starts_anew(harness):
    h, fake = harness, harness.fake
    await h.slash(BOB, "game learn", {"game": "dummy"})
    lesson = lesson_in(fake, BOB)
    row = await h.bot.storage.open_tutorial(BOB, "dummy")
    await h.bot.storage.save_tutorial(row.id, 0, {"game": "dummy"}, False)  # e.g. stored by another version
    rec = await h.click(BOB, lesson, button_id(fake, lesson, "Next"))
    assert "can't go on" in callback_text(rec) and rec.message.ephemeral
    rec = await h.slash(BOB, "game learn", {"game": "dummy"})
    assert "step 1 of 3" in lesson_in(fake, BOB).content and lesson_in(fake, BOB).id != lesson.id
    assert (await h.bot.storage.open_tutorial(BOB, "dummy")).id != row.id
