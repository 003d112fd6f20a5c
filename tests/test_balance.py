"""The balance report's runner and arithmetic (``python -m bot.balance``)."""
from __future__ import annotations

import pytest

from bot import balance
from bot.balance import GameRecord, report, run, win_shares


def record(winners: list[int], players: int = 3, **kw) -> GameRecord:
    base = dict(players=players, mode="bots", bot_seat=None, decisions=10, weighted_decisions=10.0,
                single_option=1, winners=winners, roles=["player"] * players, decisions_by_role={"player": 10},
                end="finished", available=[], used=[], goals={})
    base.update(kw)
    return GameRecord(**base)


def test_shared_wins_are_split_between_the_winners():
    shares = win_shares([record([0]), record([1, 2]), record([])], 3)
    assert shares == pytest.approx([1 / 3, 1 / 6, 1 / 6])


def test_report_marks_unfair_seats_rare_cards_and_goals_out_of_range():
    cell = balance.Cell("demo", 2)
    cell.bots = [record([0], players=2, available=["Sprint", "Scout"], used=["Scout"], goals={"Gambler": True})
                 for _ in range(40)]
    lines = "\n".join(report(cell))
    assert "1: 100% <-" in lines and "2: 0% <-" in lines
    assert "Sprint 0% <-" in lines and "Scout 100%" in lines and "Scout 100% <-" not in lines
    assert "Gambler 100% <-" in lines


def test_seeded_games_are_reproducible_and_counted_per_mode():
    cells = run("tower", 3, [2, 3], jobs=1)
    assert [(c.players, len(c.bots), len(c.vs_random)) for c in cells] == [(2, 3, 3), (3, 3, 3)]
    again = run("tower", 3, [2, 3], jobs=1)
    assert [r.winners for c in cells for r in c.bots] == [r.winners for c in again for r in c.bots]
    assert all(r.end != "did not finish" and r.decisions > 0 for c in cells for r in c.bots)
    assert {r.bot_seat for r in cells[1].vs_random} == {0, 1, 2}


def test_unknown_game_is_refused(capsys):
    with pytest.raises(SystemExit):
        balance.main(["chess", "--games", "1"])
    assert "unknown game" in capsys.readouterr().err


def test_with_asymmetric_roles_a_seat_is_compared_with_the_seats_of_its_role():
    cell = balance.Cell("demo", 3)
    roles = ["wizard", "hero", "hero"]
    cell.bots = [record([0], players=3, roles=roles) for _ in range(6)] + \
                [record([1, 2], players=3, roles=roles) for _ in range(4)]
    lines = "\n".join(report(cell))
    assert "1: 60%," in lines and "<-" not in lines.split("by seat")[1].split("\n")[0]
    assert "wizard wins 60% of games" in lines and "hero wins 40% of games" in lines


def test_a_simultaneous_moment_counts_as_one_decision():
    from bot.balance import decision_weight

    # Three seats asked at once answer one by one: one decision in time.
    assert [decision_weight(None, [0, 1, 2]), decision_weight([0, 1, 2], [0, 2]), decision_weight([0, 2], [2])] == [1, 0, 0]
    # Then the roller goes on alone, then the next player: each a decision of its own.
    assert decision_weight([2], [0]) == 1 and decision_weight([0], [0]) == 1 and decision_weight([0], [1]) == 1


def test_a_label_per_seat_is_no_role_to_compare_within():
    cell = balance.Cell("demo", 2)
    cell.bots = [record([0], players=2, roles=["1st", "2nd"]) for _ in range(10)]
    lines = "\n".join(report(cell))
    assert "fair 50%" in lines and "1: 100% <-" in lines
