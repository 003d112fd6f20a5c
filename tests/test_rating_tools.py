"""The tools that seed and measure the ratings (tools/bot_games.py, tools/server_ladder.py, tools/predict_winners.py):
the games' cache, the simulated servers' tables, and predictions made before a game is rated. Few, cheap games:
the figures themselves come from the tools (docs/ratings.md)."""
import math
import random
from collections import Counter

import pytest

from bot import ratings
from bot.ratings import Rating
from bot.search import LEVELS
from tools import bot_games, seed_bot_ratings, server_ladder
from tools.predict_winners import proportional, score
from tools.server_ladder import Prior, Table, draw_server, predict_server


def test_played_games_are_cached_by_table_and_read_back_without_playing(tmp_path, monkeypatch):
    monkeypatch.setenv("HEISTCORD_BOT_GAMES", str(tmp_path))
    tables = [(5, ("easy", "normal")), (6, ("normal", "easy", "normal"))]
    first = bot_games.played("tower", tables, progress=False)
    assert [(g["seed"], tuple(g["levels"])) for g in first] == tables
    assert all(any(r["won"] for r in g["results"]) for g in first)
    assert bot_games.cache_file("tower").parent == tmp_path
    monkeypatch.setattr(bot_games, "play", lambda task: pytest.fail(f"played {task} again"))
    assert bot_games.played("tower", list(reversed(tables)), progress=False) == list(reversed(first))
    # the same seed with other levels is another game
    with pytest.raises(pytest.fail.Exception):
        bot_games.played("tower", [(5, ("normal", "easy"))], progress=False)


def test_the_cache_is_keyed_by_the_code_that_plays_the_game(tmp_path, monkeypatch):
    for path in ("bot/engine.py", "bot/rng.py", "bot/games/__init__.py", "bot/search/__init__.py",
                 "bot/games/tower/engine.py", "bot/games/rage/engine.py"):
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text("# v1\n")
    monkeypatch.setattr(bot_games, "ROOT", tmp_path)
    tower, rage = bot_games.code_fingerprint("tower"), bot_games.code_fingerprint("rage")
    (tmp_path / "bot/games/rage/engine.py").write_text("# v2\n")
    assert bot_games.code_fingerprint("tower") == tower != bot_games.code_fingerprint("rage") != rage
    (tmp_path / "bot/search/__init__.py").write_text("# v2\n")  # the bots' search: every game plays anew
    assert bot_games.code_fingerprint("tower") != tower


@pytest.mark.parametrize("key", ["tower", "rage"])
def test_a_servers_tables_few_games_a_player_the_host_in_seat_0_each_bot_once(key):
    tables = draw_server(key, 101, players=20)
    assert tables == draw_server(key, 101, players=20)  # drawn from the server's number alone
    assert len({t.seed for t in tables}) == len(tables)
    games = Counter(who for t in tables for who in t.seats if ratings.bot_level(who) is None)
    assert len(games) == 20 and 1 <= min(games.values()) and max(games.values()) <= server_ladder.MAX_GAMES
    level_of = {}
    for t in tables:
        assert ratings.bot_level(t.seats[0]) is None  # a player hosts
        assert len(t.seats) == 3 if key == "rage" else 2 <= len(t.seats) <= 3
        bots = [who for who in t.seats if ratings.bot_level(who) is not None]
        assert len(bots) == len(set(bots)) and len(set(t.seats)) == len(t.seats)
        for who, level in zip(t.seats, t.levels):
            assert level_of.setdefault(who, level) == level  # a player keeps their hidden level
            assert ratings.bot_level(who) in (None, level)


def test_on_a_selective_server_the_hard_players_meet_the_hard_bot_more_than_the_easy_ones():
    met = {level: Counter() for level in LEVELS}
    for server in (102, 104, 106):
        for t in draw_server("tower", server):
            met[t.levels[0]].update(ratings.bot_level(who) for who in t.seats[1:] if ratings.bot_level(who))
    share = {level: met[level]["hard"] / sum(met[level].values()) for level in LEVELS}
    assert share["hard"] > 2 * share["easy"]


def test_each_game_is_predicted_before_it_is_rated():
    tables = draw_server("tower", 101, players=8)
    rng = random.Random(1)

    def record(table, winner):
        return {"game": "tower", "seed": table.seed, "levels": list(table.levels),
                "results": [{"seat": s, "rank": 1 if s == winner else 2, "won": s == winner}
                            for s in range(len(table.seats))]}

    games = [(t, record(t, rng.randrange(len(t.seats)))) for t in tables]
    known = Prior({level: ratings.DEFAULT for level in LEVELS})
    model = ratings.model_for("tower")
    before = predict_server("tower", games, known, model)
    j = len(games) // 2
    changed = list(games)
    table, old = changed[j]
    winner = next(r["seat"] for r in old["results"] if r["won"])
    changed[j] = (table, record(table, (winner + 1) % len(table.seats)))
    after = predict_server("tower", changed, known, model)
    assert [chances for chances, _ in after[:j + 1]] == [chances for chances, _ in before[:j + 1]]
    assert after[j][1] != before[j][1]  # the same chances were given, the winner differs
    later = [(a["rating"], a["win rate"]) != (b["rating"], b["win rate"]) for (a, _), (b, _) in
             zip(after[j + 1:], before[j + 1:])]
    assert any(later)  # the result was rated after it was predicted


def test_the_predictors_start_from_what_the_seeding_games_tell():
    known = Prior({"easy": Rating(20, 2), "normal": Rating(25, 2), "hard": Rating(30, 2)},
                  Counter(easy=10, normal=10, hard=10), Counter(easy=2, normal=4, hard=6), {(2, 0): 0.7, (2, 1): 0.3})
    table = Table(1, ("user:1", "bot:hard"), ("easy", "hard"))
    game = {"game": "tower", "seed": 1, "levels": ["easy", "hard"],
            "results": [{"seat": 0, "rank": 2, "won": False}, {"seat": 1, "rank": 1, "won": True}]}
    (chances, winners), = predict_server("tower", [(table, game)], known, ratings.model_for("tower"), 2.0)
    assert winners == [1]
    assert chances["seat"] == pytest.approx([0.7, 0.3])
    assert chances["uniform"] == [0.5, 0.5]
    assert chances["levels known"] == pytest.approx([0.2 / 0.8, 0.6 / 0.8])
    newcomer, hard = 0.4, (6 + 2 * 0.4) / (10 + 2)  # the prior's 2 seats at the mean share, 12 of 30
    assert chances["win rate"] == pytest.approx(proportional([newcomer, hard]))
    assert chances["rating"] == pytest.approx(ratings.win_chances([[ratings.DEFAULT], [Rating(30, 2)]]))


def test_a_pick_tied_between_favourites_counts_a_share_and_log_loss_is_of_the_winners_chance():
    assert score([0.5, 0.5], [1]) == pytest.approx((0.5, math.log(2)))
    assert score([0.2, 0.3, 0.5], [2]) == pytest.approx((1.0, -math.log(0.5)))
    assert score([0.2, 0.3, 0.5], [0, 1]) == pytest.approx((0.0, -math.log(0.5)))
    assert proportional([0.0, 0.0]) == [0.5, 0.5]


def test_the_seeds_are_shifted_so_that_a_new_player_starts_at_the_anchor():
    order = {"easy": 3, "normal": 2, "hard": 1}  # a synthetic ladder: hard beats normal beats easy
    records = [{"game": "tower", "seed": i, "levels": list(levels),
                "results": [{"seat": s, "rank": order[level], "won": order[level] == min(order[lv] for lv in levels)}
                            for s, level in enumerate(levels)]}
               for i, levels in enumerate([("easy", "normal"), ("normal", "hard"), ("easy", "hard", "normal")] * 4)]
    by_normal = seed_bot_ratings.seeds("tower", records, anchor="normal")
    by_levels = seed_bot_ratings.seeds("tower", records, anchor="levels")
    assert by_normal["normal"]["mu"] == pytest.approx(ratings.DEFAULT.mu)
    assert sum(r["mu"] for r in by_levels.values()) / 3 == pytest.approx(ratings.DEFAULT.mu, abs=1e-3)
    shifts = {by_levels[level]["mu"] - by_normal[level]["mu"] for level in LEVELS}
    assert max(shifts) - min(shifts) < 1e-3 and min(shifts) > 0  # one shift: the easy bot pulls the mean down
    assert by_levels["easy"]["mu"] < by_levels["normal"]["mu"] < by_levels["hard"]["mu"]
    again = seed_bot_ratings.reanchored(by_normal, anchor="levels")  # the file's seeds, shifted without replaying
    assert all(again[level]["mu"] == pytest.approx(by_levels[level]["mu"], abs=1e-3) for level in LEVELS)
    assert all(again[level]["sigma"] == by_normal[level]["sigma"] for level in LEVELS)
