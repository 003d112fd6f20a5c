"""ruff (configured in pyproject.toml: pyflakes, import sorting, pep8-naming, docstrings on public names) finds
nothing in the repository."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def ruff(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "ruff", "check", "--no-cache", "--output-format", "concise", *args],
                          cwd=ROOT, capture_output=True, text=True)


def test_ruff_finds_nothing_in_the_repository():
    run = ruff(".")
    assert run.returncode == 0, run.stdout + run.stderr


def test_the_lint_check_fails_on_a_file_with_an_unused_import(tmp_path):
    """The same check, with the repository's settings, on a file that breaks a rule: ruff says so."""
    probe = tmp_path / "probe.py"
    probe.write_text('"""A module that imports what it never uses."""\nimport json\n', encoding="utf-8")
    run = ruff("--config", str(ROOT / "pyproject.toml"), str(probe))
    assert run.returncode == 1, run.stdout + run.stderr
    assert "F401" in run.stdout and "json" in run.stdout
