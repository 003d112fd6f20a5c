"""Masterminds: Heist Society (game key ``masterminds``)."""
from .engine import ENGINE, MastermindsEngine

__all__ = ["ENGINE", "MastermindsEngine"]
