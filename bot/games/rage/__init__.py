"""Wizard's Rage: one wizard against 2-4 heroes on a crumbling grid."""
from .engine import ENGINE, RageEngine

__all__ = ["ENGINE", "RageEngine"]
