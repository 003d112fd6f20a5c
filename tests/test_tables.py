"""The table service without Discord: lobby rules, turns, bots, races, deadlines, replay."""
import asyncio
import json
import random

import pytest

from bot.games import register
from bot.tables import MISSED_TURNS_LIMIT, TableError, TableService
from tests.dummy_game import ENGINE as DUMMY
from tests.pg import BACKENDS, open_storage

register(DUMMY)


class Clock:
    def __init__(self):
        self.now = 1_000_000.0

    def __call__(self):
        return self.now


@pytest.fixture(params=BACKENDS)
async def service(request, tmp_path):
    storage = await open_storage(request.param, request, tmp_path)
    seeds = iter(range(1, 10_000))
    clock = Clock()
    svc = TableService(storage, seed_source=lambda: next(seeds), clock=clock)
    svc.test_clock = clock
    yield svc
    await storage.close()


async def open_three(svc, channel=10, **opts):
    game = await svc.open(1, channel, "dummy", 100, "Ann", opts)
    await svc.join(game.id, 101, "Bob")
    await svc.join(game.id, 102, "Cid")
    return game


async def test_lobby_rules(service):
    game = await service.open(1, 10, "dummy", 100, "Ann", {"pile": "9"})
    assert game.options == {"pile": 9, "streak": 1, "_revision": 1}
    with pytest.raises(TableError, match="already open"):
        await service.open(1, 10, "dummy", 200, "Zed")
    with pytest.raises(TableError, match="already seated"):
        await service.join(game.id, 100, "Ann")
    with pytest.raises(TableError, match="needs at least 2"):
        await service.start(game.id, 100)
    for uid in (101, 102, 103):
        await service.join(game.id, uid, f"U{uid}")
    with pytest.raises(TableError, match="full"):
        await service.join(game.id, 104, "Late")
    with pytest.raises(TableError, match="Only the host"):
        await service.start(game.id, 101)
    with pytest.raises(TableError, match="between 3 and 30"):
        await service.open(1, 11, "dummy", 100, "Ann", {"pile": "99"})
    with pytest.raises(TableError, match="no game called"):
        await service.open(1, 11, "chess", 100, "Ann")


async def test_host_leaving_passes_the_host_and_last_leaver_closes(service):
    game = await service.open(1, 10, "dummy", 100, "Ann")
    await service.join(game.id, 101, "Bob")
    game, _ = await service.leave(game.id, 100)
    assert game.host_id == 101 and [s["name"] for s in game.seats] == ["Bob"]
    game, _ = await service.leave(game.id, 101)
    assert game.status == "ended"
    assert await service.in_channel(10) is None


async def test_turns_are_enforced_with_readable_errors(service):
    game = await open_three(service)
    outcome = await service.start(game.id, 100)
    assert outcome.changed_private == {0, 1, 2}
    with pytest.raises(TableError, match="not your turn"):
        await service.act(game.id, 101, {"type": "take", "n": 1})
    with pytest.raises(TableError, match="not playing"):
        await service.act(game.id, 999, {"type": "take", "n": 1})
    with pytest.raises(TableError, match="isn't allowed"):
        await service.act(game.id, 100, {"type": "take", "n": 5})
    outcome = await service.act(game.id, 100, {"type": "take", "n": 2})
    assert outcome.game.version == 1
    assert [e for e in outcome.events if "to" in e][0]["to"] == 1
    assert 1 in outcome.changed_private


async def test_stale_panel_and_racing_clicks_apply_once(service):
    game = await open_three(service, pile=20)
    await service.start(game.id, 100)
    # Five clicks on the same panel button (version 0, index 0) at once.
    results = await asyncio.gather(*[service.act(game.id, 100, version=0, index=0) for _ in range(5)],
                                   return_exceptions=True)
    assert sum(1 for r in results if not isinstance(r, Exception)) == 1
    assert all("out of date" in str(r) for r in results if isinstance(r, Exception))
    assert len(await service.storage.actions(game.id)) == 1


async def test_bots_play_their_seats_and_results_are_stored(service):
    game = await service.open(1, 10, "dummy", 100, "Ann", {"pile": 10})
    await service.add_bot(game.id, 100)
    await service.add_bot(game.id, 100)
    outcome = await service.start(game.id, 100)
    assert service.waiting_seats(outcome.game) == [0]
    while outcome.game.status == "running":
        outcome = await service.act(game.id, 100, {"type": "take", "n": 1})
    assert outcome.finished and outcome.results
    stats = await service.storage.user_stats(1, 100)
    assert stats[0]["played"] == 1
    log = await service.storage.actions(game.id)
    assert any(entry["user_id"] is None for entry in log)  # bot moves are logged too


async def test_replay_rebuilds_state_from_seed_and_log(service):
    game = await open_three(service, pile=12)
    await service.start(game.id, 100)
    for uid in (100, 101, 102, 100):
        await service.act(game.id, uid, {"type": "take", "n": 1})
    row, state, total = await service.replay(game.id)
    assert total == 4 and json.dumps(state, sort_keys=True) == json.dumps(row.state, sort_keys=True)
    _, start_state, _ = await service.replay(game.id, 0)
    assert start_state["pile"] == 12
    with pytest.raises(TableError, match="moves 0 to 4"):
        await service.replay(game.id, 9)
    lines = await service.public_log(game.id)
    assert [n for n, _ in lines] == [1, 2, 3, 4]
    assert all("SECRET" not in text for _, text in lines)


async def test_restart_resumes_from_storage(service, tmp_path):
    game = await open_three(service)
    await service.start(game.id, 100)
    await service.act(game.id, 100, {"type": "take", "n": 1})
    fresh = TableService(service.storage)  # a new process: empty cache
    again = await fresh.in_channel(10)
    assert again.version == 1 and again.state == (await service.get(game.id)).state
    await fresh.act(game.id, 101, {"type": "take", "n": 1})


async def test_deadline_reminder_then_bot_move_and_benching(service):
    game = await open_three(service, pile=30, turn_minutes="10")
    assert game.options == {"pile": 30, "streak": 1, "_turn_minutes": 10, "_revision": 1}
    await service.start(game.id, 100)
    clock = service.test_clock
    row = await service.storage.get_game(game.id)
    assert row.deadline_at == pytest.approx(clock.now + 600)
    clock.now += 460  # past the reminder (75%), before the deadline
    fired = await service.fire_timers()
    assert [k for k, _ in fired] == ["reminder"] and fired[0][1].missed == [0]
    assert await service.fire_timers() == []  # a reminder fires once
    # A restart between the reminder and the deadline: a new service on the same database.
    fresh = TableService(service.storage, clock=clock)
    clock.now += 200
    fired = await fresh.fire_timers()
    assert [k for k, _ in fired] == ["deadline"]
    outcome = fired[0][1]
    assert outcome.missed == [0] and outcome.game.version == 1
    # Miss enough turns in a row and the bot keeps the seat.
    benched = False
    for _ in range(3 * MISSED_TURNS_LIMIT + 3):
        clock.now += 700
        for kind, out in await fresh.fire_timers():
            benched = benched or bool(out.benched)
        if benched:
            break
    assert benched
    game = await fresh.get(game.id)
    assert any(s.get("away") for s in game.seats)
    away = next(i for i, s in enumerate(game.seats) if s.get("away"))
    await fresh.rejoin(10, game.seats[away]["user_id"])
    assert not (await fresh.get(game.id)).seats[away].get("away")


async def test_maintenance_and_allowed_channels(service):
    s = await service.storage.settings(1)
    s.maintenance = True
    await service.storage.save_settings(s)
    with pytest.raises(TableError, match="paused"):
        await service.open(1, 10, "dummy", 100, "Ann")
    s.maintenance, s.allowed_channels = False, [55]
    await service.storage.save_settings(s)
    with pytest.raises(TableError, match="can't be opened in this channel"):
        await service.open(1, 10, "dummy", 100, "Ann")
    await service.open(1, 55, "dummy", 100, "Ann")


async def test_the_host_chooses_what_happens_when_someone_leaves(service):
    with pytest.raises(TableError, match="either a bot takes the seat"):
        await service.open(1, 10, "dummy", 100, "Ann", {"on_leave": "explode"})
    game = await open_three(service, pile=30, on_leave="end")
    assert game.options["_on_leave"] == "end"
    await service.start(game.id, 100)
    outcome = await service.remove_player(game.id, 101)  # the server default would hand the seat to a bot
    assert outcome.game.status == "ended"
    game = await open_three(service, channel=11, pile=30)
    await service.set_option(11, 100, "on_leave", "BOT")
    s = await service.storage.settings(1)
    s.on_leave = "end"
    await service.storage.save_settings(s)
    await service.start(game.id, 100)
    outcome = await service.remove_player(game.id, 101)  # the host's choice beats the server's
    assert outcome.game.status == "running" and outcome.game.seats[1]["bot"]


async def test_leaving_a_running_game_hands_the_seat_to_a_bot_or_ends_it(service):
    game = await open_three(service, pile=30)
    await service.start(game.id, 100)
    outcome = await service.remove_player(game.id, 101)
    assert outcome.game.seats[1]["bot"] and outcome.game.status == "running"
    s = await service.storage.settings(1)
    s.on_leave = "end"
    await service.storage.save_settings(s)
    outcome = await service.remove_player(game.id, 102)
    assert outcome.game.status == "ended"


async def test_a_short_window_gets_its_own_deadline_without_reminder(service, monkeypatch):
    game = await open_three(service, pile=30, turn_minutes=10)
    monkeypatch.setattr(type(DUMMY), "window_seconds", lambda self, state, options: 20 if state["pile"] < 30 else None)
    await service.start(game.id, 100)
    row = await service.storage.get_game(game.id)
    assert row.reminder_at is not None  # the ordinary turn timer
    await service.act(game.id, 100, {"type": "take", "n": 1})
    row = await service.storage.get_game(game.id)
    assert row.deadline_at == pytest.approx(service.test_clock.now + 20) and row.reminder_at is None
    service.test_clock.now += 21
    fired = await service.fire_timers()
    assert [k for k, _ in fired] == ["deadline"] and fired[0][1].missed == []  # a window closing is no missed turn


async def test_a_closing_interrupt_window_is_no_missed_turn(service):
    """Masterminds asks every player in its interrupt window; letting it close is not
    missing a turn (no "time ran out" ping, no step towards being benched)."""
    game = await service.open(1, 20, "masterminds", 100, "Ann", {})
    await service.join(game.id, 101, "Bob")
    await service.start(game.id, 100)
    engine = service.engine(game)
    rng = random.Random(5)
    for _ in range(300):
        game = await service.get(game.id)
        if game.state["phase"] == "window":
            break
        seat = engine.to_act(game.state)[0]
        await service.act(game.id, game.seats[seat]["user_id"], engine.bot_action(game.state, seat, rng))
    assert game.state["phase"] == "window" and len(engine.to_act(game.state)) == 2
    service.test_clock.now = game.deadline_at + 1
    fired = await service.fire_timers()
    assert [kind for kind, _ in fired] == ["deadline"]
    assert fired[0][1].missed == [] and fired[0][1].benched == []
    game = await service.get(game.id)
    assert all(seat.get("missed", 0) == 0 for seat in game.seats)


async def test_the_channels_game_is_found_as_its_table_moves_and_ends(service):
    # in_channel finds a channel's game by a channel -> game hint, checked against the row: a hint left by a
    # table that moved into a thread, or ended, never answers for the channel.
    first = await open_three(service, channel=10)
    assert (await service.in_channel(10)).id == first.id
    await service.start(first.id, 100)
    await service.move_to_thread(first, 900)
    assert await service.in_channel(10) is None
    assert (await service.in_channel(900)).id == first.id
    second = await open_three(service, channel=10)
    assert (await service.in_channel(10)).id == second.id
    await service.end(second.id, "Ended by Ann.")
    assert await service.in_channel(10) is None
    third = await service.open(1, 10, "dummy", 101, "Bob")
    assert (await service.in_channel(10)).id == third.id
    assert (await service.in_channel(900)).id == first.id


async def test_start_up_recovery_loads_only_the_games_it_moves_on(service):
    # Games with a human to act and no turn timer need nothing at start-up: recovery judges them on the rows its
    # query read, and neither reads them again nor caches them (with 10,000 running games it pushed the games
    # being played out of the cache, and decoded every state twice on the event loop).
    for channel in (10, 11, 12):
        game = await open_three(service, channel=channel)
        await service.start(game.id, 100)
    fresh = TableService(service.storage, clock=service.test_clock)
    assert await fresh.recover() == []
    assert len(fresh.tables.cache) == 0
