"""HEIST's typed views (bot/games/heist/viewtypes.py): the declarations match what the engine builds,
key for key and all the way down, and a misspelt field is an error for the type checker."""
from __future__ import annotations

import random
import subprocess
import sys
import types
from pathlib import Path
from typing import Any, NotRequired, Union, get_args, get_origin, get_type_hints

from bot.games.heist import ENGINE
from bot.games.heist.viewtypes import HeistView

ROOT = Path(__file__).resolve().parents[3]


def _is_typeddict(kind: Any) -> bool:
    return isinstance(kind, type) and hasattr(kind, "__required_keys__")


def conforms(value: Any, kind: Any, where: str) -> None:
    """``value`` has exactly the keys ``kind`` declares (required ones always), recursively through
    lists, optional values and nested TypedDicts; plain values are checked by their type."""
    origin = get_origin(kind)
    if origin is NotRequired:
        conforms(value, get_args(kind)[0], where)
    elif origin in (Union, types.UnionType):
        options = get_args(kind)
        if value is None:
            assert type(None) in options, where
            return
        (inner,) = [option for option in options if option is not type(None)]
        conforms(value, inner, where)
    elif origin is list:
        assert isinstance(value, list), where
        for index, item in enumerate(value):
            conforms(item, get_args(kind)[0], f"{where}[{index}]")
    elif origin is dict:
        assert isinstance(value, dict), where
    elif _is_typeddict(kind):
        assert isinstance(value, dict), where
        declared = get_type_hints(kind, include_extras=True)
        assert set(kind.__required_keys__) <= set(value) <= set(declared), (where, set(value) ^ set(declared))
        for key, item in value.items():
            conforms(item, declared[key], f"{where}.{key}")
    elif kind is Any:
        pass
    else:
        assert isinstance(value, kind) and not (kind is int and isinstance(value, bool)), (where, value, kind)


def test_the_views_are_their_declared_types_all_the_way_down():
    for players in range(1, 7):
        state = ENGINE.setup([f"P{i}" for i in range(players)], {}, players)
        chooser = random.Random(players)
        for step in range(3000):
            if step % 5 == 0 or ENGINE.is_terminal(state):
                for seat in (None, *range(players)):
                    conforms(ENGINE.view(state, seat), HeistView, f"{players}p step {step} seat {seat}")
            if ENGINE.is_terminal(state):
                break
            seat = chooser.choice(ENGINE.to_act(state))
            ENGINE.apply(state, seat, chooser.choice(ENGINE.legal_actions(state, seat)))
        assert ENGINE.is_terminal(state)  # the final views (scores, secrets) were checked too


def test_a_misspelt_view_field_is_a_type_error(tmp_path):
    probe = tmp_path / "probe_heist_views.py"
    probe.write_text(
        "from bot.games.heist.viewtypes import HeistView\n\n\n"
        "def tops(view: HeistView) -> list[str]:\n"
        "    return [job['top']['nmae'] for job in view['jobs'] if job['top']]\n\n\n"  # 'name'
        "def helpers(view: HeistView) -> int:\n"
        "    return len(view['test']['assist']) if view['test'] else 0\n",  # 'assists'
        encoding="utf-8")
    run = subprocess.run([sys.executable, "-m", "mypy", "--cache-dir", str(tmp_path / "cache"), str(probe)],
                         cwd=ROOT, capture_output=True, text=True)
    assert run.returncode == 1, run.stdout + run.stderr
    assert '"ObstacleView" has no key "nmae"' in run.stdout
    assert '"CurrentTestView" has no key "assist"' in run.stdout
