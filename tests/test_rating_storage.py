"""The ladders in the database, on SQLite and PostgreSQL: rated in the transaction that records a game's
results, rebuilt from the results to exactly the incremental ratings, games stored before the ratings rated
at the first start, unrated games and seasons, and a failure to rate that never refuses a result."""
import asyncio

import pytest

import bot.rating_store
import bot.storage
import bot.storage_pg
import bot.storage_ratings
import bot.storage_schema
from bot import ratings
from bot.games import register
from bot.tables import TableService
from tests.dummy_game import ENGINE as DUMMY
from tests.pg import BACKENDS, open_storage

register(DUMMY)
GUILD = 1


class Clock:
    def __init__(self):
        self.now = 1_000_000.0

    def __call__(self):
        return self.now


def service_on(storage):
    seeds = iter(range(1, 10_000))
    return TableService(storage, seed_source=lambda: next(seeds), clock=Clock())


@pytest.fixture(params=BACKENDS)
async def service(request, tmp_path):
    storage = await open_storage(request.param, request, tmp_path)
    svc = service_on(storage)
    svc.backend = request.param
    yield svc
    await svc.storage.close()


async def play(svc, users, *, bots=(), channel=10, guild=GUILD, pile=7, leave=None):
    """A game of Coin Pile to its end: ``users`` take turns with the bots of ``bots`` (levels), each human
    playing the bot's own move; ``leave`` leaves after its first move. Returns the finished game."""
    game = await svc.open(guild, channel, "dummy", users[0], f"P{users[0]}", {"pile": pile})
    for uid in users[1:]:
        await svc.join(game.id, uid, f"P{uid}")
    for level in bots:
        await svc.add_bot(game.id, users[0], level)
    await svc.start(game.id, users[0])
    moved = set()
    while game.status == "running":
        seat = DUMMY.to_act(game.state)[0]
        uid = game.seats[seat]["user_id"]
        if uid == leave and uid in moved:
            await svc.remove_player(game.id, uid)
            continue
        action = DUMMY.bot_action(game.state, seat, None)
        await svc.act(game.id, uid, action)
        moved.add(uid)
    return game


async def test_a_finished_game_is_rated_in_the_transaction_that_records_its_results(service):
    game = await play(service, [100, 101, 102])
    status, season, changes = await service.storage.game_rating(game.id)
    assert status == ratings.RATED and season == 1 and [c[0] for c in changes] == [0, 1, 2]
    winner = next(r["seat"] for r in DUMMY.scores(game.state) if r["won"])
    ladder = dict(await service.storage.ladder(GUILD, "dummy", 1))
    assert set(ladder) == {"user:100", "user:101", "user:102"}
    assert ladder[f"user:{100 + winner}"].rating.mu > 25 and ladder[f"user:{100 + winner}"].wins == 1
    assert all(s.games == 1 and s.provisional for s in ladder.values())
    before = {c[1]: ratings.Rating(c[2], c[3]) for c in changes}
    assert all(r == ratings.DEFAULT for r in before.values())
    history = await service.storage.rating_history(GUILD, "dummy", 1, f"user:{100 + winner}")
    assert [(g, b) for g, b, _ in history] == [(game.id, ratings.DEFAULT)]


async def test_a_rebuild_from_the_results_equals_the_incremental_ratings(service):
    storage = service.storage
    # Several ladders and every rule: bots of two levels (one seated twice), a tie-free pile game per table size,
    # a player who leaves (their seat then played by a bot), a game of bots only, another server, a second season.
    await play(service, [100, 101, 102])
    await play(service, [100, 101], bots=["normal", "easy"], pile=11)
    await play(service, [101], bots=["normal", "normal", "easy"], pile=9)
    await play(service, [100, 102, 103], leave=103, pile=12)
    await play(service, [103, 100], pile=8)
    await play(service, [100, 101], guild=2, channel=20)
    solo = await service.open(GUILD, 10, "dummy", 100, "P100", {"pile": 5})
    await service.add_bot(solo.id, 100, "easy")
    await service.add_bot(solo.id, 100, "normal")
    await service.leave(solo.id, 100)  # only bots left in the lobby: it closes unplayed, never rated
    assert await storage.start_season(GUILD) == 2
    await play(service, [100, 101, 102], bots=["easy"], pile=10)
    await play(service, [102, 100], bots=["normal"], pile=13)
    incremental = await storage.all_ratings()
    statuses = sorted(row[-1] for row in incremental if row[0] == "game")
    assert statuses.count(ratings.RATED) == 8 and len(statuses) == 8
    assert len({(row[1], row[2], row[3]) for row in incremental if row[0] == "rating"}) == 3  # three ladders
    assert await storage.rebuild_ratings() == (3, 8)
    assert await storage.all_ratings() == incremental


async def test_a_bot_only_table_is_not_rated_and_a_departed_players_seat_is_left_out(service):
    left = await play(service, [100, 101, 102], leave=102, pile=12)
    status, _, changes = await service.storage.game_rating(left.id)
    assert status == ratings.RATED and [c[1] for c in changes] == ["user:100", "user:101"]
    alone = await play(service, [100], bots=["easy", "normal"], leave=100, pile=9)
    status, _, changes = await service.storage.game_rating(alone.id)
    assert status == ratings.NO_HUMANS and changes == []


async def test_unrating_a_game_recomputes_its_ladder_without_it_and_undo_puts_it_back(service):
    storage = service.storage
    first = await play(service, [100, 101], pile=7)
    await play(service, [100, 101], pile=8)
    with_both = await storage.all_ratings()
    assert await storage.unrate_game(first.id) == (GUILD, "dummy", 1)
    status, _, changes = await storage.game_rating(first.id)
    assert status == ratings.UNRATED and changes == []
    ladder = dict(await storage.ladder(GUILD, "dummy", 1))
    assert {s.games for s in ladder.values()} == {1}
    # The same as a ladder that only ever had the second game.
    only = ratings.Ladder("dummy")
    games = await storage._read_ratings(bot.rating_store.load_games([first.id + 1]))
    only.take(games[first.id + 1])
    assert {p: s.rating for p, s in ladder.items()} == {p: s.rating for p, s in only.standings.items()}
    unrated = await storage.all_ratings()
    assert await storage.rebuild_ratings() == (1, 1) and await storage.all_ratings() == unrated  # it stays off
    await storage.unrate_game(first.id, undo=True)
    assert await storage.all_ratings() == with_both


async def test_a_new_season_starts_fresh_ladders_and_keeps_the_old_ones(service):
    storage = service.storage
    await play(service, [100, 101])
    old = await storage.ladder(GUILD, "dummy", 1)
    assert await storage.current_season(GUILD) == 1 and await storage.start_season(GUILD, now=5.0) == 2
    assert await storage.current_season(GUILD) == 2 and await storage.current_season(2) == 1
    assert await storage.ladder(GUILD, "dummy", 2) == []
    game = await play(service, [100, 101])
    assert (await storage.game_rating(game.id))[1] == 2
    assert await storage.ladder(GUILD, "dummy", 1) == old
    assert {s.games for _, s in await storage.ladder(GUILD, "dummy", 2)} == {1}
    assert await storage.rating_seasons(GUILD) == [(1, None), (2, 5.0)]


async def test_a_failure_to_rate_never_refuses_the_results_and_the_game_is_rated_at_the_next_start(
        service, monkeypatch, caplog, request, tmp_path):
    def broken(*args, **kwargs):
        raise RuntimeError("a bug in the ratings")

    monkeypatch.setattr(bot.rating_store.Ladder, "take", broken)
    game = await play(service, [100, 101])
    assert game.status == "finished" and len(await service.storage.user_stats(GUILD, 100)) == 1
    assert (await service.storage.game_rating(game.id))[0] == ratings.PENDING
    assert "rating it failed" in caplog.text
    monkeypatch.undo()
    assert await service.storage.catch_up_ratings() == 1  # what opening the storage does
    status, _, changes = await service.storage.game_rating(game.id)
    assert status == ratings.RATED and len(changes) == 2


@pytest.mark.parametrize("backend", BACKENDS)
async def test_results_stored_before_the_ratings_existed_are_rated_when_the_storage_first_opens(
        backend, request, tmp_path, monkeypatch):
    if True:
        # The database as it was before the ratings' migration: their tables missing, results recorded without them.
        # (found by its text: the lead renumbers migrations on merge)
        before = next(i for i, sql in enumerate(bot.storage.MIGRATIONS) if "CREATE TABLE rating_seasons" in sql)
        with monkeypatch.context() as old:
            old.setattr(bot.storage_schema, "MIGRATIONS", bot.storage_schema.MIGRATIONS[:before])
            old.setattr(bot.storage_schema, "PG_MIGRATIONS", bot.storage_schema.PG_MIGRATIONS[:before])

            def nothing(*args):
                return
                yield

            old.setattr(bot.rating_store, "record_game", nothing)
            old.setattr(bot.storage_ratings.Ratings, "catch_up_ratings", lambda self: asyncio.sleep(0, 0))
            storage = await open_storage(backend, request, tmp_path, name="old.db")
            assert await storage.schema_version() == before
            svc = service_on(storage)
            games = [await play(svc, [100, 101], pile=7), await play(svc, [101, 102, 100], bots=["easy"], pile=9),
                     await play(svc, [100, 102], pile=8)]
            url = getattr(storage, "url", None)
            await storage.close()
        storage = bot.storage_pg.PgStorage(url) if url else bot.storage.Storage(str(tmp_path / "old.db"))
        await storage.open()  # migrates to 7, then rates the games waiting on their ladders
        try:
            assert await storage.schema_version() == len(bot.storage.MIGRATIONS)
            assert [(await storage.game_rating(g.id))[0] for g in games] == [ratings.RATED] * 3
            migrated = await storage.all_ratings()
            assert [row[2] for row in migrated if row[0] == "game"] == [g.id for g in games]  # in the order played
            await storage.rebuild_ratings()
            assert await storage.all_ratings() == migrated
            later = await play(service_on(storage), [100, 101], pile=10)  # a new game goes after them
            assert (await storage.game_rating(later.id))[0] == ratings.RATED
            assert dict(await storage.ladder(1, "dummy", 1))["user:100"].games == 4
        finally:
            await storage.close()


async def test_two_processes_finishing_games_at_once_rate_them_one_after_the_other(pg_server):
    """PostgreSQL: a player's two games finishing at the same moment in two processes. Each rating reads the
    player's standing after the other's (the server's ladders are locked until the commit), so no update is
    lost and a rebuild gives the same."""
    url = await pg_server.fresh_database()
    a, b = [service_on(await bot.storage_pg.PgStorage(url).open()) for _ in range(2)]
    try:
        for attempt in range(3):  # (three pairs of games, to give the two commits every chance to overlap)
            ga = await a.open(GUILD, 10, "dummy", 100, "P100", {"pile": 4})
            gb = await b.open(GUILD, 11, "dummy", 102, "P102", {"pile": 4})
            await a.join(ga.id, 101, "P101")
            await b.join(gb.id, 100, "P100")
            for svc, game, users in ((a, ga, [100, 101]), (b, gb, [102, 100])):
                await svc.start(game.id, users[0])
                await svc.act(game.id, users[0], {"type": "take", "n": 2})  # 2 coins left: the next take 2 wins
            await asyncio.gather(a.act(ga.id, 101, {"type": "take", "n": 2}), b.act(gb.id, 100, {"type": "take", "n": 2}))
        history = await a.storage.rating_history(GUILD, "dummy", 1, "user:100")
        assert len(history) == 6
        assert all(earlier[2] == later[1] for earlier, later in zip(history, history[1:]))  # nothing lost
        incremental = await a.storage.all_ratings()
        await b.storage.rebuild_ratings()
        assert await a.storage.all_ratings() == incremental
    finally:
        await a.storage.close()
        await b.storage.close()


def test_the_ratings_benchmark_runs():
    import subprocess
    import sys

    run = subprocess.run([sys.executable, "-m", "tests.bench_ratings", "--games", "4", "--ladder", "2"],
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "| the last move | on |" in run.stdout and "rated games on the ladder: 4" in run.stdout, run.stdout
    assert "the ladder of 3 games rebuilt" in run.stdout, run.stdout


async def test_a_move_rates_a_few_waiting_games_at_most_and_leaves_a_backlog_to_the_next_start(service, monkeypatch):
    monkeypatch.setattr(bot.rating_store, "IN_A_MOVE", 2)
    monkeypatch.setattr(bot.rating_store.Ladder, "take", lambda *a, **k: 1 / 0)  # every rating fails: games wait
    games = [await play(service, [100, 101], pile=p) for p in (7, 8)]
    monkeypatch.undo()
    monkeypatch.setattr(bot.rating_store, "IN_A_MOVE", 2)
    games.append(await play(service, [100, 101], pile=9))  # three waiting now: more than a move rates
    assert [(await service.storage.game_rating(g.id))[0] for g in games] == [ratings.PENDING] * 3
    await service.storage.catch_up_ratings()
    assert [(await service.storage.game_rating(g.id))[0] for g in games] == [ratings.RATED] * 3
    games.append(await play(service, [100, 101], pile=10))  # and the ladder goes on from there
    history = await service.storage.rating_history(GUILD, "dummy", 1, "user:100")
    assert [g for g, _, _ in history] == [g.id for g in games]


async def test_heistcord_ratings_rebuild_finds_the_ratings_already_what_the_results_give(service, tmp_path):
    import os
    import subprocess
    import sys

    await play(service, [100, 101, 102], bots=["easy"])
    await play(service, [102, 100], pile=9)
    url = getattr(service.storage, "url", None)
    env = {**os.environ, "HEISTCORD_DATABASE_URL": url or "", "HEISTCORD_DB": str(tmp_path / "t.db"),
           "PYTHONPATH": os.path.dirname(os.path.dirname(os.path.abspath(__file__)))}
    before = await service.storage.all_ratings()
    await service.storage.close()  # (a SQLite file is refused while another process holds it)
    try:
        run = subprocess.run([sys.executable, "-m", "bot", "ratings", "rebuild"], cwd=tmp_path, env=env,
                             capture_output=True, text=True, timeout=120)
        assert run.returncode == 0, run.stdout + run.stderr
        assert "Rebuilt 1 ladder from" in run.stdout and "2 games rated" in run.stdout, run.stdout
        assert "Nothing changed: the ratings were already what the results give." in run.stdout, run.stdout
    finally:
        await service.storage.open()
    assert await service.storage.all_ratings() == before
    bad = subprocess.run([sys.executable, "-m", "bot", "ratings"], cwd=tmp_path, env=env, capture_output=True,
                         text=True, timeout=60)
    assert bad.returncode == 2 and "usage: heistcord ratings rebuild" in bad.stderr
