"""Games stored by the previous version of the bot (before the rules option and this version's rule changes):
running ones carry on under today's engines; finished ones are kept, and what can't be rebuilt move by move says
so instead of showing a different game. ``tests/data/previous_version_games.json`` was made by the code at commit
52585a6: seeded normal-bot games, mid-game states (what a database holds at an upgrade) and one whole game per
title (seed, options and log, final state and scores)."""
import copy
import json
import random
import sqlite3
from pathlib import Path

import pytest

from bot.games import get_engine, registry
from bot.storage import Storage
from bot.tables import REVISION, TableError, TableService, game_revision, replays_here

STORED = json.loads((Path(__file__).parent / "data" / "previous_version_games.json").read_text())["games"]
HOST = 100


@pytest.mark.parametrize("key", sorted(STORED))
def test_a_game_running_at_the_upgrade_carries_on_to_its_end(key):
    engine = get_engine(key)
    for stored in STORED[key]["running"]:
        state = copy.deepcopy(stored)
        rng = random.Random(1)
        for _ in range(20_000):
            if engine.is_terminal(state):
                break
            for seat in engine.to_act(state):
                engine.view(state, seat)
                for action in engine.legal_actions(state, seat):
                    engine.describe_action(state, seat, action)
            engine.view(state, None)
            engine.status_line(state)
            seat = engine.to_act(state)[0]
            engine.apply(state, seat, engine.bot_action(state, seat, rng))
        assert engine.is_terminal(state)
        assert len(engine.scores(state)) == len(stored["names"])


@pytest.mark.parametrize("key", sorted(STORED))
def test_a_game_whose_stored_log_replays_differently_is_on_a_later_revision(key):
    """A stored game's log replayed by today's engine either reproduces its stored state exactly (the engine may
    stay on revision 1) or doesn't (the rules option in the state, a rule changed): then the engine's revision is
    above 1, so nothing rebuilds the old game with today's rules."""
    engine = get_engine(key)
    finished = STORED[key]["finished"]
    state = engine.setup(finished["names"], finished["options"], finished["seed"])
    try:
        for seat, action in finished["log"]:
            engine.apply(state, seat, action)
        same = json.loads(json.dumps(state)) == finished["final"]
    except Exception:  # noqa: BLE001 - a log today's rules refuse is a different game too
        same = False
    assert engine.meta.revision == 1 if same else engine.meta.revision > 1


async def a_finished_game_of_the_previous_version(tmp_path) -> tuple[Storage, TableService, int]:
    """A finished Tower game stored as the previous version stored it: no revision among its options."""
    path = str(tmp_path / "heistcord.sqlite3")
    storage = await Storage(path).open()
    svc = TableService(storage, seed_source=iter(range(7, 999)).__next__)
    game = await svc.open(1, 10, "tower", HOST, "Ann", {})
    await svc.add_bot(game.id, HOST)
    await svc.start(game.id, HOST)
    while (row := await svc.get(game.id)).status == "running":
        engine = svc.engine(row)
        seat = next(s for s in engine.to_act(row.state) if row.seats[s].get("user_id") == HOST)
        await svc.act(game.id, HOST, engine.legal_actions(row.state, seat)[0])
    assert game_revision(row) == registry()["tower"].meta.revision and replays_here(row)
    await storage.close()
    with sqlite3.connect(path) as db:
        options = json.loads(db.execute("SELECT options FROM games WHERE id = ?", (game.id,)).fetchone()[0])
        del options[REVISION]
        db.execute("UPDATE games SET options = ? WHERE id = ?", (json.dumps(options), game.id))
    storage = await Storage(path).open()
    return storage, TableService(storage), game.id


async def test_a_game_of_an_earlier_revision_is_not_rebuilt_with_todays_rules(tmp_path):
    storage, svc, game_id = await a_finished_game_of_the_previous_version(tmp_path)
    try:
        row = await svc.get(game_id)
        assert game_revision(row) == 1 and not replays_here(row)
        for rebuild in (svc.replay(game_id), svc.replay_turns(game_id), svc.public_log(game_id)):
            with pytest.raises(TableError, match="earlier version of the game's rules"):
                await rebuild
        assert len(await storage.actions(game_id)) == row.version  # its log and results are kept
    finally:
        await storage.close()


async def test_db_copy_copies_a_game_of_an_earlier_revision_without_replaying_it(pg_server, tmp_path):
    from bot.dbcopy import copy_database

    storage, _, game_id = await a_finished_game_of_the_previous_version(tmp_path)
    await storage.close()
    with sqlite3.connect(tmp_path / "heistcord.sqlite3") as db:  # its state as older rules left it
        state = json.loads(db.execute("SELECT state FROM games WHERE id = ?", (game_id,)).fetchone()[0])
        state["options"].pop("rules")
        db.execute("UPDATE games SET state = ? WHERE id = ?", (json.dumps(state), game_id))
    report = await copy_database(str(tmp_path / "heistcord.sqlite3"), await pg_server.fresh_database())
    assert report.earlier == 1 and report.replayed == 0
    assert "1 games played under an earlier version of their rules" in report.summary("a", "b")
