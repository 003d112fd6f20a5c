"""Where the game data and the fonts are: one place for every engine and renderer.

The repository keeps them in its top-level ``data/``. A wheel ships that folder as
the package ``heistcord_data`` (``pyproject.toml`` maps ``data/`` to that name, so
it can't clash with another distribution's ``data``), and an editable install maps
the same name to the checkout's ``data/``. Running straight from a checkout that
was never installed falls back to ``data/`` beside ``bot/``.
"""
from __future__ import annotations

import importlib.util
from pathlib import Path

DATA_PACKAGE = "heistcord_data"
CHECKOUT_DATA = Path(__file__).resolve().parent.parent / "data"


def find_data_dir() -> Path:
    """The installed ``heistcord_data`` folder, else the checkout's ``data/``."""
    spec = importlib.util.find_spec(DATA_PACKAGE)
    for location in (spec.submodule_search_locations or []) if spec else []:
        if Path(location, "fonts").is_dir():
            return Path(location)
    if (CHECKOUT_DATA / "fonts").is_dir():
        return CHECKOUT_DATA
    raise FileNotFoundError(f"heistcord's game data is missing: no '{DATA_PACKAGE}' package installed"
                            f" and no {CHECKOUT_DATA}. Reinstall heistcord (pip install .).")


DATA_DIR = find_data_dir()
FONT_DIR = DATA_DIR / "fonts"
