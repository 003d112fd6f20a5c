"""The benchmark of what players wait for (``tests/bench_load.py``) runs, and prints every figure beside a floor
measured in the same run. No time is checked here (the machine is shared; the figures and their ratios are read by
people: docs/benchmarks.md)."""
from __future__ import annotations

import os
import re
import subprocess
import sys

from bot.games import shipped
from tests.bench_load import Move, assign_boards, check_boards

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

FIGURES = [
    "storage commit p50 (Storage.commit_actions)",
    "whole move p50 (TableService.act)",
    "storage commit per move, 50 moves arriving together (p50 of the batch time / 50)",
    *[f"event-loop CPU per move, platform's share ({key})" for key in sorted(shipped())],
    "timer loop queries p50 (fire_timers + next_timer)",
    "/gameadmin list p50 (game_summaries)",
    "database size per 1,000 finished games, states kept",
    "database size per 1,000 finished games, states compacted (retention)",
    "event-loop CPU during /game log of the longest game",
    "event-loop CPU during /game replay (a move of it) of the longest game",
    "event-loop CPU during /game replay (the animation's turns) of the longest game",
    "restart: process start -> connected to the gateway",
    "restart: process start -> first interaction answered",
    "restart: first move -> its board posted",
    "one at a time: click -> reply p50",
    "one at a time: click -> reply p99",
    "one at a time: click -> board posted p50",
    "one at a time: click -> board posted p99",
    "load: moves per second achieved",
    "load: click -> reply p50",
    "load: click -> reply p99",
    "load: /game play -> panel p99",
    "load: click -> board posted p50",
    "load: click -> board posted p99",
    "load: boards posted per second",
    "load: event-loop CPU per move",
    "human pace: click -> reply p99",
    "human pace: click -> board posted p50",
    "human pace: click -> board posted p99 (how far the board lags the move)",
    "human pace: event-loop CPU per move",
]
LINE = re.compile(r"^  (?P<name>.+?): heistcord (?P<value>[\d.]+) (?P<unit>\S+) \| floor (?P<floor>[\d.]+) (?P=unit)"
                  r" \((?P<floor_name>[^)]+(?:\)[^)|]*)*)\) \| ratio (?P<ratio>[\d.]+)x")


def test_quick_benchmark_prints_every_figure_beside_its_floor():
    run = subprocess.run([sys.executable, "-m", "tests.bench_load", "--quick"], cwd=ROOT, capture_output=True,
                         text=True, timeout=600)
    output = run.stdout + run.stderr
    assert run.returncode == 0, output[-4000:]
    printed = {m["name"]: m for m in map(LINE.match, run.stdout.splitlines()) if m}
    missing = [name for name in FIGURES if name not in printed]
    assert not missing, f"figures not printed with a floor: {missing}\n{run.stdout}"
    for name in FIGURES:
        line = printed[name]
        assert float(line["floor"]) > 0, line.group(0)
        assert abs(float(line["value"]) / float(line["floor"]) - float(line["ratio"])) <= 0.05 * float(line["ratio"]) + 0.1, \
            line.group(0)


def move(channel: int, user: int, sent: float, reply: float) -> Move:
    return Move(channel, user, sent, reply, None, ok=True)


def test_a_move_is_on_the_first_board_drawn_after_it_was_queued():
    # Table 1: a alone -> board at 2. b and c reply while the board of b is being drawn: c waits for the next.
    a, b, c = move(1, 10, 0.5, 1.0), move(1, 11, 2.5, 3.0), move(1, 12, 3.5, 4.0)
    # Table 2 is independent: its board at 4.5 shows d, even though table 1 is busy.
    d = move(2, 20, 3.9, 4.1)
    boards = [(2.0, 1, ""), (4.5, 2, ""), (5.0, 1, ""), (6.0, 1, "")]
    assign_boards([a, b, c, d], boards)
    assert (a.board, b.board, c.board, d.board) == (2.0, 5.0, 6.0, 4.5)


def test_moves_queued_together_share_the_next_board_and_moves_never_shown_have_none():
    a, b, c, e = move(1, 10, 0.0, 0.1), move(1, 11, 0.2, 0.3), move(1, 12, 0.4, 0.5), move(1, 10, 2.0, 2.1)
    failed = Move(1, 11, 0.6, 0.7, None, ok=False)  # refused moves queue no board
    assign_boards([a, b, c, failed, e], [(1.0, 1, ""), (1.5, 1, "")])
    assert (a.board, b.board, c.board, failed.board, e.board) == (1.0, 1.5, 1.5, None, None)


def test_the_cross_check_reads_whom_each_board_waits_for():
    a, b, c = move(1, 10, 0.0, 0.1), move(1, 11, 1.0, 1.1), move(1, 12, 3.0, 3.1)
    boards = [(0.5, 1, "**Tower**\n⏳ Waiting for: <@11>"), (2.0, 1, "**Tower**\n⏳ Waiting for: <@12>")]
    assign_boards([a, b, c], boards)
    assert check_boards([a, b, c]) == (2, 2)
    wrong = [(0.5, 1, "⏳ Waiting for: <@10>"), (2.0, 1, "⏳ Waiting for: <@12>")]
    a, b, c = move(1, 10, 0.0, 0.1), move(1, 11, 1.0, 1.1), move(1, 12, 3.0, 3.1)
    assign_boards([a, b, c], wrong)
    assert check_boards([a, b, c]) == (1, 2)


async def test_bot_bench_counts_a_board_when_it_is_drawn_not_when_it_is_queued(monkeypatch, capsys):
    """``python -m tools.bench``'s load run: boards still being drawn when the players stop are not boards drawn
    during the run (they used to be counted, and divided by the run's length)."""
    import asyncio

    import tools.bench

    seconds = 0.5

    async def slow_render(*args):  # finishes only after the players have stopped (each waits at most 2 s)
        await asyncio.sleep(seconds + 2.5)
        return b"png"

    monkeypatch.setattr(tools.bench, "render_async", slow_render)
    await tools.bench.bench_load(tables=5, guilds=1, seconds=seconds, with_render=True)
    out = capsys.readouterr().out
    drawn = re.search(r"boards: (\d+) drawn while the players moved \((\d+)/s\).*; (\d+) more drawn after", out)
    assert drawn, out
    assert (int(drawn[1]), int(drawn[2])) == (0, 0), out
    assert int(drawn[3]) >= 1, out


def test_the_rate_limit_benchmark_runs_and_draws_no_429():
    """``tests/bench_ratelimits.py`` at its smallest: a few tables opening at once, then playing, on the throttling
    fake (the figures themselves are read by people: docs/benchmarks.md)."""
    run = subprocess.run([sys.executable, "-m", "tests.bench_ratelimits", "--only", "opening,capacity", "--opening", "3",
                          "--capacity", "3", "--seconds", "3", "--pace", "0.3-0.6"], cwd=ROOT, capture_output=True,
                         text=True, timeout=600)
    assert run.returncode == 0, (run.stdout + run.stderr)[-4000:]
    assert "3 tables starting at once" in run.stdout and "capacity: 3 tables" in run.stdout, run.stdout
    assert run.stdout.count("429s from the fake Discord: 0") == 2, run.stdout
