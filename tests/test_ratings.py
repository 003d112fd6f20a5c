"""The rating rules and model (bot/ratings.py), without a database: who is rated, sides, ties, a level seated
twice, the conservative rating, and the bots' seeded ladder."""
import json
import math

import pytest
from openskill.models import PlackettLuce

from bot import ratings
from bot.games import registry, shipped
from bot.ratings import FinishedGame, Ladder, Rating, Seat, judge, rate, win_chances
from bot.search import LEVELS


def human(uid, **extra):
    return {"user_id": uid, "name": f"P{uid}", **extra}


def bot(level="normal", **extra):
    return {"user_id": None, "name": f"Bot ({level})", "bot": True, "level": level, **extra}


def finished(key, seats, ranks, moves=None, won=None):
    results = [{"seat": s, "name": seats[s]["name"], "rank": r, "won": (r == 1) if won is None else won[s]}
               for s, r in enumerate(ranks)]
    return FinishedGame(1, key, seats, results, moves or {})


def test_the_rating_shown_is_the_librarys_ordinal_and_a_new_player_shows_zero():
    r = Rating(27.5, 3.1)
    assert r.ordinal == PlackettLuce().rating(mu=27.5, sigma=3.1).ordinal() == pytest.approx(27.5 - 9.3)
    assert ratings.DEFAULT.ordinal == 0.0 and ratings.DEFAULT == Rating(25.0, 25 / 3)


def test_every_seat_is_ranked_by_its_final_standing_and_ties_stay_ties():
    game = finished("tower", [human(1), human(2), human(3), bot("hard")], [2, 1, 2, 4])
    seats, status = judge(game)
    assert status == ratings.RATED
    assert [(s.player, s.side, s.rank) for s in seats] == [
        ("user:1", 0, 2), ("user:2", 1, 1), ("user:3", 2, 2), ("bot:hard", 3, 4)]
    after = Ladder("dummy").take(game)[1]
    by = {c.player: c for c in after}
    assert by["user:2"].after.mu > 25 > by["bot:hard"].after.mu  # the winner up, the last down
    assert by["user:1"].after.mu == by["user:3"].after.mu  # a tie between equals: the same change


def test_a_tie_between_equals_for_first_moves_nobody():
    seats = [Seat(0, "user:1", "A", 0, 1, True), Seat(1, "user:2", "B", 1, 1, True)]
    new = rate(seats, {"user:1": ratings.DEFAULT, "user:2": ratings.DEFAULT})
    assert new["user:1"].mu == pytest.approx(25.0) and new["user:1"].sigma < ratings.DEFAULT.sigma


def test_wizards_rage_rates_the_wizard_against_the_heroes_as_one_side():
    assert registry()["rage"].rating_sides(4) == [[0], [1, 2, 3]]
    game = finished("rage", [human(1), human(2), human(3), bot()], [1, 2, 2, 2])
    seats, status = judge(game)
    assert status == ratings.RATED and [s.side for s in seats] == [0, 1, 1, 1]
    changes = {c.player: c for c in Ladder("rage").take(game)[1]}
    assert changes["user:1"].after.mu > 25 and changes["user:2"].after.mu < 25
    assert changes["user:2"].after == changes["user:3"].after  # heroes of equal ratings move alike


def test_unequal_sides_of_equal_players_are_even_chances_not_a_sure_loss_for_the_lone_wizard():
    wizard, heroes = [ratings.DEFAULT], [ratings.DEFAULT] * 3
    assert win_chances([wizard, heroes]) == pytest.approx([0.5, 0.5])
    # openskill on its own adds up a side's skills: a lone wizard would always be expected to lose ...
    model = PlackettLuce()
    assert model.predict_win([[model.rating()], [model.rating() for _ in range(3)]])[0] < 0.01
    # ... so the wizard's win would be a huge upset and a loss would cost nothing; with the sides compared as
    # equals, a win and a loss of the wizard move it by the same amount.
    def wizard_change(wizard_won):
        ranks = [1, 2, 2, 2] if wizard_won else [2, 1, 1, 1]
        game = finished("rage", [human(1), human(2), human(3), human(4)], ranks)
        return next(c for c in Ladder("rage").take(game)[1] if c.player == "user:1").after.mu - 25
    assert wizard_change(True) == pytest.approx(-wizard_change(False))


def test_a_level_seated_twice_moves_by_the_mean_of_its_seats_and_counts_one_game():
    ladder = Ladder("tower")
    game = finished("tower", [human(1), bot(), bot()], [2, 1, 3])
    status, changes = ladder.take(game)
    normal = [c for c in changes if c.player == "bot:normal"]
    assert status == ratings.RATED and len(normal) == 2 and normal[0].after == normal[1].after
    seeded = ratings.initial_rating("tower", "bot:normal")
    alone = rate([Seat(0, "user:1", "A", 0, 2, False), Seat(1, "bot:normal", "B", 1, 1, True),
                  Seat(2, "bot:x", "C", 2, 3, False)], {"user:1": ratings.DEFAULT, "bot:normal": seeded, "bot:x": seeded})
    other = rate([Seat(0, "user:1", "A", 0, 2, False), Seat(1, "bot:x", "B", 1, 1, True),
                  Seat(2, "bot:normal", "C", 2, 3, False)], {"user:1": ratings.DEFAULT, "bot:normal": seeded, "bot:x": seeded})
    assert normal[0].after.mu == pytest.approx((alone["bot:normal"].mu + other["bot:normal"].mu) / 2)
    assert ladder.standings["bot:normal"].games == 1 and ladder.standings["bot:normal"].wins == 1


def test_seats_a_bot_played_for_most_of_the_game_or_whose_player_left_are_left_out():
    seats = [human(1), human(2), bot(left_user_id=3), human(4, away=True)]
    moves = {0: (10, 0), 1: (5, 5), 2: (2, 9), 3: (4, 6)}  # seat 1 half and half: rated; seat 3 mostly a bot
    rated, status = judge(finished("tower", seats, [4, 3, 1, 2], moves))
    assert status == ratings.RATED and [(s.player, s.rank) for s in rated] == [("user:1", 4), ("user:2", 3)]


def test_a_game_with_no_human_left_or_a_single_side_is_not_rated():
    assert judge(finished("tower", [bot("easy"), bot("hard")], [2, 1]))[1] == ratings.NO_HUMANS
    assert judge(finished("tower", [bot("easy"), bot("hard")], [2, 1]), humans_needed=False)[1] == ratings.RATED
    assert judge(finished("heist", [human(1)], [1]))[1] == ratings.ONE_SIDE  # a solo job
    rage = finished("rage", [bot(left_user_id=9), human(2), human(3)], [2, 1, 1])  # the wizard's player left
    assert judge(rage)[1] == ratings.ONE_SIDE
    assert Ladder("rage").take(rage) == (ratings.ONE_SIDE, [])


def test_provisional_until_five_rated_games():
    ladder = Ladder("dummy")
    for n in range(1, 6):
        ladder.take(finished("dummy", [human(1), human(2)], [1, 2]))
        assert ladder.standings["user:1"].provisional == (n < ratings.PROVISIONAL_GAMES)
    assert ladder.standings["user:1"].games == 5 and ladder.standings["user:1"].wins == 5


def test_the_bots_seeded_ladder_covers_every_game_and_level_in_the_measured_strength_order():
    data = json.loads(ratings.SEEDS_FILE.read_text())
    assert set(data["games"]) == set(shipped())
    for key, levels in data["games"].items():
        assert set(levels) == set(LEVELS)
        seeded = [ratings.initial_rating(key, ratings.bot_player(level)) for level in LEVELS]
        # docs/bots.md "Bot levels": easy below normal below hard at every game, by the shown rating and by skill.
        assert [r.ordinal for r in seeded] == sorted(r.ordinal for r in seeded), key
        assert [r.mu for r in seeded] == sorted(r.mu for r in seeded), key
        # a new player starts at the three levels' mean skill (tools/seed_bot_ratings.py ANCHOR)
        assert sum(levels[level]["mu"] for level in LEVELS) / 3 == pytest.approx(ratings.DEFAULT.mu, abs=1e-3)
    assert ratings.initial_rating("dummy", "bot:hard") == ratings.DEFAULT  # no seeds: the default


def test_the_chances_are_the_plackett_luce_models_own_chances_of_coming_first():
    model = ratings.model_for("masterminds")
    hard, normal = Rating(40.6, 4.0), Rating(25.0, 3.9)
    c = math.sqrt(2 * model.beta ** 2 + 4.0 ** 2 + 3.9 ** 2)  # the spread the model rates with
    heads_up = 1 / (1 + math.exp(-(40.6 - 25.0) / c))
    assert win_chances([[hard], [normal]], model) == pytest.approx([heads_up, 1 - heads_up])
    three = [Rating(30, 3), Rating(25, 2), Rating(20, 4)]
    c = math.sqrt(sum(model.beta ** 2 + r.sigma ** 2 for r in three))
    weights = [math.exp(r.mu / c) for r in three]
    assert win_chances([[r] for r in three], model) == pytest.approx([w / sum(weights) for w in weights])
    # openskill's predict_win puts the same spread through a normal curve: far surer than the model that rated them
    library = model.predict_win([[model.rating(mu=r.mu, sigma=r.sigma)] for r in (hard, normal)])[0]
    assert library > heads_up + 0.05
