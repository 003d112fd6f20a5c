"""Item 13: in a simultaneous phase, a click whose own choice is still legal is
applied even if other seats acted since its panel was drawn."""
from __future__ import annotations

import pytest

from bot.storage import Storage
from bot.tables import TableError
from tests.faults.helpers import make_service


@pytest.fixture
async def service(tmp_path):
    storage = await Storage(str(tmp_path / "panels.db")).open()
    yield make_service(storage)
    await storage.close()


async def test_five_players_clicking_panels_drawn_at_the_same_version_all_count(service):
    game = await service.open(1, 10, "vote", 100, "Ann")
    for uid in (101, 102, 103, 104):
        await service.join(game.id, uid, f"U{uid}")
    await service.start(game.id, 100)
    version = (await service.get(game.id)).version  # every panel was drawn now
    for n, uid in enumerate((100, 101, 102, 103, 104)):
        outcome = await service.act(game.id, uid, version=version, index=n % 3)
    assert outcome.game.state["round"] == 2 and outcome.game.state["totals"] == [1, 2, 3, 1, 2]
    # A choice that is no longer legal is still refused (the seat already picked this round... and
    # the round moved on, so the old panel's click is out of date).
    with pytest.raises(TableError, match="out of date"):
        await service.act(game.id, 100, version=version, index=0)


async def test_an_old_panel_after_a_restart_is_resolved_by_replay(service):
    game = await service.open(1, 10, "vote", 100, "Ann")
    await service.join(game.id, 101, "Bob")
    await service.join(game.id, 102, "Cid")
    await service.start(game.id, 100)
    await service.act(game.id, 100, version=0, index=0)
    fresh = make_service(service.storage)  # no history in memory
    outcome = await fresh.act(game.id, 101, version=0, index=2)
    assert outcome.game.state["picks"][1] == 3
