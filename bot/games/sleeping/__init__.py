"""Sleeping Wizard (game key ``sleeping``)."""
from bot.games.sleeping.engine import SleepingEngine

ENGINE = SleepingEngine()

__all__ = ["ENGINE", "SleepingEngine"]
