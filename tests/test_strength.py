"""The strength report's role runs (``python -m tools.strength rage --role wizard``): the hard bot sits only in that
role's seats, and its side's win rate is set against a normal bot's in the same seats and seeds."""
from __future__ import annotations

import pytest

from bot import search
from tools import strength


@pytest.fixture
def quick_search(monkeypatch):
    """A search small enough for a test (the real budget takes seconds a game)."""
    monkeypatch.setitem(search.BUDGETS, "rage", search.Budget(determinizations=2, candidates=2, moves=60,
                                                              min_determinizations=1, horizon=4))


def test_a_role_run_seats_the_hard_bot_only_in_that_role(quick_search):
    games: list[tuple[int, float]] = []
    strength.measure("rage", 4, 5, "hard", 1, None, games, seats=[1, 2, 3])
    assert [seat for seat, _ in games] == [1, 2, 3, 1, 2]
    games.clear()
    strength.measure("rage", 4, 5, "normal", 1, None, games)
    assert [seat for seat, _ in games] == [0, 1, 2, 3, 0]


def test_the_role_option_prints_the_sides_win_rate_and_speed(quick_search, capsys):
    assert strength.main(["rage", "--role", "wizard", "--games", "3", "--jobs", "1"]) == 0
    row = next(line for line in capsys.readouterr().out.splitlines() if "hard as wizard" in line)
    cells = [c.strip() for c in row.strip("|").split("|")]
    assert cells[0] == "rage" and cells[2] == "3" and cells[5].endswith("x") and cells[6].endswith("ms")
    with pytest.raises(SystemExit):
        strength.main(["rage", "--role", "thief", "--games", "1", "--jobs", "1"])
