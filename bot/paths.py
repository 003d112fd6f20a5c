"""Where the game data, the fonts and the rules docs are: one place for every engine, renderer and cog.

The repository keeps them in its top-level ``data/``. A wheel ships that folder as
the package ``heistcord_data`` (``pyproject.toml`` maps ``data/`` to that name, so
it can't clash with another distribution's ``data``), and an editable install maps
the same name to the checkout's ``data/``. Running straight from a checkout that
was never installed falls back to ``data/`` beside ``bot/``. The games' rules docs
(``docs/rules/*.md``, which the bot sends as files) ship the same way, as ``heistcord_rules``.
"""
from __future__ import annotations

import importlib.util
from pathlib import Path

DATA_PACKAGE = "heistcord_data"
CHECKOUT_DATA = Path(__file__).resolve().parent.parent / "data"
RULES_PACKAGE = "heistcord_rules"  # docs/rules/, the games' full rules docs, as the wheel ships them
CHECKOUT_RULES = Path(__file__).resolve().parent.parent / "docs" / "rules"


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


def find_rules_dir() -> Path | None:
    """The installed ``heistcord_rules`` folder (the games' rules docs), else the checkout's ``docs/rules/``."""
    spec = importlib.util.find_spec(RULES_PACKAGE)
    for location in (spec.submodule_search_locations or []) if spec else []:
        if any(Path(location).glob("*.md")):
            return Path(location)
    return CHECKOUT_RULES if CHECKOUT_RULES.is_dir() else None


def rules_doc(key: str) -> Path | None:
    """The full rules doc of the game ``key`` (``docs/rules/<key>.md``), or None if it has none."""
    folder = find_rules_dir()
    path = folder / f"{key}.md" if folder is not None and key.isidentifier() else None
    return path if path is not None and path.is_file() else None
