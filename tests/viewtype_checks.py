"""Checks shared by every game's typed-view tests: a view built by an engine against its declared
TypedDict (``same_keys`` for one level, ``conforms`` all the way down), and mypy run on a probe file
(a misspelt field must be a type error)."""
from __future__ import annotations

import subprocess
import sys
import types
from pathlib import Path
from typing import Any, NotRequired, Union, get_args, get_origin, get_type_hints

ROOT = Path(__file__).resolve().parent.parent


def same_keys(value: dict, kind: type) -> None:
    """``value`` has every required key of ``kind`` and no key ``kind`` doesn't declare."""
    declared = set(get_type_hints(kind))
    required = set(kind.__required_keys__)  # type: ignore[attr-defined]
    assert required <= set(value) <= declared, (kind.__name__, set(value) ^ declared)


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


def mypy_on(tmp_path: Path, name: str, source: str) -> subprocess.CompletedProcess[str]:
    """mypy, with the repository's settings, over a probe module written to ``tmp_path``."""
    probe = tmp_path / f"{name}.py"
    probe.write_text(source, encoding="utf-8")
    return subprocess.run([sys.executable, "-m", "mypy", "--cache-dir", str(tmp_path / "cache"), str(probe)],
                          cwd=ROOT, capture_output=True, text=True)
