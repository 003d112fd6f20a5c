"""The game registry: every package under ``bot/games/`` that exposes ``ENGINE``.

Adding a game means adding a package here (plus its renderer, cog and data);
nothing in the platform changes.
"""
from __future__ import annotations

import importlib
import pkgutil
from functools import lru_cache

from bot.engine import Engine


@lru_cache(maxsize=1)
def shipped() -> dict[str, Engine]:
    """The games that ship with heistcord: every package under bot/games/ with an ENGINE, by key."""
    games: dict[str, Engine] = {}
    for module in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        if not module.ispkg:
            continue
        package = importlib.import_module(f"{__name__}.{module.name}")
        engine = getattr(package, "ENGINE", None)
        if isinstance(engine, Engine):
            games[engine.meta.key] = engine
    return games


@lru_cache(maxsize=1)
def registry() -> dict[str, Engine]:
    """Every playable game by key: the shipped ones plus any added with :func:`register`."""
    return dict(shipped())


def register(engine: Engine) -> None:
    """Add an engine that does not live under ``bot/games/`` (tests use this)."""
    registry()[engine.meta.key] = engine


def get_engine(key: str) -> Engine:
    """The engine of the game ``key`` (KeyError naming the known games if there is none)."""
    try:
        return registry()[key]
    except KeyError:
        known = ", ".join(sorted(registry())) or "none"
        raise KeyError(f"Unknown game '{key}'. Games: {known}.") from None
