"""A save whose COMMIT got no answer and could not be looked up at once (issue 27, item 3): the player is told the
bot can't tell yet, and once the database answers again the truth is found and shown (the board posted if it was
stored). The real PostgreSQL case that is found out at once: tests/faults/test_pg_outages.py."""
from __future__ import annotations

from bot.storage import CommitUnknownError
from bot.storage_pg import NotStoredError
from cogs import customid
from tests.conftest import ADMIN, CHANNEL
from tests.e2e_helpers import button_id, callback_text, latest_board, open_and_start, play_boards

BOB = 101


def in_doubt_once(monkeypatch, storage, *, stored: bool, lookups_failing: int = 2) -> list[str]:
    """The next game save is made (or not) but reported in doubt; looking it up fails ``lookups_failing`` times."""
    real = storage.save_game
    calls: list[str] = []

    async def save_game(game_id, expected_rev, fields, **kwargs):
        monkeypatch.setattr(storage, "save_game", real)
        rev = await real(game_id, expected_rev, fields, **kwargs) if stored else None

        async def settle():
            calls.append("settle")
            if len(calls) <= lookups_failing:
                raise CommitUnknownError(settle)
            if rev is None:
                raise NotStoredError("that was not saved")
            return rev

        raise CommitUnknownError(settle)

    monkeypatch.setattr(storage, "save_game", save_game)
    monkeypatch.setattr("bot.loops.Backoff.failed", lambda self: 0.01)
    return calls


async def a_move_in_doubt(h, monkeypatch, stored: bool):
    game = await open_and_start(h, "dummy", [ADMIN, BOB], options="pile=30")
    version = game.version
    board = latest_board(h)
    panel = await h.click(ADMIN, board, button_id(h.fake, board, "Play"))
    boards = latest_board(h).id
    calls = in_doubt_once(monkeypatch, h.bot.storage, stored=stored)
    rec = await h.click(ADMIN, panel.message, customid.encode("act", game.id, version, 0))
    told = callback_text(rec) + "".join(m.content for m in rec.followups)
    await h.fake.wait_for(lambda: len(calls) == 3, timeout=10)  # looked up until the database answered
    await h.settle()
    return game, version, boards, told


async def test_a_move_in_doubt_is_told_so_then_found_stored_and_its_board_posted(harness, monkeypatch):
    h = harness
    game, version, boards, told = await a_move_in_doubt(h, monkeypatch, stored=True)
    assert "can't tell yet" in told and "nothing changed" not in told, told
    assert (await h.bot.storage.get_game(game.id)).version == version + 1
    latest = play_boards(h.fake, CHANNEL)[-1]
    assert latest.id != boards and "Ann takes 1" in latest.content  # the board of the stored move is posted
    assert (await h.bot.tables.get(game.id)).version == version + 1  # and the bot's copy says so


async def test_a_move_in_doubt_found_not_stored_posts_nothing_and_play_goes_on(harness, monkeypatch):
    h = harness
    game, version, boards, told = await a_move_in_doubt(h, monkeypatch, stored=False)
    assert "can't tell yet" in told, told
    assert (await h.bot.storage.get_game(game.id)).version == version
    assert play_boards(h.fake, CHANNEL)[-1].id == boards  # no new board
    cached = await h.bot.tables.get(game.id)
    assert cached.version == version
    await h.bot.tables.act(game.id, ADMIN, {"type": "take", "n": 1})  # the same move, made again, is stored
    assert (await h.bot.storage.get_game(game.id)).version == version + 1
