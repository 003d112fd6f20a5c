"""The type checker (mypy, configured in pyproject.toml) passes over bot/ and rendering/, and the
typed views really tie an engine to its renderer: reading a field a view doesn't have is an error."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.viewtype_checks import same_keys

ROOT = Path(__file__).resolve().parent.parent


def mypy(*args: str, cache: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "mypy", "--cache-dir", str(cache), *args], cwd=ROOT,
                          capture_output=True, text=True)


def test_mypy_passes_over_bot_and_rendering(tmp_path):
    run = mypy(cache=tmp_path)  # files and settings from pyproject.toml
    assert run.returncode == 0, run.stdout + run.stderr
    assert "Success" in run.stdout


def test_a_renamed_view_field_is_caught(tmp_path):
    probe = tmp_path / "probe_views.py"
    probe.write_text(
        "from bot.games.rage.viewtypes import RageView\n"
        "from bot.games.tower.viewtypes import TowerView\n\n\n"
        "def rage_heroes(view: RageView) -> int:\n"
        "    return len(view['heros'])\n\n\n"  # a typo of 'heroes'
        "def tower_floors(view: TowerView) -> int:\n"
        "    return len(view['tower']) + view['pawns'][0]['floors']\n",  # 'floor'
        encoding="utf-8")
    run = mypy(str(probe), cache=tmp_path / "cache")
    assert run.returncode == 1, run.stdout + run.stderr
    assert '"RageView" has no key "heros"' in run.stdout
    assert "has no key \"floors\"" in run.stdout


def test_the_engines_views_are_their_declared_types():
    """The declarations match what the engines build (every key, no extra ones) at run time too."""

    import random

    from bot.games.rage import ENGINE as RAGE
    from bot.games.rage.viewtypes import HeroPrivate, RageView, WizardPrivate
    from bot.games.tower import ENGINE as TOWER
    from bot.games.tower.viewtypes import TowerPrivate, TowerView

    for engine, players, public, private in ((RAGE, 3, RageView, lambda seat: WizardPrivate if seat == 0 else HeroPrivate),
                                             (TOWER, 3, TowerView, lambda seat: TowerPrivate)):
        state = engine.setup([f"P{i}" for i in range(players)], {}, 3)
        chooser = random.Random(3)
        for step in range(5000):
            if step % 7 == 0 or engine.is_terminal(state):
                for seat in (None, *range(players)):
                    view = engine.view(state, seat)
                    same_keys(view, public)
                    if seat is not None:
                        same_keys(view["private"], private(seat))
            if engine.is_terminal(state):
                break
            seat = chooser.choice(engine.to_act(state))
            engine.apply(state, seat, chooser.choice(engine.legal_actions(state, seat)))
        assert engine.is_terminal(state)  # the final views were checked too
    assert "final" in TOWER.view(state, None)
