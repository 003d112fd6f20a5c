"""Items 5 and 6: a stuck or dying drawing worker must not stop the bot answering,
posting boards (as text if need be) or sending private views; "Show my hand" and
``/game hand`` answer Discord before drawing; private pictures go first."""
from __future__ import annotations

import asyncio
import threading

import pytest

import rendering
from bot.workers import ProcessWorkers, ThreadWorkers
from tests.conftest import ADMIN, CHANNEL
from tests.e2e_helpers import callback_text
from tests.faults import drawing

BOB = 101


@pytest.fixture
def fresh_worker(monkeypatch):
    """A drawing worker of its own for the test (and none left behind)."""
    rendering.shutdown()
    yield
    rendering.shutdown()


def in_process_worker() -> bool:
    return isinstance(rendering.render_executor(), ProcessWorkers)


# --- 5. the drawing worker has a timeout -------------------------------------------------
async def test_a_frozen_worker_is_abandoned_and_replaced(fresh_worker, monkeypatch):
    if not in_process_worker():
        pytest.skip("the drawing worker is a thread here (HEISTCORD_RENDER_WORKERS=0)")
    monkeypatch.setattr(rendering, "RENDER_TIMEOUT", 1.0)
    monkeypatch.setattr(rendering, "render", drawing.hang)
    async with asyncio.timeout(60):  # a guard: before the fix this waited for ever
        assert await rendering.render_async("tower", "board", {}) is None
    monkeypatch.undo()
    # A fresh worker draws the next picture.
    assert await rendering.render_async("no-such-game", "board", {}) is None
    assert isinstance(rendering._executor, ProcessWorkers) and rendering._executor.processes


async def test_a_worker_that_dies_twice_gives_no_picture_and_no_error(fresh_worker, monkeypatch):
    if not in_process_worker():
        pytest.skip("the drawing worker is a thread here (HEISTCORD_RENDER_WORKERS=0)")
    monkeypatch.setattr(rendering, "render", drawing.die)
    async with asyncio.timeout(60):
        assert await rendering.render_async("tower", "board", {}) is None


async def busy_worker(monkeypatch) -> tuple[list[str], threading.Event, asyncio.Task]:
    """One drawing worker, busy with "busy board" until the returned event is set; the
    names of the views drawn go to the returned list, in the order they are drawn."""
    started = threading.Event()
    release = threading.Event()
    order: list[str] = []

    def draw(key, kind, view, *extra):
        if not order:
            started.set()
            release.wait(30)
        order.append(view["name"])
        return None

    monkeypatch.setattr(rendering, "_executor", ThreadWorkers("render"))
    monkeypatch.setattr(rendering, "render", draw)
    monkeypatch.setattr(rendering, "RENDER_WORKERS", 1)
    first = asyncio.create_task(rendering.render_async("g", "board", {"name": "busy board"}))
    await asyncio.get_running_loop().run_in_executor(None, started.wait, 30)
    return order, release, first


async def drawing_order(monkeypatch, boards: int, last: str, urgent: bool) -> list[str]:
    """The order the worker draws in when, while it is busy with one board, ``boards`` more
    boards queue and then a private picture ``last`` is asked for."""
    order, release, first = await busy_worker(monkeypatch)
    queued = [asyncio.create_task(rendering.render_async("g", "board", {"name": f"board {i}"})) for i in range(boards)]
    await asyncio.sleep(0)
    private = asyncio.create_task(rendering.render_async("g", "private", {"name": last}, urgent=urgent))
    while rendering._gate.queued < boards + 1:
        await asyncio.sleep(0.001)
    release.set()
    await asyncio.gather(first, private, *queued)
    return order


async def test_a_private_picture_is_drawn_before_queued_boards(fresh_worker, monkeypatch):
    order = await drawing_order(monkeypatch, 3, "hand", urgent=True)
    assert order == ["busy board", "hand", "board 0", "board 1", "board 2"]


async def test_a_board_that_cannot_be_drawn_is_posted_as_text_and_dms_still_go(harness, fresh_worker, monkeypatch):
    h, fake = harness, harness.fake
    if not in_process_worker():
        pytest.skip("the drawing worker is a thread here (HEISTCORD_RENDER_WORKERS=0)")
    monkeypatch.setattr(rendering, "render", drawing.die_on_boards)
    rec = await h.slash(ADMIN, "game new", {"game": "dummy", "options": "pile=9"})
    lobby = rec.message
    await h.click(BOB, lobby, fake.find_component(lobby, label="Join")["custom_id"])
    await h.click(ADMIN, lobby, fake.find_component(lobby, label="Start")["custom_id"])
    await h.settle()
    boards = [m for m in fake.public_messages(CHANNEL) if "table #" in m.content and "Waiting for" in m.content]
    assert boards and not boards[-1].files  # the board went out, as text
    assert any("SECRET" in m.content for m in fake.dms(ADMIN)) and any("SECRET" in m.content for m in fake.dms(BOB))


async def test_private_views_do_not_wait_for_a_frozen_board(harness, fresh_worker, monkeypatch):
    h, fake = harness, harness.fake
    if not in_process_worker():
        pytest.skip("the drawing worker is a thread here (HEISTCORD_RENDER_WORKERS=0)")
    monkeypatch.setattr(rendering, "RENDER_TIMEOUT", 1.5)
    monkeypatch.setattr(rendering, "render", drawing.hang_boards)
    rec = await h.slash(ADMIN, "game new", {"game": "dummy", "options": "pile=9"})
    lobby = rec.message
    await h.click(BOB, lobby, fake.find_component(lobby, label="Join")["custom_id"])
    start = await h.click(ADMIN, lobby, fake.find_component(lobby, label="Start")["custom_id"])
    assert start.callback["type"] == 7
    await fake.wait_for(lambda: any("SECRET" in m.content for m in fake.dms(BOB)), timeout=30)
    await h.settle()
    assert any("Waiting for" in m.content for m in fake.public_messages(CHANNEL))  # the board, as text


# --- 6. "Show my hand" and /game hand answer within Discord's deadline whatever the drawing -----
@pytest.mark.parametrize("how", ["button", "command"])
async def test_show_my_hand_answers_at_once_while_the_worker_is_frozen(harness, fresh_worker, monkeypatch, how):
    h, fake = harness, harness.fake
    rec = await h.slash(ADMIN, "game new", {"game": "dummy", "options": "pile=9"})
    lobby = rec.message
    await h.click(BOB, lobby, fake.find_component(lobby, label="Join")["custom_id"])
    await h.click(ADMIN, lobby, fake.find_component(lobby, label="Start")["custom_id"])
    await h.settle()
    # From now on every picture takes longer than Discord waits for an answer.
    release = threading.Event()

    def slow(key, kind, view, *extra):
        release.wait(30)
        return None

    monkeypatch.setattr(rendering, "_executor", ThreadWorkers("render"))
    monkeypatch.setattr(rendering, "render", slow)
    board = [m for m in fake.public_messages(CHANNEL) if fake.find_components(m, type=2)][-1]
    if how == "button":
        hand = await fake.click(BOB, board, fake.find_component(board, label="Show my hand")["custom_id"])
    else:
        hand = await fake.slash(BOB, await h.where(), "game hand", {})
    try:
        response = await hand.response(timeout=fake.initial_response_deadline + 2)
    finally:
        release.set()
    assert response["type"] == 5 and response["data"]["flags"] & 64  # deferred, privately
    assert not fake.expired
    await hand.wait_done(timeout=30)
    assert "SECRET" in callback_text(hand)


async def test_a_dm_picture_waits_its_turn_so_boards_are_not_starved(fresh_worker, monkeypatch):
    """Only a picture a player is waiting for jumps the queue: the hand pictures DMed in the
    background (one per changed hand per move) would otherwise starve the boards under load."""
    order = await drawing_order(monkeypatch, 2, "dm hand", urgent=False)
    assert order == ["busy board", "board 0", "board 1", "dm hand"]


async def background_then_board(monkeypatch, wait: float) -> list[str]:
    """The order the worker draws in when, while it is busy, a hand picture is DMed in the
    background and ``wait`` seconds later a board is asked for."""
    order, release, first = await busy_worker(monkeypatch)
    dm = asyncio.create_task(rendering.render_async("g", "private", {"name": "dm hand"}, background=True))
    while rendering._gate.queued < 1:
        await asyncio.sleep(0.001)
    await asyncio.sleep(wait)
    board = asyncio.create_task(rendering.render_async("g", "board", {"name": "board"}))
    while rendering._gate.queued < 2:
        await asyncio.sleep(0.001)
    release.set()
    await asyncio.gather(first, dm, board)
    return order


async def test_a_board_goes_before_a_hand_picture_dmed_just_before_it(fresh_worker, monkeypatch):
    """A move asks for its DMs' pictures and its board together: the board everyone waits
    for is drawn first, unless the DM picture has already waited its grace."""
    monkeypatch.setattr(rendering, "BACKGROUND_GRACE", 5.0)
    assert await background_then_board(monkeypatch, 0) == ["busy board", "board", "dm hand"]


async def test_a_hand_picture_waits_for_boards_no_longer_than_its_grace(fresh_worker, monkeypatch):
    monkeypatch.setattr(rendering, "BACKGROUND_GRACE", 0.05)
    assert await background_then_board(monkeypatch, 0.2) == ["busy board", "dm hand", "board"]


async def pictures_asked_at_start(h, monkeypatch) -> list[tuple[str, bool, bool]]:
    """Spy on the pictures the cogs ask for, ``(kind, urgent, background)``, and start a
    two-player game (the spy stays on: later pictures are added to the same list)."""
    from cogs import boards, embeds

    asked: list[tuple[str, bool, bool]] = []

    async def spy(key, kind, view, *extra, urgent=False, background=False):
        asked.append((kind, urgent, background))
        return None

    monkeypatch.setattr(embeds, "render_async", spy)
    monkeypatch.setattr(boards, "render_async", spy)
    fake = h.fake
    rec = await h.slash(ADMIN, "game new", {"game": "dummy", "options": "pile=9"})
    await h.click(BOB, rec.message, fake.find_component(rec.message, label="Join")["custom_id"])
    await h.click(ADMIN, rec.message, fake.find_component(rec.message, label="Start")["custom_id"])
    await h.settle()
    return asked


async def test_dm_pictures_sent_in_the_background_are_asked_as_background(harness, monkeypatch):
    asked = await pictures_asked_at_start(harness, monkeypatch)
    assert [bg for kind, _, bg in asked if kind == "private"] and all(bg for kind, _, bg in asked if kind == "private")
    assert not any(bg for kind, _, bg in asked if kind == "board")


async def test_only_show_my_hand_draws_urgently(harness, monkeypatch):
    h = harness
    asked = await pictures_asked_at_start(h, monkeypatch)
    dms = [urgent for kind, urgent, _ in asked if kind == "private"]
    assert dms and not any(dms)  # the DMs sent when the game started
    asked.clear()
    await h.slash(BOB, "game hand")
    assert any(kind == "private" and urgent for kind, urgent, _ in asked)
