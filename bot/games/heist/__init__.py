"""HEIST (game key ``heist``): semi-cooperative jobs for 1-6 players."""
from __future__ import annotations

from .engine import HeistEngine

ENGINE = HeistEngine()

__all__ = ["ENGINE", "HeistEngine"]
