"""Masterminds: Heist Society (game key ``masterminds``)."""
from .engine import MastermindsEngine

ENGINE = MastermindsEngine()

__all__ = ["ENGINE", "MastermindsEngine"]
