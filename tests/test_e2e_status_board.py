"""``/game status`` posts the board again (issue 27, item 9): that board becomes the table's living board, so
it is retired like every other when the next board comes or the game ends: only the newest board has buttons."""
from __future__ import annotations

from tests.conftest import ADMIN, CHANNEL
from tests.e2e_helpers import open_and_start, play_boards, play_to_end, press

BOB = 101


async def test_a_status_board_loses_its_buttons_when_the_next_board_comes_and_when_the_game_ends(harness):
    h, fake = harness, harness.fake
    game = await open_and_start(h, "dummy", [ADMIN, BOB], options="pile=6")
    first = play_boards(fake, CHANNEL)[-1]
    rec = await h.slash(BOB, "game status")
    status = rec.message
    await h.settle()
    assert fake.find_components(status, type=2), "the status board has the board's buttons"
    assert play_boards(fake, CHANNEL) == [status]  # the board it replaces is retired
    assert not fake.find_components(fake.get_message(first.id), type=2)
    await press(h, ADMIN, 0, game)  # the turn passes: a new board
    await h.settle()
    assert play_boards(fake, CHANNEL)[-1] is not status
    assert not fake.find_components(fake.get_message(status.id), type=2)
    rec = await h.slash(BOB, "game status")  # and once more, then the game ends
    status = rec.message
    await h.settle()
    await play_to_end(h)
    assert not fake.find_components(fake.get_message(status.id), type=2)
    assert play_boards(fake, CHANNEL) == []
