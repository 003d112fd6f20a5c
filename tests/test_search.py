"""Bot levels and the search bot (issue 18): samplers, the shuffle test, determinism,
the process pool, the table plumbing and the server setting."""
from __future__ import annotations

import copy
import importlib.util
import json
import random

import pytest

from bot import search
from bot.games import get_engine, register, shipped
from bot.search import pool as search_pool
from bot.storage import Storage
from bot.tables import TableError, TableService
from tests.dummy_game import ENGINE as DUMMY

register(DUMMY)
GAMES = sorted(shipped())
SMALL = search.Budget(determinizations=3, candidates=3, moves=400, min_determinizations=2)
# Games whose playouts are long (Masterminds: ~150 moves at 3 players) need more moves to search at all.
SMALL_FOR = {"masterminds": search.Budget(determinizations=3, candidates=3, moves=2000, min_determinizations=2)}


def positions(key: str, seeds=range(2), players=None, every=1):
    """(state, seat) at decisions with a choice along seeded normal-bot games."""
    engine = get_engine(key)
    for seed in seeds:
        n = players or min(max(3, engine.meta.min_players), engine.meta.max_players)
        state = engine.setup([f"P{i}" for i in range(n)], {}, seed)
        rng = random.Random(seed)
        step = 0
        while not engine.is_terminal(state):
            seat = engine.to_act(state)[0]
            if len(engine.legal_actions(state, seat)) > 1 and step % every == 0:
                yield copy.deepcopy(state), seat
            step += 1
            engine.apply(state, seat, engine.bot_action(state, seat, rng))


def searchable(key: str) -> bool:
    return importlib.util.find_spec(f"bot.games.{key}.sampler") is not None


SAMPLED = [k for k in GAMES if searchable(k)]


# Every sampled game with its default options, plus Tower's option sets (only where the game has the option).
SAMPLED_OPTIONS = [(key, options) for key in SAMPLED
                   for options in ({}, {"special_set": "B"}, {"master_thief": True})
                   if set(options) <= {o.key for o in get_engine(key).meta.options}]


@pytest.mark.parametrize(("key", "options"), SAMPLED_OPTIONS)
def test_a_sampled_state_looks_the_same_to_the_seat(key, options):
    """The sampler's state gives the seat exactly its view and its legal actions, whatever
    else it dealt; and across samples the hidden cards do change."""
    engine = get_engine(key)
    differs = 0
    checked = 0
    for seed in range(3):
        n = min(max([2, 3, 5][seed], engine.meta.min_players), engine.meta.max_players)
        state = engine.setup([f"P{i}" for i in range(n)], options, seed)
        rng = random.Random(seed)
        while not engine.is_terminal(state):
            seat = engine.to_act(state)[0]
            view = engine.view(state, seat)
            sample = engine.sample_state(json.loads(json.dumps(view)), seat, random.Random(checked))
            assert sample is not None
            assert engine.view(sample, seat) == view
            assert engine.legal_actions(sample, seat) == engine.legal_actions(state, seat)
            json.dumps(sample)  # plain JSON like any state
            differs += sample != state
            checked += 1
            engine.apply(state, seat, engine.bot_action(state, seat, rng))
    assert checked > 50 and differs > checked // 2


def shuffled_hidden(key: str, state: dict, seat: int, rng: random.Random) -> dict:
    """The same moment with its hidden information dealt anew: another true state the
    seat cannot tell apart (checked), built by the game's sampler where there is one;
    otherwise the hidden deck orders permuted and the game's RNG reseeded."""
    engine = get_engine(key)
    if key in SAMPLED:
        other = engine.sample_state(engine.view(state, seat), seat, rng)
    else:
        other = copy.deepcopy(state)
        other["rng"] = rng.getrandbits(64)
        for name, value in other.items():
            if "deck" in name and isinstance(value, list):
                rng.shuffle(value)
    assert engine.view(other, seat) == engine.view(state, seat)
    return other


@pytest.mark.parametrize("key", GAMES)
def test_a_hard_decision_depends_on_the_view_only(key, monkeypatch):
    """Same view -> same action, whatever the true hidden state holds (for every game)."""
    monkeypatch.setitem(search.BUDGETS, key, SMALL)
    engine = get_engine(key)
    rng = random.Random(5)
    changed = checked = 0
    for state, seat in list(positions(key, seeds=[3], every=7))[:6]:
        other = shuffled_hidden(key, state, seat, rng)
        changed += other != state
        mine = search.hard_action(engine, state, seat, random.Random(11))
        theirs = search.hard_action(engine, other, seat, random.Random(11))
        assert mine == theirs
        checked += 1
    assert checked >= 3 and changed >= 1


@pytest.mark.parametrize("key", SAMPLED)
def test_the_search_is_deterministic_and_sometimes_overrules_the_heuristic(key, monkeypatch):
    monkeypatch.setitem(search.BUDGETS, key, SMALL_FOR.get(key, SMALL))
    engine = get_engine(key)
    overruled = 0
    for state, seat in list(positions(key, seeds=[1], every=3))[:10]:
        first = search.hard_action(engine, state, seat, random.Random(2))
        assert first in engine.legal_actions(state, seat)
        assert search.hard_action(engine, copy.deepcopy(state), seat, random.Random(2)) == first
        overruled += first != engine.bot_action(state, seat, random.Random(2))
    assert overruled >= 1  # it is not just the heuristic under another name


def test_without_a_sampler_hard_plays_like_normal(monkeypatch):
    engine = get_engine("tower")
    monkeypatch.setattr(type(engine), "sample_state", lambda self, view, seat, rng: None)
    for state, seat in list(positions("tower", seeds=[0], every=5))[:4]:
        rng_a, rng_b = random.Random(3), random.Random(3)
        rng_b.getrandbits(64)  # hard draws its search seed first, then falls back
        assert search.hard_action(engine, state, seat, rng_a) == engine.bot_action(state, seat, rng_b)


def test_easy_makes_mistakes_normal_does_not():
    engine = get_engine("tower")
    spots = list(positions("tower", seeds=[0, 1]))
    differ = sum(search.easy_action(engine, s, seat, random.Random(i)) != engine.bot_action(s, seat, random.Random(i))
                 for i, (s, seat) in enumerate(spots))
    assert 0 < differ < len(spots)
    assert all(search.level_action(engine, s, seat, random.Random(i), "normal")
               == engine.bot_action(s, seat, random.Random(i)) for i, (s, seat) in enumerate(spots))


async def test_the_pool_answers_what_the_search_answers(monkeypatch):
    """The worker process gets the view, not the state, and finds the same move."""
    monkeypatch.setattr(search_pool, "SEARCH_WORKERS", 1)
    search_pool.shutdown()
    engine = get_engine("tower")
    try:
        for state, seat in list(positions("tower", seeds=[2], every=9))[:2]:
            here = search.hard_action(engine, state, seat, random.Random(4))
            there = await search_pool.think(engine, state, seat, random.Random(4))
            assert here == there
    finally:
        search_pool.shutdown()


def test_parse_level():
    assert search.parse_level("HARD") == "hard" and search.parse_level(None) == "normal"
    with pytest.raises(ValueError, match="easy, normal, hard"):
        search.parse_level("expert")


# --- the table service --------------------------------------------------------------
@pytest.fixture
async def service(tmp_path, monkeypatch):
    monkeypatch.setattr(search_pool, "SEARCH_WORKERS", 0)  # a thread: the same code path, no process start
    monkeypatch.setitem(search.BUDGETS, "tower", SMALL)
    search_pool.shutdown()
    storage = await Storage(str(tmp_path / "s.db")).open()
    seeds = iter(range(1, 10_000))
    svc = TableService(storage, seed_source=lambda: next(seeds))
    yield svc
    await storage.close()
    search_pool.shutdown()


async def test_addbot_levels_are_named_in_the_seat_list(service):
    game = await service.open(1, 10, "tower", 100, "Ann")
    await service.add_bot(game.id, 100, "hard")
    await service.add_bot(game.id, 100)
    row = await service.add_bot(game.id, 100, "easy")
    assert [s["name"] for s in row.seats] == ["Ann", "Bot 1 (hard)", "Bot 2", "Bot 3 (easy)"]
    assert [s.get("level") for s in row.seats] == [None, "hard", "normal", "easy"]
    with pytest.raises(TableError, match="easy, normal, hard"):
        await service.add_bot(game.id, 100, "godlike")


async def test_a_game_with_hard_bots_replays_exactly_from_its_log(service, monkeypatch):
    """Bot moves are logged like any move: a replay does not search again."""
    game = await service.open(1, 10, "tower", 100, "Ann")
    await service.add_bot(game.id, 100, "hard")
    await service.add_bot(game.id, 100, "hard")
    calls = []
    real = search_pool.think

    async def counting(*args):
        calls.append(1)
        return await real(*args)

    monkeypatch.setattr(search_pool, "think", counting)
    outcome = await service.start(game.id, 100)
    engine = get_engine("tower")
    rng = random.Random(0)
    while outcome.game.status == "running":
        assert engine.to_act(outcome.game.state) == [0]  # the bots have moved; the human is up
        outcome = await service.act(game.id, 100, engine.bot_action(outcome.game.state, 0, rng))
    assert calls  # the hard seats searched
    searched = len(calls)
    row, state, total = await service.replay(game.id)
    assert json.dumps(state, sort_keys=True) == json.dumps(row.state, sort_keys=True)
    assert len(calls) == searched  # replaying ran no search


async def test_timed_out_and_departed_seats_play_at_the_server_level(service, monkeypatch):
    assert (await service.storage.settings(1)).bot_level == "normal"
    s = await service.storage.settings(1)
    s.bot_level = "easy"
    await service.storage.save_settings(s)
    assert (await service.storage.settings(1)).bot_level == "easy"
    levels = []
    real = search.level_action

    def spy(engine, state, seat, rng, level):
        levels.append((seat, level))
        return real(engine, state, seat, rng, level)

    monkeypatch.setattr("bot.tables.play.level_action", spy)
    game = await service.open(1, 10, "tower", 100, "Ann")
    await service.join(game.id, 101, "Bob")
    await service.add_bot(game.id, 100)  # added as normal: stays normal
    await service.start(game.id, 100)
    await service.remove_player(game.id, 101)  # Bob leaves: the server's level takes his seat
    row = await service.get(game.id)
    engine = get_engine("tower")
    rng = random.Random(1)
    while row.status == "running" and not ({1} & set(s for s, _ in levels)):
        seat = engine.to_act(row.state)[0]
        assert seat == 0
        row = (await service.act(game.id, 100, engine.bot_action(row.state, 0, rng))).game
    assert (1, "easy") in levels and all(level == "normal" for seat, level in levels if seat == 2)


def test_the_confidence_rule_keeps_the_heuristic_against_a_lucky_streak():
    """Paired gains: a candidate overrules the heuristic only when it beat it sample by sample by
    more than the noise (``confidence`` standard errors); with 0 the plain mean difference counts."""
    assert search._gain([1, 0, 1, 0], [0, 1, 0, 1], 1.0) < 0
    assert search._gain([1, 1, 1, 1], [0, 0, 0, 0], 1.0) == 1.0
    lucky = search._gain([1, 0, 0, 1, 0], [0, 0, 0, 0, 0], 1.0)
    assert 0 < lucky < 0.4 and search._gain([1, 0, 0, 1, 0], [0, 0, 0, 0, 0], 0.0) == pytest.approx(0.4)
    assert search._gain([1], [0], 1.0) < 0  # one sample says nothing about its noise


@pytest.mark.parametrize("key", ["masterminds", "sleeping", "tower", "heist"])
def test_a_playout_cut_short_is_judged_by_the_games_evaluation(key, monkeypatch):
    """Cut-short playouts are worth a chance of winning from the game's evaluation: the seat
    ahead gets more than 1/2, the others less (Tower's and Sleeping Wizard's fitted chances share one
    win out among the seats: the best above a fair share, the worst below); a game without one counts 0.25."""
    engine = get_engine(key)
    state = engine.setup([f"P{i}" for i in range(4)], {}, 1)
    rng = random.Random(1)
    values = [0.5] * 4
    for _ in range(400):
        seat = engine.to_act(state)[0]
        engine.apply(state, seat, engine.bot_action(state, seat, rng))
        values = [search.outcome_value(engine, state, s) for s in range(4)]
        if len(set(values)) > 1:
            break
    assert not engine.is_terminal(state) and len(set(values)) > 1 and all(0 < v < 1 for v in values)
    ranked = sorted(values)
    if key in ("tower", "sleeping"):  # at 3+ players every seat's fitted chance, shared out to add up to one
        assert sum(values) == pytest.approx(1) and ranked[-1] > 1 / 4 > ranked[0]
    else:
        assert ranked[-1] >= 0.5 >= ranked[-2] and ranked[0] < 0.5
    monkeypatch.setitem(search._HOOKS, (key, "evaluate"), None)  # a game without one
    assert search.outcome_value(engine, state, 0) == 0.25


def test_a_budget_may_differ_by_table_size(monkeypatch):
    """Tower heads-up plays whole games (the hauls as they stand misjudge a 2-player game), at 4
    players it cuts playouts short; the search picks the budget from the view's table size."""
    tower = get_engine("tower")
    assert search.engine_budget(tower, 2).horizon > 100 and search.engine_budget(tower, 4).horizon <= 10
    assert search.engine_budget(tower) == search.BUDGETS["tower"]
    used: list = []
    monkeypatch.setattr(search, "engine_budget", lambda engine, players=0: used.append(players) or
                        search.BUDGETS["tower"])
    state = tower.setup(["A", "B"], {}, 1)
    seat = tower.to_act(state)[0]
    search.search(tower, tower.view(state, seat), tower.legal_actions(state, seat), seat, 1)
    assert used == [2]
