"""The balance report's runner and arithmetic (``python -m tools.balance``)."""
from __future__ import annotations

import pytest

from tools import balance
from tools.balance import GameRecord, report, run, win_shares


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
    from tools.balance import decision_weight

    # Three seats asked at once answer one by one: one decision in time.
    assert [decision_weight(None, [0, 1, 2]), decision_weight([0, 1, 2], [0, 2]), decision_weight([0, 2], [2])] == [1, 0, 0]
    # Then the roller goes on alone, then the next player: each a decision of its own.
    assert decision_weight([2], [0]) == 1 and decision_weight([0], [0]) == 1 and decision_weight([0], [1]) == 1


def test_a_label_per_seat_is_no_role_to_compare_within():
    cell = balance.Cell("demo", 2)
    cell.bots = [record([0], players=2, roles=["1st", "2nd"]) for _ in range(10)]
    lines = "\n".join(report(cell))
    assert "fair 50%" in lines and "1: 100% <-" in lines


def test_the_role_line_is_checked_against_its_fair_share():
    # HEIST labels each seat by turn order: a start player who wins 40% at 3 players is 7 points over fair.
    cell = balance.Cell("demo", 3)
    roles = ["1. in turn order", "2. in turn order", "3. in turn order"]
    cell.bots = [record([0], players=3, roles=roles) for _ in range(4)] + \
                [record([1], players=3, roles=roles) for _ in range(3)] + \
                [record([2], players=3, roles=roles) for _ in range(3)]
    role_line = next(line for line in report(cell) if line.startswith("- by role"))
    assert "1. in turn order wins 40% (fair 33%) <-" in role_line
    assert "2. in turn order wins 30% (fair 33%)," in role_line


def test_the_role_line_splits_a_shared_win_as_the_seat_line_does():
    cell = balance.Cell("demo", 4)
    roles = ["thief", "thief", "guard", "guard"]
    # a win shared by a thief and a guard counts half for each role (it counted fully for both before)
    cell.bots = [record([0, 2], players=4, roles=roles) for _ in range(10)]
    role_line = next(line for line in report(cell) if line.startswith("- by role"))
    assert "guard wins 50% (fair 50%)," in role_line and "thief wins 50% (fair 50%)," in role_line


def test_turn_position_is_recorded_and_reported_when_the_start_player_varies():
    from tools.balance import turn_order

    assert turn_order([{"seat": 2}, {"seat": 0}, {"seat": 2}], 3) == [2, 0, 1]
    cell = balance.Cell("demo", 2)
    # Seat 1 starts half the games, and the first mover always wins: fair by seat, not by position.
    cell.bots = [record([0], players=2, turn_order=[0, 1]) for _ in range(5)] + \
                [record([1], players=2, turn_order=[1, 0]) for _ in range(5)]
    lines = report(cell)
    assert "1: 50%, 2: 50%" in next(line for line in lines if "by seat" in line)
    assert "1: 100% <-, 2: 0% <-" in next(line for line in lines if "turn position" in line)
    fixed = balance.Cell("demo", 2)
    fixed.bots = [record([0], players=2, turn_order=[0, 1]) for _ in range(4)]
    assert not any("turn position" in line for line in report(fixed))  # seat order: the seat line says it


def test_both_rule_sets_play_the_same_seeds_and_print_side_by_side(monkeypatch):
    seen = []
    real_play = balance.play

    def spy(key, players, seed, bot_seat=None, rules="tuned"):
        seen.append((seed, rules))
        return real_play(key, players, seed, bot_seat, rules)

    monkeypatch.setattr(balance, "play", spy)
    tuned = run("tower", 2, [2], jobs=1, rules="tuned")
    rulebook = run("tower", 2, [2], jobs=1, rules="rulebook")
    assert sorted(s for s, r in seen if r == "tuned") == sorted(s for s, r in seen if r == "rulebook")
    table = balance.side_by_side(tuned[0], rulebook[0])
    assert table[2] == "| | tuned | rulebook |" and any(row.startswith("| win share by seat") for row in table)


def test_a_game_is_played_under_the_rule_set_asked_for(monkeypatch):
    from bot.games import registry

    engine = registry()["tower"]
    asked = []
    real_setup = type(engine).setup
    monkeypatch.setattr(type(engine), "setup", lambda self, names, options, seed: asked.append(options["rules"])
                        or real_setup(self, names, options, seed))
    balance.play("tower", 2, 1, rules="rulebook")
    assert asked == ["rulebook"]
