"""The backends benchmark (``tests/bench_backends.py``: 1 process on SQLite, 1 and 2 processes on PostgreSQL)
runs and prints every figure beside its floor. No time is checked (the machine is shared; people read the
figures: docs/operations.md, "Running several processes"): so boards posted per second, counted in the quick run's two
seconds of play, may be 0 on a loaded machine (the boards come after; their ratio is then n/a)."""
from __future__ import annotations

import os
import re
import subprocess
import sys

from tests.test_bench_smoke import LINE

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LABELS = ("1 process on PostgreSQL", "2 processes on PostgreSQL")
FIGURES = [f"{label}: {what}" for label in LABELS
           for what in ("moves per second achieved", "click -> reply p50", "click -> reply p99", "click -> board posted p99")]
BOARD_RATES = [f"{label}: boards posted per second" for label in LABELS]
BOARD_RATE_LINE = re.compile(r"^  (?P<name>.+?): heistcord (?P<value>[\d.]+) boards/s \| floor (?P<floor>[\d.]+) boards/s"
                             r" \(1 process on SQLite\) \| ratio (?:[\d.]+x|n/a)$")


def test_quick_backends_benchmark_prints_every_figure_beside_its_floor():
    run = subprocess.run([sys.executable, "-m", "tests.bench_backends", "--quick"], cwd=ROOT, capture_output=True,
                         text=True, timeout=600)
    output = run.stdout + run.stderr
    assert run.returncode == 0, output[-4000:]
    assert "logged errors" not in output, output[-4000:]
    printed = {m["name"]: m for m in map(LINE.match, run.stdout.splitlines()) if m}
    missing = [name for name in FIGURES if name not in printed]
    assert not missing, f"figures not printed with a floor: {missing}\n{run.stdout}"
    for name in FIGURES:
        assert float(printed[name]["floor"]) > 0 and float(printed[name]["value"]) > 0, printed[name].group(0)
    rates = {m["name"] for m in map(BOARD_RATE_LINE.match, run.stdout.splitlines()) if m}
    assert rates >= set(BOARD_RATES), f"board rates not printed with a floor: {set(BOARD_RATES) - rates}\n{run.stdout}"
    for label in ("SQLite x1", "PostgreSQL x1", "PostgreSQL x2"):
        assert f"({label}: " in run.stdout and f"{label}: 0 moves" not in run.stdout
