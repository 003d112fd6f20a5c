"""10 Minute Heist: The Wizard's Tower."""
from .engine import ENGINE, TowerEngine

__all__ = ["ENGINE", "TowerEngine"]
