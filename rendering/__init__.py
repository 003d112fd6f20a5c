"""Pillow renderers. Each game has ``rendering/<key>.py`` drawing *views* only
(never full state), so a public image cannot show a secret by construction.

A renderer module provides ``render_board(view) -> Image`` and may provide
``render_private(view) -> Image | None`` (a seat's own view) and
``render_final(view, scores) -> Image`` (the final scoreboard).
"""
from __future__ import annotations

import importlib
from functools import lru_cache
from types import ModuleType
from typing import Any

from rendering.common import to_png


@lru_cache(maxsize=None)
def renderer(key: str) -> ModuleType | None:
    try:
        return importlib.import_module(f"rendering.{key}")
    except ModuleNotFoundError as exc:
        if exc.name == f"rendering.{key}":
            return None
        raise


def render(key: str, kind: str, view: dict[str, Any], *extra: Any) -> bytes | None:
    """PNG bytes of ``render_<kind>`` for game ``key``, or None if it has none."""
    module = renderer(key)
    func = getattr(module, f"render_{kind}", None) if module else None
    if func is None:
        return None
    image = func(view, *extra)
    return None if image is None else to_png(image)
